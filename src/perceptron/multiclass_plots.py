"""Figures of the chapter on several classes: the regions a multiclass classifier gives each class,
the regions one-vs-all leaves unclaimed or contested, a confusion matrix, and a recorded run of the
multiclass perceptron update by update.

Classes are drawn in the Okabe-Ito colours, distinguishable with the common forms of colour
blindness, each with its own marker as well: the first two are the book's +1 blue circles and
-1 vermillion squares (:mod:`perceptron._style`), then bluish green triangles and so on.
"""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt  # noqa: F401 - the doctests close their figures with it
import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap
from numpy.typing import ArrayLike

from ._style import BOUNDARY_COLOR, CLASS_COLORS, CLASS_MARKERS, TITLE_Y, new_axes
from .results import MulticlassResult

#: One colour and marker per class, in the order of the sorted classes (at most eight classes).
MULTICLASS_COLORS = (CLASS_COLORS[1], CLASS_COLORS[-1], "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442",
                     "#000000")
MULTICLASS_MARKERS = (CLASS_MARKERS[1], CLASS_MARKERS[-1], "^", "D", "v", "P", "X", "*")
#: The tints of one-vs-all's claims: a point no class claims, and a point several classes claim.
UNCLAIMED_COLOR, CONTESTED_COLOR = "#BBBBBB", "#444444"


def plot_multiclass_data(X: ArrayLike, y: ArrayLike, ax: Axes | None = None, **kwargs) -> Axes:
    """Scatter two-feature points of up to eight classes, each in its own colour and marker.

    Extra keyword arguments go to ``Axes.scatter``.

    Examples
    --------
    >>> ax = plot_multiclass_data([[0.0, 0.0], [1.0, 1.0], [2.0, 0.0]], ["a", "b", "c"])
    >>> len(ax.collections), ax.get_legend_handles_labels()[1]
    (3, ['class a', 'class b', 'class c'])
    >>> plt.close("all")
    """
    X, y, classes = _points(X, y)
    return _scatter(X, y, classes, new_axes(ax), **kwargs)


def plot_class_regions(
    predict_fn: Callable[[np.ndarray], np.ndarray],
    X: ArrayLike,
    y: ArrayLike,
    ax: Axes | None = None,
    *,
    resolution: int = 250,
    title: str | None = None,
) -> Axes:
    """Tint the plane by the class ``predict_fn`` gives each point, and scatter the data on top.

    ``predict_fn`` maps an ``(m, 2)`` array to ``m`` labels among those of ``y``.

    Examples
    --------
    >>> X, y = [[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]], [0, 1, 2]
    >>> ax = plot_class_regions(lambda P: np.argmax(P @ [[-1, 1, 0], [-1, 0, 1]], axis=1), X, y)
    >>> ax.get_xlabel()
    'x₁'
    >>> plt.close("all")
    """
    X, y, classes = _points(X, y)
    ax, (gx, gy, grid), extent = _plane(X, ax, resolution)
    labels = np.asarray(predict_fn(grid))
    if not np.isin(labels, classes).all():
        raise ValueError("predict_fn returned labels that are not classes of y")
    z = np.searchsorted(classes, labels).reshape(gx.shape)
    cmap = ListedColormap(MULTICLASS_COLORS[: len(classes)])
    ax.imshow(z, origin="lower", extent=extent, cmap=cmap, vmin=-0.5, vmax=len(classes) - 0.5, alpha=0.22,
              interpolation="nearest", aspect="auto", zorder=0)
    ax.contour(gx, gy, z, levels=np.arange(len(classes)) + 0.5, colors=[BOUNDARY_COLOR], linewidths=1.2, zorder=1)
    return _finish(X, y, classes, ax, extent, title)


def plot_claims(
    scores_fn: Callable[[np.ndarray], np.ndarray],
    X: ArrayLike,
    y: ArrayLike,
    ax: Axes | None = None,
    *,
    resolution: int = 250,
    title: str | None = None,
) -> Axes:
    """Where one-vs-all's binary classifiers agree: each point of the plane tinted by who claims it.

    ``scores_fn`` maps an ``(m, 2)`` array to the ``(m, n_classes)`` scores of the classifiers
    "class y against the rest"; class ``y`` *claims* a point when its score is positive. A point
    claimed by exactly one class takes that class's tint; a point claimed by none is light grey,
    one claimed by several dark grey. The contours are the lines where a score is 0.

    Examples
    --------
    >>> X, y = [[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]], [0, 1, 2]
    >>> ax = plot_claims(lambda P: P @ [[-1, 1, 0], [-1, 0, 1]] + [1, -1, -1], X, y)
    >>> len(ax.images)
    1
    >>> plt.close("all")
    """
    X, y, classes = _points(X, y)
    ax, (gx, gy, grid), extent = _plane(X, ax, resolution)
    scores = np.asarray(scores_fn(grid), dtype=float)
    if scores.shape != (len(grid), len(classes)):
        raise ValueError(f"scores_fn must return shape (m, {len(classes)}), one score per class; got {scores.shape}")
    claims = scores > 0
    n_claims = claims.sum(axis=1)
    # Colour index: 0 .. K-1 the one claiming class, K unclaimed, K + 1 contested.
    z = np.where(n_claims == 1, np.argmax(claims, axis=1), np.where(n_claims == 0, len(classes), len(classes) + 1))
    colors = [*MULTICLASS_COLORS[: len(classes)], UNCLAIMED_COLOR, CONTESTED_COLOR]
    ax.imshow(z.reshape(gx.shape), origin="lower", extent=extent, cmap=ListedColormap(colors), vmin=-0.5,
              vmax=len(classes) + 1.5, alpha=0.3, interpolation="nearest", aspect="auto", zorder=0)
    for k in range(len(classes)):
        ax.contour(gx, gy, scores[:, k].reshape(gx.shape), levels=[0], colors=[MULTICLASS_COLORS[k]],
                   linewidths=1.4, linestyles="--", zorder=1)
    return _finish(X, y, classes, ax, extent, title)


