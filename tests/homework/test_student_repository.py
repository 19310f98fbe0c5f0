"""A private course: the homework's student notebooks install from the public student repository."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import nbformat

from coursebook import edition as student
from coursebook import setup_cell
from perceptron_homework.build import build

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = "https://github.com/someone/course-student"


def source_of(notebook: Path) -> str:
    nb = nbformat.read(notebook, as_version=4)
    cells = [c for c in nb.cells if setup_cell.is_setup_cell(c)]
    assert len(cells) == 1, notebook
    return re.search(r'^SOURCE = "(.*)"$', cells[0].source, flags=re.MULTILINE).group(1)


def test_a_student_notebook_installs_from_the_student_repository(tmp_path, monkeypatch):
    private = setup_cell.repository_url()
    monkeypatch.setenv(student.URL_ENV, PUBLIC)      # as repository.student_url in _config.yml
    out = build(ROOT / "notebooks" / "homework" / "hw1_perceptron.ipynb", tmp_path, run_tests=False)
    handed_out = source_of(out / "student" / "hw1_perceptron.ipynb")
    assert handed_out.startswith(f"git+{PUBLIC}@v"), handed_out
    assert private not in handed_out
    # The master keeps the repository's own address (the book's chapters and CI install from it).
    assert source_of(ROOT / "notebooks" / "homework" / "hw1_perceptron.ipynb").startswith(f"git+{private}@v")
    # The rest of the cell is the homework template (otter-grader too), only the address differs.
    nb = nbformat.read(out / "student" / "hw1_perceptron.ipynb", as_version=4)
    cell = next(c for c in nb.cells if setup_cell.is_setup_cell(c))
    assert cell.source == setup_cell.cell_source(True, url=PUBLIC)


def test_without_a_student_repository_the_address_is_the_course_repository(monkeypatch):
    from perceptron_homework.build import student_setup_cell

    monkeypatch.delenv(student.URL_ENV, raising=False)
    assert student_setup_cell(setup_cell.cell_source(True)) == setup_cell.cell_source(True)
    monkeypatch.setenv(student.URL_ENV, PUBLIC)
    assert student_setup_cell(setup_cell.cell_source(True)) == setup_cell.cell_source(True, url=PUBLIC)


def test_changing_the_student_repository_rebuilds_the_homework():
    """make homework's stamp (_build/homework/.setup-cell) is this digest: it follows the student address."""
    def digest(url: str | None) -> str:
        env = {k: v for k, v in os.environ.items() if k != student.URL_ENV}
        if url:
            env[student.URL_ENV] = url
        return subprocess.run([sys.executable, "-m", "coursebook.setup_cell", "--digest"], capture_output=True,
                              text=True, env=env, cwd=ROOT, check=True, timeout=120).stdout.strip()

    assert digest(None) != digest(PUBLIC) != digest(PUBLIC + "-2")
