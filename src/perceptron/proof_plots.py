"""Figures of the convergence proof (chapter 5), drawn from :func:`perceptron.proof_quantities`."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

from ._style import BOUNDARY_COLOR, CLASS_COLORS, TITLE_Y, new_axes
from ._ticks import plain_log_ticks
from ._validation import check_study
from .proof import ProofQuantities

_LARGE = 12  # points: type that stays legible where a wide figure is shrunk to a column or a phone


def whole_bound(bound: float) -> int:
    """The largest whole number of updates a real bound ``(R/g)^2`` allows: ``floor(bound)``, with a
    relative tolerance of 1e-9 for the rounding of a bound that is a whole number in exact arithmetic.

    >>> whole_bound(681.6), whole_bound(2.0), whole_bound(1.9999999999999998)
    (681, 2, 2)
    """
    return int(np.floor(bound * (1 + 1e-9)))


def plot_proof_race(q: ProofQuantities, ax: Axes | None = None, *, legend: bool = True) -> Axes:
    """The convergence proof as a race on log-log axes, from :func:`perceptron.proof_quantities`.

    Draws the proved lower bound ``k g`` on the alignment and the proved upper bound ``sqrt(k) R``
    on the length (lines of slope 1 and 1/2, crossing at ``k = (R/g)^2``, marked by a dashed
    vertical line), and the measured alignment ``u.w_k`` and length ``||w_k||`` of the run, all
    divided by the learning rate. The measured points must stay between the two lines.

    Parameters
    ----------
    q : ProofQuantities
        What :func:`perceptron.proof_quantities` returns for a recorded run.
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.
    legend : bool, default True

    Returns
    -------
    matplotlib.axes.Axes

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
    ax = new_axes(ax, size=(5.6, 3.8))
    k = np.geomspace(1, 1.6 * max(q.bound, 1.0), 100)
    ax.loglog(k, k * q.margin, color=CLASS_COLORS[-1], label="kγ (proved lower bound)")
    ax.loglog(k, np.sqrt(k) * q.radius, color=CLASS_COLORS[1], label="√k R (proved upper bound)")
    ax.loglog(q.k, q.alignment, "o", ms=3, color=CLASS_COLORS[-1], label="u·w_k (measured)")
    ax.loglog(q.k, np.sqrt(q.sq_norm), "s", ms=3, color=CLASS_COLORS[1], label="‖w_k‖ (measured)")
    ax.axvline(q.bound, color=BOUNDARY_COLOR, ls="--", lw=1, label="k = (R/γ)²")
    plain_log_ticks(ax)
    ax.set_xlabel("update k")
    ax.set_ylabel("alignment and length (÷ η)")
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
