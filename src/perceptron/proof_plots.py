"""Figures of the convergence proof (chapter 5), drawn from :func:`perceptron.proof_quantities`."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from ._style import BOUNDARY_COLOR, CLASS_COLORS, TITLE_Y, new_axes
from ._ticks import plain_log_ticks
from .proof import ProofQuantities


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
    ax.loglog(q.k, q.alignment, "o", ms=3, color=CLASS_COLORS[-1], label="w*·w_k (measured)")
    ax.loglog(q.k, np.sqrt(q.sq_norm), "s", ms=3, color=CLASS_COLORS[1], label="‖w_k‖ (measured)")
    ax.axvline(q.bound, color=BOUNDARY_COLOR, ls="--", lw=1, label="k = (R/γ)²")
    plain_log_ticks(ax)
    ax.set_xlabel("update k")
    ax.set_ylabel("alignment and length (÷ η)")
    ax.set_title(f"{len(q.k)} mistakes, bound {q.bound:.0f}", y=TITLE_Y)
    if legend:
        ax.legend(loc="upper left", fontsize="x-small", framealpha=0.85)
    return ax


def plot_proof_inequalities(q: ProofQuantities, *, title: str | None = None) -> Figure:
    """Three panels, one per inequality of the convergence proof, along a recorded run.

    ``||w_k||^2 <= k R^2`` (left), ``u.w_k >= k g`` (middle) and ``sqrt(k) g / R <= cos theta_k <= 1``
    (right), with the measured sequence in the +1 colour and the proved bound in the -1 colour.

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
    >>> [ax.get_legend().get_texts()[1].get_text() for ax in fig.axes]
    ['k R²', 'k γ', '√k γ / R']
    >>> plt.close(fig)
    """
    fig, axes = plt.subplots(1, 3, figsize=(10.5, 3.1))
    fig.subplots_adjust(left=0.06, right=0.99, bottom=0.17, top=0.86, wspace=0.3)
    panels = [(q.sq_norm, q.sq_norm_bound, "‖w_k‖² / η²", "k R²"),
              (q.alignment, q.alignment_bound, "w*·w_k / η", "k γ"),
              (q.cosine, q.cosine_bound, "cos θ_k", "√k γ / R")]
    for ax, (measured, bound, name, bound_name) in zip(axes, panels):
        ax.plot(q.k, measured, "o-", ms=3, color=CLASS_COLORS[1], label=name)
        ax.plot(q.k, bound, color=CLASS_COLORS[-1], label=bound_name)
        ax.set_xlabel("update k")
        ax.set_ylabel(name)
        ax.legend(fontsize="small")
    axes[2].axhline(1, color=BOUNDARY_COLOR, ls="--", lw=1)
    if title:
        fig.suptitle(title)
    return fig
