"""A curious learner's edits, replayed: every chapter run with seeds and settings that are not the book's.

    python -m tests.environments.tinker [NN_name ...]     # prints what each chapter's run found

``TINKERING`` declares, per chapter, the literals a learner would change in its code cells (seeds,
learning rates, numbers of points, hidden units, epochs), as regular expressions and their
replacements. ``tinker`` applies them to every code cell but the setup cell and the check cells
(a check asserts what the prose says of the book's run; it is the teaching code a learner edits),
and fails when a substitution no longer matches anything, so that the table follows the chapters.
``run`` executes the edited chapter with nbclient in the project's kernel, going on after an error,
and ``problems`` lists what a learner must never meet: an exception in a teaching cell (any code
cell that is not a check, solutions included), or a check that fails without saying that its claim
holds for the book's settings (``perceptron.holds_for``).

In CI the tinkered chapters are the ones the Colab-like door runs (tests/environments/colab_like.py
imports this module with the Colab-like environment's Python: the standard library and nbformat
only), so tinkering costs no execution of its own; tests/environments/test_tinker.py checks the
table and the verdicts. ``python -m tests.environments.tinker`` runs them in .venv instead.
"""

from __future__ import annotations

import re
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS = ROOT / "notebooks"

# chapter stem -> [(pattern, replacement)], applied in order with re.sub to every tinkered cell.
# Chosen as a learner would: another seed, a bolder or timider learning rate, fewer or more points,
# more hidden units; never the book's values.
TINKERING: dict[str, list[tuple[str, str]]] = {
    "01_geometry": [(r"make_separable\(50\b", "make_separable(35"), (r"\bseed=4\b", "seed=5"),
                    (r"default_rng\(0\)", "default_rng(7)"), (r"default_rng\(1\)", "default_rng(2)")],
    "02_update_rule": [(r"make_separable\(30\b", "make_separable(45"), (r"\bseed=7\b", "seed=1"),
                       (r"\bseed=2\b", "seed=5"), (r"\bseed=68\b", "seed=9"), (r"\beta=1\.0\b", "eta=0.3"),
                       (r"\beta=4\.0\b", "eta=2.0")],
    "03_sgd": [(r"make_separable\(40\b", "make_separable(60"), (r"\bseed=3\b", "seed=1"),
               (r"default_rng\(0\)", "default_rng(5)"), (r"\beta=0\.5\b", "eta=2.0")],
    "04_margins": [(r"make_separable\(40\b", "make_separable(25"), (r"\bseed=2\b", "seed=6"),
                   (r"\bseed=100\b", "seed=101"), (r"default_rng\(0\)", "default_rng(3)"),
                   (r"\bseed=1\b", "seed=8")],
    "05_convergence": [(r"make_separable\(80\b", "make_separable(60"), (r"\bseed=0\b", "seed=5"),
                       (r"\bseed=11\b", "seed=12"), (r"\bseed=3\b", "seed=4"), (r"\beta=0\.1\b", "eta=0.7")],
    "06_nonseparable": [(r"make_overlapping\(100\b", "make_overlapping(70"), (r"\bseed=1\b", "seed=4"),
                        (r"\bseed=2\b", "seed=6"), (r"default_rng\(0\)", "default_rng(9)")],
    "07_beyond_linear": [(r"make_circles\(200\b", "make_circles(150"), (r"\bseed=0\b", "seed=2"),
                         (r"\bseed=1\b", "seed=5"), (r"default_rng\(0\)", "default_rng(4)")],
    "08_real_data": [(r"\bseed=0\b", "seed=3"), (r"\bmax_epochs=100\b", "max_epochs=40")],
    "09_multiclass": [(r"make_blobs\(90\b", "make_blobs(75"), (r"random_state=0\b", "random_state=4"),
                      (r"random_state=1\b", "random_state=6"), (r"\bmax_iter=100\b", "max_iter=30")],
    # 10.5 with seed 0, whose network shrinks to weights of 1e-19 (its line far out of view); 10.7's
    # slider with two hidden units, a bolder rate and fewer epochs (no epoch reaches zero errors).
    "10_networks": [(r"\bseed=0\b", "seed=4"), (r"n_hidden=2, epochs=300, seed=3\b", "n_hidden=2, epochs=300, seed=0"),
                    (r"\bn_hidden=3, eta=0\.1\b", "n_hidden=2, eta=0.5"), (r"\bseed=2\b", "seed=5"),
                    (r"(?<!_)\bepochs=300, seed=4\b", "epochs=120, seed=4")],
    "11_online_learning": [(r"default_rng\(1\)", "default_rng(6)"), (r"default_rng\(2\)", "default_rng(8)"),
                           (r"default_rng\(4\)", "default_rng(9)"), (r"make_overlapping\(400\b", "make_overlapping(250"),
                           (r"\bseed=3\b", "seed=7"), (r"\[0, 1, 2\], density=0\.1\b", "[0, 1, 2], density=0.2")],
}

