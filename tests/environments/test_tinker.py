"""The tinker test's table and verdicts (tests/environments/tinker.py).

The tinkered chapters are executed by the Colab-like door (test_colab_like.py runs every chapter as
the learner of tinker.py changed it); here, without executing a chapter: every rule of the table
still matches the chapter's code and changes a value the book uses, every check cell names the
settings it holds for, and ``problems`` tells a learner's dead end (an exception in a teaching cell,
a check failing with a bare ``AssertionError``) from a check that explains itself.
"""

from __future__ import annotations

import nbformat
import pytest

from coursebook import CHAPTERS
from tests.environments import tinker


def test_every_chapter_has_tinkering_rules():
    assert sorted(tinker.TINKERING) == sorted(c.stem for c in CHAPTERS)


@pytest.mark.parametrize("stem", sorted(tinker.TINKERING))
def test_every_rule_changes_the_books_code(stem):
    book = nbformat.read(tinker.NOTEBOOKS / f"{stem}.ipynb", as_version=4)
    changed = tinker.tinkered(stem)  # raises when a rule matches nothing
    pairs = list(zip(book.cells, changed.cells))
    edited = [new.get("id") for old, new in pairs if old.cell_type == "code" and old.source != new.source]
    assert edited, f"{stem}: tinkering changed no cell"
    for old, new in pairs:
        if old.cell_type == "code" and (tinker.is_check(old) or tinker.is_setup(old)):
            assert new.source == old.source, f"{stem}: {old.get('id')} is a check or the setup cell: not tinkered"
    for pattern, replacement in tinker.TINKERING[stem]:
        assert pattern.replace("\\", "") != replacement, f"{stem}: {pattern} -> {replacement} is the book's value"


def test_a_rule_that_no_longer_matches_fails():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("run = pc.train(X, y, seed=7)")])
    stem = next(iter(tinker.TINKERING))
    with pytest.raises(ValueError, match="match no code cell"):
        tinker.tinker(nb, stem)


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_check_names_the_settings_it_holds_for(chapter):
    nb = nbformat.read(chapter, as_version=4)
    bare = [c.get("id") for c in nb.cells if c.cell_type == "code" and tinker.is_check(c)
            and not c.source.startswith("with pc.holds_for(")]
    assert bare == [], f"{chapter.stem}: check cells not wrapped in `with pc.holds_for(...)`: {bare}"


def error(ename: str, evalue: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_output("error", ename=ename, evalue=evalue, traceback=[])


def executed(*cells: tuple[str, list[str], list]) -> nbformat.NotebookNode:
    nb = nbformat.v4.new_notebook()
    for cell_id, tags, outputs in cells:
        cell = nbformat.v4.new_code_cell("x", id=cell_id, metadata={"tags": tags})
        cell.outputs = outputs
        nb.cells.append(cell)
    return nb


def test_a_check_that_names_the_books_settings_is_no_problem():
    message = "This check holds for the book's settings (seed=3), not for yours: assert first_clean == 7"
    nb = executed(("run", [], []), ("run-check", ["check", "hide-input"], [error("AssertionError", message)]))
    assert tinker.problems(nb) == []
    assert tinker.failed_checks(nb) == [message]


@pytest.mark.parametrize("ename, evalue", [("AssertionError", ""), ("KeyError", "'41'"),
                                           ("AssertionError", "x must be positive")])
def test_a_check_failing_without_naming_the_settings_is_a_problem(ename, evalue):
    nb = executed(("run", [], []), ("run-check", ["check"], [error(ename, evalue)]))
    assert [p.split(":")[0] for p in tinker.problems(nb)] == ["check cell run-check fails without naming the settings it holds for"]


def test_an_exception_in_a_teaching_cell_is_a_problem_and_hides_the_cascade():
    nb = executed(("run", [], [error("IndexError", "list index out of range")]),
                  ("plot", [], [error("NameError", "name 'first' is not defined")]))
    assert tinker.problems(nb) == ["teaching cell run: IndexError: list index out of range"]
