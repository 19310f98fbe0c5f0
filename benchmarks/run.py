"""Benchmark ``perceptron.train`` against scikit-learn's ``Perceptron`` (``make bench``).

For every size and kind of data it times, as medians of interleaved repeats:

* ``train``   -- ``perceptron.train(X, y, bias="one", eta=1, max_epochs=5)``, validation included;
* ``sklearn`` -- ``Perceptron(eta0=1, penalty=None, shuffle=False, tol=None, max_iter=5).fit(X, y)``;
* ``loop``    -- ``fast_training.fast_loop`` alone: train's compiled loop without validation;
* ``seq``     -- the plain sequential loop compiled with numba (one product and one addition at a
  time, what ``reference_loop`` and scikit-learn compute), the alternative the fast path beat;
* ``5 X@w``   -- five matrix-vector products ``X @ w`` (BLAS, the faster of all threads and one
  thread): a floor for five passes over X;
* ``python``  -- ``reference_loop`` itself, once, where it takes a few seconds at most.

Calls on n = 10 000 are timed in batches of 20. ``same`` is "yes" when ``train`` returned exactly
(``np.array_equal``/``==``) the weights and bias
of scikit-learn, and the weights, bias, mistakes and epochs of the compiled sequential loop and of
the Python reference loop where it ran. The table is printed as Markdown, with the import and
first-call (numba load or compile) costs measured in fresh interpreters.

Usage: ``.venv/bin/python benchmarks/run.py [--quick]`` (``--quick`` stops at n = 100 000).
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

import numba
import numpy as np
import sklearn
import threadpoolctl
from sklearn.linear_model import Perceptron

import perceptron
from perceptron._core import visiting_order
from perceptron.fast_training import fast_loop
from perceptron.training import reference_loop

EPOCHS = 5
SIZES = [(10_000, 20), (10_000, 100), (100_000, 20), (100_000, 100), (1_000_000, 20), (1_000_000, 100)]
# Data kinds, generated in this order from the same Gaussian points (margins in units of the
# standard deviation of the points' projection on the normal of the true hyperplane).
KINDS = [("separable", 0.5, 0.0), ("noisy", 0.5, 0.05), ("thin margin", 0.05, 0.0)]
PYTHON_LOOP_LIMIT = 100_000  # run the Python reference loop only up to this many samples
BLAS_SETTLE = 0.2  # seconds of rest after the BLAS floor


@numba.njit(cache=True)
def sequential_loop(X, y, w, b, max_epochs):  # pragma: no cover - compiled
    """The textbook loop, compiled as written: sequential scores, stop after a clean pass."""
    mistakes = 0
    epoch = 0
    clean = False
    while epoch < max_epochs and not clean:
        epoch += 1
        clean = True
        for i in range(X.shape[0]):
            s = 0.0
            for j in range(w.size):
                s += w[j] * X[i, j]
            if y[i] * (s + b) <= 0.0:
                for j in range(w.size):
                    w[j] += y[i] * X[i, j]
                b += y[i]
                mistakes += 1
                clean = False
    return b, mistakes, epoch


def machine() -> dict[str, str]:
    model = "unknown"
    with open("/proc/cpuinfo") as cpuinfo:
        for line in cpuinfo:
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    pools = [p for p in threadpoolctl.threadpool_info() if p["user_api"] == "blas"]
    blas = [f"{p['internal_api']} {p['version']} ({p['num_threads']} threads)" for p in pools]
    return {
        "date": datetime.date.today().isoformat(),
        "cpu": f"{model}, nproc = {os.cpu_count()}",
        "memory": f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB",
        "python": platform.python_version(),
        "versions": f"numpy {np.__version__}, scikit-learn {sklearn.__version__}, numba {numba.__version__}",
        "blas": ", ".join(blas) or "none found",
        "load": "load average {:.1f} {:.1f} {:.1f}".format(*os.getloadavg()),
    }


def dataset(n: int, d: int, seed: int = 0):
    """Gaussian points labelled by a random hyperplane; ``push(gap)`` opens a margin in place."""
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, d))
    u = rng.standard_normal(d)
    u /= np.linalg.norm(u)
    y = np.where(X @ u + 0.1 >= 0, 1.0, -1.0)
    flips = rng.random(n)
    chunk = 65_536  # keeps the temporaries small next to the 800 MB of the largest X

    def push(gap: float) -> None:
        for start in range(0, n, chunk):
            rows = slice(start, start + chunk)
            X[rows] += np.multiply.outer(gap * y[rows], u)

    return X, y, flips, push


def timed(function, number: int = 1):
    """Seconds per call of ``function`` (mean of ``number`` back-to-back calls) and its last result."""
    start = time.perf_counter()
    for _ in range(number):
        out = function()
    return (time.perf_counter() - start) / number, out


def measure(X, y, repeats: int) -> dict:
    d = X.shape[1]
    number = 20 if X.shape[0] <= 10_000 else 1  # sub-millisecond calls are timed in batches
    w_floor = np.random.default_rng(1).standard_normal(d)
    times: dict[str, list[float]] = {"train": [], "sklearn": [], "loop": [], "seq": [], "floor": []}

    def floor():
        # The faster of BLAS with all its threads and with one: on a busy machine the thread
        # pool can be much slower than a single core, and a floor should be the best case.
        best = timed(lambda: [X @ w_floor for _ in range(EPOCHS)], number)[0]
        with threadpoolctl.threadpool_limits(1, user_api="blas"):
            return min(best, timed(lambda: [X @ w_floor for _ in range(EPOCHS)], number)[0])

    def sklearn_fit():
        return Perceptron(eta0=1.0, penalty=None, shuffle=False, tol=None, max_iter=EPOCHS).fit(X, y)

    def seq():
        w = np.zeros(d)
        b, mistakes, epochs = sequential_loop(X, y, w, 0.0, EPOCHS)
        return w, b, mistakes, epochs

    def train():
        return perceptron.train(X, y, bias="one", eta=1.0, max_epochs=EPOCHS)

    def loop():
        return fast_loop(X, y, 1.0, 1.0, np.zeros(d), 0.0, EPOCHS, visiting_order(X.shape[0], False, None))

    runs = [("train", train), ("sklearn", sklearn_fit), ("loop", loop), ("seq", seq)]
    outputs = {}
    for repeat in range(repeats):
        # Interleaved and rotated, so that load from other jobs hits every column alike.
        for name, function in runs[repeat % len(runs) :] + runs[: repeat % len(runs)]:
            t, outputs[name] = timed(function, number)
            times[name].append(t)
        times["floor"].append(floor())
        # OpenBLAS threads spin for a while after a call; let them park before the next timing.
        time.sleep(BLAS_SETTLE)
    result, clf, sequential = outputs["train"], outputs["sklearn"], outputs["seq"]
    same = np.array_equal(result.w, clf.coef_[0]) and result.b == float(clf.intercept_[0])
    w, b, mistakes, epochs = sequential
    same = same and np.array_equal(result.w, w) and result.b == b
    same = same and np.array_equal(result.w, outputs["loop"].w) and result.b == outputs["loop"].b
    same = same and (result.mistakes, result.epochs) == (mistakes, epochs)
    python = None
    if X.shape[0] <= PYTHON_LOOP_LIMIT:
        order = visiting_order(X.shape[0], False, None)
        python, ref = timed(lambda: reference_loop(X, y, 1.0, 1.0, np.zeros(d), 0.0, EPOCHS, order, False))
        same = same and np.array_equal(result.w, ref.w) and result.b == ref.b
        counts = (result.mistakes, result.epochs, result.errors)
        same = same and counts == (ref.mistakes, ref.epochs, ref.errors)
    row = {k: statistics.median(v) for k, v in times.items()}
    row.update(python=python, same=same, mistakes=result.mistakes, epochs=result.epochs)
    return row


WARMUP_SNIPPET = textwrap.dedent(
    """
    import json, sys, time
    t0 = time.perf_counter()
    import numpy as np, perceptron
    from perceptron import training
    t1 = time.perf_counter()
    rng = np.random.default_rng(0)
    X = rng.standard_normal((200, 2)); y = np.where(X[:, 0] > 0, 1.0, -1.0)
    perceptron.train(X, y)  # a small run: the readable loop, numba not loaded
    small_loads_numba = "numba" in sys.modules
    t2 = time.perf_counter()
    import perceptron.fast_training
    t3 = time.perf_counter()
    n = training.REFERENCE_BUDGET + 1
    X = rng.standard_normal((n, 20)); y = np.where(X[:, 0] > 0, 1.0, -1.0)
    perceptron.train(X, y, max_epochs=5)
    t4 = time.perf_counter()
    perceptron.train(X, y, max_epochs=5)
    t5 = time.perf_counter()
    print(json.dumps({
        "import perceptron": t1 - t0, "small run": t2 - t1, "small run loads numba": small_loads_numba,
        "import numba + fast_training": t3 - t2, "first compiled run": t4 - t3, "second run": t5 - t4,
    }))
    """
)


def warmup_costs() -> list[tuple[str, dict]]:
    """Import and first-call costs in fresh interpreters: empty numba cache, then a warm one."""
    rows = []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        for label in ("cold cache (compiles)", "warm cache (loads)", "warm cache (loads)"):
            command = [sys.executable, "-c", WARMUP_SNIPPET]
            out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            rows.append((label, json.loads(out.stdout)))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="stop at n = 100 000")
    args = parser.parse_args()
    started = time.perf_counter()

    info = machine()
    print("## Machine\n")
    for key, value in info.items():
        print(f"- {key}: {value}")

    print("\n## Import and first-call costs (fresh interpreters, seconds)\n")
    costs = warmup_costs()
    keys = list(costs[0][1])
    print("| numba cache | " + " | ".join(keys) + " |")
    print("|---" * (len(keys) + 1) + "|")
    for label, row in costs:
        cells = [("yes" if v else "no") if isinstance(v, bool) else f"{v:.4f}" for v in row.values()]
        print(f"| {label} | " + " | ".join(cells) + " |")

    # Load the compiled pass (and the benchmark's own loop) before timing anything.
    warm_X = np.random.default_rng(0).standard_normal((perceptron.training.REFERENCE_BUDGET + 1, 3))
    warm_y = np.where(warm_X[:, 0] > 0, 1.0, -1.0)
    perceptron.train(warm_X, warm_y, max_epochs=2)
    sequential_loop(warm_X, warm_y, np.zeros(3), 0.0, 2)

    print(f"\n## Five epochs, bias 'one', eta 1 (medians; times in seconds; {EPOCHS} X@w = floor)\n")
    header = ["n", "d", "data", "epochs", "mistakes", "train", "sklearn", "loop", "seq", f"{EPOCHS} X@w"]
    header += ["python", "train/sklearn", "train/floor", "same"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---:|" * 2 + ":---|" + "---:|" * (len(header) - 4) + ":---:|")
    sizes = [s for s in SIZES if not args.quick or s[0] <= 100_000]
    all_same = True
    for n, d in sizes:
        X, y_clean, flips, push = dataset(n, d)
        repeats = 7 if n <= 10_000 else 5
        opened = 0.0
        for kind, gap, rate in KINDS:
            if gap != opened:  # widen (or narrow back) the empty band around the hyperplane
                push(gap - opened)
                opened = gap
            y = np.where(flips < rate, -y_clean, y_clean)
            row = measure(X, y, repeats)
            all_same &= row["same"]
            python = "-" if row["python"] is None else f"{row['python']:.2f}"
            print(
                f"| {n:,} | {d} | {kind} | {row['epochs']} | {row['mistakes']:,} "
                f"| {row['train']:.4f} | {row['sklearn']:.4f} | {row['loop']:.4f} "
                f"| {row['seq']:.4f} | {row['floor']:.4f} | {python} | {row['train'] / row['sklearn']:.2f} "
                f"| {row['train'] / row['floor']:.2f} | {'yes' if row['same'] else 'NO'} |",
                flush=True,
            )
        del X
    elapsed = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # KiB on Linux
    print(f"\nAll runs identical: {'yes' if all_same else 'NO'}. Benchmark time: {elapsed:.0f} s, "
          f"peak memory {peak:.1f} GiB.")
    if not all_same:
        sys.exit(1)


if __name__ == "__main__":
    main()
