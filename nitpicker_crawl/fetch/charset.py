"""Decoding a fetched HTML body as a browser does, whatever charset the server claims.

``Content-Type: text/html; charset=rot13`` names a Python codec that is not a text
encoding (``bytes.decode('rot13')`` raises), ``charset=base64`` another, and
``charset=x-klingon`` none at all. A crawler that hands the label to Python loses the
page. Browsers follow the HTML Standard's encoding sniffing instead, and so does
:func:`decode_html`, first match wins:

1. a byte order mark (UTF-8, UTF-16LE, UTF-16BE) — it beats the header, so a UTF-16
   page served as ``charset=utf-8`` is still read right;
2. the header's ``charset``, if it is a label of the Encoding Standard;
3. a ``<meta charset>`` or ``<meta http-equiv=Content-Type content="…charset=…">`` in the
   first 1,024 bytes (a UTF-16 label there means UTF-8, as the standard says);
4. UTF-8, undecodable bytes replaced by U+FFFD.

Only labels of the Encoding Standard are honoured (mapped to the codec browsers use for
them: ``iso-8859-1`` and ``ascii`` are windows-1252, ``shift_jis`` is Windows-31J,
``gb2312`` is GBK …), so no label can reach a Python codec that is not a web encoding.
"""

from __future__ import annotations

import codecs
import re

_LABELS: dict[str, tuple[str, ...]] = {
    "utf-8": ("unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8",
              "x-unicode20utf8"),
    "cp1252": ("ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819",
               "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1",
               "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252"),
    "iso8859-2": ("csisolatin2", "iso-8859-2", "iso-ir-101", "iso8859-2", "iso88592",
                  "iso_8859-2", "iso_8859-2:1987", "l2", "latin2"),
    "iso8859-3": ("csisolatin3", "iso-8859-3", "iso-ir-109", "iso8859-3", "iso88593",
                  "iso_8859-3", "l3", "latin3"),
    "iso8859-4": ("csisolatin4", "iso-8859-4", "iso-ir-110", "iso8859-4", "iso88594",
                  "iso_8859-4", "l4", "latin4"),
    "iso8859-5": ("csisolatincyrillic", "cyrillic", "iso-8859-5", "iso-ir-144", "iso8859-5",
                  "iso88595", "iso_8859-5"),
    "iso8859-6": ("arabic", "asmo-708", "csiso88596e", "csiso88596i", "csisolatinarabic",
                  "ecma-114", "iso-8859-6", "iso-8859-6-e", "iso-8859-6-i", "iso-ir-127",
                  "iso8859-6", "iso88596", "iso_8859-6"),
    "iso8859-7": ("csisolatingreek", "ecma-118", "elot_928", "greek", "greek8", "iso-8859-7",
                  "iso-ir-126", "iso8859-7", "iso88597", "iso_8859-7", "sun_eu_greek"),
    "iso8859-8": ("csiso88598e", "csisolatinhebrew", "hebrew", "iso-8859-8", "iso-8859-8-e",
                  "iso-ir-138", "iso8859-8", "iso88598", "iso_8859-8", "visual",
                  "csiso88598i", "iso-8859-8-i", "logical"),
    "iso8859-10": ("csisolatin6", "iso-8859-10", "iso-ir-157", "iso8859-10", "iso885910",
                   "l6", "latin6"),
    "iso8859-13": ("iso-8859-13", "iso8859-13", "iso885913"),
    "iso8859-14": ("iso-8859-14", "iso8859-14", "iso885914"),
    "iso8859-15": ("csisolatin9", "iso-8859-15", "iso8859-15", "iso885915", "iso_8859-15",
                   "l9"),
    "iso8859-16": ("iso-8859-16",),
    "koi8-r": ("cskoi8r", "koi", "koi8", "koi8-r", "koi8_r"),
    "koi8-u": ("koi8-ru", "koi8-u"),
    "mac-roman": ("csmacintosh", "mac", "macintosh", "x-mac-roman"),
    "mac-cyrillic": ("x-mac-cyrillic", "x-mac-ukrainian"),
    "cp874": ("dos-874", "iso-8859-11", "iso8859-11", "iso885911", "tis-620", "windows-874"),
    "cp1250": ("cp1250", "windows-1250", "x-cp1250"),
    "cp1251": ("cp1251", "windows-1251", "x-cp1251"),
    "cp1253": ("cp1253", "windows-1253", "x-cp1253"),
    "cp1254": ("cp1254", "csisolatin5", "iso-8859-9", "iso-ir-148", "iso8859-9", "iso88599",
               "iso_8859-9", "l5", "latin5", "windows-1254", "x-cp1254"),
    "cp1255": ("cp1255", "windows-1255", "x-cp1255"),
    "cp1256": ("cp1256", "windows-1256", "x-cp1256"),
    "cp1257": ("cp1257", "windows-1257", "x-cp1257"),
    "cp1258": ("cp1258", "windows-1258", "x-cp1258"),
    "cp866": ("866", "cp866", "csibm866", "ibm866"),
    "gbk": ("chinese", "csgb2312", "csiso58gb231280", "gb2312", "gb_2312", "gb_2312-80", "gbk",
            "iso-ir-58", "x-gbk"),
    "gb18030": ("gb18030",),
    "big5hkscs": ("big5", "big5-hkscs", "cn-big5", "csbig5", "x-x-big5"),
    "euc_jp": ("cseucpkdfmtjapanese", "euc-jp", "x-euc-jp"),
    "iso2022_jp": ("csiso2022jp", "iso-2022-jp"),
    "cp932": ("csshiftjis", "ms932", "ms_kanji", "shift-jis", "shift_jis", "sjis",
              "windows-31j", "x-sjis"),
    "cp949": ("cseuckr", "csksc56011987", "euc-kr", "iso-ir-149", "korean", "ks_c_5601-1987",
              "ks_c_5601-1989", "ksc5601", "ksc_5601", "windows-949"),
    "utf-16-be": ("unicodefffe", "utf-16be"),
    "utf-16-le": ("csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16",
                  "utf-16le"),
}
ENCODINGS = {label: codec for codec, labels in _LABELS.items() for label in labels}
"""Encoding Standard label → the Python codec of the encoding browsers use for it."""

_META = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_:.+-]+)""", re.IGNORECASE)
_BOMS = ((codecs.BOM_UTF8, "utf-8"), (codecs.BOM_UTF16_LE, "utf-16-le"),
         (codecs.BOM_UTF16_BE, "utf-16-be"))


def codec_for(label: str | None) -> str | None:
    """The codec an Encoding Standard ``label`` names, or None (unknown, or none)."""
    if not label:
        return None
    return ENCODINGS.get(label.strip().strip("\"'").lower())


def sniff(body: bytes, header_charset: str | None) -> str:
    """The codec to decode ``body`` with (BOM → header → ``<meta>`` → UTF-8)."""
    for bom, codec in _BOMS:
        if body.startswith(bom):
            return codec
    declared = codec_for(header_charset)
    if declared is not None:
        return declared
    match = _META.search(body[:1024])
    if match is not None:
        meta = codec_for(match.group(1).decode("ascii"))
        if meta is not None:
            return "utf-8" if meta.startswith("utf-16") else meta
    return "utf-8"


def decode_html(body: bytes, header_charset: str | None) -> str:
    """``body`` as text, never failing: undecodable bytes become U+FFFD."""
    codec = sniff(body, header_charset)
    for bom, name in _BOMS:
        if name == codec and body.startswith(bom):
            body = body[len(bom):]
            break
    return body.decode(codec, errors="replace")
