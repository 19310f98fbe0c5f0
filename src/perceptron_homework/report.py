"""The class's table of scores, the roster join, the gradebook for an LMS, and the written answers.

One row per student (:func:`rows`): who it is (id, name, email where the platform gives them, the
Canvas ids of a Canvas roster), where the notebook came from, when it was handed in and how late
under the :class:`LatePolicy` (grace period, penalty per day, last day, per-student extensions), the
points of each autograded question and their sum, a column for each question graded by hand, the
total (autograded plus by hand, less the late penalty), the status (``ok``, ``error``, ``timed
out``, ``not graded``, ``missing``) and the reason. :func:`write_canvas` writes it as Canvas's
gradebook import; :func:`regrade_row` replaces one student's row after a regrade.

The written answers (:func:`export_written`) go to one HTML page per student: each written
question's prompt and the student's answer cells. Markdown is rendered by markdown-it-py in its
CommonMark mode with raw HTML turned off, so whatever a student typed shows as text and no script
of theirs runs in the grader's browser; formulas stay as typed (``$...$``).
"""

from __future__ import annotations

import csv
import html
import json
import math
import os
import re
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

from .submissions import Submission, aware, safe_name

BEGIN = re.compile(r"<!--\s*BEGIN QUESTION\s*-->")
END = re.compile(r"<!--\s*END QUESTION\s*-->")
QUESTION = re.compile(r"\*\*Question\s+(\d+)")
STATUSES = ("ok", "error", "timed out")


def manual_points(autograder_zip: Path) -> dict[str, float]:
    """The questions graded by hand and their points: the build's ``manifest.json`` beside the zip."""
    for manifest in (Path(autograder_zip).parent.parent / "manifest.json", Path(autograder_zip).parent / "manifest.json"):
        if manifest.is_file():
            try:
                return dict(json.loads(manifest.read_text()).get("manual_points", {}))
            except (ValueError, AttributeError):
                return {}
    return {}


def _split_status(status: str) -> tuple[str, str]:
    for word in STATUSES:
        if status == word:
            return word, ""
        if status.startswith(word + ":"):
            return word, status[len(word) + 1:].strip()
    return "error", status


# ----------------------------------------------------------------------------------- late policy
DAY = timedelta(days=1)


@dataclass(frozen=True)
class LatePolicy:
    """When a hand-in is late and what it costs.

    A hand-in is late when it comes after the student's due date (``due``, or the student's own in
    ``extensions``) by more than ``grace``. A late hand-in loses ``penalty`` percent of the possible
    points for every day or part of a day after the due date (the grace is not deducted), never more
    than its points; after ``max_days`` days it gets none.
    """

    due: datetime | None = None
    grace: timedelta = timedelta(0)
    penalty: float = 0.0
    max_days: float | None = None
    extensions: dict[str, datetime] = field(default_factory=dict)  # casefolded id or email -> due date

    def __post_init__(self):
        if self.grace < timedelta(0):
            raise ValueError(f"the grace period cannot be negative ({self.grace})")
        if not 0 <= self.penalty <= 100:
            raise ValueError(f"the late penalty is a percentage per day, 0 to 100, not {self.penalty:g}")
        if self.max_days is not None and self.max_days < 0:
            raise ValueError(f"the last day a late hand-in counts cannot be negative ({self.max_days:g})")

    def due_for(self, keys) -> datetime | None:
        for key in keys:
            if key and key.casefold() in self.extensions:
                return self.extensions[key.casefold()]
        return self.due

    def judge(self, keys, submitted: datetime | None) -> tuple[str, str, str, float]:
        """(due date, ``yes``/``no``/``""``, hours late, fraction of the possible points lost)."""
        due = self.due_for(keys)
        if due is None:
            return "", "", "", 0.0
        if submitted is None:
            return aware(due).isoformat(), "", "", 0.0
        after = aware(submitted) - aware(due)
        if after <= self.grace:
            return aware(due).isoformat(), "no", "", 0.0
        days = math.ceil(after / DAY)
        lost = 1.0 if self.max_days is not None and after > self.max_days * DAY else min(1.0, days * self.penalty / 100)
        return aware(due).isoformat(), "yes", f"{after / timedelta(hours=1):.2f}", lost


