"""The published book in a real browser: Debian's Chromium driven by Playwright, offline.

The built book (_build/html) is served on 127.0.0.1 and every request to any other host is
aborted. Each page must load with no console error, show its math as the SVG typeset when the
book was built (book/_ext/coursebook/svg_math.py: no MathJax runs in the browser), render its theorem/proof/exercise/solution blocks, and every slider must change its figure when
moved. A page that fails leaves a full-page screenshot in _build/screenshots/ for a person to look at.

axe-core (pinned in package.json, installed into node_modules/ by `make node_modules`) checks
every page against the WCAG 2.0/2.1 A and AA rules (its experimental ones for those criteria too)
in light mode, and with its colour rules in dark mode the pages of dark_axe_sample (the fewest pages
whose text carries every class any page's text carries); the pages and the rule ids checked, with
any violation, go to _build/reports/axe/. In dark mode every figure and
slider frame, screenshot as the reader sees it, must keep a light ground and 4.5:1 ink
(_build/reports/dark_figures/).
"""

from __future__ import annotations

import functools
import io
import itertools
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest
import yaml
from PIL import Image

from tests.support.browser import OfflinePage

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
SHOTS = ROOT / "_build" / "screenshots"
REPORTS = ROOT / "_build" / "reports"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
# The WCAG A/AA rules of axe whose outcome depends on the colours shown (contrast of text; links told
# apart from text by colour): the only ones a dark page can fail where the light page passed.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def toc_pages() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [toc["root"]] + [c["file"] for part in toc.get("parts", []) for c in part["chapters"]]


@pytest.fixture
def offline(browser, server):
    page = OfflinePage(browser, server)
    yield page
    page.close()


def check_math(page, doc: str) -> int:
    """Every formula of the page shown as typeset SVG with its MathML; return how many there are."""
    found = page.evaluate("""() => {
        const maths = [...document.querySelectorAll('span.math, div.math')];
        const glyphs = new Set([...document.querySelectorAll('#MJX-SVG-global-cache path')].map(p => p.id));
        return {
            maths: maths.length,
            svg: maths.filter(m => m.querySelector('mjx-container > svg')).length,
            mathml: maths.filter(m => m.querySelector('mjx-assistive-mml > math')).length,
            shown: maths.filter(m => m.querySelector('mjx-container > svg')?.getBoundingClientRect().width > 0).length,
            missing: [...document.querySelectorAll('mjx-container use')]
                .map(u => u.getAttribute('xlink:href').slice(1)).filter(id => !glyphs.has(id)),
            raw: maths.filter(m => /\\\\[(\\[]/.test(m.textContent)).length,
            mathjax: typeof window.MathJax,
        };
    }""")
    assert found["mathjax"] == "undefined", f"{doc}: MathJax was loaded in the browser"
    assert found["svg"] == found["maths"], f"{doc}: {found['maths'] - found['svg']} formula(s) not typeset"
    assert found["mathml"] == found["maths"], f"{doc}: a formula lacks its assistive MathML"
    assert found["raw"] == 0, f"{doc}: {found['raw']} formula(s) still show TeX delimiters"
    assert not found["missing"], f"{doc}: glyphs missing from the page's glyph cache: {found['missing'][:5]}"
    # Hidden ones (collapsed solutions, the narrow-screen toc) have no box: most formulas must have one.
    assert found["shown"] > found["maths"] // 2, f"{doc}: only {found['shown']} of {found['maths']} formulas shown"
    return found["maths"]


