"""mistake_bound: the convergence theorem's bound holds for every run from a zero start."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import datasets, max_margin, mistake_bound, radius, train
from tests.package.strategies import separable_data


def test_bounds_hand_computed_for_two_opposite_points():
    # R = 2 and gamma = 2 (through the origin and with an offset alike).
    X, y = [[2.0, 0.0], [-2.0, 0.0]], [1, -1]
    assert mistake_bound(X, y, bias="none") == pytest.approx(1.0, rel=1e-12)
    assert mistake_bound(X, y, bias="radius") == pytest.approx(4.0, rel=1e-12)  # (2 R / gamma)^2
    # Augmented points (+-2, 0, 1): R'^2 = 5, best margin through the origin 2.
    assert mistake_bound(X, y, bias="one") == pytest.approx(5.0 / 4.0, rel=1e-12)
    assert mistake_bound(X, y) == mistake_bound(X, y, bias="one")


@pytest.mark.parametrize("c", [0.5, 10.0])
def test_bound_for_bias_one_depends_on_the_scale(c):
    # Augmented with a constant 1, the scale matters: R'^2 = 4c^2 + 1, gamma' = 2c.
    X, y = c * np.array([[2.0, 0.0], [-2.0, 0.0]]), [1, -1]
    assert mistake_bound(X, y, bias="one") == pytest.approx(1 + 1 / (4 * c**2), rel=1e-12)


@pytest.mark.parametrize("mode", ["none", "radius"])
@pytest.mark.parametrize("c", [1e-3, 0.2, 7.0, 1e4])
def test_bound_is_invariant_under_rescaling_the_data(mode, c):
    X, y = datasets.make_separable(40, 3, margin=0.1, bias=mode, seed=3)
    assert mistake_bound(c * X, y, bias=mode) == pytest.approx(mistake_bound(X, y, bias=mode), rel=1e-8)


@pytest.mark.parametrize("mode", ["none", "radius"])
def test_bound_is_the_formula_of_its_mode(mode):
    X, y = datasets.make_separable(30, 2, margin=0.1, bias=mode, seed=5)
    gamma = max_margin(X, y, bias=mode).gamma
    factor = 2.0 if mode == "radius" else 1.0
    assert mistake_bound(X, y, bias=mode) == pytest.approx((factor * radius(X) / gamma) ** 2, rel=1e-12)


MAX_EPOCHS = 500


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    mode=st.sampled_from(["one", "radius", "none"]),
    eta=st.one_of(st.just(1.0), st.floats(1e-3, 1e3)),
    shuffle=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_mistakes_never_exceed_the_bound(data, mode, eta, shuffle, seed):
    # "none" needs data separable through the origin; the other modes get either kind.
    X, y = data.draw(separable_data(bias=False if mode == "none" else None))
    bound = mistake_bound(X, y, bias=mode)
    result = train(X, y, bias=mode, eta=eta, shuffle=shuffle, seed=seed, max_epochs=MAX_EPOCHS)
    assert result.mistakes <= bound
    # Every pass but the last clean one makes a mistake, so a bound below the number of passes
    # also promises convergence. (Tiny data with bias "one" can have bounds in the millions.)
    if bound < MAX_EPOCHS:
        assert result.converged


def test_bound_is_attained_up_to_rounding_on_a_tight_example():
    # Two opposite points on an axis: the first pass makes exactly one mistake, bound 1.
    X, y = [[1.0, 0.0], [-1.0, 0.0]], [1, -1]
    assert train(X, y, bias="none").mistakes == 1
    assert mistake_bound(X, y, bias="none") == pytest.approx(1.0, rel=1e-12)


@pytest.mark.parametrize("mode", ["one", "radius", "none"])
def test_non_separable_data_raise(xor, mode):
    X, y = xor
    with pytest.raises(ValueError, match="not linearly separable"):
        mistake_bound(X, y, bias=mode)


def test_bias_none_needs_separability_through_the_origin():
    X, y = [[1.0, 0.0], [2.0, 0.0]], [1, -1]
    assert mistake_bound(X, y, bias="radius") > 0  # separable with an offset ...
    with pytest.raises(ValueError, match="not linearly separable through the origin"):
        mistake_bound(X, y, bias="none")  # ... but not through the origin


def test_bound_at_extreme_scales_is_finite():
    for scale in (1e-170, 1e200):
        X, y = scale * np.array([[2.0, 0.0], [-2.0, 0.0]]), [1, -1]
        assert mistake_bound(X, y, bias="none") == pytest.approx(1.0, rel=1e-12)
