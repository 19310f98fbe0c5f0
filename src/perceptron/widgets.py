"""Sliders that work in Jupyter (a live ipywidgets control) and in the static HTML book.

A :class:`SliderFigure` is displayed as one output carrying two views of the same figure:

* ``application/vnd.jupyter.widget-view+json``: a live slider over the same positions. Jupyter,
  JupyterLab and Binder prefer this view. Its frames are drawn once, when the cell runs, together
  with the static view's (each figure drawn once, saved twice): a move only swaps the picture, so it
  shows without waiting for ``draw``; they are rendered at ``LIVE_SCALE`` times the resolution and
  shown at the static frame's size, sharp on a screen of up to that many pixels per CSS pixel.
* ``text/html``: every slider position drawn in advance when the notebook executes, as PNG
  frames behind a plain ``<input type="range">`` and a few lines of inline JavaScript, with no
  kernel and no network. The book is configured (``nb_mime_priority_overrides``) to prefer it.

The science stays in Python: the static view shows frames that ``draw`` produced.
"""

from __future__ import annotations

import base64
import html
import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.figure import Figure

# The live slider's frames have this many pixels per pixel of the static frame (a laptop's or
# phone's "retina" screen has 2 device pixels per CSS pixel): shown at the static frame's size, they
# are as sharp as the screen.
LIVE_SCALE = 2

_SCRIPT = """
(function () {
  var root = document.currentScript.parentNode;
  var data = JSON.parse(root.querySelector('script[type="application/json"]').textContent);
  var input = root.querySelector('input');
  var out = root.querySelector('output');
  var img = root.querySelector('img');
  function show(k) {
    img.src = data.frames[k]; img.alt = data.alts[k]; out.textContent = data.labels[k];
    input.setAttribute('aria-valuetext', data.labels[k]);
  }
  input.addEventListener('input', function () { show(+input.value); });
})();
"""


