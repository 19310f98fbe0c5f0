"""The built book on a phone, in Chromium at 320, 360 and 390 px: every page of _build/html.

* No formula is cut off: each typeset formula (in the article, with every fold opened) lies within
  the scrollable area of its nearest scrolling box, that box within its own, and so on up to the
  viewport. A box whose formula is wider than the box shows the cue (book/_static/phone.js marks it
  ``math-scrolls`` and phone.css fades its far edge) and can be scrolled from the keyboard (tabindex 0).
* No page scrolls sideways: ``document.scrollingElement.scrollWidth`` is at most the viewport's width.
* Slider figures stay legible: each slider's image (and after one move of the slider, the new one)
  is shown at no less than 70% of its pixel width, where a two-panel frame squeezed into the column
  would be at about 40% (book/_ext/coursebook/phone.py stacks its panels for a phone).

One browser page, reused over the pages; each page loaded once at 320 px and widened to 360 and 390
px (a turned phone: phone.js re-checks on resize); the time is printed.
"""

from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from PIL import Image

from coursebook import CHAPTERS, phone

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
WIDTHS = [320, 360, 390]
LEGIBLE = 0.7  # shown width / pixel width of a slider frame, at least


def book_pages() -> list[str]:
    """Every HTML page of the built book but the redirect pages (index.html sends on to the intro)."""
    if not HTML.exists():
        return []
    return sorted(p.relative_to(HTML).as_posix() for p in HTML.rglob("*.html")
                  if "_static" not in p.parts and 'http-equiv="refresh"' not in p.read_text(encoding="utf-8")[:4000].lower())


MEASURE = """async () => {
  document.querySelectorAll('.bd-article details').forEach(d => { d.open = true; });
  document.querySelectorAll('.bd-article .dropdown button.toggle-button').forEach(b => b.click());
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const vw = document.documentElement.clientWidth;
  const scroller = el => {
    for (let a = el.parentElement; a && a !== document.body && a !== document.documentElement; a = a.parentElement)
      if (/(auto|scroll)/.test(getComputedStyle(a).overflowX)) return a;
    return null;
  };
  // An element can be brought into view if it lies in its scroller's scrollable area, and that
  // scroller can be brought into view, up to the page, whose width is the viewport's.
  const reachable = el => {
    const r = el.getBoundingClientRect(), box = scroller(el);
    if (!box) return r.left >= -1 && r.right <= vw + 1;
    const b = box.getBoundingClientRect();
    const left = r.left - b.left - box.clientLeft + box.scrollLeft;
    return left >= -1 && left + r.width <= box.scrollWidth + 1 && reachable(box);
  };
  const clipped = [], uncued = [];
  for (const svg of document.querySelectorAll('.bd-article mjx-container > svg')) {
    const m = svg.parentElement;
    if (!m.checkVisibility() || svg.getBoundingClientRect().width === 0) continue;
    const text = (m.querySelector('mjx-assistive-mml')?.textContent || '').slice(0, 60);
    if (!reachable(svg)) clipped.push(text);
  }
  for (const box of document.querySelectorAll('.bd-article span.math:not(.math-split), .bd-article span.math-piece, .bd-article div.math > mjx-container')) {
    if (!box.checkVisibility() || box.scrollWidth <= box.clientWidth + 1) continue;
    const s = getComputedStyle(box), mask = s.maskImage || s.webkitMaskImage;
    if (!box.classList.contains('math-scrolls') || box.tabIndex !== 0
        || (!box.classList.contains('math-end') && mask === 'none'))
      uncued.push((box.querySelector('mjx-assistive-mml')?.textContent || '').slice(0, 60));
  }
  const scrollWidth = document.scrollingElement.scrollWidth;
  const wide = scrollWidth <= vw ? [] : [...document.querySelectorAll('.bd-page-width *')]
    .filter(el => el.getBoundingClientRect().right > vw + 1 && !scroller(el) && el.checkVisibility())
    .slice(0, 3).map(el => el.tagName.toLowerCase() + '.' + el.className);
  return {clipped, uncued, scrollWidth, vw, wide};
}"""

SLIDERS = """async () => {
  const imgs = [...document.querySelectorAll('div.perceptron-slider img')];
  await Promise.all(imgs.map(img => { img.loading = 'eager'; return img.decode().catch(() => null); }));
  return imgs.map(img => ({src: img.getAttribute('src'), natural: img.naturalWidth,
                           shown: img.getBoundingClientRect().width}));
}"""


