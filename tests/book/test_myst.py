"""coursebook.myst, the one MyST reader: blocks, options, nesting, roles outside code, targets."""

from __future__ import annotations

import json

import pytest

from coursebook import CHAPTERS, myst

TEXT = """(sec-a)=
## A section {cite}`k1,k2`

Prose with {prf:ref}`Lemma <lem-x>` and `{ref}`not-a-role`` in code.

````{exercise} ★★
:label: ex-one
:class: dropdown

Body with a nested block:
```{math}
x
```
and a role inside {ref}`inner`.
````

:::{solution-start} ex-one
:::

```python
print("{doc}`in-code`")
```
"""


def test_blocks_are_the_top_level_directives_with_their_options_and_lines():
    blocks = myst.blocks(TEXT)
    assert [(b.name, b.argument, b.label, b.kind) for b in blocks] == [
        ("exercise", "★★", "ex-one", "exercise"), ("solution-start", "ex-one", "", "solution")]
    exercise = blocks[0]
    assert exercise.classes == ["dropdown"]
    assert exercise.body.startswith("Body with a nested block:") and "```{math}" in exercise.body
    lines = TEXT.split("\n")
    assert lines[exercise.start] == "````{exercise} ★★" and lines[exercise.end - 1] == "````"
    assert [b.name for b in myst.blocks(exercise.body)] == ["math"]


def test_roles_are_found_outside_code_only_and_split_into_text_and_target():
    roles = myst.roles(TEXT)
    assert [(r.name, r.target) for r in roles] == [("cite", "k1,k2"), ("prf:ref", "lem-x")]
    assert roles[1].text == "Lemma" and roles[1].source == "{prf:ref}`Lemma <lem-x>`"
    replaced = myst.replace_roles(TEXT, lambda r: f"<{r.name}>")
    assert "## A section <cite>" in replaced and "`{ref}`not-a-role``" in replaced
    assert '"{doc}`in-code`"' in replaced


def test_targets_and_split_into_prose_and_kinds():
    assert myst.targets(TEXT) == [(0, "sec-a")]
    kinds = [kind for kind, _ in myst.split(TEXT)]
    assert kinds == ["prose", "exercise", "solution", "prose"]   # blank lines between blocks are no prose
    joined = "\n".join(source for _, source in myst.split(TEXT))
    assert [line for line in joined.split("\n") if line.strip()] == [line for line in TEXT.split("\n") if line.strip()]


def test_an_unclosed_directive_is_a_clear_error():
    with pytest.raises(ValueError, match=r"unclosed ```\{prf:proof\} block at line 2"):
        myst.blocks("Text\n```{prf:proof}\nno end\n")


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_every_chapter_block_is_read_with_a_known_name(chapter):
    known = {"exercise", "solution", "solution-start", "solution-end", "literalinclude", "prf:proof",
             "prf:definition", "prf:theorem", "prf:lemma", "prf:proposition", "prf:algorithm", "prf:corollary",
             "admonition"}                                  # the quick checks, folded (:class: dropdown)
    cells = json.loads(chapter.read_text(encoding="utf-8"))["cells"]
    names = [b.name for c in cells if c["cell_type"] == "markdown" for b in myst.blocks("".join(c["source"]))]
    assert names and set(names) <= known
    assert names.count("solution-start") == names.count("solution-end")