def check_math_blocks_and_widths(page, doc: str) -> None:
    """The page's math typeset; a chapter's theorem, exercise and solution blocks rendered, and no code
    cell nor displayed formula scrolling sideways at 1280 px."""
    source = (HTML / f"{doc}.html").read_text(encoding="utf-8")
    if "math notranslate" in source:
        assert check_math(page, doc) > 0, f"{doc}: the page has math but none of it is typeset"
    if doc.startswith("notebooks/"):
        assert page.locator("div.proof, div.theorem, div.definition, div.lemma").count() > 0, f"{doc}: no prf block"
        assert page.locator("div.exercise").count() >= 4, f"{doc}: fewer than four exercises rendered"
        solutions = page.locator("details.solution, div.solution")
        assert solutions.count() >= 4, f"{doc}: fewer than four solutions rendered"
        # Code fits its column at 1280 px: no code cell scrolls sideways (tests/book/test_code_width.py
        # keeps the lines within 79 characters; this checks that 79 characters fit).
        wide = page.evaluate("""() => [...document.querySelectorAll('div.cell_input pre')]
            .filter(pre => pre.scrollWidth > pre.clientWidth + 1)
            .map(pre => pre.textContent.split('\\n').reduce((a, b) => a.length > b.length ? a : b))""")
        assert not wide, f"{doc}: {len(wide)} code cell(s) scroll sideways at 1280 px, e.g. {wide[0]!r}"
        # Nor does a displayed formula (the theme lets a formula wider than the column scroll).
        wide = page.evaluate("""() => [...document.querySelectorAll('div.math mjx-container')]
            .filter(m => m.scrollWidth > m.clientWidth + 1).map(m => m.textContent.slice(0, 60))""")
        assert not wide, f"{doc}: {len(wide)} displayed formula(s) scroll sideways at 1280 px, e.g. {wide[0]!r}"


def slider_pages() -> list[str]:
    return [d for d in toc_pages() if "perceptron-slider" in (HTML / f"{d}.html").read_text(encoding="utf-8")] \
        if HTML.exists() else []


def check_sliders(offline: OfflinePage, doc: str) -> None:
    """Every slider of the page changes its figure, its value label and its alt text when moved."""
    page = offline.page
    sliders = page.locator("div.perceptron-slider")
    count = sliders.count()
    expected = len(re.findall(r'class="perceptron-slider"', (HTML / f"{doc}.html").read_text(encoding="utf-8")))
    assert count == expected
    for k in range(count):
        slider = sliders.nth(k)
        slider.scroll_into_view_if_needed()
        img, knob, readout = slider.locator("img"), slider.locator("input[type=range]"), slider.locator("output")
        before, label_before, alt_before = img.get_attribute("src"), readout.inner_text(), img.get_attribute("alt")
        at_max = knob.input_value() == knob.get_attribute("max")
        knob.focus()
        page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")  # move it as a reader would
        assert img.get_attribute("src") != before, f"{doc}: slider {k} ({label_before}) did not change its figure"
        assert readout.inner_text() != label_before, f"{doc}: slider {k} did not update its value label"
        # A screen reader announces the value as the slider shows it, and the new frame's description.
        assert knob.get_attribute("aria-valuetext") == readout.inner_text(), f"{doc}: slider {k} announces no value"
        assert img.get_attribute("alt") != alt_before, f"{doc}: slider {k} kept the previous frame's alt text"
    assert not offline.errors, f"{doc} logged console errors: {offline.errors}"


def test_search_page_finds_the_perceptron(offline):
    offline.open("search.html?q=perceptron")
    offline.page.wait_for_selector("#search-results li", timeout=15000)
    assert offline.page.locator("#search-results li").count() > 0
    assert not offline.blocked, f"search requested non-local resources: {offline.blocked}"


@pytest.fixture(scope="module")
def axe_source() -> str:
    assert AXE.exists(), f"{AXE} is missing: `make node_modules` installs the pinned axe-core (make test does it)"
    return AXE.read_text(encoding="utf-8")


