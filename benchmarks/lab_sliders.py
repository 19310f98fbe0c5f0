"""Every live slider of the book in JupyterLab: milliseconds from a keypress to the new image.

For each chapter with a slider, the chapter (outputs stripped) is opened in JupyterLab in Debian's
Chromium, run with Run > Run All Cells, and each live slider is moved with the arrow keys: the time
from the real keydown to a new, loaded image is measured per press (tests/support/lab.py). The same
is done, in the same run and chapter by chapter (the order alternating), with the slider code of
another revision (``--baseline``, default ``main``: its src/perceptron/widgets.py, the rest of the
package as in this checkout), each in its own JupyterLab whose kernels import that code. The table
gives each slider's median for both and their ratio (this checkout / baseline), and the live image's
pixel width against its shown CSS width at a device pixel ratio of 2 (sharp when pixels >= 2 x CSS).

The target: every slider's median below 100 ms here. The script exits non-zero when one misses it.

Usage: make bench-lab, or PYTHONPATH=. .venv/bin/python benchmarks/lab_sliders.py [--presses N] [--baseline REV] [--device-scale R] [NN_name ...]
"""

from __future__ import annotations

import argparse
import contextlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from coursebook import CHAPTERS, ROOT
from tests.support.browser import CHROMIUM, FLAGS
from tests.support.lab import (
    SLIDER_BOXES,
    copy_chapters,
    keypress_latencies,
    open_and_run_all,
    serve_lab,
    sharpness,
    shutdown_kernels,
)

TARGET_MS = 100.0


def slider_chapters() -> list[str]:
    return [p.stem for p in CHAPTERS
            if "SliderFigure(" in p.read_text(encoding="utf-8")]


def baseline_source(folder: Path, revision: str) -> Path:
    """This checkout's src/ with src/perceptron/widgets.py as at ``revision``."""
    src = folder / "src"
    shutil.copytree(ROOT / "src", src, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    old = subprocess.run(["git", "show", f"{revision}:src/perceptron/widgets.py"], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout
    (src / "perceptron" / "widgets.py").write_text(old, encoding="utf-8")
    return src


def measure(browser, lab: tuple[str, str], chapter: str, presses: int, scale: float = 2) -> list[dict]:
    """Each live slider of the chapter: its keypress latencies and its image's sharpness."""
    url, token = lab
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, device_scale_factor=scale)
    page = context.new_page()
    try:
        open_and_run_all(page, url, token, chapter)
        boxes = page.locator(SLIDER_BOXES)
        boxes.first.wait_for(timeout=60_000)
        found = []
        for k in range(boxes.count()):
            box = boxes.nth(k)
            box.scroll_into_view_if_needed()
            keypress_latencies(page, box, 1)  # a first move, untimed: the browser's first decode and layout
            times = keypress_latencies(page, box, presses)
            found.append({"ms": times, **sharpness(box)})
        return found
    finally:
        context.close()
        shutdown_kernels(url, token)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("chapters", nargs="*", help="chapters to time, e.g. 05_convergence (default: every slider chapter)")
    parser.add_argument("--presses", type=int, default=8, help="timed keypresses per slider (default 8)")
    parser.add_argument("--baseline", default="main", help="revision whose widgets.py is compared (default main)")
    parser.add_argument("--device-scale", type=float, default=2, help="Chromium's device pixel ratio (default 2)")
    args = parser.parse_args(argv)
    chapters = args.chapters or slider_chapters()
    from playwright.sync_api import sync_playwright

    start = time.monotonic()
    rows = []
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        tmp = Path(tmp)
        roots = {name: tmp / name for name in ("baseline", "this")}
        for root in roots.values():
            copy_chapters(root, chapters)
        sources = {"baseline": baseline_source(tmp / "old", args.baseline), "this": ROOT / "src"}
        labs = {name: stack.enter_context(serve_lab(roots[name], {"PYTHONPATH": str(sources[name])}))
                for name in roots}
        p = stack.enter_context(sync_playwright())
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        stack.callback(browser.close)
        for i, chapter in enumerate(chapters):
            order = ["baseline", "this"] if i % 2 == 0 else ["this", "baseline"]
            results = {name: measure(browser, labs[name], chapter, args.presses, args.device_scale) for name in order}
            for k, (old, new) in enumerate(zip(results["baseline"], results["this"], strict=True)):
                rows.append((chapter, k, old, new))
                print(f"{chapter} slider {k}: baseline {statistics.median(old['ms']):.0f} ms, "
                      f"this {statistics.median(new['ms']):.0f} ms", flush=True)
    print(f"\nJupyterLab, Chromium at device pixel ratio {args.device_scale:g}, {args.presses} presses per slider, "
          f"baseline {args.baseline}; {time.monotonic() - start:.0f} s\n")
    print("| chapter | slider | baseline median ms | this median ms | ratio | this max ms | "
          "pixels / CSS px (baseline) | pixels / CSS px (this) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    misses = 0
    for chapter, k, old, new in rows:
        mo, mn = statistics.median(old["ms"]), statistics.median(new["ms"])
        misses += mn >= TARGET_MS
        print(f"| {chapter} | {k} | {mo:.0f} | {mn:.0f} | {mn / mo:.2f} | {max(new['ms']):.0f} | "
              f"{old['natural']}/{old['css']:.0f} = {old['natural'] / old['css']:.2f} | "
              f"{new['natural']}/{new['css']:.0f} = {new['natural'] / new['css']:.2f} |")
    print(f"\ntarget: every median < {TARGET_MS:.0f} ms; {misses} slider(s) missed it")
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
