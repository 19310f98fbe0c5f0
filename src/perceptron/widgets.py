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


def _signed(label: int) -> str:
    return "+1" if label > 0 else "−1"


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
    counts = f"{n} points ({pos} labelled +1, {n - pos} labelled −1)"
    if norm == 0:  # no boundary, no sides: sgn(b) is every prediction (sgn(0) = +1)
        label = 1 if b >= 0 else -1
        errors = int(np.sum(y != label))
        return (f"{counts}; no boundary (w = 0): every point is predicted {_signed(label)}, "
                f"so its errors are the points labelled {_signed(-label)}: {errors}")
    wrong = int(np.sum(y * (X @ w + b) <= rounding))
    text = f"{counts}, {wrong} on the wrong side or on the boundary"
    if X.shape[1] == 2:
        angle = float(np.degrees(np.arctan2(w[1], w[0]))) % 360
        text += (f"; boundary at distance {abs(b) / norm:.3g}{unit} from the origin, "
                 f"normal w pointing at {angle:.0f}°")
    return text
