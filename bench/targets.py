"""Install every real third-party target the slow tests and benchmarks run against
(``corpora/real/``), and say what is missing: Debian packages need root.

    python bench/targets.py

``make test-slow`` runs it first, so the slow tests run against the real software where
it can be installed and skip with the reason where it cannot.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from corpora.real import (
    apache_doc,
    cluster_corpora,
    dokuwiki,
    hgweb,
    mediawiki,
    redmine,
    trac,
)
from corpora.real.serving import apt_install


def libreoffice_missing() -> str | None:
    """LibreOffice for the report's rendering check (Debian's libreoffice-calc-nogui:
    Calc without a display); None when ``soffice`` runs."""
    if shutil.which("soffice") is None and not apt_install(["libreoffice-calc-nogui"]):
        return "soffice is missing (Debian package libreoffice-calc-nogui; installing " \
            "needs root)"
    return None


def main() -> int:
    for name, ensure in (("mediawiki", mediawiki.ensure_installed),
                         ("dokuwiki", dokuwiki.ensure_installed),
                         ("trac", trac.ensure_installed),
                         ("redmine", redmine.ensure_installed),
                         ("hgweb", hgweb.ensure_installed),
                         ("apache2-doc", apache_doc.ensure_installed),
                         ("sphinx docs", cluster_corpora.sphinx_missing),
                         ("pelican", cluster_corpora.pelican_missing),
                         ("libreoffice", libreoffice_missing)):
        try:
            why = ensure()
        except (OSError, subprocess.CalledProcessError) as exc:
            why = f"install failed: {exc}"
        print(f"[targets] {name}: {why or 'ready'}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
