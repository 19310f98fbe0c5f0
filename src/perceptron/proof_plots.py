"""Figures of the convergence proof (chapter 5), drawn from :func:`perceptron.proof_quantities`, and
the picture of the augmented margin that the bound for the default bias uses."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ._style import BOUNDARY_COLOR, CLASS_COLORS, TITLE_Y, new_axes
from ._ticks import plain_log_ticks
from ._validation import check_scalar, check_study, check_w, check_Xy
from .proof import ProofQuantities

_LARGE = 12  # points: type that stays legible where a wide figure is shrunk to a column or a phone
_PHONE = 10.5  # points: at least 10 px where a figure 4.8 in wide is shown 340 px wide


def whole_bound(bound: float) -> int:
    """The largest whole number of updates a real bound ``(R/g)^2`` allows: ``floor(bound)``, with a
    relative tolerance of 1e-9 for the rounding of a bound that is a whole number in exact arithmetic.

    >>> whole_bound(681.6), whole_bound(2.0), whole_bound(1.9999999999999998)
    (681, 2, 2)
    """
    return int(np.floor(bound * (1 + 1e-9)))


def plot_proof_race(
    q: ProofQuantities, ax: Axes | None = None, *, legend: bool = True, scale: str = "log"
) -> Axes:
    """The convergence proof as a race of two lengths, from :func:`perceptron.proof_quantities`.

    Draws the proved lower bound ``k g`` on the alignment and the proved upper bound ``sqrt(k) R``
    on the length (crossing at ``k = (R/g)^2``, marked by a dashed vertical line), and the
    measured alignment ``u.w_k`` and length ``||w_k||`` of the run, all divided by the learning
    rate. The measured points must stay between the two bounds. On log-log axes the bounds are
    lines of slope 1 and 1/2 and every update is legible; on linear axes (from ``k = 0``) the
    bound ``k g`` is a straight line, ``sqrt(k) R`` a curve that rises ever more slowly, and a
    run that stops early is a cluster at the left, far from the crossing, with an arrow where it
    stops.

    Parameters
    ----------
    q : ProofQuantities
        What :func:`perceptron.proof_quantities` returns for a recorded run.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.
    legend : bool, default True
    scale : {"log", "linear"}, default "log"
        The scale of both axes.

    Returns
    -------
    matplotlib.axes.Axes

    Raises
    ------
    ValueError
        If ``scale`` is neither ``"log"`` nor ``"linear"``.

    Examples
    --------
    >>> from perceptron import proof_quantities, train
    >>> X, y = [[1.0, 0.0], [0.0, 1.0], [-0.5, -0.5]], [1, 1, -1]
    >>> q = proof_quantities(X, y, train(X, y, bias="none", record=True), bias="none")
    >>> ax = plot_proof_race(q)
    >>> ax.get_title()
    '2 mistakes, bound 2'
    >>> plt.close(ax.figure)
    """
    if scale not in ("log", "linear"):
        raise ValueError(f"scale must be 'log' or 'linear', got {scale!r}")
    ax = new_axes(ax, size=(5.6, 3.8))
    if scale == "log":
        k = np.geomspace(1, 1.6 * max(q.bound, 1.0), 100)
    else:
        k = np.linspace(0, 1.15 * max(q.bound, 1.0), 400)
    ax.plot(k, k * q.margin, color=CLASS_COLORS[-1], label="kγ (proved lower bound)")
    ax.plot(k, np.sqrt(k) * q.radius, color=CLASS_COLORS[1], label="√k R (proved upper bound)")
    # the length as open squares under the alignment's dots: the two nearly coincide once the run
    # points the right way, and filled squares hid the dots
    ax.plot(q.k, np.sqrt(q.sq_norm), "s", ms=5, mfc="none", mew=1, color=CLASS_COLORS[1],
            label="‖w_k‖ (measured)")
    ax.plot(q.k, q.alignment, "o", ms=2.5, color=CLASS_COLORS[-1], label="u·w_k (measured)")
    ax.axvline(q.bound, color=BOUNDARY_COLOR, ls="--", lw=1, label="k = (R/γ)²")
    if scale == "log":
        ax.set_xscale("log")
        ax.set_yscale("log")
        plain_log_ticks(ax)
    else:
        ax.set_xlim(0, k[-1])
        ax.set_ylim(0, None)
        if len(q.k):  # where the run stopped, which a cluster at the left hides
            last = (q.k[-1], np.sqrt(q.sq_norm[-1]))
            ax.annotate(f"the run stops\nafter {len(q.k)} updates", last, xytext=(0.3, 0.16),
                        textcoords="axes fraction", fontsize="small",
                        arrowprops={"arrowstyle": "->", "color": BOUNDARY_COLOR})
    ax.set_xlabel("update k")
    ax.set_ylabel("alignment and length, divided by η")
    # The theorem's bound on a whole number of updates is floor((R/g)^2), never the rounded (R/g)^2
    # (681.6 allows 681 updates, not 682); the tolerance keeps an exact 2 from rounding down to 1.
    ax.set_title(f"{len(q.k)} mistakes, bound {whole_bound(q.bound)}", y=TITLE_Y)
    if legend:
        ax.legend(loc="upper left", fontsize="x-small", framealpha=0.85)
    return ax


def plot_proof_inequalities(q: ProofQuantities, *, title: str | None = None) -> Figure:
    """Three panels, one per inequality of the convergence proof, along a recorded run.

    ``||w_k||^2 <= k R^2`` (top), ``u.w_k >= k g`` (middle) and ``sqrt(k) g / R <= cos theta_k <= 1``
    (bottom), each panel titled with its inequality, with the measured sequence in the +1 colour
    and the proved bound in the -1 colour. In the bottom panel the legend names the curves: what
    limits the number of updates is the lower bound, which grows like sqrt(k) and cannot pass the
    cap at 1, not the measured cosine, which may be close to 1 from the start. The panels are
    stacked and share the axis of updates, with large type, so that the figure stays legible where
    it is shrunk to a narrow column or a phone's width.

    Parameters
    ----------
    q : ProofQuantities
        What :func:`perceptron.proof_quantities` returns for a recorded run.
    title : str, optional
        Figure title.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> from perceptron import proof_quantities, train
    >>> X, y = [[1.0, 0.0], [0.0, 1.0], [-0.5, -0.5]], [1, 1, -1]
    >>> q = proof_quantities(X, y, train(X, y, bias="none", record=True), bias="none")
    >>> fig = plot_proof_inequalities(q, title="tight")
    >>> len(fig.axes), [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    (3, ['measured', 'proved bound'])
    >>> [t.get_text() for t in fig.axes[2].get_legend().get_texts()]
    ['measured $\\\\cos \\\\theta_k$', 'lower bound $\\\\sqrt{k}\\\\, \\\\gamma / R$', 'cap $\\\\cos \\\\theta_k \\\\leq 1$']
    >>> fig.axes[2].get_xlabel()
    'update k'
    >>> plt.close(fig)
    """
    fig, axes = plt.subplots(3, 1, figsize=(5.2, 6.6), sharex=True, layout="constrained")
    # (measured, bound, y-axis label, the inequality), all divided by the learning rate
    # The bottom legend names its curves: the measured cosine is near 1 early on, and what caps the
    # number of updates is the proved lower bound, which rises with k and may never pass 1.
    panels = [(q.sq_norm, q.sq_norm_bound, r"$\|w_k\|^2 / \eta^2$", r"$\|w_k\|^2 \leq k R^2$",
               "measured", "proved bound"),
              (q.alignment, q.alignment_bound, r"$u \cdot w_k / \eta$", r"$u \cdot w_k \geq k \gamma$",
               "measured", "proved bound"),
              (q.cosine, q.cosine_bound, r"$\cos \theta_k$", r"$\sqrt{k}\, \gamma / R \leq \cos \theta_k \leq 1$",
               r"measured $\cos \theta_k$", r"lower bound $\sqrt{k}\, \gamma / R$")]
    for ax, (measured, bound, name, inequality, measured_label, bound_label) in zip(axes, panels):
        ax.plot(q.k, measured, "o-", ms=3.5, color=CLASS_COLORS[1], label=measured_label)
        ax.plot(q.k, bound, lw=2, color=CLASS_COLORS[-1], label=bound_label)
        ax.set_ylabel(name, fontsize=_LARGE)
        ax.set_title(inequality, fontsize=_LARGE, loc="left", y=TITLE_Y)
        ax.tick_params(labelsize=_LARGE)
    axes[2].axhline(1, color=CLASS_COLORS[-1], ls="--", lw=1.5, label=r"cap $\cos \theta_k \leq 1$")
    axes[2].set_ylim(top=1.12)  # room above the cap at 1
    axes[2].set_xlabel("update k", fontsize=_LARGE)
    axes[2].xaxis.set_major_locator(MaxNLocator(integer=True, steps=[1, 2, 5, 10]))
    for ax in axes:
        ax.legend(fontsize=_LARGE, framealpha=0.85, handlelength=1.6,
                  loc="center right" if ax is axes[2] else "upper left",
                  bbox_to_anchor=(1, 0.55) if ax is axes[2] else None)
    if title:
        fig.suptitle(title, fontsize=_LARGE)
    return fig


def plot_bound_study(study: np.ndarray, prescribed: np.ndarray, medians: np.ndarray) -> Figure:
    """Mistakes against the bound over many datasets (left), and the median ratio per margin (right).

    Left, one dot per dataset at (bound ``(R/gamma*_0)^2``, mistakes ``M``) on log-log axes,
    coloured by the log10 of its prescribed margin, with the diagonal ``mistakes = bound``
    dashed; right, the median of mistakes/bound against the prescribed margin (log axis,
    shrinking margins to the right).

    Parameters
    ----------
    study : array of shape (n, 3)
        One row per dataset: prescribed margin, mistakes, bound.
    prescribed, medians : array of shape (m,)
        The prescribed margins and the median of mistakes/bound at each.

    Returns
    -------
    matplotlib.figure.Figure
        Two panels and a colour bar.
    """
    from ._style import ACCENT_COLOR

    study = check_study(study)
    prescribed, medians = np.asarray(prescribed, dtype=float), np.asarray(medians, dtype=float)
    if prescribed.shape != medians.shape or prescribed.ndim != 1:
        raise ValueError(f"prescribed and medians must be 1-D of one length, got {prescribed.shape}, {medians.shape}")
    fig, (ax, ax2) = plt.subplots(1, 2, figsize=(10, 3.8), layout="constrained")
    dots = ax.scatter(study[:, 2], study[:, 1], c=np.log10(study[:, 0]), cmap="viridis", s=14)
    line = np.array([1, study[:, 2].max()])
    ax.loglog(line, line, color=BOUNDARY_COLOR, ls="--", lw=1, label="mistakes = bound")
    ax.set(xlabel=r"bound $(R/\gamma^\star_0)^2$", ylabel="mistakes $M$", title="one dot per dataset")
    ax.legend(fontsize="small")
    fig.colorbar(dots, ax=ax, label="log10 prescribed margin")
    ax2.semilogx(prescribed, medians, "o-", color=ACCENT_COLOR)
    ax2.set(xlabel="prescribed margin", ylabel="median mistakes / bound",
            title="looser, overall, as the margin shrinks")
    ax2.invert_xaxis()
    return fig


def race_slider(races: dict, study: np.ndarray, *, initial: int = 0):
    """Chapter 5's slider: for each prescribed margin, the proof's race of one run (left) and where
    the datasets of that margin sit among all of them (right, the run on the left ringed).

    Parameters
    ----------
    races : dict
        ``{margin: ProofQuantities}``, the slider positions in order; each margin must be one of
        ``study``'s prescribed margins.
    study : array of shape (n, 3)
        One row per dataset: prescribed margin, mistakes, bound.
    initial : int, default 0
        Index of the margin shown first.

    Returns
    -------
    perceptron.widgets.SliderFigure
        One frame per margin.
    """
    from ._style import ACCENT_COLOR
    from .widgets import SliderFigure

    study = check_study(study)
    missing = [m for m in races if not np.any(study[:, 0] == m)]
    if missing:
        raise ValueError(f"races has margins with no dataset in study: {missing}")
    bound, made = study[:, 2], study[:, 1]
    line = np.array([1, bound.max()])

    def draw(m: float) -> Figure:
        q, here = races[m], study[:, 0] == m
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(9.6, 4.8))
        fig.subplots_adjust(left=0.07, right=0.98, bottom=0.33, top=0.93, wspace=0.22)
        plot_proof_race(q, ax, legend=False)
        ax2.loglog(bound[~here], made[~here], ".", color="0.7", label="other margins")
        ax2.loglog(bound[here], made[here], "o", color=ACCENT_COLOR, ms=5,
                   label=f"the {here.sum()} at margin {m:.3g}")
        ax2.loglog(q.bound, len(q.k), "o", ms=13, mfc="none", mec=BOUNDARY_COLOR, mew=1.5,
                   label="the run on the left")
        ax2.loglog(line, line, color=BOUNDARY_COLOR, ls="--", lw=1, label="mistakes = bound")
        ax2.set(xlabel="bound (R/γ*₀)²", ylabel="mistakes", title=f"{len(study)} datasets")
        plain_log_ticks(ax2)
        for a in (ax, ax2):  # each panel's legend below it
            a.legend(loc="upper center", bbox_to_anchor=(0.5, -0.17), ncols=2, fontsize=10,
                     handlelength=1.5, columnspacing=1, frameon=False)
        return fig

    def describe(m: float) -> str:
        q, here = races[m], study[study[:, 0] == m]
        return (f"Prescribed margin {m:.3g}. Left: the proof's race for the "
                f"middle one of its {len(here)} datasets by mistakes/bound, {len(q.k)} "
                f"updates, bound {q.bound:.1f}. Right: mistakes against the "
                f"bound for all {len(study)} datasets, the {len(here)} at this margin highlighted "
                f"({here[:, 1].min():g} to {here[:, 1].max():g} mistakes) and the "
                f"left one ringed, all below the diagonal mistakes = bound.")

    return SliderFigure(draw, list(races), name="prescribed margin", fmt="{:.3g}", initial=initial, alt=describe)


def plot_lifted_margin(X, y, w, b: float) -> Figure:
    """Points of the plane lifted to height 1, ``(x_i, 1)``, with the plane through the origin of
    normal ``(w, b)`` and the line ``w.x + b = 0`` where that plane cuts the sheet ``z = 1``.

    Top, in 3-D (height stretched so that the tilt shows): the sheet of lifted points, the plane
    and the line. Bottom, the same seen along the line, at equal scale (the plane and the line are
    unchanged along it, so every distance shows at its true length): the sheet and the plane are
    lines there, and the closest point's two distances form a right triangle, its distance to the
    plane ``y_i (w.x_i + b) / sqrt(||w||^2 + b^2)`` a side and its distance to the line in the sheet
    ``y_i (w.x_i + b) / ||w||`` the hypotenuse. The first is the margin of the lifted points under
    that plane; its largest value over all planes through the origin is the augmented margin of
    chapter 5's bound for ``bias="one"``. It is smaller (strictly when ``b != 0``): the plane is tilted.

    Parameters
    ----------
    X : array_like of shape (n_samples, 2)
    y : array_like of shape (n_samples,), labels in {-1, +1}
    w : array_like of shape (2,), non-zero
    b : float
        A line ``w.x + b = 0`` that separates the data, e.g. that of :func:`perceptron.max_margin`.

    Returns
    -------
    matplotlib.figure.Figure
        Two axes, the 3-D view and the side view; in the side view the two distances are lines
        labelled "to the plane: ..." and "to the line: ...".

    Raises
    ------
    ValueError
        On invalid data, a zero ``w`` (the plane would be parallel to the sheet and cut no line),
        or a line that does not separate the data (it has no margin to draw).

    Examples
    --------
    >>> fig = plot_lifted_margin([[2.0, 0.0], [-2.0, 0.0]], [1, -1], [1.0, 0.0], 0.0)
    >>> [t.get_text() for t in fig.axes[1].get_legend().get_texts()]
    ['the line, seen end-on', 'to the plane: 2.00', 'to the line: 2.00']
    >>> fig = plot_lifted_margin([[2.0, 0.0], [0.0, 0.0]], [1, -1], [1.0, 0.0], -1.0)
    >>> [t.get_text() for t in fig.axes[1].get_legend().get_texts()]  # 1 / sqrt(2): tilted
    ['the line, seen end-on', 'to the plane: 0.71', 'to the line: 1.00']
    >>> plt.close("all")
    """
    from matplotlib.patches import Patch

    from ._style import ACCENT_COLOR, CLASS_LABELS, CLASS_MARKERS

    X, y = check_Xy(X, y, plane=True)
    w, b = check_w(w, 2), check_scalar(b, "b")
    norm_w = float(np.hypot(*w))
    if norm_w == 0.0:
        raise ValueError("w is the zero vector: the plane with normal (0, 0, b) is parallel to the sheet z = 1 "
                         "and cuts no line in it")
    scores = y * (X @ w + b)
    if scores.min() <= 0:
        raise ValueError(f"the line w.x + b = 0 does not separate the data: {int(np.sum(scores <= 0))} points have "
                         "y (w.x + b) <= 0, so it has no margin to draw")
    norm = float(np.hypot(norm_w, b))
    i = int(np.argmin(scores))
    fig = plt.figure(figsize=(4.8, 6.2))
    ax = fig.add_axes((0.0, 0.37, 1.0, 0.56), projection="3d")
    side = fig.add_axes((0.15, 0.08, 0.8, 0.27))
    lo, hi = float(X.min()) - 0.5, float(X.max()) + 0.5
    grid = np.array([lo, hi])
    ax.plot_surface(*np.meshgrid(grid, grid), np.ones((2, 2)), color="0.6", alpha=0.18, shade=False)
    # The plane as a strip from z = 0 (the origin's height) to z = 2, spanned by the line's direction
    # ``along`` and by ``up``, the steepest direction up the plane (its z component ||w|| / norm > 0).
    along = np.array([-w[1], w[0], 0.0]) / norm_w
    up = np.append(-b * w / norm_w, norm_w) / norm
    s, t = np.meshgrid(np.array([-1.0, 1.0]) * (hi - lo) / 2, np.array([0.0, 2.0 / up[2]]))
    strip = s[..., None] * along + t[..., None] * up
    ax.plot_surface(*strip.transpose(2, 0, 1), color=ACCENT_COLOR, alpha=0.25, shade=False)
    middle = np.append(-b * w / norm_w**2, 1.0)
    ax.plot(*(middle + np.outer([-1.0, 1.0], along) * (hi - lo) / 2).T, color=BOUNDARY_COLOR, lw=2)
    ax.plot([0], [0], [0], "k+", ms=9, mew=2)
    # Side view: the coordinate across the line, a = w.x / ||w||, and the height z.
    across = X @ w / norm_w
    for label in (1, -1):
        pts, style = X[y == label], {"ls": "none", "marker": CLASS_MARKERS[label], "color": CLASS_COLORS[label],
                                     "mec": "white", "mew": 0.5, "ms": 5}
        ax.plot(pts[:, 0], pts[:, 1], np.ones(len(pts)), **style)
        side.plot(across[y == label], np.ones(len(pts)), **style)
    ax.set(zlim=(0, 2), xlim=(lo, hi), ylim=(lo, hi))
    for name, label in (("x", "x\u2081"), ("y", "x\u2082"), ("z", "z")):
        getattr(ax, f"set_{name}label")(label, fontsize=_PHONE)
    ax.set_box_aspect((1, 1, 0.55))
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_locator(MaxNLocator(4, integer=True))
    ax.set_zticks([0, 1, 2])
    ax.view_init(elev=16, azim=-35)
    cross = -b / norm_w                          # where the line crosses the side view's sheet
    seen = np.array([cross - 2.0, cross + 2.0])
    side.plot(seen, [1, 1], color="0.55", lw=6, alpha=0.35, solid_capstyle="butt")
    up2 = np.array([-b, norm_w]) / norm
    side.plot(*np.outer([-0.3 / up2[1], 2.0 / up2[1]], up2).T, color=ACCENT_COLOR, lw=6, alpha=0.45,
              solid_capstyle="butt")
    side.plot([cross], [1], "o", ms=7, color=BOUNDARY_COLOR, label="the line, seen end-on")
    side.plot([0], [0], "k+", ms=9, mew=2)
    point = np.array([across[i], 1.0])
    foot = point - scores[i] * y[i] * np.array([norm_w, b]) / norm**2
    side.plot(*np.array([point, foot]).T, color=ACCENT_COLOR, lw=2.5, label=f"to the plane: {scores[i] / norm:.2f}")
    side.plot([point[0], cross], [1, 1], color=BOUNDARY_COLOR, lw=1.5, ls=":",
              label=f"to the line: {scores[i] / norm_w:.2f}")
    side.set(xlim=seen, ylim=(-0.3, 1.9), aspect="equal")
    side.set_xlabel("across the line: w·x / ‖w‖", fontsize=_PHONE)
    side.set_ylabel("z", fontsize=_PHONE)
    side.set_title("seen along the line, true lengths", fontsize=_PHONE)
    side.legend(loc="lower left", fontsize=_PHONE, framealpha=0.85, handlelength=1.5)
    for axes in (ax, side):
        axes.tick_params(labelsize=_PHONE)
    handles = [Patch(color="0.6", alpha=0.35), Patch(color=ACCENT_COLOR, alpha=0.45),
               plt.Line2D([], [], color=BOUNDARY_COLOR, lw=2), plt.Line2D([], [], color="k", marker="+", ls="none",
                                                                       ms=9, mew=2)]
    handles += [plt.Line2D([], [], ls="none", marker=CLASS_MARKERS[c], color=CLASS_COLORS[c]) for c in (1, -1)]
    labels = ["sheet z = 1", "plane, normal (w, b)", "line w·x + b = 0", "origin", f"(x, 1), {CLASS_LABELS[1]}",
              f"(x, 1), {CLASS_LABELS[-1]}"]
    fig.legend(handles, labels, loc="upper center", ncols=2, fontsize=_PHONE, frameon=False, borderaxespad=0.2,
               handlelength=1.5, columnspacing=1.2)
    return fig
