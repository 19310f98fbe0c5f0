"""Secret hygiene of the homework build: never printed, any characters, no silent public build.

`make homework` and `perceptron-homework build` are run for real, on homework 2's master only
(the quickest to assign), without otter's run of the solutions, and with the session's wheel of
this checkout ($PERCEPTRON_HOMEWORK_WHEEL, tests/homework/conftest.py) instead of one built per run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import nbformat
import pytest

from perceptron_homework import checks

ROOT = Path(__file__).resolve().parents[2]
TOOL = [sys.executable, "-m", "perceptron_homework"]
HW = "hw2_linear_classifiers"
SECRET = 'Tulip$Rose&"8831'  # the secret issue 22 saw mangled into Tulipose&"8831
NASTY = SECRET + " 'quoted' $(echo no) `echo no` \\ ünïcode"


def zip_secret(out: Path) -> str:
    with zipfile.ZipFile(out / HW / "autograder" / f"{HW}-autograder.zip") as zf:
        return json.loads(zf.read(f"files/{checks.SECRET_FILE}"))["secret"]


def environment(**extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("HOMEWORK_") and k != "SECRET"}
    return {**env, **extra}


def cli(args: list[str], **env: str) -> subprocess.CompletedProcess:
    return subprocess.run([*TOOL, "build", *args], capture_output=True, text=True, check=False,
                          env=environment(**env))


def test_build_refuses_without_a_secret_and_says_how_to_build_the_public_variant(tmp_path):
    done = cli([str(ROOT / "notebooks" / "homework" / f"{HW}.ipynb"), "--out", str(tmp_path / "out")])
    assert done.returncode == 2
    assert "no secret" in done.stderr and "--public" in done.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("args", "env", "message"), [
    (["--public"], {"HOMEWORK_SECRET": "x"}, "do not give a secret with it"),
    ([], {"HOMEWORK_SECRET": checks.PUBLIC_SECRET}, "use --public"),
    (["--secret-file", "/nonexistent/secret"], {}, "cannot read the secret file"),
])
def test_build_refuses_a_confusing_secret(tmp_path, args, env, message):
    done = cli([str(ROOT / "notebooks" / "homework" / f"{HW}.ipynb"), "--out", str(tmp_path / "out"), *args], **env)
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert not (tmp_path / "out").exists()


def test_a_secret_file_keeps_every_character_and_the_secret_is_never_printed(tmp_path, shared_wheel):
    """A build from a private folder of masters (``--masters``, as an instructor's private repository)
    with ``--secret-file``: the secret arrives whole and is never printed, the master read is the
    private one, and (``$STUDENT_URL`` set, as ``repository.student_url`` in _config.yml) the student
    notebook installs from the public student repository, never from the private one.

    Issue 35: one otter assign for three checks that each built a homework of their own (this one,
    test_publishing.py's build of a private master and test_student_repository.py's build with a
    student repository). ``$HOMEWORK_SECRET_FILE``, which the same code reads when ``--secret-file``
    is absent, is test_the_secret_file_may_come_from_the_environment's."""
    from coursebook import setup_cell
    from tests.homework.test_student_repository import PUBLIC, source_of

    repo = tmp_path / "private-course"
    (repo / "notebooks" / "homework").mkdir(parents=True)
    nb = json.loads((ROOT / "notebooks" / "homework" / f"{HW}.ipynb").read_text())
    title = next(c for c in nb["cells"] if c["cell_type"] == "markdown")
    title["source"] = "".join(title["source"]) + "\n\nOnly in the instructor's private master.\n"
    (repo / "notebooks" / "homework" / f"{HW}.ipynb").write_text(json.dumps(nb))
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(NASTY + "\n", encoding="utf-8")
    done = cli(["--masters", str(repo), "--secret-file", str(secret_file), "--out", str(tmp_path / "out"),
                "--no-run-tests"], STUDENT_URL=PUBLIC)
    assert done.returncode == 0, done.stderr
    assert zip_secret(tmp_path / "out") == NASTY
    assert "Tulip" not in done.stdout + done.stderr
    assert "Tulip" not in (tmp_path / "out" / HW / "manifest.json").read_text()
    notebook = tmp_path / "out" / HW / "student" / f"{HW}.ipynb"
    student = notebook.read_text()
    assert "Only in the instructor's private master." in student and "Tulip" not in student
    handed_out = source_of(notebook)
    assert handed_out.startswith(f"git+{PUBLIC}@v"), handed_out
    assert setup_cell.repository_url() not in handed_out
    # The rest of the cell is the homework template (otter-grader too), only the address differs.
    cell = next(c for c in nbformat.read(notebook, as_version=4).cells if setup_cell.is_setup_cell(c))
    assert cell.source == setup_cell.cell_source(True, url=PUBLIC)


def test_the_secret_file_may_come_from_the_environment(tmp_path, monkeypatch):
    """``$HOMEWORK_SECRET_FILE`` in place of ``--secret-file``: every character, the final newline dropped."""
    import argparse

    from perceptron_homework.cli import SECRET_FILE_ENV, build_secret

    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(NASTY + "\n", encoding="utf-8")
    monkeypatch.delenv("HOMEWORK_SECRET", raising=False)
    monkeypatch.setenv(SECRET_FILE_ENV, str(secret_file))
    assert SECRET_FILE_ENV == "HOMEWORK_SECRET_FILE"
    assert build_secret(argparse.Namespace(secret_file=None, public=False)) == NASTY


@pytest.fixture
def make_dir(tmp_path, shared_wheel) -> tuple[Path, list[str]]:
    """A scratch folder to run the project's Makefile in, with this Python as its .venv."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, args in (("python", ""), ("perceptron-homework", " -m perceptron_homework")):
        script = bin_dir / name  # a wrapper: a symlink to a venv's python would leave the venv
        script.write_text(f'#!/bin/sh\nexec "{sys.executable}"{args} "$@"\n')
        script.chmod(0o755)
    masters = tmp_path / "masters"
    masters.mkdir()
    shutil.copy(ROOT / "notebooks" / "homework" / f"{HW}.ipynb", masters)
    work = tmp_path / "work"
    work.mkdir()
    cmd = ["make", "--no-print-directory", "-f", str(ROOT / "Makefile"), "-C", str(work), "homework",
           f"BIN={bin_dir}", "STAMP=", f"MASTERS={masters}", "HOMEWORK_BUILD_FLAGS=--no-run-tests"]
    return work, cmd


def test_make_homework_passes_a_secret_with_any_characters_and_never_prints_it(make_dir):
    work, cmd = make_dir
    done = subprocess.run(cmd, capture_output=True, text=True, check=False,
                          env=environment(HOMEWORK_SECRET=SECRET))
    assert done.returncode == 0, done.stdout + done.stderr
    assert zip_secret(work / "_build" / "homework") == SECRET
    output = done.stdout + done.stderr
    assert "perceptron-homework build" in output  # make printed its recipe ...
    assert "Tulip" not in output and "Rose" not in output  # ... without the secret
    assert "Tulip" not in (work / "_build" / "homework" / ".secret").read_text()
    # The Jupyter-native copy of the student notebook, beside the build (not in the repository).
    assert (work / "_build" / "jupyter" / "notebooks" / "homework" / f"{HW}.ipynb").is_file()


def test_make_homework_refuses_a_secret_on_its_command_line(make_dir):
    work, cmd = make_dir
    for assignment in (f"HOMEWORK_SECRET={SECRET}", f"SECRET={SECRET}"):
        done = subprocess.run([*cmd, assignment], capture_output=True, text=True, check=False, env=environment())
        assert done.returncode != 0
        assert "not on make's command line" in done.stderr, done.stderr
        assert "Tulip" not in done.stdout + done.stderr
    assert not (work / "_build" / "homework" / HW).exists()


def test_make_homework_without_a_secret_refuses_unless_public(make_dir):
    work, cmd = make_dir
    done = subprocess.run(cmd, capture_output=True, text=True, check=False, env=environment())
    # make's own options (issue 31: it said "add --public", which make does not take)
    assert done.returncode != 0 and "make homework PUBLIC=1" in done.stderr, done.stderr
    assert "HOMEWORK_SECRET_FILE=" in done.stderr and "--public" not in done.stderr, done.stderr
    assert "perceptron-homework build" not in done.stdout  # refused before any build
    assert not (work / "_build" / "homework" / HW).exists()
    done = subprocess.run([*cmd, "PUBLIC=1"], capture_output=True, text=True, check=False, env=environment())
    assert done.returncode == 0, done.stderr
    assert "PUBLIC variant" in done.stderr
    assert zip_secret(work / "_build" / "homework") == checks.PUBLIC_SECRET


def test_a_given_wheel_is_used_only_if_it_is_a_perceptron_course_wheel(tmp_path, monkeypatch):
    # The hook these tests build with ($PERCEPTRON_HOMEWORK_WHEEL): a wrong path fails with the reason
    # instead of packaging something else, or nothing, into the autograder.
    from perceptron_homework import build

    wheel = tmp_path / "perceptron_course-0.1.0-py3-none-any.whl"
    wheel.write_bytes(b"PK")
    monkeypatch.setenv(build.WHEEL_ENV, str(wheel))
    assert build.project_wheel() == wheel
    for bad in (tmp_path / "missing.whl", tmp_path / "perceptron-0.4.0-py3-none-any.whl", tmp_path):
        if bad.suffix == ".whl" and "0.4.0" in bad.name:
            bad.write_bytes(b"PK")
        monkeypatch.setenv(build.WHEEL_ENV, str(bad))
        with pytest.raises(ValueError, match="is not a perceptron_course wheel"):
            build.project_wheel()