def plot_confusion(y_true: ArrayLike, y_pred: ArrayLike, ax: Axes | None = None, *, title: str | None = None) -> Axes:
    """The confusion matrix: row = true class, column = predicted class, each cell its count.

    Drawn by scikit-learn's ``ConfusionMatrixDisplay`` in a single-hue scale (light to dark blue);
    the diagonal holds the correct predictions.

    Examples
    --------
    >>> ax = plot_confusion([0, 1, 1, 2], [0, 1, 2, 2])
    >>> ax.get_xlabel(), ax.get_ylabel()
    ('predicted class', 'true class')
    >>> plt.close("all")
    """
    from sklearn.metrics import ConfusionMatrixDisplay

    y_true, y_pred = np.asarray(y_true), np.asarray(y_pred)
    if y_true.ndim != 1 or y_true.shape != y_pred.shape or y_true.size == 0:
        raise ValueError(f"y_true and y_pred must be non-empty 1-D arrays of one length, got {y_true.shape}, {y_pred.shape}")
    ax = new_axes(ax, size=(5.2, 4.6))
    ConfusionMatrixDisplay.from_predictions(y_true, y_pred, ax=ax, cmap="Blues", colorbar=False)
    ax.set_xlabel("predicted class")
    ax.set_ylabel("true class")
    if title:
        ax.set_title(title, y=TITLE_Y)
    return ax


def update_states(run: MulticlassResult, X: ArrayLike) -> list[np.ndarray]:
    """The weights of a recorded multiclass run after each of its updates, rebuilt from its history.

    Each update adds the augmented point ``(x_i, 1)`` to the row of its class and subtracts it from
    the row of its rival (``bias="one"``), starting from zero.

    Parameters
    ----------
    run : MulticlassResult
        A run of :func:`~perceptron.multiclass_train` with ``record=True`` and ``bias="one"``.
    X : array_like of shape (n_samples, n_features)
        The points it was trained on.

    Returns
    -------
    list of ndarray of shape (n_classes, n_features + 1)
        ``mistakes + 1`` arrays: row ``y`` of each is ``(w_y, b_y)``; the first is zero and the last
        is the run's ``(W, b)``.

    Raises
    ------
    ValueError
        When the run has no history, or its updates on ``X`` do not end at its weights (another
        ``X``, or a bias mode other than ``"one"``).

    Examples
    --------
    >>> from perceptron import multiclass_train
    >>> X, y = [[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]], [0, 1, 2]
    >>> run = multiclass_train(X, y, record=True)
    >>> states = update_states(run, X)
    >>> len(states) == run.mistakes + 1, states[0].shape
    (True, (3, 3))
    """
    return _states(run, _augmented(X))


def _states(run: MulticlassResult, Xt: np.ndarray) -> list[np.ndarray]:
    """:func:`update_states` on the augmented points ``(x_i, 1)``."""
    if run.mistakes and not run.history:
        raise ValueError("the run has no history: train it with record=True")
    states = [np.zeros((len(run.classes), Xt.shape[1]))]
    for u in run.history:
        if u.index >= len(Xt):
            raise ValueError(f"update on point {u.index}, but X has {len(Xt)} points")
        V = states[-1].copy()
        V[u.label] += Xt[u.index]
        V[u.rival] -= Xt[u.index]
        states.append(V)
    if not np.allclose(states[-1], np.column_stack([run.W, run.b])):
        raise ValueError("the updates on X do not rebuild the run's weights: another X, or bias other than 'one'?")
    return states


