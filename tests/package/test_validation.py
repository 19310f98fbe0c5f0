"""Bad input to every public function raises ValueError with a message naming the problem."""

from __future__ import annotations

import numpy as np
import pytest

import perceptron
from perceptron import (
    datasets,
    decision_function,
    functional_margins,
    geometric_margin,
    max_margin,
    mistake_bound,
    predict,
    prototype,
    radius,
    train,
)

GOOD_X = np.array([[1.0, 2.0], [-1.0, 0.5], [0.5, -1.0]])
GOOD_Y = np.array([1, -1, -1])
W = np.array([1.0, -1.0])

def labels_for(X):
    """Valid labels, one per row of X (so that only X can be at fault)."""
    return np.resize([1, -1], len(X) if hasattr(X, "__len__") else 1)


# Every public function that takes labelled data, called with (X, y) and valid other arguments.
WITH_LABELS = {
    "train": lambda X, y: train(X, y),
    "functional_margins": lambda X, y: functional_margins(X, y, W),
    "geometric_margin": lambda X, y: geometric_margin(X, y, W),
    "max_margin": lambda X, y: max_margin(X, y),
    "mistake_bound": lambda X, y: mistake_bound(X, y),
    "prototype": lambda X, y: prototype(X, y),
}
# Every public function that takes points; labelled ones get labels of the right length.
WITH_POINTS = {
    "predict": lambda X: predict(X, W),
    "decision_function": lambda X: decision_function(X, W),
    "radius": lambda X: radius(X),
    **{name: (lambda X, f=f: f(X, labels_for(X))) for name, f in WITH_LABELS.items()},
}
# Every public function with a weight vector and an offset, called with (w, b).
WITH_WEIGHTS = {
    "predict": lambda w, b: predict(GOOD_X, w, b),
    "decision_function": lambda w, b: decision_function(GOOD_X, w, b),
    "functional_margins": lambda w, b: functional_margins(GOOD_X, GOOD_Y, w, b),
    "geometric_margin": lambda w, b: geometric_margin(GOOD_X, GOOD_Y, w, b),
    "train": lambda w, b: train(GOOD_X, GOOD_Y, w0=w, b0=b),
}

BAD_X = {
    "nan": ([[1.0, np.nan], [0.0, 1.0]], r"X contains NaN or infinity \(1 non-finite"),
    "inf": ([[1.0, np.inf], [0.0, 1.0]], "X contains NaN or infinity"),
    "-inf": ([[-np.inf, -np.inf], [0.0, 1.0]], r"X contains NaN or infinity \(2 non-finite"),
    "1-D": ([1.0, 2.0], r"X must be 2-D .* got 1-D .*reshape"),
    "3-D": (np.ones((2, 2, 1)), "X must be 2-D .* got 3-D"),
    "scalar": (3.0, "X must be 2-D .* got 0-D"),
    "empty": (np.empty((0, 2)), "X is empty: it has 0 samples"),
    "no features": (np.empty((2, 0)), "X has 0 features"),
    "text": ([["a", "b"], ["c", "d"]], "X must be a numeric array"),
    "ragged": ([[1.0, 2.0], [3.0]], "X must be a numeric array"),
}

BAD_Y = {
    "nan": ([1.0, np.nan, -1.0], "y contains NaN or infinity"),
    "inf": ([1.0, -np.inf, -1.0], "y contains NaN or infinity"),
    "too short": ([1, -1], "X and y have different lengths: X has 3 samples, y has 2"),
    "too long": ([1, -1, 1, -1], "X and y have different lengths: X has 3 samples, y has 4"),
    "0/1 labels": ([1, 0, 0], r"only the labels -1 and \+1; found \{0, 1\}.*Map \{0, 1\} labels"),
    "booleans": ([True, False, False], r"found \{0, 1\}.*Map \{0, 1\}"),
    "1/2 labels": ([1, 2, 2], r"only the labels -1 and \+1; found \{1, 2\}"),
    "one bad label": ([1, -1, 0.5], r"found \{-1, 0.5, 1\}"),
    "only +1": ([1, 1, 1], r"only one class \(\+1\)"),
    "only -1": ([-1, -1, -1], r"only one class \(-1\)"),
    "2-D": ([[1], [-1], [-1]], r"y must be 1-D .* got shape \(3, 1\)"),
    "text": (["yes", "no", "no"], "y must hold the numbers -1 and \\+1"),
}