def read_extensions(path: Path, default_due: datetime | None) -> dict[str, datetime]:
    """Per-student due dates: a CSV with an id column (as a roster's) and ``due`` (ISO 8601) or ``days``/``hours``
    added to the class's due date."""
    extensions = {}
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        fields = {f.strip().casefold(): f for f in reader.fieldnames or []}
        id_field = _id_field(fields, path)
        if "due" not in fields and "days" not in fields and "hours" not in fields:
            raise ValueError(f"{path}: an extension needs a due, days or hours column; its columns are "
                             f"{list(fields.values())}")
        for line, row in enumerate(reader, start=2):
            sid = (row.get(id_field) or "").strip()
            if not sid:
                continue
            try:
                if (row.get(fields.get("due", "")) or "").strip():
                    due = datetime.fromisoformat(row[fields["due"]].strip())
                else:
                    extra = timedelta(days=float((row.get(fields.get("days", "")) or "0").strip() or 0),
                                      hours=float((row.get(fields.get("hours", "")) or "0").strip() or 0))
                    if default_due is None:
                        raise ValueError("days or hours of extension need the class's due date (--due)")
                    due = default_due + extra
            except ValueError as exc:
                raise ValueError(f"{path}, line {line}: the extension of {sid!r} cannot be read: {exc}") from None
            extensions[sid.casefold()] = due
    return extensions


# ----------------------------------------------------------------------------------- the table
LMS_COLUMNS = ("section", "lms_id", "sis_user_id", "sis_login_id")


def rows(submissions: list[Submission], reports: dict[str, dict], points: dict[str, float],
         manual: dict[str, float], *, due: datetime | None = None, roster: list[dict] | None = None,
         written: dict[str, str] | None = None, policy: LatePolicy | None = None,
         hand: dict[str, dict[str, float]] | None = None) -> list[dict[str, str]]:
    """The table: one row per student, then one per roster student who handed in nothing.

    ``hand`` gives the points graded by hand (id or email -> {question: points}); they count in the
    total, as the late penalty of ``policy`` does (``due`` alone: a late column, no penalty).
    """
    policy = policy or LatePolicy(due=due)
    questions, hand_columns = list(points), [f"{q}_by_hand" for q in manual]
    possible = sum(points.values()) + sum(manual.values())
    table = []
    for sub in submissions:
        report = reports.get(str(sub.notebook)) if sub.notebook is not None and not sub.problem else None
        if report is None:
            status, reason = "not graded", sub.problem or "no notebook"
            scores = [0.0] * len(questions)
        else:
            status, reason = _split_status(report["status"])
            scores = [report["questions"].get(q, 0) for q in questions]
        notes = "; ".join(sub.notes)
        table.append({
            "student_id": sub.student_id, "name": sub.name, "email": sub.email, **{c: "" for c in LMS_COLUMNS},
            "submission": str(sub.notebook if sub.notebook is not None and sub.platform == "files" else sub.source),
            "submitted_at": sub.submitted_at.isoformat() if sub.submitted_at else "",
            "due": "", "late": "", "hours_late": "", "late_penalty": "",
            **{q: f"{s:g}" for q, s in zip(questions, scores)}, "autograded": f"{sum(scores):g}",
            **{h: "" for h in hand_columns}, "total": "", "possible": f"{possible:g}",
            "written": (written or {}).get(sub.student_id, ""),
            "status": status, "reason": "; ".join(filter(None, [reason, notes])),
            "_keys": (sub.student_id, sub.email), "_submitted": sub.submitted_at,
        })
    if roster is not None:
        table = _join(table, roster, questions, hand_columns, possible)
    for row in table:
        keys = [*row.pop("_keys"), row["student_id"], row["email"], *(row[c] for c in LMS_COLUMNS[1:])]
        submitted = row.pop("_submitted")
        if row["status"] != "missing":
            row["due"], row["late"], row["hours_late"], lost = policy.judge(keys, submitted)
            row["late_penalty"] = f"{round(lost * possible, 6):g}" if row["late"] == "yes" else ""
        for question, given in _hand_for(hand or {}, keys).items():
            if f"{question}_by_hand" not in row:
                raise ValueError(f"{question} is not graded by hand (those are {list(manual)})")
            if not 0 <= given <= manual[question]:
                raise ValueError(f"{row['student_id']}: {given:g} points for {question}, which is out of "
                                 f"{manual[question]:g}")
            row[f"{question}_by_hand"] = f"{given:g}"
        total_row(row)
    return table


