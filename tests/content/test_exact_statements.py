"""Statements a careful reader checks: each theorem-like claim carries its conditions, and each number
or comparison the prose states is the one the chapter's own runs or the package give.

Grouped by what they protect: the guarantees of chapter 6 (lower bound, cycling, Littlestone dimension,
online-to-batch), the comparisons between chapters (ties at K = 2, the credit for the cycling theorem,
universal approximation), the instructors' banks and sources, and the bibliography.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import perceptron as pc
from coursebook import CHAPTERS, ROOT


def markdown(stem: str) -> str:
    nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")


def outputs(stem: str) -> str:
    nb = json.loads((ROOT / "notebooks" / f"{stem}.ipynb").read_text(encoding="utf-8"))
    return "\n".join("".join(o.get("text", "")) for c in nb["cells"] if c["cell_type"] == "code"
                     for o in c.get("outputs", []))


def one_line(text: str) -> str:
    return re.sub(r"\s+", " ", text)


def block(text: str, label: str) -> str:
    """The MyST directive block (```{prf:...} ... ```) carrying ``label``."""
    start = text.rindex("```{", 0, text.index(f":label: {label}"))
    return text[start:text.index("```", text.index(f":label: {label}"))]


def test_the_lower_bound_is_stated_with_its_dimension_wherever_it_is_summed_up():
    """In R^1 through the origin the perceptron makes at most one mistake: the lower bound needs d >= N."""
    text = one_line(markdown("06_nonseparable"))
    theorem = one_line(block(markdown("06_nonseparable"), "thm-ch6-lower-bound"))
    assert r"d \ge N" in theorem
    summary = text[text.index("## Summary"):text.index("### Quick checks")]
    assert r"In dimension $d \ge \lfloor (R/\gamma)^2 \rfloor$, no deterministic online learner" in summary
    # the one-dimensional case the summary mentions: one mistake at most, whatever the sequence
    rng = np.random.default_rng(0)
    x = rng.uniform(0.1, 5, 50) * rng.choice([-1, 1], 50)
    for sign in (1, -1):
        y = np.where(sign * x > 0, 1, -1)
        assert pc.train(x[:, None], y, bias="none", max_epochs=1).mistakes <= 1


def test_the_littlestone_dimension_belongs_to_a_class_on_a_domain():
    text = one_line(markdown("06_nonseparable"))
    passage = text[text.index("*Littlestone dimension*"):text.index("`pc.adversary_sequence")]
    assert "Littlestone dimension is exactly" not in passage
    assert r"class $\mathcal H$ of classifiers on a domain $\mathcal X$" in passage
    assert "infinite Littlestone dimension" in passage and "thresholds on a line" in passage
    assert "promise about the sequence" in passage


def test_the_cycling_theorem_is_proved_before_the_proposition_that_uses_it():
    text = markdown("06_nonseparable")
    after = text[text.index(":label: thm-ch6-cycling"):text.index(":label: prop-ch6-periodic")]
    assert "```{prf:proof}" in after and "### Why the weights stay bounded (optional)" in after
    assert "which we do not reproduce" not in text
    proof = after[after.index("```{prf:proof}"):]
    for step in ("induction on", "compact", "contradiction"):
        assert step in proof


def test_the_search_for_the_tightest_hinge_bound_is_not_called_a_minimum():
    text = one_line(markdown("06_nonseparable"))
    assert "that makes the bound below smallest" not in text
    assert "not a certified minimum" in text


def test_the_quick_check_counts_the_steps_between_passes():
    printed = re.search(r"got worse from one pass to the next (\d+) times in (\d+) steps", outputs("06_nonseparable"))
    assert printed, "chapter 6 prints the number of increases and of steps between passes"
    increases, steps = printed.groups()
    assert steps == "59"
    text = one_line(markdown("06_nonseparable"))
    assert f"{increases} times in the {steps} steps between its 60 passes" in text
    assert "times in 60 passes" not in text


def test_the_online_to_batch_paragraph_splits_the_bound_into_its_two_terms():
    text = one_line(markdown("06_nonseparable"))
    confidence = np.sqrt(2 * np.log(20) / 100)
    assert f"{confidence:.3f}" == "0.245" and "plus 0.245" in text
    assert "Its confidence term dominates" not in text
    assert round(pc.online_to_batch_bound(25, 100, delta=0.05), 3) == 0.495
    assert "the bound 0.495" in text and "$M/n = 0.250$" in text


def test_two_classes_differ_from_the_binary_classifier_only_on_its_boundary():
    """argmax picks the earlier class (-1) on a tie, sgn(0) = +1 picks +1."""
    text = one_line(markdown("09_multiclass"))
    passage = text[text.index("With $K = 2$ this is the binary classifier"):][:500]
    assert "the tie goes to the earlier class, $-1$" in passage
    assert r"$\operatorname{sgn}(0) = +1$" in passage
    scores = np.array([[0.0, 0.0]])  # class -1 first, as the sorted labels put it
    assert int(np.argmax(scores, axis=1)[0]) == 0 and pc.predict([[0.0]], [1.0], 0.0)[0] == 1


def test_chapter_10_credits_the_cycling_theorem_as_chapter_6_does():
    text = one_line(markdown("10_networks"))
    assert "proves the convergence theorem and the boundedness" not in text
    assert "block1970boundedness" in text
    assert "Block and Levin" in (ROOT / "src" / "perceptron" / "nonseparable.py").read_text(encoding="utf-8")
    assert "block1970boundedness" in markdown("06_nonseparable")


def test_universal_approximation_is_stated_on_a_compact_set():
    text = one_line(markdown("10_networks"))
    assert "on a bounded region as closely" not in text
    assert "on a compact set" in text


def test_e8_2_claims_only_the_inequality_between_the_two_bounds():
    """(R^2 + 1)(1 + b*^2)/gamma*^2 >= (R~/gamma~*)^2, with equality on the exercise's data, not always."""
    text = one_line((ROOT / "book" / "instructor" / "bank_08.md").read_text(encoding="utf-8"))
    solution = text[text.index("### E8.2"):text.index("### E8.3")]
    assert "is exactly" not in solution and "never below" in solution
    for X, y, stated in (([[11.0], [12.0], [9.0], [8.0]], [1, 1, -1, -1], "14645"),
                         ([[2.0], [-4.0]], [1, -1], "3.40")):
        best = pc.max_margin(X, y)
        R2 = pc.radius(X) ** 2
        product = (R2 + 1) * (1 + best.b**2 / best.w[0] ** 2) / (best.gamma / abs(best.w[0])) ** 2
        augmented = pc.mistake_bound(X, y, bias="one")
        assert product >= augmented - 1e-6
        assert stated in solution and (f"{augmented:.2f}" == stated or f"{augmented:.0f}" == stated)
    assert r"17 \cdot 2/9 \approx 3.78" in solution