@pytest.mark.parametrize(("scheme", "chosen", "expected"), [
    ("light", None, "light"), ("dark", None, "dark"),      # the system's scheme ("auto", the default)
    ("light", "dark", "dark"), ("dark", "light", "light"),  # the reader's choice in the theme switcher
])
@pytest.mark.parametrize("doc", [toc_pages()[0], "notebooks/05_convergence"])
def test_first_paint_is_in_the_readers_colour_scheme(browser, server, doc, scheme, chosen, expected):
    """The page body is never drawn in the other scheme first (the theme alone drew "auto" as light until
    its deferred script ran: a dark-mode reader saw a light page for ~0.8 s, then colours fading)."""
    offline = OfflinePage(browser, server, color_scheme=scheme)
    try:
        if chosen:  # the theme switcher keeps the reader's choice in localStorage
            offline.page.add_init_script(f"localStorage.setItem('mode', '{chosen}')")
        # Record data-theme at the moment the parser inserts <body>: what the first paint will use.
        offline.page.add_init_script("""
            new MutationObserver((records, observer) => {
                if (document.body) {
                    window.__themeAtBody = document.documentElement.dataset.theme;
                    observer.disconnect();
                }
            }).observe(document, {childList: true, subtree: true});
        """)
        offline.open(f"{doc}.html")
        at_body = offline.page.evaluate("window.__themeAtBody")
        running = offline.page.evaluate("document.getAnimations().filter(a => a instanceof CSSTransition"
                                        " && /color/.test(a.transitionProperty)).length")
        final = offline.page.evaluate("document.documentElement.dataset.theme")
    finally:
        offline.close()
    case = f"{doc} (system {scheme}, switcher {chosen or 'auto'})"
    assert at_body == expected, f"{case}: the body was first drawn with data-theme={at_body!r}, not {expected}"
    assert final == expected, f"{case}: data-theme ends as {final!r}"
    assert running == 0, f"{case}: {running} colour transition(s) still running after load"


def check_axe(page, axe_source: str, doc: str, mode: str) -> None:
    """axe-core's WCAG 2.0/2.1 A and AA rules over the whole page, as the reader's system theme sets it."""
    assert page.evaluate("document.documentElement.dataset.theme") == mode, f"{doc}: not shown in {mode} mode"
    # Colours are measured once settled: a transition still running (a hover, a theme switch)
    # would be measured half-way, which no reader sees for more than 0.15 s.
    page.evaluate("Promise.all(document.getAnimations().filter(a => a instanceof CSSTransition)"
                  ".map(a => a.finished.catch(() => null)))")
    page.add_script_tag(content=axe_source)
    # Light: every rule for these criteria, axe's experimental ones too (WCAG 2.5.3 Label in Name
    # among them: off by default, they still check what the standard asks). Dark: the rules whose
    # outcome depends on colour; the others read the page's markup, which the scheme does not change
    # (the theme switches style sheets only: test_dark_mode_changes_colours_not_markup).
    known = page.evaluate("tags => axe.getRules(tags).map(r => r.ruleId)", WCAG_TAGS)
    assert set(COLOUR_RULES) <= set(known), f"axe no longer has {set(COLOUR_RULES) - set(known)}"
    result = page.evaluate("""([tags, only]) => axe.run(document, only.length ? {
        runOnly: {type: 'rule', values: only}, resultTypes: ['violations']} : {
        runOnly: {type: 'tag', values: tags},
        rules: Object.fromEntries(axe.getRules(['experimental'])
            .filter(r => r.tags.some(t => tags.includes(t))).map(r => [r.ruleId, {enabled: true}])),
        resultTypes: ['violations']})""", [WCAG_TAGS, COLOUR_RULES if mode == "dark" else []])
    violations = [{"rule": v["id"], "impact": v["impact"], "help": v["help"],
                   "nodes": [{"target": n["target"], "summary": n["failureSummary"]} for n in v["nodes"]]}
                  for v in result["violations"]]
    checked = sorted({r["id"] for key in ("passes", "incomplete", "inapplicable", "violations") for r in result[key]})
    out = REPORTS / "axe" / f"{doc.replace('/', '__')}__{mode}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({"page": f"{doc}.html", "mode": mode, "axe": result["testEngine"]["version"],
                               "tags": WCAG_TAGS, "rules_checked": checked, "violations": violations}, indent=1))
    if mode == "dark":
        assert set(checked) == set(COLOUR_RULES), f"axe ran {checked} on {doc} in dark mode"
    else:
        assert len(checked) > 40, f"axe ran only {len(checked)} rules on {doc}"
    summary = "; ".join(f"{v['rule']} x{len(v['nodes'])} e.g. {v['nodes'][0]['target']}" for v in violations)
    assert not violations, f"{doc} ({mode} mode): {len(violations)} WCAG rule(s) violated: {summary} (see {out})"


