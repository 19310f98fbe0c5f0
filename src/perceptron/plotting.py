"""Figures used across the book: one function per kind of figure, each returning matplotlib objects.

The two classes have the same colours and markers on every page (Okabe-Ito blue and vermillion,
distinguishable with the common forms of colour blindness; see :mod:`perceptron._style`); geometry
is drawn with equal aspect. The proof's figures are in :mod:`perceptron.proof_plots`.
"""

from __future__ import annotations

from collections.abc import Callable

import matplotlib.pyplot as plt  # noqa: F401 - the doctests close their figures with it
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from numpy.typing import ArrayLike

from ._style import (
    ACCENT_COLOR,
    BOUNDARY_COLOR,
    CLASS_COLORS,
    CLASS_LABELS,
    CLASS_MARKERS,
    TITLE_Y,
    add_note,
    new_axes,
)
from ._ticks import plain_log_ticks, visible_ticks_only
from .margins import _max_row_norm, functional_margins


def plot_data(X: ArrayLike, y: ArrayLike, ax: Axes | None = None, *, equal: bool = True, **kwargs) -> Axes:
    """Scatter a two-feature dataset, each class in its own colour and marker.

    Points of more than two coordinates (e.g. three hidden units' values) are drawn by their first
    two, with a note saying so. Extra keyword arguments go to ``Axes.scatter`` (e.g. ``s``, ``alpha``). Axes left with
    matplotlib's default tick locator get its in-view variant (same picture, drawn faster).
    """
    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    if X.ndim != 2 or X.shape[1] < 2:
        raise ValueError(f"plot_data draws points in a plane: X must have shape (n, 2) or (n, d > 2), got {X.shape}")
    if len(y) != len(X):
        raise ValueError(f"X has {len(X)} points but y has {len(y)} labels")
    ax = new_axes(ax)
    if X.shape[1] > 2:  # e.g. a hidden layer of more than two units: show the first two coordinates
        add_note(ax, f"coordinates 1 and 2 of {X.shape[1]} shown")
        X = X[:, :2]
    visible_ticks_only(ax.xaxis)
    visible_ticks_only(ax.yaxis)
    style = {"s": 28, "edgecolors": "white", "linewidths": 0.6, "zorder": 3} | kwargs
    for label in (1, -1):
        pts = X[y == label]
        ax.scatter(pts[:, 0], pts[:, 1], c=CLASS_COLORS[label], marker=CLASS_MARKERS[label],
                   label=CLASS_LABELS[label], **style)
    ax.set_xlabel("x\u2081")
    ax.set_ylabel("x\u2082")
    if equal:
        ax.set_aspect("equal", adjustable="datalim")
    return ax


def _line_points(w: np.ndarray, b: float, xlim: tuple[float, float], ylim: tuple[float, float]) -> np.ndarray | None:
    """Two points of the line w.x + b = 0 spanning the box, or None if it misses the box."""
    w1, w2 = float(w[0]), float(w[1])
    if w1 == 0.0 and w2 == 0.0:
        return None
    if abs(w2) >= abs(w1):
        xs = np.array(xlim)
        return np.column_stack([xs, -(b + w1 * xs) / w2])
    ys = np.array(ylim)
    return np.column_stack([-(b + w2 * ys) / w1, ys])


def _half_box(w: np.ndarray, b: float, xlim: tuple[float, float], ylim: tuple[float, float]) -> np.ndarray:
    """Vertices of the view box intersected with the half-plane w.x + b >= 0 (one clipping pass)."""
    box = np.array([[xlim[0], ylim[0]], [xlim[1], ylim[0]], [xlim[1], ylim[1]], [xlim[0], ylim[1]]])
    score = box @ w + b
    out = []
    for k in range(4):
        p, q, sp, sq = box[k], box[(k + 1) % 4], score[k], score[(k + 1) % 4]
        if sp >= 0:
            out.append(p)
        if (sp >= 0) != (sq >= 0):  # the edge crosses the line: keep the crossing point
            out.append(p + (q - p) * sp / (sp - sq))
    return np.array(out).reshape(-1, 2)


