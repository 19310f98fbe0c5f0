"""Seeded generators and bundled loaders: reproducible, labelled -1/+1, as promised, offline."""

from __future__ import annotations

import socket

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perceptron import datasets, max_margin, radius

GENERATORS = {
    "make_separable": lambda seed: datasets.make_separable(30, 3, seed=seed),
    "make_overlapping": lambda seed: datasets.make_overlapping(30, 3, seed=seed),
    "make_xor": lambda seed: datasets.make_xor(30, seed=seed),
    "make_circles": lambda seed: datasets.make_circles(30, seed=seed),
}


@pytest.fixture
def offline(monkeypatch):
    """Make any attempt to open a network connection fail loudly."""
    def refuse(*args, **kwargs):
        raise AssertionError("a dataset loader tried to use the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)


@pytest.mark.parametrize("name", GENERATORS)
def test_same_seed_gives_the_same_data(name):
    X1, y1 = GENERATORS[name](3)
    X2, y2 = GENERATORS[name](3)
    assert np.array_equal(X1, X2) and np.array_equal(y1, y2)


@pytest.mark.parametrize("name", GENERATORS)
def test_different_seeds_give_different_data(name):
    X1, _ = GENERATORS[name](3)
    X2, _ = GENERATORS[name](4)
    assert not np.array_equal(X1, X2)


@pytest.mark.parametrize("name", GENERATORS)
def test_generators_return_float_points_and_both_int_labels(name):
    X, y = GENERATORS[name](0)
    assert X.shape == (30, 2 if name in ("make_xor", "make_circles") else 3)
    assert X.dtype == np.float64 and y.dtype == np.int64
    assert y.shape == (30,)
    assert set(y.tolist()) == {-1, 1}
    assert np.isfinite(X).all()


@pytest.mark.parametrize("make", [datasets.make_separable, datasets.make_overlapping, datasets.make_xor])
def test_generators_accept_a_generator_as_seed(make):
    X1, y1 = make(20, seed=np.random.default_rng(5))
    X2, y2 = make(20, seed=5)
    assert np.array_equal(X1, X2) and np.array_equal(y1, y2)


def test_generators_leave_numpy_global_state_alone():
    np.random.seed(0)
    before = np.random.random()
    np.random.seed(0)
    datasets.make_separable(20, seed=1)
    datasets.make_overlapping(20, seed=1)
    datasets.make_xor(20, seed=1)
    assert np.random.random() == before


# --- make_separable --------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 60),
    d=st.integers(1, 6),
    margin=st.floats(0.01, 0.45),
    size=st.floats(0.1, 50.0),
    bias=st.sampled_from(["one", "radius", "none"]),
)
def test_make_separable_keeps_its_promised_margin_and_radius(seed, n, d, margin, size, bias):
    margin = margin * size
    X, y = datasets.make_separable(n, d, margin=margin, radius=size, bias=bias, seed=seed)
    assert X.shape == (n, d) and y.shape == (n,)
    assert set(y.tolist()) == {-1, 1}
    assert radius(X) <= size * (1 + 1e-12)
    assert max_margin(X, y, bias=bias).gamma >= margin * (1 - 1e-9)


def test_make_separable_with_two_points_still_has_both_classes():
    for seed in range(50):
        _, y = datasets.make_separable(2, 1, margin=0.3, seed=seed)
        assert sorted(y.tolist()) == [-1, 1]


def test_make_separable_without_bias_is_separable_through_the_origin():
    X, y = datasets.make_separable(50, 2, margin=0.2, bias="none", seed=0)
    assert max_margin(X, y, bias="none").gamma >= 0.2 * (1 - 1e-9)


# --- the other generators --------------------------------------------------------------------


def test_make_overlapping_has_balanced_classes_with_shifted_means():
    X, y = datasets.make_overlapping(2001, 2, separation=4.0, seed=0)
    assert int((y == 1).sum()) == 1001
    shift = X[y == 1].mean(axis=0) - X[y == -1].mean(axis=0)
    np.testing.assert_allclose(shift, [4.0, 0.0], atol=0.2)


