"""The Apache HTTP Server manual (Debian's ``apache2-doc``) served by Debian's ``apache2``
as a crawl target: set it up, serve it, say what an audit of it should find, crawl it.

    python corpora/real/apache_doc.py          # set up, serve until Ctrl-C, print URL and facts
    python corpora/real/apache_doc.py --check  # … then check the facts against the live server
    python corpora/real/apache_doc.py --crawl  # … then crawl it (never external links) and
                                               # print the crawl's summary

Why this target: a real, static, multilingual documentation site nobody wrote for a test —
about 2,700 HTML pages in 11 languages with real defects (links one directory too high,
pages of modules that no longer exist), a meta refresh at its entry, a directory
redirect, and hundreds of links to internet hosts that a crawl must not fetch.

What Debian installs (``apache2-doc`` 2.4.x, ``/usr/share/doc/apache2-doc/manual/``,
26 MB): not upstream's ``foo.html.<lang>`` variants chosen by MultiViews, but one
directory per language (``da de en es fr ja ko pt-br ru tr zh-cn``), each a full copy of
the tree: a translated page is a file of its own, an untranslated one a symlink to the
English page (``pt-br/suexec.html -> ../en/suexec.html``) — which is why Debian's
``/etc/apache2/conf-available/apache2-doc.conf`` is only::

    Alias /manual /usr/share/doc/apache2-doc/manual/
    <Directory "/usr/share/doc/apache2-doc/manual/">
        Options Indexes FollowSymlinks
        AllowOverride None
        Require all granted
        AddDefaultCharset off
    </Directory>

(no MultiViews, no AddLanguage, no AliasMatch of its own: the ``AddLanguage`` and
``LanguagePriority``/``ForceLanguagePriority`` lines of a Debian server come from
``mods-available/mime.conf`` and ``negotiation.conf``, loaded here as Debian loads them,
and change nothing for these ``.html`` files). ``manual/index.html`` is a bare page with
``<meta http-equiv="refresh" content="0; URL=en/index.html">`` and a link to each
language's ``index.html`` (``pt-br`` twice); ``images/`` and ``style/`` hold the shared
pictures, CSS and scripts.

Each server here lives in a temporary directory of its own (``setup``):

- ``httpd.conf``  its configuration (written by ``serve``, with the port), read with
  ``apache2 -f``: ``ServerRoot`` the directory, ``PidFile`` and ``DefaultRuntimeDir``
  ``run/``, ``ErrorLog logs/error.log`` (``LogLevel warn``), no access log,
  ``Listen 127.0.0.1:<free port>``, ``mpm_event`` (one process to start with, 25 threads
  each) and Debian's default set of modules from ``/usr/lib/apache2/modules``
  (``MODULES``: alias, autoindex, deflate, dir, env, filter, mime, negotiation,
  reqtimeout, setenvif, authz_core, authz_host; not status, not the auth ones) with their
  Debian ``mods-available/*.conf``, the directives of Debian's ``apache2.conf`` that apply
  (``<Directory />`` denied, ``<Directory /usr/share>`` granted, ``.ht*`` denied,
  KeepAlive), Debian's ``conf-available/security.conf`` and ``charset.conf``, and Debian's
  ``conf-available/apache2-doc.conf`` itself, included as it is (nothing of the package
  is copied or changed);
- ``htdocs/``     the ``DocumentRoot``: an ``index.html`` linking to ``/manual/``;
- ``logs/``, ``run/``.

``serve`` runs ``apache2 -DFOREGROUND -f httpd.conf`` (no ``apachectl``, no ``envvars``)
as a process group of its own. Run as root, Apache must switch to another user for its
workers — with no ``User`` it switches to uid -1 and every worker dies (``AH02155``),
with ``User root`` it refuses to start ("Apache has not been designed to serve pages
while running as root") — so as root the config says ``User www-data`` / ``Group
www-data`` (Debian's), and the set-up directory must be readable by it (``setup``
opens it up); as anyone else no ``User`` is written and the workers stay that user.

What an audit should find. ``Site.facts(base)`` works it out from the files (a walk from
the root along ``<a href>`` and meta refresh, resolving each URL as this configuration
does; ~13 s of HTML parsing) and ``check`` confirms it request by request against the
live server (``--check``). Measured on Debian 12's ``apache2-doc`` 2.4.71-1~deb12u1, and
what ``--crawl`` (``--no-render --no-fetch-external --parallels 4``) recorded, the same:

- 2,659 HTML pages answer 200: the root, ``/manual/`` and 2,657 language pages (da 242,
  de 242, en 244, es 242, fr 243, ja 238, ko 235, pt-br 242, ru 242, tr 243, zh-cn 244);
  2,824 internal URLs fetched in all (+ 165 404s), 2,825 with the redirect; the package
  has 2,685 ``.html`` paths (828 files, 1,857 symlinks to the English page);
- one redirect linked: ``/manual/es/howto`` -> 301 ``/manual/es/howto/`` (``es/index.html``
  links ``href="howto"``; mod_dir's trailing slash). ``/manual`` -> 301 ``/manual/`` too,
  but nothing links it (the root links ``/manual/``);
- one meta refresh: ``/manual/`` (= ``manual/index.html``, served by DirectoryIndex)
  -> ``/manual/en/index.html`` (``content="0; URL=en/index.html"``); the same page links
  that target with an ``<a>`` too, so a crawler reaches it either way. It is also the one
  page without a ``<title>`` (the crawl's title rate: 0.9996). With ``--no-render``
  nitpicker keeps the meta in neither a field nor a link of ``page-detail``;
- 165 broken internal URLs (404), linked from 280 (page, URL) pairs, 555 anchors:
  9 at the server's root, ``/pt-br/<page>.html``: pages that list a Brazilian Portuguese
  version link it ``../../pt-br/<path>`` whatever their depth — right one directory
  down, one ``..`` too many for the 9 top-level ones (``index``, ``bind``, ``filter``,
  ``install``, ``invoking``, ``new_features_2_0``/``2_2``/``2_4``, ``upgrading``), in all
  11 languages, twice a page (22 anchors each); 99 = 9 in each
  language (``developer/mod_example_1.c`` and ``_2.c``, ``directive-dict.html``,
  ``mod/mod_example.html``, ``mod/mod_firehose.html``, ``mod/mod_http.html``,
  ``mod/proxy.html``, ``mod/rewrite/index.html``, ``platform/perf-hp.html``); the rest
  old translations' links to pages of modules that are gone (``mod/leader.html``,
  ``perchild``, ``threadpool``, ``beos``, ``mod_mem_cache``, ``mod_access`` …), typos
  (``ja/vhost/name-based.html``, ``fr/mod/mod_authnnz_ldap.html``) and
  ``tr/vhosts/name-%20%20%20%20%20%20%20based.html`` (``href="name-       based.html"``);
- 28 ``.html`` of the package no link reaches (``ko/getting-started.html``,
  ``ru/faq/index.html``, ``*/developer/debugging.html`` …): an orphan list without them;
- no directory listing reached (``Options Indexes`` is on, nothing links a directory
  without its ``index.html``); 649 external URLs on 163 hosts, never requested (the
  summary counts them as ``queuedUrls``, not ``externalUrls``);
- every page (200): ``Server: Apache/2.4.71 (Debian)`` (Debian's ``ServerTokens OS``),
  ``Content-Type: text/html`` without a charset (``AddDefaultCharset off``; the pages say
  theirs in a meta), gzip when asked (mod_deflate), ``Vary: Accept-Encoding``.

On this 2-core machine: set-up and start 0.2 s, the crawl 42 s (plus 13 s of facts).

Needs: ``apt-get install apache2 apache2-doc`` (``ensure_installed()``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import html.parser
import os
import pwd
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
from corpora.real.serving import apt_install, free_port, serving  # noqa: E402

PACKAGES = ["apache2", "apache2-doc"]
APACHE2 = Path("/usr/sbin/apache2")
MODULE_DIR = Path("/usr/lib/apache2/modules")
DEBIAN_CONF = Path("/etc/apache2")
DOC_CONF = DEBIAN_CONF / "conf-available" / "apache2-doc.conf"
MANUAL = Path("/usr/share/doc/apache2-doc/manual")
ALIAS = "/manual"            # the URL path Debian's apache2-doc.conf maps to MANUAL
RUN_USER = "www-data"        # the user Debian's apache2 serves as (when started as root)
CRAWLER = ROOT / ".venv" / "bin" / "nitpicker-crawl"
QUERY = ROOT / ".venv" / "bin" / "nitpicker-query"

#: (module name, shared object): Debian's default set (``a2enmod`` state of a fresh
#: install) minus ``status`` (an admin page, not the manual's) and the ``auth*`` modules
#: that only matter for a password: nothing here asks for one. ``mpm_event`` is Debian's
#: default MPM (this machine's server may run prefork for PHP; that is not this kit's).
MODULES: tuple[tuple[str, str], ...] = (
    ("mpm_event_module", "mod_mpm_event.so"),
    ("authz_core_module", "mod_authz_core.so"),
    ("authz_host_module", "mod_authz_host.so"),
    ("alias_module", "mod_alias.so"),
    ("autoindex_module", "mod_autoindex.so"),
    ("filter_module", "mod_filter.so"),
    ("deflate_module", "mod_deflate.so"),
    ("dir_module", "mod_dir.so"),
    ("env_module", "mod_env.so"),
    ("mime_module", "mod_mime.so"),
    ("negotiation_module", "mod_negotiation.so"),
    ("reqtimeout_module", "mod_reqtimeout.so"),
    ("setenvif_module", "mod_setenvif.so"),
)
#: Debian's ``mods-available/*.conf`` of those modules (the ones that have one)
MODULE_CONFS = ("alias", "autoindex", "deflate", "dir", "mime", "negotiation", "reqtimeout",
                "setenvif")
#: Debian's ``conf-available/*.conf`` enabled on a fresh install that do something here
#: (``other-vhosts-access-log`` is a log, ``serve-cgi-bin`` needs mod_cgi,
#: ``localized-error-pages`` is all comments)
DEBIAN_SNIPPETS = ("security", "charset")

INDEX_HTML = """\
<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Apache HTTP Server documentation</title></head>
<body>
<h1>Apache HTTP Server documentation</h1>
<p>Debian's <code>apache2-doc</code>, served as Debian serves it:
<a href="/manual/">the Apache HTTP Server manual</a>.</p>
</body>
</html>
"""


def missing() -> str | None:
    """Why the manual cannot be served here, or None when it can."""
    if not APACHE2.is_file():
        return f"apache2 is not installed (apt-get install {' '.join(PACKAGES)})"
    if not DOC_CONF.is_file() or not (MANUAL / "index.html").is_file():
        return f"apache2-doc is not installed (apt-get install {' '.join(PACKAGES)})"
    for _, so in MODULES:
        if not (MODULE_DIR / so).is_file():
            return f"{MODULE_DIR / so} is missing (apt-get install --reinstall apache2-bin)"
    for conf in [*(f"mods-available/{m}.conf" for m in MODULE_CONFS),
                 *(f"conf-available/{c}.conf" for c in DEBIAN_SNIPPETS)]:
        if not (DEBIAN_CONF / conf).is_file():
            return f"Debian's {DEBIAN_CONF / conf} is missing (apt-get install apache2)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(RUN_USER)
        except KeyError:
            return f"user {RUN_USER} is missing: Apache will not serve as root"
    return None


def ensure_installed() -> str | None:
    """Install ``PACKAGES`` when they are missing and this process is root (apache2 is
    usually there already for the PHP targets; apache2-doc is not); returns what
    :func:`missing` says afterwards."""
    if missing() is not None:
        apt_install(PACKAGES)
    return missing()


def apache_version() -> str:
    """Debian's version of ``apache2-doc``, e.g. ``2.4.62-1~deb12u2`` (the manual's)."""
    r = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "apache2-doc"],
                       capture_output=True, text=True)
    return r.stdout.strip() or "(unknown)"


# --- what the server answers, worked out from the files ------------------------------

class _Page(html.parser.HTMLParser):
    """A page's ``<a href>``s, its ``<meta http-equiv="refresh">`` content, if any, and
    its ``<title>`` text."""

    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []
        self.refresh: str | None = None
        self.title = ""
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "a" and "href" in a:
            self.hrefs.append(a["href"])
        elif tag == "meta" and a.get("http-equiv", "").lower() == "refresh":
            self.refresh = a.get("content", "")
        elif tag == "title":
            self._in_title = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def refresh_target(content: str) -> str | None:
    """The URL of a meta refresh's ``content`` (``0; URL=en/index.html``), as written."""
    _, _, rest = content.partition(";")
    rest = rest.strip()
    if rest[:4].lower() == "url=":
        return rest[4:].strip().strip("'\"") or None
    return None


