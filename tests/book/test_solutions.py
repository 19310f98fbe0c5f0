"""coursebook.solutions, the one solution filter: plain and gated solutions out of a MyST notebook."""

from __future__ import annotations

import json

import pytest

from coursebook import CHAPTERS, myst, solutions


def md(text: str) -> dict:
    return {"cell_type": "markdown", "metadata": {}, "source": text}


def code(text: str) -> dict:
    return {"cell_type": "code", "metadata": {}, "source": text, "outputs": [], "execution_count": None}


NOTEBOOK = {"cells": [
    md("```{exercise}\n:label: e1\nAsk.\n```\n\n```{solution} e1\nAnswer one.\n```\n\nAfter one."),
    md("```{exercise}\n:label: e2\nAsk again.\n```\n\nBefore gate.\n\n```{solution-start} e2\n```\nGated words."),
    code("secret = 42"),
    md("More solution text."),
    md("```{solution-end}\n```\nAfter two.\n\n```{solution-start} e2\n```"),
    code("another = 1"),
    md("```{solution-end}\n```"),
    code("print('kept')"),
], "metadata": {}}


def test_plain_and_gated_solutions_are_dropped_and_the_rest_kept():
    out = solutions.drop_from_notebook(NOTEBOOK)
    texts = ["".join(c["source"]) for c in out["cells"]]
    assert texts == ["```{exercise}\n:label: e1\nAsk.\n```\n\nAfter one.",
                     "```{exercise}\n:label: e2\nAsk again.\n```\n\nBefore gate.",
                     "After two.", "print('kept')"]
    assert NOTEBOOK["cells"][2]["source"] == "secret = 42", "the input notebook is not modified"


def test_an_unclosed_gate_is_a_clear_error():
    with pytest.raises(ValueError, match="solution-start.*no.*solution-end"):
        solutions.drop_from_notebook({"cells": [md("```{solution-start} e\n```"), code("x = 1")]})


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_no_chapter_keeps_a_solution_and_every_exercise_stays(chapter):
    notebook = json.loads(chapter.read_text(encoding="utf-8"))
    out = solutions.drop_from_notebook(notebook)
    names = [b.name for c in out["cells"] if c["cell_type"] == "markdown"
             for b in myst.blocks("".join(c["source"]))]
    before = [b.name for c in notebook["cells"] if c["cell_type"] == "markdown"
              for b in myst.blocks("".join(c["source"]))]
    assert not {"solution", "solution-start", "solution-end"} & set(names)
    assert names.count("exercise") == before.count("exercise") > 0
    assert [n for n in names if n.startswith("prf:")] == [n for n in before if n.startswith("prf:")]
