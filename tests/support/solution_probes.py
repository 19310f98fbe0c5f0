"""Probes that find a chapter's solutions in any text: the student build's test and the student PDF's.

Every solution of every chapter (plain `{solution}` blocks and gated `{solution-start}` cells) is
turned into probes: runs of eight consecutive words, and code lines, that occur in the solution but
nowhere else in its chapter or in the book's pages. Used by tests/book/test_student_build.py (the
student HTML book and notebooks) and tests/pdf/test_student_pdf.py (the student PDF).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from coursebook import CHAPTERS, ROOT, myst

WINDOW = 8

def words(text: str) -> list[str]:
    return re.findall(r"[a-z]{2,}", text.lower())


def windows(text: str) -> set[str]:
    tokens = words(text)
    return {" ".join(tokens[i:i + WINDOW]) for i in range(len(tokens) - WINDOW + 1)}


def code_lines(text: str) -> set[str]:
    return {" ".join(line.split()) for line in text.splitlines()
            if len(line.strip()) >= 30 and not line.strip().startswith(("```", ":", "#"))}


def solutions_of(path: Path) -> tuple[list[str], str]:
    """The chapter's solutions (one text each) and the rest of its text."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    solutions, rest, gated = [], [], None
    for cell in cells:
        source = "".join(cell["source"])
        if gated is not None:
            if cell["cell_type"] == "markdown" and "{solution-end}" in source:
                before, after = source.split("{solution-end}", 1)
                solutions.append(gated + "\n" + before)
                source, gated = after.split("\n", 1)[-1], None
            else:
                gated += "\n" + source
                continue
        if cell["cell_type"] == "markdown":
            if "{solution-start}" in source:
                source, gated = source.split("{solution-start}", 1)
            for kind, text in myst.split(source):
                (solutions if kind == "solution" else rest).append(text)
        else:
            rest.append(source)
    return solutions, "\n".join(rest)


def shared_text() -> str:
    """Everything the student build may show: all chapters without solutions, and the book pages."""
    pages = [solutions_of(path)[1] for path in CHAPTERS]
    pages += [p.read_text(encoding="utf-8") for p in (ROOT / "book").glob("*.md")]
    return "\n".join(pages)


SHARED = shared_text()
SHARED_WINDOWS, SHARED_FLAT = windows(SHARED), " ".join(SHARED.split())


def probes(path: Path) -> list[tuple[set[str], set[str]]]:
    """Per solution: word windows and code lines found nowhere outside the solutions."""
    solutions, _ = solutions_of(path)
    assert solutions, f"{path.name} has no solutions to look for"
    found = [(windows(s) - SHARED_WINDOWS, {line for line in code_lines(s) if line not in SHARED_FLAT})
             for s in solutions]
    for text_probes, code_probes in found:
        assert text_probes or code_probes, f"a solution of {path.name} has no distinctive text"
    return found


def leaks(probe_sets, text: tuple[str, str]) -> int:
    """How many of the solutions (their probe sets) show in ``text``: (normalised words, flat text)."""
    words_text, code_text = text
    return sum(1 for text_probes, code_probes in probe_sets
               if any(p in words_text for p in text_probes) or any(p in code_text for p in code_probes))
