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

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = "https://github.com/someone/course-student"


def source_of(notebook: Path) -> str:
    nb = nbformat.read(notebook, as_version=4)
    cells = [c for c in nb.cells if setup_cell.is_setup_cell(c)]
    assert len(cells) == 1, notebook
    return re.search(r'^SOURCE = "(.*)"$', cells[0].source, flags=re.MULTILINE).group(1)


def test_the_master_keeps_the_repositorys_own_address():
    """The master keeps the repository's own address (the book's chapters and CI install from it).

    That a student notebook built with ``$STUDENT_URL`` installs from the student repository, and
    from nothing else, is checked on a real build by test_secrets.py's
    test_a_secret_file_keeps_every_character_and_the_secret_is_never_printed (issue 35: that build
    serves three checks; this file's own build of homework 1 was one otter assign more)."""
    private = setup_cell.repository_url()
    assert PUBLIC not in private
    assert source_of(ROOT / "notebooks" / "homework" / "hw1_perceptron.ipynb").startswith(f"git+{private}@v")


def test_without_a_student_repository_the_address_is_the_course_repository(monkeypatch):
    from perceptron_homework.build import student_setup_cell

    monkeypatch.delenv(student.URL_ENV, raising=False)
    assert student_setup_cell(setup_cell.cell_source(True)) == setup_cell.cell_source(True)
    monkeypatch.setenv(student.URL_ENV, PUBLIC)
    assert student_setup_cell(setup_cell.cell_source(True)) == setup_cell.cell_source(True, url=PUBLIC)


def test_changing_the_student_repository_rebuilds_the_homework(monkeypatch, capsys):
    """make homework's stamp (_build/homework/.setup-cell) is this digest: it follows the student address.

    The Makefile's command runs once, in a subprocess, and must print what the function prints in this
    process; the other addresses are digested here (issue 35: two Python start-ups less)."""
    def digest(url: str | None) -> str:
        monkeypatch.delenv(student.URL_ENV, raising=False)
        if url:
            monkeypatch.setenv(student.URL_ENV, url)
        assert setup_cell.main(["--digest"]) == 0
        return capsys.readouterr().out.strip()

    env = {k: v for k, v in os.environ.items() if k != student.URL_ENV}
    command = subprocess.run([sys.executable, "-m", "coursebook.setup_cell", "--digest"], capture_output=True,
                             text=True, env=env, cwd=ROOT, check=True, timeout=120).stdout.strip()
    assert command == digest(None)
    assert digest(None) != digest(PUBLIC) != digest(PUBLIC + "-2")
