"""Homework 1, the perceptron: the tests of q1-q5 (public ones as in the notebook)."""

from __future__ import annotations

import numpy as np

import perceptron
from perceptron.datasets import make_overlapping, make_separable, make_xor

from ..patches import half_bias_update, margin_rule
from . import NOTHING_OF_THE_PACKAGE as OWN
from . import call, check, value

ETAS = (0.01, 0.1, 1.0, 10.0)

# ------------------------------------------------------------------------- q1: is_mistake


@check("q1")
def test_is_mistake_small_examples(rng):
    w, b = np.array([1.0, 0.0]), 0.0
    calls = [call("is_mistake", np.array([2.0, 0.0]), 1, w, b), call("is_mistake", np.array([2.0, 0.0]), -1, w, b),
             call("is_mistake", np.array([0.0, 5.0]), 1, w, b)]

    def verdict(out):
        assert out[0] == False, "(2, 0) is on the positive side"
        assert out[1] == True, "(2, 0) labelled -1 is on the wrong side"
        assert out[2] == True, "(0, 5) lies on the hyperplane: that is a mistake"

    return calls, verdict


@check("q1", hidden=True)
def test_is_mistake_matches_the_margin_rule(rng):
    cases = []
    for _ in range(50):
        d = int(rng.integers(1, 5))
        cases.append((rng.normal(size=d), int(rng.choice([-1, 1])), rng.normal(size=d), float(rng.normal())))

    def verdict(out):
        for (x, y, w, b), got in zip(cases, out):
            assert bool(got) == (y * (x @ w + b) <= 0), f"wrong answer for x = {x}, y = {y}, w = {w}, b = {b}"

    return [call("is_mistake", *case, forbid=OWN) for case in cases], verdict


@check("q1", hidden=True)
def test_is_mistake_at_the_zero_start(rng):
    # The perceptron starts at w = 0, b = 0, where every point is on the hyperplane.
    calls = [call("is_mistake", rng.normal(size=3), y, np.zeros(3), 0.0, forbid=OWN) for y in (-1, 1)]

    def verdict(out):
        for got in out:
            assert got == True, "at w = 0, b = 0 every point is a mistake"

    return calls, verdict


# ----------------------------------------------------------------------------- q2: update


@check("q2")
def test_update_small_example(rng):
    def verdict(out):
        w, b = out[0]
        assert np.allclose(w, [0.0, -0.5]), f"expected w = [0, -0.5], got {w}"
        assert np.isclose(b, -0.25), f"expected b = -0.25, got {b}"

    return [call("update", np.array([1.0, 2.0]), -1, np.array([0.5, 0.5]), 0.25, 0.5)], verdict


def _mistaken_points(rng, count):
    """Points (x, y) that (w, b) gets wrong, with the reference's first update from (w, b)."""
    cases = []
    for _ in range(count):
        d = int(rng.integers(1, 5))
        x, w, b, eta = rng.normal(size=d), rng.normal(size=d), float(rng.normal()), float(rng.uniform(0.1, 3))
        y = -1 if x @ w + b >= 0 else 1
        # The reference starts at (w, b) and visits x first, a mistake by construction.
        ref = perceptron.train([x, -x], [y, -y], eta=eta, w0=w, b0=b, max_epochs=1, record=True).history[0]
        cases.append(((x, y, w, b, eta), ref))
    return cases


@check("q2", hidden=True)
def test_update_weights_match_reference(rng):
    cases = _mistaken_points(rng, 20)

    def verdict(out):
        for (_, ref), got in zip(cases, out):
            new_w, _ = got
            assert np.allclose(new_w, ref.w), "wrong weights after the update"

    return [call("update", *args, forbid=OWN) for args, _ in cases], verdict


@check("q2", hidden=True)
def test_update_bias_matches_reference(rng):
    cases = _mistaken_points(rng, 20)

    def verdict(out):
        for (_, ref), got in zip(cases, out):
            _, new_b = got
            assert np.isclose(new_b, ref.b), "wrong bias after the update"

    return [call("update", *args, forbid=OWN) for args, _ in cases], verdict


# ------------------------------------------------------------------------ q3: the training loop


@check("q3")
def test_train_small_example(rng):
    X = np.array([[-1.0, -1.0], [-1.0, 0.0], [2.0, 3.0], [-3.0, 3.0], [0.0, -1.0]])

    def verdict(out):
        w, b, mistakes = out[0]
        assert np.allclose(w, [0.0, -4.0]) and np.isclose(b, 2.0) and mistakes == 4, (
            f"expected w = [0, -4], b = 2 after 4 mistakes, got w = {w}, b = {b}, {mistakes} mistakes"
        )

    return [call("train_perceptron", X, np.array([1, 1, -1, -1, 1]))], verdict


@check("q3", hidden=True)
def test_train_matches_reference_on_random_data(rng):
    cases = [make_separable(40, d, margin=0.05, seed=int(rng.integers(2**31))) for d in (2, 3, 5)]

    def verdict(out):
        for (X, y), got in zip(cases, out):
            w, b, mistakes = got
            ref = perceptron.train(X, y, bias="one")
            assert mistakes == ref.mistakes, f"{mistakes} mistakes instead of {ref.mistakes}"
            assert np.allclose(w, ref.w) and np.isclose(b, ref.b), "wrong final (w, b)"

    return [call("train_perceptron", X, y, forbid=OWN) for X, y in cases], verdict