def figure_to_png(fig: Figure, *, dpi: int = 80, close: bool = True) -> bytes:
    """Render a figure to PNG bytes (no timestamp, so re-running gives the same bytes) and close it
    (unless ``close`` is false: the same figure is then saved again at another resolution)."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, metadata={"Software": None})
    if close:
        plt.close(fig)
    return buf.getvalue()


def png_width(png: bytes) -> int:
    """The width in pixels of a PNG (from its header)."""
    if png[:8] != b"\x89PNG\r\n\x1a\n" or len(png) < 24:
        raise ValueError("not a PNG image")
    return int.from_bytes(png[16:20], "big")


@dataclass
class SliderFigure:
    """A figure driven by one slider, live in Jupyter and pre-computed for the static book.

    Parameters
    ----------
    draw : callable
        ``draw(value) -> matplotlib.figure.Figure``; it must build a new figure each call.
    values : sequence
        The slider positions (numbers or short labels), in order.
    name : str
        The slider's label, e.g. ``"learning rate η"``.
    initial : int, default 0
        Index in ``values`` shown first.
    fmt : str, default "{:g}"
        How a value is printed next to the slider.
    dpi : int, default 80
        Resolution of the pre-computed frames (keeps pages small).
    alt : callable, optional
        ``alt(value) -> str``: the figure at ``value`` described in words, for readers who
        cannot see it (what is plotted, the value, the key numbers). The static view's image
        carries it as alt text and changes it with the slider. Without it the alt text only
        names the slider and its value.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> def draw(k):
    ...     fig, ax = plt.subplots()
    ...     ax.plot([0, 1], [0, k])
    ...     return fig
    >>> s = SliderFigure(draw, [1, 2, 3], name="slope")
    >>> len(s.frames())
    3
    """

    draw: Callable[[Any], Figure]
    values: Sequence[Any]
    name: str
    initial: int = 0
    fmt: str = "{:g}"
    dpi: int = 80
    alt: Callable[[Any], str] | None = None
    _frames: list[bytes] | None = field(default=None, init=False, repr=False)
    _live: list[bytes] | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        if len(self.values) < 2:
            raise ValueError("a slider needs at least two values")
        if not 0 <= self.initial < len(self.values):
            raise ValueError(f"initial must index values (0..{len(self.values) - 1}), got {self.initial}")

    def label(self, value: Any) -> str:
        """The text shown beside the slider for ``value``."""
        try:
            return self.fmt.format(value)
        except (TypeError, ValueError):
            return str(value)

    def alt_text(self, value: Any) -> str:
        """The figure at ``value`` in words (``alt(value)``), or the slider's name and value."""
        if self.alt is None:
            return f"figure for {self.name} = {self.label(value)}"
        text = self.alt(value)
        if not isinstance(text, str) or not text.strip():
            raise ValueError(f"alt({value!r}) must return a non-empty description, got {text!r}")
        return text.strip()

    def frames(self) -> list[bytes]:
        """PNG bytes of the figure at every slider position (computed once)."""
        if self._frames is None:
            self._render(live=False)
        assert self._frames is not None
        return self._frames

    def live_frames(self) -> list[bytes]:
        """The live slider's frames: each position's figure at ``LIVE_SCALE * dpi`` (computed once,
        in the same pass as :meth:`frames`, so each position is drawn once)."""
        if self._live is None:
            self._render(live=True)
        assert self._live is not None
        return self._live

    def _render(self, *, live: bool) -> None:
        static = self._frames is None
        live = live and self._live is None
        if not (static or live):
            return
        frames: list[bytes] = []
        sharp: list[bytes] = []
        for value in self.values:
            fig = self.draw(value)
            if static:  # first, exactly as when it was saved alone: the book's frames keep their bytes
                frames.append(figure_to_png(fig, dpi=self.dpi, close=not live))
            if live:
                sharp.append(figure_to_png(fig, dpi=self.dpi * LIVE_SCALE))
        if static:
            self._frames = frames
        if live:
            self._live = sharp

    def static_html(self) -> str:
        """A self-contained HTML slider over the pre-computed frames (no kernel, no network)."""
        frames = ["data:image/png;base64," + base64.b64encode(png).decode() for png in self.frames()]
        labels = [self.label(v) for v in self.values]
        alts = [self.alt_text(v) for v in self.values]
        # "<" escaped, so no text (a name, an alt text) can close the script element early
        payload = json.dumps({"frames": frames, "labels": labels, "alts": alts}).replace("<", "\\u003c")
        name = html.escape(self.name)
        k = self.initial
        return (
            f'<div class="perceptron-slider">'
            f'<label>{name} <input type="range" min="0" max="{len(frames) - 1}" step="1" value="{k}" '
            f'aria-label="{name}" aria-valuetext="{html.escape(labels[k])}"></label> '
            f'<output>{html.escape(labels[k])}</output><br>'
            f'<img src="{frames[k]}" alt="{html.escape(alts[k])}">'
            f'<script type="application/json">{payload}</script>'
            f"<script>{_SCRIPT}</script></div>"
        )

    def live_widget(self) -> Any:
        """The ipywidgets view: a selection slider over ``values`` and the figure as an image.

        Each position's figure is drawn when the cell runs (:meth:`live_frames`) and a move
        shows it in an ``Image`` widget: nothing is drawn while the reader waits, and nothing is
        printed into the cell (an ``Output`` widget would leak into the cell's outputs wherever
        no widget front end captures them, e.g. under nbval). The image is shown at the static
        frame's width (never wider than the output), from ``LIVE_SCALE`` times as many pixels.
        To redraw after changing what ``draw`` reads, run the cell again.
        """
        import ipywidgets as widgets

        live = self.live_frames()
        width = round(png_width(live[self.initial]) / LIVE_SCALE)
        slider = widgets.SelectionSlider(options=[(self.label(v), i) for i, v in enumerate(self.values)],
                                         value=self.initial, description=self.name,
                                         style={"description_width": "initial"},
                                         layout=widgets.Layout(width="420px"))
        # A fixed CSS width: a VBox stretches its children to its own width (the output's) otherwise.
        image = widgets.Image(value=live[self.initial], format="png",
                              layout=widgets.Layout(width=f"{width}px", max_width="100%", height="auto"))

        def redraw(change: dict) -> None:
            image.value = live[change["new"]]

        slider.observe(redraw, names="value")
        return widgets.VBox([slider, image])

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        bundle: dict[str, Any] = {}
        try:
            bundle.update(self.live_widget()._repr_mimebundle_())
        except ImportError:  # no ipywidgets installed: the static view is enough
            pass
        bundle["text/html"] = self.static_html()
        bundle["text/plain"] = f"SliderFigure: {self.name} over {len(self.values)} positions"
        return bundle


