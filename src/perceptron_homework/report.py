"""The class's table of scores, the roster join, and the written answers for hand grading.

One row per student (:func:`rows`): who it is (id, name, email where the platform gives them),
where the notebook came from, when it was handed in and whether that was late, the points of each
autograded question, the total, an empty column for each question graded by hand, the status
(``ok``, ``error``, ``timed out``, ``not graded``, ``missing``) and the reason.

The written answers (:func:`export_written`) go to one HTML page per student: each written
question's prompt and the student's answer cells. Markdown is rendered by markdown-it-py in its
CommonMark mode with raw HTML turned off, so whatever a student typed shows as text and no script
of theirs runs in the grader's browser; formulas stay as typed (``$...$``).
"""

from __future__ import annotations

import csv
import html
import json
import re
from datetime import datetime
from pathlib import Path

from .submissions import Submission, is_late, safe_name

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


def rows(submissions: list[Submission], reports: dict[str, dict], points: dict[str, float],
         manual: dict[str, float], *, due: datetime | None = None, roster: list[dict] | None = None,
         written: dict[str, str] | None = None) -> list[dict[str, str]]:
    """The table: one row per student, then one per roster student who handed in nothing."""
    questions, hand = list(points), [f"{q}_by_hand" for q in manual]
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
            "student_id": sub.student_id, "name": sub.name, "email": sub.email, "submission": str(
                sub.notebook if sub.notebook is not None and sub.platform == "files" else sub.source),
            "submitted_at": sub.submitted_at.isoformat() if sub.submitted_at else "",
            "late": is_late(sub.submitted_at, due),
            **{q: f"{s:g}" for q, s in zip(questions, scores)},
            "total": f"{sum(scores):g}", "possible": f"{sum(points.values()):g}",
            **{h: "" for h in hand}, "written": (written or {}).get(sub.student_id, ""),
            "status": status, "reason": "; ".join(filter(None, [reason, notes])),
        })
    if roster is not None:
        table = _join(table, roster, questions, hand, points)
    return table


def read_roster(path: Path) -> list[dict]:
    """The roster's students: ``student_id`` (or ``sid``, ``id``, ``username``, ``login``, ``email``), name, email."""
    with open(path, newline="", encoding="utf-8-sig") as fh:
        reader = csv.DictReader(fh)
        fields = {f.strip().casefold(): f for f in reader.fieldnames or []}
        id_field = next((fields[k] for k in ("student_id", "sid", "student id", "id", "username", "user", "login",
                                             "email") if k in fields), None)
        if id_field is None:
            raise ValueError(f"{path}: no column of student ids (student_id, sid, id, username, login or email); "
                             f"its columns are {list(fields.values())}")
        name_field = next((fields[k] for k in ("name", "full name", "student name") if k in fields), None)
        email_field = fields.get("email")
        students = []
        for row in reader:
            sid = (row.get(id_field) or "").strip()
            if not sid:
                continue
            name = (row.get(name_field) or "").strip() if name_field else " ".join(
                (row.get(fields[k]) or "").strip() for k in ("first name", "last name") if k in fields).strip()
            students.append({"student_id": sid, "name": name, "email": (row.get(email_field) or "").strip()
                             if email_field else ""})
    return students


def _join(table: list[dict], roster: list[dict], questions: list[str], hand: list[str],
          points: dict[str, float]) -> list[dict]:
    by_key: dict[str, dict] = {}
    for row in table:
        for key in (row["student_id"], row["email"]):
            if key:
                by_key.setdefault(key.casefold(), row)
    on_roster, out = set(), []
    for student in roster:
        row = next((by_key[k.casefold()] for k in (student["student_id"], student["email"]) if k
                    and k.casefold() in by_key), None)
        if row is None:
            out.append({"student_id": student["student_id"], "name": student["name"], "email": student["email"],
                        "submission": "", "submitted_at": "", "late": "", **{q: "0" for q in questions},
                        "total": "0", "possible": f"{sum(points.values()):g}", **{h: "" for h in hand},
                        "written": "", "status": "missing", "reason": "no submission"})
            continue
        on_roster.add(id(row))
        row["student_id"] = student["student_id"]
        row["name"] = row["name"] or student["name"]
        row["email"] = row["email"] or student["email"]
        out.append(row)
    for row in table:
        if id(row) not in on_roster:
            row["reason"] = "; ".join(filter(None, [row["reason"], "not on the roster"]))
            out.append(row)
    return out


TEXT_COLUMNS = ("student_id", "name", "email", "submission", "reason")


def write_csv(table: list[dict], path: Path) -> None:
    """Write the table; a text cell that a spreadsheet would read as a formula gets a leading ``'``."""
    if not table:
        raise ValueError("no students to write")
    with open(path, "w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(table[0]))
        writer.writeheader()
        for row in table:
            writer.writerow({k: f"'{v}" if k in TEXT_COLUMNS and v[:1] in ("=", "+", "-", "@") else v
                             for k, v in row.items()})


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
