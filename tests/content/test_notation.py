"""One meaning per symbol: the symbols of chapters 6-10, the banks and the package's docstrings keep
the meaning book/notation.page gives them, and the notation page says what the chapters and the
package do.
"""

from __future__ import annotations

import json
import re

import numpy as np

import perceptron as pc
from coursebook import CHAPTERS, ROOT

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


# Issue 34, item 3: one meaning per symbol, no exceptions.

STEMS = [p.stem for p in CHAPTERS]
BANKS = sorted((ROOT / "book" / "instructor").glob("bank_*.md"))


def code_cells(stem: str) -> str:
    nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "code")


def everything() -> dict[str, str]:
    """Every text the rule covers: chapters, banks, homework notebooks and checks, the package's source."""
    texts = {stem: markdown(stem) for stem in STEMS}
    texts |= {p.name: p.read_text(encoding="utf-8") for p in BANKS}
    for pattern in ("notebooks/homework/*.ipynb", "src/perceptron_homework/**/*.py", "src/perceptron/*.py"):
        texts |= {str(p.relative_to(ROOT)): p.read_text(encoding="utf-8") for p in ROOT.glob(pattern)}
    return texts


def test_the_notation_page_has_no_exceptions():
    """The page used to excuse w_k (class k in chapter 9) and gamma (other margins in chapters 6 and 9)."""
    head = NOTATION.read_text(encoding="utf-8").split("## Symbols")[0]
    assert "except" not in head.replace("no exceptions", "") and "second meaning" not in head
    assert "The subscript $k$ counts updates" in head
    assert "class $k$" not in notation_row("$w_y, b_y$")
    assert "another kind of margin" not in NOTATION.read_text(encoding="utf-8")


def test_the_subscript_k_never_names_a_class():
    """w_k is the weight after k updates; chapter 9's class weights are w_y (a label), never w_k."""
    for name, text in everything().items():
        for bad in (r"class \$k\$", r"class k against", r"\bs_k\(x", r"\\phi\(x, k\)", r"sum_k \\lVert w", r"row \$k\$ holding",
                    r"\(w_k, b_k\) per class", r"weight vector \$w_k\$ and a bias \$b_k\$"):
            assert not re.search(bad, text), (name, bad)


def test_epsilon_is_a_test_error_only():
    """Chapter 5's cosine argument wrote its margin as epsilon, chapter 6's test error is epsilon(h)."""
    for stem in STEMS:
        if stem != "06_nonseparable":
            # test error of a named classifier, epsilon(h), is the one meaning (chapter 8's held-out bound)
            assert not re.search(r"\\v?arepsilon(?!\(h\))|\\epsilon", markdown(stem)), stem
    assert r"\varepsilon(h)" in notation_row(r"$\varepsilon(h)$")


def test_a_star_is_the_best_and_a_unit_separator_is_u():
    """w* is the maximum-margin hyperplane; any unit separator (bank 5, chapter 9's stacked weights) is u."""
    for name, text in everything().items():
        assert not re.search(r"unit \$w\^\\star\$ (separates|has|satisfy|with)|stacked weights \$v\^\\star\$|v\^\\star =", text), name
    assert "never an arbitrary separator" in NOTATION.read_text(encoding="utf-8")


def test_one_gamma_row_and_m_is_a_loss_argument():
    """Bare gamma has one row (a margin a bound assumes); m is a loss's argument, not chapter 5's m(v)."""
    rows = [r for r in NOTATION.read_text(encoding="utf-8").splitlines() if r.startswith((r"| $\gamma$", r"| $\gamma > 0$"))]
    assert len(rows) == 2 and "as in chapter 5" in rows[1], rows  # chapter 5's row and chapter 9's pointer to it
    assert "m(v)" not in markdown("05_convergence")