class TextClasses(HTMLParser):
    """What can set the colours of a page's text, read from its built HTML by the standard library's
    parser: the tag of each element holding text (not scripts), the class names of it and of every
    element around it, any inline style of those that names a colour, a background, an opacity or a
    filter, and the text of any style sheet in the page."""

    VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})

    def __init__(self) -> None:
        super().__init__()
        self.open: list[tuple[str, set[str]]] = []
        self.keys: set[str] = set()

    def handle_starttag(self, tag, attrs) -> None:
        if tag in self.VOID:
            return
        attrs = dict(attrs)
        keys = {"." + name for name in (attrs.get("class") or "").split()}
        style = attrs.get("style") or ""
        if any(word in style for word in ("color", "background", "opacity", "filter")):
            keys.add("style=" + style)
        self.open.append((tag, keys))

    def handle_endtag(self, tag) -> None:
        for k in range(len(self.open) - 1, -1, -1):  # an unclosed element (a <p> before a <div>) ends too
            if self.open[k][0] == tag:
                del self.open[k:]
                return

    def handle_data(self, data) -> None:
        if self.open and self.open[-1][0] == "style":  # a page's own style sheet (an output's table styles)
            self.keys.add("<style>" + " ".join(data.split()))
        elif data.strip() and self.open and self.open[-1][0] != "script":
            self.keys.add(self.open[-1][0])
            for _, keys in self.open:
                self.keys |= keys


@functools.cache
def text_classes(doc: str) -> frozenset[str]:
    parser = TextClasses()
    parser.feed((HTML / f"{doc}.html").read_text(encoding="utf-8"))
    return frozenset(parser.keys)


@functools.cache
def dark_axe_sample() -> tuple[str, ...]:
    """The fewest pages whose text, together, carries every class name (and colour-setting inline style)
    that any page's text carries (TextClasses): the pages the dark pass runs axe's colour rules on.

    The dark scheme restyles a page by class (the theme's and Pygments' dark style sheets key on
    html[data-theme=dark] and class names; test_dark_mode_changes_colours_not_markup shows that the
    markup is the same in both schemes), so text that only the dark scheme makes illegible carries a
    class drawn in a dark-only colour, and every class is on a sampled page. What the sample does not
    check: a combination of classes (one inside another) found only on a page outside it. Every page
    is still checked by every rule, colour contrast among them, in light mode
    (test_page_offline_accessible_and_legible[...-light]), and every chapter's figures in dark mode.
    The pages with a class of their own are in it; the fewest others that cover the rest are added,
    the first in the table of contents on a tie."""
    pages = toc_pages()
    keys = {doc: text_classes(doc) for doc in pages}
    everything = frozenset().union(*keys.values())
    own = [d for d in pages if keys[d] - frozenset().union(*(keys[e] for e in pages if e != d))]
    covered = frozenset().union(*(keys[d] for d in own))
    rest = [d for d in pages if d not in own]
    for size in range(len(rest) + 1):
        for extra in itertools.combinations(rest, size):
            if covered.union(*(keys[d] for d in extra)) == everything:
                return tuple(d for d in pages if d in own or d in extra)
    raise AssertionError("unreachable: all the pages together carry every class")


def test_dark_axe_sample_carries_every_class_of_every_page():
    sample = dark_axe_sample()
    seen = frozenset().union(*(text_classes(doc) for doc in sample))
    missing = {doc: sorted(text_classes(doc) - seen)[:5] for doc in toc_pages() if text_classes(doc) - seen}
    assert not missing, f"classes of page text on no page of the dark pass's sample {sample}: {missing}"
    assert len(sample) < len(toc_pages()), "the sample is every page"
    # What the parser counts: a class on a text's ancestor does, a script's text and a width do not.
    parser = TextClasses()
    parser.feed('<div class="a"><p class="b">x<br><span class="c"> </span></div><script class="d">y</script>'
                '<i style="color: red">z</i><i style="width: 2ex">w</i><style>.e {color: red}</style>')
    assert parser.keys == {".a", ".b", "p", "style=color: red", "i", "<style>.e {color: red}"}


def page_passes() -> list:
    """Every page in light mode; in dark mode every chapter (its figures) and every page of
    dark_axe_sample (axe's colour rules)."""
    if not HTML.exists():
        return [pytest.param(doc, "light", id=f"{doc}-light") for doc in toc_pages()]
    sample = dark_axe_sample()
    return [pytest.param(doc, mode, id=f"{doc}-{mode}") for mode in ("light", "dark") for doc in toc_pages()
            if mode == "light" or doc in sample or doc.startswith("notebooks/")]