def spell(href: str) -> str:
    """An ``href`` as a browser (the WHATWG URL parser) requests it: surrounding
    whitespace stripped, tabs and newlines inside removed, spaces and non-ASCII
    percent-encoded (UTF-8) — one Turkish page links ``name-       based.html``."""
    href = href.strip(" \t\n\r\f").translate({9: None, 10: None, 13: None})
    return urllib.parse.quote(href, safe="/:?#[]@!$&'()*+,;=%~")


@dataclass(frozen=True)
class Answer:
    """What the server answers for a path: ``status`` 200 (``file`` is what it sends;
    None for a directory listing), 301 (``location`` the path it redirects to) or 404."""

    status: int
    file: Path | None = None
    location: str | None = None


@dataclass
class Facts:
    """What an audit of the served manual should find, from the root (``base``) along
    ``<a href>`` links and meta refreshes, internal URLs only (fragments dropped), as the
    configuration in this module serves them. URLs are absolute."""

    pages: list[str]                    # HTML answering 200 (the root included)
    files: list[str]                    # other 200s reached by <a href> (.c sources …)
    redirects: dict[str, str]           # URL → Location (301), linked or reached
    refresh: dict[str, str]             # page → its meta refresh target
    broken: dict[str, list[str]]        # 404 URL → the pages linking it
    listings: list[str]                 # directory listings (mod_autoindex) reached
    untitled: list[str]                 # pages without a <title> (or an empty one)
    by_language: Counter[str]           # pages reached by first segment under /manual/
    unreached: list[str]                # .html of the package no link leads to (an
                                        # index.html reached as its directory is reached)
    html_files: int                     # .html paths in the package (files + symlinks)
    html_symlinks: int                  # … of which symlinks (untranslated pages)
    external_hosts: int                 # distinct hosts of links leaving the site
    links: dict[str, list[str]] = field(default_factory=dict)
    """Each HTML page's internal ``<a href>`` targets (its meta refresh is not a link)."""

    def summary(self) -> str:
        """The facts in a few lines (for people)."""
        langs = ", ".join(f"{k} {n}" for k, n in sorted(self.by_language.items()))
        lines = [
            f"{len(self.pages)} HTML pages reached from the root (by section: {langs}); "
            f"{self.html_files} .html paths in the package, {self.html_symlinks} of them "
            f"symlinks to the English page",
            f"{len(self.files)} other files linked: {', '.join(self.files[:4]) or 'none'}"
            + (" …" if len(self.files) > 4 else ""),
            f"{len(self.redirects)} redirects (301): "
            + ", ".join(f"{s} -> {t}" for s, t in self.redirects.items()),
            "meta refresh: " + ", ".join(f"{s} -> {t}" for s, t in self.refresh.items()),
            f"{len(self.unreached)} .html of the package reached by no link: "
            + ", ".join(u.rsplit(ALIAS, 1)[-1] for u in self.unreached[:6])
            + (" …" if len(self.unreached) > 6 else ""),
            f"{len(self.broken)} broken internal URLs (404), linked by "
            f"{sum(len(v) for v in self.broken.values())} pages-to-URL pairs; "
            f"{len(self.listings)} directory listings; {self.external_hosts} external hosts; "
            f"{len(self.untitled)} pages without a title: {', '.join(self.untitled[:4])}",
        ]
        return "\n".join(lines)


