"""One meaning per symbol: the symbols of chapters 6-10, the banks and the package's docstrings keep
the meaning book/notation.page gives them, and the notation page says what the chapters and the
package do.
"""

from __future__ import annotations

import json
import re

import numpy as np

import perceptron as pc
from coursebook import ROOT

NOTATION = ROOT / "book" / "notation.md"


def markdown(stem: str) -> str:
    nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def math_of(text: str) -> list[str]:
    return re.findall(r"\$\$.*?\$\$|\$[^$]+\$", text, flags=re.DOTALL)


def symbol_in_math(text: str, symbol: str) -> list[str]:
    """The formulas of ``text`` that use the one-letter ``symbol`` on its own (not \\tilde-d, not in a word)."""
    pattern = re.compile(rf"(?<![A-Za-z\\{{])(?<!\\tilde ){symbol}(?![A-Za-z])")
    return [m for m in math_of(text) if pattern.search(m.replace(r"\mathbb{R}", ""))]


def notation_row(symbol_start: str) -> str:
    rows = [line for line in NOTATION.read_text(encoding="utf-8").splitlines() if line.startswith(f"| {symbol_start}")]
    assert len(rows) == 1, (symbol_start, rows)
    return rows[0]


def test_k_counts_classes_not_the_adversarys_rounds():
    """K is the number of classes (chapter 9); chapter 6's lower bound has N rounds."""
    assert not symbol_in_math(markdown("06_nonseparable"), "K")
    assert "the number of rounds of the adversary" in notation_row("$N =")
    assert "number of classes" in notation_row("$K$")


def test_p_is_a_dimension_and_the_period_of_a_cycle_has_its_own_letter():
    text = markdown("06_nonseparable")
    proposition = text[text.index(":label: prop-ch6-periodic"):text.index("What the proposition does *not* cover")]
    assert not symbol_in_math(proposition, "p"), symbol_in_math(proposition, "p")
    assert "period" not in notation_row("$p$")
    assert "`find_cycle(X, y).period`" in notation_row("$Q$")
    theorem = text[text.index(":label: thm-ch6-cycling"):text.index(":label: prop-ch6-periodic")]
    assert r"\mathbb{R}^p" in theorem


def test_w_k_is_the_weight_after_the_kth_update_in_the_vote_too():
    text = re.sub(r"\s+", " ", markdown("06_nonseparable"))
    definition = text[text.index("Run the perceptron for exactly $T$ passes"):text.index(":label: def-ch6-voted-averaged")]
    assert "distinct weight vectors" not in definition
    assert "weights after the $k$-th update" in definition
    assert "weights and bias after the $k$-th update" in notation_row("$w_k, b_k$ | weights and bias")


def test_u_is_only_a_unit_reference_vector_in_chapter_6():
    text = markdown("06_nonseparable")
    assert not [m for m in math_of(text) if re.search(r"(?<![A-Za-z\\])u_k\b|u_\{k\}", m)]


def test_chapter_9_writes_the_radius_of_augmented_points_with_a_tilde():
    """R is the radius of the points themselves (chapter 4); chapter 9's bound uses the augmented ones."""
    for text in (markdown("09_multiclass"), (ROOT / "book" / "instructor" / "bank_09.md").read_text(encoding="utf-8")):
        assert not symbol_in_math(text, "R"), symbol_in_math(text, "R")[:3]
    assert r"2 (\tilde R/\gamma)^2" in notation_row(r"$2 (\tilde R")
    X, y = [[-3.0], [0.0], [3.0]], ["A", "B", "C"]  # bank 9, E9.3: R~ = |(3, 1)| = sqrt(10)
    assert np.isclose(pc.multiclass_mistake_bound(X, y), 2 * 10 / pc.multiclass_margin(X, y) ** 2)


def test_the_slack_row_says_what_the_package_and_the_svm_compute():
    row = notation_row(r"$\xi_i")
    assert "the case $\\gamma = 1$" not in row
    assert "$\\xi_i/\\gamma$" in row and "over one pass" in row
    X, y = pc.datasets.make_overlapping(40, separation=1.0, seed=3)
    one, three = pc.tightest_hinge_bound(X, y), pc.tightest_hinge_bound(X, y, passes=3)
    # slack_norm is the norm over one pass; over T passes the bound uses sqrt(T) times it
    assert np.isclose(three.bound, ((three.radius + np.sqrt(3) * three.slack_norm) / three.gamma) ** 2)
    Xt = np.column_stack([X, np.ones(len(y))])
    u, gamma = one.u, one.gamma
    xi = np.maximum(0, gamma - y * (Xt @ u))
    assert np.isclose(np.linalg.norm(xi), one.slack_norm)
    svm_slack = np.maximum(0, 1 - y * (Xt @ (u / gamma)))  # the SVM's slack of the weights u / gamma
    assert np.allclose(svm_slack, xi / gamma)


def test_the_package_docstrings_use_the_books_letters():
    averaged = (ROOT / "src" / "perceptron" / "averaged.py").read_text(encoding="utf-8")
    assert "c_k" not in averaged and "nu_k" in averaged
    doc = pc.adversary_sequence.__doc__
    assert "``N = floor((R / gamma)**2)``" in doc and "``k = floor" not in doc
