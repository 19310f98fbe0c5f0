"""regret: online gradient descent stays within its regret bound against every comparator, the
perceptron is online gradient descent on the hinge loss of its mistake rounds, and its regret gives
the mistake bound L + ||u|| R sqrt(L) + ||u||^2 R^2."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import (
    datasets,
    max_margin,
    online_gradient_descent,
    perceptron_regret_bound,
    train,
)


@st.composite
def data_and_comparator(draw):
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n, d = draw(st.integers(2, 60)), draw(st.integers(1, 5))
    X, y = datasets.make_overlapping(n, d, separation=draw(st.floats(0.0, 4.0)), seed=rng)
    X = X * draw(st.sampled_from([0.1, 1.0, 10.0]))
    u = rng.normal(size=d) * draw(st.sampled_from([0.01, 1.0, 30.0]))
    return X, y, u


@settings(max_examples=150, deadline=None)
@given(data_and_comparator(), st.sampled_from([1e-3, 0.1, 1.0, 7.0]), st.booleans())
def test_ogd_regret_never_exceeds_its_bound(case, eta, perceptron):
    X, y, u = case
    run = online_gradient_descent(X, y, eta, perceptron=perceptron)
    assert run.regret(u) <= run.regret_bound(u) * (1 + 1e-9) + 1e-9


@settings(max_examples=100, deadline=None)
@given(data_and_comparator(), st.sampled_from([0.01, 1.0, 5.0]))
def test_the_perceptron_is_ogd_on_the_hinge_of_its_mistake_rounds(case, eta):
    X, y, _ = case
    run = online_gradient_descent(X, y, eta, perceptron=True)
    reference = train(X, y, bias="none", eta=eta, max_epochs=1)
    assert run.mistakes == reference.mistakes
    assert np.allclose(run.w[-1], reference.w)
    assert np.all(run.losses[run.mistaken] >= 1)


@settings(max_examples=150, deadline=None)
@given(data_and_comparator())
def test_the_perceptron_makes_at_most_the_regret_mistake_bound(case):
    X, y, u = case
    run = online_gradient_descent(X, y, 1.0, perceptron=True)
    radius = float(np.linalg.norm(X[run.mistaken], axis=1).max()) if run.mistakes else 0.0
    bound = perceptron_regret_bound(run.comparator_loss(u), float(np.linalg.norm(u)), radius)
    assert run.mistakes <= bound * (1 + 1e-9)


def test_separable_data_give_chapter_5s_bound():
    X, y = datasets.make_separable(60, 3, margin=0.1, bias="none", seed=4)
    best = max_margin(X, y, bias="none")
    u = best.w / best.gamma  # y u.x >= 1, ||u|| = 1 / gamma
    run = online_gradient_descent(X, y, 1.0, perceptron=True)
    R = float(np.linalg.norm(X, axis=1).max())
    assert run.comparator_loss(u) == pytest.approx(0.0, abs=1e-9)
    assert perceptron_regret_bound(0.0, np.linalg.norm(u), R) == pytest.approx((R / best.gamma) ** 2)


def test_the_regret_bound_is_tight_up_to_rounding_on_one_example():
    # one point, w_0 = 0: regret vs u = x / ||x||^2 ... checks the telescoping identity with equality
    x, eta = np.array([3.0, 4.0]), 0.01
    run = online_gradient_descent([x], [1], eta)
    u = eta * x  # the comparator that the step reaches: bound - regret = ||w_1 - u||^2 / (2 eta) = 0
    assert run.regret_bound(u) - run.regret(u) == pytest.approx(0.0, abs=1e-12)


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        (([[1.0]], [1], 0.0), {}, "eta"),
        (([[1.0]], [2], 1.0), {}, "labels"),
        (([[np.nan]], [1], 1.0), {}, "NaN"),
        (([[1.0]], [1], 1.0), {"perceptron": "yes"}, "perceptron"),
    ],
)
def test_ogd_refuses_bad_input(args, kwargs, message):
    with pytest.raises(ValueError, match=message):
        online_gradient_descent(*args, **kwargs)


def test_a_comparator_of_the_wrong_length_is_refused():
    run = online_gradient_descent([[1.0, 2.0]], [1], 1.0)
    with pytest.raises(ValueError, match="u has 3 entries"):
        run.regret([1.0, 2.0, 3.0])


@pytest.mark.parametrize("args", [(-1.0, 1.0, 1.0), (1.0, np.inf, 1.0), (1.0, 1.0, "r")])
def test_the_mistake_bound_refuses_bad_numbers(args):
    with pytest.raises(ValueError, match="must be"):
        perceptron_regret_bound(*args)