@dataclass
class Site:
    """One server's directory (see the module docstring for its layout)."""

    directory: Path
    manual: Path = MANUAL
    _facts: dict[str, Facts] = field(default_factory=dict, repr=False)

    @property
    def conf(self) -> Path:
        return self.directory / "httpd.conf"

    @property
    def htdocs(self) -> Path:
        return self.directory / "htdocs"

    @property
    def logs(self) -> Path:
        return self.directory / "logs"

    @property
    def run(self) -> Path:
        return self.directory / "run"

    def answer(self, path: str) -> Answer:
        """What this configuration answers for a (decoded-later, dot-segment-free) URL
        path: ``Alias /manual`` maps ``/manual`` and ``/manual/…`` into the package, the
        rest goes to ``htdocs``; a directory without its trailing slash is redirected to
        it (mod_dir), one with it serves ``index.html`` (DirectoryIndex: the others of
        Debian's list do not occur) or a listing (``Options Indexes``); no MultiViews, so
        any other name is a 404, as is a file with a trailing slash (no PATH_INFO)."""
        local = urllib.parse.unquote(path)
        if local == ALIAS or local.startswith(ALIAS + "/"):
            fs = self.manual / local[len(ALIAS):].lstrip("/")
        else:
            fs = self.htdocs / local.lstrip("/")
        if fs.is_dir():
            if not path.endswith("/"):
                return Answer(301, location=path + "/")
            index = fs / "index.html"
            return Answer(200, index if index.is_file() else None)
        if fs.is_file() and not path.endswith("/"):
            return Answer(200, fs)
        return Answer(404)

    def facts(self, base: str) -> Facts:
        """Walk the site as a crawler does, on the files (no request): from ``base``
        along every internal ``<a href>`` and meta refresh of the HTML pages reached.
        Cached per ``base``."""
        if base in self._facts:
            return self._facts[base]
        host = urllib.parse.urlsplit(base).netloc
        seen, todo = {base}, [base]
        pages: list[str] = []
        files: list[str] = []
        listings: list[str] = []
        untitled: list[str] = []
        redirects: dict[str, str] = {}
        refresh: dict[str, str] = {}
        missing_: list[str] = []
        referrers: dict[str, set[str]] = {}
        links: dict[str, set[str]] = {}
        external: set[str] = set()
        while todo:
            url = todo.pop()
            answer = self.answer(urllib.parse.urlsplit(url).path)
            targets: list[str] = []
            anchors = 0
            if answer.status == 301:
                assert answer.location is not None
                redirects[url] = urllib.parse.urljoin(url, answer.location)
                targets.append(redirects[url])
            elif answer.status == 404:
                missing_.append(url)
            elif answer.file is None:
                listings.append(url)   # none is reached; its links are not modelled
            elif answer.file.suffix != ".html":
                files.append(url)
            else:
                pages.append(url)
                parsed = _Page()
                parsed.feed(answer.file.read_text(encoding="utf-8", errors="replace"))
                targets = list(parsed.hrefs)
                anchors = len(targets)   # the meta refresh below is no <a href>
                if not parsed.title.strip():
                    untitled.append(url)
                if parsed.refresh is not None:
                    to = refresh_target(parsed.refresh)
                    if to is not None:
                        refresh[url] = urllib.parse.urljoin(url, to)
                        targets.append(to)
            for n, href in enumerate(targets):
                target = urllib.parse.urldefrag(urllib.parse.urljoin(url, spell(href))).url
                parts = urllib.parse.urlsplit(target)
                if parts.scheme not in ("http", "https"):
                    continue
                if parts.netloc != host:
                    external.add(parts.netloc.lower())
                    continue
                if answer.status == 200:
                    referrers.setdefault(target, set()).add(url)
                    if answer.file is not None and answer.file.suffix == ".html" \
                            and n < anchors:
                        links.setdefault(url, set()).add(target)
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        html_paths = list(self.manual.rglob("*.html"))
        package = [urllib.parse.urljoin(base, urllib.parse.quote(
            f"{ALIAS}/{p.relative_to(self.manual).as_posix()}")) for p in html_paths]
        found = Facts(
            pages=sorted(pages), files=sorted(files),
            redirects=dict(sorted(redirects.items())), refresh=dict(sorted(refresh.items())),
            broken={u: sorted(referrers.get(u, set())) for u in sorted(missing_)},
            listings=sorted(listings), untitled=sorted(untitled),
            by_language=Counter(_section(u, base) for u in pages),
            unreached=sorted(u for u in set(package) - set(pages)
                             if not (u.endswith("/index.html") and u[:-10] in pages)),
            html_files=len(html_paths),
            html_symlinks=sum(1 for p in html_paths if p.is_symlink()),
            external_hosts=len(external),
            links={u: sorted(t) for u, t in sorted(links.items())})
        self._facts[base] = found
        return found


