"""Fixtures of the grader's newer test files: one assignment built by the code of `make homework`.

Builds come from :func:`tests.support.homework_builds.homework_build`: each distinct build once per
session, shared by both xdist workers (read-only: copy a build before changing it).
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def hw1(tmp_path_factory) -> Path:
    """Homework 1 (five autograded questions, one written), built with the public secret: its folder."""
    from tests.support.homework_builds import homework_build

    return homework_build(tmp_path_factory, "hw1_perceptron")


@pytest.fixture(scope="session")
def hw2(tmp_path_factory) -> Path:
    """Homework 2 (four autograded questions), built with the public secret: its folder."""
    from tests.support.homework_builds import homework_build

    return homework_build(tmp_path_factory, "hw2_linear_classifiers")


@pytest.fixture(scope="session")
def hw3(tmp_path_factory) -> Path:
    """Homework 3 (five autograded questions, one written), built with the public secret: its folder."""
    from tests.support.homework_builds import homework_build

    return homework_build(tmp_path_factory, "hw3_convergence")


@pytest.fixture(scope="session")
def project_wheel() -> Path:
    """This checkout's wheel, built once per worker (``pip wheel``, 9-20 s) or taken from the builds
    already made in it: the tests that run ``perceptron-homework build`` or ``make homework`` in a
    subprocess hand it over as ``$PERCEPTRON_HOMEWORK_WHEEL`` instead of building one each."""
    from perceptron_homework import build

    return build.project_wheel()


@pytest.fixture
def shared_wheel(project_wheel, monkeypatch) -> Path:
    """``$PERCEPTRON_HOMEWORK_WHEEL`` set to the session's wheel for this test's subprocesses."""
    from perceptron_homework import build

    monkeypatch.setenv(build.WHEEL_ENV, str(project_wheel))
    return project_wheel
