"""The hyperplane every linear result is, and what the algorithms beyond the binary perceptron return (multiclass, structured, the two-layer
network, online learning): frozen dataclasses, re-exported by :mod:`perceptron.results`."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._core import sgn
from ._validation import check_features, check_w, check_X


@dataclass(frozen=True)
class Hyperplane:
    """A hyperplane ``w.x + b = 0`` and the linear classifier ``sgn(w.x + b)`` it defines.

    It unpacks as ``w, b = prototype(X, y)``; the results that extend it (:class:`MaxMargin`,
    :class:`BestLine`) unpack all their fields in order, as the named tuples they replace did.

    Attributes
    ----------
    w : ndarray of shape (n_features,)
        Normal vector.
    b : float
        Offset.
    """

    w: NDArray[np.float64]
    b: float

    def __iter__(self) -> Iterator[Any]:
        return (getattr(self, f.name) for f in fields(self))

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Classify ``X`` with ``sgn(w.x + b)`` (sgn(0) = +1)."""
        Xa = check_X(X)
        return sgn(Xa @ check_w(self.w, Xa.shape[1]) + self.b)



@dataclass(frozen=True)
class MulticlassUpdate:
    """One update of the multiclass perceptron: the true class gains ``x``, the rival loses it.

    Attributes
    ----------
    epoch, index : int
        The pass (1-based) in which the update happened, and the row of ``X`` that triggered it.
    label, rival : int
        Positions in ``classes`` of the point's true class (its row of ``W`` gained ``x``) and of the
        highest-scoring other class (its row of ``W`` lost ``x``).
    """

    epoch: int
    index: int
    label: int
    rival: int


@dataclass(frozen=True)
class MulticlassResult:
    """What :func:`~perceptron.multiclass_train` (and :func:`~perceptron.kesler_train`) return.

    Attributes
    ----------
    W : ndarray of shape (n_classes, n_features)
        One weight vector per class, in the order of ``classes``.
    b : ndarray of shape (n_classes,)
        One bias per class (zeros for ``bias="none"``).
    classes : ndarray of shape (n_classes,)
        The sorted distinct labels; row ``k`` of ``W`` scores ``classes[k]``.
    mistakes : int
        Number of updates made (every mistake triggers exactly one update).
    epochs : int
        Number of passes over the data, the final clean pass included.
    converged : bool
        True when a pass made no mistake: then every training point's own class scores strictly
        more than every other class.
    history : tuple of MulticlassUpdate
        Every update in order when the run was made with ``record=True``, else empty.
    errors : int
        Training points the returned ``(W, b)`` gets wrong, counted with the mistake rule (the own
        class does not score strictly more than every other class).
    """

    W: NDArray[np.float64]
    b: NDArray[np.float64]
    classes: NDArray[Any]
    mistakes: int
    epochs: int
    converged: bool
    history: tuple[MulticlassUpdate, ...] = field(default=(), repr=False)
    errors: int = 0

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """The score of every class for every row of ``X``, shape ``(n_samples, n_classes)``."""
        return check_features(X, self.W.shape[1], "the weights have") @ self.W.T + self.b

    def predict(self, X: ArrayLike) -> NDArray[Any]:
        """The class with the highest score for each row of ``X`` (a tie goes to the earlier class)."""
        return self.classes[np.argmax(self.decision_function(X), axis=1)]


@dataclass(frozen=True)
class StructuredResult:
    """What :func:`~perceptron.structured_train` returns: the weights of a tagger scored by Viterbi.

    A tag sequence ``t_1 ... t_T`` of the words ``x_1 ... x_T`` scores
    ``start[t_1] + sum_j emission[x_j, t_j] + sum_j transition[t_(j-1), t_j]``.

    Attributes
    ----------
    emission, transition, start : ndarrays of shape (n_words, n_tags), (n_tags, n_tags), (n_tags,)
        Weights of each (word, tag) pair, each (previous tag, tag) pair and each first tag.
    mistakes : int
        Number of updates: sequences whose best-scoring tagging was not their own.
    epochs : int
        Passes over the sequences, the final clean pass included.
    converged : bool
        True when a pass made no mistake.
    """

    emission: NDArray[np.float64]
    transition: NDArray[np.float64]
    start: NDArray[np.float64]
    mistakes: int
    epochs: int
    converged: bool


