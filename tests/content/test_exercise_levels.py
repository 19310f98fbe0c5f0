"""Difficulty stars on every exercise, in order of difficulty, and the proofs a course may skip.

The stars are written in each exercise's title (``{exercise} ★★`` renders "Exercise 2.3 (★★)"): ★
applies the chapter directly, ★★ needs an argument of a few steps or a small experiment, ★★★ is a
proof or an open-ended investigation. A proof an introductory course may skip has the class
``optional`` and opens with a line saying so. Read with the book's MyST reader (coursebook.myst),
then checked again in the built pages.
"""

from __future__ import annotations

import json
import re

import pytest

from coursebook import CHAPTERS, ROOT, myst

HTML = ROOT / "_build" / "html"
STAR = "★"
OPTIONAL_LINE = "Optional: an introductory course can skip this proof."


def blocks(chapter) -> list[myst.Block]:
    cells = json.loads(chapter.read_text(encoding="utf-8"))["cells"]
    return [b for c in cells if c["cell_type"] == "markdown" for b in myst.blocks("".join(c["source"]))]


def stars(chapter) -> dict[str, int]:
    return {b.label: b.argument.count(STAR) for b in blocks(chapter) if b.name == "exercise"}


def optional_proofs(chapter) -> list[myst.Block]:
    return [b for b in blocks(chapter) if b.name == "prf:proof" and "optional" in b.classes]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_exercise_has_one_to_three_stars_in_order_of_difficulty(chapter):
    exercises = [b for b in blocks(chapter) if b.name == "exercise"]
    levels = [b.argument.count(STAR) for b in exercises]
    assert exercises and all(b.label for b in exercises), "an exercise without a label"
    assert all(b.argument == STAR * n for b, n in zip(exercises, levels)), "a title that is not only stars"
    assert set(levels) <= {1, 2, 3} and len(set(levels)) >= 2
    assert levels == sorted(levels), f"exercises not in order of difficulty: {levels}"


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_optional_proofs_say_so_in_their_first_line(chapter):
    for proof in optional_proofs(chapter):
        assert proof.body.startswith(f"*({OPTIONAL_LINE})*"), proof.body[:80]


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_built_chapter_shows_the_stars_and_the_optional_proofs(chapter):
    page = HTML / "notebooks" / f"{chapter.stem}.html"
    assert page.exists(), "the book is not built: run `make book`"
    text = page.read_text(encoding="utf-8")
    shown = re.findall(r'id="([^"]+)"[^>]*>\s*<p class="admonition-title"><span class="caption-number">'
                       r'Exercise [\d.]+ </span> \((★+)\)', text)
    assert {label: len(s) for label, s in shown} == stars(chapter)
    optional = len(optional_proofs(chapter))
    assert len(re.findall(r'class="proof optional admonition"', text)) == optional
    assert text.count(OPTIONAL_LINE) == optional


def test_the_book_marks_its_skippable_proofs():
    # chapters 3 to 8 each mark at least one proof (the two-forms theorem, the cosine bound, ...)
    assert sum(len(optional_proofs(c)) for c in CHAPTERS) >= 7
