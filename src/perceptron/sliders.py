"""The core chapters' sliders, one function per slider cell of chapters 1, 2 and 4.

Each builds the figure of one slider cell, so that the cell says what is shown (e.g.
``pc.sliders.turning_slider(X, y, best, pivot, turns)``) and the drawing lives here. Each returns a
:class:`perceptron.widgets.SliderFigure` whose ``alt`` describes every frame in words. Chapter 5's
slider, a figure of the proof, is :func:`perceptron.proof_plots.race_slider`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.figure import Figure

from ._style import ACCENT_COLOR
from ._validation import check_scalar, check_w, check_Xy
from .linear import count_errors, predict
from .margins import geometric_margin
from .plotting import plot_classifier, plot_hyperplane, plot_margin
from .widgets import SliderFigure, describe_classifier


def _errors(n: int) -> str:
    """``"1 error"``, ``"6 errors"``: a frame's count of errors, in words."""
    return f"{n} error" if n == 1 else f"{n} errors"


def unit_vector(angle: float) -> Any:
    """The unit vector of the plane at ``angle`` degrees from the first axis.

    Examples
    --------
    >>> unit_vector(90).round(12) + 0.0
    array([0., 1.])
    """
    if not np.isfinite(angle):
        raise ValueError(f"angle must be a finite number of degrees, got {angle!r}")
    return np.array([np.cos(np.radians(angle)), np.sin(np.radians(angle))])


def separating_degrees(X: Any, y: Any, b: float) -> list[int]:
    """The whole degrees ``a`` in 0..359 whose unit ``w`` (:func:`unit_vector`) with bias ``b``
    classifies every point correctly (``pc.predict``, so ``sgn(0) = +1``).

    Parameters
    ----------
    X : array-like of shape (n, 2)
    y : array-like of shape (n,), labels in {-1, +1}
    b : float
        The bias, the same for every direction.

    Returns
    -------
    list of int
        In increasing order; empty when no whole degree separates the data.
    """

    X, y = check_Xy(X, y, plane=True)
    b = check_scalar(b, "b")
    return [a for a in range(360) if not (predict(X, unit_vector(a), b) != y).any()]


def direction_slider(X: Any, y: Any, b: float, angles: Sequence[int], *, initial: int = 0) -> SliderFigure:
    """Chapter 1's slider: a unit ``w`` turned around the circle with the bias ``b`` fixed.

    At each angle (degrees) it draws the classifier (``plot_classifier``) of the unit vector at
    that angle, rings the misclassified points and counts them in the title.

    Parameters
    ----------
    X : array-like of shape (n, 2)
    y : array-like of shape (n,), labels in {-1, +1}
    b : float
        The bias of every position (the first picture's, rescaled to ``||w|| = 1``).
    angles : sequence of int
        The slider positions, in degrees (at least two).
    initial : int, default 0
        Index in ``angles`` shown first.

    Returns
    -------
    SliderFigure
        One frame per angle.
    """

    X, y = check_Xy(X, y, plane=True)
    b = check_scalar(b, "b")
    angles = list(angles)

    def misclassified(angle: int) -> Any:
            return np.flatnonzero(predict(X, unit_vector(angle), b) != y)

    def draw(angle: int) -> Figure:
        wrong = misclassified(angle)
        ax = plot_classifier(X, y, unit_vector(angle), b,
                             title=f"angle {angle}°: {len(wrong)} misclassified", legend=False)
        ax.scatter(*X[wrong].T, s=150, facecolors="none", edgecolors="k", zorder=5)
        return ax.figure

    def describe(angle: int) -> str:
        return (f"Unit w at {angle}° with b = {b:.2f}, misclassified points ringed: "
                + describe_classifier(X, y, unit_vector(angle), b))

    return SliderFigure(draw, angles, name="direction of w (degrees)", initial=initial, alt=describe)