def plot_hyperplane(
    w: ArrayLike,
    b: float = 0.0,
    ax: Axes | None = None,
    *,
    shade: bool = True,
    normal: bool = True,
    color: str = BOUNDARY_COLOR,
    label: str | None = "w\u00b7x + b = 0",
    linestyle: str = "-",
) -> Axes:
    """Draw the line ``w.x + b = 0`` in the current view, its normal vector and the two half-planes.

    The half-plane where ``w.x + b >= 0`` (predicted +1, including the line itself) is tinted with
    the +1 colour, the other with the -1 colour. The normal arrow starts at the point of the line
    closest to the centre of the view.

    States a changed seed or learning rate can reach are drawn, not raised: when ``w = 0``, or
    the line lies outside the view (a network whose weights shrank to 1e-19 while its bias did
    not), no line is drawn, the view is tinted with the one class predicted there, and a note on
    the axes says why; a ``w`` of more than two entries is not drawn either, with a note. Raises
    ValueError when ``w`` has fewer than two entries, or ``w`` or ``b`` is not finite.

    Examples
    --------
    >>> ax = plot_hyperplane([0.0, 0.0], 1.0)
    >>> [t.get_text() for t in ax.texts]
    ['w = 0: no boundary, every point is predicted +1']
    >>> plt.close(ax.figure)
    """
    w = np.asarray(w, dtype=float)
    if w.ndim != 1 or len(w) < 2:
        raise ValueError(f"plot_hyperplane draws lines in the plane: w must have 2 entries, got shape {w.shape}")
    if not (np.all(np.isfinite(w)) and np.isfinite(b)):
        raise ValueError(f"w and b must be finite to draw a boundary, got w = {w}, b = {b}")
    ax = new_axes(ax)
    ax.autoscale_view()
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    if len(w) > 2:
        add_note(ax, f"w has {len(w)} entries: its boundary is not a line in this plane, not drawn")
        return ax
    b = float(b)
    largest = float(np.max(np.abs(w)))
    norm = largest * float(np.linalg.norm(w / largest)) if largest > 0 else 0.0  # no underflow for |w| ~ 1e-300
    centre = np.array([sum(xlim) / 2, sum(ylim) / 2])
    half_diagonal = 0.5 * float(np.hypot(xlim[1] - xlim[0], ylim[1] - ylim[0]))
    unit = w / norm if norm > 0 else w
    offset = float(unit @ centre) + b / norm if norm > 0 else np.inf  # signed distance of the centre
    if norm == 0 or abs(offset) > half_diagonal:  # no line in view: one class everywhere
        sign = 1 if (b >= 0 if norm == 0 else offset >= 0) else -1
        if shade:
            ax.fill([xlim[0], xlim[1], xlim[1], xlim[0]], [ylim[0], ylim[0], ylim[1], ylim[1]],
                    color=CLASS_COLORS[sign], alpha=0.12, lw=0, zorder=0)
        if norm == 0:
            add_note(ax, f"w = 0: no boundary, every point is predicted {sign:+d}")
        else:
            add_note(ax, f"boundary outside this view (|w| = {norm:.1e}): every point here is predicted {sign:+d}")
        ax.set_xlim(xlim)
        ax.set_ylim(ylim)
        return ax
    if shade:
        for sign in (1, -1):
            region = _half_box(sign * unit, sign * b / norm, xlim, ylim)
            if len(region) >= 3:
                ax.fill(region[:, 0], region[:, 1], color=CLASS_COLORS[sign], alpha=0.12, lw=0, zorder=0)
    pts = _line_points(unit, b / norm, xlim, ylim)
    if pts is not None:
        ax.plot(pts[:, 0], pts[:, 1], color=color, linestyle=linestyle, lw=1.8, label=label, zorder=2)
        if normal:
            # Anchor the arrow at the point of the line nearest the centre of the view (the point
            # nearest the origin may lie far outside it, e.g. for data measured in centimetres).
            foot = centre - offset * unit
            scale = 0.25 * min(xlim[1] - xlim[0], ylim[1] - ylim[0])
            tip = unit * scale
            ax.annotate("", xy=foot + tip, xytext=foot,
                        arrowprops={"arrowstyle": "-|>", "color": color, "lw": 1.5}, zorder=4)
            ax.text(*(foot + 1.12 * tip), "w", color=color, ha="center", va="center", style="italic")
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return ax


