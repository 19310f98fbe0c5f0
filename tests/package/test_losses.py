"""losses: margin losses, their subgradients, the perceptron criterion and SGD on them."""

from __future__ import annotations

import doctest
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import SGDClassifier

from perceptron import datasets, losses, train, train_sgd
from perceptron._validation import LOSS_NAMES
from perceptron.losses import (
    _SCALAR_SLOPES,
    hinge_loss,
    logistic_loss,
    loss_slope,
    loss_subgradient,
    perceptron_criterion,
    perceptron_loss,
    total_loss,
)
from tests.package.strategies import separable_data

BIAS_MODES = ["one", "radius", "none"]
LOSS_VALUES = {"perceptron": perceptron_loss, "hinge": hinge_loss, "logistic": logistic_loss}
margins = st.floats(-50.0, 50.0, allow_nan=False)


def overlapping(seed: int, n: int = 30, d: int = 3):
    return datasets.make_overlapping(n, d, separation=0.5, seed=seed)


def same_run(sgd_result, train_result) -> bool:
    """Bit-for-bit equality of an SGD run and a perceptron run, history included."""
    a, b = sgd_result, train_result
    if not (np.array_equal(a.w, b.w) and a.b == b.b and a.updates == b.mistakes and a.epochs == b.epochs
            and a.converged == b.converged and len(a.history) == len(b.history)):
        return False
    return all(u.epoch == v.epoch and u.index == v.index and np.array_equal(u.w, v.w) and u.b == v.b
               for u, v in zip(a.history, b.history))


# --- the losses ---------------------------------------------------------------------------------


def test_losses_take_their_textbook_values():
    m = np.array([-2.0, 0.0, 0.5, 1.0, 3.0])
    assert perceptron_loss(m).tolist() == [2.0, 0.0, 0.0, 0.0, 0.0]
    assert hinge_loss(m).tolist() == [3.0, 1.0, 0.5, 0.0, 0.0]
    assert np.allclose(logistic_loss(m), np.log1p(np.exp(-m)), rtol=1e-14)


def test_perceptron_loss_of_a_zero_margin_is_positive_zero():
    assert np.signbit(perceptron_loss([0.0])).tolist() == [False]


def test_logistic_loss_neither_overflows_nor_goes_negative_at_extreme_margins():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an overflow in exp would warn
        values = logistic_loss([-1e6, -800.0, 800.0, 1e6])
    assert values[0] == 1e6 and values[1] == 800.0
    assert np.all(values >= 0) and np.all(np.isfinite(values))
    assert loss_slope([-1e6], "logistic").tolist() == [-1.0]


@settings(max_examples=200, deadline=None)
@given(m=margins, u=margins, name=st.sampled_from(LOSS_NAMES))
def test_slope_is_a_subderivative_of_each_convex_loss(m, u, name):
    value = LOSS_VALUES[name]
    g = float(loss_slope([m], name)[0])
    lhs, rhs = float(value([u])[0]), float(value([m])[0]) + g * (u - m)
    assert lhs >= rhs - 1e-12 * (1 + abs(rhs))


def test_slope_at_the_kinks_is_minus_one():
    assert loss_slope([0.0], "perceptron").tolist() == [-1.0]
    assert loss_slope([1.0], "hinge").tolist() == [-1.0]
    assert loss_slope([np.nextafter(0.0, 1.0)], "perceptron").tolist() == [0.0]
    assert loss_slope([np.nextafter(1.0, 2.0)], "hinge").tolist() == [0.0]


@pytest.mark.parametrize("name", LOSS_NAMES)
def test_slope_is_the_derivative_away_from_the_kinks(name):
    m = np.array([-3.1, -0.7, 0.4, 1.6, 4.2])
    h = 1e-6
    numeric = (LOSS_VALUES[name](m + h) - LOSS_VALUES[name](m - h)) / (2 * h)
    assert np.allclose(loss_slope(m, name), numeric, atol=1e-8)


