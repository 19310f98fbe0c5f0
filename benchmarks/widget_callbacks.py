"""Time every slider callback of the book: what a reader waits for after moving a live slider.

Each chapter's code cells are run in-process (matplotlib's Agg backend); every SliderFigure that
a cell displays is collected, and its callback -- ``draw(value)`` plus rendering the figure to
PNG, exactly what the live widget does on a move -- is timed at every position. The target is a
median under 50 ms per slider. Prints a table; exits non-zero when a slider misses the target.

Usage: python benchmarks/widget_callbacks.py [notebooks/NN_name.ipynb ...]
"""

from __future__ import annotations

import ast
import os
import statistics
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import nbformat  # noqa: E402

from perceptron.widgets import SliderFigure, figure_to_png  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = 50.0


def sliders_of(path: Path) -> list[SliderFigure]:
    """Run a notebook's code cells in one namespace; return the SliderFigures its cells display."""
    namespace: dict = {"__name__": "__main__"}
    found: list[SliderFigure] = []
    cwd = os.getcwd()
    os.chdir(path.parent)  # chapters run from notebooks/, as in Jupyter and in the book build
    try:
        for cell in nbformat.read(path, as_version=4).cells:
            if cell.cell_type != "code" or not cell.source.strip():
                continue
            tree = ast.parse(cell.source)
            last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
            exec(compile(tree, str(path), "exec"), namespace)
            if last is not None:
                value = eval(compile(ast.Expression(last.value), str(path), "eval"), namespace)
                if isinstance(value, SliderFigure):
                    found.append(value)
            plt.close("all")
    finally:
        os.chdir(cwd)
    return found


def callback_ms(slider: SliderFigure) -> list[float]:
    """Milliseconds of one live-widget callback at each slider position (after one warm-up)."""
    figure_to_png(slider.draw(slider.values[0]), dpi=slider.dpi)
    times = []
    for value in slider.values:
        start = time.perf_counter()
        figure_to_png(slider.draw(value), dpi=slider.dpi)
        times.append((time.perf_counter() - start) * 1000)
    return times


def main(paths: list[str]) -> int:
    notebooks = [Path(p).resolve() for p in paths] or sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    print(f"{'chapter':<26} {'slider':<38} {'positions':>9} {'median ms':>10} {'max ms':>8}  target")
    misses = 0
    for path in notebooks:
        for slider in sliders_of(path):
            times = callback_ms(slider)
            median = statistics.median(times)
            ok = median < TARGET_MS
            misses += not ok
            print(f"{path.stem:<26} {slider.name[:38]:<38} {len(times):>9} {median:>10.1f} {max(times):>8.1f}  "
                  f"{'ok' if ok else 'MISSED'}")
    print(f"target: median callback < {TARGET_MS:.0f} ms; {misses} slider(s) missed it")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
