"""Functions the grader puts in place of a student's helpers while it calls another function.

Homework 1 asks for ``train_perceptron`` built on the student's own ``is_mistake`` and
``update``. To check the loop itself (which points it visits, in which order, and what it does
with the answers) the grader swaps those helpers for the ones below and records every call:
with ``half_bias_update`` in place the right loop follows a path that no library trainer
follows, so calling one cannot pass.
"""

from __future__ import annotations

import numpy as np


def margin_rule(x, y, w, b):
    """The book's mistake test, y (w . x + b) <= 0."""
    return bool(y * (np.dot(w, x) + b) <= 0)


def half_bias_update(x, y, w, b, eta):
    """The update with the bias learned at half the rate: a variant no trainer implements."""
    return np.asarray(w, dtype=float) + eta * y * np.asarray(x, dtype=float), b + 0.5 * eta * y


PATCHES = {"margin_rule": margin_rule, "half_bias_update": half_bias_update}