def _hand_for(hand: dict[str, dict[str, float]], keys) -> dict[str, float]:
    for key in keys:
        if key and key.casefold() in hand:
            return hand[key.casefold()]
    return {}


def total_row(row: dict[str, str]) -> dict[str, str]:
    """The row's total: autograded points plus the points graded by hand, less the late penalty, at least 0."""
    def number(column: str) -> float:
        text = (row.get(column) or "").strip()
        try:
            return float(text) if text else 0.0
        except ValueError:
            raise ValueError(f"{row.get('student_id')}: {column} is {text!r}, not a number") from None

    by_hand = sum(number(c) for c in row if c.endswith("_by_hand"))
    row["total"] = f"{round(max(0.0, number('autograded') + by_hand - number('late_penalty')), 6):g}"
    return row


def read_hand(path: Path) -> dict[str, dict[str, float]]:
    """Points graded by hand: a CSV with an id column (as a roster's) and a column per question (``q6`` or
    ``q6_by_hand``); an empty cell is not graded yet."""
    hand = {}
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        fields = {f.strip().casefold(): f for f in reader.fieldnames or []}
        id_field = _id_field(fields, path)
        columns = {re.sub(r"_by_hand$", "", k): f for k, f in fields.items() if re.fullmatch(r"q\d+(_by_hand)?", k)}
        if not columns:
            raise ValueError(f"{path}: no question column (q6 or q6_by_hand); its columns are {list(fields.values())}")
        for line, row in enumerate(reader, start=2):
            sid = (row.get(id_field) or "").strip()
            if not sid:
                continue
            points = {}
            for question, column in columns.items():
                text = (row.get(column) or "").strip()
                if text:
                    try:
                        points[question] = float(text)
                    except ValueError:
                        raise ValueError(f"{path}, line {line}: {column} of {sid!r} is {text!r}, not a number") from None
            hand[sid.casefold()] = points
    return hand


ID_COLUMNS = ("student_id", "sid", "student id", "sis user id", "sis login id", "id", "username", "user", "login",
              "email")


def _id_field(fields: dict[str, str], path: Path) -> str:
    id_field = next((fields[k] for k in ID_COLUMNS if k in fields), None)
    if id_field is None:
        raise ValueError(f"{path}: no column of student ids (student_id, SID, SIS User ID, ID, username, login or "
                         f"email); its columns are {list(fields.values())}")
    return id_field


