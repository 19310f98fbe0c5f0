"""The R perceptron of the 36-350 notes, repaired (book/r/perceptron_36350.R), against the package.

Runs the R code with Debian's Rscript (``make test`` installs r-base-core when it is missing) and
requires exactly the updates of ``perceptron.train(X, y, bias="radius", rule="sign")``: the same points
updated in the same order, the same final w and b, bit for bit. Data and results cross the language
boundary as hexadecimal floats, so nothing is rounded on the way.
"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import perceptron as pc
from coursebook import ROOT

R_CODE = ROOT / "book" / "r" / "perceptron_36350.R"

# Wrap classify.linear to log every prediction the training loop asks for: the visits go through
# the points in order, so the log tells which points were updated on without touching the code.
HARNESS = r"""
args <- commandArgs(trailingOnly = TRUE)
source(args[1])
lines <- readLines(args[2])
eta <- as.numeric(lines[1])
y <- as.numeric(strsplit(lines[2], " ")[[1]])
x <- do.call(rbind, lapply(lines[-(1:2)], function(l) as.numeric(strsplit(l, " ")[[1]])))
asked <- numeric(0)
n.asked <- 0
original <- classify.linear
classify.linear <- function(x, w, b) {
  p <- original(x, w, b)
  n.asked <<- n.asked + 1
  asked[n.asked] <<- p
  p
}
fit <- perceptron(x, y, learning.rate = eta)
cat(sprintf("%a", as.numeric(fit$w)), "\n")
cat(sprintf("%a", fit$b), "\n")
cat(fit$mistakes.made, "\n")
cat(asked, "\n")
"""


def rscript() -> str:
    path = shutil.which("Rscript")
    if path is None:
        pytest.fail("Rscript is missing: `make test` installs Debian's r-base-core (make rscript)")
    return path


def run_r(X, y, eta, tmp_path):
    X = np.asarray(X, dtype=float)
    data = tmp_path / "data.txt"
    rows = [" ".join(float(v).hex() for v in row) for row in X]
    data.write_text("\n".join([float(eta).hex(), " ".join(str(int(v)) for v in y), *rows]) + "\n")
    harness = tmp_path / "harness.R"
    harness.write_text(HARNESS)
    out = subprocess.run([rscript(), "--vanilla", str(harness), str(R_CODE), str(data)],
                         capture_output=True, text=True, timeout=300, check=True).stdout.splitlines()
    w = np.array([float.fromhex(v) for v in out[0].split()])
    b = float.fromhex(out[1].strip())
    k = int(out[2])
    asked = np.array([int(float(v)) for v in out[3].split()])
    visits = np.arange(len(asked)) % len(y)
    updated = visits[asked != np.asarray(y)[visits]]
    return w, b, k, updated.tolist()


def integer_grid(n, seed):
    """Separable points on a small integer grid: many scores are exactly 0 along the run."""
    rng = np.random.default_rng(seed)
    while True:
        X = rng.integers(-4, 5, size=(n, 2)).astype(float)
        y = np.where(X[:, 0] + 2 * X[:, 1] - 1 > 0, 1, -1)
        if abs(len(set(y.tolist()))) == 2 and np.all(X[:, 0] + 2 * X[:, 1] - 1 != 0):
            return X, y


def datasets():
    X_iris, y_iris = pc.datasets.load_iris_pair("setosa", "versicolor")
    cases = {
        "toy": (np.array([[2.0, 1.0], [1.0, 3.0], [-1.0, -1.0], [-2.0, 1.0]]), np.array([1, 1, -1, -1])),
        "grid-a": integer_grid(30, 1),
        "grid-b": integer_grid(60, 2),
        "irises in mm": (np.round(10 * X_iris[::4]), y_iris[::4]),   # every 4th flower
        "random 3-d": pc.datasets.make_separable(40, 3, margin=0.05, seed=5),
    }
    return cases


CASES = [(name, eta) for name in datasets() for eta in (1.0, 0.5) if name != "irises in mm" or eta == 1.0]


@pytest.mark.parametrize(("name", "eta"), CASES)
def test_repaired_r_code_makes_the_updates_of_the_sign_rule(name, eta, tmp_path):
    X, y = datasets()[name]
    w, b, k, updated = run_r(X, y, eta, tmp_path)
    ours = pc.train(X, y, bias="radius", rule="sign", eta=eta, max_epochs=100_000, record=True)
    assert ours.converged
    assert updated == [u.index for u in ours.history], f"{name}: different points updated"
    assert k == ours.mistakes == len(updated)
    assert np.array_equal(w, ours.w) and b == ours.b, f"{name}: w, b differ: R {w}, {b}; package {ours.w}, {ours.b}"


def test_the_datasets_contain_ties_where_the_two_rules_part():
    """At least one dataset has a +1 point at score exactly 0 during the run, so the test can tell
    the notes' rule from the book's."""
    differ = []
    for name, (X, y) in datasets().items():
        sign = pc.train(X, y, bias="radius", rule="sign", max_epochs=100_000, record=True)
        margin = pc.train(X, y, bias="radius", max_epochs=100_000, record=True)
        if [u.index for u in sign.history] != [u.index for u in margin.history]:
            differ.append(name)
    assert differ == ["toy", "grid-b", "irises in mm"], differ      # as book/r_perceptron.md says