def test_the_cycling_proof_reuses_no_letter_of_the_page():
    """The proof had d (features), u (unit vector), e (basis vector), m (margin), V and J (chapter 10), s (scale)."""
    text = markdown("06_nonseparable")
    proof = text[text.index("The proof of the perceptron cycling theorem"):text.index("## Exact cycles")]
    for letter in "dueVJsm":
        assert not symbol_in_math(proof, letter), (letter, symbol_in_math(proof, letter)[:2])
    # the second review: a (Radon's a_i), q (Radon's point), S (the states S_T of the periodicity
    # proposition), t (chapter 6's online index), C (the soft-margin price), tau (the margin
    # perceptron's threshold) and lambda (chapter 4's multipliers) are on the page too
    for letter in ["a", "q", "S", "t", "C", r"\\tau", r"\\lambda"]:
        assert not symbol_in_math(proof, letter), (letter, symbol_in_math(proof, letter)[:2])
    theorem = text[text.index(":label: thm-ch6-cycling"):text.index("With $z_i = ")]
    assert not symbol_in_math(theorem, "C"), symbol_in_math(theorem, "C")
    assert "the bound $D$ on" in notation_row("$z_i$; $B$, $D$")
    head = NOTATION.read_text(encoding="utf-8").split("## Symbols")[0]
    for local in (r"$\zeta$", r"$\psi_j$", r"$\Theta$", r"$\omega_j$", "$l_0$", "$l_1$", "$Z$", "$P$"):
        assert local in head and local.strip("$") in proof, local


def test_biases_are_b_in_code_and_B_is_the_cycling_constant():
    sources = [code_cells("06_nonseparable")] + [p.read_text(encoding="utf-8") for p in (ROOT / "src" / "perceptron").glob("*.py")]
    for text in sources:
        assert not re.search(r"(?<![\w.\"'])B\[|(?<![\w.])B = np\.", text)
    assert "its constant $B$" in notation_row("$z_i$; $B$, $D$")

# ---- one symbol for one thing across chapters, homework, banks and package (the second review, issue 21)

def notebook(stem: str, folder: str = "notebooks") -> dict:
    return json.loads((ROOT / folder / f"{stem}.ipynb").read_text(encoding="utf-8"))


def cells(nb: dict, kind: str) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == kind]


def markdown_of_the_book() -> dict[str, str]:
    """Chapters, homework masters (markdown cells), banks, notation and homework pages."""
    texts = {p.stem: "\n".join(cells(json.loads(p.read_text(encoding="utf-8")), "markdown"))
             for p in [*CHAPTERS, *sorted((ROOT / "notebooks" / "homework").glob("hw*.ipynb"))]}
    for page in [*sorted((ROOT / "book" / "instructor").glob("bank_*.md")), ROOT / "book" / "notation.md",
                 ROOT / "book" / "homework.md"]:
        texts[page.stem] = page.read_text(encoding="utf-8")
    return texts


def test_one_symbol_for_the_augmentation_constant():
    """kappa, as on the notation page; c is a scale factor there."""
    in_prose = [r"\(x(?:_i)?, ?c\)", r"\bb ?/ ?c\b", r"\bc\^2\)", r"\(c = R\)", r"y_i\^2 c\^2",
                r"\bc = 1\b(?![/.\d])"]
    in_package = [r"``c``", r"\(x, c\)", r"b / c\b", r"c\*\*2", r"\bc = bias_scale"]
    texts = markdown_of_the_book()
    assert "$\\kappa > 0$ the appended constant" in texts["notation"]
    texts |= {p.stem + " (code)": "\n".join(cells(json.loads(p.read_text(encoding="utf-8")), "code"))
              for p in CHAPTERS}
    for name, text in texts.items():
        hits = [p for p in in_prose if re.search(p, text)]
        assert not hits, f"{name}: the augmentation constant is written c: {hits}"
    for path in (ROOT / "src" / "perceptron").glob("*.py"):
        hits = [p for p in in_package if re.search(p, path.read_text(encoding="utf-8"))]
        assert not hits, f"{path.name}: the augmentation constant is written c: {hits}"


def test_the_augmented_margin_is_always_starred():
    """gamma~* is the best augmented margin (notation page); a bare gamma~ is not defined anywhere."""
    bare = re.compile(r"\\tilde ?\\gamma(?!\^\\star|\^\{\\star)")
    for name, text in markdown_of_the_book().items():
        assert not bare.findall(text), f"{name}: \\tilde\\gamma without its star"


def test_the_periodicity_statement_does_not_reuse_the_name_of_the_states():
    """ch 6: the states are S_T (after T passes), the transient T_0 and the period Q; neither s nor p
    (a dimension) nor e (e_t is a basis vector) names anything else in the statement."""
    text = next(t for t in cells(notebook("06_nonseparable"), "markdown") if ":label: prop-ch6-periodic" in t)
    assert "$s \\ge 0$" not in text and "$T_0 \\ge 0$" in text and "S_{T_0} = S_{T_0 + Q}" in text
    assert "e_0" not in text and "p \\ge 1" not in text


