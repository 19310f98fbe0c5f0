"""The book's formulas are typeset to SVG at build time (book/_ext/coursebook/svg_math.py), never in the browser.

The extension on its own (a page of Sphinx's MathJax markup in, SVG with MathML out; TeX errors
stop a build), then every page of the built book: no formula left as TeX, no MathJax script, every
glyph a formula draws defined on its page.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from coursebook import ROOT, svg_math

HTML = ROOT / "_build" / "html"

PAGE = """<!DOCTYPE html><html><head><title>t</title></head><body class="x">
<p>Let <span class="math notranslate nohighlight">\\(\\|x_i\\| \\le R\\)</span> and
<span class="math notranslate nohighlight">\\(a &lt; b\\)</span>.</p>
<div class="math notranslate nohighlight" id="equation-bound">
<span class="eqno">(5.1)<a class="headerlink" href="#equation-bound" title="Link">#</a></span>\\[M \\le
\\left(\\frac{R}{\\gamma}\\right)^2\\]</div>
<pre>\\(left alone: code\\)</pre>
</body></html>"""


@pytest.fixture(scope="module")
def typesetter():
    if not (ROOT / "node_modules" / "mathjax-full").is_dir():
        pytest.fail("MathJax is missing: `make node_modules` installs mathjax-full")
    process = svg_math.Typesetter()
    yield process
    process.close()


@pytest.fixture(scope="module")
def stylesheet(typesetter) -> str:
    return svg_math.minify_css(typesetter.ask({"stylesheet": True})["css"])


def test_a_page_is_typeset_to_svg_with_mathml(typesetter, stylesheet):
    page, count, errors = svg_math.typeset_page(PAGE, typesetter, stylesheet)
    assert (count, errors) == (3, [])
    assert page.count("<mjx-container") == 3 and page.count("<svg") == 4  # three formulas + glyph cache
    assert "\\(" not in page.replace("\\(left alone", "")
    assert page.count("<mjx-assistive-mml") == 3
    assert "<mo>&lt;</mo>" in page  # the escaped "<" was read as TeX "<", not as "&lt;"
    assert '<span class="eqno">(5.1)<a class="headerlink"' in page  # the equation keeps its number
    assert 'display="true"' in page
    body = page.index('<body class="x">')
    assert page.index('<svg style="display: none;" id="MJX-SVG-global-cache"') == body + len('<body class="x">')
    assert page.index("<style>mjx-container") < page.index("</head>")
    assert "<pre>\\(left alone: code\\)</pre>" in page
    uses = set(re.findall(r'xlink:href="#([^"]+)"', page))
    paths = set(re.findall(r'<path id="([^"]+)"', page))
    assert uses and uses <= paths


def test_a_typeset_page_is_left_alone(typesetter, stylesheet):
    page, _, _ = svg_math.typeset_page(PAGE, typesetter, stylesheet)
    again, count, errors = svg_math.typeset_page(page, typesetter, stylesheet)
    assert (again, count, errors) == (page, 0, [])


@pytest.mark.parametrize(("tex", "pieces"), [
    ("a + b = c \\le d", ["a + b ", "{}= c ", "{}\\le d"]),
    ("x_{i=1} \\in \\{1 = 1\\}", ["x_{i=1} ", "{}\\in \\{1 ", "{}= 1\\}"]),  # \\{ is no group
    ("\\left(a = b\\right) + \\text{if } c = d", ["\\left(a = b\\right) + \\text{if } c ", "{}= d"]),
    ("\\begin{cases} a = b \\end{cases}", ["\\begin{cases} a = b \\end{cases}"]),
    ("= b", ["= b"]),  # nothing before the sign: no cut
])
def test_formulas_are_cut_before_relation_signs_outside_groups(tex, pieces):
    assert svg_math.split_at_relations(tex) == pieces
    assert "".join(p.removeprefix("{}") for p in pieces) == tex


def test_a_long_formula_in_the_text_is_typeset_in_pieces_with_its_mathml_once(typesetter, stylesheet):
    long = "w^\\star \\cdot w_k = w^\\star \\cdot w_{k-1} + \\eta y_i w^\\star \\cdot x_i \\ge w^\\star \\cdot w_{k-1} + \\eta\\gamma"
    page = (f'<html><head></head><body><p><span class="math notranslate nohighlight">\\({long}\\)</span> and '
            '<span class="math notranslate nohighlight">\\(a = b\\)</span></p></body></html>')
    typeset, count, errors = svg_math.typeset_page(page, typesetter, stylesheet)
    assert (count, errors) == (2, [])
    split = re.search(r'<span class="math math-split notranslate nohighlight">(.*?)</span> and', typeset, re.DOTALL)
    assert split, "the long formula was not cut"
    assert split.group(1).count('<span class="math-piece">') == 3 and split.group(1).count("<wbr>") == 2
    assert split.group(1).count("<mjx-assistive-mml") == 1  # read once, whole, by a screen reader
    mathml = re.search(r"<math.*?</math>", split.group(1), re.DOTALL).group(0)
    assert mathml.count("<mo>=</mo>") == 1 and "<mo>≥</mo>" in mathml and "<mi>γ</mi>" in mathml
    assert typeset.count("math-split") == 1  # a short formula stays whole


@pytest.mark.parametrize("tex, message", [("\\frac{a}", "Missing argument"),
                                          ("\\undefinedmacro x", "Undefined control sequence")])
def test_tex_errors_are_reported_not_drawn(typesetter, stylesheet, tex, message):
    page = PAGE.replace("a &lt; b", tex)
    result, _, errors = svg_math.typeset_page(page, typesetter, stylesheet)
    assert result == page
    assert len(errors) == 1 and message in errors[0] and tex in errors[0].replace("\\\\", "\\")


def sphinx_build(tmp_path: Path, text: str) -> subprocess.CompletedProcess:
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(
        "extensions = ['coursebook']\nhtml_theme = 'sphinx_book_theme'\nhtml_math_renderer = 'svg'\n")
    (src / "index.rst").write_text(f"Title\n=====\n\n{text}\n")
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(src), str(tmp_path / "out")],
                          capture_output=True, text=True, timeout=300, check=False)


def test_a_sphinx_build_typesets_math_and_loads_no_mathjax(tmp_path):
    built = sphinx_build(tmp_path, "Inline :math:`w \\cdot x + b = 0` and\n\n.. math:: \\|w\\|^2 \\le k\\eta^2 R^2\n")
    assert built.returncode == 0, built.stderr
    page = (tmp_path / "out" / "index.html").read_text()
    assert page.count("<mjx-container") == 2
    assert "mathjax" not in page.lower().replace("class=\"mathjax\"", "")


def test_a_tex_error_fails_the_build(tmp_path):
    built = sphinx_build(tmp_path, "Broken :math:`\\frac{a}`.\n")
    assert built.returncode != 0
    assert "TeX error in index.html" in built.stderr and "Missing argument for \\frac" in built.stderr


def built_pages() -> list[Path]:
    assert (HTML / "index.html").exists(), "the book is not built: run `make book`"
    return sorted(p for p in HTML.rglob("*.html") if "_static" not in p.parts)


def test_every_formula_of_the_built_book_is_typeset():
    formulas = 0
    for path in built_pages():
        page = path.read_text(encoding="utf-8")
        name = path.relative_to(HTML)
        assert not svg_math.INLINE.search(page) and not svg_math.DISPLAY.search(page), f"{name}: TeX left"
        assert "tex-chtml" not in page and "window.MathJax" not in page, f"{name}: loads MathJax"
        uses = set(re.findall(r'xlink:href="#(MJX-[^"]+)"', page))
        paths = set(re.findall(r'<path id="(MJX-[^"]+)"', page))
        assert uses <= paths, f"{name}: glyphs drawn but not defined: {sorted(uses - paths)[:5]}"
        formulas += page.count("<mjx-container")
    assert formulas > 2000  # the chapters alone hold more than 2000 formulas


def test_missing_mathjax_is_named(tmp_path, monkeypatch):
    alone = tmp_path / "svg_math.js"  # a copy where Node cannot find node_modules/mathjax-full
    alone.write_text(svg_math.SCRIPT.read_text())
    monkeypatch.setattr(svg_math, "SCRIPT", alone)
    process = svg_math.Typesetter()
    with pytest.raises(svg_math.ExtensionError, match="make node_modules"):
        process.ask({"stylesheet": True})
    process.close()