@pytest.mark.parametrize("name", LOSS_NAMES)
def test_scalar_slopes_used_by_sgd_agree_with_loss_slope(name):
    m = np.array([-1e6, -800.0, -3.0, -1e-300, 0.0, 1e-300, 0.5, 1.0, 1.0 + 1e-15, 2.0, 800.0, 1e6])
    scalar = [_SCALAR_SLOPES[name](float(v)) for v in m]
    assert np.allclose(scalar, loss_slope(m, name), rtol=1e-15, atol=0)


# --- on a dataset -------------------------------------------------------------------------------


def test_perceptron_criterion_is_minus_the_sum_of_margins_over_mistakes():
    X, y = overlapping(3)
    w, b = np.array([0.4, -1.0, 2.0]), 0.3
    m = y * (X @ w + b)
    assert np.isclose(perceptron_criterion(X, y, w, b), -np.sum(m[m <= 0]), rtol=1e-14)


def test_perceptron_criterion_is_zero_at_the_origin_and_for_every_separator():
    X, y = datasets.make_separable(30, margin=0.1, seed=2)
    result = train(X, y)
    assert perceptron_criterion(X, y, np.zeros(2), 0.0) == 0.0
    assert perceptron_criterion(X, y, result.w, result.b) == 0.0
    assert perceptron_criterion(X, y, -result.w, -result.b) > 0.0


@pytest.mark.parametrize("name", LOSS_NAMES)
def test_total_loss_sums_the_per_example_losses(name):
    X, y = overlapping(4)
    w, b = np.array([1.0, -0.5, 0.25]), -0.2
    assert np.isclose(total_loss(X, y, w, b, loss=name), LOSS_VALUES[name](y * (X @ w + b)).sum(), rtol=1e-14)


@pytest.mark.parametrize("name", LOSS_NAMES)
def test_subgradient_is_the_chain_rule_sum_of_per_example_subgradients(name):
    X, y = overlapping(5)
    w, b = np.array([0.3, 0.2, -0.1]), 0.05
    g_w, g_b = loss_subgradient(X, y, w, b, loss=name)
    parts = [loss_subgradient(X[i : i + 1], y[i : i + 1], w, b, loss=name) for i in range(len(y))]
    assert np.allclose(g_w, sum(p[0] for p in parts), rtol=1e-12)
    assert np.isclose(g_b, sum(p[1] for p in parts), rtol=1e-12)
    slope = loss_slope(y * (X @ w + b), name)
    assert np.allclose(g_w, (slope * y) @ X, rtol=1e-14) and np.isclose(g_b, np.sum(slope * y), rtol=1e-14)


def test_perceptron_subgradient_at_a_tie_is_minus_y_x():
    g_w, g_b = loss_subgradient([[3.0, -1.0]], [-1], [1.0, 3.0], 0.0)  # score exactly 0
    assert g_w.tolist() == [3.0, -1.0] and g_b == 1.0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), name=st.sampled_from(LOSS_NAMES))
def test_subgradient_inequality_holds_for_the_total_loss(seed, name):
    rng = np.random.default_rng(seed)
    X, y = overlapping(seed)
    v = rng.normal(size=4)
    g_w, g_b = loss_subgradient(X, y, v[:3], v[3], loss=name)
    f_v = total_loss(X, y, v[:3], v[3], loss=name)
    for u in rng.normal(size=(20, 4)) * 3:
        f_u = total_loss(X, y, u[:3], u[3], loss=name)
        assert f_u >= f_v + g_w @ (u[:3] - v[:3]) + g_b * (u[3] - v[3]) - 1e-9 * (1 + abs(f_u))


# --- SGD ----------------------------------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(
    case=st.one_of(separable_data(max_samples=25), st.integers(0, 10_000).map(overlapping)),
    eta=st.sampled_from([1.0, 0.3, 17.0]),
    mode=st.sampled_from(BIAS_MODES),
    shuffle=st.booleans(),
    seed=st.integers(0, 100),
)
def test_sgd_on_the_perceptron_loss_is_the_perceptron_bit_for_bit(case, eta, mode, shuffle, seed):
    X, y = case
    kwargs = {"eta": eta, "bias": mode, "shuffle": shuffle, "seed": seed, "max_epochs": 40, "record": True}
    assert same_run(train_sgd(X, y, loss="perceptron", **kwargs), train(X, y, **kwargs))