def updates_slider(X: Any, y: Any, run: Any, *, initial: int = 0) -> SliderFigure:
    """Chapter 2's slider: a recorded run, one update at a time.

    Position ``k`` shows the boundary after update ``k`` (solid), the one before it (dashed; none
    before update 1, where ``w = 0``), the
    point of the update (ringed) and, in the title, the errors of ``(w_k, b_k)`` (points with
    ``sgn(w · x + b) != y``). Position 0 is the start ``w = 0``, ``b = 0``.

    Parameters
    ----------
    X : array-like of shape (n, 2)
    y : array-like of shape (n,), labels in {-1, +1}
    run : TrainResult
        A run of ``pc.train(X, y, record=True)`` from the zero start: its ``history`` lists the
        updates.
    initial : int, default 0
        The position shown first.

    Returns
    -------
    SliderFigure
        ``len(run.history) + 1`` frames, positions ``0, 1, ..., len(run.history)``.
    """

    X, y = check_Xy(X, y, plane=True)
    history = getattr(run, "history", None)
    if not history:
        raise ValueError("run must be a recorded run with at least one update (pc.train(..., record=True))")
    states = [(np.zeros(2), 0.0)] + [(u.w, u.b) for u in history]
    errors = [count_errors(X, y, w, b, rule="sign") for w, b in states]

    def draw(k: int) -> Figure:
        w, b = states[k]
        if k == 0:
            ax = plot_classifier(X, y, w, b, legend=False, title="start: $w = 0$, $b = 0$")
            return ax.figure
        u = history[k - 1]  # update k; u.epoch: the pass it happened in
        ax = plot_classifier(X, y, w, b, highlight=u.index, legend=False,
                             title=f"update {k} (epoch {u.epoch}) on point {u.index}: {_errors(errors[k])}")
        if np.any(states[k - 1][0]):  # before update 1, w = 0: no boundary to dash (nor its note)
            plot_hyperplane(*states[k - 1], ax, shade=False, normal=False, linestyle="--", label=None)
        return ax.figure

    def describe(k: int) -> str:
        if k == 0:
            return "Start, w = 0 and b = 0: " + describe_classifier(X, y, *states[0])
        u = history[k - 1]
        before = "previous boundary dashed" if np.any(states[k - 1][0]) else "no boundary before it (w was 0)"
        # the title's count is of errors (sgn(w.x + b) != y), the description's of mistakes
        # (y (w.x + b) <= 0): name both, as a +1 point on the line is one and not the other
        return (f"After update {k} (epoch {u.epoch}) on the ringed point {u.index}, {before}: "
                + describe_classifier(X, y, *states[k])
                + f"; {_errors(errors[k])} (points with sgn(w·x + b) ≠ y)")

    return SliderFigure(draw, list(range(len(states))), name="update k", initial=initial, alt=describe)


def eta_slider(X: Any, y: Any, zero_runs: dict, start_runs: dict, w0: Any, b0: float, *,
               initial: int = 0) -> SliderFigure:
    """Chapter 2's learning-rate slider: for each ``η``, the run from zero (left) and the run from
    ``(w0, b0)`` (right, the start's boundary dashed).

    Parameters
    ----------
    X : array-like of shape (n, 2)
    y : array-like of shape (n,), labels in {-1, +1}
    zero_runs, start_runs : dict
        ``{eta: pc.train(...)}`` from the zero start and from ``(w0, b0)``, with the same keys in
        the same order; the keys are the slider positions.
    w0 : array-like of shape (2,)
    b0 : float
    initial : int, default 0
        Index of the ``η`` shown first.

    Returns
    -------
    SliderFigure
        One frame per learning rate.
    """

    X, y = check_Xy(X, y, plane=True)
    w0, b0 = check_w(w0, 2, name="w0"), check_scalar(b0, "b0")
    if list(zero_runs) != list(start_runs):
        raise ValueError("zero_runs and start_runs must have the same learning rates, in the same order")
    start = f"w₀ = ({', '.join(f'{v:g}' for v in w0)}), b₀ = {b0:g}"

    def draw(eta: float) -> Figure:
        fig, axes = plt.subplots(1, 2, figsize=(9, 4.2))
        fig.subplots_adjust(left=0.07, right=0.99, bottom=0.13, top=0.93, wspace=0.22)  # fixed: a cheap redraw
        z, s = zero_runs[eta], start_runs[eta]
        plot_classifier(X, y, z.w, z.b, axes[0], legend=False,
                        title=f"zero start: {z.mistakes} mistakes, ‖w‖ = {np.linalg.norm(z.w):.3g}")
        plot_classifier(X, y, s.w, s.b, axes[1], legend=False, title=f"from {start}: {s.mistakes} mistakes")
        plot_hyperplane(w0, b0, axes[1], shade=False, normal=False, linestyle="--", label=None)
        return fig

    def describe(eta: float) -> str:
        z, s = zero_runs[eta], start_runs[eta]
        return (f"η = {eta:g}. Left, zero start: {z.mistakes} mistakes, "
                f"‖w‖ = {np.linalg.norm(z.w):.3g}, {z.errors} errors left. "
                f"Right, start {start} (dashed line): "
                f"{s.mistakes} mistakes, {s.errors} errors left.")

    return SliderFigure(draw, list(zero_runs), name="learning rate η", initial=initial, alt=describe)


def turned_line(w: Any, pivot: Any, theta: float) -> tuple[Any, float]:
    """The line of normal ``w`` through ``pivot``, turned by ``theta`` degrees around ``pivot``.

    Returns the turned normal ``R(theta) w`` and the bias ``-R(theta) w · pivot`` that puts the
    line through ``pivot``.

    Examples
    --------
    >>> w, b = turned_line([1.0, 0.0], [2.0, 0.0], 90)
    >>> w.round(12) + 0.0, round(b, 12) + 0.0
    (array([0., 1.]), 0.0)
    """

    w, pivot = check_w(w, 2), check_w(pivot, 2, name="pivot")
    t = np.radians(check_scalar(theta, "theta"))
    w = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ w
    return w, float(-w @ pivot)


def turned_margins(X: Any, y: Any, w: Any, pivot: Any, thetas: Any) -> Any:
    """The geometric margin of the line of normal ``w`` through ``pivot`` turned by each angle of
    ``thetas`` (degrees; :func:`turned_line`), as an array of the same length."""

    X, y = check_Xy(X, y, plane=True)
    return np.array([geometric_margin(X, y, *turned_line(w, pivot, t)) for t in thetas])


