"""Class time and home time per chapter, measured from the chapters themselves.

Run `python -m coursebook.plan` to print the table that book/instructors.md shows; the test
`tests/content/test_course_plan.py` recomputes it and fails when the page and the chapters disagree, and
checks that every session of every plan fits its 90 minutes with its slack. Plans:

* ``make plan SESSIONS=4 MINUTES=75``: a schedule made by :func:`timetable`, the core paths of the core
  chapters first, then as many others as fit whole, spread evenly, ``SLACK`` minutes kept per session;
* ``make plan CHAPTERS="1+, 2 | 4 | 5" MINUTES=90``: the instructor's choice (:func:`chosen`), "+" for a
  chapter's optional sections and proofs; ``make plan PLAN=myplan.yml`` the same from a YAML file
  (:func:`plan_file`). The book's own plans (``PLANS``) are written that way.

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
  time of its chapters + 15 minutes for one exercise done in class, and must leave ``SLACK`` (10)
  minutes of its 90 for questions. A plan teaches a chapter's core path unless it says "+".
"""

from __future__ import annotations

import itertools
import re
import sys
from dataclasses import dataclass, replace
from pathlib import Path

from . import CHAPTERS, ROOT, content, myst

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
    core_sliders: int = 0

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

    def class_minutes(self, optional: bool = True) -> int:
        """Class time of the whole chapter, or with ``optional=False`` of its core path alone (no section
        marked "(optional)", no optional proof)."""
        words, sliders = (self.formal_words, self.sliders) if optional else (self.core[1], self.core_sliders)
        return round(words / CLASS_FORMAL_WPM + sliders * MINUTES_PER_SLIDER
                     + self.misconceptions * MINUTES_PER_MISCONCEPTION)


def _minutes(prose: int, formal: int, code_cells: int) -> int:
    return round(prose / PROSE_WPM + formal / FORMAL_WPM + code_cells * MINUTES_PER_CODE_CELL)


HEADING = re.compile(r"^(#{1,6}) (.*)$")


def exercise_kind(text: str) -> str:
    head = text[:200].lower()
    pen, code = "pen and paper" in head, "code" in head
    return "both" if pen and code else "code" if code else "pen"


def measure(path: Path) -> Chapter:
    cells = content.chapter(path).notebook["cells"]
    words = {"prose": 0, "formal": 0, "exercise": 0, "solution": 0}
    formal_blocks = optional_words = misconceptions = 0
    exercises = {"pen": 0, "code": 0, "both": 0}
    in_misconceptions = False
    optional_level = None            # the level of the "(optional)" heading the text is under
    core = [0, 0, 0]
    core_sliders = 0
    solution_code = 0
    for step in content.walk(cells):
        cell, source = step.cell, step.source
        # A gated solution's cells (its prose and executed code) and a cell the book never shows
        # (tag remove-cell, e.g. the hidden setup cell) are not on anyone's reading path.
        unseen = (step.inside and step.after) or "remove-cell" in cell["metadata"].get("tags", [])
        if cell["cell_type"] == "code":
            if unseen:
                solution_code += "remove-cell" not in cell["metadata"].get("tags", [])
                continue
            core[2] += optional_level is None and "check" not in cell["metadata"].get("tags", [])
            core_sliders += optional_level is None and content.is_slider(cell)
            continue
        if unseen:
            continue
        # The first and last cells of a gated solution also hold solution text: after its
        # {solution-start} and before its {solution-end}. That text is a solution, not reading.
        in_solution = step.inside
        for kind, text in myst.split(source):
            if kind == "solution":
                opening = text.lstrip().split("\n", 1)[0]
                in_solution = "{solution-start}" in opening or (in_solution and "{solution-end}" not in opening)
            if in_solution and kind != "solution":
                kind = "solution"
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
                if "optional" in myst.blocks(text)[0].classes:
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
    code_cells = sum(cell["cell_type"] == "code" and not {"check", "remove-cell"} & set(cell["metadata"].get("tags", []))
                     for cell in cells) - solution_code
    sliders = sum(content.is_slider(cell) for cell in cells if cell["cell_type"] == "code")
    return Chapter(path.stem, words["prose"], words["formal"], formal_blocks, optional_words,
                   code_cells, sliders, misconceptions, exercises, tuple(core), core_sliders)