def test_sgd_on_the_perceptron_loss_matches_train_from_a_nonzero_start():
    X, y = overlapping(8)
    kwargs = {"eta": 0.5, "w0": [1.0, -2.0, 0.5], "b0": 0.7, "max_epochs": 15, "record": True}
    assert same_run(train_sgd(X, y, loss="perceptron", **kwargs), train(X, y, **kwargs))


def test_sgd_on_the_perceptron_loss_counts_a_zero_score_as_a_mistake_like_train():
    # Integer points make exact zero scores frequent: the subgradient choice at the kink decides the run.
    rng = np.random.default_rng(3)
    for _ in range(20):
        X = rng.integers(-2, 3, size=(8, 2)).astype(float)
        y = np.where(np.arange(8) % 2 == 0, 1, -1)
        kwargs = {"max_epochs": 30, "record": True}
        ref = train(X, y, **kwargs)
        assert ref.history[0].index == 0  # the zero start scores point 0 exactly 0: a mistake
        assert same_run(train_sgd(X, y, loss="perceptron", **kwargs), ref)


@pytest.mark.parametrize("power", [-6, -1, 3, 9])
def test_zero_start_makes_the_step_size_irrelevant_for_the_perceptron_loss(power):
    X, y = datasets.make_separable(40, margin=0.05, seed=9)
    eta = 2.0**power  # exact scaling: the runs must agree bit for bit
    ref = train_sgd(X, y, loss="perceptron", record=True)
    run = train_sgd(X, y, loss="perceptron", eta=eta, record=True)
    assert [u.index for u in run.history] == [u.index for u in ref.history]
    assert np.array_equal(run.w, eta * ref.w) and run.b == eta * ref.b


def test_step_size_changes_the_hinge_path_from_a_zero_start():
    X, y = datasets.make_separable(40, margin=0.15, seed=3)
    runs = {eta: train_sgd(X, y, loss="hinge", eta=eta, max_epochs=2000, record=True)
            for eta in (0.125, 1.0, 8.0)}
    assert all(r.converged for r in runs.values())
    assert len({r.updates for r in runs.values()}) == 3
    # Not a rescaling either: the directions of the final normals differ.
    unit = [np.append(r.w, r.b) / np.linalg.norm(np.append(r.w, r.b)) for r in runs.values()]
    assert not np.allclose(unit[0], unit[1]) and not np.allclose(unit[1], unit[2])


@pytest.mark.parametrize("eta", [0.05, 1.0])
def test_converged_hinge_run_leaves_every_margin_above_one(eta):
    X, y = datasets.make_separable(30, margin=0.2, seed=4)
    result = train_sgd(X, y, loss="hinge", eta=eta, max_epochs=5000)
    assert result.converged
    assert np.all(y * (X @ result.w + result.b) > 1.0)
    assert result.losses[-1] == 0.0