def turning_slider(X: Any, y: Any, best: Any, pivot: Any, turns: Sequence[int], *,
                   initial: int = 0) -> SliderFigure:
    """Chapter 4's slider: the maximum-margin line turned around ``pivot``, a point of it.

    Left, the turned line with its margin band (``plot_margin``) and the maximum-margin line
    dotted grey; right, the geometric margin against the rotation from -90° to 90° (black), the
    current one marked and ``gamma*`` dashed.

    Parameters
    ----------
    X : array-like of shape (n, 2)
    y : array-like of shape (n,), labels in {-1, +1}
    best : MaxMargin
        ``pc.max_margin(X, y)``.
    pivot : array-like of shape (2,)
        The point the line turns around.
    turns : sequence of int
        The slider positions, in degrees.
    initial : int, default 0
        Index in ``turns`` shown first.

    Returns
    -------
    SliderFigure
        One frame per rotation.
    """

    X, y = check_Xy(X, y, plane=True)
    if not all(hasattr(best, name) for name in ("w", "b", "gamma")):
        raise ValueError("best must be a maximum-margin result (pc.max_margin) with w, b and gamma")
    fine = np.linspace(-90, 90, 721)
    curve = turned_margins(X, y, best.w, pivot, fine)

    def draw(theta: int) -> Figure:
        w, b = turned_line(best.w, pivot, theta)
        gamma = geometric_margin(X, y, w, b)
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(8.6, 3.7))
        fig.subplots_adjust(left=0.07, right=0.98, bottom=0.14, top=0.91, wspace=0.3)
        plot_margin(X, y, w, b, ax, legend=False, title=f"turned {theta:+d}°: margin {gamma:+.4f} (ringed)")
        plot_hyperplane(best.w, best.b, ax, shade=False, normal=False, color="0.5", linestyle=":")
        ax2.plot(fine, curve, color="k", lw=1)
        ax2.axhline(best.gamma, color=ACCENT_COLOR, ls="--", lw=1)
        ax2.axhline(0, color="0.6", lw=0.8)
        ax2.plot(theta, gamma, "o", color=ACCENT_COLOR, ms=8)
        ax2.set(xlabel="rotation (degrees)", ylabel="geometric margin γ(w, b)", xticks=[-90, -45, 0, 45, 90])
        return fig

    def describe(theta: int) -> str:
        w, b = turned_line(best.w, pivot, theta)
        return (f"Left: the maximum-margin line turned {theta:+d}°, margin "
                f"{geometric_margin(X, y, w, b):+.4f} (set by the ringed point) against "
                f"γ* = {best.gamma:.4f} of the maximum-margin line (dotted); "
                + describe_classifier(X, y, w, b)
                + ". Right: the margin against the rotation, -90° to 90°, γ* dashed.")

    return SliderFigure(draw, list(turns), name="rotation (degrees)", fmt="{:+d}°", initial=initial,
                        alt=describe)


def shifting_slider(X: Any, y: Any, best: Any, shifts: Sequence[float], *, initial: int = 0) -> SliderFigure:
    """Chapter 4's second slider: the maximum-margin line slid sideways, ``b = b* + t gamma*``.

    Each frame draws the shifted line with its margin band (``plot_margin``; the margin rounded to
    10 decimals, so no "-0.0000" where the line touches a support vector) and the unshifted line
    dotted grey.

    Parameters
    ----------
    X : array-like of shape (n, 2)
    y : array-like of shape (n,), labels in {-1, +1}
    best : MaxMargin
        ``pc.max_margin(X, y)``.
    shifts : sequence of float
        The slider positions ``t`` in units of ``gamma*``.
    initial : int, default 0
        Index in ``shifts`` shown first.

    Returns
    -------
    SliderFigure
        One frame per shift.
    """

    X, y = check_Xy(X, y, plane=True)
    if not all(hasattr(best, name) for name in ("w", "b", "gamma")):
        raise ValueError("best must be a maximum-margin result (pc.max_margin) with w, b and gamma")

    def margin(s: float) -> float:
        return np.round(geometric_margin(X, y, best.w, best.b + s * best.gamma), 10) + 0.0

    def draw(s: float) -> Figure:
        b = best.b + s * best.gamma
        ax = plot_margin(X, y, best.w, b, legend=False, title=f"t = {s:+.1f} γ*: margin {margin(s):+.4f}")
        plot_hyperplane(best.w, best.b, ax, shade=False, normal=False, color="0.5", linestyle=":")
        return ax.figure

    def describe(s: float) -> str:
        return (f"The maximum-margin line shifted by t = {s:+.1f} γ*, "
                f"margin {margin(s):+.4f}, unshifted line dotted: "
                + describe_classifier(X, y, best.w, best.b + s * best.gamma))

    return SliderFigure(draw, list(shifts), name="shift t / γ*", fmt="{:+.1f}", initial=initial, alt=describe)
