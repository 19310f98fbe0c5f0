"""`make slides` (run by `make test`): every deck renders offline in Chromium, math typeset, no error.

Each session deck of the five-session plan is served on 127.0.0.1 (any other host is aborted), and
every slide is visited: it must show content, its mathematics must be typeset by the vendored
MathJax with no TeX error, and the console must stay free of errors. The print layout
(`?print-pdf`) must lay out one page per slide. Screenshots of the first slides land in
_build/screenshots/slides/.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from coursebook import plan, slides
from tests.support.browser import OfflinePage, Site

ROOT = Path(__file__).resolve().parents[2]
SLIDES = ROOT / "_build" / "slides"
SHOTS = ROOT / "_build" / "screenshots" / "slides"

SESSIONS = plan.PLANS["five"]["sessions"]


@pytest.fixture(scope="module")
def site() -> Site:
    """The decks are what the shared ``server`` fixture (tests/conftest.py) serves here."""
    return Site(SLIDES, "make slides")


def open_deck(browser, server: str, path: str) -> OfflinePage:
    """The deck at ``path`` opened offline, once reveal.js and MathJax are ready."""
    deck = OfflinePage(browser, server, viewport={"width": 1280, "height": 800})
    try:
        deck.page.goto(f"{server}/{path}", wait_until="load")
        deck.page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15000)
        deck.page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                                    timeout=15000)
        deck.page.evaluate("() => MathJax.startup.promise")
    except BaseException:
        deck.close()
        raise
    return deck


def test_one_deck_per_session_made_from_its_chapters():
    decks = sorted(SLIDES.glob("session_*.html"))
    assert [d.name for d in decks] == [f"session_{k}.html" for k in range(1, len(SESSIONS) + 1)]
    for deck, chapters in zip(decks, SESSIONS):
        text = deck.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']https?://""", text), f"{deck.name} references the network"
        expected = 0
        for number in chapters:
            cells = json.loads(plan.CHAPTERS[number - 1].read_text())["cells"]
            markdown = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
            expected += len(slides.statements(markdown))
        assert text.count('<section class="statement">') == expected > 0, deck.name   # every statement
        assert text.count('<div class="strip">') == len(chapters)                      # a slider strip each
        assert text.count('<section class="question">') == len(chapters)               # a concept question each
        assert text.count('<img class="figure"') >= len(chapters)                      # figures


@pytest.mark.parametrize("session", range(1, len(SESSIONS) + 1))
def test_every_slide_renders_with_math_and_no_console_error(browser, server, session):
    deck = open_deck(browser, server, f"session_{session}.html")
    page = deck.page
    try:
        total = page.evaluate("() => Reveal.getTotalSlides()")
        assert total >= 8
        SHOTS.mkdir(parents=True, exist_ok=True)
        for k in range(total):
            page.evaluate(f"() => Reveal.slide({k})")
            current = page.evaluate("() => Reveal.getCurrentSlide().innerText.trim().length")
            assert current > 0, f"session {session}, slide {k + 1} is empty"
            images = page.evaluate("() => [...Reveal.getCurrentSlide().querySelectorAll('img')]"
                                   ".map(i => i.complete && i.naturalWidth > 0)")
            assert all(images), f"session {session}, slide {k + 1}: an image did not load"
            if k < 3:
                page.screenshot(path=str(SHOTS / f"session_{session}_{k + 1}.png"))
        typeset = page.locator("mjx-container").count()
        raw = page.evaluate("() => [...document.querySelectorAll('.slides section')]"
                            ".some(s => /\\\\\\(|\\\\\\[/.test(s.innerText))")
        assert typeset > 10 and not raw, f"session {session}: math not typeset ({typeset} formulas)"
        assert page.locator("mjx-merror").count() == 0, "MathJax reported a TeX error"
        assert not deck.blocked, deck.blocked
        assert not deck.errors, deck.errors
    finally:
        deck.close()


def test_print_layout_has_one_page_per_slide(browser, server):
    deck = open_deck(browser, server, "session_3.html?print-pdf")
    page = deck.page
    try:
        page.wait_for_selector(".pdf-page", timeout=15000)
        pages = page.locator(".pdf-page").count()
        assert pages == page.evaluate("() => Reveal.getTotalSlides()")
        pdf = page.pdf(prefer_css_page_size=True)
        assert pdf[:4] == b"%PDF" and len(pdf) > 10_000
        assert not deck.errors, deck.errors
    finally:
        deck.close()