def read_roster(path: Path) -> list[dict]:
    """The roster's students, from a CSV as Canvas exports it (``Student``, ``ID``, ``SIS User ID``,
    ``SIS Login ID``, ``Section``; its ``Points Possible`` row is skipped), as Gradescope exports it
    (``First Name``, ``Last Name``, ``SID``, ``Email``) or a plain one (``student_id``/``id``/``username``,
    ``name``, ``email``). Each student: ``student_id``, ``name``, ``email`` and the Canvas columns."""
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        fields = {f.strip().casefold(): f for f in reader.fieldnames or []}
        id_field = _id_field(fields, path)
        name_field = next((fields[k] for k in ("name", "full name", "student name", "student") if k in fields), None)
        email_field = fields.get("email")

        def cell(row: dict, key: str) -> str:
            return (row.get(fields[key]) or "").strip() if key in fields else ""

        students = []
        for row in reader:
            if cell(row, "student") in ("Points Possible", "Student, Test"):  # Canvas's own rows
                continue
            sid = (row.get(id_field) or "").strip()
            if not sid:
                continue
            name = (row.get(name_field) or "").strip() if name_field else " ".join(
                cell(row, k) for k in ("first name", "last name") if k in fields).strip()
            students.append({"student_id": sid, "name": name,
                             "email": (row.get(email_field) or "").strip() if email_field else "",
                             "section": cell(row, "section"), "lms_id": cell(row, "id"),
                             "sis_user_id": cell(row, "sis user id"), "sis_login_id": cell(row, "sis login id")})
    return students


def _join(table: list[dict], roster: list[dict], questions: list[str], hand: list[str],
          possible: float) -> list[dict]:
    by_key: dict[str, dict] = {}
    for row in table:
        for key in (row["student_id"], row["email"]):
            if key:
                by_key.setdefault(key.casefold(), row)
    on_roster, out = set(), []
    for student in roster:
        keys = [student["student_id"], student["email"], *(student.get(c, "") for c in LMS_COLUMNS[1:])]
        row = next((by_key[k.casefold()] for k in keys if k and k.casefold() in by_key), None)
        if row is None:
            out.append({"student_id": student["student_id"], "name": student["name"], "email": student["email"],
                        **{c: student.get(c, "") for c in LMS_COLUMNS}, "submission": "", "submitted_at": "",
                        "due": "", "late": "", "hours_late": "", "late_penalty": "",
                        **{q: "0" for q in questions}, "autograded": "0", **{h: "" for h in hand},
                        "total": "0", "possible": f"{possible:g}", "written": "", "status": "missing",
                        "reason": "no submission", "_keys": (), "_submitted": None})
            continue
        if id(row) in on_roster:  # a group's one notebook, found again for another member
            row = {**row, "_keys": ()}
        on_roster.add(id(row))
        row["student_id"] = student["student_id"]
        row["name"] = student["name"] or row["name"]  # the roster names the class (Canvas: "Last, First")
        row["email"] = row["email"] or student["email"]
        for column in LMS_COLUMNS:
            row[column] = student.get(column, "")
        out.append(row)
    for row in table:
        if id(row) not in on_roster:
            row["reason"] = "; ".join(filter(None, [row["reason"], "not on the roster"]))
            out.append(row)
    return out


TEXT_COLUMNS = ("student_id", "name", "email", "section", "lms_id", "sis_user_id", "sis_login_id", "submission",
                "reason")
FORMULA = ("=", "+", "-", "@")


def _cell(column: str, value: str, text_columns=TEXT_COLUMNS) -> str:
    return f"'{value}" if column in text_columns and value[:1] in FORMULA else value


def write_csv(table: list[dict], path: Path) -> None:
    """Write the table; a text cell that a spreadsheet would read as a formula gets a leading ``'``."""
    if not table:
        raise ValueError("no students to write")
    _write_rows(path, list(table[0]), [{k: _cell(k, v) for k, v in row.items()} for row in table])