@pytest.mark.parametrize(("doc", "mode"), page_passes())
def test_page_offline_accessible_and_legible(browser, server, axe_source, doc, mode):
    """One load of the page per colour scheme (the theme reads the scheme only when the page loads),
    shared by every check that reads it, in an order where none changes what the next one reads.

    Light: math, blocks and widths (check_math_blocks_and_widths), nothing requested
    from another host, no console error, the sliders moved one step each (check_sliders), then axe
    (on the moved sliders' new frames: axe's own fetch of the stylesheets logs a 404 of its own, so
    the console is read before it runs). Dark: axe, then every figure opened and measured
    (check_dark_figures). The dark pass runs axe on the pages of dark_axe_sample only, the figures on
    every chapter."""
    offline = OfflinePage(browser, server, color_scheme=mode)
    try:
        offline.open(f"{doc}.html")
        page = offline.page
        if mode == "light":
            check_math_blocks_and_widths(page, doc)
            assert not offline.blocked, f"{doc} requested non-local resources: {offline.blocked}"
            assert not offline.errors, f"{doc} logged console errors: {offline.errors}"
            if doc.startswith("notebooks/"):
                check_sliders(offline, doc)
        if mode == "light" or doc in dark_axe_sample():
            check_axe(page, axe_source, doc, mode)
        if mode == "dark" and doc.startswith("notebooks/"):
            check_dark_figures(page, doc)
    except Exception:
        # The page as it failed, for a person to look at (a full-page screenshot costs 2-3 s a page).
        SHOTS.mkdir(parents=True, exist_ok=True)
        offline.page.screenshot(path=str(SHOTS / f"{doc.replace('/', '__')}-{mode}.png"), full_page=True,
                                timeout=120_000)
        raise
    finally:
        offline.close()


def relative_luminance(rgb) -> np.ndarray:
    """WCAG 2.1 relative luminance of sRGB pixels (an array whose last axis is R, G, B in 0..255)."""
    c = np.asarray(rgb, dtype=float) / 255
    c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return c @ [0.2126, 0.7152, 0.0722]


def check_dark_figures(page, doc: str) -> None:
    """Every figure and slider frame, as a dark-mode reader sees it (theme filters and all): drawn on a
    light ground, and its darkest ink (axis labels, tick labels, the boundary) at 4.5:1 against it."""
    measured = []
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    # Figures in folded solutions count too (their buttons are clicked open); lazy images are
    # loaded and decoded before they are measured.
    page.evaluate("""() => Promise.all([...document.querySelectorAll('details')].map(d => d.open = true)
        .concat([...document.querySelectorAll('.dropdown button.toggle-button')].map(b => b.click()))
        .concat([...document.querySelectorAll('.bd-article img[src*="_images/"]')]
            .map(img => { img.loading = 'eager'; return img.decode().catch(() => null); })))""")
    images = page.locator('.bd-article img[src*="_images/"]')
    expected = (HTML / f"{doc}.html").read_text(encoding="utf-8").count('src="../_images/')
    assert images.count() == expected >= 3, f"{doc}: {images.count()} figures in the page, {expected} in its HTML"
    for k in range(images.count()):
        img = images.nth(k)
        assert img.is_visible(), f"{doc}: figure {img.get_attribute('src')} is not shown"
        shot = Image.open(io.BytesIO(img.screenshot(animations="disabled"))).convert("RGB")
        pixels = np.asarray(shot).reshape(-1, 3)
        colours, counts = np.unique(pixels, axis=0, return_counts=True)
        ground = relative_luminance(colours[counts.argmax()])
        ink = np.quantile(relative_luminance(pixels), 0.001)  # not one stray antialiased pixel
        name = img.get_attribute("src").rsplit("/", 1)[-1]
        measured.append((name, float(ground), float((ground + 0.05) / (ink + 0.05))))
    out = REPORTS / "dark_figures" / f"{doc.replace('/', '__')}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps([{"image": name, "ground_luminance": round(float(g), 3),
                                "ink_contrast": round(float(r), 2)} for name, g, r in measured], indent=1))
    dark = [(name, round(g, 2)) for name, g, _ in measured if g < 0.4]
    assert not dark, f"{doc} in dark mode: figure(s) drawn on a dark ground (luminance): {dark}"
    faint = [(name, round(r, 1)) for name, _, r in measured if r < 4.5]
    assert not faint, f"{doc} in dark mode: figure ink below 4.5:1 against its ground: {faint}"


