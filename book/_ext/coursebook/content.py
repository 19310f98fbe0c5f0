"""The course's content, read once: the chapters (cells, directive blocks with their options, labels,
gated solutions, check cells) and the question banks (questions, options, key, explanation).

Every stage that reads a chapter or a bank outside Sphinx (``solutions``, ``notebooks``, ``slides``,
``plan``, ``banks``, ``figures``), the tests and the benchmarks read them here:

- :func:`walk` is the one walk of the gated solutions (``{solution-start}`` ... ``{solution-end}``
  around executed code cells): each cell with the state of the solution before it and its gates;
- :func:`chapter` is a chapter as :class:`Chapter`, its cells as :class:`Cell`;
- :func:`statements` is the one label map: every labelled ``{prf:...}`` block of the chapters;
- :func:`parse` is the one reader of a bank's concept questions (:class:`Question`), :class:`Bank` a
  bank file;
- :func:`png_size` reads a PNG's size from its header, :func:`frame_name` names a figure's file.
"""

from __future__ import annotations

import hashlib
import json
import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path

from . import CHAPTERS, ROOT, myst

GATES = ("solution-start", "solution-end")
BANKS = ROOT / "book" / "instructor"


def source(cell: dict) -> str:
    """A notebook cell's text (nbformat stores it as a string or a list of lines)."""
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def is_slider(cell: dict) -> bool:
    """Whether a code cell shows a SliderFigure: it calls the class, or a package function that
    builds one (e.g. ``pc.widgets.turning_slider``), and so stores the slider's output."""
    if "SliderFigure(" in source(cell):
        return True
    return any("".join(out.get("data", {}).get("text/plain", "")).startswith("SliderFigure:")
               for out in cell.get("outputs", []))


def gates(text: str) -> list[str]:
    """The solution gates of a Markdown cell's text, in order."""
    return [block.name for block in myst.blocks(text) if block.name in GATES]


@dataclass(frozen=True)
class Step:
    """One cell of the walk: ``inside`` a gated solution is open before it; ``gates`` it holds."""

    cell: dict
    source: str
    inside: bool
    gates: tuple[str, ...]

    @property
    def after(self) -> bool:
        """A gated solution is open after this cell."""
        return self.gates[-1] == "solution-start" if self.gates else self.inside

    @property
    def in_solution(self) -> bool:
        """The cell lies wholly inside a gated solution (a code cell between the gates, or a Markdown
        cell with no gate of its own inside one)."""
        return self.inside and not self.gates


def walk(cells: list[dict]) -> Iterator[Step]:
    """The one walk of a notebook's gated solutions, cell by cell.

    Raises ValueError when a ``{solution-start}`` has no ``{solution-end}``.
    """
    inside = False
    for cell in cells:
        text = source(cell)
        marks = tuple(gates(text)) if cell["cell_type"] == "markdown" else ()
        step = Step(cell, text, inside, marks)
        yield step
        inside = step.after
    if inside:
        raise ValueError("a {solution-start} has no {solution-end}")


@dataclass(frozen=True)
class Cell:
    """One cell of a chapter, as read once."""

    index: int
    id: str
    type: str                    # "markdown" or "code"
    source: str
    tags: tuple[str, ...]
    solution: bool               # wholly inside a gated solution
    gates: tuple[str, ...]
    raw: dict = field(repr=False, compare=False, hash=False)

    @cached_property
    def blocks(self) -> list[myst.Block]:
        return myst.blocks(self.source) if self.type == "markdown" else []

    @property
    def check(self) -> bool:
        """A check cell: the assertions behind a claim, folded in the book."""
        return "check" in self.tags

    @property
    def teaching(self) -> bool:
        """A code cell a student reads as the lesson: not a check, not inside a solution."""
        return self.type == "code" and not self.check and not self.solution


@dataclass(frozen=True)
class Statement:
    """A labelled formal block (``{prf:lemma} Title`` with ``:label:``) of a chapter."""

    label: str
    kind: str          # lemma, theorem, definition, ...
    title: str
    chapter: int


@dataclass(frozen=True)
class Chapter:
    path: Path
    notebook: dict = field(repr=False, compare=False, hash=False)

    @property
    def number(self) -> int:
        return int(self.path.stem[:2])

    @cached_property
    def cells(self) -> list[Cell]:
        return [Cell(k, step.cell.get("id", ""), step.cell["cell_type"], step.source,
                     tuple(step.cell["metadata"].get("tags", [])), step.in_solution, step.gates, step.cell)
                for k, step in enumerate(walk(self.notebook["cells"]))]

    @property
    def title(self) -> str:
        return self.cells[0].source.splitlines()[0].lstrip("# ").strip()

    def code_cells(self) -> list[Cell]:
        return [cell for cell in self.cells if cell.type == "code"]

    def statements(self) -> list[Statement]:
        return [Statement(block.label, block.name.split(":", 1)[1], block.argument.strip(), self.number)
                for cell in self.cells for block in cell.blocks
                if block.label and block.name.startswith(myst.FORMAL_PREFIX)]


