"""Time every slider of the book: drawing a frame, and what a reader waits for after a move.

Each chapter's code cells are run in-process (matplotlib's Agg backend); every SliderFigure that
a cell displays is collected and timed at every position in two ways:

* **draw + PNG**: ``draw(value)`` plus rendering the figure to PNG, what executing the chapter
  costs per position (``SliderFigure.frames``). The target is a median under 50 ms per slider;
  the script exits non-zero when a slider misses it.
* **live move**: setting the live ipywidgets slider to the position and letting its callback
  run: it shows the position's frame drawn when the cell ran (``SliderFigure.live_frames``, the
  book's figure at twice the resolution), and the picture is checked to be that frame. What a reader
  waits for in JupyterLab, keypress to new image, is measured by benchmarks/lab_sliders.py.

Times are wall-clock, after one warm-up draw; the table gives the median and the maximum over
the positions. With ``--repeat N`` every position is timed N times and the fastest kept, which
filters out other jobs on a shared machine (and garbage-collection pauses).

Usage: python benchmarks/widget_callbacks.py [--repeat N] [notebooks/NN_name.ipynb ...]
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import os
import statistics
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import nbformat

from coursebook import CHAPTERS
from perceptron.widgets import SliderFigure, figure_to_png

TARGET_MS = 50.0


def sliders_of(path: Path) -> list[SliderFigure]:
    """Run a notebook's code cells in one namespace; return the SliderFigures its cells display."""
    namespace: dict = {"__name__": "__main__"}
    found: list[SliderFigure] = []
    cwd = os.getcwd()
    os.chdir(path.parent)  # chapters run from notebooks/, as in Jupyter and in the book build
    try:
        with contextlib.redirect_stdout(io.StringIO()):  # the chapters' printed results are not wanted here
            for cell in nbformat.read(path, as_version=4).cells:
                if cell.cell_type != "code" or not cell.source.strip():
                    continue
                tree = ast.parse(cell.source)
                last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
                # Running the chapters' own cells, as Jupyter would, is the point of this benchmark.
                exec(compile(tree, str(path), "exec"), namespace)  # noqa: S102
                if last is not None:
                    value = eval(compile(ast.Expression(last.value), str(path), "eval"), namespace)
                    if isinstance(value, SliderFigure):
                        found.append(value)
                plt.close("all")
    finally:
        os.chdir(cwd)
    return found


def draw_ms(slider: SliderFigure, repeat: int = 1) -> list[float]:
    """Milliseconds of draw + PNG at each position: the fastest of ``repeat`` passes, after a warm-up."""
    figure_to_png(slider.draw(slider.values[0]), dpi=slider.dpi)
    best = [float("inf")] * len(slider.values)
    for _ in range(repeat):
        for k, value in enumerate(slider.values):
            start = time.perf_counter()
            figure_to_png(slider.draw(value), dpi=slider.dpi)
            best[k] = min(best[k], (time.perf_counter() - start) * 1000)
    return best


def move_ms(slider: SliderFigure, repeat: int = 1) -> list[float]:
    """Milliseconds of a live-slider move to each position but the initial one (fastest of ``repeat``)."""
    control, image = slider.live_widget().children
    others = [*range(slider.initial + 1, len(slider.values)), *range(slider.initial)]
    best = {k: float("inf") for k in others}
    for _ in range(repeat):
        for k in others:
            control.value = slider.initial  # start from the initial position, so every move is a change
            start = time.perf_counter()
            control.value = k  # runs the widget's observer, exactly as a move in the browser does
            best[k] = min(best[k], (time.perf_counter() - start) * 1000)
            assert image.value == slider.live_frames()[k], "the live slider shows another figure than its frame"
    return list(best.values())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", help="chapters to time (default: all)")
    parser.add_argument("--repeat", type=int, default=1,
                        help="time each position this many times and keep the fastest (default 1)")
    args = parser.parse_args(argv)
    chapters = list(CHAPTERS)
    notebooks = [Path(p).resolve() for p in args.notebooks] or chapters
    print(f"{'':<26} {'':<30} {'':>9}  {'draw + PNG (ms)':^23}  {'live move (ms)':^14}")
    print(f"{'chapter':<26} {'slider':<30} {'positions':>9}  {'median':>7} {'max':>6}  target  "
          f"{'median':>6} {'max':>6}")
    misses = 0
    for path in notebooks:
        for slider in sliders_of(path):
            drawn = draw_ms(slider, args.repeat)
            moves = move_ms(slider, args.repeat)
            median = statistics.median(drawn)
            ok = median < TARGET_MS
            misses += not ok
            print(f"{path.stem:<26} {slider.name[:30]:<30} {len(drawn):>9}  {median:>7.1f} "
                  f"{max(drawn):>6.1f}  {'ok' if ok else 'MISSED':<6}  {statistics.median(moves):>6.2f} "
                  f"{max(moves):>6.2f}")
    print(f"target: median draw + PNG < {TARGET_MS:.0f} ms; {misses} slider(s) missed it")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
