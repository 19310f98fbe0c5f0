"""perceptron.network: backpropagation against finite differences, SGD on XOR, LMS against least squares."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import perceptron as pc
from perceptron.network import init_network, network_gradient, network_loss, train_lms, train_network

XOR_X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
XOR_Y = np.array([1, 1, -1, -1])


def shifted(net, name, index, step):
    """A copy of ``net`` with one parameter entry moved by ``step``."""
    value = np.array(getattr(net, name), dtype=float)
    if value.ndim == 0:
        return dataclasses.replace(net, **{name: float(value) + step})
    value[index] += step
    return dataclasses.replace(net, **{name: value})


@pytest.mark.parametrize(("n_hidden", "seed"), [(1, 0), (2, 3), (5, 7)])
def test_backpropagation_matches_central_finite_differences(n_hidden, seed):
    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(7, 3)), np.where(rng.random(7) < 0.5, -1, 1)
    net = init_network(3, n_hidden, seed=seed)
    grad = network_gradient(net, X, y)
    eps = 1e-6
    for field in ("V", "beta", "w", "b"):
        exact = np.atleast_1d(np.asarray(getattr(grad, field), dtype=float))
        shape = np.shape(getattr(net, field))
        numeric = np.zeros(exact.shape).reshape(shape) if shape else np.zeros(1)
        for index in np.ndindex(shape) if shape else [()]:
            up = network_loss(shifted(net, field, index, eps), X, y)
            down = network_loss(shifted(net, field, index, -eps), X, y)
            numeric[index if shape else 0] = (up - down) / (2 * eps)
        assert np.allclose(exact.reshape(numeric.shape), numeric, rtol=1e-6, atol=1e-9), field


def test_the_finite_difference_check_catches_a_wrong_gradient():
    """A gradient that forgets tanh' = 1 - h^2 fails the same comparison."""
    X, y = np.random.default_rng(1).normal(size=(5, 2)), np.array([1, -1, 1, -1, 1])
    net = init_network(2, 3, seed=1)
    H = net.hidden(X)
    s = pc.loss_slope(y * net.decision_function(X), "logistic") * y
    wrong = (s[:, None] * net.w).T @ X / len(y)                  # no (1 - H**2) factor
    right = network_gradient(net, X, y).V
    assert not np.allclose(wrong, right, rtol=1e-3) and np.all(np.abs(H) < 1)


def test_the_output_layer_gradient_is_chapter_3s_logistic_sgd_step_on_the_hidden_values():
    net = init_network(2, 3, seed=2)
    x, label = XOR_X[2], XOR_Y[2]
    h = net.hidden(x[None])[0]
    slope = pc.loss_slope([label * (h @ net.w + net.b)], "logistic")[0]
    grad = network_gradient(net, x[None], [label])
    assert np.allclose(grad.w, slope * label * h) and np.isclose(grad.b, slope * label)


def test_a_two_layer_network_solves_xor_and_no_line_does():
    run = train_network(XOR_X, XOR_Y, n_hidden=2, epochs=300, seed=3)
    assert run.errors[-1] == 0 and run.network.predict(XOR_X).tolist() == XOR_Y.tolist()
    assert run.losses[-1] < 0.01 and len(run.losses) == len(run.errors) == 301
    assert pc.fewest_errors_line(XOR_X, XOR_Y).errors == 1


def test_some_seeds_get_stuck_on_xor():
    """The loss is not convex: the same data, network and step, another seed, a point stays wrong."""
    stuck = train_network(XOR_X, XOR_Y, n_hidden=2, epochs=1000, seed=1)
    assert stuck.errors[-1] == 1 and stuck.losses[-1] > 0.3
    assert min(stuck.errors[100:]) == 1


def test_swapping_hidden_units_keeps_the_function_and_the_midpoint_is_worse():
    net = train_network(XOR_X, XOR_Y, n_hidden=2, epochs=300, seed=3).network
    swapped = dataclasses.replace(net, V=net.V[::-1], beta=net.beta[::-1], w=net.w[::-1])
    assert np.allclose(swapped.decision_function(XOR_X), net.decision_function(XOR_X))
    middle = dataclasses.replace(net, V=(net.V + swapped.V) / 2, beta=(net.beta + swapped.beta) / 2,
                                 w=(net.w + swapped.w) / 2)
    assert network_loss(middle, XOR_X, XOR_Y) > network_loss(net, XOR_X, XOR_Y) + 0.5


def test_a_run_is_deterministic_given_its_seed_and_records_every_epoch():
    a = train_network(XOR_X, XOR_Y, n_hidden=3, epochs=20, seed=5, record=True)
    b = train_network(XOR_X, XOR_Y, n_hidden=3, epochs=20, seed=5)
    c = train_network(XOR_X, XOR_Y, n_hidden=3, epochs=20, seed=6)
    assert np.array_equal(a.network.V, b.network.V) and a.losses == b.losses
    assert not np.array_equal(a.network.V, c.network.V)
    assert len(a.snapshots) == 21 and b.snapshots == ()
    assert np.array_equal(a.snapshots[-1].V, a.network.V)
    assert np.isclose(network_loss(a.snapshots[4], XOR_X, XOR_Y), a.losses[4], rtol=1e-12)


