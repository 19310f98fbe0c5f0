"""The compiled training pass (fast_training) against the readable loop and scikit-learn, bit for bit.

``train`` runs small problems in ``reference_loop`` and hands large ones to ``fast_loop``; both must
make the same updates in the same order, so every comparison here is ``np.array_equal`` on the
weights and ``==`` on the bias, the mistake count, the epochs, ``converged`` and ``errors``.
Over 400 lines because each of the compiled pass's paths (bias modes, visiting orders, dtypes, the
scikit-learn comparison) is compared on its own: one file, so that a difference names its path.
"""

from __future__ import annotations

import doctest
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.linear_model import Perceptron

import perceptron
from perceptron import datasets, fast_training, training
from perceptron._core import bias_scale, sequential_dot, visiting_order
from perceptron._validation import check_X
from perceptron.fast_training import fast_loop
from perceptron.training import reference_loop

BIAS_MODES = ["one", "radius", "none"]
RULES = ["margin", "sign"]


def start(X, eta, bias, w0, b0):
    step_b = eta * bias_scale(X, bias) ** 2
    w = np.zeros(X.shape[1]) if w0 is None else np.array(w0, dtype=float)
    return step_b, w, float(b0)


def run_reference(X, y, *, eta=1.0, bias="one", w0=None, b0=0.0, max_epochs=50, shuffle=False, seed=None,
                  rule="margin"):
    step_b, w, b = start(X, eta, bias, w0, b0)
    order = visiting_order(X.shape[0], shuffle, seed)
    return reference_loop(X, y, eta, step_b, w, b, max_epochs, order, False, rule)


def run_fast(X, y, *, eta=1.0, bias="one", w0=None, b0=0.0, max_epochs=50, shuffle=False, seed=None,
             rule="margin"):
    step_b, w, b = start(X, eta, bias, w0, b0)
    order = visiting_order(X.shape[0], shuffle, seed)
    return fast_loop(X, y, eta, step_b, w, b, max_epochs, order, rule)


def run_sklearn(X, y, *, eta=1.0, bias="one", w0=None, b0=0.0, max_epochs=50):
    """scikit-learn's Perceptron, which always runs ``max_epochs`` passes (tol=None)."""
    assert bias in ("one", "none")
    clf = Perceptron(
        eta0=eta, penalty=None, shuffle=False, tol=None, max_iter=max_epochs, fit_intercept=bias == "one"
    )
    # sklearn trains in the coef_init array itself, so it gets a copy.
    coef_init = None if w0 is None else np.array(w0, dtype=float)
    clf.fit(X, y, coef_init=coef_init, intercept_init=None if b0 == 0.0 else [b0])
    return clf.coef_[0], float(clf.intercept_[0])


def assert_same_run(fast, ref):
    assert np.array_equal(fast.w, ref.w), (fast.w, ref.w)
    assert fast.b == ref.b
    assert (fast.mistakes, fast.epochs, fast.converged, fast.errors) == (
        ref.mistakes,
        ref.epochs,
        ref.converged,
        ref.errors,
    )


def separable(n, d, seed):
    X, y = datasets.make_separable(n, d, margin=0.05, seed=seed)
    return X, y.astype(float)


def noisy(n, d, seed, rate=0.05):
    X, y = separable(n, d, seed)
    flip = np.random.default_rng(seed + 1).random(n) < rate
    return X, np.where(flip, -y, y)


