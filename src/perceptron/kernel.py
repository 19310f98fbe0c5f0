"""The dual (kernel) perceptron: the perceptron written in terms of dot products only.

From the zero start every update adds ``y_i x_i`` to ``w`` and ``y_i`` to ``b`` (the ``bias="one"``
convention of the book, learning rate 1, which from a zero start changes nothing but the scale).
So after training

``w = sum_i alpha_i y_i x_i``  and  ``b = sum_i alpha_i y_i``,

where ``alpha_i`` counts the mistakes made on point ``i``, and the score of a point is
``f(x) = sum_i alpha_i y_i (x_i . x) + b``. Replacing the dot product ``x_i . x`` by a kernel
``k(x_i, x)`` runs the perceptron in the kernel's feature space without ever building it: the
bias is still ``b += y_i``, i.e. the feature vectors are augmented with a constant 1, as in the
primal perceptron (it is *not* folded into the kernel). With the linear kernel the algorithm makes
exactly the same mistakes as :func:`~perceptron.train` with ``bias="one"`` and ends with
``w = sum_i alpha_i y_i x_i``. That holds exactly when the arithmetic is exact (integer or dyadic
data such as the digits, scaled by 1/16); otherwise the two sum their scores in different orders,
and a score that is exactly 0 in exact arithmetic can round to a different sign in each (on
the iris pair in the given order this first happens in pass 255).

The Gram matrix of the training points is computed once, with scikit-learn's pairwise kernels;
training then costs ``O(n)`` per mistake (the scores of all training points are kept up to date)
and memory ``O(n**2)``, fine for a few thousand points.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ._core import overflow_raises, sgn, visiting_order
from ._validation import check_epochs, check_kernel, check_positive, check_scalar, check_X, check_Xy

KernelFunction = Callable[[NDArray[np.float64], NDArray[np.float64]], ArrayLike]
KernelSpec = str | KernelFunction


def _gram(
    A: NDArray[np.float64],
    B: NDArray[np.float64],
    kernel: KernelSpec,
    degree: int,
    gamma: float,
    coef0: float,
) -> NDArray[np.float64]:
    """Return the matrix ``k(a_i, b_j)`` of shape ``(len(A), len(B))``. Arguments are trusted."""
    from sklearn.metrics.pairwise import linear_kernel, polynomial_kernel, rbf_kernel

    if isinstance(kernel, str):
        with np.errstate(over="ignore", invalid="ignore"):  # overflow is caught below, with advice
            if kernel == "linear":
                K = linear_kernel(A, B)
            elif kernel == "poly":
                # gamma=1: the book's (x.z + coef0)**degree; scikit-learn's gamma would scale x.z.
                K = polynomial_kernel(A, B, degree=degree, gamma=1.0, coef0=coef0)
            else:
                K = rbf_kernel(A, B, gamma=gamma)
    else:  # a callable, whose output nothing vouches for
        try:
            K = np.asarray(kernel(A, B), dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"the kernel callable did not return a numeric matrix: {exc}") from None
        if K.shape != (A.shape[0], B.shape[0]):
            raise ValueError(
                f"the kernel callable must return k(A, B) of shape (len(A), len(B)) = "
                f"{(A.shape[0], B.shape[0])}, got shape {K.shape}"
            )
    if not np.isfinite(K).all():
        raise ValueError("the kernel matrix contains inf or NaN; rescale X or lower degree/gamma")
    return K


@dataclass(frozen=True)
class KernelPerceptron:
    """A trained dual (kernel) perceptron.

    Its score is ``f(x) = sum_i alpha_i y_i k(x_i, x) + b`` and it predicts ``+1`` where
    ``f(x) >= 0`` (sgn(0) = +1).

    Attributes
    ----------
    alpha : ndarray of shape (n_samples,), int
        Number of mistakes made on each training point.
    b : float
        Bias, ``sum_i alpha_i y_i``.
    X : ndarray of shape (n_samples, n_features)
        The training points (the kernel needs them to score new points).
    y : ndarray of shape (n_samples,), values in {-1, +1}
        Their labels.
    kernel : {"linear", "poly", "rbf"} or callable
        The kernel: ``x.z``, ``(x.z + coef0)**degree``, ``exp(-gamma ||x - z||**2)``, or a
        function ``k(A, B)`` returning the matrix ``k(a_i, b_j)``.
    degree, gamma, coef0 : int, float, float
        Parameters of the named kernels (``degree`` and ``coef0`` for "poly", ``gamma`` for "rbf").
    mistakes : int
        Number of updates, ``alpha.sum()``.
    epochs : int
        Number of passes, the final clean pass included.
    converged : bool
        True when the last pass made no mistake.
    """

    alpha: NDArray[np.int64]
    b: float
    X: NDArray[np.float64] = field(repr=False)
    y: NDArray[np.int64] = field(repr=False)
    kernel: KernelSpec
    degree: int
    gamma: float
    coef0: float
    mistakes: int
    epochs: int
    converged: bool

    def decision_function(self, X: ArrayLike) -> NDArray[np.float64]:
        """Return the score ``sum_i alpha_i y_i k(x_i, x) + b`` of every row of ``X``.

        Parameters
        ----------
        X : array_like of shape (n_samples, n_features)

        Returns
        -------
        ndarray of shape (n_samples,)

        Raises
        ------
        ValueError
            If ``X`` is not a finite 2-D array with as many features as the training points.
        """
        Xa = check_X(X)
        if Xa.shape[1] != self.X.shape[1]:
            trained = self.X.shape[1]
            raise ValueError(f"X has {Xa.shape[1]} features but the perceptron was trained on {trained}")
        support = self.alpha > 0  # points never mistaken contribute nothing
        K = _gram(self.X[support], Xa, self.kernel, self.degree, self.gamma, self.coef0)
        return (self.alpha[support] * self.y[support]) @ K + self.b

    def predict(self, X: ArrayLike) -> NDArray[np.int64]:
        """Classify the rows of ``X``: ``+1`` where the score is ``>= 0``, else ``-1``."""
        return sgn(self.decision_function(X))


def kernel_train(
    X: ArrayLike,
    y: ArrayLike,
    *,
    kernel: KernelSpec = "linear",
    degree: int = 2,
    gamma: float = 1.0,
    coef0: float = 1.0,
    max_epochs: int = 100,
    shuffle: bool = False,
    seed: int | np.random.Generator | None = None,
) -> KernelPerceptron:
    """Train the dual (kernel) perceptron.

    Starting from ``alpha = 0, b = 0``, the loop visits the points pass after pass; point ``i`` is
    a mistake when ``y_i f(x_i) <= 0`` with ``f(x) = sum_j alpha_j y_j k(x_j, x) + b``, and a
    mistake does ``alpha_i += 1`` and ``b += y_i``. It stops after the first pass without a
    mistake or after ``max_epochs`` passes.

    Parameters
    ----------
    X : array_like of shape (n_samples, n_features)
        Training points, finite.
    y : array_like of shape (n_samples,)
        Labels, each -1 or +1, both present.
    kernel : {"linear", "poly", "rbf"} or callable, default "linear"
        ``"linear"``: ``x.z``; ``"poly"``: ``(x.z + coef0)**degree``; ``"rbf"``:
        ``exp(-gamma ||x - z||**2)``; or a function ``k(A, B)`` returning the matrix of shape
        ``(len(A), len(B))`` with entries ``k(a_i, b_j)``.
    degree : int, default 2
        Degree of the polynomial kernel, >= 1.
    gamma : float, default 1.0
        Width parameter of the RBF kernel, > 0 (the polynomial kernel does not use it).
    coef0 : float, default 1.0
        Constant of the polynomial kernel.
    max_epochs : int, default 100
        Largest number of passes, >= 1.
    shuffle : bool, default False
        Visit the points in a fresh random permutation every pass (the same permutations as
        :func:`~perceptron.train` with the same ``seed``).
    seed : int or numpy.random.Generator, optional
        Source of the permutations when ``shuffle`` is True.

    Returns
    -------
    KernelPerceptron
        ``alpha``, ``b``, the training data, the kernel, ``mistakes``, ``epochs`` and ``converged``.

    Raises
    ------
    ValueError
        On invalid data, labels other than -1/+1, an unknown kernel, ``degree < 1``,
        ``gamma <= 0``, ``max_epochs < 1``, a kernel matrix that is not finite or a callable
        kernel that returns the wrong shape.

    See Also
    --------
    train : the primal perceptron; same mistakes as ``kernel="linear"``.

    Examples
    --------
    XOR: no line separates it, the degree-2 polynomial kernel does.

    >>> X = [[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]
    >>> y = [1, 1, -1, -1]
    >>> model = kernel_train(X, y, kernel="poly", degree=2)
    >>> model.converged, model.epochs, model.alpha.tolist(), model.b
    (True, 3, [1, 1, 1, 1], 0.0)
    >>> model.predict([[2.0, 3.0], [2.0, -3.0]]).tolist()
    [1, -1]
    """
    Xa, ya = check_Xy(X, y)
    kernel = check_kernel(kernel)
    degree = check_epochs(degree, "degree")
    gamma = check_positive(gamma, "gamma")
    coef0 = check_scalar(coef0, "coef0")
    max_epochs = check_epochs(max_epochs)
    K = _gram(Xa, Xa, kernel, degree, gamma, coef0)
    next_order = visiting_order(Xa.shape[0], shuffle, seed)

    with overflow_raises("the scores"):
        alpha, b, epoch, clean = _dual_loop(K, ya, max_epochs, next_order)
    return KernelPerceptron(
        alpha=alpha,
        b=b,
        X=Xa,
        y=ya.astype(np.int64),
        kernel=kernel,
        degree=degree,
        gamma=gamma,
        coef0=coef0,
        mistakes=int(alpha.sum()),
        epochs=epoch,
        converged=clean,
    )


def _dual_loop(
    K: NDArray[np.float64],
    y: NDArray[np.float64],
    max_epochs: int,
    next_order: Callable[[], NDArray[np.intp]],
) -> tuple[NDArray[np.int64], float, int, bool]:
    """The dual perceptron on the Gram matrix ``K``; returns ``alpha, b, epochs, converged``."""
    n = K.shape[0]
    alpha = np.zeros(n, dtype=np.int64)
    b = 0.0
    # scores[j] = f(x_j), kept current: a mistake on i adds y_i k(x_i, x_j) + y_i to every f(x_j),
    # so a visit costs O(1) and a mistake O(n).
    scores = np.zeros(n)
    epoch = 0
    clean = False
    while epoch < max_epochs and not clean:
        epoch += 1
        clean = True
        for i in next_order():
            if y[i] * scores[i] <= 0:
                alpha[i] += 1
                b += float(y[i])
                scores += y[i] * (K[i] + 1.0)
                clean = False
    return alpha, b, epoch, clean


def kernel_predict(model: KernelPerceptron, X: ArrayLike) -> NDArray[np.int64]:
    """Classify ``X`` with a trained kernel perceptron (the same as ``model.predict(X)``).

    Parameters
    ----------
    model : KernelPerceptron
        The result of :func:`kernel_train`.
    X : array_like of shape (n_samples, n_features)

    Returns
    -------
    ndarray of shape (n_samples,) with values in {-1, +1}

    Raises
    ------
    ValueError
        If ``model`` is not a KernelPerceptron or ``X`` does not match its training data.

    Examples
    --------
    >>> model = kernel_train([[0.0, 1.0], [0.0, -1.0]], [1, -1])
    >>> kernel_predict(model, [[3.0, 2.0], [3.0, -2.0]]).tolist()
    [1, -1]
    """
    if not isinstance(model, KernelPerceptron):
        # A ValueError like every bad argument in the package (_validation), not TRY004's TypeError.
        message = f"model must be a KernelPerceptron from kernel_train, got {type(model).__name__}"
        raise ValueError(message)  # noqa: TRY004
    return model.predict(X)