def _section(url: str, base: str) -> str:
    """A page's language (its first segment under ``/manual/``), ``manual`` for the
    manual's own index, ``/`` for the rest of the document root."""
    path = urllib.parse.urlsplit(url).path
    if not path.startswith(ALIAS + "/"):
        return "/"
    first, _, rest = path[len(ALIAS) + 1:].partition("/")
    return first if rest else "manual"


# --- set-up and serving ---------------------------------------------------------------

def setup(directory: Path) -> Site:
    """A server's directory (``directory`` must not exist yet): the document root with its
    ``index.html``, ``logs/`` and ``run/``; the configuration is written by :func:`serve`
    (it names the port). As root the directory is opened to the others (0755): the
    workers run as ``www-data`` and must read ``htdocs/``; its parents must let them
    through too (``tempfile.mkdtemp`` makes a 0700 one: open it up, as ``main`` does)."""
    directory.mkdir(parents=True)
    site = Site(directory)
    for sub in (site.htdocs, site.logs, site.run):
        sub.mkdir()
    (site.htdocs / "index.html").write_text(INDEX_HTML, encoding="utf-8")
    if os.geteuid() == 0:
        for path in (directory, site.htdocs, site.htdocs / "index.html"):
            path.chmod(0o755 if path.is_dir() else 0o644)
        closed = [p for p in directory.parents
                  if not p.stat().st_mode & stat.S_IXOTH]
        if closed:
            raise PermissionError(f"{closed[0]} is closed to {RUN_USER}, who serves "
                                  f"{site.htdocs} (chmod o+x it)")
    return site