def gaussian(n, d, seed):
    """Unbounded coordinates of mixed scale, labels by a tilted plane plus 5% flips: many mistakes."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d)) * rng.choice([1e-3, 1.0, 1e3], size=d)
    y = np.where(X @ rng.standard_normal(d) + 0.3 >= 0, 1.0, -1.0)
    y[rng.random(n) < 0.05] *= -1
    return X, y


SHAPES = [(200, 1), (300, 2), (400, 20)]
CASES = [(kind, n, d, seed) for kind in (separable, noisy, gaussian) for n, d in SHAPES for seed in (0, 1)]


def case_id(case):
    kind, n, d, seed = case
    return f"{kind.__name__}-n{n}-d{d}-s{seed}"


# --- compiled loop == reference loop == scikit-learn ------------------------------------------


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("bias", BIAS_MODES)
@pytest.mark.parametrize("rule", RULES)
def test_compiled_loop_equals_reference_loop(case, bias, rule):
    kind, n, d, seed = case
    X, y = kind(n, d, seed)
    assert_same_run(run_fast(X, y, bias=bias, rule=rule), run_reference(X, y, bias=bias, rule=rule))


@pytest.mark.parametrize("case", CASES, ids=case_id)
@pytest.mark.parametrize("bias", ["one", "none"])
def test_compiled_loop_equals_sklearn(case, bias):
    kind, n, d, seed = case
    X, y = kind(n, d, seed)
    fast = run_fast(X, y, bias=bias, max_epochs=7)
    w, b = run_sklearn(X, y, bias=bias, max_epochs=7)
    assert np.array_equal(fast.w, w) and fast.b == b


@pytest.mark.parametrize("eta", [0.1, 0.37, 3.0])
@pytest.mark.parametrize("bias", BIAS_MODES)
def test_learning_rate_and_nonzero_start_take_the_same_path(eta, bias):
    X, y = gaussian(300, 20, seed=4)
    rng = np.random.default_rng(9)
    w0, b0 = rng.standard_normal(20), 0.75
    fast = run_fast(X, y, eta=eta, bias=bias, w0=w0, b0=b0, max_epochs=10)
    assert_same_run(fast, run_reference(X, y, eta=eta, bias=bias, w0=w0, b0=b0, max_epochs=10))
    if bias == "one":
        w, b = run_sklearn(X, y, eta=eta, w0=w0, b0=b0, max_epochs=10)
        assert np.array_equal(fast.w, w) and fast.b == b


@pytest.mark.parametrize("bias", BIAS_MODES)
@pytest.mark.parametrize("seed", [0, 7])
def test_shuffled_runs_visit_the_same_permutations(bias, seed):
    X, y = noisy(300, 2, seed=seed)
    fast_rng, ref_rng = np.random.default_rng(seed), np.random.default_rng(seed)
    fast = run_fast(X, y, bias=bias, shuffle=True, seed=fast_rng, max_epochs=20)
    assert_same_run(fast, run_reference(X, y, bias=bias, shuffle=True, seed=ref_rng, max_epochs=20))
    # One permutation per pass was drawn from the caller's generator, no more and no fewer.
    assert fast_rng.random() == ref_rng.random()


# --- ties and near-ties: where the order of the additions could matter ------------------------


def integer_grid(draw, max_n=25, max_d=5):
    n = draw(st.integers(2, max_n))
    d = draw(st.integers(1, max_d))
    row = st.lists(st.integers(-3, 3), min_size=d, max_size=d)
    X = np.array(draw(st.lists(row, min_size=n, max_size=n)), float)
    y = np.array(draw(st.lists(st.sampled_from([-1.0, 1.0]), min_size=n, max_size=n)))
    if (y == y[0]).all():  # a classifier needs both classes
        y[draw(st.integers(0, n - 1))] *= -1
    return X, y


@st.composite
def tie_runs(draw):
    X, y = integer_grid(draw)
    bias = draw(st.sampled_from(BIAS_MODES))
    eta = draw(st.sampled_from([1.0, 0.5, 2.0, 0.3]))
    d = X.shape[1]
    start = st.lists(st.integers(-2, 2), min_size=d, max_size=d)
    w0 = None if draw(st.booleans()) else np.array(draw(start), float)
    b0 = float(draw(st.integers(-2, 2)))
    shuffle = draw(st.booleans())
    options = {"eta": eta, "bias": bias, "w0": w0, "b0": b0, "max_epochs": draw(st.integers(1, 12)),
               "shuffle": shuffle, "rule": draw(st.sampled_from(RULES))}
    return X, y, options | {"seed": draw(st.integers(0, 99))}


@settings(max_examples=150, deadline=None)
@given(tie_runs())
def test_integer_grids_with_exact_ties_take_the_same_path(run):
    X, y, options = run
    fast = run_fast(X, y, **options)
    assert_same_run(fast, run_reference(X, y, **options))
    sklearn_has_it = options["bias"] == "one" or (options["bias"] == "none" and options["b0"] == 0.0)
    # sklearn shuffles with its own generator, and has only the margin rule
    if sklearn_has_it and not options["shuffle"] and options["rule"] == "margin":
        w, b = run_sklearn(X, y, **{k: options[k] for k in ("eta", "bias", "w0", "b0", "max_epochs")})
        assert np.array_equal(fast.w, w) and fast.b == b


def test_integer_grids_make_mistakes_on_the_hyperplane():
    # The property above is only worth something if scores of exactly 0 occur: count the updates
    # triggered by a point lying on the current hyperplane, replaying recorded runs.
    rng = np.random.default_rng(0)
    on_hyperplane = 0
    for _ in range(30):
        n, d = rng.integers(2, 26), rng.integers(1, 6)
        X = rng.integers(-3, 4, size=(n, d)).astype(float)
        y = np.where(np.arange(n) % 2 == 0, 1.0, -1.0)
        recorded = perceptron.train(X, y, max_epochs=10, record=True)
        w, b = np.zeros(d), 0.0
        for update in recorded.history:
            on_hyperplane += sequential_dot(X[update.index], w) + b == 0.0
            w, b = update.w, update.b
        assert_same_run(run_fast(X, y, max_epochs=10), recorded)
    assert on_hyperplane > 100  # 299 with this seed


@st.composite
def rule_pairs(draw):
    """An integer grid and the options of two runs that differ only in the mistake rule."""
    X, y = integer_grid(draw)
    bias = draw(st.sampled_from(BIAS_MODES))
    zero_start = draw(st.booleans())
    d = X.shape[1]
    w0 = None if zero_start else np.array(draw(st.lists(st.integers(-2, 2), min_size=d, max_size=d)), float)
    b0 = 0.0 if zero_start else float(draw(st.integers(-2, 2)))
    return X, y, {"bias": bias, "w0": w0, "b0": b0, "max_epochs": draw(st.integers(1, 12))}


def first_difference(margin_history, sign_history):
    """Index of the first update the two recorded runs do not share (None if none)."""
    for k, (a, b) in enumerate(zip(margin_history, sign_history)):
        if (a.epoch, a.index) != (b.epoch, b.index):
            return k
    return None if len(margin_history) == len(sign_history) else min(len(margin_history), len(sign_history))


@settings(max_examples=150, deadline=None)
@given(rule_pairs())
def test_the_two_mistake_rules_part_only_at_a_score_of_exactly_zero_on_a_plus_one_point(pair):
    # Under "sign" a point is a mistake when y != sgn(s), sgn(0) = +1; under "margin" when y s <= 0.
    # They disagree only at s == 0 with y = +1 ("margin" updates, "sign" does not). So the two runs
    # (fixed order) share every update up to the first such visit, where "margin" updates first.
    X, y, options = pair
    margin = perceptron.train(X, y, record=True, rule="margin", **options)
    sign = perceptron.train(X, y, record=True, rule="sign", **options)
    k = first_difference(margin.history, sign.history)
    if k is None:  # the same updates: the same run (errors are counted each with its own rule)
        assert np.array_equal(sign.w, margin.w) and sign.b == margin.b
        counts = (sign.mistakes, sign.epochs, sign.converged)
        assert counts == (margin.mistakes, margin.epochs, margin.converged)
        assert sign.errors == perceptron.count_errors(X, y, sign.w, sign.b, rule="sign") <= margin.errors
        return
    on_margin = margin.history[k] if k < len(margin.history) else None
    on_sign = sign.history[k] if k < len(sign.history) else None
    assert on_margin is not None, "rule='sign' updated where rule='margin' saw no mistake"
    if on_sign is not None:
        assert (on_margin.epoch, on_margin.index) < (on_sign.epoch, on_sign.index)
    w, b = (margin.history[k - 1].w, margin.history[k - 1].b) if k else (
        np.zeros(X.shape[1]) if options["w0"] is None else options["w0"], options["b0"])
    i = on_margin.index
    assert sequential_dot(X[i], w) + b == 0.0 and y[i] == 1.0


def test_the_rules_part_on_integer_grids_from_the_zero_start():
    # The property above is worth something only if the rules do part: from the zero start the
    # first score is 0, so "margin" updates on point 0 and "sign" on the first -1 point.
    rng = np.random.default_rng(1)
    parted = 0
    for _ in range(30):
        n, d = rng.integers(4, 26), rng.integers(1, 6)
        X = rng.integers(-3, 4, size=(n, d)).astype(float)
        y = np.where(np.arange(n) % 3 == 0, -1.0, 1.0)  # point 0 is -1: both start on it
        y[0], y[1] = 1.0, -1.0  # ... unless point 0 is +1
        margin = perceptron.train(X, y, max_epochs=10, record=True)
        sign = perceptron.train(X, y, max_epochs=10, record=True, rule="sign")
        assert margin.history[0].index == 0 and sign.history[0].index == 1
        parted += not np.array_equal(margin.w, sign.w)
        assert_same_run(run_fast(X, y, max_epochs=10, rule="sign"), sign)
    assert parted > 20


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), bias=st.sampled_from(BIAS_MODES), n=st.sampled_from([30, 2000]))
def test_the_two_rules_make_the_same_run_on_continuous_data_without_ties(seed, bias, n):
    # Gaussian data and a Gaussian start: no score is exactly 0, so the rules cannot part. (From
    # w = 0, b = 0 the first score would be 0: that start is a tie.) n = 2000 runs mostly compiled.
    rng = np.random.default_rng(seed)
    X, y = gaussian(n, 3, seed)
    y[0] = -y[1]  # both classes, also among 30 points
    w0, b0 = rng.standard_normal(3), float(rng.standard_normal())
    margin = perceptron.train(X, y, w0=w0, b0=b0, max_epochs=8, bias=bias)
    sign = perceptron.train(X, y, w0=w0, b0=b0, max_epochs=8, bias=bias, rule="sign")
    assert_same_run(sign, margin)
    assert margin.mistakes > 0 or n == 30  # 5% flipped labels: 2000 points are never separable


def cancelling_row(rng, d):
    """A row whose products (with w = 1) cancel to within rounding: its score's sign depends on
    the order of the additions."""
    half = d // 2
    big = rng.choice([-1.0, 1.0], half) * 2.0 ** rng.integers(40, 60, half) * (1 + rng.random(half))
    tail = rng.standard_normal(d - 2 * half) * rng.choice([0.0, 1.0, 1e-3])
    row = np.concatenate([big, -big * (1 + rng.choice([0.0, 2.0**-52, -(2.0**-52)], half)), tail])
    return rng.permutation(row)


def test_near_ties_are_decided_by_the_sequential_sum():
    rng = np.random.default_rng(2024)
    order_matters = 0
    for trial in range(400):
        d = int(rng.choice([3, 17, 40, 64, 101]))
        x = cancelling_row(rng, d)
        w0 = np.ones(d)
        b0 = float(rng.choice([0.0, 1.0, -1.0]))
        y = float(rng.choice([-1.0, 1.0]))
        sequential = sequential_dot(x, w0) + b0
        correctly_rounded = math.fsum([*x, b0])
        order_matters += (sequential > 0) != (correctly_rounded > 0)
        X, Y = x[None, :], np.array([y])
        fast = run_fast(X, Y, w0=w0, b0=b0, max_epochs=1)
        assert_same_run(fast, run_reference(X, Y, w0=w0, b0=b0, max_epochs=1))
        assert fast.mistakes == (y * sequential <= 0)
        fast = run_fast(X, Y, w0=w0, b0=b0, max_epochs=1, rule="sign")
        assert_same_run(fast, run_reference(X, Y, w0=w0, b0=b0, max_epochs=1, rule="sign"))
        assert fast.mistakes == (y != (1.0 if sequential >= 0 else -1.0))
    # Many rows had a sequential score whose sign differs from the exact one: the compiled
    # estimate (summed in another order) could not have decided them by itself.
    assert order_matters > 50


def test_near_ties_match_sklearn():
    rng = np.random.default_rng(5)
    X = np.array([cancelling_row(rng, 40) for _ in range(60)])
    y = rng.choice([-1.0, 1.0], 60)
    w0 = np.ones(40)
    fast = run_fast(X, y, w0=w0, max_epochs=3)
    w, b = run_sklearn(X, y, w0=w0, max_epochs=3)
    assert np.array_equal(fast.w, w) and fast.b == b
    assert_same_run(fast, run_reference(X, y, w0=w0, max_epochs=3))


# --- overflow ------------------------------------------------------------------------------


@pytest.mark.filterwarnings(
    "ignore:overflow encountered:RuntimeWarning", "ignore:invalid value encountered:RuntimeWarning"
)
@pytest.mark.parametrize(
    ("X", "w0", "eta", "what"),
    [
        ([[1e10]], [1e300], 1.0, "a score"),  # the score itself is inf
        ([[1e10, -1e10]], [1e300, 1e300], 1.0, "a score"),  # inf - inf: NaN
        ([[1e-10, 1e308]], [1e308, 0.0], 10.0, "the weights"),  # finite score, the update overflows
    ],
)
def test_overflow_raises_the_same_error_as_the_reference(X, w0, eta, what):
    X, y = np.array(X), np.array([-1.0])
    with pytest.raises(ValueError, match=f"diverged: {what}") as ref:
        run_reference(X, y, w0=w0, eta=eta, bias="none")
    with pytest.raises(ValueError, match=f"diverged: {what}") as fast:
        run_fast(X, y, w0=w0, eta=eta, bias="none")
    assert str(fast.value) == str(ref.value)


def test_train_raises_on_overflow_through_the_compiled_loop():
    X, y = gaussian(training.REFERENCE_BUDGET + 1, 3, seed=0)
    with pytest.raises(ValueError, match="diverged"):
        perceptron.train(X * 1e200, y, eta=1e120, max_epochs=50)


@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan])
def test_validation_finds_a_non_finite_entry_among_huge_finite_ones(bad):
    # The finiteness check sums X first; a sum that overflows must not hide (or invent) a bad entry.
    X = np.full((6, 2), 1e308)
    X[::2] *= -1
    y = np.array([1.0, -1.0] * 3)
    assert check_X(X) is not None  # huge but finite (the sum overflows): accepted
    X[3, 1] = bad
    with pytest.raises(ValueError, match=r"X contains NaN or infinity \(1 non-finite entries\)"):
        perceptron.train(X, y)


# --- train's dispatch -------------------------------------------------------------------------


@pytest.fixture
def spy(monkeypatch):
    """Record the calls of the compiled loop, in a session where it has not been loaded yet."""
    calls = []
    monkeypatch.setattr(training, "_compiled_loop_loaded", lambda: False)

    def recording_fast_loop(*args):
        calls.append(args[6])  # max_epochs handed to the compiled loop
        return fast_loop(*args)

    monkeypatch.setattr(fast_training, "fast_loop", recording_fast_loop)
    return calls


def test_large_runs_use_the_compiled_loop_from_the_start(spy):
    X, y = gaussian(training.REFERENCE_BUDGET + 1, 4, seed=3)
    result = perceptron.train(X, y, max_epochs=6)
    assert spy == [6]
    assert_same_run(result, run_reference(X, y, max_epochs=6))


def test_small_runs_hand_over_to_the_compiled_loop_after_the_budget(spy):
    X, y = noisy(1000, 3, seed=2)
    head = training.REFERENCE_BUDGET // 1000
    result = perceptron.train(X, y, max_epochs=head + 7, shuffle=True, seed=11)
    assert spy == [7]
    assert_same_run(result, run_reference(X, y, max_epochs=head + 7, shuffle=True, seed=11))


def test_once_loaded_the_compiled_loop_takes_even_small_runs(monkeypatch):
    calls = []

    def recording_fast_loop(*args):
        calls.append(args[6])
        return fast_loop(*args)

    monkeypatch.setattr(fast_training, "fast_loop", recording_fast_loop)
    assert training._compiled_loop_loaded()  # this module imported it
    X, y = noisy(40, 2, seed=1)
    result = perceptron.train(X, y, max_epochs=30)
    assert calls == [30]
    assert_same_run(result, run_reference(X, y, max_epochs=30))


def test_small_converging_runs_and_recorded_runs_never_load_the_compiled_loop(spy):
    X, y = separable(50, 2, seed=0)
    assert perceptron.train(X, y).converged
    X, y = gaussian(training.REFERENCE_BUDGET + 1, 2, seed=0)
    recorded = perceptron.train(X, y, max_epochs=2, record=True)
    assert spy == []
    assert len(recorded.history) == recorded.mistakes
    assert_same_run(recorded, run_fast(X, y, max_epochs=2))


def test_fortran_ordered_and_integer_inputs_give_the_same_run():
    X, y = gaussian(training.REFERENCE_BUDGET + 1, 5, seed=8)
    Xi = np.round(X * 10).astype(np.int64)
    expected = run_reference(Xi.astype(float), y, max_epochs=4)
    assert_same_run(perceptron.train(np.asfortranarray(Xi), y.astype(int), max_epochs=4), expected)
    assert_same_run(perceptron.train(Xi[::1, :].T.copy().T, y, max_epochs=4), expected)


def test_training_docstring_examples_run():
    failures, attempted = doctest.testmod(training, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert attempted > 0 and failures == 0


def test_kernels_compile_in_memory_when_no_cache_directory_is_writable(monkeypatch):
    # numba raises at decoration when no cache locator is usable (read-only install, no home).
    import numba

    from perceptron._core import compiled

    requested = []
    real_njit = numba.njit

    def njit(**options):
        requested.append(options["cache"])
        if options["cache"]:
            raise RuntimeError("cannot cache function 'f': no locator available for file 'f.py'")
        return real_njit(**options)

    monkeypatch.setattr(numba, "njit", njit)
    add_one = compiled()(lambda x: x + 1)
    assert fast_training._jit is compiled  # the compiled pass uses this decorator
    assert requested == [True, False]
    assert add_one(41) == 42
