"""nonseparable: epoch-end weights of a run, exact cycle detection, the fewest-errors line."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import (
    choose_epochs,
    datasets,
    fewest_errors_line,
    find_cycle,
    held_out_bound,
    pocket,
    train,
    weights_at_epoch_ends,
)
from perceptron._core import count_errors

XOR = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([1, 1, -1, -1])


def integer_data(seed: int, n: int = 12):
    X, y = datasets.make_overlapping(n, separation=1.0, seed=seed)
    return np.round(3 * X), y


# --- weights_at_epoch_ends --------------------------------------------------------------------


@pytest.mark.parametrize("shuffle", [False, True])
def test_epoch_end_weights_match_shorter_runs(shuffle):
    X, y = datasets.make_overlapping(30, separation=1.0, seed=3)
    run = train(X, y, max_epochs=8, shuffle=shuffle, seed=5, record=True)
    W, b = weights_at_epoch_ends(run)
    assert W.shape == (9, 2) and b.shape == (9,)
    assert np.all(W[0] == 0) and b[0] == 0
    for e in range(1, 9):  # a shorter run with the same seed is a prefix of the longer one
        short = train(X, y, max_epochs=e, shuffle=shuffle, seed=5)
        assert np.array_equal(W[e], short.w) and b[e] == short.b


def test_epoch_end_weights_start_from_w0_and_b0():
    X, y = datasets.make_separable(20, seed=1)
    run = train(X, y, w0=[5.0, -5.0], b0=2.0, record=True)
    W, b = weights_at_epoch_ends(run, w0=[5.0, -5.0], b0=2.0)
    assert W[0].tolist() == [5.0, -5.0] and b[0] == 2.0
    assert np.array_equal(W[-1], run.w) and b[-1] == run.b


def test_epoch_end_weights_refuse_an_unrecorded_run():
    run = train(XOR, XOR_Y, max_epochs=2)
    with pytest.raises(ValueError, match="record=True"):
        weights_at_epoch_ends(run)
    with pytest.raises(ValueError, match="TrainResult"):
        weights_at_epoch_ends((run.w, run.b))


# --- find_cycle -------------------------------------------------------------------------------


def test_xor_returns_to_zero_after_one_pass_of_four_mistakes():
    cycle = find_cycle(XOR, XOR_Y)
    assert (cycle.start, cycle.period, cycle.updates_per_period) == (0, 1, 4)
    assert np.all(cycle.weights == 0) and np.all(cycle.biases == 0)


@pytest.mark.parametrize("seed", range(6))
def test_found_cycle_repeats_and_its_period_is_the_smallest(seed):
    X, y = integer_data(seed)
    cycle = find_cycle(X, y)
    assert cycle is not None
    w, b = cycle.weights[cycle.start], cycle.biases[cycle.start]
    states = []
    for _ in range(2 * cycle.period):  # two full periods from the start of the cycle
        states.append(np.append(w, b))
        run = train(X, y, w0=w, b0=b, max_epochs=1)
        w, b = run.w, run.b
    states.append(np.append(w, b))
    assert np.array_equal(states[cycle.period], states[0]) and np.array_equal(states[-1], states[0])
    assert all(not np.array_equal(states[k], states[0]) for k in range(1, cycle.period))
    # Nothing before the cycle's start recurs: the pre-period is as short as it can be.
    earlier = [np.append(cycle.weights[k], cycle.biases[k]) for k in range(cycle.start + cycle.period)]
    assert len({s.tobytes() for s in earlier}) == len(earlier)


def test_separable_data_give_a_fixed_point_without_updates():
    X, y = datasets.make_separable(30, margin=0.2, seed=2)
    cycle = find_cycle(X, y)
    final = train(X, y)
    assert cycle.period == 1 and cycle.updates_per_period == 0
    assert np.array_equal(cycle.weights[-1], final.w) and cycle.biases[-1] == final.b
    assert cycle.start == final.epochs - 1  # the clean pass starts from the final weights


def test_find_cycle_gives_none_when_the_budget_is_too_small():
    X, y = integer_data(2)
    cycle = find_cycle(X, y)
    assert cycle.start + cycle.period > 1
    assert find_cycle(X, y, max_epochs=cycle.start + cycle.period - 1) is None


def test_find_cycle_validates_its_arguments():
    with pytest.raises(ValueError, match="max_epochs"):
        find_cycle(XOR, XOR_Y, max_epochs=0)
    with pytest.raises(ValueError, match="bias"):
        find_cycle(XOR, XOR_Y, bias="two")
    with pytest.raises(ValueError, match="labels"):
        find_cycle(XOR, [0, 0, 1, 1])


# --- fewest_errors_line -----------------------------------------------------------------------


def random_line_errors(X, y, rng, trials=3000):
    W = rng.normal(size=(trials, 2))
    B = rng.normal(size=trials) * 2
    return int(np.min(np.sum(y[:, None] * (X @ W.T + B) <= 0, axis=0)))


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(6, 25))
def test_no_random_line_and_no_pocket_beats_the_fewest_errors_line(seed, n):
    X, y = datasets.make_overlapping(n, separation=1.0, seed=seed)
    line = fewest_errors_line(X, y)
    assert line.errors == count_errors(X, y.astype(float), line.w, line.b)
    assert np.isclose(np.linalg.norm(line.w), 1.0)
    assert line.errors <= random_line_errors(X, y, np.random.default_rng(seed))
    assert line.errors <= pocket(X, y, max_epochs=5, seed=seed).errors


def test_fewest_errors_line_separates_separable_data():
    X, y = datasets.make_separable(40, margin=0.05, seed=7)
    assert fewest_errors_line(X, y).errors == 0


def test_fewest_errors_line_on_xor_makes_one_error():
    # Three corners of the square can be cut from the fourth, never two from two.
    assert fewest_errors_line(XOR, XOR_Y).errors == 1


def test_a_duplicated_point_with_both_labels_costs_one_error():
    X = [[0.0, 0.0], [0.0, 0.0], [1.0, 1.0], [-1.0, -1.0]]
    line = fewest_errors_line(X, [1, -1, 1, -1])
    assert line.errors == 1


def test_fewest_errors_line_refuses_other_dimensions():
    with pytest.raises(ValueError, match="2 columns"):
        fewest_errors_line(np.zeros((4, 3)), [1, -1, 1, -1])


def test_docstring_examples_run():
    import doctest

    from perceptron import nonseparable

    failures, tried = doctest.testmod(nonseparable)
    assert tried >= 3 and failures == 0


def test_choose_epochs_measures_the_weights_after_every_pass():
    X, y = datasets.make_overlapping(40, separation=1.0, seed=2)
    Xv, yv = datasets.make_overlapping(60, separation=1.0, seed=9)
    T, errors = choose_epochs(X, y, Xv, yv, max_epochs=6, shuffle=True, seed=4)
    assert errors.shape == (7,) and errors[0] == np.mean(yv != 1)  # w = 0, b = 0 predicts +1
    for t in range(1, 7):  # a run stopped after t passes holds the weights after pass t
        short = train(X, y, max_epochs=t, shuffle=True, seed=4)
        assert errors[t] == np.mean(short.predict(Xv) != yv)
    assert errors[T] == errors.min() and np.all(errors[:T] > errors.min())


def test_choose_epochs_keeps_the_final_weights_after_convergence():
    X, y = datasets.make_separable(30, margin=0.2, seed=1)
    run = train(X, y, max_epochs=50)
    T, errors = choose_epochs(X, y, X, y, max_epochs=50)
    assert run.converged and np.all(errors[run.epochs:] == 0.0) and T <= run.epochs


@pytest.mark.parametrize(("kwargs", "match"), [
    ({"max_epochs": 0}, "max_epochs must be >= 1"),
    ({"max_epochs": 3, "record": False}, "sets record itself"),
    ({"max_epochs": 3, "w0": [1.0, 0.0]}, "sets w0 itself"),
])
def test_choose_epochs_refuses_what_it_sets_or_cannot_do(kwargs, match):
    X, y = datasets.make_overlapping(10, separation=1.0, seed=0)
    with pytest.raises(ValueError, match=match):
        choose_epochs(X, y, X, y, **kwargs)


def test_choose_epochs_needs_held_out_points_with_the_same_features():
    X, y = datasets.make_overlapping(10, separation=1.0, seed=0)
    with pytest.raises(ValueError, match="X_val has 3 features but X has 2"):
        choose_epochs(X, y, np.ones((4, 3)), [1, -1, 1, -1], max_epochs=2)


def test_the_held_out_bound_covers_every_candidate_at_its_rate():
    # Simulation: k classifiers with known test errors p_j; the fraction of held-out sets on which
    # some |rate - p_j| exceeds the bound stays below delta.
    rng = np.random.default_rng(0)
    p, n, delta = np.linspace(0.1, 0.5, 11), 200, 0.1
    bound = held_out_bound(n, len(p), delta)
    rates = rng.binomial(n, p, size=(4000, len(p))) / n
    assert np.mean(np.any(np.abs(rates - p) > bound, axis=1)) <= delta
    assert held_out_bound(4 * n, len(p), delta) == pytest.approx(bound / 2)


@pytest.mark.parametrize(("args", "match"), [((0, 3), "n_val"), ((10, 0), "candidates"), ((10, 3, 1.0), "delta")])
def test_the_held_out_bound_refuses_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        held_out_bound(*args)
