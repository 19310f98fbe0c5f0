"""Class time and home time per chapter, measured from the chapters themselves.

Run `python -m coursebook.plan` to print the table that book/instructors.md shows; the test
`tests/content/test_course_plan.py` recomputes it and fails when the page and the chapters disagree, and
checks that every session of every plan fits its 90 minutes. For any other timetable,
`python -m coursebook.plan --sessions 4 --minutes 75` (or `make plan SESSIONS=4 MINUTES=75`) prints a
schedule made by `timetable`: the core chapters first, then as many others as fit.

The minutes are a word-count model, not times measured with students:

The model (stated on book/instructors.md as well, next to its numbers):

* every Markdown cell is split into *formal blocks* (`{prf:...}` definitions, theorems, lemmas,
  proofs, algorithms), *exercises*, *solutions* and the remaining *prose*; words are
  whitespace-separated tokens, so a formula counts as a few words;
* **home reading** = prose at 120 words per minute + formal blocks at 40 words per minute (a
  careful reading of a statement and its proof) + 1 minute per code cell (read it, run it);
  the **core path**'s reading counts the same without the sections marked "(optional)" at their
  heading and without the proofs marked optional (book/intro.md gives both);
* **home exercises** = 15 minutes per pen-and-paper exercise, 20 per code exercise and 30 per
  exercise that is both, minus the one exercise done in class;
* **class time** = formal blocks presented at 25 words per minute (a board or slide pace, the
  statement plus the spoken argument) + 5 minutes per slider demonstrated + 3 minutes per
  common misconception (asked as a concept question and discussed); a **session** is the class
  time of its chapters + 15 minutes for one exercise done in class, and must fit in 90 minutes.
  Proofs marked optional in a chapter are skipped in class by the plans that say so.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from . import CHAPTERS, ROOT, myst

PROSE_WPM, FORMAL_WPM, CLASS_FORMAL_WPM = 120, 40, 25
MINUTES_PER_CODE_CELL, MINUTES_PER_SLIDER, MINUTES_PER_MISCONCEPTION = 1, 5, 3
IN_CLASS_EXERCISE = 15
EXERCISE_MINUTES = {"pen": 15, "code": 20, "both": 30}
SESSION_MINUTES = 90



@dataclass(frozen=True)
class Chapter:
    """What was counted in one chapter, and the minutes derived from it."""

    name: str
    prose_words: int
    formal_words: int
    formal_blocks: int
    optional_proof_words: int
    code_cells: int
    sliders: int
    misconceptions: int
    exercises: dict
    core: tuple[int, int, int] = (0, 0, 0)   # prose words, formal words, code cells of the core path

    @property
    def reading(self) -> int:
        return _minutes(self.prose_words, self.formal_words, self.code_cells)

    @property
    def core_reading(self) -> int:
        """Home reading of the core path alone: the chapter without its sections marked
        "(optional)" at their heading and without its proofs marked optional."""
        return _minutes(*self.core)

    @property
    def homework(self) -> int:
        total = sum(EXERCISE_MINUTES[kind] * count for kind, count in self.exercises.items())
        return total - IN_CLASS_EXERCISE

    @property
    def home(self) -> int:
        return self.reading + self.homework

    def class_minutes(self, skip_optional: bool = False) -> int:
        words = self.formal_words - (self.optional_proof_words if skip_optional else 0)
        return round(words / CLASS_FORMAL_WPM + self.sliders * MINUTES_PER_SLIDER
                     + self.misconceptions * MINUTES_PER_MISCONCEPTION)


def _minutes(prose: int, formal: int, code_cells: int) -> int:
    return round(prose / PROSE_WPM + formal / FORMAL_WPM + code_cells * MINUTES_PER_CODE_CELL)


HEADING = re.compile(r"^(#{1,6}) (.*)$")


def exercise_kind(text: str) -> str:
    head = text[:200].lower()
    pen, code = "pen and paper" in head, "code" in head
    return "both" if pen and code else "code" if code else "pen"


def measure(path: Path) -> Chapter:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    words = {"prose": 0, "formal": 0, "exercise": 0, "solution": 0}
    formal_blocks = optional_words = misconceptions = 0
    exercises = {"pen": 0, "code": 0, "both": 0}
    in_misconceptions = False
    optional_level = None            # the level of the "(optional)" heading the text is under
    core = [0, 0, 0]
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code":
            core[2] += optional_level is None and "check" not in cell["metadata"].get("tags", [])
            continue
        for kind, text in myst.split(source):
            count = len(text.split())
            words[kind] += count
            if kind == "prose":
                for line in text.splitlines():
                    heading = HEADING.match(line)
                    if heading and optional_level is not None and len(heading[1]) <= optional_level:
                        optional_level = None
                    if heading and optional_level is None and heading[2].rstrip().endswith("(optional)"):
                        optional_level = len(heading[1])
                    core[0] += len(line.split()) if optional_level is None else 0
            if kind == "formal":
                formal_blocks += 1
                optional_proof = re.search(r"^:class:.*\boptional\b", text, flags=re.MULTILINE)
                if optional_proof:
                    optional_words += count
                elif optional_level is None:
                    core[1] += count
            elif kind == "exercise":
                exercises[exercise_kind(text)] += 1
            elif kind == "prose":
                for line in text.splitlines():
                    if line.startswith("## "):
                        in_misconceptions = line.strip().lower() == "## common misconceptions"
                    if in_misconceptions and line.startswith('**"'):
                        misconceptions += 1
    # A check cell (tag "check": the assertions behind a claim, folded in the book) is not read.
    code_cells = sum(cell["cell_type"] == "code" and "check" not in cell["metadata"].get("tags", [])
                     for cell in cells)
    sliders = sum("SliderFigure(" in "".join(cell["source"]) for cell in cells if cell["cell_type"] == "code")
    return Chapter(path.stem, words["prose"], words["formal"], formal_blocks, optional_words,
                   code_cells, sliders, misconceptions, exercises, tuple(core))


def chapters() -> list[Chapter]:
    return [measure(path) for path in CHAPTERS]


# Which chapters each session of each plan covers (chapter numbers, 1-based). A session may
# skip the optional proofs of its chapters when the plan says so.
PLANS = {
    "three": {"sessions": [[1, 2], [4], [5]], "skip_optional": False},
    "five": {"sessions": [[1, 2], [4], [5], [6], [7]], "skip_optional": False},
    "six": {"sessions": [[1, 2], [3], [4], [5], [6], [7]], "skip_optional": False},
}


def number(chapter: Chapter) -> int:
    """A chapter's number, from its file name (``05_convergence`` is chapter 5)."""
    return int(chapter.name[:2])


