"""Optional proofs in the built book: at the body's size, and folded until the reader opens them.

The chapters mark a proof a first read can skip `:class: optional`; Sphinx's basic.css has
`.optional {font-size: 1.3em}`, which set every such proof at 130 % until book/_static/accessible.css
overrode it. book/_static/phone.js folds each one into a <details> that names its statement.
Checked in Debian's Chromium on the built book (the ``browser`` and ``server`` fixtures), at a desktop
and at a phone's width.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.browser import OfflinePage

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"


def pages_with_optional_proofs() -> list[str]:
    pages = sorted(p.relative_to(HTML).as_posix() for p in (HTML / "notebooks").glob("*.html")
                   if re.search(r'class="proof optional admonition"', p.read_text(encoding="utf-8")))
    return pages


def test_chapters_4_and_5_have_optional_proofs():
    """The check below must not pass vacuously: the two chapters this was written for fold proofs."""
    pages = pages_with_optional_proofs()
    assert "notebooks/04_margins.html" in pages and "notebooks/05_convergence.html" in pages, pages


@pytest.mark.parametrize("width", [1280, 390])
def test_optional_proofs_are_folded_at_the_body_size(browser, server, width):
    page = OfflinePage(browser, server, viewport={"width": width, "height": 900})
    try:
        for doc in pages_with_optional_proofs():
            page.open(doc)
            found = page.page.evaluate("""() => {
                const body = parseFloat(getComputedStyle(document.querySelector('article p')).fontSize);
                return [...document.querySelectorAll('div.proof.optional')].map(proof => {
                    const fold = proof.parentElement;
                    return {
                        size: parseFloat(getComputedStyle(proof).fontSize), body,
                        folded: fold.tagName === 'DETAILS' && !fold.open,
                        hidden: !proof.checkVisibility(),
                        summary: fold.tagName === 'DETAILS' ? fold.querySelector('summary').textContent : null,
                    };
                });
            }""")
            assert found, f"{doc}: no optional proof on the page"
            for k, proof in enumerate(found):
                assert proof["size"] == proof["body"], f"{doc}, optional proof {k}: {proof['size']} px, body {proof['body']} px"
                assert proof["folded"] and proof["hidden"], f"{doc}, optional proof {k} is not folded: {proof}"
                assert re.fullmatch(r"Proof of (Theorem|Lemma|Proposition) \d+\.\d+ \(optional\)", proof["summary"]), (doc, proof["summary"])
            # The reader opens one: it shows, still at the body's size.
            summary = page.page.locator("details.proof-fold > summary").first
            summary.click()
            shown = page.page.evaluate("""() => {
                const proof = document.querySelector('details.proof-fold div.proof.optional');
                return proof.checkVisibility() && proof.getBoundingClientRect().height;
            }""")
            assert shown > 0, f"{doc}: the first optional proof does not open"
        assert not page.errors, page.errors
    finally:
        page.close()