@pytest.mark.parametrize("case", BAD_X, ids=str)
@pytest.mark.parametrize("func", WITH_POINTS, ids=str)
def test_bad_points_are_refused_by_every_function(func, case):
    X, message = BAD_X[case]
    with pytest.raises(ValueError, match=message):
        WITH_POINTS[func](X)


@pytest.mark.parametrize("case", BAD_Y, ids=str)
@pytest.mark.parametrize("func", WITH_LABELS, ids=str)
def test_bad_labels_are_refused_by_every_function(func, case):
    y, message = BAD_Y[case]
    with pytest.raises(ValueError, match=message):
        WITH_LABELS[func](GOOD_X, y)


def test_many_unexpected_labels_are_listed_with_an_ellipsis():
    X = np.arange(24.0).reshape(12, 2)
    with pytest.raises(ValueError, match=r"found \{0, 1, 2, .*, 9, \.\.\.\}") as info:
        train(X, np.arange(12))
    assert "Map {0, 1}" not in str(info.value)  # the hint is only for 0/1 labels


@pytest.mark.parametrize(
    "w, message",
    [
        ([1.0], "w has 1 entries but X has 2 features"),
        ([1.0, 2.0, 3.0], "w has 3 entries but X has 2 features"),
        ([[1.0, 2.0]], r"w must be 1-D .* got shape \(1, 2\)"),
        ([np.nan, 1.0], "w contains NaN or infinity"),
        ([1.0, np.inf], "w contains NaN or infinity"),
        (["a", "b"], "w must be a numeric vector"),
    ],
)
@pytest.mark.parametrize("func", WITH_WEIGHTS, ids=str)
def test_bad_weights_are_refused(func, w, message):
    if func == "train":
        message = message.replace("w ", "w0 ", 1)
    with pytest.raises(ValueError, match=message):
        WITH_WEIGHTS[func](w, 0.0)


@pytest.mark.parametrize(
    "b, message",
    [(np.nan, "must be finite, got nan"), (np.inf, "must be finite"),
     ("zero", "must be a real number, got 'zero'"), (None, "must be a real")],
)
@pytest.mark.parametrize("func", WITH_WEIGHTS, ids=str)
def test_bad_offsets_are_refused(func, b, message):
    name = "b0" if func == "train" else "b"
    with pytest.raises(ValueError, match=f"{name} {message}"):
        WITH_WEIGHTS[func](W, b)


@pytest.mark.parametrize(
    "eta, message",
    [(0, "eta must be > 0, got 0"), (-0.5, "eta must be > 0, got -0.5"), (np.nan, "eta must be finite"),
     (np.inf, "eta must be finite"), ("fast", "eta must be a real number")],
)
def test_train_refuses_non_positive_or_non_finite_learning_rate(eta, message):
    with pytest.raises(ValueError, match=message):
        train(GOOD_X, GOOD_Y, eta=eta)


@pytest.mark.parametrize(
    "max_epochs, message",
    [(0, "max_epochs must be >= 1, got 0"), (-3, "max_epochs must be >= 1, got -3"),
     (2.5, "max_epochs must be an integer >= 1, got 2.5"), (10.0, "must be an integer"),
     (True, "must be an integer"), ("10", "must be an integer"), (None, "must be an integer")],
)
def test_train_refuses_max_epochs_below_one_or_not_an_integer(max_epochs, message):
    with pytest.raises(ValueError, match=message):
        train(GOOD_X, GOOD_Y, max_epochs=max_epochs)