def by_number(measured: list[Chapter]) -> dict[int, Chapter]:
    return {number(c): c for c in measured}


def pair_minutes(measured: list[Chapter], pair: tuple[int, int]) -> int:
    numbered = by_number(measured)
    return sum(numbered[c].class_minutes() for c in pair) + IN_CLASS_EXERCISE


def fitting_pairs(measured: list[Chapter]) -> list[tuple[int, int]]:
    return [p for p in itertools.combinations(sorted(by_number(measured)), 2)
            if pair_minutes(measured, p) <= SESSION_MINUTES]


def session_minutes(plan: str, measured: list[Chapter] | None = None) -> list[int]:
    measured = measured or chapters()
    spec, numbered = PLANS[plan], by_number(measured)
    return [sum(numbered[c].class_minutes(spec["skip_optional"]) for c in session) + IN_CLASS_EXERCISE
            for session in spec["sessions"]]


def table(measured: list[Chapter] | None = None) -> str:
    measured = measured or chapters()
    rows = ["| Chapter | words (prose + formal) | formal blocks | sliders | misconceptions | exercises (pen / code / both) | class (min) | home reading (min) | home exercises (min) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for ch in measured:
        ex = ch.exercises
        rows.append(f"| {ch.name} | {ch.prose_words} + {ch.formal_words} | {ch.formal_blocks} | {ch.sliders} | "
                    f"{ch.misconceptions} | {ex['pen']} / {ex['code']} / {ex['both']} | {ch.class_minutes()} | "
                    f"{ch.reading} | {ch.homework} |")
    return "\n".join(rows)


PAGE = ROOT / "book" / "instructors.md"
BEGIN, END = "<!-- generated by book/_ext/coursebook/plan.py: begin -->", "<!-- generated by book/_ext/coursebook/plan.py: end -->"
TEMPLATE = """## How long each chapter takes

Estimated from the chapters by a word-count model, not timed in a class: `book/_ext/coursebook/plan.py` counts the words of every chapter
(prose, and the formal blocks: definitions, theorems, lemmas, proofs) and its code cells, sliders,
common misconceptions and exercises, and turns them into minutes at stated rates. The table below
is its output, and `make test` fails when the chapters change and the table does not.

- **Class time** = formal blocks presented at 25 words per minute (statement plus the spoken
  argument, at board or slide pace) + 5 minutes per slider demonstrated + 3 minutes per common
  misconception, asked as a concept question (see the question banks) and discussed.
- **Home reading** = prose at 120 words per minute + formal blocks at 40 words per minute + 1 minute
  per code cell (read it, run it).
- **Home exercises** = 15 minutes per pen-and-paper exercise, 20 per code exercise, 30 per exercise
  that is both, less the one exercise (15 minutes) done in class.

@TABLE@

Words are whitespace-separated tokens, so a formula counts as a few words; exercises and their
solutions are not part of the words. The rates are assumptions you can change in
`book/_ext/coursebook/plan.py`; the plans below are checked against whatever they say.

## Suggested schedules

Sessions of 90 minutes: the class time of the session's chapters plus one exercise done in class
(15 minutes). Every session of every plan below fits (checked by `tests/content/test_course_plan.py`); the
minutes are the measured totals.

| Session | Three sessions (core) | Five sessions | Six sessions |
| --- | --- | --- | --- |
@ROWS@

- **Three sessions** cover the core: the algorithm, margins and the convergence proof. An earlier
  version of this page put chapters 4 and 5 (about @WORDS@ words and @BLOCKS@ formal blocks) into one
  session; measured, that is @OLD@ minutes of class before any exercise, so the plan now gives each
  its own session. Chapters 3, 6, 7, 8, 9 and 10 are reading for students who want more.
- **Five sessions** add non-separable data and kernels; chapter 3 (the perceptron as SGD) is
  reading, since nothing in chapters 4 to 8 depends on it.
- **Six sessions** teach every chapter from 1 to 7 in class.
- In every plan **chapter 8** (real data) is a lab rather than a lecture: it needs chapters 5 and 6
  and applies them to irises and digits; its home time above is the lab's length. Set it after the
  session on chapter 6 (five and six sessions), or after session 3 with chapter 6 as reading.
- **Chapter 9** (several classes) is reading in every plan: it needs chapters 2 and 5, and a course
  that teaches it can give it a session of its own or pair it as below.
- Chapter 1 is short and fits beside any of chapters @FITS1@; @OTHERS@.

For another timetable, `make plan SESSIONS=4 MINUTES=75` prints a schedule of the same kind: the
core chapters (1, 2, 4, 5) always, their optional proofs skipped in class only when the core does
not fit otherwise, then chapters 6, 7 and 3 and the rest while they fit, a chapter split across two
sessions only when whole chapters cannot fit. For 90 minutes and three, five or six sessions it
gives the plans above (tested).

Slides for each session of each of these plans are built by `make slides`, and for such a timetable by
`make slides SESSIONS=4 MINUTES=75` (see "Question banks and slides").

"""


def _either(numbers: list[int]) -> str:
    """'2, 3 or 4'; 'none' for no number."""
    if not numbers:
        return "none"
    return ", ".join(map(str, numbers[:-1])) + f" or {numbers[-1]}" if len(numbers) > 1 else str(numbers[0])


def chapter_link(number: int) -> str:
    stem = next(p.stem for p in CHAPTERS if int(p.stem[:2]) == number)
    return "{doc}`../notebooks/" + stem + "`"


def section(measured: list[Chapter] | None = None) -> str:
    """The block of book/instructors.md that this script owns, with every number filled in."""
    measured = measured or chapters()
    minutes = {plan: session_minutes(plan, measured) for plan in PLANS}
    rows = []
    for k in range(max(len(spec["sessions"]) for spec in PLANS.values())):
        cells = []
        for plan in ("three", "five", "six"):
            sessions = PLANS[plan]["sessions"]
            cells.append(", ".join(chapter_link(c) for c in sessions[k]) + f" ({minutes[plan][k]} min)"
                         if k < len(sessions) else "")
        rows.append(f"| {k + 1} | " + " | ".join(cells) + " |")
    pairs = fitting_pairs(measured)
    numbered = by_number(measured)
    others = sorted((pair_minutes(measured, p), p) for p in itertools.combinations(sorted(numbered)[1:], 2))
    pair, cheap = others[0]
    fits1 = [b for a, b in pairs if a == 1]
    more = [p for p in pairs if p[0] != 1]
    if more:
        named = " and ".join(f"chapters {a} and {b} ({pair_minutes(measured, (a, b))} minutes)" for a, b in more)
        others_text = f"of the other pairs only {named} fit in one session"
    else:
        others_text = (f"no other two chapters fit in one session\n  (the cheapest other pair, chapters "
                       f"{cheap[0]} and {cheap[1]}, needs {pair} minutes)")
    old = sum(numbered[c].class_minutes() for c in (4, 5))
    words = sum(numbered[c].prose_words + numbered[c].formal_words for c in (4, 5))
    blocks = sum(numbered[c].formal_blocks for c in (4, 5))
    text = (TEMPLATE.replace("@TABLE@", table(measured)).replace("@ROWS@", "\n".join(rows))
            .replace("@OTHERS@", others_text)
            .replace("@FITS1@", _either(fits1)).replace("@OLD@", str(old))
            .replace("@WORDS@", f"{round(words, -2):,}").replace("@BLOCKS@", str(blocks)))
    return f"{BEGIN}\n{text.strip()}\n{END}"


# The intro's first reading, always taught; then the others in this order while they fit; a lab is
# never a lecture. Chapter numbers are 1-based.
CORE = (1, 2, 4, 5)
EXTRA_FIRST = (6, 7, 3)
LABS = (8,)


@dataclass(frozen=True)
class Piece:
    """Part ``part`` of ``parts`` of a chapter's class time, taught in one session."""

    chapter: int
    minutes: int
    part: int = 1
    parts: int = 1


@dataclass(frozen=True)
class Timetable:
    """A schedule for ``len(sessions)`` sessions of ``minutes`` minutes each."""

    minutes: int
    sessions: tuple[tuple[Piece, ...], ...]
    skip_optional: bool
    reading: tuple[int, ...]
    labs: tuple[int, ...]

    def session_minutes(self) -> list[int]:
        """Class time of each session: its pieces plus the exercise done in class."""
        return [sum(p.minutes for p in s) + IN_CLASS_EXERCISE if s else 0 for s in self.sessions]


def _pack(times: list[tuple[int, int]], capacity: int, count: int) -> list[list[list]]:
    """Chapters in order into ``count`` sessions of ``capacity`` minutes: a chapter that does not fit
    the rest of a session starts the next one when the remaining chapters still fit, else is split."""
    sessions: list[list[list]] = [[]]
    free = capacity
    for index, (chapter, minutes) in enumerate(times):
        left = sum(m for _, m in times[index:])
        spare = count - len(sessions)
        alone = sum(-(-m // capacity) for _, m in times[index:])  # sessions if each starts its own
        if sessions[-1] and left <= spare * capacity and (alone <= spare or free < minutes <= capacity):
            sessions.append([])
            free = capacity
        while minutes > 0:
            if free == 0:
                sessions.append([])
                free = capacity
            taken = min(minutes, free)
            sessions[-1].append([chapter, taken])
            minutes, free = minutes - taken, free - taken
    return sessions


def timetable(sessions: int, minutes: int, measured: list[Chapter] | None = None) -> Timetable:
    """Which chapters to teach in ``sessions`` sessions of ``minutes`` minutes, and in which session.

    The core chapters (``CORE``) are always taught, with their optional proofs when they fit and
    without them when they do not; then the chapters of ``EXTRA_FIRST`` and the rest in order, each
    while it fits. Chapters are taught in their order; one that does not fit the rest of a session
    starts the next one, or is split across two sessions when whole chapters would not fit; a chapter
    beyond the core is added only if it cuts no more chapters in two.

    Raises
    ------
    ValueError
        If ``sessions`` or ``minutes`` is not a positive whole number, if a session is too short for
        the exercise done in class and some teaching, or if the core does not fit in the time given.
    """
    for name, value in (("sessions", sessions), ("minutes", minutes)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    capacity = minutes - IN_CLASS_EXERCISE
    if capacity < 10:
        raise ValueError(f"a session of {minutes} minutes leaves {capacity} after the exercise done in class "
                         f"({IN_CLASS_EXERCISE} minutes); give sessions of at least {IN_CLASS_EXERCISE + 10}")
    measured = measured or chapters()
    numbered = by_number(measured)
    numbers = sorted(numbered)
    core = [c for c in CORE if c in numbers]
    room = sessions * capacity

    def need(chosen, skip: bool) -> int:
        return sum(numbered[c].class_minutes(skip) for c in chosen)

    skip = need(core, False) > room
    if need(core, skip) > room:
        raise ValueError(
            f"the core (chapters {', '.join(map(str, core))}) needs {need(core, True)} minutes of class even "
            f"without its optional proofs; {sessions} sessions of {minutes} minutes give {room} "
            f"after the exercise done in each: use more sessions or longer ones")
    def packing(chosen) -> list[list[list]]:
        return _pack([(c, numbered[c].class_minutes(skip)) for c in sorted(chosen)], capacity, sessions)

    def splits(chosen) -> int:
        """Cuts beyond those a chapter longer than a session needs anyway."""
        needed = sum(-(-numbered[c].class_minutes(skip) // capacity) for c in chosen)
        return sum(len(s) for s in packing(chosen)) - needed

    # Another chapter is taught when it fits and does not cut more chapters in two than before.
    chosen = list(core)
    order = [*EXTRA_FIRST, *(c for c in numbers if c not in EXTRA_FIRST)]
    for c in order:
        if (c in numbers and c not in chosen and c not in LABS and need([*chosen, c], skip) <= room
                and splits([*chosen, c]) <= splits(chosen)):
            chosen.append(c)
    packed = packing(chosen)
    times = [(c, 0) for c in sorted(chosen)]
    parts = {c: sum(1 for s in packed for piece in s if piece[0] == c) for c, _ in times}
    seen: dict[int, int] = {}
    result = []
    for s in packed:
        row = []
        for chapter, taken in s:
            seen[chapter] = seen.get(chapter, 0) + 1
            row.append(Piece(chapter, taken, seen[chapter], parts[chapter]))
        result.append(tuple(row))
    result += [()] * (sessions - len(result))
    reading = tuple(c for c in numbers if c not in chosen and c not in LABS)
    return Timetable(minutes, tuple(result), skip, reading, tuple(c for c in LABS if c in numbers))


def timetable_markdown(plan: Timetable) -> str:
    """The schedule as a Markdown table and notes, with the model's caveat next to the numbers."""
    rows = [f"| Session | Chapters (class minutes of {plan.minutes}) |", "| --- | --- |"]
    for k, (session, total) in enumerate(zip(plan.sessions, plan.session_minutes(), strict=True), start=1):
        pieces = ", ".join(f"chapter {p.chapter}" + (f" (part {p.part} of {p.parts})" if p.parts > 1 else "")
                           for p in session)
        rows.append(f"| {k} | {pieces} ({total} min) |" if session else
                    f"| {k} | free: review, a lab or a homework session |")
    notes = [("Each session: the class time of its chapters plus one exercise done in class "
              f"({IN_CLASS_EXERCISE} minutes).")]
    if plan.skip_optional:
        notes.append("The optional proofs are skipped in class (the core does not fit with them).")
    if plan.reading:
        notes.append("Reading, not taught in class: chapters " + ", ".join(map(str, plan.reading)) + ".")
    if plan.labs:
        notes.append("A lab, not a lecture: chapter " + ", ".join(map(str, plan.labs)) + ".")
    notes.append("The minutes come from a word-count model of the chapters (book/instructors.md states "
                 "its rates), not from timing a class: adjust them to your students.")
    return "\n".join(rows) + "\n\n" + "\n".join(f"- {n}" for n in notes)


def _option(name: str) -> int | None:
    if name not in sys.argv:
        return None
    index = sys.argv.index(name) + 1
    value = sys.argv[index] if index < len(sys.argv) else ""
    if not value.isdigit():
        sys.exit(f"{name} needs a positive whole number, got {value!r}")
    return int(value)


def main() -> None:
    sessions, minutes = _option("--sessions"), _option("--minutes")
    if sessions is not None or minutes is not None:
        try:
            print(timetable_markdown(timetable(sessions or 5, minutes or SESSION_MINUTES)))
        except ValueError as error:
            sys.exit(f"coursebook.plan: {error}")
        return
    measured = chapters()
    page = PAGE.read_text(encoding="utf-8")
    start, end = page.index(BEGIN), page.index(END) + len(END)
    if "--write" in sys.argv:
        PAGE.write_text(page[:start] + section(measured) + page[end:], encoding="utf-8")
    elif page[start:end] != section(measured):
        sys.exit("book/instructors.md is out of date: run `python -m coursebook.plan --write`")
    print(table(measured))
    for plan in PLANS:
        print(plan, session_minutes(plan, measured))


if __name__ == "__main__":
    main()
