"""winnow: the mistake bound 3 k ceil(log2 n) + 1 on random disjunctions and on adversarial orders,
the promotion count k ceil(log2 n), the data generator and the boundary checks."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import disjunction_data, winnow, winnow_mistake_bound


@st.composite
def disjunction(draw):
    n = draw(st.integers(1, 300))
    k = draw(st.integers(0, min(n, 8)))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    relevant = rng.choice(n, size=k, replace=False)
    X, y = disjunction_data(draw(st.integers(1, 400)), n, relevant, density=draw(st.floats(0.01, 0.9)), seed=rng)
    return X, y, k, n


@settings(max_examples=200, deadline=None)
@given(disjunction(), st.integers(1, 4))
def test_winnow_never_exceeds_its_bound_even_over_many_passes(case, passes):
    X, y, k, n = case
    run = winnow(np.tile(X, (passes, 1)), np.tile(y, passes))
    assert run.promotions <= k * math.ceil(math.log2(n))
    assert run.demotions <= 2 * run.promotions + 1
    assert run.mistakes <= winnow_mistake_bound(k, n)


def test_an_adversarial_order_stays_within_the_bound():
    # singletons of the relevant variable (promotions) and all irrelevant ones at once (demotions)
    n, k = 64, 2
    rows, labels = [], []
    for _ in range(20):
        for r in range(k):
            rows.append(np.eye(n)[r])
            labels.append(1)
        rows.append(np.r_[np.zeros(k), np.ones(n - k)])
        labels.append(0)
    run = winnow(rows, labels)
    assert run.promotions == k * math.ceil(math.log2(n))  # every relevant weight doubled to n
    assert run.mistakes <= winnow_mistake_bound(k, n)


def test_the_generator_labels_by_the_or_of_the_relevant_variables():
    X, y = disjunction_data(500, 30, [3, 7, 11], density=0.05, seed=2)
    assert np.array_equal(y, X[:, [3, 7, 11]].max(axis=1).astype(int))
    assert 0 < y.mean() < 1
    assert not disjunction_data(10, 5, [], seed=0)[1].any()


@pytest.mark.parametrize(
    ("X", "y", "message"),
    [([[1, -1]], [1], "only 0 and 1"), ([[1, 0]], [1, 0], "one label per row"), ([1, 0], [1], "2-D")],
)
def test_winnow_refuses_non_boolean_data(X, y, message):
    with pytest.raises(ValueError, match=message):
        winnow(X, y)


@pytest.mark.parametrize(("k", "n", "message"), [(3, 2, "at most n_variables"), (-1, 4, "n_relevant must"),
                                                 (0, 0, "n_variables must")])
def test_the_bound_refuses_bad_sizes(k, n, message):
    with pytest.raises(ValueError, match=message):
        winnow_mistake_bound(k, n)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"relevant": [5]}, "between 0 and 4"), ({"relevant": [0], "density": 1.0}, "density")],
)
def test_the_generator_refuses_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        disjunction_data(10, 5, **kwargs)
