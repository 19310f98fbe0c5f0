"""From one neuron to a network: Widrow and Hoff's LMS rule, and a two-layer network trained by SGD.

:func:`train_lms` is ADALINE's rule: one linear unit, a step on *every* point by its real-valued
error ``y - (w.x + b)``, that is SGD on the squared error. :func:`train_network` trains a network with
one hidden layer of ``tanh`` units and a logistic loss on the margin ``m = y f(x)`` (the loss of
chapter 3) by SGD; :func:`network_gradient` is backpropagation, the chain rule layer by layer, checked
by :func:`network_gradient_check` against :func:`network_loss`. Plain numpy, seeded through ``seed``.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._core import diverged, visiting_order
from ._validation import (
    check_epochs,
    check_integer,
    check_positive,
    check_scalar,
    check_signs,
    check_X,
    check_Xy,
)
from .losses import _SCALAR_SLOPES, _logistic_values, _slopes
from .results import NetworkRun, SGDResult, TwoLayerNetwork


def init_network(n_features: int, n_hidden: int = 2, *, scale: float = 1.0,
                 seed: int | np.random.Generator | None = 0) -> TwoLayerNetwork:
    """Draw a network's starting weights: ``V`` and ``beta`` from N(0, scale²), ``w`` from N(0, scale²/n_hidden), ``b = 0``.

    Parameters
    ----------
    n_features : int
        Inputs per point, >= 1.
    n_hidden : int, default 2
        Hidden units, >= 1.
    scale : float, default 1.0
        Standard deviation of the hidden weights and biases, > 0.
    seed : int or numpy.random.Generator, default 0
        Source of the random numbers.

    Returns
    -------
    TwoLayerNetwork

    Raises
    ------
    ValueError
        If a size is not an integer >= 1 or ``scale <= 0``.

    Examples
    --------
    >>> net = init_network(2, 3, seed=0)
    >>> net.V.shape, net.beta.shape, net.w.shape, net.b
    ((3, 2), (3,), (3,), 0.0)
    """
    d = check_integer(n_features, "n_features", 1)
    J = check_integer(n_hidden, "n_hidden", 1)
    s = check_positive(scale, "scale")
    rng = np.random.default_rng(seed)
    return _draw(rng, d, J, s)


def _draw(rng: np.random.Generator, d: int, J: int, s: float) -> TwoLayerNetwork:
    V = s * rng.normal(size=(J, d))
    beta = s * rng.normal(size=J)
    w = s / math.sqrt(J) * rng.normal(size=J)
    return TwoLayerNetwork(V=V, beta=beta, w=w, b=0.0)


def _trusted(net: TwoLayerNetwork, d: int) -> TwoLayerNetwork:
    """The network's parameters as float64 arrays of matching shapes, or a ValueError naming the problem."""
    if not isinstance(net, TwoLayerNetwork):
        # A ValueError like every failure of the package (see _validation), not the TypeError of TRY004.
        raise ValueError(f"network must be a TwoLayerNetwork (see init_network), got {type(net).__name__}")  # noqa: TRY004
    V, beta, w = (np.asarray(a, dtype=np.float64) for a in (net.V, net.beta, net.w))
    if V.ndim != 2 or V.shape[1] != d:
        raise ValueError(f"network.V must have shape (n_hidden, {d}) for X with {d} features, got {V.shape}")
    if beta.shape != (V.shape[0],) or w.shape != (V.shape[0],):
        raise ValueError(f"network.beta and network.w must have shape ({V.shape[0]},), "
                         f"got {beta.shape} and {w.shape}")
    b = check_scalar(net.b, "network.b")
    if not (np.isfinite(V).all() and np.isfinite(beta).all() and np.isfinite(w).all()):
        raise ValueError("the network's weights contain NaN or infinity")
    return TwoLayerNetwork(V=V, beta=beta, w=w, b=b)


def _checked(network: TwoLayerNetwork, X: ArrayLike, y: ArrayLike) -> tuple[TwoLayerNetwork, NDArray, NDArray]:
    """The boundary of the functions that evaluate a given network on data: each argument checked once."""
    Xa = check_X(X)
    ya = check_signs(y, Xa.shape[0])
    return _trusted(network, Xa.shape[1]), Xa, ya