@pytest.mark.parametrize(
    ("ours", "theirs"), [("hinge", "hinge"), ("perceptron", "perceptron"), ("logistic", "log_loss")]
)
@pytest.mark.parametrize("eta", [0.1, 1.0])
def test_sgd_agrees_with_scikit_learn_sgdclassifier(ours, theirs, eta):
    X, y = overlapping(11, n=40, d=2)
    epochs = 6
    clf = SGDClassifier(loss=theirs, penalty=None, alpha=0.0, learning_rate="constant", eta0=eta,
                        shuffle=False, max_iter=epochs, tol=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ConvergenceWarning: we ask for a fixed number of passes
        clf.fit(X, y)
    result = train_sgd(X, y, loss=ours, eta=eta, max_epochs=epochs)
    assert result.epochs == epochs and not result.converged
    assert np.allclose(result.w, clf.coef_[0], rtol=1e-12, atol=1e-12)
    assert np.isclose(result.b, clf.intercept_[0], rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("name", LOSS_NAMES)
def test_losses_record_the_total_loss_after_each_pass(name):
    X, y = overlapping(6)
    full = train_sgd(X, y, loss=name, eta=0.3, max_epochs=5)
    for k in range(1, 6):
        part = train_sgd(X, y, loss=name, eta=0.3, max_epochs=k)
        assert full.losses[k - 1] == total_loss(X, y, part.w, part.b, loss=name)
    assert len(full.losses) == full.epochs == 5


def test_history_keeps_exactly_the_steps_that_moved_the_weights():
    X, y = datasets.make_separable(30, margin=0.2, seed=4)
    result = train_sgd(X, y, loss="hinge", eta=0.5, record=True)
    assert len(result.history) == result.updates > 0
    assert np.array_equal(result.history[-1].w, result.w) and result.history[-1].b == result.b
    assert train_sgd(X, y, loss="hinge", eta=0.5).history == ()


def test_logistic_sgd_never_stops_early_on_ordinary_data():
    X, y = datasets.make_separable(20, margin=0.2, seed=1)
    result = train_sgd(X, y, loss="logistic", max_epochs=12)
    assert result.epochs == 12 and not result.converged
    assert result.updates == 12 * 20


def test_bias_none_keeps_the_start_bias():
    X, y = datasets.make_separable(20, margin=0.2, bias="none", seed=5)
    assert train_sgd(X, y, loss="hinge", bias="none", b0=0.25).b == 0.25


# --- bad input ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"loss": "squared"}, "unknown loss"),
        ({"eta": 0.0}, "eta must be > 0"),
        ({"bias": "two"}, "unknown bias"),
        ({"max_epochs": 0}, "max_epochs must be >= 1"),
        ({"w0": [1.0]}, "w0 has 1 entries"),
        ({"b0": float("nan")}, "b0 must be finite"),
    ],
)
def test_train_sgd_rejects_bad_arguments(kwargs, message):
    X, y = datasets.make_separable(10, seed=0)
    with pytest.raises(ValueError, match=message):
        train_sgd(X, y, **kwargs)


def test_train_sgd_rejects_labels_other_than_plus_minus_one():
    with pytest.raises(ValueError, match="only the labels -1 and \\+1"):
        train_sgd([[1.0], [2.0]], [0, 1])


def test_train_sgd_reports_divergence_instead_of_returning_inf():
    X, y = [[1e308, 0.0], [-1e308, 1.0]], [1, -1]
    with pytest.raises(ValueError, match="diverged"):
        train_sgd(X, y, loss="hinge", eta=10.0)


@pytest.mark.parametrize("bad", [[np.nan], [np.inf], ["a"]])
def test_loss_functions_reject_non_finite_margins(bad):
    for name, value in LOSS_VALUES.items():
        with pytest.raises(ValueError, match="margins"):
            value(bad)
        with pytest.raises(ValueError, match="margins"):
            loss_slope(bad, name)


def test_dataset_losses_reject_bad_labels_and_shapes():
    with pytest.raises(ValueError, match="only the labels"):
        perceptron_criterion([[1.0, 0.0]], [2], [1.0, 0.0])
    with pytest.raises(ValueError, match="shape"):
        total_loss([[1.0, 0.0]], [1, -1], [1.0, 0.0])
    with pytest.raises(ValueError, match="w has 3 entries"):
        loss_subgradient([[1.0, 0.0]], [1], [1.0, 0.0, 2.0])
    with pytest.raises(ValueError, match="unknown loss"):
        total_loss([[1.0, 0.0]], [1], [1.0, 0.0], loss="zero-one")


def test_docstring_examples_run():
    failures, tried = doctest.testmod(losses, optionflags=doctest.ELLIPSIS)
    assert tried > 10 and failures == 0
