"""Each homework build once per test session, shared by every test and both of xdist's workers.

``otter assign`` takes 10-30 s a homework, and the grader, publishing, formative-check, platform and
Gradescope-image tests all need the same few builds (the public variant of every homework, homework 1
under a couple of private secrets). :func:`homework_build` builds each distinct one once per
``pytest`` session, with :func:`perceptron_homework.build.build` (the code of ``make homework``),
and hands every later caller, in this process or in the other worker, the same folder::

    from tests.support.homework_builds import homework_build

    @pytest.fixture(scope="session")
    def hw4(tmp_path_factory) -> Path:
        return homework_build(tmp_path_factory, "hw4_whatever")                 # the public variant

    folder = homework_build(tmp_path_factory, "hw1_perceptron", secret="a private secret")
    folder / "student" / "hw1_perceptron.ipynb"                                  # as build() returns it

The key of a build is everything that goes into it: the master notebook's bytes, the secret and
whether otter ran the solutions' tests. The code of the build is not in the key: it cannot change
during a session. A build that failed is not cached (the next caller tries again and gets the error).

The folder is shared: **never write into it**. A test that edits a build copies it first
(``shutil.copytree``); tests run as root here, so read-only permissions would not stop a write.
Tests that check the build itself (``perceptron-homework build``, ``make homework``, a private
master) still run it for real.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import threading
from pathlib import Path

import pytest

from perceptron_homework.gradescope import locked

ROOT = Path(__file__).resolve().parents[2]
MASTERS = ROOT / "notebooks" / "homework"
READY = "ready.json"
# The private secret of the tests that need homework 1 under one (the one issue 22 saw mangled), so
# that they share one build: test_publishing.py's variants, test_homework.py's secret hygiene.
PRIVATE_SECRET = 'Tulip$Rose&"8831'
# pytest's getbasetemp() is not thread-safe: on first use it removes and recreates the worker's base
# folder (xdist gives each worker one), so two threads of a fixture's pool (test_homework's `built`)
# entering it together raced (FileExistsError, or one removing the other's folder).
_BASETEMP = threading.Lock()


def shared_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of this session that every xdist worker sees: the parent of the workers' base
    temporary folders (``pytest-N/popen-gwK``); without xdist, the session's own base folder."""
    with _BASETEMP:
        base = tmp_path_factory.getbasetemp()
    folder = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "homework-builds"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def build_key(master: Path, secret: str, run_tests: bool) -> str:
    digest = hashlib.sha256(Path(master).read_bytes())
    digest.update(json.dumps([secret, run_tests]).encode())
    return f"{Path(master).stem}-{digest.hexdigest()[:16]}"


def homework_build(tmp_path_factory: pytest.TempPathFactory, assignment: str, *, secret: str | None = None,
                   run_tests: bool = False, master: Path | None = None) -> Path:
    """The folder of ``assignment`` built by ``perceptron_homework.build.build`` (``<out>/<assignment>``,
    with ``student/``, ``autograder/`` and ``manifest.json``), built at most once per session.

    ``secret`` defaults to the public one (``make homework PUBLIC=1``); ``master`` to
    ``notebooks/homework/<assignment>.ipynb``; ``run_tests`` (otter's run of the solutions against
    every test) is off by default, as grading the answer key checks the same. Read-only: copy the
    folder before changing anything in it.
    """
    from perceptron_homework import checks
    from perceptron_homework.build import build

    secret = checks.PUBLIC_SECRET if secret is None else secret
    master = Path(master) if master is not None else MASTERS / f"{assignment}.ipynb"
    if master.stem != assignment:
        raise ValueError(f"the master {master.name} is not the one of {assignment}")
    folder = shared_folder(tmp_path_factory) / build_key(master, secret, run_tests)
    with locked(folder.with_suffix(".lock")):
        if not (folder / READY).is_file():
            if folder.exists():
                shutil.rmtree(folder)  # what a failed build left
            dest = build(master, folder, secret=secret, run_tests=run_tests)
            assert dest == folder / assignment, dest
            (folder / READY).write_text(json.dumps({"master": str(master), "run_tests": run_tests}) + "\n")
    return folder / assignment
