"""Count the course's lines against the machinery's (``make lines``): the ratio issue 35 asks to keep at
most 1.5, or to explain in the README where it is larger.

Content: the source lines of the chapters' cells (Markdown and code, not their stored outputs), the prose
pages of book/ and the question banks. Machinery: the Sphinx and command-line stages (book/_ext), the
book's own scripts and styles (book/_static, JS and CSS), the tests, the Makefile, .ci and the benchmarks.
Blank lines are not counted; generated data (the playground's presets JSON) is neither.

    python -m coursebook.lines          # one line per part, then the totals and the ratio
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from . import CHAPTERS, ROOT


def nonblank(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def cell_lines(path: Path) -> int:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return sum(1 for cell in cells for line in "".join(cell["source"]).splitlines() if line.strip())


def files(folder: str, *patterns: str) -> list[Path]:
    return sorted({p for pattern in patterns for p in (ROOT / folder).rglob(pattern) if p.is_file()})


def parts() -> dict[str, dict[str, int]]:
    banks = files("book/instructor", "bank_*.md")
    pages = [p for p in files("book", "*.md") if p not in banks and "_ext" not in p.parts]
    return {
        "content": {
            "chapters' cells": sum(map(cell_lines, CHAPTERS)),
            "prose pages (book/*.md)": sum(map(nonblank, pages)),
            "question banks": sum(map(nonblank, banks)),
        },
        "machinery": {
            "book/_ext (stages)": sum(map(nonblank, files("book/_ext", "*.py", "*.js"))),
            "book/_static (JS, CSS)": sum(map(nonblank, files("book/_static", "*.js", "*.css"))),
            "tests": sum(map(nonblank, files("tests", "*.py"))),
            "benchmarks": sum(map(nonblank, files("benchmarks", "*.py"))),
            "Makefile, .ci": nonblank(ROOT / "Makefile") + sum(map(nonblank, files(".ci", "*"))),
        },
    }


def main() -> int:
    counted = parts()
    for side, found in counted.items():
        for name, count in found.items():
            print(f"{side:<10} {name:<26} {count:>7,}")
    content, machinery = (sum(counted[side].values()) for side in ("content", "machinery"))
    print(f"content {content:,} lines, machinery {machinery:,} lines: machinery / content = {machinery / content:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
