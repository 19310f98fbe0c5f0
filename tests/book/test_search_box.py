"""One search box on a page, at every width: the theme puts a search field in the header (every
width) and sphinx-book-theme another in the primary sidebar (992 px and wider), so a reader at a
desktop width saw two; the sidebar's copy is left out (html_sidebars in _config.yml)."""

from __future__ import annotations

import pytest

from tests.support.browser import OfflinePage

# A search control as the theme writes it: the field-like button and the icon button.
SEARCH = ".search-button-field, .search-button"


@pytest.mark.parametrize("width", [1280, 1024, 390])
@pytest.mark.parametrize("doc", ["notebooks/01_geometry", "book/notation"])
def test_a_page_shows_one_search_box(browser, server, doc, width):
    page = OfflinePage(browser, server, viewport={"width": width, "height": 800})
    try:
        page.open(f"{doc}.html")
        shown = page.page.evaluate("""(selector) => [...document.querySelectorAll(selector)].filter(e => {
            const box = e.getBoundingClientRect();
            return box.width > 0 && box.height > 0 && getComputedStyle(e).visibility !== 'hidden';
        }).map(e => e.parentElement.className)""", SEARCH)
        assert len(shown) == 1, f"{doc} at {width} px: {len(shown)} search boxes ({shown})"
    finally:
        page.close()