def test_make_overlapping_with_no_separation_is_not_separable():
    X, y = datasets.make_overlapping(100, 2, separation=0.0, seed=0)
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin(X, y)


def test_make_xor_without_noise_puts_points_on_the_labelled_corners():
    X, y = datasets.make_xor(12, noise=0.0, seed=0)
    assert set(map(tuple, X.tolist())) == {(1.0, 1.0), (-1.0, -1.0), (1.0, -1.0), (-1.0, 1.0)}
    assert np.array_equal(y, np.sign(X[:, 0] * X[:, 1]).astype(np.int64))


def test_make_xor_is_not_linearly_separable():
    X, y = datasets.make_xor(40, seed=2)
    with pytest.raises(ValueError, match="not linearly separable"):
        max_margin(X, y)


def test_make_circles_labels_the_inner_circle_positive():
    X, y = datasets.make_circles(40, noise=0.0, factor=0.3, seed=0)
    norms = np.linalg.norm(X, axis=1)
    np.testing.assert_allclose(norms[y == 1], 0.3)
    np.testing.assert_allclose(norms[y == -1], 1.0)


@pytest.mark.parametrize("fraction, flipped", [(0.0, 0), (0.25, 5), (0.5, 10), (1.0, 20)])
def test_flip_labels_flips_exactly_the_requested_fraction(fraction, flipped):
    y = np.where(np.arange(20) % 3 == 0, 1, -1)
    original = y.copy()
    noisy = datasets.flip_labels(y, fraction, seed=1)
    assert int(np.sum(noisy != y)) == flipped
    assert np.all(noisy[noisy != y] == -y[noisy != y])
    assert np.array_equal(y, original)  # the input is not modified


def test_flip_labels_is_reproducible_by_seed():
    y = np.resize([1, -1], 40)
    assert np.array_equal(datasets.flip_labels(y, 0.3, seed=2), datasets.flip_labels(y, 0.3, seed=2))
    assert not np.array_equal(datasets.flip_labels(y, 0.3, seed=2), datasets.flip_labels(y, 0.3, seed=3))


# --- loaders ---------------------------------------------------------------------------------


def test_iris_pair_loads_offline(offline):
    X, y = datasets.load_iris_pair()
    assert X.shape == (100, 2) and X.dtype == np.float64
    assert int((y == 1).sum()) == 50 and int((y == -1).sum()) == 50
    # The first rows of the bundled iris data are setosa: 5.1 cm by 3.5 cm.
    assert X[0].tolist() == [5.1, 3.5] and y[0] == 1
    # Setosa and versicolor are linearly separable on sepal length and width.
    assert max_margin(X, y).gamma > 0


def test_iris_table_is_load_iris_and_skips_importing_sklearn(monkeypatch):
    from sklearn.datasets import load_iris

    bunch = load_iris()
    data, target, names = datasets._iris_table()
    assert np.array_equal(data, bunch.data) and data.dtype == bunch.data.dtype
    assert np.array_equal(target, bunch.target) and names == list(bunch.target_names)
    # Without the file where scikit-learn keeps it, load_iris itself gives the table.
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: None)
    fallback = datasets._iris_table()
    assert np.array_equal(fallback[0], data) and np.array_equal(fallback[1], target)
    assert fallback[2] == names


def test_iris_pair_does_not_import_sklearn():
    import subprocess
    import sys

    code = "import sys, perceptron.datasets as d; d.load_iris_pair(); print('sklearn' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_iris_pair_selects_species_and_features(offline):
    X, y = datasets.load_iris_pair("virginica", "versicolor", features=(2, 3, 0))
    assert X.shape == (100, 3)
    # Petal length (column 0 here) of virginica, labelled +1, is larger on average.
    assert X[y == 1, 0].mean() > X[y == -1, 0].mean()


def test_digits_pair_loads_offline(offline):
    from sklearn.datasets import load_digits

    target = load_digits().target
    X, y = datasets.load_digits_pair(3, 8)
    assert X.shape == (int(np.sum((target == 3) | (target == 8))), 64)
    assert int((y == 1).sum()) == int(np.sum(target == 3))
    assert X.min() == 0.0 and X.max() == 1.0
    assert set(y.tolist()) == {-1, 1}


