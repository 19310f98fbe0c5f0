"""Fixtures and the hypothesis profile of the package tests (one file per module of src/perceptron).

This folder runs on its own against the oldest versions pyproject.toml allows (`make test-oldest`),
with only the package's dependencies, pytest, pytest-xdist, pytest-timeout and hypothesis installed:
nothing here or in its tests may import more. The hypothesis strategies are in strategies.py.
"""

from __future__ import annotations

import os

import numpy as np
import pytest
from hypothesis import settings

from perceptron import datasets

# In CI (CI=true) hypothesis replays the same examples every run, so a submission cannot pass or
# fail by luck; on a developer's machine it keeps exploring new ones.
settings.register_profile("ci", derandomize=True, deadline=None)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture
def toy():
    """Four points in the plane, separable with an offset (the train docstring's example)."""
    X = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]])
    y = np.array([1, 1, -1, -1])
    return X, y


@pytest.fixture
def xor():
    """Noisy XOR: no hyperplane separates it."""
    return datasets.make_xor(40, noise=0.1, seed=0)
