"""Time the playground (book/_static/playground.js) in Debian's Chromium; print, assert nothing.

* **step redraw, 200 points**: "Step to next update" on 200 overlapping points (so updates never
  run out): the handler's synchronous time, i.e. the visits up to the update, the error count
  for the pocket, the canvas drawing and the numbers' text, measured in the page with
  ``performance.now()`` around the call; median and 90th percentile over 300 steps. (The browser
  then composites the canvas at its next frame, on its 60 Hz clock, whatever the handler costs.)
* **to convergence, 1000 separable points**: ``make_separable(1000, margin=m)``, m = 0.05, 0.01:
  ``perceptronPlayground.train`` alone, and the "Run to convergence" button's handler (the same
  visits one by one with the pocket's error counts, then one redraw); medians of 7 runs. Python's
  ``perceptron.train`` on the same data is timed for comparison.

The script and stylesheet are served from book/_static by a local server on 127.0.0.1 inside a
minimal page (no book build needed); every other request is aborted.
Usage: python benchmarks/playground.py
"""

from __future__ import annotations

import statistics
import tempfile
import time
from pathlib import Path
from urllib.parse import urlparse

import perceptron as pc
from coursebook import ROOT
from coursebook.serve import serve_folder

CHROMIUM = "/usr/bin/chromium"  # as tests/support/browser.py, which a script run from benchmarks/ cannot import
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]

PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>playground benchmark</title>
<link rel="stylesheet" href="playground.css"></head>
<body style="max-width: 1000px"><div id="perceptron-playground"></div><script src="playground.js"></script></body></html>"""

STEPS = """([X, y]) => {
  const ui = perceptronPlayground.ui;
  ui.setPoints(X, y);
  const times = [];
  for (let k = 0; k < 300; k++) {  // k = 0 included: the first redraw is no special case
    const t0 = performance.now();
    ui.act("update");
    times.push(performance.now() - t0);
  }
  return times;
}"""

CONVERGE = """([X, y]) => {
  const P = perceptronPlayground, ui = P.ui, engine = [], button = [];
  let result;
  ui.setPoints(X, y);
  for (let k = 0; k < 7; k++) {
    let t0 = performance.now();
    result = P.train(X, y, {maxEpochs: 1000});
    engine.push(performance.now() - t0);
    ui.reset();
    t0 = performance.now();
    ui.act("converge");
    button.push(performance.now() - t0);
  }
  return {engine, button, mistakes: result.mistakes, epochs: result.epochs, converged: result.converged,
          ui: [ui.run.updates, ui.run.epoch, ui.run.converged]};
}"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp)
        (site / "index.html").write_text(PAGE)
        for name in ("playground.js", "playground.css", "playground_presets.json"):
            (site / name).write_bytes((ROOT / "book" / "_static" / name).read_bytes())
        with serve_folder(site) as url, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            context.route("**/*", lambda route: route.continue_()
                          if urlparse(route.request.url).hostname == "127.0.0.1" else route.abort())
            page = context.new_page()
            errors: list[str] = []
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.goto(f"{url}/index.html")
            page.wait_for_function("() => window.perceptronPlayground && window.perceptronPlayground.ui")

            X, y = pc.datasets.make_overlapping(200, separation=1.0, seed=0)
            steps = page.evaluate(STEPS, [X.tolist(), y.tolist()])
            sets = {m: pc.datasets.make_separable(1000, margin=m, seed=0) for m in (0.05, 0.01)}
            convs = {m: page.evaluate(CONVERGE, [Xs.tolist(), ys.tolist()]) for m, (Xs, ys) in sets.items()}
            browser.close()

    q90 = statistics.quantiles(steps, n=10)[-1]
    print(f"Chromium {CHROMIUM}; playground.js {(ROOT / 'book/_static/playground.js').stat().st_size // 1024} KiB")
    print(f"step to next update, 200 points: median {statistics.median(steps):.2f} ms, 90th percentile {q90:.2f} ms "
          f"(300 steps; handler incl. canvas drawing)  [target: median < 16 ms]")
    for m, conv in convs.items():
        Xs, ys = sets[m]
        python = []
        for _ in range(7):
            t0 = time.perf_counter()
            run = pc.train(Xs, ys, max_epochs=1000)
            python.append((time.perf_counter() - t0) * 1e3)
        print(f"run to convergence, 1000 separable points, margin {m} ({conv['mistakes']} updates, {conv['epochs']} "
              f"epochs, converged={conv['converged']}): engine train median {statistics.median(conv['engine']):.2f} ms, "
              f"'Run to convergence' button median {statistics.median(conv['button']):.2f} ms  [target: < 100 ms]")
        print(f"  same data in Python: perceptron.train median {statistics.median(python):.2f} ms "
              f"({run.mistakes} updates, {run.epochs} epochs); the button's run (updates, epochs, converged): {conv['ui']}")
    if errors:
        print("console errors:", errors)


if __name__ == "__main__":
    main()