def write_conf(site: Site, port: int) -> Path:
    """The server's own ``httpd.conf`` for ``port`` (see the module docstring)."""
    modules = "\n".join(f"LoadModule {name} {MODULE_DIR / so}" for name, so in MODULES)
    includes = "\n".join(
        [f"Include {DEBIAN_CONF / 'mods-available' / m}.conf" for m in MODULE_CONFS]
        + [f"Include {DEBIAN_CONF / 'conf-available' / c}.conf" for c in DEBIAN_SNIPPETS])
    # as root: the workers must be someone else (see the module docstring); otherwise
    # User/Group would be ignored, and they run as whoever started the server
    user = f"User {RUN_USER}\nGroup {RUN_USER}\n" if os.geteuid() == 0 else ""
    site.conf.write_text(f"""\
# written by corpora/real/apache_doc.py: Debian's apache2 serving Debian's apache2-doc
ServerRoot "{site.directory}"
PidFile "{site.run / 'apache2.pid'}"
DefaultRuntimeDir "{site.run}"
ErrorLog "{site.logs / 'error.log'}"
LogLevel warn
{user}ServerName 127.0.0.1
Listen 127.0.0.1:{port}

{modules}

# mpm_event, smaller than Debian's mpm_event.conf (2 processes of 25 threads to start)
StartServers 1
MinSpareThreads 25
MaxSpareThreads 75
ThreadLimit 64
ThreadsPerChild 25
MaxRequestWorkers 150
MaxConnectionsPerChild 0

# from Debian's apache2.conf
Timeout 300
KeepAlive On
MaxKeepAliveRequests 100
KeepAliveTimeout 5
HostnameLookups Off
<Directory />
\tOptions FollowSymLinks
\tAllowOverride None
\tRequire all denied
</Directory>
<Directory /usr/share>
\tAllowOverride None
\tRequire all granted
</Directory>
AccessFileName .htaccess
<FilesMatch "^\\.ht">
\tRequire all denied
</FilesMatch>

# Debian's configuration of those modules, and its security.conf and charset.conf
{includes}

DocumentRoot "{site.htdocs}"
<Directory "{site.htdocs}">
\tOptions Indexes FollowSymLinks
\tAllowOverride None
\tRequire all granted
</Directory>

# the manual, exactly as Debian serves it (a2enconf apache2-doc)
Include {DOC_CONF}
""", encoding="utf-8")
    return site.conf


