"""Put blank lines around `$$` display-math blocks in the chapters' markdown cells.

MyST only recognises a `$$ ... $$` block that starts a paragraph; glued to the line of text before it,
the block is rendered as broken inline math without any warning (tests/book/test_book.py catches the
leftover `$`). Usage: python tools/fix_display_math.py notebooks/*.ipynb
"""

from __future__ import annotations

import sys

import nbformat


def fix(text: str) -> str:
    out: list[str] = []
    inside_math = False
    code_fence: str | None = None
    for line in text.split("\n"):
        stripped = line.strip()
        if code_fence is None and stripped.startswith("```") and not stripped.lstrip("`").startswith("{") \
                and stripped.lstrip("`"):
            code_fence = stripped[: len(stripped) - len(stripped.lstrip("`"))]  # a code block: leave it
        elif code_fence is not None and stripped == code_fence:
            code_fence = None
        elif code_fence is None and stripped == "$$":
            if not inside_math and out and out[-1].strip():
                out.append("")
            out.append(line)
            inside_math = not inside_math
            continue
        if not inside_math and out and out[-1].strip() == "$$" and stripped and len(out) >= 2 \
                and _closes(out):
            out.append("")
        out.append(line)
    return "\n".join(out)


def _closes(out: list[str]) -> bool:
    """True when the last `$$` in ``out`` closes a block (an even number of `$$` lines so far)."""
    return sum(1 for line in out if line.strip() == "$$") % 2 == 0


def main(paths: list[str]) -> None:
    for path in paths:
        nb = nbformat.read(path, as_version=4)
        changed = 0
        for cell in nb.cells:
            if cell.cell_type == "markdown":
                new = fix(cell.source)
                changed += new != cell.source
                cell.source = new
        if changed:
            nbformat.write(nb, path)
        print(f"{path}: {changed} cell(s) fixed")


if __name__ == "__main__":
    main(sys.argv[1:])