def test_a_given_start_is_used_and_left_unchanged():
    start = init_network(2, 2, seed=9)
    before = start.V.copy()
    run = train_network(XOR_X, XOR_Y, start=start, epochs=1, record=True)
    assert np.array_equal(run.snapshots[0].V, before) and np.array_equal(start.V, before)


def test_results_are_frozen_dataclasses():
    run = train_network(XOR_X, XOR_Y, epochs=1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.epochs = 2
    with pytest.raises(dataclasses.FrozenInstanceError):
        run.network.b = 1.0


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [({"n_hidden": 0}, "n_hidden must be >= 1"), ({"eta": 0.0}, "eta must be > 0"),
     ({"epochs": 0}, "epochs must be >= 1"), ({"scale": -1.0}, "scale must be > 0"),
     ({"start": "net"}, "TwoLayerNetwork"),
     ({"start": init_network(3, 2)}, r"network.V must have shape \(n_hidden, 2\)")],
)
def test_train_network_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        train_network(XOR_X, XOR_Y, **kwargs)


def test_bad_data_and_mismatched_networks_are_refused():
    net = init_network(2, 2)
    with pytest.raises(ValueError, match="only the labels -1 and \\+1"):
        train_network(XOR_X, [0, 1, 0, 1])
    with pytest.raises(ValueError, match="NaN or infinity"):
        network_loss(net, [[np.nan, 1.0]], [1])
    with pytest.raises(ValueError, match="expects 2"):
        net.predict([[1.0, 2.0, 3.0]])
    with pytest.raises(ValueError, match="shape \\(2,\\)"):
        network_gradient(dataclasses.replace(net, w=np.zeros(3)), XOR_X, XOR_Y)
    with pytest.raises(ValueError, match="NaN or infinity"):
        network_loss(dataclasses.replace(net, w=np.array([np.inf, 0.0])), XOR_X, XOR_Y)


def test_a_huge_step_diverges_with_a_clear_error():
    with pytest.raises(ValueError, match="training diverged"):
        train_lms(XOR_X * 1e3, XOR_Y, eta=10.0, max_epochs=50)


def test_lms_steps_on_every_point_by_the_real_valued_error():
    X, y = np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]]), np.array([1, 1, -1, -1])
    r = train_lms(X, y, eta=0.1, max_epochs=1)
    w, b = np.zeros(2), 0.0
    for xi, yi in zip(X, y):
        err = yi - (xi @ w + b)
        w, b = w + 0.1 * err * xi, b + 0.1 * err
    assert np.allclose(r.w, w, rtol=1e-15) and np.isclose(r.b, b, rtol=1e-15) and r.updates == 4
    assert np.isclose(r.losses[0], 0.5 * np.sum((y - (X @ w + b)) ** 2))


def test_lms_with_a_small_step_approaches_least_squares():
    X, y = pc.datasets.make_separable(30, margin=0.1, seed=1)
    r = train_lms(X, y, eta=0.002, max_epochs=2000)
    A = np.column_stack([X, np.ones(len(X))])
    solution = np.linalg.lstsq(A, y, rcond=None)[0]
    assert np.max(np.abs(np.r_[r.w, r.b] - solution)) < 0.02
    assert not r.converged and r.epochs == 2000


@pytest.mark.parametrize(("n_hidden", "seed"), [(1, 0), (3, 0), (4, 5)])
def test_gradient_check_is_small_for_backpropagation(n_hidden, seed):
    rng = np.random.default_rng(seed)
    X, y = rng.normal(size=(8, 2)), np.array([1, -1] * 4)
    assert pc.network_gradient_check(init_network(2, n_hidden, seed=seed), X, y) < 1e-8


def test_gradient_check_sees_a_wrong_bias_gradient(monkeypatch):
    """The check includes the output bias: a gradient wrong only in b makes it large."""
    from perceptron import network

    right = network._gradient

    def wrong_b(net, X, y):
        g = right(net, X, y)
        return dataclasses.replace(g, b=g.b + 0.1)

    monkeypatch.setattr(network, "_gradient", wrong_b)
    X, y = XOR_X, XOR_Y
    assert np.isclose(pc.network_gradient_check(init_network(2, 2, seed=1), X, y), 0.1, atol=1e-6)


def test_gradient_check_rejects_a_bad_step():
    with pytest.raises(ValueError, match="eps"):
        pc.network_gradient_check(init_network(2, 2, seed=0), XOR_X, XOR_Y, eps=0.0)


def test_the_first_epoch_without_errors_is_none_when_a_run_never_gets_there():
    X4 = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])
    y4 = np.array([1, 1, -1, -1])
    stuck = train_network(X4, y4, n_hidden=2, epochs=300, seed=1)  # chapter 10's stuck seed
    assert min(stuck.errors) > 0 and stuck.first_epoch_without_errors is None
    solved = train_network(X4, y4, n_hidden=2, epochs=300, seed=3)
    k = solved.first_epoch_without_errors
    assert k is not None and solved.errors[k] == 0 and min(solved.errors[:k]) > 0