def _error_log(site: Site, lines: int = 5) -> str:
    try:
        text = (site.logs / "error.log").read_text(errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


@contextlib.contextmanager
def serve(site: Site) -> Iterator[str]:
    """``apache2 -DFOREGROUND -f httpd.conf`` on a free port of 127.0.0.1 (the config is
    checked with ``-t`` first, for a readable error); yields the base URL (ending in
    ``/``) once the root answers, and stops the server's process group."""
    port = free_port()
    conf = write_conf(site, port)
    check = subprocess.run([str(APACHE2), "-t", "-f", str(conf)], capture_output=True,
                           text=True)
    if check.returncode != 0:
        raise RuntimeError(f"apache2 -t: {check.stderr.strip()}")
    base = f"http://127.0.0.1:{port}/"
    try:
        with serving([str(APACHE2), "-DFOREGROUND", "-f", str(conf)], probe=base,
                     cwd=site.directory, env=dict(os.environ), name="apache2"):
            yield base
    except RuntimeError as exc:
        if str(exc) == "apache2 did not start":
            raise RuntimeError(f"{exc}; {site.logs / 'error.log'}:\n"
                               f"{_error_log(site)}") from None
        raise


# --- checks against the live server ---------------------------------------------------

class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """Report a redirect instead of following it."""

    def redirect_request(self, req: urllib.request.Request, fp: object, code: int, msg: str,
                         headers: object, newurl: str) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def fetch(url: str) -> tuple[int, str | None, bytes]:
    """Status, ``Location`` and body of one GET, redirects not followed."""
    try:
        with _OPENER.open(url, timeout=30) as r:
            return int(r.status), r.headers.get("Location"), r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get("Location"), b""


def check(site: Site, base: str) -> list[str]:
    """Request every URL the facts name (pages, files, redirects, 404s) from the live
    server, 4 at a time, and return where it disagrees with them: should be nothing, or
    the facts (worked out from the files) no longer describe what a crawl meets."""
    facts = site.facts(base)
    expected: dict[str, tuple[int, str | None]] = {}
    expected |= {u: (200, None) for u in [*facts.pages, *facts.files]}
    expected |= {u: (301, t) for u, t in facts.redirects.items()}
    expected |= {u: (404, None) for u in facts.broken}
    # linked by no page (the root links /manual/), but what a visitor typing it meets
    expected[base + ALIAS.lstrip("/")] = (301, base + ALIAS.lstrip("/") + "/")

    def one(item: tuple[str, tuple[int, str | None]]) -> str | None:
        url, (status, location) = item
        got, got_location, body = fetch(url)
        if got != status or (location is not None and got_location != location):
            return f"{url}: {got} {got_location or ''} (expected {status} {location or ''})"
        if url in facts.refresh:
            parsed = _Page()
            parsed.feed(body.decode("utf-8", "replace"))
            to = refresh_target(parsed.refresh or "")
            if to is None or urllib.parse.urljoin(url, to) != facts.refresh[url]:
                return f"{url}: meta refresh {parsed.refresh!r}"
        return None

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        return [w for w in pool.map(one, expected.items()) if w is not None]


# --- the crawl ------------------------------------------------------------------------

def crawl(base: str, out: Path, *, timeout: float = 3600) -> tuple[int, float, str]:
    """``nitpicker-crawl`` of the whole server from its root, ``--no-render``, external
    links never requested (the manual links some 170 internet hosts), 4 at a time;
    overwrites ``out``. Returns the exit status, the seconds and the crawler's output."""
    args = [str(CRAWLER), base, "-o", str(out), "--overwrite", "--no-render",
            "--no-fetch-external", "--parallels", "4"]
    print("[apache-doc] " + shlex.join(args), file=sys.stderr)
    started = time.monotonic()
    r = subprocess.run(args, capture_output=True, text=True, timeout=timeout,
                       cwd=out.parent)
    return r.returncode, time.monotonic() - started, r.stdout + r.stderr


def query(*args: str) -> str:
    """``nitpicker-query`` with ``args``; its output (or its error)."""
    r = subprocess.run([str(QUERY), *args], capture_output=True, text=True)
    return r.stdout if r.returncode == 0 else f"(exit {r.returncode}) {r.stderr.strip()}"


def _tail(text: str, lines: int) -> str:
    """The last ``lines`` non-empty lines of a progress output (``\\r`` ends a line)."""
    kept = [line for line in text.replace("\r", "\n").splitlines() if line.strip()]
    return "\n".join(kept[-lines:])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--check", action="store_true",
                   help="request every URL of the facts and say where the server disagrees")
    p.add_argument("--crawl", action="store_true",
                   help="crawl the server (no external fetches) and print its summary")
    p.add_argument("-o", "--output", type=Path, default=Path("/tmp/apache-doc.nitpicker"),
                   help="the crawl's archive (default /tmp/apache-doc.nitpicker; replaced)")
    p.add_argument("--keep", action="store_true", help="keep the server's directory")
    args = p.parse_args()
    why = ensure_installed()
    if why:
        print(f"apache-doc: {why}", file=sys.stderr)
        return 1
    tmp = Path(tempfile.mkdtemp(prefix="nitpicker-apache-doc-"))
    tmp.chmod(0o755)  # the workers (www-data, when root) read htdocs/ below it
    try:
        t0 = time.monotonic()
        site = setup(tmp / "site")
        with serve(site) as base:
            setup_s = time.monotonic() - t0
            t1 = time.monotonic()
            facts = site.facts(base)
            facts_s = time.monotonic() - t1
            print(f"[apache-doc] apache2-doc {apache_version()} at {base} (set up and "
                  f"started in {setup_s:.1f} s; facts from the files in {facts_s:.1f} s)\n"
                  f"{facts.summary()}", file=sys.stderr)
            if args.check:
                t1 = time.monotonic()
                wrong = check(site, base)
                print(f"[apache-doc] checked against the server in "
                      f"{time.monotonic() - t1:.1f} s: "
                      + ("all as expected" if not wrong else "\n  " + "\n  ".join(wrong[:30])),
                      file=sys.stderr)
                if wrong:
                    return 1
            if args.crawl:
                code, seconds, output = crawl(base, args.output.resolve())
                print(f"[apache-doc] crawl: exit {code}, {seconds:.1f} s; its last lines:\n"
                      f"{_tail(output, 8)}")
                archive = str(args.output.resolve())
                print(query("summary", archive, "--format", "table"))
                broken = ("links", archive, "--type", "broken", "--destination", "internal",
                          "--format", "table")
                print(query(*broken, "--by-destination", "--limit", "10"))
                print("anchors: " + _tail(query(*broken), 1))
                print(f"[apache-doc] set-up {setup_s:.1f} s, crawl {seconds:.1f} s")
                return code
            if not args.check:
                print(f"[apache-doc] serving {base} — Ctrl-C to stop", file=sys.stderr)
                with contextlib.suppress(KeyboardInterrupt):
                    while True:
                        time.sleep(3600)
    finally:
        if args.keep:
            print(f"[apache-doc] kept {tmp}", file=sys.stderr)
        else:
            shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