def chapters() -> list[Chapter]:
    return [measure(path) for path in CHAPTERS]


def table(measured: list[Chapter] | None = None) -> str:
    measured = measured or chapters()
    rows = ["| Chapter | words (prose + formal) | formal blocks | sliders | misconceptions | exercises (pen / code / both) | class, core path (min) | class, all (min) | home reading (min) | home exercises (min) |",
            "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for ch in measured:
        ex = ch.exercises
        rows.append(f"| {ch.name} | {ch.prose_words} + {ch.formal_words} | {ch.formal_blocks} | {ch.sliders} | "
                    f"{ch.misconceptions} | {ex['pen']} / {ex['code']} / {ex['both']} | {ch.class_minutes(False)} | "
                    f"{ch.class_minutes()} | "
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

Sessions of 90 minutes: the class time of the core path of the session's chapters (the sections
marked "(optional)" and the optional proofs left out) plus one exercise done in class (15 minutes),
with at least @SLACK@ minutes left for questions. Every session of every plan below fits (checked by
`tests/content/test_course_plan.py`); the minutes are the measured totals, and "free" is what is left
of the 90 for questions.

| Session | Three sessions (core) | Five sessions | Six sessions |
| --- | --- | --- | --- |
@ROWS@

- **Three sessions** cover the core, the algorithm, margins and the convergence proof, and then
  non-separable data. The core paths of chapters 4 and 5 share a session; the whole chapters would not
  fit: an earlier version of this page put all of chapters 4 and 5 (about @WORDS@ words and @BLOCKS@
  formal blocks) into one session, and measured, that is @OLD@ minutes of class before any exercise.
  Chapters 3, 7, 8, 9, 10 and 11 are reading for students who want more.
- **Five sessions** add the perceptron as SGD (chapter 3) and kernels (chapter 7).
- **Six sessions** teach every chapter from 1 to 7 in class, and chapter 9 (several classes).
- In every plan **chapter 8** (real data) is a lab rather than a lecture: it needs chapters 5 and 6
  and applies them to irises and digits; its home time above is the lab's length. Set it after the
  session on chapter 6.
- **Chapter 9** (several classes) needs chapters 2 and 5; in the three- and five-session plans it is
  reading, and a course that teaches it can give it a session of its own or pair it as below.
- **Chapter 11** (online learning) is reading in every plan: it needs chapter 5 and the statements of
  chapters 3 and 6, and gives a learning-theory course a session of its own on mistake bounds, the
  Littlestone dimension, experts, regret and Winnow.
- Chapter 1 is short and fits beside any of chapters @FITS1@; @OTHERS@.

For another timetable, `make plan SESSIONS=4 MINUTES=75` prints a schedule of the same kind: the
core paths of the core chapters (1, 2, 4, 5) always, then chapters 6, 7 and 3 and the rest while they
fit whole, the chapters in order and spread as evenly as whole chapters allow, each session keeping
at least @SLACK@ minutes for questions (`SLACK=5` to change that), a chapter split across two sessions
only when whole chapters cannot fit. For 90 minutes and three, five or six sessions it gives the
plans above (tested).

To choose the chapters yourself, give them per session, separated by `|`, a `+` after a chapter to
teach its optional sections and proofs too: `make plan CHAPTERS="1+, 2 | 4 | 5" MINUTES=90`. Or
write the plan in a small YAML file and pass it as `make plan PLAN=myplan.yml`:

```yaml
minutes: 90      # length of a session
slack: 10        # minutes kept free for questions in each session
sessions:
  - "1+, 2"     # chapter 1 with its optional sections and proofs
  - "4"
  - "5"
```

Either way the plan is checked: a session whose class time, exercise and slack exceed its minutes is
refused with a message naming it. The same options give the decks: `make slides CHAPTERS="..."`,
`make slides PLAN=myplan.yml` or `make slides SESSIONS=4 MINUTES=75` (see "Question banks and slides").

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
    made = plans(measured)
    rows = []
    for k in range(max(len(p.sessions) for p in made.values())):
        cells = []
        for name in ("three", "five", "six"):
            plan = made[name]
            if k < len(plan.sessions):
                cells.append(", ".join(chapter_link(p.chapter) for p in plan.sessions[k])
                             + f" ({plan.session_minutes()[k]} min, {plan.spare()[k]} free)")
            else:
                cells.append("")
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
        others_text = (f"no other two chapters fit in one session with its slack\n  (the cheapest other pair, "
                       f"chapters {cheap[0]} and {cheap[1]}, needs {pair} minutes)")
    old = sum(numbered[c].class_minutes() for c in (4, 5))
    words = sum(numbered[c].prose_words + numbered[c].formal_words for c in (4, 5))
    blocks = sum(numbered[c].formal_blocks for c in (4, 5))
    text = (TEMPLATE.replace("@TABLE@", table(measured)).replace("@ROWS@", "\n".join(rows))
            .replace("@OTHERS@", others_text).replace("@SLACK@", str(SLACK))
            .replace("@FITS1@", _either(fits1)).replace("@OLD@", str(old))
            .replace("@WORDS@", f"{round(words, -2):,}").replace("@BLOCKS@", str(blocks)))
    return f"{BEGIN}\n{text.strip()}\n{END}"


# ---------------------------------------------------------------- plans

#: Minutes of every session kept free for questions, at least (``make plan SLACK=...``).
SLACK = 10

# The book's own plans, written as an instructor chooses one (``make plan CHAPTERS="1, 2 | 4 | 5"``):
# sessions separated by "|", chapters by ","; "1+" teaches chapter 1 with its optional sections and
# proofs, a bare number its core path only.
PLANS = {"three": "1, 2 | 4, 5 | 6", "five": "1, 2 | 3 | 4, 5 | 6 | 7", "six": "1, 2 | 3 | 4, 5 | 6 | 7 | 9"}

# The core chapters, always taught by a timetable; then the others in this order while they fit; a lab is
# never a lecture. Chapter numbers are 1-based.
CORE = (1, 2, 4, 5)
EXTRA_FIRST = (6, 7, 3)
LABS = (8,)
# A chapter a timetable adds only beside the chapters it builds on: chapter 11 (online learning) needs
# chapter 3's hinge loss and chapter 6's lower bound, so it is reading wherever they are.
NEEDS = {11: (3, 6)}


def number(chapter: Chapter) -> int:
    """A chapter's number, from its file name (``05_convergence`` is chapter 5)."""
    return int(chapter.name[:2])


def by_number(measured: list[Chapter]) -> dict[int, Chapter]:
    return {number(c): c for c in measured}


@dataclass(frozen=True)
class Piece:
    """Part ``part`` of ``parts`` of a chapter's class time (its core path, or all of it when
    ``optional``), taught in one session."""

    chapter: int
    minutes: int
    part: int = 1
    parts: int = 1
    optional: bool = False


@dataclass(frozen=True)
class Timetable:
    """A schedule for ``len(sessions)`` sessions of ``minutes`` minutes each, ``slack`` of them kept free."""

    minutes: int
    sessions: tuple[tuple[Piece, ...], ...]
    reading: tuple[int, ...]
    labs: tuple[int, ...]
    slack: int = SLACK
    note: str = ""               # what the schedule could not even out, said to the instructor

    def session_minutes(self) -> list[int]:
        """Class time of each session: its pieces plus the exercise done in class (0 for a free session)."""
        return [sum(p.minutes for p in s) + IN_CLASS_EXERCISE if s else 0 for s in self.sessions]

    def spare(self) -> list[int]:
        """Minutes left in each session for questions (at least ``slack`` in a session that teaches)."""
        return [self.minutes - m for m in self.session_minutes()]


def pair_minutes(measured: list[Chapter], pair: tuple[int, ...]) -> int:
    """Class time of a session teaching the core paths of ``pair`` (with its exercise)."""
    numbered = by_number(measured)
    return sum(numbered[c].class_minutes(False) for c in pair) + IN_CLASS_EXERCISE


def fitting_pairs(measured: list[Chapter], minutes: int = SESSION_MINUTES, slack: int = SLACK) -> list[tuple[int, int]]:
    return [p for p in itertools.combinations(sorted(by_number(measured)), 2)
            if pair_minutes(measured, p) + slack <= minutes]


def parse_choice(text: str, numbers: list[int]) -> list[list[tuple[int, bool]]]:
    """``"1+, 2 | 4 | 5"`` as sessions of (chapter, with its optional part).

    Raises
    ------
    ValueError
        Naming the piece that is not a chapter of the book, a chapter chosen twice, or an empty session.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError(f"a plan is chapters per session, such as \"1+, 2 | 4 | 5\"; got {text!r}")
    sessions, seen = [], set()
    for k, part in enumerate(text.split("|"), start=1):
        session = []
        for item in (x.strip() for x in part.split(",")):
            found = re.fullmatch(r"(\d+)(\+?)", item)
            if not found or int(found[1]) not in numbers:
                raise ValueError(f"session {k}: {item!r} is not a chapter (1 to {max(numbers)}, "
                                 "\"+\" after it for its optional sections and proofs)")
            chapter = int(found[1])
            if chapter in seen:
                raise ValueError(f"session {k}: chapter {chapter} is chosen twice")
            seen.add(chapter)
            session.append((chapter, bool(found[2])))
        sessions.append(session)
    return sessions


def _check_length(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive whole number, got {value!r}")
    return value


def chosen(text: str, minutes: int = SESSION_MINUTES, slack: int = SLACK,
           measured: list[Chapter] | None = None) -> Timetable:
    """The plan an instructor chose, ``"1+, 2 | 4 | 5"``, checked against sessions of ``minutes``.

    Raises
    ------
    ValueError
        If the text is not such a plan, or a session's class time, exercise and ``slack`` exceed ``minutes``
        (the message names the session and its minutes).
    """
    _check_length("minutes", minutes)
    if isinstance(slack, bool) or not isinstance(slack, int) or slack < 0:
        raise ValueError(f"slack must be a whole number of minutes, got {slack!r}")
    numbered = by_number(measured or chapters())
    sessions = []
    for k, session in enumerate(parse_choice(text, sorted(numbered)), start=1):
        pieces = tuple(Piece(c, numbered[c].class_minutes(optional), optional=optional) for c, optional in session)
        used = sum(p.minutes for p in pieces) + IN_CLASS_EXERCISE
        if used + slack > minutes:
            names = ", ".join(f"{p.chapter}{'+' if p.optional else ''}" for p in pieces)
            raise ValueError(f"session {k} (chapters {names}) needs {used - IN_CLASS_EXERCISE} minutes of class + "
                             f"{IN_CLASS_EXERCISE} for the exercise + {slack} for questions = {used + slack}, "
                             f"more than {minutes}: move a chapter"
                             + (", or teach its core path only (no \"+\")" if any(p.optional for p in pieces) else ""))
        sessions.append(pieces)
    taught = {p.chapter for s in sessions for p in s}
    return Timetable(minutes, tuple(sessions), tuple(c for c in sorted(numbered) if c not in taught and c not in LABS),
                     tuple(c for c in LABS if c in numbered and c not in taught), slack)


def plan_file(path: Path, measured: list[Chapter] | None = None) -> Timetable:
    """A plan written as YAML: ``minutes`` (90 if absent), ``slack`` (10 if absent) and ``sessions``, a
    list of chapter choices (``- "1, 2"``, ``- [4]``, ``- "4+"``).

    Raises
    ------
    ValueError
        If the file is not such a plan (the message names the file) or a session does not fit.
    """
    import yaml

    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise ValueError(f"{path}: {error}") from error
    if not isinstance(data, dict) or not isinstance(data.get("sessions"), list) or not data["sessions"]:
        raise ValueError(f"{path}: expected a mapping with a list `sessions` (and `minutes`, `slack`)")
    unknown = set(data) - {"minutes", "slack", "sessions"}
    if unknown:
        raise ValueError(f"{path}: unknown key(s) {sorted(unknown)}; a plan has minutes, slack and sessions")
    text = " | ".join(", ".join(map(str, s)) if isinstance(s, list) else str(s) for s in data["sessions"])
    try:
        return chosen(text, data.get("minutes", SESSION_MINUTES), data.get("slack", SLACK), measured)
    except ValueError as error:
        raise ValueError(f"{path}: {error}") from error


def plans(measured: list[Chapter] | None = None) -> dict[str, Timetable]:
    """The book's own plans (``PLANS``) for sessions of 90 minutes."""
    measured = measured or chapters()
    return {name: chosen(text, SESSION_MINUTES, SLACK, measured) for name, text in PLANS.items()}


def session_minutes(plan: str, measured: list[Chapter] | None = None) -> list[int]:
    return plans(measured)[plan].session_minutes()


def _even(times: list[int], count: int, capacity: int) -> list[list[int]] | None:
    """Indices of ``times`` in order, cut into at most ``count`` runs of at most ``capacity`` minutes: the
    largest run as small as it can be, then the runs as equal as they can be; None when none fits."""
    n = len(times)
    if n == 0:
        return []
    groups = min(count, n)
    total = [0, *itertools.accumulate(times)]

    def best(limit: float, cost) -> tuple[float, list[list[int]]] | None:
        table: dict[tuple[int, int], tuple[float, list[int]]] = {(0, 0): (0, [])}
        for j in range(1, groups + 1):
            for i in range(j, n + 1):
                options = [(table[(i0, j - 1)][0] + cost(total[i] - total[i0]), table[(i0, j - 1)][1] + [i])
                           for i0 in range(j - 1, i) if (i0, j - 1) in table and total[i] - total[i0] <= limit]
                if options:
                    table[(i, j)] = min(options)
        if (n, groups) not in table:
            return None
        cuts = [0, *table[(n, groups)][1]]
        return table[(n, groups)][0], [list(range(a, b)) for a, b in itertools.pairwise(cuts)]

    if best(capacity, lambda m: 0) is None:
        return None
    largest = min(m for m in sorted({
        total[b] - total[a] for a in range(n) for b in range(a + 1, n + 1)}) if m <= capacity
        and best(m, lambda m: 0) is not None)
    return best(largest, lambda m: m * m)[1]


def _pack(times: list[tuple[int, int]], capacity: int, count: int) -> list[list[list]]:
    """Chapters in order into ``count`` sessions of ``capacity`` minutes, a chapter split across sessions
    where whole chapters cannot fit: one that does not fit the rest of a session starts the next one when
    the remaining chapters still fit, else is split."""
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


def timetable(sessions: int, minutes: int, measured: list[Chapter] | None = None, slack: int = SLACK) -> Timetable:
    """Which chapters to teach in ``sessions`` sessions of ``minutes`` minutes, and in which session.

    The core paths of the chapters (no section marked "(optional)", no optional proof) are planned, each
    session keeping ``slack`` minutes for questions. The core chapters (``CORE``) are always taught, then
    those of ``EXTRA_FIRST`` and the rest in order, each while it fits without cutting a chapter in two
    and beside the chapters it needs (``NEEDS``).
    Chapters keep their order and are spread as evenly as whole chapters allow (the longest session as
    short as it can be, then the sessions as equal as they can be); a chapter is split across two sessions
    only when whole chapters cannot fit.

    Raises
    ------
    ValueError
        If ``sessions`` or ``minutes`` is not a positive whole number, if a session is too short for
        the exercise done in class, the slack and some teaching, or if the core does not fit.
    """
    _check_length("sessions", sessions)
    _check_length("minutes", minutes)
    capacity = minutes - IN_CLASS_EXERCISE - slack
    if capacity < 10:
        raise ValueError(f"a session of {minutes} minutes leaves {capacity} after the exercise done in class "
                         f"({IN_CLASS_EXERCISE} minutes) and {slack} for questions; give sessions of at least "
                         f"{IN_CLASS_EXERCISE + slack + 10}")
    numbered = by_number(measured or chapters())
    numbers = sorted(numbered)
    core = [c for c in CORE if c in numbers]
    room = sessions * capacity

    def need(chosen_) -> int:
        return sum(numbered[c].class_minutes(False) for c in chosen_)

    if need(core) > room:
        raise ValueError(
            f"the core (chapters {', '.join(map(str, core))}) needs {need(core)} minutes of class on its core "
            f"path; {sessions} sessions of {minutes} minutes give {room} after the exercise and {slack} minutes "
            f"for questions in each: use more sessions or longer ones")

    def layout(chosen_) -> list[list[list]]:
        order = sorted(chosen_)
        times = [numbered[c].class_minutes(False) for c in order]
        even = _even(times, sessions, capacity)
        if even is not None:
            return [[[order[i], times[i]] for i in run] for run in even]
        return _pack(list(zip(order, times, strict=True)), capacity, sessions)

    def splits(chosen_) -> int:
        """Cuts beyond those a chapter longer than a session needs anyway."""
        needed = sum(-(-numbered[c].class_minutes(False) // capacity) for c in chosen_)
        return sum(len(s) for s in layout(chosen_)) - needed

    chosen_ = list(core)
    for c in [*EXTRA_FIRST, *(c for c in numbers if c not in EXTRA_FIRST)]:
        if (c in numbers and c not in chosen_ and c not in LABS and need([*chosen_, c]) <= room
                and all(p in chosen_ for p in NEEDS.get(c, ())) and splits([*chosen_, c]) <= splits(chosen_)):
            chosen_.append(c)
    packed = layout(chosen_)
    parts = {c: sum(1 for s in packed for piece in s if piece[0] == c) for c in chosen_}
    seen: dict[int, int] = {}
    result = []
    for s in packed:
        row = []
        for chapter, taken in s:
            seen[chapter] = seen.get(chapter, 0) + 1
            row.append(Piece(chapter, taken, seen[chapter], parts[chapter]))
        result.append(tuple(row))
    result += [()] * (sessions - len(result))
    reading = tuple(c for c in numbers if c not in chosen_ and c not in LABS)
    made = Timetable(minutes, tuple(result), reading, tuple(c for c in LABS if c in numbers), slack)
    taught = [(spare, k) for k, (spare, s) in enumerate(zip(made.spare(), result, strict=True), start=1) if s]
    if taught and max(taught)[0] - min(taught)[0] > 10:
        spare, k = max(taught)
        made = replace(made, note=(
            f"Session {k} has {spare} minutes to spare: the next chapter does not fit beside it whole. Use them "
            "for questions or a review, or choose the chapters yourself (CHAPTERS=\"...\", \"+\" for a "
            "chapter's optional parts)."))
    return made


def timetable_markdown(plan: Timetable) -> str:
    """The schedule as a Markdown table and notes, with the slack and the model's caveat next to the numbers."""
    rows = ["| Session | Chapters | class + exercise (min) | left for questions (min) |", "| --- | --- | --- | --- |"]
    for k, (session, total, spare) in enumerate(zip(plan.sessions, plan.session_minutes(), plan.spare(), strict=True),
                                                start=1):
        if not session:
            rows.append(f"| {k} | free: review, a lab or a homework session | | {plan.minutes} |")
            continue
        pieces = ", ".join(f"chapter {p.chapter}" + (" with its optional parts" if p.optional else "")
                           + (f" (part {p.part} of {p.parts})" if p.parts > 1 else "") for p in session)
        rows.append(f"| {k} | {pieces} | {total - IN_CLASS_EXERCISE} + {IN_CLASS_EXERCISE} = {total} of "
                    f"{plan.minutes} | {spare} |")
    notes = [(f"Each session: the class time of its chapters plus one exercise done in class ({IN_CLASS_EXERCISE} "
             f"minutes), with at least {plan.slack} minutes left for questions (SLACK=...)."),
             ("Core path only: the sections marked (optional) and the optional proofs are left out of class; "
             "choose a chapter with \"+\" (CHAPTERS=\"1+, 2 | 4 | 5\") to teach them.")]
    if plan.note:
        notes.append(plan.note)
    if plan.reading:
        notes.append("Reading, not taught in class: chapters " + ", ".join(map(str, plan.reading)) + ".")
    if plan.labs:
        notes.append("A lab, not a lecture: chapter " + ", ".join(map(str, plan.labs)) + ".")
    notes.append("The minutes come from a word-count model of the chapters (book/instructors.md states "
                 "its rates), not from timing a class: adjust them to your students.")
    return "\n".join(rows) + "\n\n" + "\n".join(f"- {n}" for n in notes)


def requested(sessions: int | None = None, minutes: int | None = None, chapters_: str | None = None,
              plan: str | None = None, slack: int | None = None) -> Timetable | None:
    """The timetable ``make plan`` and ``make slides`` were asked for, if any: a plan file, chosen chapters,
    or a number of sessions (5 and 90 minutes when only one of them is given)."""
    slack = SLACK if slack is None else slack
    if plan:
        return plan_file(Path(plan))
    if chapters_:
        return chosen(chapters_, minutes or SESSION_MINUTES, slack)
    if sessions is not None or minutes is not None:
        return timetable(sessions or 5, minutes or SESSION_MINUTES, slack=slack)
    return None


def _whole(text: str) -> int:
    import argparse

    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"needs a positive whole number, got {text!r}")
    return int(text)


def arguments(parser) -> None:
    """The options ``make plan`` and ``make slides`` share."""
    parser.add_argument("--sessions", type=_whole, help="a timetable of this many sessions")
    parser.add_argument("--minutes", type=_whole, help="... of this many minutes each (default 90)")
    parser.add_argument("--slack", type=_whole, help=f"minutes kept free for questions in each session (default {SLACK})")
    parser.add_argument("--chapters", help='chapters per session, e.g. "1+, 2 | 4 | 5" ("+": with its optional parts)')
    parser.add_argument("--plan", help="a YAML plan file: minutes, slack, sessions")


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description="Class time per chapter, and course plans.")
    arguments(parser)
    parser.add_argument("--write", action="store_true", help="rewrite the generated part of book/instructors.md")
    args = parser.parse_args(argv)
    try:
        table_ = requested(args.sessions, args.minutes, args.chapters, args.plan, args.slack)
    except ValueError as error:
        sys.exit(f"coursebook.plan: {error}")
    if table_ is not None:
        print(timetable_markdown(table_))
        return
    measured = chapters()
    page = PAGE.read_text(encoding="utf-8")
    start, end = page.index(BEGIN), page.index(END) + len(END)
    if args.write:
        PAGE.write_text(page[:start] + section(measured) + page[end:], encoding="utf-8")
    elif page[start:end] != section(measured):
        sys.exit("book/instructors.md is out of date: run `python -m coursebook.plan --write`")
    print(table(measured))
    for name, plan in plans(measured).items():
        print(name, plan.session_minutes())


if __name__ == "__main__":
    main()
