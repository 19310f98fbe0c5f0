"""Insert one markdown cell linking the playground into chapters 2, 5 and 6 (idempotent).

Each cell goes right before a given section heading; nothing else in the notebook changes, so
no output needs re-executing. Run: ``python tools/add_playground_links.py``.
"""

from __future__ import annotations

from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
CELL_ID = "playground-link"
LINKS = {
    "02_update_rule": ("## What counts as a mistake",
                       "To run the update rule on points of your own, one visit or one update at a time, open the "
                       "{doc}`playground </book/playground>`: it makes exactly the updates of `pc.train`."),
    "05_convergence": ("## The learning rate",
                       "The {doc}`playground </book/playground>` shows the number of updates on your own points "
                       "next to the bound of the chosen bias mode, with $R$ and $\\gamma^\\star$."),
    "06_nonseparable": ("## What the lecture notes claim",
                        "In the {doc}`playground </book/playground>` you can place points no line separates and "
                        "watch the perceptron cycle, with the pocket's best weights beside it."),
}


def main() -> None:
    for name, (heading, text) in LINKS.items():
        path = ROOT / "notebooks" / f"{name}.ipynb"
        nb = nbformat.read(path, as_version=4)
        if any(c.get("id") == CELL_ID for c in nb.cells):
            continue
        where = next(k for k, c in enumerate(nb.cells) if c.cell_type == "markdown" and c.source.startswith(heading))
        cell = nbformat.v4.new_markdown_cell(text)
        cell["id"] = CELL_ID
        nb.cells.insert(where, cell)
        nbformat.write(nb, path)


if __name__ == "__main__":
    main()