def plot_margin_band(w: ArrayLike, b: float, gamma: float, ax: Axes | None = None, *, color: str = ACCENT_COLOR) -> Axes:
    """Draw the two lines at geometric distance ``gamma`` on either side of ``w.x + b = 0``."""
    w = np.asarray(w, dtype=float)
    ax = new_axes(ax)
    norm = float(np.linalg.norm(w))
    if norm == 0.0:
        raise ValueError("w is the zero vector: there is no hyperplane to draw a margin around")
    xlim, ylim = ax.get_xlim(), ax.get_ylim()
    for sign in (1, -1):
        pts = _line_points(w, b - sign * gamma * norm, xlim, ylim)
        if pts is not None:
            ax.plot(pts[:, 0], pts[:, 1], color=color, lw=1.2, linestyle="--",
                    label="margin band" if sign == 1 else None, zorder=2)
    ax.set_xlim(xlim)
    ax.set_ylim(ylim)
    return ax


def plot_classifier(
    X: ArrayLike,
    y: ArrayLike,
    w: ArrayLike,
    b: float = 0.0,
    ax: Axes | None = None,
    *,
    title: str | None = None,
    highlight: int | None = None,
    legend: bool = True,
) -> Axes:
    """Data, decision boundary, half-planes and normal of a linear classifier in one picture.

    ``highlight`` rings one sample (e.g. the one that just triggered an update).
    """
    ax = plot_data(X, y, ax)
    X = np.asarray(X, dtype=float)
    pad = 0.15 * (np.ptp(X, axis=0).max() or 1.0)
    ax.set_xlim(X[:, 0].min() - pad, X[:, 0].max() + pad)
    ax.set_ylim(X[:, 1].min() - pad, X[:, 1].max() + pad)
    ax.set_aspect("equal", adjustable="box")
    plot_hyperplane(w, b, ax)
    if highlight is not None:
        ax.scatter(*X[highlight], s=180, facecolors="none", edgecolors=BOUNDARY_COLOR, linewidths=1.8,
                   zorder=5, label="updated on")
    if title:
        ax.set_title(title, y=TITLE_Y)
    if legend:
        ax.legend(loc="best", fontsize="small", framealpha=0.85)
    return ax


def plot_decision_regions(
    predict_fn: Callable[[np.ndarray], np.ndarray],
    X: ArrayLike,
    y: ArrayLike,
    ax: Axes | None = None,
    *,
    resolution: int = 200,
    title: str | None = None,
) -> Axes:
    """Tint the plane by ``predict_fn`` (any classifier, e.g. a kernel perceptron) and scatter the data.

    Raises ValueError when the points do not have two coordinates (no picture in the plane)."""
    X = np.asarray(X, dtype=float)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"plot_decision_regions tints the plane: X must have shape (n, 2), got {X.shape}")
    ax = new_axes(ax)
    pad = 0.15 * (np.ptp(X, axis=0).max() or 1.0)
    gx, gy = np.meshgrid(np.linspace(X[:, 0].min() - pad, X[:, 0].max() + pad, resolution),
                         np.linspace(X[:, 1].min() - pad, X[:, 1].max() + pad, resolution))
    z = np.asarray(predict_fn(np.column_stack([gx.ravel(), gy.ravel()]))).reshape(gx.shape)
    ax.contourf(gx, gy, z, levels=[-1.5, 0, 1.5], colors=[CLASS_COLORS[-1], CLASS_COLORS[1]], alpha=0.15, zorder=0)
    ax.contour(gx, gy, z, levels=[0], colors=[BOUNDARY_COLOR], linewidths=1.5, zorder=1)
    plot_data(X, y, ax)
    if title:
        ax.set_title(title, y=TITLE_Y)
    return ax


def figure_of(ax: Axes) -> Figure:
    """The figure an axes belongs to (convenience for widget draw functions)."""
    return ax.get_figure()  # type: ignore[return-value]