def test_q10_4_distractor_d_claims_nothing_about_every_activation():
    text = one_line((ROOT / "book" / "instructor" / "bank_10.md").read_text(encoding="utf-8"))
    assert "not convex with any activation" not in text
    assert "still not convex" in text


def test_the_sources_page_names_the_labels_chapter_2_prints():
    text = one_line((ROOT / "book" / "sources.md").read_text(encoding="utf-8"))
    sentence = re.search(r"In the printed output of \{doc\}`\.\./notebooks/02_update_rule` the sign rule's runs are "
                         r"labelled (.*?)\.", text).group(1)
    printed = outputs("02_update_rule")
    labels = re.findall(r"`([^`]+)`", sentence)
    assert labels and all(label in printed for label in labels), (labels, "36-350" in printed)


def bib_entries() -> dict[str, str]:
    text = (ROOT / "book" / "references.bib").read_text(encoding="utf-8")
    return {m.group(1): m.group(2) for m in re.finditer(r"@\w+\{([^,]+),(.*?)\n\}", text, flags=re.DOTALL)}


def test_journal_articles_carry_volume_and_pages():
    text = (ROOT / "book" / "references.bib").read_text(encoding="utf-8")
    articles = re.findall(r"@article\{([^,]+),(.*?)\n\}", text, flags=re.DOTALL)
    assert articles
    incomplete = [key for key, body in articles if not re.search(r"\bvolume\s*=", body)
                  or not re.search(r"\bpages\s*=", body)]
    assert "block1970boundedness" not in incomplete, incomplete


def test_no_citation_label_is_a_title():
    """The author-year label falls back to the title when an entry has no author or editor:
    chapter 3 printed "[2-1: Linear Classifiers, n.d.]"."""
    entries = bib_entries()
    cited = set()
    for path in [*CHAPTERS, *sorted((ROOT / "book").rglob("*.md"))]:
        for keys in re.findall(r"\{cite(?::[pt])?\}`([^`]+)`", path.read_text(encoding="utf-8")):
            cited.update(k.strip() for k in keys.split(","))
    titled = sorted(k for k in cited if k in entries
                    and not re.search(r"\b(author|editor)\s*=", entries[k]))
    assert not titled, f"cited entries whose label would be their title: {titled}"


