"""The theme's icons drawn by Font Awesome's CSS and icon font, not by its JavaScript.

pydata-sphinx-theme loads Font Awesome's JavaScript (``fontawesome.js``, 1.5 MB, 540 kB compressed)
on every page to turn some twenty ``<i class="fa-...">`` icons into inline SVG; on a chapter it ran two
long tasks of 50-110 ms after each load (Lighthouse's total blocking time). The theme already ships
Font Awesome's web fonts (and declares them in its CSS), so the same icons can be letters of the icon
font: this extension drops the script from every page and links instead Font Awesome's own CSS (npm
``@fortawesome/fontawesome-free``, pinned in package.json to the version the theme bundles, checked
by tests/book/test_icon_css.py), cut by PurgeCSS (npm ``purgecss``) down to the icons the built pages
and the theme's scripts name. The CSS lands beside the theme's fonts, so its ``../webfonts/`` URLs
are the theme's files.
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

from sphinx.errors import ExtensionError

from . import ROOT
from .svg_math import node_executable

FONTAWESOME = ROOT / "node_modules" / "@fortawesome" / "fontawesome-free" / "css"
PURGECSS = ROOT / "node_modules" / "purgecss" / "bin" / "purgecss.js"
SHEETS = ("fontawesome.min.css", "solid.min.css", "regular.min.css", "brands.min.css")
TARGET = "vendor/fontawesome/css/icons.css"  # in _static: ../webfonts/ is the theme's font folder
SCRIPT = re.compile(r'[ \t]*<script defer src="[^"]*_static/scripts/fontawesome\.js[^"]*"></script>\n?')


def purge(outdir: Path) -> str:
    """Font Awesome's CSS without the rules of icons no built page or theme script names."""
    missing = [p for p in (PURGECSS, *(FONTAWESOME / s for s in SHEETS)) if not p.exists()]
    if missing:
        raise ExtensionError(f"{missing[0]} is missing: `make node_modules` installs the book's Node tools")
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [node_executable(), str(PURGECSS), "--css", *(str(FONTAWESOME / s) for s in SHEETS),
             "--content", str(outdir / "**" / "*.html"), str(outdir / "_static" / "**" / "*.js"),
             "--font-face", "false", "--output", tmp],
            check=True, capture_output=True, text=True,
        )
        return "\n".join((Path(tmp) / sheet).read_text(encoding="utf-8") for sheet in SHEETS)


def drop_script(page: str) -> str:
    """A page without the script tag of ``fontawesome.js``."""
    return SCRIPT.sub("", page)


def write_css(outdir: Path) -> None:
    """Once every page is final: drop the script's files, write the purged CSS the pages link."""
    # Not loaded any more; gone, it cannot keep every icon's name alive in PurgeCSS's content either.
    for name in ("fontawesome.js", "fontawesome.js.map"):
        (outdir / "_static" / "scripts" / name).unlink(missing_ok=True)
    target = outdir / "_static" / TARGET
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(purge(outdir), encoding="utf-8")
