"""Copy MathJax 3 (shipped on PyPI by django-static-mathjax) into _vendor/ for the offline book.

Sphinx serves _vendor/ as static files and `mathjax_path` points at the local copy, so the built
book typesets its mathematics with no network. Only the CommonHTML build and the pieces it loads
lazily (fonts, TeX extensions, menu, accessibility) are copied.
"""

from __future__ import annotations

import shutil
from importlib.util import find_spec
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET = ROOT / "_vendor" / "mathjax"
FILES = ("tex-chtml.js", "startup.js", "loader.js", "core.js")
FOLDERS = ("a11y", "adaptors", "input", "output", "sre", "ui")


def main() -> None:
    spec = find_spec("mathjax")
    if spec is None or spec.origin is None:
        raise SystemExit("MathJax is not installed: run `make install` (django-static-mathjax is pinned)")
    es5 = Path(spec.origin).parent / "static" / "mathjax" / "es5"
    if not (es5 / "tex-chtml.js").exists():
        raise SystemExit(f"no MathJax build at {es5}")
    if (TARGET / "tex-chtml.js").exists() and (TARGET / "tex-chtml.js").stat().st_size == (es5 / "tex-chtml.js").stat().st_size:
        return  # already vendored: keep `make book` fast on an unchanged tree
    shutil.rmtree(TARGET, ignore_errors=True)
    TARGET.mkdir(parents=True)
    for name in FILES:
        shutil.copy2(es5 / name, TARGET / name)
    for name in FOLDERS:
        shutil.copytree(es5 / name, TARGET / name)


if __name__ == "__main__":
    main()