def plot_update(run: MulticlassResult, X: ArrayLike, y: ArrayLike, k: int, ax: Axes | None = None) -> Axes:
    """Regions of a recorded multiclass run (``bias="one"``) after ``k`` updates, the point of update ``k`` ringed.

    Examples
    --------
    >>> from perceptron import multiclass_train
    >>> X, y = [[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]], [0, 1, 2]
    >>> run = multiclass_train(X, y, record=True)
    >>> plot_update(run, X, y, 1).get_title()
    'after 1 updates'
    >>> plt.close("all")
    """
    Xt = _augmented(X)
    V = _state(run, Xt, k)
    ax = plot_class_regions(lambda P: run.classes[np.argmax(P @ V[:, :-1].T + V[:, -1], axis=1)], X, y, ax,
                            title=f"after {k} updates")
    if k > 0:
        ax.scatter(*Xt[run.history[k - 1].index, :-1], s=180, facecolors="none",
                   edgecolors="black", linewidths=1.8, zorder=5)
    return ax


def describe_update(run: MulticlassResult, X: ArrayLike, y: ArrayLike, k: int) -> str:
    """Alt text of :func:`plot_update`: how many points lie outside their class's region after ``k`` updates.

    Examples
    --------
    >>> from perceptron import multiclass_train
    >>> X, y = [[0.0, 0.0], [2.0, 0.0], [0.0, 2.0]], [0, 1, 2]
    >>> run = multiclass_train(X, y, record=True)
    >>> describe_update(run, X, y, 0).endswith("2 of the 3 points lie outside their own class's region.")
    True
    """
    Xt = _augmented(X)
    V = _state(run, Xt, k)
    wrong = int(np.sum(run.classes[np.argmax(Xt @ V.T, axis=1)] != np.asarray(y)))
    ringed = f", the point of update {k} ringed" if k else ""
    return (f"The {len(run.classes)} classes with the regions of the multiclass perceptron after {k} of "
            f"{len(run.history)} updates{ringed}: {wrong} of the {len(X)} points lie outside their own "
            "class's region.")


def _augmented(X: ArrayLike) -> np.ndarray:
    """The points of a ``bias="one"`` run, ``(x_i, 1)``: the input every update figure starts from."""
    return np.column_stack([np.asarray(X, dtype=float), np.ones(len(X))])


def _state(run: MulticlassResult, Xt: np.ndarray, k: int) -> np.ndarray:
    states = _states(run, Xt)
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or not 0 <= k < len(states):
        raise ValueError(f"k must be an update count from 0 to {len(states) - 1}, got {k!r}")
    return states[k]


def _points(X: ArrayLike, y: ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    if X.ndim != 2 or X.shape[1] != 2 or y.shape != (len(X),):
        raise ValueError(f"these figures draw 2-D points: X must have shape (n, 2) and y shape (n,), got {X.shape}, {y.shape}")
    classes = np.unique(y)
    if len(classes) > len(MULTICLASS_COLORS):
        raise ValueError(f"at most {len(MULTICLASS_COLORS)} classes can be told apart by colour, got {len(classes)}")
    return X, y, classes


def _scatter(X: np.ndarray, y: np.ndarray, classes: np.ndarray, ax: Axes, **kwargs) -> Axes:
    """:func:`plot_multiclass_data` on checked points."""
    style = {"s": 28, "edgecolors": "white", "linewidths": 0.6, "zorder": 3} | kwargs
    for k, label in enumerate(classes):
        pts = X[y == label]
        ax.scatter(pts[:, 0], pts[:, 1], c=MULTICLASS_COLORS[k], marker=MULTICLASS_MARKERS[k],
                   label=f"class {label}", **style)
    ax.set_xlabel("x\u2081")
    ax.set_ylabel("x\u2082")
    ax.set_aspect("equal", adjustable="box")
    return ax


def _plane(X: np.ndarray, ax: Axes | None, resolution: int) -> tuple[Axes, tuple[np.ndarray, ...], tuple[float, ...]]:
    """What a figure of the plane starts from: its axes, a grid over the checked points ``X`` (see
    :func:`_grid`) and the grid's extent."""
    gx, gy, grid = _grid(X, resolution)
    return new_axes(ax), (gx, gy, grid), (gx.min(), gx.max(), gy.min(), gy.max())


def _finish(X: np.ndarray, y: np.ndarray, classes: np.ndarray, ax: Axes, extent: tuple[float, ...],
            title: str | None) -> Axes:
    """What a figure of the plane ends with: the points on top, the view fitted to the grid, the title."""
    _scatter(X, y, classes, ax)
    ax.set_xlim(extent[:2])
    ax.set_ylim(extent[2:])
    if title:
        ax.set_title(title, y=TITLE_Y)
    return ax


def _grid(X: np.ndarray, resolution: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    pad = 0.15 * (np.ptp(X, axis=0).max() or 1.0)
    gx, gy = np.meshgrid(np.linspace(X[:, 0].min() - pad, X[:, 0].max() + pad, resolution),
                         np.linspace(X[:, 1].min() - pad, X[:, 1].max() + pad, resolution))
    return gx, gy, np.column_stack([gx.ravel(), gy.ravel()])