# --- bad arguments ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: datasets.make_separable(1), "n_samples must be >= 2, got [0-9]+"),
        (lambda: datasets.make_separable(10.0), "n_samples must be an integer"),
        (lambda: datasets.make_separable(True), "n_samples must be an integer"),
        (lambda: datasets.make_separable(10, 0), "n_features must be >= 1, got [0-9]+"),
        (lambda: datasets.make_separable(10, margin=0.0), "margin must be > 0"),
        (lambda: datasets.make_separable(10, margin=-0.1), "margin must be > 0"),
        (lambda: datasets.make_separable(10, margin=np.nan), "margin must be finite"),
        (lambda: datasets.make_separable(10, margin=0.5), "margin must be smaller than radius / 2"),
        (lambda: datasets.make_separable(10, radius=0.0), "radius must be > 0"),
        (lambda: datasets.make_separable(10, radius=np.inf), "radius must be finite"),
        (lambda: datasets.make_overlapping(1), "n_samples must be >= 2, got [0-9]+"),
        (lambda: datasets.make_overlapping(10, 0), "n_features must be >= 1, got [0-9]+"),
        (lambda: datasets.make_overlapping(10, separation=-1.0), "separation must be a finite number >= 0"),
        (lambda: datasets.make_overlapping(10, separation=np.inf), "separation must be finite"),
        (lambda: datasets.make_overlapping(10, separation="far"), "separation must be a real number"),
        (lambda: datasets.make_xor(3), "n_samples must be >= 4, got [0-9]+"),
        (lambda: datasets.make_xor(10, noise=-0.1), "noise must be a finite number >= 0"),
        (lambda: datasets.make_xor(10, noise="some"), "noise must be a real number"),
        (lambda: datasets.make_circles(1), "n_samples must be >= 2, got [0-9]+"),
        (lambda: datasets.make_circles(10, factor=1.0), r"factor must be in \(0, 1\)"),
        (lambda: datasets.make_circles(10, factor=0.0), r"factor must be in \(0, 1\)"),
        (lambda: datasets.flip_labels([1, -1], 1.5), r"fraction must be in \[0, 1\]"),
        (lambda: datasets.flip_labels([1, -1], -0.1), r"fraction must be in \[0, 1\]"),
        (lambda: datasets.flip_labels([1, -1], "half"), "fraction must be a real number"),
        (lambda: datasets.load_iris_pair("setosa", "rose"), "unknown iris species 'rose'"),
        (lambda: datasets.load_iris_pair("setosa", "setosa"), "first and second must be different species"),
        (lambda: datasets.load_iris_pair(features=(0, 4)), "features must be indices in 0..3"),
        (lambda: datasets.load_iris_pair(features=()), "features must be indices in 0..3"),
        (lambda: datasets.load_iris_pair(features=(1.0,)), "features must be indices in 0..3"),
        (lambda: datasets.load_digits_pair(3, 10), "digits are 0..9, got 10"),
        (lambda: datasets.load_digits_pair(-1, 8), "digits are 0..9, got -1"),
        (lambda: datasets.load_digits_pair(3, 3), "first and second must be different digits"),
    ],
)
def test_bad_arguments_raise_value_error_naming_the_problem(call, message):
    with pytest.raises(ValueError, match=message):
        call()


@pytest.mark.timeout(20)
@pytest.mark.parametrize("n_features", [50, 200])
def test_make_separable_keeps_its_promises_in_high_dimension_without_hanging(n_features):
    # A uniform ball in high dimension has almost no mass outside a wide band: rejection alone would hang.
    X, y = datasets.make_separable(30, n_features, margin=0.45, radius=1.0, seed=3)
    assert X.shape == (30, n_features)
    assert np.linalg.norm(X, axis=1).max() <= 1.0 + 1e-12
    assert set(np.unique(y)) == {-1, 1}
    assert max_margin(X, y).gamma >= 0.45 - 1e-9
