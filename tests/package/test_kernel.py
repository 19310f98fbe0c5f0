"""kernel_train: the dual (kernel) perceptron."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from perceptron import datasets, train
from perceptron.kernel import KernelPerceptron, kernel_predict, kernel_train

XOR_CORNERS = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]
XOR_LABELS = [1, 1, -1, -1]


# --- hand-computed cases --------------------------------------------------------------------


def test_poly_kernel_on_the_four_xor_corners_hand_traced():
    # k(x, z) = (x.z + 1)^2: 9 on the diagonal; 1 elsewhere (x.z is 0 or -2).
    # Pass 1: x1 scores 0 -> alpha1=1, b=1, scores += K[0] + 1 = (10, 2, 2, 2)
    #         x2 scores 2, correct; x3 (y=-1) scores 2 -> alpha3=1, b=0, scores -= (2, 2, 10, 2)
    #         -> (8, 0, -8, 0); x4 (y=-1) scores 0 -> alpha4=1, b=-1, scores -= (2, 2, 2, 10)
    #         -> (6, -2, -10, -10)
    # Pass 2: x2 (y=+1) scores -2 -> alpha2=1, b=0, scores += (2, 10, 2, 2) -> (8, 8, -8, -8).
    # Pass 3 is clean.
    model = kernel_train(XOR_CORNERS, XOR_LABELS, kernel="poly", degree=2, coef0=1.0)
    assert model.alpha.tolist() == [1, 1, 1, 1]
    assert model.b == 0.0
    assert (model.mistakes, model.epochs, model.converged) == (4, 3, True)
    # f(z) = sum_i alpha_i y_i (x_i.z + 1)^2 + b. At z = (2, 3): x_i.z = 5, -5, -1, 1, so
    # f = 36 + 16 - 0 - 4 = 48; at z = (2, -3): x_i.z = -1, 1, 5, -5, so f = 0 + 4 - 36 - 16 = -48.
    np.testing.assert_allclose(model.decision_function([[2.0, 3.0], [2.0, -3.0]]), [48.0, -48.0])
    assert model.predict([[2.0, 3.0], [2.0, -3.0]]).tolist() == [1, -1]


def test_rbf_kernel_hand_traced_and_zero_score_is_predicted_plus_one():
    # Points 0 (y=+1) and 1 (y=-1), gamma = ln 2, so k(0, 1) = exp(-ln 2) = 1/2.
    # x=0 scores 0 -> alpha=(1,0), b=1, scores = (1+1, 1/2+1) = (2, 3/2);
    # x=1 (y=-1) scores 3/2 -> alpha=(1,1), b=0, scores -= (1/2+1, 1+1) -> (1/2, -1/2). Pass 2 clean.
    # f(z) = exp(-g z^2) - exp(-g (z-1)^2): f(0) = 1/2, f(1) = -1/2, f(1/2) = 0 -> predicted +1.
    model = kernel_train([[0.0], [1.0]], [1, -1], kernel="rbf", gamma=np.log(2.0))
    assert model.alpha.tolist() == [1, 1] and model.b == 0.0 and model.epochs == 2
    np.testing.assert_allclose(model.decision_function([[0.0], [1.0], [0.5]]), [0.5, -0.5, 0.0], atol=1e-15)
    assert model.predict([[0.5]]).tolist() == [1]


def test_poly_kernel_uses_coef0_and_degree_but_not_gamma():
    # The book's polynomial kernel is (x.z + coef0)^degree, with no gamma.
    # One point per class on a line: x=1 (y=+1), x=-1 (y=-1), coef0 = 2, degree = 3.
    # k(1,1) = k(-1,-1) = 27, k(1,-1) = 1. x=1 scores 0 -> alpha=(1,0), b=1, scores = (28, 2);
    # x=-1 (y=-1) scores 2 -> alpha=(1,1), b=0, scores -= (2, 28) -> (26, -26). Pass 2 clean.
    # f(2) = (2+2)^3 - (-2+2)^3 = 64.
    for gamma in (1.0, 0.01):
        model = kernel_train([[1.0], [-1.0]], [1, -1], kernel="poly", degree=3, coef0=2.0, gamma=gamma)
        assert model.alpha.tolist() == [1, 1]
        assert model.decision_function([[2.0]]).tolist() == [64.0]


# --- the linear kernel is the primal perceptron ---------------------------------------------


@st.composite
def integer_data(draw):
    """Small integer coordinates: every score is computed exactly, so ties are real ties."""
    n = draw(st.integers(2, 12))
    d = draw(st.integers(1, 3))
    X = draw(arrays(np.float64, (n, d), elements=st.integers(-4, 4).map(float)))
    y = np.array(draw(st.lists(st.sampled_from([-1, 1]), min_size=n, max_size=n)))
    y[0], y[-1] = 1, -1  # both classes
    return X, y


@settings(max_examples=60, deadline=None)
@given(data=integer_data(), shuffle=st.booleans(), seed=st.integers(0, 1000))
def test_linear_kernel_makes_the_same_mistakes_as_train(data, shuffle, seed):
    X, y = data
    model = kernel_train(X, y, kernel="linear", max_epochs=30, shuffle=shuffle, seed=seed)
    primal = train(X, y, bias="one", max_epochs=30, shuffle=shuffle, seed=seed, record=True)
    per_point = np.bincount([u.index for u in primal.history], minlength=len(y))
    np.testing.assert_array_equal(model.alpha, per_point)
    assert model.mistakes == primal.mistakes
    assert (model.epochs, model.converged) == (primal.epochs, primal.converged)
    np.testing.assert_array_equal((model.alpha * model.y) @ model.X, primal.w)
    assert model.b == primal.b


def test_linear_kernel_matches_train_on_the_digits():
    # Pixels are multiples of 1/16: every score is exact in floating point, as on integers.
    X, y = datasets.load_digits_pair(3, 8)
    model = kernel_train(X, y, max_epochs=50)
    primal = train(X, y, max_epochs=50)
    assert model.mistakes == primal.mistakes
    assert (model.epochs, model.converged) == (primal.epochs, primal.converged)
    np.testing.assert_array_equal((model.alpha * model.y) @ model.X, primal.w)
    assert model.b == primal.b
    np.testing.assert_allclose(model.decision_function(X), X @ primal.w + primal.b, rtol=1e-12, atol=1e-9)


# --- what kernels buy -----------------------------------------------------------------------


def test_poly_degree_two_separates_xor_and_generalizes():
    X, y = datasets.make_xor(200, seed=0)
    model = kernel_train(X, y, kernel="poly", degree=2)
    assert model.converged
    assert (model.predict(X) == y).all()
    Xt, yt = datasets.make_xor(400, seed=1)
    assert (model.predict(Xt) == yt).mean() >= 0.99


def test_linear_kernel_cannot_separate_xor_and_stops_at_max_epochs():
    X, y = datasets.make_xor(40, noise=0.1, seed=0)
    model = kernel_train(X, y, max_epochs=25)
    assert not model.converged and model.epochs == 25


def test_rbf_separates_concentric_circles_and_generalizes():
    X, y = datasets.make_circles(200, seed=0)
    model = kernel_train(X, y, kernel="rbf", gamma=1.0)
    assert model.converged
    assert (model.predict(X) == y).all()
    Xt, yt = datasets.make_circles(400, seed=1)
    assert (model.predict(Xt) == yt).mean() >= 0.95


def test_callable_kernel_gives_the_same_model_as_the_named_one_and_gram_is_computed_once():
    X, y = datasets.make_xor(60, seed=2)
    calls = []

    def quadratic(A, B):
        calls.append((A.shape, B.shape))
        return (A @ B.T + 1.0) ** 2

    custom = kernel_train(X, y, kernel=quadratic, max_epochs=50)
    named = kernel_train(X, y, kernel="poly", degree=2, coef0=1.0, max_epochs=50)
    assert calls == [((60, 2), (60, 2))]  # one Gram matrix for the whole training run
    np.testing.assert_array_equal(custom.alpha, named.alpha)
    Xt, _ = datasets.make_xor(20, seed=3)
    np.testing.assert_allclose(custom.decision_function(Xt), named.decision_function(Xt))


def test_kernel_predict_is_the_model_predict():
    X, y = datasets.make_circles(80, seed=4)
    model = kernel_train(X, y, kernel="rbf", gamma=2.0)
    Xt, _ = datasets.make_circles(30, seed=5)
    np.testing.assert_array_equal(kernel_predict(model, Xt), model.predict(Xt))


def test_kernel_names_are_exported_by_the_package():
    import perceptron

    assert (perceptron.kernel_train, perceptron.kernel_predict, perceptron.KernelPerceptron) == (
        kernel_train, kernel_predict, KernelPerceptron)


def test_model_is_frozen_and_keeps_its_training_data():
    model = kernel_train(XOR_CORNERS, XOR_LABELS, kernel="poly")
    assert isinstance(model, KernelPerceptron)
    assert model.X.shape == (4, 2) and model.y.tolist() == XOR_LABELS
    assert model.kernel == "poly" and model.degree == 2
    with pytest.raises(AttributeError):
        model.b = 1.0  # type: ignore[misc]


def test_shuffled_training_is_reproducible():
    X, y = datasets.make_circles(60, seed=6)
    a = kernel_train(X, y, kernel="rbf", shuffle=True, seed=9)
    b = kernel_train(X, y, kernel="rbf", shuffle=True, seed=np.random.default_rng(9))
    np.testing.assert_array_equal(a.alpha, b.alpha)


# --- bad input ------------------------------------------------------------------------------

GOOD_X = [[0.0, 1.0], [1.0, 0.0], [2.0, 2.0]]
GOOD_Y = [1, -1, 1]


@pytest.mark.parametrize(
    ("X", "y", "kwargs", "message"),
    [
        ([[0.0, np.nan], [1.0, 0.0], [2.0, 2.0]], GOOD_Y, {}, "NaN"),
        ([0.0, 1.0, 2.0], GOOD_Y, {}, "2-D"),
        (GOOD_X, [1, -1, 1, 1], {}, "different lengths"),
        (GOOD_X, [1, 1, 1], {}, "only one class"),
        (GOOD_X, [0, 1, 0], {}, "Map \\{0, 1\\} labels"),
        (GOOD_X, GOOD_Y, {"kernel": "sigmoid"}, "unknown kernel 'sigmoid'"),
        (GOOD_X, GOOD_Y, {"kernel": 3}, "unknown kernel 3"),
        (GOOD_X, GOOD_Y, {"kernel": "poly", "degree": 0}, "degree must be >= 1"),
        (GOOD_X, GOOD_Y, {"kernel": "poly", "degree": 1.5}, "degree must be an integer"),
        (GOOD_X, GOOD_Y, {"kernel": "rbf", "gamma": 0.0}, "gamma must be > 0"),
        (GOOD_X, GOOD_Y, {"kernel": "poly", "coef0": np.nan}, "coef0 must be finite"),
        (GOOD_X, GOOD_Y, {"max_epochs": 0}, "max_epochs must be >= 1"),
        (GOOD_X, GOOD_Y, {"kernel": lambda A, B: A @ B.T[:, :1]}, "shape \\(len\\(A\\), len\\(B\\)\\)"),
        (GOOD_X, GOOD_Y, {"kernel": lambda A, B: np.full((len(A), len(B)), np.nan)}, "inf or NaN"),
        ([[1e200, 1e200], [1.0, 0.0], [2.0, 2.0]], GOOD_Y, {"kernel": "poly", "degree": 3}, "inf or NaN"),
    ],
)
def test_kernel_train_rejects_bad_input_with_a_clear_message(X, y, kwargs, message):
    with pytest.raises(ValueError, match=message):
        kernel_train(X, y, **kwargs)


def test_scoring_rejects_points_of_the_wrong_width_and_foreign_models():
    model = kernel_train(GOOD_X, GOOD_Y)
    with pytest.raises(ValueError, match="1 features but the perceptron was trained on 2"):
        model.decision_function([[1.0]])
    with pytest.raises(ValueError, match="must be 2-D"):
        model.predict([1.0, 2.0])
    with pytest.raises(ValueError, match="KernelPerceptron"):
        kernel_predict("not a model", GOOD_X)  # type: ignore[arg-type]