def _variant_run(X, y, eta, max_epochs=1000):
    """The perceptron's loop with the bias learned at half the rate: every update, in order."""
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(max_epochs):
        clean = True
        for x_i, y_i in zip(X, y):
            if margin_rule(x_i, y_i, w, b):
                updates.append((x_i, y_i, w, b, eta))
                w, b = half_bias_update(x_i, y_i, w, b, eta)
                clean = False
        if clean:
            break
    return w, b, updates


@check("q3", hidden=True)
def test_train_visits_points_in_order(rng):
    # The grader swaps the notebook's is_mistake and update for its own (the update learning the
    # bias at half the rate) and records the updates: the loop must visit the points in order,
    # update on each mistake with what update returns, and count the updates.
    X, y = make_separable(30, 4, margin=0.1, seed=int(rng.integers(2**31)))
    eta = float(rng.choice([0.25, 0.5, 2.0]))
    w_ref, b_ref, updates = _variant_run(X, y, eta)
    patch = {"is_mistake": "margin_rule", "update": "half_bias_update"}

    def verdict(out):
        w, b, mistakes = out[0]
        seen = [args for target, args, _ in out.trace(0) if target == "update"]
        assert seen, "train_perceptron should call your update on every mistake"
        for k, (got, expected) in enumerate(zip(seen, updates)):
            x, y_k, w_k, b_k = (np.asarray(v, dtype=float) for v in list(got)[:4])
            same = (np.allclose(x, expected[0]) and y_k == expected[1] and np.allclose(w_k, expected[2])
                    and np.isclose(b_k, expected[3]) and np.isclose(float(list(got)[4]), eta))
            assert same, (f"update number {k + 1} is not the one the perceptron makes: visit the points in "
                          "order, and keep the (w, b) that update returns")
        assert len(seen) == len(updates), f"{len(seen)} updates instead of {len(updates)}"
        assert mistakes == len(updates), "mistakes should count the updates"
        assert np.allclose(w, w_ref) and np.isclose(b, b_ref), "the (w, b) returned is not the last update's"

    return [call("train_perceptron", X, y, eta=eta, forbid=OWN, patch=patch, trace=("update",))], verdict


# ------------------------------------------------------------------------- q4: stopping on XOR


@check("q4")
def test_xor_training_stops(rng):
    def verdict(out):
        xor_mistakes, xor_errors = out
        assert xor_mistakes is not None and 25 <= xor_mistakes <= 25 * 40, (
            "on XOR every pass makes at least one mistake and at most 40: 25 passes make 25 to 1000"
        )
        assert xor_errors is not None and 1 <= xor_errors <= 40, "no line classifies XOR without error"

    return [value("xor_mistakes"), value("xor_errors")], verdict


@check("q4", hidden=True)
def test_training_stops_after_max_epochs(rng):
    X, y = make_overlapping(30, separation=0.5, seed=int(rng.integers(2**31)))
    epochs = (1, 4, 9)

    def verdict(out):
        counts = []
        for n, got in zip(epochs, out):
            _, _, mistakes = got
            assert n <= mistakes <= n * len(y), f"{mistakes} mistakes in {n} passes over {len(y)} points"
            counts.append(mistakes)
        assert counts[0] < counts[1] < counts[2], "more passes should make more mistakes on these data"

    return [call("train_perceptron", X, y, max_epochs=n, forbid=OWN) for n in epochs], verdict


@check("q4", hidden=True)
def test_xor_errors_counts_the_returned_hyperplane(rng):
    X, y = make_xor(40, seed=0)  # the notebook's data

    def verdict(out):
        xor_w, xor_b, xor_errors = out
        expected = int(np.count_nonzero(perceptron.functional_margins(X, y, np.asarray(xor_w, dtype=float),
                                                                      float(xor_b)) <= 0))
        assert xor_errors == expected, f"(xor_w, xor_b) gets {expected} points wrong, not {xor_errors}"

    return [value("xor_w"), value("xor_b"), value("xor_errors")], verdict


# ------------------------------------------------------------------ q5: the learning-rate experiment


@check("q5")
def test_experiment_has_every_learning_rate(rng):
    def verdict(out):
        mistakes_by_eta, same_mistakes = out
        assert isinstance(mistakes_by_eta, dict) and sorted(mistakes_by_eta) == list(ETAS), (
            "mistakes_by_eta needs one entry per learning rate in etas"
        )
        assert all(int(m) == m and m > 0 for m in mistakes_by_eta.values()), "mistake counts are positive integers"
        assert isinstance(same_mistakes, (bool, np.bool_)), "same_mistakes should be True or False"

    return [value("mistakes_by_eta"), value("same_mistakes")], verdict


@check("q5", hidden=True)
def test_experiment_counts_match_reference(rng):
    X, y = make_separable(60, margin=0.05, seed=7)  # the notebook's data

    def verdict(out):
        mistakes_by_eta = out[0]
        assert isinstance(mistakes_by_eta, dict), "mistakes_by_eta should be a dictionary"
        for eta in ETAS:
            assert mistakes_by_eta.get(eta) == perceptron.train(X, y, eta=eta).mistakes, f"wrong count for eta = {eta}"

    return [value("mistakes_by_eta")], verdict


@check("q5", hidden=True)
def test_experiment_conclusion(rng):
    def verdict(out):
        assert out[0] is True or type(out[0]) is np.bool_ and bool(out[0]), "look again at the four counts"

    return [value("same_mistakes")], verdict
