"""Wrap the chapters' code cells to the book's code column (79 characters, tests/book/test_code_width.py).

Only cells with a line over the limit are touched: each is reformatted by black (line length 79,
its string-splitting feature on, so long f-strings become implicit concatenations) and the
notebook is written back cell by cell, keeping the repository's JSON layout. Lines black cannot
shorten (a long URL or a long string with no space) are reported. Re-execute the notebooks
afterwards so the committed outputs stay valid (outputs must not change: the code means the same).

    python tools/wrap_code_cells.py notebooks/0*.ipynb   # needs black installed
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import nbformat

LIMIT = 79


def long_lines(source: str) -> list[str]:
    return [line for line in source.splitlines() if len(line) > LIMIT]


def black(source: str) -> str:
    lines = source.splitlines()
    magics = [i for i, line in enumerate(lines) if line.lstrip().startswith(("%", "!"))]
    if magics:  # black does not parse IPython magics: leave such a cell to a person
        raise ValueError("cell has IPython magics")
    out = subprocess.run([sys.executable, "-m", "black", "-q", "-l", str(LIMIT), "--preview",
                          "--enable-unstable-feature", "string_processing", "-"],
                         input=source, capture_output=True, text=True, check=True)
    return out.stdout.rstrip("\n")


def main(paths: list[str]) -> int:
    left = 0
    for path in map(Path, paths):
        nb = nbformat.read(path, as_version=4)
        changed = False
        for k, cell in enumerate(nb.cells):
            if cell.cell_type != "code" or not long_lines(cell.source):
                continue
            wrapped = black(cell.source)
            if wrapped != cell.source:
                cell.source, changed = wrapped, True
            for line in long_lines(cell.source):
                left += 1
                print(f"{path.name} cell {k}: still {len(line)} characters: {line.strip()[:60]}...")
        if changed:
            nbformat.write(nb, path)
    return 1 if left else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