@pytest.mark.parametrize("doc", ["notebooks/05_convergence", "book/playground"])
def test_theme_icons_are_drawn_by_the_icon_font(offline, doc):
    """No Font Awesome script (book/_ext/coursebook/icons.py): every icon is a letter of the theme's icon font."""
    offline.open(f"{doc}.html")
    page = offline.page
    page.evaluate("document.fonts.ready")
    icons = page.evaluate("""() => [...document.querySelectorAll('i[class*="fa-"], span[class*="fa-"]')].map(i => {
        const before = getComputedStyle(i, '::before');
        return {cls: i.className, content: before.content, font: before.fontFamily,
                width: i.getBoundingClientRect().width, shown: i.checkVisibility()};
    })""")
    assert page.evaluate("typeof window.FontAwesome") == "undefined", f"{doc}: Font Awesome's script ran"
    assert len(icons) >= 15, f"{doc}: only {len(icons)} icons"
    for icon in icons:
        assert icon["content"] not in ("none", "normal", '""'), f"{doc}: {icon['cls']} has no glyph"
        assert "Font Awesome 6" in icon["font"], f"{doc}: {icon['cls']} is drawn in {icon['font']}"
        assert icon["width"] > 0 or not icon["shown"], f"{doc}: {icon['cls']} is shown with no width"
    for family in ('900 16px "Font Awesome 6 Free"', '400 16px "Font Awesome 6 Brands"'):
        assert page.evaluate("f => document.fonts.check(f)", family), f"{doc}: {family} did not load"
    assert not offline.errors, f"{doc}: console errors {offline.errors}"


# What the theme changes with the scheme, besides style sheets: which of the logo's light/dark twins
# is shown, and class names that select dark styles.
TWINS = {"only-light", "only-dark"}
SCHEME_CLASSES = TWINS | {"pst-js-only", "dropdown-menu-dark"}


def markup_and_visibility(page) -> list:
    """Every element of the page: its tag, its attributes but the theme's own, and whether it is shown."""
    return page.evaluate("""() => [...document.querySelectorAll('*')].map(e => [e.tagName,
        [...e.attributes].filter(a => !['data-theme', 'data-mode', 'style'].includes(a.name))
            .map(a => a.name + '=' + a.value).join(' '),
        [...e.classList], e.checkVisibility({visibilityProperty: true})])""")


def unthemed(element: list):
    tag, attributes, classes, shown = element
    for name in SCHEME_CLASSES & set(classes):
        attributes = attributes.replace(f" {name}", "").replace(f"{name} ", "")
    return tag, attributes, None if TWINS & set(classes) else shown


@pytest.mark.parametrize("doc", [toc_pages()[0], "notebooks/02_update_rule"])
def test_dark_mode_changes_colours_not_markup(browser, server, doc):
    """Why the dark pass of test_page_offline_accessible_and_legible runs only axe's colour rules: the
    same page in the two schemes has the same elements, attributes and shown elements, but for the
    theme's dark-style class names and the logo's light/dark twins, which are alike but for that
    class (same image, same alt text); so every rule that reads markup gives one answer."""
    seen = {}
    for mode in ("light", "dark"):
        offline = OfflinePage(browser, server, color_scheme=mode)
        try:
            offline.open(f"{doc}.html")
            assert offline.page.evaluate("document.documentElement.dataset.theme") == mode
            seen[mode] = markup_and_visibility(offline.page)
        finally:
            offline.close()
    light, dark = ([unthemed(e) for e in seen[m]] for m in ("light", "dark"))
    differ = [(k, a, b) for k, (a, b) in enumerate(zip(light, dark)) if a != b]
    assert len(light) == len(dark) and not differ, f"{doc}: the dark scheme changes markup or what is shown: {differ[:5]}"
    twins = {m: sorted(unthemed(e)[:2] for e in seen["light"] if m in e[2]) for m in TWINS}
    assert twins["only-light"] == twins["only-dark"], f"{doc}: light/dark twins differ: {twins}"
