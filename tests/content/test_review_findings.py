"""The second mathematical review's findings (issue 21), each checked so that it cannot come back.

Where a finding is a number, the number is recomputed; where it is a wrong sentence or a symbol
used in two senses, the corrected statement is checked in the source.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import perceptron as pc
from coursebook import CHAPTERS, ROOT


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


def test_petals_solution_prints_each_bound_under_its_own_name():
    """ch 8, ex-real-petals: (R/gamma*)^2 and the augmented bound of bias="one" are two numbers."""
    nb = notebook("08_real_data")
    cell = next(c for c in nb["cells"] if c["cell_type"] == "code" and "features=(2, 3)" in "".join(c["source"]))
    printed = "".join("".join(o.get("text", "")) for o in cell["outputs"])
    plain = float(re.search(r"\(R/gamma\*\)\^2 = ([\d.]+)", printed).group(1))
    augmented = float(re.search(r"\(R~/gamma~\*\)\^2 = ([\d.]+)", printed).group(1))
    X, y = pc.datasets.load_iris_pair(features=(2, 3))
    Xt = np.column_stack([X, np.ones(len(y))])
    assert plain == round((pc.radius(X) / pc.max_margin(X, y).gamma) ** 2, 1) == 67.2
    assert augmented == round((pc.radius(Xt) / pc.max_margin(Xt, y, bias="none").gamma) ** 2, 1)
    assert augmented == round(pc.mistake_bound(X, y, bias="one"), 1) == 410.2
    solution = next(t for t in cells(nb, "markdown") if "It converges after 4 mistakes" in t)
    assert "(R/\\gamma^\\star)^2 \\approx 67" in solution
    assert "(\\tilde R/\\tilde\\gamma^\\star)^2 \\approx 410" in solution


def test_margin_bounds_are_stated_with_their_square_root():
    """ch 7: Rademacher margin bounds are of order sqrt((R/gamma)^2 / n), not (R/gamma)^2 / n."""
    text = "\n".join(cells(notebook("07_beyond_linear"), "markdown"))
    sentence = re.search(r"prove such margin bounds.*?\.", text, flags=re.DOTALL).group(0)
    assert "\\sqrt{(R/\\gamma)^2 / n}" in sentence and "\\sqrt{d / n}" in sentence


def test_the_best_line_on_the_circles_errs_on_about_a_third():
    """ch 7: a line does better than chance on the circles, but not much."""
    X, y = pc.datasets.make_circles(200, noise=0.1, seed=0)
    errors = pc.fewest_errors_line(X, y).errors
    assert 0.3 < errors / len(y) < 0.4 and round(3 * errors / len(y)) == 1
    text = "\n".join(cells(notebook("07_beyond_linear"), "markdown"))
    assert "better than chance" not in text and "the best line gets about a third of the points wrong" in text


def test_gallants_theorem_is_not_claimed_for_pc_pocket():
    """ch 6: where Gallant's theorem is stated, the text says pc.pocket samples differently."""
    for text in cells(notebook("06_nonseparable"), "markdown"):
        if "pocket convergence theorem" in text:
            assert "permutation" in text and "not proved for it" in text
    assert "not for this one" in pc.pocket.__doc__


def test_the_bound_with_a_bias_is_credited_to_cristianini_and_shawe_taylor():
    """ch 5: Block and Novikoff proved the bound through the origin; the (2R/gamma)^2 form is C&ST's."""
    text = "\n".join(cells(notebook("05_convergence"), "markdown"))
    title = re.search(r"```\{prf:theorem\} (.*)\n:label: ch5-thm-block", text).group(1)
    assert "Cristianini" in title and "Block" not in title
    assert "Block and Novikoff's $(2R" not in text
    assert "@book{cristianini2000introduction," in (ROOT / "book" / "references.bib").read_text(encoding="utf-8")


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


def test_the_perceptron_can_return_a_unit_w():
    """ch 4 must not say it never does: ch5-ex-tight with d = 1 ends at w = e_1."""
    run = pc.train([[1.0], [-1.0]], [1, -1], bias="none")
    assert run.w.tolist() == [1.0] and run.mistakes == 1
    assert "never returns a unit" not in "\n".join(cells(notebook("04_margins"), "markdown"))


def test_removing_a_support_vector_keeps_the_condition_on_the_labels():
    text = "\n".join(cells(notebook("04_margins"), "markdown"))
    assert "As long as both labels remain, deleting a point" in text
    with pytest.raises(ValueError, match="only one class"):
        pc.max_margin([[1.0], [2.0]], [1, 1])


def test_the_intro_does_not_call_the_perceptron_the_oldest_learning_algorithm():
    assert "oldest" not in (ROOT / "book" / "intro.md").read_text(encoding="utf-8")


def test_mistakes_are_not_said_to_measure_the_ratio():
    for text in ["\n".join(cells(notebook("08_real_data"), "markdown")),
                 (ROOT / "book" / "instructor" / "bank_08.md").read_text(encoding="utf-8")]:
        assert not re.search(r"[Mm]istakes(?: during training)? measure", text)
        assert "they depend on the order" in text


def test_bound_docstrings_call_the_bound_a_bound():
    import perceptron.bounds
    import perceptron.training

    assert pc.mistake_bound.__doc__.startswith("Return an upper bound on the number of mistakes")
    assert "mistake_bound : an upper bound on the number of mistakes" in perceptron.training.train.__doc__
    for module in (perceptron.bounds, perceptron.training):
        assert "largest number of mistakes" not in Path(module.__file__).read_text(encoding="utf-8")


def test_exercise_1_2_points_at_a_named_section_that_asserts_the_flip():
    nb = notebook("01_geometry")
    solution = next(t for t in cells(nb, "markdown") if "{solution} ex-ch1-negative" in t)
    assert "neighbour" not in solution
    label = re.search(r"\{ref\}`([^`]+)` asserts the flip only", solution).group(1)
    start = next(i for i, c in enumerate(nb["cells"]) if f"({label})=" in "".join(c["source"]))
    first = next(i for i in range(start, len(nb["cells"])) if nb["cells"][i]["cell_type"] == "code")
    code = "".join(nb["cells"][first]["source"])
    for cell in nb["cells"][first + 1:]:   # with its folded check cells
        if "check" not in cell["metadata"].get("tags", []):
            break
        code += "".join(cell["source"])
    assert "flipped[off_line] == -base[off_line]" in code
