"""experts: halving within log2 |H|, SOA within the Littlestone dimension (checked against a brute-force
game value), weighted majority within its bound, and the boundary checks."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import (
    halving,
    littlestone_dimension,
    soa,
    thresholds,
    weighted_majority,
    weighted_majority_bound,
)


@st.composite
def class_and_sequence(draw, max_hypotheses=12, max_points=5):
    """A random finite class, a target in it and a sequence of points (repeats allowed)."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    n_h, n_x = draw(st.integers(1, max_hypotheses)), draw(st.integers(1, max_points))
    H = rng.choice([-1, 1], size=(n_h, n_x))
    target = H[rng.integers(n_h)]
    xs = rng.integers(n_x, size=draw(st.integers(1, 30)))
    return H, xs, target[xs]


def brute_force_game_value(H):
    """The most mistakes an adversary can force on the best deterministic learner, by minimax over
    every version space reachable (an independent computation of Ldim: no SOA, no tree recursion
    shared with the package)."""
    H = np.unique(np.asarray(H), axis=0)
    memo = {}

    def value(rows):
        if rows in memo:
            return memo[rows]
        best = 0
        for x in range(H.shape[1]):
            parts = [frozenset(r for r in rows if H[r, x] == s) for s in (-1, 1)]
            if not all(parts):
                continue
            # the learner picks a prediction, the adversary then picks the label (both must stay realizable)
            best = max(best, min(max(value(parts[0]) + (p != -1), value(parts[1]) + (p != 1)) for p in (-1, 1)))
        memo[rows] = best
        return best

    return value(frozenset(range(len(H))))


@settings(max_examples=150, deadline=None)
@given(class_and_sequence())
def test_halving_makes_at_most_log2_of_the_class_size_mistakes(case):
    H, xs, ys = case
    run = halving(H, xs, ys)
    assert run.mistakes <= math.log2(len(np.unique(H, axis=0))) + 1e-12
    assert np.all(np.diff(run.version_sizes) <= 0) and run.version_sizes[-1] >= 1


@settings(max_examples=100, deadline=None)
@given(class_and_sequence(max_hypotheses=10, max_points=4))
def test_soa_makes_at_most_ldim_mistakes_and_ldim_is_the_game_value(case):
    H, xs, ys = case
    d = littlestone_dimension(H)
    assert d == brute_force_game_value(H)
    assert d <= math.log2(len(np.unique(H, axis=0))) + 1e-12
    assert soa(H, xs, ys).mistakes <= d


@pytest.mark.parametrize("m", range(1, 16))
def test_thresholds_on_m_points_have_ldim_floor_log2_m_plus_1(m):
    assert littlestone_dimension(thresholds(m)) == math.floor(math.log2(m + 1))


def test_every_binary_class_on_three_points_has_ldim_3():
    all_labelings = np.array(list(itertools.product([-1, 1], repeat=3)))
    assert littlestone_dimension(all_labelings) == 3


def test_halving_and_soa_refuse_labels_no_hypothesis_explains():
    with pytest.raises(ValueError, match="not realizable"):
        halving(thresholds(3), [0, 2], [1, -1])
    with pytest.raises(ValueError, match="not realizable"):
        soa(thresholds(3), [0, 2], [1, -1])


@pytest.mark.parametrize(
    ("H", "xs", "ys", "message"),
    [
        ([[1, 0]], [0], [1], "only the labels"),
        ([1, -1], [0], [1], "2-D"),
        ([[1, -1]], [2], [1], "indices"),
        ([[1, -1]], [0.5], [1], "indices"),
        ([[1, -1]], [0, 1], [1], "same length"),
        ([[1, -1]], [0], [0], "ys must contain"),
    ],
)
def test_malformed_classes_and_sequences_are_refused(H, xs, ys, message):
    with pytest.raises(ValueError, match=message):
        halving(H, xs, ys)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 40), st.integers(1, 200), st.sampled_from([0.1, 0.5, 0.9]))
def test_weighted_majority_never_exceeds_its_bound(seed, n_experts, rounds, beta):
    rng = np.random.default_rng(seed)
    outcomes = rng.choice([-1, 1], size=rounds)
    error_rates = rng.uniform(0, 0.6, size=n_experts)
    flips = rng.random((rounds, n_experts)) < error_rates
    advice = np.where(flips, -outcomes[:, None], outcomes[:, None])
    run = weighted_majority(advice, outcomes, beta=beta)
    best = int(run.expert_mistakes.min())
    assert run.mistakes <= weighted_majority_bound(best, n_experts, beta=beta) * (1 + 1e-12)
    assert np.array_equal(run.expert_mistakes, (advice != outcomes[:, None]).sum(axis=0))


def test_the_bound_at_one_half_is_about_2_41_times_m_star_plus_log2_n():
    for m, n in [(0, 2), (5, 64), (100, 1000)]:
        assert weighted_majority_bound(m, n) == pytest.approx((m + math.log2(n)) / math.log2(4 / 3))
    assert 2.40 < 1 / math.log2(4 / 3) < 2.41


def test_weighted_majority_with_beta_zero_is_halving_on_the_experts():
    rng = np.random.default_rng(3)
    H = rng.choice([-1, 1], size=(16, 8))
    xs = rng.integers(8, size=25)
    ys = H[5, xs]
    assert weighted_majority(H[:, xs].T, ys, beta=0.0).mistakes == halving(H, xs, ys).mistakes


def test_an_adversary_forces_weighted_majority_to_err_every_round():
    # two experts who always disagree, outcome = the opposite of the learner's prediction
    T, advice = 20, np.tile([1, -1], (20, 1))
    outcomes = []
    for t in range(T):
        said = weighted_majority(advice[: t + 1], np.array([*outcomes, 1])).predictions[-1]
        outcomes.append(-int(said))
    run = weighted_majority(advice, outcomes)
    assert run.mistakes == T and run.mistakes <= weighted_majority_bound(int(run.expert_mistakes.min()), 2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"advice": [[1, 2]], "outcomes": [1]}, "only the labels"),
        ({"advice": [[1, -1]], "outcomes": [1, 1]}, "one per round"),
        ({"advice": [[1, -1]], "outcomes": [1], "beta": 1.0}, "beta"),
        ({"advice": [], "outcomes": []}, "non-empty"),
    ],
)
def test_weighted_majority_refuses_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        weighted_majority(**kwargs)


@pytest.mark.parametrize(("args", "message"), [((-1, 3), "best_mistakes"), ((1, 0), "n_experts")])
def test_the_bound_refuses_bad_counts(args, message):
    with pytest.raises(ValueError, match=message):
        weighted_majority_bound(*args)
    with pytest.raises(ValueError, match="beta"):
        weighted_majority_bound(1, 2, beta=0.0)