def describe_classifier(X: Any, y: Any, w: Any, b: float, *, unit: str = "") -> str:
    """A linear classifier on labelled points in words, for a figure's alt text.

    Says how many points there are of each label, how many lie on the wrong side of the
    boundary ``w · x + b = 0`` or on it (the book's mistake test ``y (w · x + b) <= 0``), and,
    for two features, where the boundary lies: its distance from the origin and the
    direction of its normal ``w``.

    A point counts as on the boundary when its score is within rounding of 0, ``|w · x + b| <=
    1e-9 (||w|| max_i ||x_i|| + |b|)``: a point that lies on the line in exact arithmetic (a support
    vector when the maximum-margin line is shifted by ``gamma*``) scores ``+-1e-17`` or so, with a
    sign that depends on the machine's BLAS; the figure shows it on the line, and so does the text.

    Parameters
    ----------
    X : array-like of shape (n, d)
    y : array-like of shape (n,), labels in {-1, +1}
    w : array-like of shape (d,)
    b : float
    unit : str, optional
        Unit of the coordinates, appended to the distance (e.g. ``" cm"``).

    Examples
    --------
    >>> print(describe_classifier([[1.0, 0.0], [-1.0, 0.0]], [1, -1], [1.0, 0.0], 1.5))
    2 points (1 labelled +1, 1 labelled −1), 1 on the wrong side or on the boundary; \
boundary at distance 1.5 from the origin, normal w pointing at 0°
    """
    import numpy as np

    X = np.asarray(X, dtype=float)
    y = np.asarray(y)
    w = np.asarray(w, dtype=float)
    if X.ndim != 2 or X.shape[0] != y.shape[0] or w.shape != (X.shape[1],):
        raise ValueError(f"X (n, d), y (n,) and w (d,) must agree; got {X.shape}, {y.shape}, {w.shape}")
    n, pos = len(y), int(np.sum(y == 1))
    norm = float(np.linalg.norm(w))
    rounding = 1e-9 * (norm * float(np.linalg.norm(X, axis=1).max(initial=0.0)) + abs(b))
    wrong = int(np.sum(y * (X @ w + b) <= rounding))
    text = (f"{n} points ({pos} labelled +1, {n - pos} labelled −1), "
            f"{wrong} on the wrong side or on the boundary")
    if norm == 0:
        return text + "; no boundary (w = 0)"
    if X.shape[1] == 2:
        angle = float(np.degrees(np.arctan2(w[1], w[0]))) % 360
        text += (f"; boundary at distance {abs(b) / norm:.3g}{unit} from the origin, "
                 f"normal w pointing at {angle:.0f}°")
    return text


# ---------------------------------------------------------------------------------------------
# The core chapters' sliders: each builds the figure of one slider cell, so that the cell says
# what is shown and the drawing lives here. Each returns a SliderFigure (same class, same frames).


def _plane_data(X: Any, y: Any) -> tuple[Any, Any]:
    """``X`` of shape (n, 2) and labels ``y`` in {-1, +1}, validated (a slider draws in a plane)."""
    from ._validation import check_Xy

    X, y = check_Xy(X, y)
    if X.shape[1] != 2:
        raise ValueError(f"the slider draws points in a plane: X must have shape (n, 2), got {X.shape}")
    return X, y