@lru_cache(maxsize=64)
def _read(path: Path, stamp: int) -> Chapter:
    return Chapter(path, json.loads(path.read_text(encoding="utf-8")))


def chapter(path: Path | int) -> Chapter:
    """A chapter by its notebook's path or its number (read again only when the file changes)."""
    if isinstance(path, int):
        found = [p for p in CHAPTERS if int(p.stem[:2]) == path]
        if not found:
            raise ValueError(f"no chapter {path} in notebooks/")
        path = found[0]
    path = Path(path)
    return _read(path, path.stat().st_mtime_ns)


def chapters() -> list[Chapter]:
    return [chapter(path) for path in CHAPTERS]


def statements() -> dict[str, Statement]:
    """The one label map: every labelled formal block of the chapters, by label."""
    return {s.label: s for c in chapters() for s in c.statements()}


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's IHDR chunk, or None if ``data`` is no PNG."""
    if data[:8] != b"\x89PNG\r\n\x1a\n" or len(data) < 24:
        return None
    return struct.unpack(">II", data[16:24])


def frame_name(png: bytes) -> str:
    """The file name in ``_images/`` of a slider frame (or a figure's phone variant): named by its content."""
    return f"frame-{hashlib.sha256(png).hexdigest()[:20]}.png"


# ---- the question banks -----------------------------------------------------------------------

LETTERS = "ABCD"
OPTION = re.compile(r"^- \*\*([A-D])\.\*\* (.+)$")
ANSWER = re.compile(r"^\*\*Answer: ([A-D])\.\*\*(.*)$")
DISTRACTOR = re.compile(r"^- ([A-D]): (.*)$")


@dataclass(frozen=True)
class Question:
    """One concept question, as written in its bank."""

    bank: int
    name: str
    title: str
    stem: str
    options: dict[str, str]
    answer: str
    explanation: str
    distractors: dict[str, str]


def sections(text: str) -> list[tuple[int, int, str]]:
    """(start, end, name) of every concept question's text, from its heading to the next heading."""
    heads = list(re.finditer(r"^#{2,3} .*$", text, flags=re.MULTILINE))
    found = []
    for k, head in enumerate(heads):
        match = re.match(r"### (Q\d+\.\d+):", head.group(0))
        if match:
            end = heads[k + 1].start() if k + 1 < len(heads) else len(text)
            found.append((head.start(), end, match.group(1)))
    return found


def distractor_items(lines: list[str]) -> dict[str, list[str]]:
    """The ``- X: ...`` items of a distractor list, each with its continuation lines."""
    items: dict[str, list[str]] = {}
    current = None
    for line in lines:
        match = DISTRACTOR.match(line)
        if match:
            current = match.group(1)
            if current in items:
                raise ValueError(f"distractor {current} is listed twice")
            items[current] = [line]
        elif current and line.startswith("  "):
            items[current].append(line)
        elif line.strip():
            raise ValueError(f"unexpected line in the distractor list: {line!r}")
    return items


def parse(text: str, bank: int) -> list[Question]:
    """The concept questions of a bank's text (a ValueError names a malformed question)."""
    found = []
    for start, end, name in sections(text):
        section = text[start:end]
        head, _, rest = section.partition("\n")
        lines = rest.split("\n")
        at = [k for k, line in enumerate(lines) if re.match(r"^- \*\*[A-Z]\.\*\*", line)]
        letters = [re.match(r"^- \*\*([A-Z])", lines[k]).group(1) for k in at]
        if letters != list(LETTERS):
            raise ValueError(f"bank {bank}, {name}: options {letters}, expected A, B, C, D in order")
        answer_at = next((k for k, line in enumerate(lines) if ANSWER.match(line)), None)
        marks = next((k for k, line in enumerate(lines) if line.strip() == "**Distractors.**"), None)
        if answer_at is None or marks is None:
            raise ValueError(f"bank {bank}, {name}: no **Answer: X.** line (X among A to D) or no **Distractors.**")
        items = distractor_items([line for line in lines[marks + 1:] if line.strip()])
        found.append(Question(
            bank=bank, name=name, title=head.split(":", 1)[1].strip(),
            stem="\n".join(lines[:at[0]]).strip(),
            options={OPTION.match(lines[k]).group(1): OPTION.match(lines[k]).group(2) for k in at},
            answer=ANSWER.match(lines[answer_at]).group(1),
            explanation=(ANSWER.match(lines[answer_at]).group(2) + "\n"
                         + "\n".join(lines[answer_at + 1:marks])).strip(),
            distractors={k: " ".join(x.strip() for x in v)[len(k) + 4:] for k, v in items.items()}))
    return found


@dataclass(frozen=True)
class Bank:
    """One bank file, book/instructor/bank_NN.md (numbered as its chapter)."""

    path: Path

    @property
    def number(self) -> int:
        return int(self.path.stem.split("_")[1])

    @cached_property
    def text(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @cached_property
    def questions(self) -> list[Question]:
        return parse(self.text, self.number)


def bank_files(folder: Path = BANKS) -> list[Path]:
    return sorted(folder.glob("bank_*.md"))