def _write_rows(path: Path, header: list[str], rows: list[dict], first: list[str] | None = None) -> None:
    """Write a CSV next to ``path`` and move it into place: a reader never sees half a file."""
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    with open(tmp, "w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        if first is not None:
            writer.writerow(first)
        for row in rows:
            writer.writerow([row.get(column, "") for column in header])
    os.replace(tmp, path)


def read_csv(path: Path) -> list[dict[str, str]]:
    """A table :func:`write_csv` wrote (the formula guard's ``'`` taken off again)."""
    with open(path, newline="", encoding="utf-8") as fh:
        table = list(csv.DictReader(fh))
    for row in table:
        for column in TEXT_COLUMNS:
            value = row.get(column) or ""
            if value[:1] == "'" and value[1:2] in FORMULA:
                row[column] = value[1:]
    if not table or "total" not in table[0] or "autograded" not in table[0]:
        raise ValueError(f"{path}: not a table of scores written by `perceptron-homework grade`")
    return table


# ------------------------------------------------------------------------------ Canvas gradebook
CANVAS_COLUMNS = ("Student", "ID", "SIS User ID", "SIS Login ID", "Section")
POINTS_POSSIBLE = "    Points Possible"  # as Canvas's own export writes it


def write_canvas(table: list[dict], path: Path, assignment: str) -> None:
    """The table as a Canvas gradebook import: Canvas's five student columns, then ``assignment`` (name it
    as in Canvas's export, ``Homework 1 (12345)``, to fill that assignment; a new name makes a new one),
    its ``Points Possible`` row, then one row per student with the total. A student whose notebook could
    not be graded gets an empty cell, which Canvas leaves as it is."""
    if not table:
        raise ValueError("no students to write")
    if not assignment.strip():
        raise ValueError("the Canvas assignment column needs a name")
    possible = table[0]["possible"]
    rows = []
    for row in table:
        rows.append({
            "Student": _cell("name", row["name"] or row["student_id"]),
            "ID": row.get("lms_id", ""),
            # Canvas matches a row to a student by ID, SIS User ID or SIS Login ID.
            "SIS User ID": _cell("student_id", row.get("sis_user_id") or ("" if row.get("lms_id") else row["student_id"])),
            "SIS Login ID": _cell("email", row.get("sis_login_id", "")),
            "Section": _cell("section", row.get("section", "")),
            assignment: "" if row["status"] == "not graded" else row["total"],
        })
    _write_rows(path, [*CANVAS_COLUMNS, assignment], rows, first=[POINTS_POSSIBLE, "", "", "", "", possible])


def regrade_row(table: list[dict], student: str, report: dict | None, points: dict[str, float], *,
                submission: str = "", problem: str = "", submitted_at: datetime | None = None,
                policy: LatePolicy | None = None) -> dict[str, str]:
    """Replace one student's autograded points (and status, reason) in ``table``, in place; the points graded
    by hand and the written answers stay; the late columns are judged again when ``submitted_at`` is given."""
    matches = [row for row in table if student.casefold() in
               {(row.get(c) or "").casefold() for c in ("student_id", "email", *LMS_COLUMNS[1:])} - {""}]
    if not matches:
        raise ValueError(f"no row for student {student!r} in the table of scores")
    if len(matches) > 1:
        raise ValueError(f"{student!r} names {len(matches)} rows of the table; give the student_id")
    (row,) = matches
    missing = [q for q in points if q not in row]
    if missing:
        raise ValueError(f"the table has no column {missing[0]}: it is not this assignment's")
    if report is None:
        status, reason, scores = "not graded", problem or "no notebook", {q: 0.0 for q in points}
    else:
        status, reason = _split_status(report["status"])
        scores = {q: report["questions"].get(q, 0) for q in points}
    row.update({q: f"{s:g}" for q, s in scores.items()})
    row.update({"autograded": f"{sum(scores.values()):g}", "status": status, "reason": "; ".join(filter(None, [reason, "regraded"]))})
    if submission:
        row["submission"] = submission
    if submitted_at is not None:
        row["submitted_at"] = submitted_at.isoformat()
        keys = [row["student_id"], row["email"], *(row.get(c, "") for c in LMS_COLUMNS[1:])]
        row["due"], row["late"], row["hours_late"], lost = (policy or LatePolicy()).judge(keys, submitted_at)
        row["late_penalty"] = f"{round(lost * float(row['possible']), 6):g}" if row["late"] == "yes" else ""
    return total_row(row)


# ---------------------------------------------------------------------------- written answers
def written_answers(notebook: Path) -> list[tuple[str, str, list[dict]]]:
    """Every written question of a notebook: its name (``q6``), its prompt and the answer cells.

    A written question is what otter marks ``<!-- BEGIN QUESTION -->`` ... ``<!-- END QUESTION -->``;
    the cells in between are the student's answer, whatever their type.
    """
    nb = json.loads(Path(notebook).read_bytes())
    cells = [c for c in nb.get("cells", []) if isinstance(c, dict)]
    found, current = [], None
    for cell in cells:
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if cell.get("cell_type") == "markdown" and BEGIN.search(source):
            prompt = BEGIN.split(source, 1)[1].strip()
            m = QUESTION.search(prompt)
            current = (f"q{m.group(1)}" if m else f"written {len(found) + 1}", prompt, [])
            found.append(current)
            continue
        if current is not None and cell.get("cell_type") == "markdown" and END.search(source):
            current = None
            continue
        if current is not None:
            current[2].append({"type": cell.get("cell_type", ""), "source": source})
    return found


def _markdown(text: str) -> str:
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": False}).render(text)


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{title}</title>
<style>body{{font-family:sans-serif;max-width:48rem;margin:2rem auto;line-height:1.5}}
.answer{{border-left:4px solid #2a6;padding:0 1rem;margin:1rem 0}}pre{{background:#f4f4f4;padding:.5rem;overflow:auto}}
.prompt{{color:#333}}</style></head>
<body><h1>{title}</h1>
{body}
</body></html>
"""


def export_written(submissions: list[Submission], folder: Path, manual: dict[str, float]) -> dict[str, str]:
    """One HTML page of written answers per student in ``folder`` and an ``index.html``; return
    each student id's page (relative to ``folder``)."""
    folder.mkdir(parents=True, exist_ok=True)
    pages: dict[str, str] = {}
    used: set[str] = set()
    for sub in submissions:
        name = safe_name(sub.student_id)
        while name + ".html" in used:
            name += "_"
        used.add(name + ".html")
        who = " ".join(filter(None, [sub.name, f"({sub.student_id})", sub.email]))
        parts = []
        if sub.notebook is None or sub.problem:
            parts.append(f"<p>No notebook could be read: {html.escape(sub.problem or 'no notebook')}</p>")
        else:
            try:
                answers = written_answers(sub.notebook)
            except (ValueError, RecursionError, OSError) as exc:
                answers = []
                parts.append(f"<p>The notebook could not be read: {html.escape(str(exc)[:300])}</p>")
            for question, prompt, cells in answers:
                out_of = f" ({manual[question]:g} points)" if question in manual else ""
                parts.append(f"<h2>{html.escape(question)}{out_of}</h2>\n<div class=\"prompt\">{_markdown(prompt)}</div>")
                body = "".join(_markdown(c["source"]) if c["type"] == "markdown"
                               else f"<pre><code>{html.escape(c['source'])}</code></pre>" for c in cells)
                parts.append(f"<div class=\"answer\">{body or '<p><em>(no answer)</em></p>'}</div>")
            if not answers and not parts:
                parts.append("<p>The notebook has no written question.</p>")
        (folder / f"{name}.html").write_text(PAGE.format(title=html.escape(f"Written answers: {who}"),
                                                         body="\n".join(parts)), encoding="utf-8")
        pages[sub.student_id] = f"{name}.html"
    index = "\n".join(f"<li><a href=\"{html.escape(page)}\">{html.escape(sid)}</a></li>" for sid, page in pages.items())
    (folder / "index.html").write_text(PAGE.format(title="Written answers", body=f"<ul>\n{index}\n</ul>"),
                                       encoding="utf-8")
    return pages