@dataclass(frozen=True)
class TwoLayerNetwork:
    """A network with one hidden layer of ``tanh`` units and one output unit: the score of ``x`` is
    ``f(x) = w.h(x) + b``, ``h(x) = tanh(V x + beta)``, a linear classifier (chapter 1) of ``h(x)``.
    :func:`~perceptron.network_gradient` returns a loss's partial derivatives in this shape.

    Attributes
    ----------
    V : ndarray of shape (n_hidden, n_features)
        Hidden weights, one row per hidden unit.
    beta : ndarray of shape (n_hidden,)
        Hidden biases.
    w : ndarray of shape (n_hidden,)
        Output weights.
    b : float
        Output bias.
    """

    V: NDArray[np.float64]
    beta: NDArray[np.float64]
    w: NDArray[np.float64]
    b: float

    def hidden(self, X: ArrayLike) -> NDArray[np.float64]:
        """The hidden values ``h(x) = tanh(V x + beta)`` of every row of ``X``, shape (n, n_hidden)."""
        return np.tanh(check_features(X, self.V.shape[1], "the network expects") @ self.V.T + self.beta)

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """The score ``f(x) = w.h(x) + b`` of every row of ``X``."""
        return self.hidden(X) @ self.w + self.b

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Classify ``X`` by the sign of the score (sgn(0) = +1)."""
        return sgn(self.decision_function(X))


@dataclass(frozen=True)
class NetworkRun:
    """What :func:`~perceptron.train_network` returns.

    Attributes
    ----------
    network : TwoLayerNetwork
        The network after the last epoch.
    losses : tuple of float
        Mean logistic loss on the training data at the start and after every epoch (``epochs + 1``).
    errors : tuple of int
        Training points with ``y f(x) <= 0`` at the start and after every epoch.
    epochs : int
        Passes over the data.
    seed : int or None
        The seed of the initial weights and of the visiting orders.
    snapshots : tuple of TwoLayerNetwork
        The network at the start and after every epoch when run with ``record=True``, else empty.
    """

    network: TwoLayerNetwork
    losses: tuple[float, ...]
    errors: tuple[int, ...]
    epochs: int
    seed: int | None
    snapshots: tuple[TwoLayerNetwork, ...] = field(default=(), repr=False)

    @property
    def first_epoch_without_errors(self) -> int | None:
        """The first epoch after which no training point is misclassified (0: already at the start),
        or None when no epoch of the run reaches zero errors (e.g. a seed that gets stuck)."""
        return next((k for k, count in enumerate(self.errors) if count == 0), None)


@dataclass(frozen=True)
class HingeBound:
    """A mistake bound for any data, ``((R~ + sqrt(passes) ||xi||) / gamma)**2`` (Freund and Schapire).

    Attributes
    ----------
    u : ndarray of shape (p,)
        The unit reference vector, in the space of the (augmented) points.
    gamma : float
        The target margin, > 0.
    radius : float
        ``R~ = max_i ||x~_i||``, the radius of the (augmented) points.
    slack_norm : float
        ``||xi||`` over one pass, ``xi_i = max(0, gamma - y_i u.x~_i)``.
    passes : int
        Number of passes the bound covers (the slacks of every pass add up).
    bound : float
        The number of mistakes the theorem allows.
    """

    u: NDArray[np.float64]
    gamma: float
    radius: float
    slack_norm: float
    passes: int
    bound: float


@dataclass(frozen=True)
class AdversaryRun:
    """The adversary's sequence of :func:`~perceptron.adversary_sequence` and the learner's answers.

    Attributes
    ----------
    X : ndarray of shape (N, dim)
        The points, ``radius`` times the first ``N`` standard basis vectors.
    y : ndarray of shape (N,)
        The labels, each the opposite of the learner's prediction.
    predictions : ndarray of shape (N,)
        What the learner predicted for each point before seeing its label.
    mistakes : int
        Number of wrong predictions (``N``, by construction).
    u : ndarray of shape (dim,)
        A unit vector that separates the sequence, ``sum_t y_t e_t / sqrt(N)``.
    margin : float
        ``min_t y_t u.x_t = radius / sqrt(N)``.
    """

    X: NDArray[np.float64]
    y: NDArray[np.float64]
    predictions: NDArray[np.float64]
    mistakes: int
    u: NDArray[np.float64]
    margin: float


@dataclass(frozen=True)
class OnlinePass:
    """The hypotheses of one online pass of the perceptron, from :func:`~perceptron.online_pass`.

    Attributes
    ----------
    w : ndarray of shape (n, d)
        ``w[t]``: the weights held when example ``t`` arrives (``w[0] = 0``).
    b : ndarray of shape (n,)
        The matching biases.
    mistaken : ndarray of bool, shape (n,)
        Whether example ``t`` was a mistake (``y_t (w[t].x_t + b[t]) <= 0``).
    """

    w: NDArray[np.float64]
    b: NDArray[np.float64]
    mistaken: NDArray[np.bool_]

    @property
    def mistakes(self) -> int:
        """The number of mistakes ``M`` of the pass."""
        return int(self.mistaken.sum())

    def error_rates(self, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        """The error rate of every hypothesis ``(w[t], b[t])`` on the points ``X`` with labels ``y``."""
        Xa = self._points(X)
        ya = np.asarray(y, dtype=np.float64)
        if ya.shape != (Xa.shape[0],):
            raise ValueError(f"y must have shape ({Xa.shape[0]},) to match X, got shape {ya.shape}")
        scores = Xa @ self.w.T
        scores += self.b  # in place: the same sums as Xa @ w.T + b, one (n, hypotheses) array fewer
        if np.all((ya == 1) | (ya == -1)):  # sgn(s) != y, without building the array of signs
            wrong = scores >= 0
            wrong ^= (ya > 0)[:, None]  # in place, as != on booleans
            # counted, then divided: the same float as the mean of the booleans (a sum of ones is exact)
            return np.count_nonzero(wrong, axis=0) / Xa.shape[0]
        return np.mean(sgn(scores) != ya[:, None], axis=0)

    def vote(self, X: ArrayLike) -> NDArray[np.float64]:
        """Predict by the unweighted majority vote of the ``n`` hypotheses (ties go to +1)."""
        Xa = self._points(X)
        return sgn(np.sum(sgn(Xa @ self.w.T + self.b), axis=1))

    def average(self) -> Hyperplane:
        """The average ``(1/n) sum_t (w[t], b[t])`` of the ``n`` hypotheses, one linear classifier.

        It differs from the averaged perceptron of one pass (:func:`~perceptron.averaged` with
        ``max_epochs=1``), which averages the weights held *after* each example, only in its first
        term (the zero start here, the final weights there).

        Examples
        --------
        >>> from perceptron import online_pass
        >>> avg = online_pass([[1.0, 0.0], [-1.0, 0.0], [2.0, 0.0]], [1, -1, 1]).average()
        >>> avg.w.tolist(), round(avg.b, 4)
        ([1.0, 0.0], 0.3333)
        """
        return Hyperplane(self.w.mean(axis=0), float(self.b.mean()))

    def online_hinge_losses(self, X: ArrayLike, y: ArrayLike) -> NDArray[np.float64]:
        """The hinge loss ``max(0, 1 - y_t (w[t].x_t + b[t]))`` of each hypothesis on the example it met.

        ``X, y`` must be the examples of the pass, in its order (one row per hypothesis).

        Examples
        --------
        >>> from perceptron import online_pass
        >>> X, y = [[1.0, 0.0], [-1.0, 0.0], [2.0, 0.0]], [1, -1, 1]
        >>> online_pass(X, y).online_hinge_losses(X, y).tolist()
        [1.0, 1.0, 0.0]
        """
        Xa = self._points(X)
        ya = np.asarray(y, dtype=np.float64)
        if Xa.shape[0] != self.w.shape[0] or ya.shape != (Xa.shape[0],):
            raise ValueError(f"X and y must be the pass's {self.w.shape[0]} examples, got X of shape "
                             f"{Xa.shape} and y of shape {ya.shape}")
        return np.maximum(0.0, 1.0 - ya * (np.einsum("ij,ij->i", Xa, self.w) + self.b))


    def _points(self, X: ArrayLike) -> NDArray[np.float64]:
        Xa = check_X(X)
        if Xa.shape[1] != self.w.shape[1]:
            raise ValueError(f"X has {Xa.shape[1]} features but the hypotheses have {self.w.shape[1]}")
        return Xa
