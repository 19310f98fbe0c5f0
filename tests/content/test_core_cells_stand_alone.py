"""A reader who skips every optional section can still run (and read) every core code cell.

"Core" is what the chapter's headings say (tests/content/test_optional_sections.py): a cell under a
heading ending " (optional)", or under a subsection of such a heading, is optional; every other cell is
core, its check cells and exercise solutions included. Each name a core cell reads must be bound in the
hidden setup cell, in an earlier core cell, or in the cell itself (an assignment, a def, an import, a
loop or comprehension variable, an argument), or be a Python builtin. Found with Python's ast, so a name
inside a string or a comment does not count.
"""

from __future__ import annotations

import ast
import builtins
import json
import re

import pytest

from coursebook import CHAPTERS

MARKER = "(optional)"
HEADING = re.compile(r"^(#{1,6}) (.+)$")
BUILTINS = set(dir(builtins)) | {"display", "get_ipython", "__file__"}


def bound(tree: ast.AST) -> set[str]:
    """Every name the code binds anywhere (module level or inside its functions)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
    return names


def read(tree: ast.AST) -> set[str]:
    return {node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)}


def parse(source: str) -> ast.AST:
    # IPython magics and shell lines are not Python; no chapter should need them, but skip them.
    lines = [line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))]
    return ast.parse("\n".join(lines))


def code_cells(chapter) -> list[tuple[int, bool, str]]:
    """(index, core, source) of every code cell, core meaning under no "(optional)" heading."""
    cells = json.loads(chapter.read_text(encoding="utf-8"))["cells"]
    found, optional_level = [], None
    for index, cell in enumerate(cells):
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            fences = []  # the open ``` and ::: blocks, innermost last
            for line in source.splitlines():
                mark = re.match(r"\s*(`{3,}|:{3,})", line)
                if mark and fences and line.strip() == fences[-1]:
                    fences.pop()
                elif mark:
                    fences.append(mark[1])
                elif not fences and (heading := HEADING.match(line)):
                    level = len(heading[1])
                    if optional_level is not None and level <= optional_level:
                        optional_level = None
                    if optional_level is None and heading[2].rstrip().endswith(MARKER):
                        optional_level = level
        elif cell["cell_type"] == "code":
            found.append((index, optional_level is None, source))
    return found


def unbound_reads(chapter) -> list[tuple[int, list[str]]]:
    known, problems = set(BUILTINS), []
    for index, core, source in code_cells(chapter):
        if not core:
            continue
        tree = parse(source)
        missing = sorted(read(tree) - bound(tree) - known)
        if missing:
            problems.append((index, missing))
        known |= bound(tree)
    return problems


@pytest.mark.parametrize("chapter", CHAPTERS, ids=lambda p: p.stem)
def test_core_code_cells_read_only_names_bound_on_the_core_path(chapter):
    problems = unbound_reads(chapter)
    assert not problems, (
        f"{chapter.stem}: core code cells (cell index, names) read names bound only in optional "
        f"sections or nowhere before: {problems}"
    )


def test_the_finder_sees_a_name_bound_only_in_an_optional_section(tmp_path):
    def cell(kind, text):
        return {"cell_type": kind, "metadata": {}, "source": text, **({"outputs": []} if kind == "code" else {})}
    notebook = {"cells": [
        cell("code", "import numpy as np"),
        cell("markdown", "## Core\n\ntext"),
        cell("code", "a = np.ones(2)\nf = lambda t: t + a"),
        cell("markdown", "## Extra (optional)\n\n### Deeper\n\n```\n## not a heading\n```"),
        cell("code", "grid = a * 2"),
        cell("markdown", "## Back on the core path"),
        cell("code", "print(f(grid), [k for k in range(3)])"),
    ], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "99_x.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert unbound_reads(path) == [(6, ["grid"])]