def _forward(net: TwoLayerNetwork, X: NDArray[np.float64]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    H = np.tanh(X @ net.V.T + net.beta)
    return H, H @ net.w + net.b


def _gradient(net: TwoLayerNetwork, X: NDArray[np.float64], y: NDArray[np.float64]) -> TwoLayerNetwork:
    """Backpropagation on trusted input: the gradient of the mean logistic loss."""
    H, f = _forward(net, X)
    s = _slopes(y * f, "logistic") * y              # dl/df = l'(m) y, one entry per point
    G = (s[:, None] * net.w) * (1.0 - H * H)        # dl/d(V x + beta): through w, then tanh' = 1 - h^2
    n = X.shape[0]
    return TwoLayerNetwork(V=G.T @ X / n, beta=G.sum(axis=0) / n, w=H.T @ s / n, b=float(s.sum() / n))


def network_loss(network: TwoLayerNetwork, X: ArrayLike, y: ArrayLike) -> float:
    """Return the mean logistic loss ``(1/n) sum_i log(1 + exp(-y_i f(x_i)))`` of a network.

    Parameters
    ----------
    network : TwoLayerNetwork
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,)
        Labels -1 or +1 (one class is allowed).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        On invalid data or a network whose shapes do not fit ``X``.

    Examples
    --------
    >>> net = TwoLayerNetwork(V=np.zeros((2, 2)), beta=np.zeros(2), w=np.zeros(2), b=0.0)
    >>> round(network_loss(net, [[1.0, 1.0], [-1.0, 1.0]], [1, -1]), 6)  # log 2: every score is 0
    0.693147
    """
    net, Xa, ya = _checked(network, X, y)
    return float(np.mean(_logistic_values(ya * _forward(net, Xa)[1])))


def network_gradient(network: TwoLayerNetwork, X: ArrayLike, y: ArrayLike) -> TwoLayerNetwork:
    """Return the gradient of :func:`network_loss` by backpropagation (the chain rule, layer by layer).

    With ``h = tanh(V x + beta)``, ``f = w.h + b``, ``m = y f`` and the logistic loss ``l(m)``, one
    point contributes ``dl/df = l'(m) y`` to ``dl/db``, ``l'(m) y h`` to ``dl/dw``, and, passed back
    through ``w`` and ``tanh' = 1 - h^2``, ``g = l'(m) y w (1 - h^2)`` to ``dl/dbeta`` and ``g x^T`` to
    ``dl/dV``; the gradient is the mean over the points.

    Parameters
    ----------
    network : TwoLayerNetwork
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,)
        Labels -1 or +1 (one class is allowed: a single point gives the SGD step's gradient).

    Returns
    -------
    TwoLayerNetwork
        The partial derivatives, one field per parameter (``V``, ``beta``, ``w``, ``b``).

    Raises
    ------
    ValueError
        On invalid data or a network whose shapes do not fit ``X``.

    Examples
    --------
    With every weight 0 each score is 0 and ``l'(0) = -1/2``; only the output bias has a gradient
    (the hidden values are ``tanh(0) = 0`` and the output weights are 0):

    >>> net = TwoLayerNetwork(V=np.zeros((2, 2)), beta=np.zeros(2), w=np.zeros(2), b=0.0)
    >>> g = network_gradient(net, [[1.0, 2.0]], [1])
    >>> g.b, g.w.tolist(), g.V.tolist()
    (-0.5, [0.0, 0.0], [[0.0, 0.0], [0.0, 0.0]])
    """
    net, Xa, ya = _checked(network, X, y)
    return _gradient(net, Xa, ya)


def network_gradient_check(network: TwoLayerNetwork, X: ArrayLike, y: ArrayLike, *, eps: float = 1e-6) -> float:
    """Compare :func:`network_gradient` with central finite differences of :func:`network_loss`.

    Each parameter (every entry of ``V``, ``beta``, ``w``, and the output bias ``b``) is moved by ``+eps``
    and ``-eps`` on its own: the change of the mean loss over ``2 eps`` is its numerical derivative.

    Parameters
    ----------
    network : TwoLayerNetwork
    X, y : array_like of shapes (n_samples, n_features) and (n_samples,), labels -1 or +1
    eps : float, default 1e-6, the step of the finite differences (positive)

    Returns
    -------
    float
        The largest absolute difference, over all parameters, between the two derivatives.

    Raises
    ------
    ValueError
        On invalid data, a network whose shapes do not fit ``X``, or ``eps <= 0``.

    Examples
    --------
    >>> net = init_network(2, 3, seed=0)
    >>> network_gradient_check(net, [[1.0, 2.0], [-1.0, 0.5]], [1, -1]) < 1e-8
    True
    """
    net, Xa, ya = _checked(network, X, y)
    eps, (J, d) = check_positive(eps, "eps"), net.V.shape

    def loss(t: NDArray[np.float64]) -> float:
        n = TwoLayerNetwork(V=t[: J * d].reshape(J, d), beta=t[J * d: J * d + J], w=t[J * d + J: -1], b=float(t[-1]))
        return float(np.mean(_logistic_values(ya * _forward(n, Xa)[1])))

    g, theta = _gradient(net, Xa, ya), np.concatenate([net.V.ravel(), net.beta, net.w, [net.b]])
    numeric = [(loss(theta + e) - loss(theta - e)) / (2 * eps) for e in eps * np.eye(theta.size)]
    return float(np.max(np.abs(np.array(numeric) - np.concatenate([g.V.ravel(), g.beta, g.w, [g.b]]))))


def train_network(
    X: ArrayLike,
    y: ArrayLike,
    *,
    n_hidden: int = 2,
    eta: float = 0.5,
    epochs: int = 100,
    scale: float = 1.0,
    start: TwoLayerNetwork | None = None,
    seed: int | None = 0,
    record: bool = False,
) -> NetworkRun:
    """Train a two-layer ``tanh`` network on the logistic loss by SGD with a constant step.

    The starting weights come from :func:`init_network` with ``seed`` (unless ``start`` is given);
    each epoch visits the points in a fresh permutation drawn from the same seeded generator, and
    every visit makes the step ``theta <- theta - eta * network_gradient(theta, x_i, y_i)``. Given the
    seed the run is deterministic.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,)
        Labels -1 or +1, both present.
    n_hidden : int, default 2
        Hidden units, >= 1 (ignored when ``start`` is given).
    eta : float, default 0.5
        Step size, > 0.
    epochs : int, default 100
        Passes over the data, >= 1 (all of them are made: there is no stopping rule).
    scale : float, default 1.0
        Spread of the starting weights (see :func:`init_network`).
    start : TwoLayerNetwork, optional
        Starting weights instead of drawn ones.
    seed : int, default 0
        Seed of the starting weights and of the visiting orders.
    record : bool, default False
        Keep the network at the start and after every epoch in ``snapshots``.

    Returns
    -------
    NetworkRun
        ``network``, ``losses`` and ``errors`` (at the start and after every epoch), ``epochs``,
        ``seed``, ``snapshots``.

    Raises
    ------
    ValueError
        On invalid data or arguments, or if the weights overflow.

    References
    ----------
    D. E. Rumelhart, G. E. Hinton and R. J. Williams, "Learning representations by
    back-propagating errors", Nature 323 (1986).

    Examples
    --------
    XOR, which no line separates:

    >>> X, y = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]], [1, 1, -1, -1]
    >>> run = train_network(X, y, n_hidden=2, epochs=300, seed=3)
    >>> run.errors[-1], run.network.predict(X).tolist()
    (0, [1, 1, -1, -1])
    """
    Xa, ya = check_Xy(X, y)
    eta, epochs, scale = check_positive(eta, "eta"), check_epochs(epochs, "epochs"), check_positive(scale, "scale")
    rng = np.random.default_rng(seed)
    if start is None:
        net = _draw(rng, Xa.shape[1], check_integer(n_hidden, "n_hidden", 1), scale)
    else:
        net = _trusted(start, Xa.shape[1])
    V, beta, w, b = net.V.copy(), net.beta.copy(), net.w.copy(), net.b
    order = visiting_order(Xa.shape[0], True, rng)
    slope = _SCALAR_SLOPES["logistic"]

    def state() -> tuple[TwoLayerNetwork, float, int]:
        now = TwoLayerNetwork(V=V.copy(), beta=beta.copy(), w=w.copy(), b=float(b))
        m = ya * _forward(now, Xa)[1]
        if not np.isfinite(m).all():
            raise diverged("a score")
        return now, float(np.mean(_logistic_values(m))), int(np.sum(m <= 0))

    now, loss, errors = state()
    losses, counts, snapshots = [loss], [errors], [now] if record else []
    with np.errstate(over="ignore", invalid="ignore"):
        for _ in range(epochs):
            for i in order():
                x = Xa[i]
                h = np.tanh(V @ x + beta)
                s = slope(ya[i] * float(h @ w + b)) * ya[i]      # dl/df = l'(m) y, chapter 3's slope
                g = (s * w) * (1.0 - h * h)
                w -= eta * s * h
                b -= eta * s
                V -= eta * np.outer(g, x)
                beta -= eta * g
            now, loss, errors = state()
            losses.append(loss)
            counts.append(errors)
            if record:
                snapshots.append(now)
    return NetworkRun(network=now, losses=tuple(losses), errors=tuple(counts), epochs=epochs,
                      seed=seed, snapshots=tuple(snapshots))


def train_lms(
    X: ArrayLike,
    y: ArrayLike,
    *,
    eta: float = 0.01,
    max_epochs: int = 100,
    shuffle: bool = False,
    seed: int | np.random.Generator | None = None,
) -> SGDResult:
    """Widrow and Hoff's LMS rule (ADALINE): ``w += eta (y_i - f(x_i)) x_i``, ``b += eta (y_i - f(x_i))`` at every point.

    Unlike the perceptron, which steps only on a mistake and by the label, LMS steps on every
    point by the real-valued error ``y_i - (w.x_i + b)``: it is SGD on the squared error
    ``(1/2) (y - f(x))^2 = (1/2) (1 - m)^2``, and it runs all ``max_epochs`` passes unless a pass
    leaves every error exactly 0.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
    y : array_like of shape (n_samples,)
        Labels -1 or +1, both present.
    eta : float, default 0.01
        Step size, > 0; too large a step makes the weights grow without bound (a ValueError).
    max_epochs : int, default 100
        Passes over the data, >= 1.
    shuffle : bool, default False
        Visit the points in a fresh random permutation every pass.
    seed : int or numpy.random.Generator, optional
        Source of the permutations when ``shuffle`` is True.

    Returns
    -------
    SGDResult
        ``w``, ``b``, ``updates`` (steps with a non-zero error), ``epochs``, ``converged`` and
        ``losses``, the squared error ``(1/2) sum_i (y_i - f(x_i))^2`` after every pass.

    Raises
    ------
    ValueError
        On invalid data or arguments, or if the weights overflow.

    References
    ----------
    B. Widrow and M. E. Hoff, "Adaptive switching circuits", IRE WESCON Convention Record (1960).

    Examples
    --------
    >>> X, y = [[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]], [1, 1, -1, -1]
    >>> r = train_lms(X, y, eta=0.05, max_epochs=200)
    >>> r.updates, r.converged, bool(np.all(np.sign(np.asarray(X) @ r.w + r.b) == y))
    (800, False, True)
    """
    Xa, ya = check_Xy(X, y)
    eta = check_positive(eta, "eta")
    max_epochs = check_epochs(max_epochs)
    next_order = visiting_order(Xa.shape[0], shuffle, seed)
    w, b = np.zeros(Xa.shape[1]), 0.0
    updates, epoch, clean = 0, 0, False
    losses: list[float] = []
    with np.errstate(over="ignore", invalid="ignore"):
        while epoch < max_epochs and not clean:
            epoch += 1
            clean = True
            for i in next_order():
                error = ya[i] - (Xa[i] @ w + b)
                if error != 0.0:
                    w += (eta * error) * Xa[i]
                    b += eta * error
                    updates += 1
                    clean = False
            residual = ya - (Xa @ w + b)
            loss = float(0.5 * residual @ residual)
            if not (np.isfinite(w).all() and math.isfinite(b) and math.isfinite(loss)):
                raise diverged("the weights")
            losses.append(loss)
    return SGDResult(w=w, b=float(b), updates=updates, epochs=epoch, converged=clean, losses=tuple(losses))