def test_phone_shows_every_formula_and_legible_sliders_without_sideways_scrolling(browser, server):
    """Each page is loaded once, at the narrowest width (what phone.js does when the page loads), then
    widened to the others as a reader turning the phone would (what its ResizeObserver and resize
    listener redo); every check runs at every width. Three loads per page cost twice as much."""
    pages = book_pages()
    assert len(pages) >= 20, f"only {len(pages)} pages in {HTML}"
    context = browser.new_context(viewport={"width": WIDTHS[0], "height": 800}, is_mobile=False)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    clipped, uncued, sideways, small = ({w: [] for w in WIDTHS} for _ in range(4))
    start, formulas_pages, sliders = time.perf_counter(), 0, 0
    try:
        for doc in pages:
            source = (HTML / doc).read_text(encoding="utf-8")
            formulas_pages += "math notranslate" in source
            page.set_viewport_size({"width": WIDTHS[0], "height": 800})
            page.goto(f"{server}/{doc}", wait_until="load")
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 800})
                found = page.evaluate(MEASURE)
                assert found["vw"] == width, f"{doc}: the viewport is {found['vw']} px, not {width}"
                clipped[width] += [f"{doc}: {t}" for t in found["clipped"]]
                uncued[width] += [f"{doc}: {t}" for t in found["uncued"]]
                if found["scrollWidth"] > found["vw"]:
                    sideways[width].append(f"{doc} ({found['scrollWidth']} px: {found['wide']})")
                if "perceptron-slider" not in source:
                    continue
                shown = page.evaluate(SLIDERS)
                knobs = page.locator("div.perceptron-slider input[type=range]")
                assert knobs.count() == len(shown) > 0, f"{doc}: slider images and controls do not match"
                for k in range(knobs.count()):  # one move each, as a reader would: the new frame is legible too
                    knob = knobs.nth(k)
                    at_max = knob.input_value() == knob.get_attribute("max")
                    knob.focus()
                    page.keyboard.press("ArrowLeft" if at_max else "ArrowRight")
                moved = page.evaluate(SLIDERS)
                assert [s["src"] for s in moved] != [s["src"] for s in shown], f"{doc}: no slider changed its figure"
                for s in shown + moved:
                    sliders += 1
                    assert s["natural"] > 0, f"{doc}: slider frame {s['src']} did not load"
                    if s["shown"] < LEGIBLE * s["natural"]:
                        small[width].append(f"{doc}: {s['src'].rsplit('/', 1)[-1]} at {s['shown']:.0f} of {s['natural']} px")
    finally:
        context.close()
    print(f"\n{len(pages)} pages ({formulas_pages} with formulas, {sliders} slider frames) at {WIDTHS} px "
          f"measured in {time.perf_counter() - start:.1f} s")
    for width in WIDTHS:
        assert not clipped[width], \
            f"{width} px: {len(clipped[width])} formula(s) cut off with no way to scroll to them: {clipped[width][:8]}"
        assert not uncued[width], \
            f"{width} px: {len(uncued[width])} scrolling formula box(es) without the cue: {uncued[width][:8]}"
        assert not sideways[width], f"{width} px: page(s) scroll sideways: {sideways[width]}"
        assert not small[width], f"{width} px: slider figure(s) shrunk below {LEGIBLE:.0%} of their size: {small[width]}"
    assert not errors, f"page errors: {errors[:3]}"