# ---- statements the second mathematical review corrected (issue 21), recomputed or checked in the source

def notebook(stem: str, folder: str = "notebooks") -> dict:
    return json.loads((ROOT / folder / f"{stem}.ipynb").read_text(encoding="utf-8"))


def cells(nb: dict, kind: str) -> list[str]:
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == kind]


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


def test_chapter_5_core_proves_one_hypothesis_at_every_update_that_occurs():
    """ch 5: each lemma holds for every k at which a k-th update occurs (a run may stop sooner); the core
    states the one hypothesis of the theorem without bias before the first lemma (no offset b_u, no second
    margin symbol), and gives the bias case its exact bound with a pointer to the optional proof."""
    text = markdown("05_convergence")
    for label in ("ch5-lem-alignment", "ch5-lem-norm"):
        assert "for every $k$ at which a $k$-th update occurs" in one_line(block(text, label)), label
    hypotheses = one_line(text[text.index("## Hypotheses, and what is counted"):text.index(":label: ch5-lem-alignment")])
    assert r"Some unit vector $u$ satisfies $y_i\, u \cdot x_i \ge \gamma$ for every $i$, with $\gamma > 0$" in hypotheses
    assert "b_u" not in hypotheses and r"\gamma^\star" not in hypotheses and r"\tilde" not in hypotheses
    bias = text[text.index("## With a bias"):text.index("### The theorem for the default bias (optional)")]
    assert r"$(\tilde R/\tilde\gamma^\star)^2$" in bias and "{prf:ref}`ch5-thm-one`" in bias
    assert ":label: ch5-thm-one" not in bias


def test_chapter_5_draws_the_augmented_margin_on_its_core_and_leaves_its_formulas_optional():
    """Issue 32: first-year readers found the augmented margin (a max-of-min over planes through the
    origin of R^(d+1)) the hardest step. Without its 3-D picture (panel 12) they could not follow the
    core ("the sheet z = 1"); with the picture and its two distance formulas on the core (panels 8-11)
    it was their costliest page. The core's bias section, labelled ch5-lifted-margin, states the lifting
    and the whole bound, draws the lifted points with the tilted plane, and reads the closest point's two
    distances off the printout; the formulas for them are the optional subsection after it. The whole
    game links to the core section."""
    cells_ = json.loads((ROOT / "notebooks" / "05_convergence.ipynb").read_text(encoding="utf-8"))["cells"]
    sources = ["".join(c["source"]) for c in cells_]
    core = next(i for i, s in enumerate(sources) if s.startswith("(ch5-lifted-margin)=\n## With a bias:"))
    start = next(i for i, s in enumerate(sources) if s.startswith("### The two distances, in formulas (optional)"))
    end = next(i for i, s in enumerate(sources) if s.startswith("### The theorem for the default bias (optional)"))
    assert core < start < end
    figure = next(i for i in range(core, start) if "plot_lifted_margin(" in sources[i])
    printed = "".join("".join(o.get("text", "")) for o in cells_[figure]["outputs"])
    to_line, to_plane = re.search(r"closest point: ([\d.]+) from the line, ([\d.]+) from the plane", printed).groups()
    assert float(to_plane) < float(to_line)
    said = one_line("\n".join(s for i, s in enumerate(sources[core:start], core) if cells_[i]["cell_type"] == "markdown"))
    assert r"$\tilde w \cdot \tilde x_i = w \cdot x_i + b$" in said and "*augmented margin*" in said
    assert f"{to_line} from the line" in said and f"only {to_plane} from the plane" in said
    assert "173.1" in said and "the appended $1$ does not scale" in said
    formulas = one_line("\n".join(sources[start:end]))
    assert rf"y_i (w \cdot x_i + b)/\lVert w \rVert = {to_line}$ from the line" in formulas
    assert rf"y_i (w \cdot x_i + b)/\sqrt{{\lVert w \rVert^2 + b^2}} = {to_plane}$ from the plane" in formulas
    assert "cuts the sheet along the line" in formulas
    home = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    whole_game = home.split("## The whole game in ten minutes", 1)[1].split("\n## ", 1)[0]
    assert "<ch5-lifted-margin>`" in whole_game and "You need not picture it" not in whole_game