def test_train_accepts_numpy_integer_max_epochs():
    assert train(GOOD_X, GOOD_Y, max_epochs=np.int64(1)).epochs == 1


@pytest.mark.parametrize("bias", ["ones", "One", "", None, True, ["one"]])
@pytest.mark.parametrize("func", [train, mistake_bound], ids=lambda f: f.__name__)
def test_unknown_bias_mode_is_refused(func, bias):
    with pytest.raises(ValueError, match=r"unknown bias .*; choose one of 'one', 'radius', 'none'"):
        func(GOOD_X, GOOD_Y, bias=bias)


@pytest.mark.parametrize("bias", ["ones", 1, None, "True"])
@pytest.mark.parametrize("func", [max_margin, lambda X, y, bias: datasets.make_separable(5, bias=bias)])
def test_max_margin_and_make_separable_take_the_bias_modes_of_train(func, bias):
    with pytest.raises(ValueError, match=r"unknown bias .*; choose one of 'one', 'radius', 'none'"):
        func(GOOD_X, GOOD_Y, bias=bias)


@pytest.mark.parametrize("flag", [True, False, np.True_, np.False_])
@pytest.mark.parametrize(
    "func",
    [train, mistake_bound, max_margin, lambda X, y, bias: datasets.make_separable(5, bias=bias)],
    ids=["train", "mistake_bound", "max_margin", "make_separable"],
)
def test_a_boolean_bias_is_refused_with_the_modes_named(func, flag):
    # bias is a mode, not a flag: False is not read as "none", nor True as "one".
    with pytest.raises(ValueError, match=r"unknown bias .*; choose one of 'one', 'radius', 'none'") as info:
        func(GOOD_X, GOOD_Y, bias=flag)
    assert "'none' for a hyperplane through the origin" in str(info.value)


def test_validation_does_not_modify_inputs():
    X, y, w = GOOD_X.copy(), GOOD_Y.copy(), W.copy()
    for f in WITH_LABELS.values():
        f(X, y)
    predict(X, w)
    assert np.array_equal(X, GOOD_X) and np.array_equal(y, GOOD_Y) and np.array_equal(w, W)


def test_integer_and_list_inputs_are_accepted():
    X = [[1, 2], [-1, 0], [0, -1]]
    y = [1, -1, -1]
    assert train(X, y).converged
    assert radius(X) == pytest.approx(np.sqrt(5.0))
    assert functional_margins(X, y, [1, 1], 0).tolist() == [3.0, 1.0, 1.0]


# --- each argument is checked once, at the public boundary --------------------------------------


@pytest.fixture
def checks(monkeypatch):
    """Record every call of a validator of perceptron._validation as ``(validator, argument name)``.

    The spies replace the validators in ``_validation`` (so that one validator calling another is
    seen too: ``check_Xy`` records ``("check_X", "X")`` and ``("check_labels", "y")``) and in every
    loaded module of the package that imported them by name. An argument checked twice in one
    call, directly or through a public function called inside another, shows up as a repeat.
    """
    import inspect
    import sys

    import perceptron._validation as validation
    import perceptron.estimator  # noqa: F401 - loaded, so that its imported validators are replaced too

    calls: list[tuple[str, str | None]] = []

    def spy(name, original):
        signature = inspect.signature(original)

        def checked(*args, **kwargs):
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            calls.append((name, bound.arguments.get("name")))
            return original(*args, **kwargs)

        return checked

    originals = {name: f for name, f in vars(validation).items() if name.startswith("check_") and callable(f)}
    modules = [m for name, m in list(sys.modules.items()) if name.partition(".")[0] == "perceptron"]
    for name, original in originals.items():
        replacement = spy(name, original)
        for module in modules:
            if getattr(module, name, None) is original:
                monkeypatch.setattr(module, name, replacement)
    return calls


def checked_once(calls):
    """The checks made, after asserting that none was made twice."""
    from collections import Counter

    counts = Counter(calls)
    assert {check: n for check, n in counts.items() if n > 1} == {}
    return set(counts)


