"""`make student` (run by `make test` before pytest): the student artefacts leak no solution.

Every solution of every chapter (plain `{solution}` blocks and gated `{solution-start}` cells) is
turned into probes (tests/support/solution_probes.py): runs of eight consecutive words, and code
lines, that occur in the solution but nowhere else in its chapter. The student HTML book (its text,
search index and downloadable sources) and the student notebooks must contain none of them, and the
instructor pages must not be there at all. To show that the probes can find a solution, every
solution is also found in the full book (_build/html), which `make book` builds with solutions.
"""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from coursebook import edition as student
from coursebook import solutions
from tests.support.solution_probes import CHAPTERS, leaks, probes, words

ROOT = Path(__file__).resolve().parents[2]
STUDENT = ROOT / "_build" / "student"
FULL = ROOT / "_build" / "html"


def page_text(path: Path) -> tuple[str, str]:
    """(normalised words, whitespace-normalised text) of an HTML, JS or notebook file."""
    raw = path.read_text(encoding="utf-8", errors="replace")
    if path.suffix == ".ipynb":
        cells = json.loads(raw)["cells"]
        raw = "\n".join("".join(c["source"]) for c in cells)
    else:
        raw = html.unescape(re.sub(r"<[^>]+>", " ", raw))
    return " ".join(words(raw)), " ".join(raw.split())


def artefacts(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.suffix in {".html", ".js", ".ipynb", ".txt", ".md"}
            and "_static" not in p.parts]


@pytest.fixture(scope="module")
def student_text() -> tuple[str, str]:
    assert (STUDENT / "html" / "index.html").exists(), "run `make student` (make test does it first)"
    texts = [page_text(p) for p in artefacts(STUDENT)]
    return " ".join(t for t, _ in texts), " ".join(c for _, c in texts)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_no_solution_reaches_the_student_artefacts(chapter, student_text):
    assert leaks(probes(chapter), student_text) == 0


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_the_probes_find_every_solution_in_the_full_book(chapter):
    page = FULL / "notebooks" / f"{chapter.stem}.html"
    assert page.exists(), "the full book is not built: run `make book`"
    found = probes(chapter)
    assert leaks(found, page_text(page)) == len(found)


def test_student_build_has_the_chapters_and_notebooks_but_no_instructor_pages():
    left_out = student.instructor_files()
    assert "book/instructors" in left_out and "book/instructor/bank_01" in left_out
    for docname in left_out:
        assert not (STUDENT / "html" / f"{docname}.html").exists(), docname
    for chapter in CHAPTERS:
        assert (STUDENT / "html" / "notebooks" / f"{chapter.stem}.html").exists()
        notebook = json.loads((STUDENT / "notebooks" / chapter.name).read_text())
        assert sum("".join(c["source"]).count("{exercise}") for c in notebook["cells"]) >= 4
    bank = (ROOT / "book" / "instructor" / "bank_05.md").read_text()
    question = " ".join(words(bank.split("### Q5.6")[1].split("- **A.**")[0]))
    assert question and question not in student_text_plain()
    index = (STUDENT / "html" / "book" / "intro.html").read_text()
    assert "Solutions are folded" not in index and "Solutions are folded" in (FULL / "book" / "intro.html").read_text()


def student_text_plain() -> str:
    return " ".join(page_text(p)[0] for p in artefacts(STUDENT))


def test_notebook_stripper_removes_plain_and_gated_solutions():
    md = lambda s: {"cell_type": "markdown", "metadata": {}, "source": s}
    code = lambda s: {"cell_type": "code", "metadata": {}, "source": s, "outputs": [], "execution_count": None}
    notebook = {"cells": [
        md("Text.\n\n```{exercise}\n:label: e1\n\nDo it.\n```\n\n```{solution} e1\n:class: dropdown\n\nSECRET ONE\n```"),
        md("```{exercise}\n:label: e2\n\nAgain.\n```\n\n````{solution-start} e2\n:class: dropdown\n````\n\nSECRET TWO"),
        code("secret_three = 3"),
        md("```{solution-end}\n```"),
        md("After."),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    stripped = json.dumps(solutions.drop_from_notebook(notebook))
    assert "SECRET" not in stripped and "secret_three" not in stripped
    assert "Do it." in stripped and "Again." in stripped and "After." in stripped