def test_homework_3_uses_the_books_notation():
    text = "\n".join(cells(notebook("hw3_convergence", "notebooks/homework"), "markdown"))
    for old in ("\\gamma_0", "R'", "\\gamma'", "_{\\text{aug}}"):
        assert old not in text, f"hw3 still writes {old}"
    assert "\\tilde R/\\tilde\\gamma^\\star" in text and "\\gamma^\\star_0" in text


def test_chapter_code_calls_the_threshold_tau_where_the_prose_does():
    for path in CHAPTERS:
        nb = json.loads(path.read_text(encoding="utf-8"))
        if "\\tau" in "\n".join(cells(nb, "markdown")):
            assert not re.search(r"\btheta\b", "\n".join(cells(nb, "code"))), f"{path.stem}: theta for tau"


# ---- issue 32, item 7: the page may not claim one meaning for a letter that has two


def rows_by_chapter() -> dict[str, dict[int, str]]:
    """Each letter a row of the page defines (alone, or with its arguments, ``=``, ``\\in``, ``>``), by chapter;
    a row that says "as in chapter N" repeats a meaning and is left out."""
    body = NOTATION.read_text(encoding="utf-8").split("## Symbols", 1)[1].split("## Conventions")[0]
    parts = re.split(r"^### Chapter (\d+)", body, flags=re.MULTILINE)
    found: dict[str, dict[int, str]] = {}
    for number, table in zip(parts[1::2], parts[2::2]):
        for line in table.splitlines():
            if not line.startswith("| $"):
                continue
            symbols, meaning = line.split(" | ")[:2]
            if re.search(r"as in chapter \d", meaning):
                continue
            for formula in re.findall(r"\$([^$]+)\$", symbols):
                letter = re.match(r"(\\[A-Za-z]+|[A-Za-z])(?=\(| =| \\in| >| \\ge|$)", formula.strip())
                if letter:
                    found.setdefault(letter.group(1), {}).setdefault(int(number), line)
    return found


def test_a_letter_with_rows_in_two_chapters_is_declared_to_serve_twice():
    """delta was chapter 1's directed distance and chapter 6's confidence, D the cycling bound and a tree's depth,
    g a dual function and a kernel width, while the page claimed one meaning per symbol with no exceptions."""
    head = NOTATION.read_text(encoding="utf-8").split("## Symbols")[0]
    rule = head[head.index("letters serve twice**"):]
    declared = {m.split("(")[0] for m in re.findall(r"\$(\\?[A-Za-z]+)(?:\([^$]*\))?\$", rule)}
    twice = {letter for letter, chapters in rows_by_chapter().items() if len(chapters) > 1}
    assert r"\delta" in twice and "D" in twice  # the page lists both meanings of each
    # gamma's meanings are told apart by the margin rule (arguments, a star, bare)
    assert twice - {r"\gamma"} <= declared, twice - {r"\gamma"} - declared
    assert "no exceptions" not in head and "one meaning per symbol, but for four letters" in head
    for letter in declared:
        assert f"${letter}" in head.split("Four rules")[0], letter  # named in the opening sentence too
    assert declared == {r"\delta", "g", "D", "p"}, declared


def test_the_core_uses_p_only_as_a_dimension_and_delta_with_its_point():
    """Chapter 1 wrote the points of H as p, q and chapter 5 an exponent as p; chapter 1 wrote the distance bare."""
    for stem in ("01_geometry", "02_update_rule", "04_margins", "05_convergence"):
        text = markdown(stem)
        for formula in symbol_in_math(text, "p"):
            assert not re.search(r"(?<![A-Za-z\\{])p(?![A-Za-z])", formula.replace(r"\mathbb{R}^p", "")), (stem, formula)
        for formula in symbol_in_math(text, r"\\delta"):
            assert not re.search(r"\\delta(?![(_])", formula), (stem, formula)
    assert r"| $\delta(x) = " in NOTATION.read_text(encoding="utf-8").split("### Chapter 2")[0]


def test_the_functional_margin_m_i_is_filed_under_chapter_2():
    ch2 = NOTATION.read_text(encoding="utf-8").split("### Chapter 2")[1].split("### Chapter 3")[0]
    assert "| $m_i(w, b) = y_i (w \\cdot x_i + b)$ |" in ch2
    assert "$m_i(w, b) = y_i (w \\cdot x_i + b)$" in markdown("02_update_rule")