SEPARABLE = datasets.make_separable(20, seed=2)


def test_train_checks_each_argument_exactly_once(checks):
    train(*SEPARABLE, w0=np.zeros(2))
    assert checked_once(checks) >= {
        ("check_X", "X"), ("check_labels", "y"), ("check_positive", "eta"), ("check_bias", None),
        ("check_epochs", "max_epochs"), ("check_rule", None), ("check_w", "w0"), ("check_scalar", "b0"),
    }


def test_the_estimator_checks_each_argument_exactly_once(checks, monkeypatch):
    # X and y are scikit-learn's to check (validate_data, once); the parameters are the package's.
    from perceptron import estimator

    seen = []
    validate_data = estimator.validate_data
    monkeypatch.setattr(estimator, "validate_data", lambda *a, **k: seen.append(1) or validate_data(*a, **k))
    estimator.Perceptron().fit(*SEPARABLE)
    assert len(seen) == 1
    made = checked_once(checks)
    assert made >= {("check_positive", "eta0"), ("check_bias", None), ("check_epochs", "max_iter")}
    assert not {check for check, _ in made} & {"check_Xy", "check_X", "check_labels"}, made


ONE_CALL = {
    "pocket": lambda X, y: perceptron.pocket(X, y),
    "averaged": lambda X, y: perceptron.averaged(X, y),
    "voted": lambda X, y: perceptron.voted(X, y),
    "kernel_train": lambda X, y: perceptron.kernel_train(X, y),
    "train_sgd": lambda X, y: perceptron.train_sgd(X, y, loss="hinge", max_epochs=5),
    "max_margin": lambda X, y: max_margin(X, y),
    "mistake_bound": lambda X, y: mistake_bound(X, y, bias="radius"),
    "find_cycle": lambda X, y: perceptron.find_cycle(X, y, max_epochs=20),
    "fewest_errors_line": lambda X, y: perceptron.fewest_errors_line(X, y),
    "geometric_margin": lambda X, y: geometric_margin(X, y, W),
    "count_errors": lambda X, y: perceptron.count_errors(X, y, W),
    "loss_subgradient": lambda X, y: perceptron.loss_subgradient(X, y, W, loss="hinge"),
    "perceptron_criterion": lambda X, y: perceptron.perceptron_criterion(X, y, W),
    "multiclass_train": lambda X, y: perceptron.multiclass_train(X, y),
    "kesler_train": lambda X, y: perceptron.kesler_train(X, y),
    "kesler_points": lambda X, y: perceptron.kesler_points(X, y),
    "multiclass_margin": lambda X, y: perceptron.multiclass_margin(X, y),
    "multiclass_mistake_bound": lambda X, y: perceptron.multiclass_mistake_bound(X, y),
    "network_loss": lambda X, y: perceptron.network_loss(perceptron.init_network(2, 3), X, y),
    "network_gradient": lambda X, y: perceptron.network_gradient(perceptron.init_network(2, 3), X, y),
    "network_gradient_check": lambda X, y: perceptron.network_gradient_check(perceptron.init_network(2, 3), X, y),
    "train_network": lambda X, y: perceptron.train_network(X, y, epochs=2),
    "hinge_mistake_bound": lambda X, y: perceptron.hinge_mistake_bound(X, y, [1.0, 0.0, 0.0], 0.5),
    "tightest_hinge_bound": lambda X, y: perceptron.tightest_hinge_bound(X, y, n_directions=20),
}


@pytest.mark.parametrize("func", ONE_CALL.values(), ids=ONE_CALL.keys())
def test_every_algorithm_checks_its_data_exactly_once(checks, func):
    func(*SEPARABLE)
    assert ("check_X", "X") in checked_once(checks)


def test_proof_quantities_checks_its_data_exactly_once(checks):
    X, y = SEPARABLE
    run = train(X, y, record=True)
    checks.clear()
    perceptron.proof_quantities(X, y, run)
    assert ("check_X", "X") in checked_once(checks)