def png(image: Image.Image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


def test_two_panels_are_stacked_at_the_widest_blank_band_near_the_middle():
    img = Image.new("RGB", (700, 100), "white")
    img.paste((0, 0, 0), (10, 10, 300, 90))    # left panel
    img.paste((0, 0, 0), (330, 40, 334, 60))   # the right panel's axis label, 30 and 6 px from its neighbours
    img.paste((0, 0, 0), (340, 10, 690, 90))   # right panel
    stacked = Image.open(io.BytesIO(phone.stack_panels(png(img))))
    assert stacked.size == (385, 200)  # cut in the middle of the 30 px band: the label goes with the right panel
    pixels = stacked.load()
    assert pixels[10, 10] == (0, 0, 0) and pixels[384, 10] == (255, 255, 255)
    assert pixels[330 - 315, 150] == (0, 0, 0)  # the label, under the left panel


@pytest.mark.parametrize("size, boxes", [
    ((400, 100), [(10, 10, 180, 90), (220, 10, 390, 90)]),  # narrow enough for a phone as it is
    ((700, 100), [(10, 10, 690, 90)]),                       # one panel: no blank band in the middle
    ((700, 100), [(10, 10, 690, 20), (10, 30, 300, 90), (400, 30, 690, 90)]),  # a title across both
])
def test_frames_without_two_separate_panels_get_no_phone_frame(size, boxes):
    img = Image.new("RGB", size, "white")
    for box in boxes:
        img.paste((0, 0, 0), box)
    assert phone.stack_panels(png(img)) is None


# Printed outputs (book/_ext/coursebook/phone.py marks them, book/_static/outputs.css sets them for a phone).
OUTPUTS = """async () => {
  document.querySelectorAll('.bd-article details').forEach(d => { d.open = true; });
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const outputs = [...document.querySelectorAll('.bd-article .cell_output pre, .bd-article .cell_output table')]
    .filter(e => e.checkVisibility() && !e.closest('.perceptron-slider'));
  const first = e => e.textContent.trim().split('\\n')[0].slice(0, 60);
  const scrolls = outputs.filter(e => e.scrollWidth > e.clientWidth + 1);
  const pictures = [...document.querySelectorAll('.bd-article picture.phone-stacked img')].map(img => (
    {src: img.currentSrc, natural: img.naturalWidth, shown: img.getBoundingClientRect().width,
     original: +img.getAttribute('width'), column: img.closest('.cell_output').clientWidth}));
  return {count: outputs.length, scrolls: scrolls.map(first),
          tables: scrolls.filter(e => e.matches('pre.output-table, table')).map(first),
          texts: scrolls.filter(e => e.matches('pre.output-text')).map(first), pictures};
}"""
SCROLLING_SHARE = 0.2  # of a chapter's printed outputs, at most, may scroll sideways on a phone
STACKED_GAIN = 1.4  # stacked, a figure is shown this much larger at least (two panels: about 2; three, cut 1 | 2: 1.45)


def chapter_pages() -> list[str]:
    return [p for p in book_pages() if p.startswith("notebooks/") and p.split("/")[1][:2].isdigit()]


@pytest.mark.parametrize("width", [390, 1280])
def test_printed_outputs_fit_the_column(browser, server, width):
    """At 390 px, at most a fifth of each chapter's printed outputs scroll sideways (before this test,
    185 of 207 did): a printed sentence wraps, a table keeps its columns and may scroll. A figure of
    panels side by side (chapter 9's two confusion matrices) is shown stacked, at least 1.4 times
    larger. At 1280 px no printed output is cut off or scrolls at all."""
    pages = chapter_pages()
    assert len(pages) == len(CHAPTERS), pages
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    over, wrapped_badly, cut, small, counts = [], [], [], [], []
    try:
        for doc in pages:
            page.goto(f"{server}/{doc}", wait_until="load")
            page.evaluate("""async () => { for (const img of document.querySelectorAll('picture img')) {
                img.loading = 'eager'; await img.decode().catch(() => null); } }""")
            found = page.evaluate(OUTPUTS)
            counts.append(f"{doc.split('/')[1][:2]}: {len(found['scrolls'])}/{found['count']}")
            if width > 767:
                cut += [f"{doc}: {t}" for t in found["scrolls"]]
                continue
            if len(found["scrolls"]) > SCROLLING_SHARE * found["count"]:
                over.append(f"{doc}: {len(found['scrolls'])} of {found['count']} scroll: {found['tables']}")
            wrapped_badly += [f"{doc}: {t}" for t in found["texts"]]
            for p in found["pictures"]:  # the stacked source, shown larger than the side-by-side original would be
                scale, side_by_side = p["shown"] / p["natural"], min(1, p["column"] / p["original"])
                if "/phone-" not in p["src"] or scale < STACKED_GAIN * side_by_side:
                    small.append(f"{doc}: {p['src'].rsplit('/', 1)[-1]} at {scale:.0%}, side by side {side_by_side:.0%}")
    finally:
        context.close()
    print(f"\n{width} px, printed outputs that scroll sideways, per chapter: {', '.join(counts)}")
    assert not cut, f"{width} px: printed outputs cut off or scrolling: {cut}"
    assert not over, f"{width} px: more than {SCROLLING_SHARE:.0%} of a chapter's outputs scroll: {over}"
    assert not wrapped_badly, f"{width} px: printed sentences that scroll instead of wrapping: {wrapped_badly}"
    assert not small, f"{width} px: two-panel figures not stacked for a phone: {small}"


def test_sentences_wrap_and_tables_keep_their_columns():
    assert phone.is_table("eta     perceptron  hinge\n0.01             9   1888\n0.03             9    628")
    assert phone.is_table("    M (one)  M (radius)\ncm     1562        1476\nmm   124963        1476")
    assert not phone.is_table("3078 updates in 100 epochs, converged: False\nthe weights repeat every 5 epochs")
    assert not phone.is_table("T =   1: largest coef_ difference 0; predictions differ on 0 of the 108 test images\n"
                              "T =   4: largest coef_ difference 0; predictions differ on 0 of the 108 test images")
    body = ('<div class="output stream highlight-myst-ansi notranslate"><div class="highlight"><pre><span></span>'
            'a  b\n1  2\n</pre></div>')
    assert '<pre class="output-table">' in phone.mark_outputs(body)
    assert '<pre class="output-text">' in phone.mark_outputs(body.replace("a  b\n1  2", "converged: True"))


def test_a_two_panel_figure_gets_a_stacked_source_for_a_phone():
    img = Image.new("RGB", (700, 100), "white")
    img.paste((0, 0, 0), (10, 10, 300, 90))
    img.paste((0, 0, 0), (400, 10, 690, 90))
    one = Image.new("RGB", (700, 100), "white")
    one.paste((0, 0, 0), (10, 10, 690, 90))
    pngs = {"../_images/two.png": png(img), "../_images/one.png": png(one)}
    body = '<img alt="two panels" src="../_images/two.png" /><img alt="one panel" src="../_images/one.png" />'
    out = phone.add_phone_figures(body, pngs.get, lambda data: "../_images/phone-x.png")
    assert out.count("<picture") == 1 and out.startswith(
        f'<picture class="phone-stacked"><source media="{phone.PHONE_MEDIA}" srcset="../_images/phone-x.png" '
        'width="350" height="200"><img alt="two panels"')
