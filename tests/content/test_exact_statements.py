"""Statements a careful reader checks: each theorem-like claim carries its conditions, and each number
or comparison the prose states is the one the chapter's own runs or the package give.

Grouped by what they protect: the guarantees of chapter 6 (lower bound, cycling, Littlestone dimension,
online-to-batch), the comparisons between chapters (ties at K = 2, the credit for the cycling theorem,
universal approximation), the instructors' banks and sources, and the bibliography.
"""

from __future__ import annotations

import json
import re

import numpy as np

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
