"""Fixtures of the grader's newer test files: one assignment built by the code of `make homework`."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def hw1(tmp_path_factory) -> Path:
    """Homework 1 (five autograded questions, one written), built with the public secret: its folder."""
    from perceptron_homework.build import build

    return build(ROOT / "notebooks" / "homework" / "hw1_perceptron.ipynb", tmp_path_factory.mktemp("hw1"),
                 run_tests=False)


@pytest.fixture(scope="session")
def hw2(tmp_path_factory) -> Path:
    """Homework 2 (four autograded questions), built with the public secret: its folder."""
    from perceptron_homework.build import build

    return build(ROOT / "notebooks" / "homework" / "hw2_linear_classifiers.ipynb", tmp_path_factory.mktemp("hw2"),
                 run_tests=False)


@pytest.fixture(scope="session")
def hw3(tmp_path_factory) -> Path:
    """Homework 3 (five autograded questions, one written), built with the public secret: its folder."""
    from perceptron_homework.build import build

    return build(ROOT / "notebooks" / "homework" / "hw3_convergence.ipynb", tmp_path_factory.mktemp("hw3"),
                 run_tests=False)
