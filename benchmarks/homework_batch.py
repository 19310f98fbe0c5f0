"""Grade a class of generated homework-2 submissions in the sandbox and report the throughput.

``make bench-homework`` builds homework 1, writes ``--count`` submissions (the answer key, the
empty student notebook, two planted bugs and, once each, a notebook that hangs, one that
floods its output, one that exhausts its memory and one that kills its own process) and grades
them with ``perceptron-homework grade --jobs N``. It prints the wall time, the submissions per
minute, and checks that every submission got the score it should (so a throughput is only
reported for a correct run).

Usage: ``.venv/bin/python benchmarks/homework_batch.py [--count 100] [--jobs 2]``
"""

from __future__ import annotations

import argparse
import csv
import sys
import tempfile
import time
from pathlib import Path

import nbformat

from perceptron_homework.build import build

ROOT = Path(__file__).resolve().parent.parent
ASSIGNMENT = "hw1_perceptron"
UPDATE = "return w + eta * y * np.asarray(x, dtype=float), b + eta * y"
KINDS = {  # name: (edit of the key, cell put first, expected total out of 15)
    "key": (None, "", 15),
    "empty": (None, "", 0),
    "bias_never_updated": ((UPDATE, "return w + eta * y * np.asarray(x, dtype=float), b"), "", 10),
    "update_sign_error": ((UPDATE, "return w - eta * y * np.asarray(x, dtype=float), b - eta * y"), "", 9),
}
ADVERSARIAL = {  # once each: what a class can hold
    "hangs": ("import time\nwhile True:\n    time.sleep(1)", 15),
    "floods": ("while True:\n    print('x' * 10000)", 15),
    "hogs_memory": (("hog = []\ntry:\n    while True:\n        hog.append(b'x' * (256 << 20))\n"
                     "except MemoryError:\n    del hog"), 15),
    "kills_itself": ("import os, signal\nos.kill(os.getpid(), signal.SIGKILL)", 0),
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cell-timeout", type=float, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="homework-bench-") as tmp:
        out = build(ROOT / "notebooks" / "homework" / f"{ASSIGNMENT}.ipynb", Path(tmp, "build"), run_tests=False)
        key = nbformat.read(out / "autograder" / f"{ASSIGNMENT}.ipynb", as_version=4)
        student = nbformat.read(out / "student" / f"{ASSIGNMENT}.ipynb", as_version=4)
        folder = Path(tmp, "class")
        folder.mkdir()
        expected = {}
        plan = [(name, first, score) for name, (first, score) in ADVERSARIAL.items()]
        kinds = list(KINDS.items())
        while len(plan) < args.count:
            name, (edit, first, score) = kinds[len(plan) % len(kinds)]
            plan.append((name, first, score))
        for i, (name, first, score) in enumerate(plan[: args.count]):
            nb = nbformat.from_dict(nbformat.from_dict(student if name == "empty" else key))
            nb = nbformat.reads(nbformat.writes(nb), as_version=4)
            edit = KINDS.get(name, (None,))[0]
            if edit:
                (cell,) = [c for c in nb.cells if c.cell_type == "code" and edit[0] in c.source]
                cell.source = cell.source.replace(*edit)
            if first:
                nb.cells.insert(0, nbformat.v4.new_code_cell(first))
            path = folder / f"{i:03d}_{name}.ipynb"
            nbformat.write(nb, path)
            expected[str(path)] = score
        scores = Path(tmp, "scores.csv")
        cmd = ["grade", str(out / "autograder" / f"{ASSIGNMENT}-autograder.zip"), str(folder), "--out", str(scores),
               "--jobs", str(args.jobs), "--cell-timeout", str(args.cell_timeout), "--test-timeout", "10"]
        from perceptron_homework.cli import main as cli

        start = time.perf_counter()
        code = cli(cmd)
        seconds = time.perf_counter() - start
        with open(scores, newline="") as fh:
            rows = list(csv.DictReader(fh))
    wrong = [(r["submission"], r["total"], expected[r["submission"]]) for r in rows
             if float(r["total"]) != expected[r["submission"]]]
    print(f"graded {len(rows)} submissions of {ASSIGNMENT} with --jobs {args.jobs} in {seconds:.1f} s: "
          f"{60 * len(rows) / seconds:.1f} submissions per minute")
    print(f"adversarial: {', '.join(ADVERSARIAL)} (cell limit {args.cell_timeout:g} s); wrong scores: {len(wrong)}")
    for w in wrong:
        print("  wrong:", *w)
    return 1 if code or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
