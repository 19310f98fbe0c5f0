"""Code fits the book's code column: no chapter code line wider than 79 characters.

At a 1280 px wide window the book's code column holds 79 characters of its monospace font (the
browser test measures the rendered cells: none scrolls sideways).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[2]
LIMIT = 79
CHAPTERS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_no_code_line_is_wider_than_the_code_column(path):
    nb = nbformat.read(path, as_version=4)
    wide = [(k, len(line), line.strip()[:50]) for k, cell in enumerate(nb.cells) if cell.cell_type == "code"
            for line in cell.source.splitlines() if len(line) > LIMIT]
    assert not wide, (f"{path.name}: {len(wide)} code line(s) over {LIMIT} characters, e.g. cell {wide[0][0]} "
                      f"({wide[0][1]} chars: {wide[0][2]!r}...); wrap them by hand")