CHECK_MESSAGE = "This check holds for the book's"  # what perceptron.holds_for's message says


def is_check(cell) -> bool:
    return "check" in cell.metadata.get("tags", [])


def is_setup(cell) -> bool:
    return cell.get("id", "").startswith("setup-")


def tinker(nb: nbformat.NotebookNode, stem: str) -> nbformat.NotebookNode:
    """``nb`` (chapter ``stem``, MyST source or Jupyter-native copy) with TINKERING[stem] applied to its
    teaching cells and every output cleared; ValueError if a rule matches nothing."""
    rules = TINKERING[stem]
    used = [0] * len(rules)
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        cell.outputs, cell.execution_count = [], None
        if is_check(cell) or is_setup(cell):
            continue
        for k, (pattern, replacement) in enumerate(rules):
            cell.source, n = re.subn(pattern, replacement, cell.source)
            used[k] += n
    unused = [rules[k][0] for k, n in enumerate(used) if n == 0]
    if unused:
        raise ValueError(f"{stem}: the tinkering rules {unused} match no code cell any more: update TINKERING")
    return nb


def tinkered(stem: str) -> nbformat.NotebookNode:
    """The chapter's MyST source, tinkered."""
    return tinker(nbformat.read(NOTEBOOKS / f"{stem}.ipynb", as_version=4), stem)


def run(stem: str) -> tuple[nbformat.NotebookNode, float]:
    """Execute the tinkered chapter (errors do not stop it); returns it with its outputs and the seconds taken."""
    from nbclient import NotebookClient

    nb = tinkered(stem)
    with tempfile.TemporaryDirectory() as cwd:
        start = time.perf_counter()
        NotebookClient(nb, kernel_name="python3", timeout=600, allow_errors=True, record_timing=False,
                       resources={"metadata": {"path": cwd}}).execute()
    return nb, time.perf_counter() - start


def errors(cell) -> list[dict]:
    return [o for o in cell.get("outputs", []) if o.output_type == "error"]


def problems(nb: nbformat.NotebookNode) -> list[str]:
    """What a learner would meet: a teaching cell's exception, or a check failing without saying why."""
    found = []
    for cell in nb.cells:
        for e in errors(cell):
            where = cell.get("id", "?")
            if not is_check(cell):
                found.append(f"teaching cell {where}: {e.ename}: {e.evalue}")
                return found  # the cells after it fail for the same reason (names never defined)
            if e.ename != "AssertionError" or CHECK_MESSAGE not in e.evalue:
                found.append(f"check cell {where} fails without naming the settings it holds for: "
                             f"{e.ename}: {e.evalue!r}")
    return found


def failed_checks(nb: nbformat.NotebookNode) -> list[str]:
    """The messages of the checks that failed (with the settings they name): expected under tinkering."""
    return [e.evalue for cell in nb.cells if is_check(cell) for e in errors(cell)]


def report(stem: str) -> str:
    nb, seconds = run(stem)
    lines = [f"{stem}: {seconds:.1f} s, {len(failed_checks(nb))} check(s) name the book's settings"]
    lines += [f"  PROBLEM {p}" for p in problems(nb)]
    lines += [f"  check: {m}" for m in failed_checks(nb)]
    return "\n".join(lines)


def main(stems: list[str]) -> int:
    with ProcessPoolExecutor(max_workers=2) as pool:
        for text in pool.map(report, stems or list(TINKERING)):
            print(text, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
