"""The theme's icons come from Font Awesome's CSS and the theme's icon font (book/_ext/coursebook/icons.py).

The CSS (npm, package.json) must be the Font Awesome version whose fonts the theme ships: a glyph's
code point can change between versions. The built pages load no Font Awesome script, and every icon
class they use has its glyph in the cut-down stylesheet. (tests/book/test_browser.py checks that the icons
are drawn in Chromium.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pydata_sphinx_theme

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
ICONS = HTML / "_static" / "vendor" / "fontawesome" / "css" / "icons.css"
THEME_STATIC = Path(pydata_sphinx_theme.__file__).parent / "theme" / "pydata_sphinx_theme" / "static"
VERSION = re.compile(r"Font Awesome Free (\d+\.\d+\.\d+)")


def test_the_css_is_the_version_of_the_fonts_the_theme_ships():
    theme = VERSION.search((THEME_STATIC / "scripts" / "fontawesome.js.LICENSE.txt").read_text()).group(1)
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"]["@fortawesome/fontawesome-free"]
    assert pinned == theme, f"package.json pins Font Awesome {pinned}, the theme's fonts are {theme}"
    assert (THEME_STATIC / "vendor" / "fontawesome" / "webfonts" / "fa-solid-900.woff2").exists()


def test_pages_load_no_font_awesome_script_and_every_icon_has_its_glyph():
    assert ICONS.exists(), "no icons.css: build the book (`make book`)"
    sheet = ICONS.read_text()
    assert VERSION.search(sheet), "the stylesheet lost Font Awesome's licence banner"
    glyphs = set(re.findall(r"\.fa-([a-z0-9-]+):before", sheet))
    pages = sorted(p for p in HTML.rglob("*.html") if "_static" not in p.parts)
    used: set[str] = set()
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "fontawesome.js" not in text, f"{page.name} still loads Font Awesome's script"
        if "<head>" in text:  # not the bare redirect that index.html is
            assert "vendor/fontawesome/css/icons.css" in text, f"{page.name} does not link the icon stylesheet"
        for classes in re.findall(r'class="([^"]*\bfa-[^"]*)"', text):
            used |= {c[3:] for c in classes.split() if c.startswith("fa-")}
    sizes = {"lg", "fw", "xs", "sm", "xl", "2x", "solid", "regular", "brands"}
    missing = sorted(used - sizes - glyphs)
    assert not missing, f"icons used by the pages but missing from icons.css: {missing}"
    assert len(glyphs) < 60, f"icons.css keeps {len(glyphs)} glyphs: PurgeCSS did not cut it"