def unit_vector(angle: float) -> Any:
    """The unit vector of the plane at ``angle`` degrees from the first axis.

    Examples
    --------
    >>> unit_vector(90).round(12) + 0.0
    array([0., 1.])
    """
    import numpy as np

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
    from ._validation import check_scalar
    from .linear import predict

    X, y = _plane_data(X, y)
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
    from ._validation import check_scalar
    from .linear import predict
    from .plotting import plot_classifier

    X, y = _plane_data(X, y)
    b = check_scalar(b, "b")
    angles = list(angles)

    def misclassified(angle: int) -> Any:
        import numpy as np

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

    Position ``k`` shows the boundary after update ``k`` (solid), the one before it (dashed), the
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
    import numpy as np

    from .linear import count_errors
    from .plotting import plot_classifier, plot_hyperplane

    X, y = _plane_data(X, y)
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
                             title=f"update {k} (epoch {u.epoch}) on point {u.index}: {errors[k]} errors left")
        plot_hyperplane(*states[k - 1], ax, shade=False, normal=False, linestyle="--", label=None)
        return ax.figure

    def describe(k: int) -> str:
        if k == 0:
            return "Start, w = 0 and b = 0: " + describe_classifier(X, y, *states[0])
        u = history[k - 1]
        return (f"After update {k} (epoch {u.epoch}) on the ringed point {u.index}, previous boundary "
                "dashed: " + describe_classifier(X, y, *states[k]))

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
    import numpy as np

    from ._validation import check_scalar, check_w
    from .plotting import plot_classifier, plot_hyperplane

    X, y = _plane_data(X, y)
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


def _check_best(best: Any) -> None:
    if not all(hasattr(best, name) for name in ("w", "b", "gamma")):
        raise ValueError("best must be a maximum-margin result (pc.max_margin) with w, b and gamma")


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
    import numpy as np

    from ._validation import check_scalar, check_w

    w, pivot = check_w(w, 2), check_w(pivot, 2, name="pivot")
    t = np.radians(check_scalar(theta, "theta"))
    w = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ w
    return w, float(-w @ pivot)


def turned_margins(X: Any, y: Any, w: Any, pivot: Any, thetas: Any) -> Any:
    """The geometric margin of the line of normal ``w`` through ``pivot`` turned by each angle of
    ``thetas`` (degrees; :func:`turned_line`), as an array of the same length."""
    import numpy as np

    from .margins import geometric_margin

    X, y = _plane_data(X, y)
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
    import numpy as np

    from ._style import ACCENT_COLOR
    from .margins import geometric_margin
    from .plotting import plot_hyperplane, plot_margin

    X, y = _plane_data(X, y)
    _check_best(best)
    fine = np.linspace(-90, 90, 721)
    curve = turned_margins(X, y, best.w, pivot, fine)

    def draw(theta: int) -> Figure:
        w, b = turned_line(best.w, pivot, theta)
        gamma = geometric_margin(X, y, w, b)
        fig, (ax, ax2) = plt.subplots(1, 2, figsize=(8.6, 3.7))
        fig.subplots_adjust(left=0.07, right=0.98, bottom=0.14, top=0.91, wspace=0.3)
        plot_margin(X, y, w, b, ax, legend=False, title=f"turned {theta:+d}°: margin {gamma:+.4f}")
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
                f"{geometric_margin(X, y, w, b):+.4f} against "
                f"γ* = {best.gamma:.4f} (dotted line); "
                + describe_classifier(X, y, w, b)
                + ". Right: the margin against the rotation, -90° to 90°.")

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
    import numpy as np

    from .margins import geometric_margin
    from .plotting import plot_hyperplane, plot_margin

    X, y = _plane_data(X, y)
    _check_best(best)

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
