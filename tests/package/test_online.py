"""online: the hinge mistake bound holds on any data, the adversary beats every learner, and the
online-to-batch conversion bounds held-out error."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import (
    adversary_sequence,
    averaged,
    datasets,
    hinge_loss,
    hinge_mistake_bound,
    max_margin,
    mistake_bound,
    online_pass,
    online_to_batch_bound,
    perceptron_learner,
    tightest_hinge_bound,
    train,
)


@st.composite
def any_data_and_reference(draw):
    """Overlapping (usually non-separable) data, a random direction u and a random margin gamma."""
    seed = draw(st.integers(0, 2**32 - 1))
    n, d = draw(st.integers(2, 40)), draw(st.integers(1, 4))
    rng = np.random.default_rng(seed)
    X, y = datasets.make_overlapping(n, d, separation=draw(st.floats(0.0, 4.0)), seed=rng)
    X = X * draw(st.sampled_from([0.01, 1.0, 50.0]))
    bias = draw(st.sampled_from(["one", "none", "radius"]))
    p = d if bias == "none" else d + 1
    u = rng.normal(size=p)
    gamma = draw(st.floats(1e-3, 10.0)) * np.abs(X).max()
    return X, y, u, gamma, bias


@settings(max_examples=150, deadline=None)
@given(any_data_and_reference(), st.integers(1, 6), st.booleans(), st.sampled_from([0.25, 1.0, 3.0]))
def test_perceptron_mistakes_never_exceed_the_hinge_bound_for_any_u_and_gamma(case, passes, shuffle, eta):
    X, y, u, gamma, bias = case
    run = train(X, y, bias=bias, eta=eta, max_epochs=passes, shuffle=shuffle, seed=0)
    assert run.mistakes <= hinge_mistake_bound(X, y, u, gamma, bias=bias, passes=passes) * (1 + 1e-9)


@settings(max_examples=40, deadline=None)
@given(any_data_and_reference())
def test_the_tightest_search_finds_a_valid_bound_no_worse_than_a_random_one(case):
    X, y, u, gamma, bias = case
    best = tightest_hinge_bound(X, y, bias=bias, n_directions=200)
    assert np.isclose(np.linalg.norm(best.u), 1.0)
    assert best.bound == pytest.approx(hinge_mistake_bound(X, y, best.u, best.gamma, bias=bias))
    assert best.bound <= hinge_mistake_bound(X, y, u, gamma, bias=bias) * (1 + 1e-9) or gamma > best.radius
    assert train(X, y, bias=bias, max_epochs=1).mistakes <= best.bound * (1 + 1e-9)


@pytest.mark.parametrize("bias", ["none", "one"])
def test_without_slack_the_bound_is_the_convergence_theorem(bias):
    X, y = datasets.make_separable(40, 3, margin=0.1, bias=bias, seed=4)
    Xt = X if bias == "none" else np.column_stack([X, np.ones(len(X))])
    best = max_margin(Xt, y, bias="none")
    assert hinge_mistake_bound(X, y, best.w, best.gamma, bias=bias) == pytest.approx(mistake_bound(X, y, bias=bias))


def test_the_bound_hand_computed():
    X, y = [[3.0, 4.0], [0.0, -1.0]], [1, -1]
    # u = e_2: margins 4 and 1; at gamma = 2 the slacks are 0 and 1; R = 5.
    assert hinge_mistake_bound(X, y, [0.0, 2.0], 2.0, bias="none") == pytest.approx(9.0)
    assert hinge_mistake_bound(X, y, [0.0, 1.0], 2.0, bias="none", passes=4) == pytest.approx(((5 + 2) / 2) ** 2)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"u": [1.0, 0.0, 0.0]}, "u has 3 entries"), ({"u": [0.0, 0.0]}, "u must be nonzero"),
     ({"gamma": 0.0}, "gamma must be > 0"), ({"gamma": np.nan}, "gamma must be finite"),
     ({"passes": 0}, "passes must be >= 1"), ({"bias": "yes"}, "unknown bias")],
)
def test_hinge_bound_refuses_bad_input(kwargs, message):
    args = {"u": [1.0, 0.0], "gamma": 1.0, "bias": "none"} | kwargs
    with pytest.raises(ValueError, match=message):
        hinge_mistake_bound([[1.0, 0.0], [-1.0, 0.0]], [1, -1], **args)


def perceptron_with_bias(X_seen, y_seen, x):
    w, b = np.zeros(len(x)), 0.0
    for x_t, y_t in zip(X_seen, y_seen):
        if y_t * (w @ x_t + b) <= 0:
            w, b = w + y_t * x_t, b + y_t
    return 1 if w @ x + b >= 0 else -1


def nearest_neighbour(X_seen, y_seen, x):
    if len(y_seen) == 0:
        return -1
    return int(y_seen[np.argmin(np.linalg.norm(X_seen - x, axis=1))])


@pytest.mark.parametrize("learner", [perceptron_learner, perceptron_with_bias, nearest_neighbour,
                                     lambda X, y, x: 1, lambda X, y, x: -1 if len(y) % 3 else 1])
@pytest.mark.parametrize(("k", "radius", "dim"), [(1, 1.0, None), (7, 2.5, None), (25, 0.1, 40)])
def test_the_adversary_makes_every_learner_err_on_every_round_of_separable_data(learner, k, radius, dim):
    run = adversary_sequence(learner, k, radius=radius, dim=dim)
    assert run.mistakes == k and np.all(run.predictions != run.y)
    assert np.allclose(np.linalg.norm(run.X, axis=1), radius)
    assert np.isclose(np.linalg.norm(run.u), 1.0)
    assert np.all(run.y * (run.X @ run.u) >= radius / np.sqrt(k) * (1 - 1e-12))
    assert run.margin == pytest.approx(radius / np.sqrt(k))


@pytest.mark.parametrize("gamma", [0.3, 0.1, 0.07])
def test_the_perceptron_meets_its_bound_on_the_adversary_sequence(gamma):
    k = int(np.floor((1.0 / gamma) ** 2 + 1e-9))
    run = adversary_sequence(perceptron_learner, k)
    assert run.margin >= gamma * (1 - 1e-12)
    assert run.mistakes == k <= (1.0 / gamma) ** 2 + 1e-9 < k + 1
    # Every update is orthogonal to the points still to come: the perceptron always scores 0 and says +1.
    assert run.predictions.tolist() == [1.0] * k


@pytest.mark.parametrize(
    ("learner", "kwargs", "message"),
    [("not callable", {}, "must be a callable"), (lambda X, y, x: 0, {}, "must predict -1 or \\+1"),
     (lambda X, y, x: True, {}, "must predict -1 or \\+1"), (perceptron_learner, {"rounds": 0}, "rounds must be >= 1"),
     (perceptron_learner, {"dim": 2}, "dim must be >= 3"), (perceptron_learner, {"radius": -1.0}, "radius")],
)
def test_adversary_refuses_bad_input(learner, kwargs, message):
    with pytest.raises(ValueError, match=message):
        adversary_sequence(learner, **({"rounds": 3} | kwargs))


@pytest.mark.parametrize("bias", ["one", "none", "radius"])
def test_online_pass_makes_the_mistakes_of_one_pass_of_train(bias):
    X, y = datasets.make_overlapping(60, 3, separation=1.0, seed=1)
    passed, run = online_pass(X, y, bias=bias), train(X, y, bias=bias, max_epochs=1, record=True)
    assert passed.mistakes == run.mistakes
    assert np.flatnonzero(passed.mistaken).tolist() == [u.index for u in run.history]
    assert np.allclose(passed.w[0], 0) and passed.b[0] == 0
    assert np.allclose(passed.w[-1] + passed.mistaken[-1] * y[-1] * X[-1], run.w)


def test_online_pass_error_rates_and_vote():
    X, y = [[1.0, 0.0], [-1.0, 0.0], [2.0, 0.0]], [1, -1, 1]
    passed = online_pass(X, y, bias="none")
    # w = 0 predicts +1 everywhere (one error in three); w = (1, 0) and (2, 0) get all right.
    assert passed.error_rates(X, y).tolist() == pytest.approx([1 / 3, 0.0, 0.0])
    assert passed.vote(X).tolist() == [1, -1, 1]
    with pytest.raises(ValueError, match="X has 3 features"):
        passed.vote([[1.0, 0.0, 0.0]])


def test_online_pass_error_rates_is_the_plain_formula_bit_for_bit():
    # error_rates skips the array of signs; the numbers must be those of the plain formula.
    rng = np.random.default_rng(4)
    y = rng.choice([-1, 1], size=150)
    X = rng.normal(size=(150, 2)) + np.outer(y, [1.0, 0.0])
    X_held, y_held = rng.normal(size=(500, 2)), rng.choice([-1.0, 1.0], size=500)
    passed = online_pass(X, y)
    W = passed.w
    scores = X_held @ W.T + passed.b
    plain = np.mean(np.where(scores >= 0, 1, -1) != y_held[:, None], axis=0)
    assert np.array_equal(passed.error_rates(X_held, y_held), plain)
    assert np.array_equal(passed.average().w, W.mean(axis=0))
    assert np.array_equal(passed.online_hinge_losses(X, y),
                          np.maximum(0.0, 1.0 - y * (np.einsum("ij,ij->i", X, W) + passed.b)))
    # labels other than -1/+1 are always wrong (sgn is -1 or +1)
    assert passed.error_rates(X_held, 0.5 * y_held).tolist() == [1.0] * 150


def test_online_to_batch_bound_holds_for_the_mean_held_out_error():
    # i.i.d. draws: coin-flip labels, Gaussian classes; over 20 samples the bound (delta = 0.05) holds
    # on every one of them here, and on average the mean error is close to M / n.
    failures, gaps = 0, []
    for seed in range(20):
        rng = np.random.default_rng(seed)
        y = rng.choice([-1, 1], size=2300)
        X = rng.normal(size=(2300, 2)) + np.outer(y, [1.0, 0.0])
        passed = online_pass(X[:300], y[:300])
        mean_error = passed.error_rates(X[300:], y[300:]).mean()
        failures += mean_error > online_to_batch_bound(passed.mistakes, 300)
        gaps.append(mean_error - passed.mistakes / 300)
        assert np.mean(passed.vote(X[300:]) != y[300:]) <= 2 * online_to_batch_bound(passed.mistakes, 300)
    assert failures == 0 and abs(np.mean(gaps)) < 0.03


@pytest.mark.parametrize(
    ("args", "message"),
    [((5, 3), "mistakes must be at most n = 3"), ((-1, 3), "mistakes must be >= 0"), ((1, 0), "n must be >= 1"),
     ((1, 3, 0.0), "delta must be in"), ((1, 3, 1.0), "delta must be in"), ((1.5, 3), "mistakes must be an integer")],
)
def test_online_to_batch_bound_refuses_bad_input(args, message):
    with pytest.raises(ValueError, match=message):
        online_to_batch_bound(*args)


def test_online_to_batch_bound_shrinks_with_n_and_grows_with_confidence():
    assert online_to_batch_bound(10, 1000) < online_to_batch_bound(10, 500)
    assert online_to_batch_bound(10, 1000, delta=0.01) > online_to_batch_bound(10, 1000, delta=0.1)
    assert online_to_batch_bound(0, 1000) == pytest.approx(np.sqrt(2 * np.log(20) / 1000))


def test_the_average_hypothesis_is_the_one_pass_averaged_perceptron_but_for_its_ends():
    X, y = datasets.make_overlapping(50, separation=1.0, seed=3)
    run = online_pass(X, y)
    avg = run.average()
    assert np.allclose(avg.w, run.w.mean(axis=0)) and np.isclose(avg.b, run.b.mean())
    final = train(X, y, max_epochs=1)  # the weights after the last example
    one_pass = averaged(X, y, max_epochs=1)
    assert np.allclose(one_pass.w, avg.w + (final.w - run.w[0]) / len(y))
    assert np.isclose(one_pass.b, avg.b + (final.b - run.b[0]) / len(y))


def test_online_hinge_losses_are_the_hinge_of_each_example_under_the_weights_it_met():
    X, y = datasets.make_overlapping(40, separation=1.0, seed=5)
    run = online_pass(X, y)
    losses = run.online_hinge_losses(X, y)
    by_hand = [max(0.0, 1.0 - y[t] * (run.w[t] @ X[t] + run.b[t])) for t in range(len(y))]
    assert np.allclose(losses, by_hand)
    assert np.all(losses[run.mistaken] >= 1.0)  # a mistake has margin <= 0


def test_the_hinge_loss_of_the_average_is_at_most_the_mean_hinge_loss_on_any_points():
    # Jensen's inequality for the convex hinge: it holds point by point, whatever the data.
    X, y = datasets.make_overlapping(60, separation=0.5, seed=1)
    run = online_pass(X, y)
    avg = run.average()
    Xt, yt = datasets.make_overlapping(500, separation=0.5, seed=2)
    of_average = hinge_loss(yt * (Xt @ avg.w + avg.b))
    mean_of_each = hinge_loss(yt[:, None] * (Xt @ run.w.T + run.b)).mean(axis=1)
    assert np.all(of_average <= mean_of_each + 1e-12)
    assert np.any(of_average < mean_of_each - 1e-6)


def test_online_hinge_losses_refuse_examples_that_are_not_the_pass():
    X, y = datasets.make_overlapping(10, separation=1.0, seed=0)
    run = online_pass(X, y)
    with pytest.raises(ValueError, match="the pass's 10 examples"):
        run.online_hinge_losses(X[:9], y[:9])
    with pytest.raises(ValueError, match="the pass's 10 examples"):
        run.online_hinge_losses(X, y[:9])


def test_perceptron_learner_replays_the_plain_loop():
    # The plain replay: a new w after every update, scores by the @ operator.
    def replay(X_seen, y_seen, x):
        w = np.zeros(len(x))
        for x_t, y_t in zip(X_seen, y_seen):
            if y_t * (w @ x_t) <= 0:
                w = w + y_t * x_t
        return 1 if w @ x >= 0 else -1

    rng = np.random.default_rng(8)
    X, y = rng.normal(size=(60, 7)), rng.choice([-1.0, 1.0], size=60)
    assert [perceptron_learner(X[:t], y[:t], X[t]) for t in range(60)] == [
        replay(X[:t], y[:t], X[t]) for t in range(60)]


def test_perceptron_learner_resumes_only_from_an_exact_prefix():
    online = importlib.import_module("perceptron.online")
    # perceptron_learner resumes its replay from the last call's weights when this call's examples
    # begin with that call's: calls in any order, on two sequences that share a prefix and then part,
    # or with the seen examples changed in place, answer as the replay from zero.
    rng = np.random.default_rng(3)
    X, y = rng.normal(size=(40, 5)), rng.choice([-1.0, 1.0], size=40)
    X2, y2 = X.copy(), y.copy()
    X2[20:] = rng.normal(size=(20, 5))
    y2[15] = -y2[15]  # the labels part before the points do
    calls = [(X, y, t) for t in range(40)] + [(X2, y2, t) for t in range(40)]
    calls = [calls[k] for k in rng.permutation(len(calls))] + calls + calls[::-1]
    fresh = []
    for Xa, ya, t in calls:
        online._REPLAYED.clear()
        fresh.append(perceptron_learner(Xa[:t], ya[:t], Xa[t]))
    assert [perceptron_learner(Xa[:t], ya[:t], Xa[t]) for Xa, ya, t in calls] == fresh
    seen = X[:31].copy()
    perceptron_learner(seen[:30], y[:30], X[30])
    seen[:] = -seen  # changed in place after the call: the replay must not resume from before
    online._REPLAYED.clear()
    expected = [perceptron_learner(seen[:t], y[:t], X[39]) for t in (31, 30)]
    perceptron_learner(-seen[:30], y[:30], X[30])
    assert [perceptron_learner(seen[:t], y[:t], X[39]) for t in (31, 30)] == expected