def plot_weight_image(
    w: ArrayLike,
    shape: tuple[int, int] = (8, 8),
    ax: Axes | None = None,
    *,
    title: str | None = None,
    colorbar: bool = True,
) -> Axes:
    """Show a weight vector as an image, e.g. the 64 pixel weights of an 8x8 digit.

    The colour scale is symmetric around 0, which is white: positive weights (evidence for
    the +1 class) shade towards the +1 colour, negative ones towards the -1 colour, so the
    picture reads the same way as the scatter plots.

    Parameters
    ----------
    w : array_like of shape (shape[0] * shape[1],)
        The weights, in row-major pixel order (as ``image.ravel()`` gives them).
    shape : tuple of int, default (8, 8)
        Rows and columns of the image.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.
    title : str, optional
    colorbar : bool, default True
        Add a colour bar labelled "weight".

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        When ``w`` does not hold ``shape[0] * shape[1]`` finite numbers.

    Examples
    --------
    >>> ax = plot_weight_image(np.linspace(-1.0, 1.0, 64))
    >>> [float(v) for v in ax.images[0].get_clim()]
    [-1.0, 1.0]
    >>> plt.close(ax.figure)
    """
    from matplotlib.colors import LinearSegmentedColormap

    w = np.asarray(w, dtype=float)
    rows, cols = shape
    if w.shape != (rows * cols,) or not np.all(np.isfinite(w)):
        raise ValueError(f"w must hold {rows * cols} finite weights for a {rows}x{cols} image, got shape {w.shape}")
    ax = new_axes(ax, size=(3.2, 2.8))
    # An odd number of colours puts one entry exactly at the middle, so 0 is drawn pure white.
    cmap = LinearSegmentedColormap.from_list("class_weights", [CLASS_COLORS[-1], "white", CLASS_COLORS[1]], N=255)
    top = float(np.max(np.abs(w))) or 1.0  # all-zero weights: any symmetric scale shows white
    image = ax.imshow(w.reshape(shape), cmap=cmap, vmin=-top, vmax=top, interpolation="nearest")
    ax.set_xticks([])
    ax.set_yticks([])
    if title:
        ax.set_title(title, y=TITLE_Y)
    if colorbar:
        ax.figure.colorbar(image, ax=ax, label="weight", shrink=0.85)
    return ax


def plot_margin(
    X: ArrayLike,
    y: ArrayLike,
    w: ArrayLike,
    b: float = 0.0,
    ax: Axes | None = None,
    *,
    title: str | None = None,
    legend: bool = True,
    rtol: float = 1e-7,
) -> Axes:
    """A separator with its margin band and its closest points ringed (the support vectors).

    Draws :func:`plot_classifier`, then the band of half-width ``gamma = min_i y_i (w.x_i + b) /
    ||w||`` around the line (only when ``gamma > 0``: a hyperplane that misclassifies a point has
    no band) and rings every point whose geometric margin is within ``rtol * R`` of the smallest,
    with ``R = max_i ||x_i||``. For the maximum-margin hyperplane the ringed points are its
    support vectors; for a misclassifying line they are the worst offenders.

    Parameters
    ----------
    X : array_like of shape (n_samples, 2)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    w : array_like of shape (2,), non-zero
    b : float, default 0.0
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.
    title : str, optional
    legend : bool, default True
    rtol : float, default 1e-7
        Relative tolerance (in units of ``R``) for a point to count as closest.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        On invalid data or a zero ``w`` (from :func:`perceptron.geometric_margin`).

    Examples
    --------
    >>> ax = plot_margin([[2.0, 0.0], [0.0, 0.0], [3.0, 1.0]], [1, -1, 1], [1.0, 0.0], -1.0)
    >>> len(ax.collections[-1].get_offsets())  # the two points at distance 1 are ringed
    2
    >>> plt.close(ax.figure)
    """
    w = np.asarray(w, dtype=float)
    margins = functional_margins(X, y, w, b)
    norm = float(np.linalg.norm(w))
    if norm == 0.0:
        raise ValueError("w is the zero vector: it defines no hyperplane, so there is no margin to draw")
    distances = margins / norm
    gamma = float(distances.min())
    ax = plot_classifier(X, y, w, b, ax, title=title, legend=False)
    if gamma > 0:
        plot_margin_band(w, b, gamma, ax)
    Xa = np.asarray(X, dtype=float)  # checked by functional_margins above
    closest = Xa[distances <= gamma + rtol * _max_row_norm(Xa)]
    ax.scatter(closest[:, 0], closest[:, 1], s=170, facecolors="none", edgecolors=BOUNDARY_COLOR,
               linewidths=1.5, zorder=5, label="closest points")
    if legend:
        ax.legend(loc="best", fontsize="small", framealpha=0.85)
    return ax


__all__ = [
    "ACCENT_COLOR",
    "BOUNDARY_COLOR",
    "CLASS_COLORS",
    "CLASS_LABELS",
    "CLASS_MARKERS",
    "add_note",
    "figure_of",
    "new_axes",
    "plain_log_ticks",
    "plot_classifier",
    "plot_data",
    "plot_decision_regions",
    "plot_hyperplane",
    "plot_margin",
    "plot_margin_band",
    "plot_weight_image",
]
