"""A homework's answer key run as its notebook would run it, and its public checks run against it.

The tests of the formative checks (tests/homework/test_formative_checks.py, test_homeworks_2_3.py,
test_hw4.py) take the code cells of a built answer key, change a line or two into a common wrong
answer, run the cells in one namespace, and then run the question's public test twice: as the
student notebook's ``grader.check`` runs it (otter's test file stored in the notebook) and as its
twin in :mod:`perceptron_homework.checks` (what grading runs). Both must agree.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import nbformat

from perceptron_homework import checks


def key_cells(built: Path, assignment: str) -> list[str]:
    """The code cells of the built answer key, without otter's cells and the setup cell."""
    key = nbformat.read(built / "autograder" / f"{assignment}.ipynb", as_version=4)
    return [c.source for c in key.cells if c.cell_type == "code" and "otter" not in c.source
            and not c.source.startswith(("# Setup:", "grader.")) and "BEGIN TEST CONFIG" not in c.source]


def run(cells: list[str], edits: tuple[tuple[str, str], ...] = ()) -> dict:
    """Run the cells (with each ``(old, new)`` of ``edits`` applied) in a fresh namespace, as the
    notebook's kernel would; their printing is swallowed."""
    env: dict = {"__name__": "__main__"}
    for source in cells:
        for old, new in edits:
            source = source.replace(old, new)
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(source, "<cell>", "exec"), env)  # noqa: S102 - a notebook cell
    return env


def notebook_test(built: Path, assignment: str, question: str, env: dict) -> tuple[bool, str]:
    """Run the student notebook's public test of ``question``, as grader.check does: (passed, messages)."""
    from otter.test_files.exception_test import ExceptionTestFile

    student = json.loads((built / "student" / f"{assignment}.ipynb").read_text())
    test_file = ExceptionTestFile.from_string(student["metadata"]["otter"]["tests"][question], path=question)
    test_file.run(dict(env))
    results = test_file.test_case_results
    return all(r.passed for r in results), "\n".join(r.message or "" for r in results)


def twin_test(assignment: str, question: str, env: dict, secret: str = checks.PUBLIC_SECRET) -> tuple[bool, str]:
    """Run the public twin of ``question`` in ``perceptron_homework.checks`` against ``env``."""
    (name,) = [n for n, c in checks.checks(assignment).items() if c.question == question and not c.hidden]
    try:
        checks.run_here(assignment, name, env, secret=secret)
    except AssertionError as exc:
        return False, str(exc)
    return True, ""


def hidden_passed(assignment: str, env: dict, secret: str) -> list[str]:
    """The names of ``assignment``'s hidden tests that ``env`` passes under ``secret``, in order."""
    passed = []
    for name, check in checks.checks(assignment).items():
        if check.hidden:
            try:
                checks.run_here(assignment, name, dict(env), secret=secret)
                passed.append(name)
            except AssertionError:
                pass
    return passed
