"""Cross-references read once: no kind word in the prose right before a link that already says it.

`{ref}`, `{numref}` and `{prf:ref}` to an exercise, theorem, lemma, ... render as "Exercise 2.5",
"Theorem 1.1": the link carries its own kind word. Written after "exercise" in the source, the page
reads "exercise Exercise 2.5". This scans the text of every built page of the table of contents.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.book.test_book import HTML, toc_files

# Kind words a numbered link starts with, and any other word followed by a number ("Bank 1", ...).
KINDS = ("exercise", "theorem", "lemma", "definition", "proposition", "corollary", "example", "figure",
         "table", "section", "equation", "algorithm", "remark", "chapter", "proof", "solution")
BLOCKS = ("p", "li", "dd", "dt", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6", "figcaption", "caption")


def doubled_kind_words(html: str) -> list[str]:
    """'word | link text' for each cross-reference whose link text starts with the word before it."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    article = soup.find("article") or soup
    for nav in article.select(".toctree-wrapper, nav"):
        nav.decompose()
    found = []
    for link in article.select("a.reference.internal"):
        text = link.get_text(" ", strip=True)
        first = re.match(r"([A-Za-z]+)(\s+\d)?", text)
        if not first or not (first.group(1).lower() in KINDS or first.group(2)):
            continue
        block = link.find_parent(BLOCKS) or link.parent
        before = []
        for piece in block.descendants:
            if piece is link:
                break
            if isinstance(piece, str) and not any(parent is link for parent in piece.parents):
                before.append(str(piece))
        word = re.search(r"([A-Za-z]+)[\s\u00a0]*$", "".join(before))
        if word and word.group(1).lower() in {first.group(1).lower(), first.group(1).lower() + "s"}:
            found.append(f"{word.group(1)} | {text}")
    return found


def test_the_scan_finds_a_doubled_kind_word_and_nothing_else():
    page = ('<article><p>Scaling shows it (exercise\n<a class="reference internal" href="#x">'
            '<span class="std std-numref">Exercise 2.5</span></a>); see <a class="reference internal" href="#t">'
            'Theorem 1.1</a> and Lemmas <a class="reference internal" href="#l">Lemma 5.1</a>.</p>'
            '<p class="admonition-title">Solution to<a class="reference internal" href="#x"> Exercise 2.5</a></p>'
            '<div class="toctree-wrapper"><p>Question banks <a class="reference internal" href="#b">Bank 1: one</a>'
            '</p></div></article>')
    assert doubled_kind_words(page) == ["exercise | Exercise 2.5", "Lemmas | Lemma 5.1"]


@pytest.mark.parametrize("page", toc_files())
def test_no_cross_reference_repeats_the_word_before_it(page):
    path = Path(HTML) / f"{page}.html"
    assert path.exists(), "the book is not built: run `make book` (make test does it first)"
    doubled = doubled_kind_words(path.read_text(encoding="utf-8"))
    assert not doubled, f"{page}: a kind word written before a link that already says it: {doubled}"
