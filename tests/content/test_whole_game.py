"""The whole game on the home page (issue 32): the picture, the rule, a run and the guarantee, early and exact.

book/intro.md's section "The whole game in ten minutes" shows chapter 2's first figure, states the update
rule, runs it and states the convergence guarantee. Nothing in it is executed by the book, so this file ties
it to chapter 2, whose outputs strict nbval checks against a fresh run: the code is a cell of chapter 2, the
printed lines are that cell's stored output, the figure is that chapter's stored image, and every number
the section quotes is printed by chapter 2. It also measures how far into the home page each part comes.

Mistakes and errors (book/notation.md): a *mistake* is a point with y (w.x + b) <= 0 during training, an
*error* a point whose prediction sgn(w.x + b) is not its label. In chapters 1-3 a variable named for
errors counts errors, never the points with margin <= 0.
"""

from __future__ import annotations

import base64
import json
import re
from pathlib import Path

import pytest
import yaml

from coursebook import ROOT

INTRO = ROOT / "book" / "intro.md"
CH2 = ROOT / "notebooks" / "02_update_rule.ipynb"
OWN = [ROOT / "notebooks" / f"{stem}.ipynb" for stem in ("01_geometry", "02_update_rule", "03_sgd")]
WORDS_PER_CODE_LINE = 10
BUDGET = 1500          # about ten minutes of reading


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def cell(path: Path, cell_id: str) -> dict:
    return next(c for c in cells(path) if c.get("id") == cell_id)


def section() -> str:
    text = INTRO.read_text(encoding="utf-8")
    assert "## The whole game in ten minutes" in text, "book/intro.md has no whole-game section"
    return text.split("## The whole game in ten minutes", 1)[1].split("\n## ", 1)[0]


def fenced(text: str, info: str) -> list[str]:
    return re.findall(rf"^```{re.escape(info)}\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL)


def reading_words(text: str) -> int:
    """Words of a Markdown text, a line of a ```python block counting as ten (the issue's measure)."""
    words, in_code = 0, False
    for line in text.splitlines():
        if line.startswith("```"):
            in_code = line.startswith("```python") and not in_code
            continue
        words += WORDS_PER_CODE_LINE if in_code and line.strip() else 0 if in_code else len(line.split())
    return words


def test_the_code_is_chapter_2s_cell_and_prints_its_stored_output():
    code, = fenced(section(), "python")
    output, = fenced(section(), "text")
    run_it = cell(CH2, "run-it")
    assert [line for line in code.splitlines() if line.strip()] == \
        [line for line in "".join(run_it["source"]).splitlines() if line.strip()]
    stdout = "".join("".join(o["text"]) for o in run_it["outputs"] if o.get("name") == "stdout")
    assert output == stdout


def test_the_figure_is_chapter_2s_first_figure_with_its_description():
    text = section()
    path = re.search(r"^```\{figure\} (\S+)", text, flags=re.MULTILINE)[1]
    alt = re.search(r"^:alt: (.+)$", text, flags=re.MULTILINE)[1]
    first = cell(CH2, "d28886c5")
    png, = [o["data"]["image/png"] for o in first["outputs"] if "image/png" in o.get("data", {})]
    assert (INTRO.parent / path).read_bytes() == base64.b64decode(png), "re-copy chapter 2's first figure"
    described = yaml.safe_load((ROOT / "book" / "figure_descriptions.yml").read_text(encoding="utf-8"))
    assert alt == described["static"]["d28886c5"]["alt"]


def test_every_number_the_section_quotes_is_printed_by_chapter_2():
    printed = " ".join("".join(o.get("text", "")) + json.dumps(o.get("data", {}).get("text/plain", ""))
                       for c in cells(CH2) if c["cell_type"] == "code" for o in c["outputs"])
    prose = re.sub(r"```.*?```", "", section(), flags=re.DOTALL)
    quoted = set(re.findall(r"(?<![\w.$])-?\d+\.\d+", prose))
    assert quoted, "the section quotes no measured number"
    assert {q for q in quoted if q.lstrip("-") not in printed} == set()


def test_the_rule_run_and_guarantee_come_within_ten_minutes_of_the_home_page():
    text = INTRO.read_text(encoding="utf-8")
    to_rule = text.index(r"w \leftarrow w + \eta\, y_i x_i")
    to_run = text.index("```text")
    to_guarantee_end = text.index("**Where the chapters go deeper.**")
    counts = [reading_words(text[:end]) for end in (to_rule, to_run, to_guarantee_end)]
    assert counts == sorted(counts) and counts[-1] <= BUDGET, counts
    assert "{doc}`playground <playground>`" in section()


def test_the_intro_states_the_books_conventions_as_chapter_2_does():
    algorithm = next("".join(c["source"]) for c in cells(CH2) if "{prf:algorithm}" in "".join(c["source"]))
    text = section()
    for formula in (r"y_i (w \cdot x_i + b) \le 0", r"w \leftarrow w + \eta\, y_i x_i", r"b \leftarrow b + \eta\, y_i"):
        assert formula in algorithm and formula in text, formula
    assert r"\operatorname{sgn}(0) = +1" in text


def assigned_names(source: str) -> list[tuple[str, str]]:
    """(name, right-hand side) of the simple assignments of a code cell, a statement per line."""
    import ast
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found.append((target.id, ast.unparse(node.value)))
    return found


@pytest.mark.parametrize("chapter", OWN, ids=lambda p: p.stem)
def test_a_count_named_errors_counts_errors_not_mistakes(chapter):
    wrong = []
    for c in cells(chapter):
        if c["cell_type"] != "code" or "remove-cell" in c["metadata"].get("tags", []):
            continue
        for name, value in assigned_names("".join(c["source"])):
            if "error" in name and ("<= 0" in value or ("count_errors(" in value and "rule='sign'" not in value)):
                wrong.append((c.get("id"), name))
    assert not wrong, f"a count of margins <= 0 (mistakes) named as errors: {wrong}"


def test_the_notation_page_defines_mistake_and_error_once():
    notation = (ROOT / "book" / "notation.md").read_text(encoding="utf-8")
    assert notation.count("A *mistake* is") == 1 and notation.count("An *error* is") == 1


def test_the_lifting_example_gives_the_same_score_both_ways():
    """The guarantee's worked example of lifting: x -> (x, 1), (w, b) -> one vector, the score unchanged."""
    text = section()
    vector = r"\((-?\d+(?:, -?\d+)*)\)"
    numbers = lambda s: [int(v) for v in s.split(", ")]
    x, lifted = (numbers(v) for v in re.search(rf"\$x = {vector}\$ becomes the lifted point \${vector}\$", text).groups())
    w, b, joined = re.search(rf"\$w = {vector}\$ and \$b = (-?\d+)\$ become \${vector}\$", text).groups()
    w, b, joined = numbers(w), int(b), numbers(joined)
    assert lifted == x + [1] and joined == w + [b]
    plain, lifted_score = (int(v) for v in re.search(
        r"\$w \\cdot x \+ b = [^$=]+= (-?\d+)\$, and\s+\$[^$=]+= [^$=]+= (-?\d+)\$ too", text).groups())
    score = sum(a * c for a, c in zip(w, x)) + b
    assert plain == lifted_score == score == sum(a * c for a, c in zip(joined, lifted))
