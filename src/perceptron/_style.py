"""The book's figure style, shared by :mod:`perceptron.plotting` and :mod:`perceptron.proof_plots`:
class colours and markers (Okabe-Ito blue and vermillion, distinguishable with the common forms of
colour blindness), accent colours, new axes with fixed margins, and notes on axes."""

from __future__ import annotations

import matplotlib.pyplot as plt
from matplotlib.axes import Axes

CLASS_COLORS = {1: "#0072B2", -1: "#D55E00"}
CLASS_MARKERS = {1: "o", -1: "s"}
CLASS_LABELS = {1: "y = +1", -1: "y = \u22121"}  # plain text: mathtext parsing would dominate a slider redraw
BOUNDARY_COLOR = "#222222"
ACCENT_COLOR = "#009E73"
# Titles sit at matplotlib's default height, given explicitly: otherwise matplotlib measures every
# tick label on each draw to lift the title above ticks on top, which these figures never have
# (same pixels, ~5% less time per slider frame).
TITLE_Y = 1.0


def new_axes(ax: Axes | None = None, *, size: tuple[float, float] = (4.6, 4.2)) -> Axes:
    """Return ``ax``, or the axes of a new figure of the given size.

    Margins are fixed rather than computed by a layout engine: every frame of a slider then has
    the same geometry, and a redraw costs half as much (constrained layout draws twice).
    """
    if ax is not None:
        return ax
    fig, ax = plt.subplots(figsize=size)
    fig.subplots_adjust(left=0.15, right=0.96, bottom=0.12, top=0.9)
    return ax


NOTE_GID = "perceptron-note"


def add_note(ax: Axes, text: str) -> None:
    """Write a short plain-language note in the top left corner of ``ax``, below any earlier note.

    The helpers use it for states a changed seed or size can reach: a boundary that cannot be
    drawn, or points with more coordinates than the plane shows.
    """
    below = sum(t.get_gid() == NOTE_GID for t in ax.texts)
    ax.text(0.02, 0.98 - 0.09 * below, text, transform=ax.transAxes, ha="left", va="top", fontsize="small",
            gid=NOTE_GID, zorder=6, bbox={"boxstyle": "round,pad=0.25", "fc": "white", "ec": "0.6", "alpha": 0.9})
