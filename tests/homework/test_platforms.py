"""The grader reads what the platforms hand back: Gradescope exports, nbgrader folders, zips.

The end-to-end test lays out a Gradescope export as Gradescope writes it (``assignment_N_export/
submission_M/`` and ``submission_metadata.yml``, a group submission, a zip a student uploaded, a
truncated notebook), zips it inside another zip, and grades it in the sandbox with a due date, a
roster and the written answers' export; the others check each layout and each refusal alone.
"""

from __future__ import annotations

import csv
import io
import stat
import subprocess
import sys
import zipfile
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import nbformat
import pytest

from perceptron_homework import report, submissions
from perceptron_homework.submissions import (
    Submission,
    UnsafeArchive,
    discover,
    notebook_problem,
    safe_extract,
)

TOOL = [sys.executable, "-m", "perceptron_homework"]
pytestmark = pytest.mark.filterwarnings("ignore:Traits should be given as instances:DeprecationWarning")

METADATA = """\
submission_101:
  :submitters:
  - :name: Alice Martin
    :sid: 'A001'
    :email: alice@example.edu
  :created_at: 2026-12-01 20:15:02.123456789 -08:00
  :score: 0.0
  :status: processed
submission_102:
  :submitters:
  - :name: Bob Li
    :sid: 'A002'
    :email: bob@example.edu
  - :name: Carol Diaz
    :sid: 'A003'
    :email: carol@example.edu
  :created_at: 2026-12-02 09:00:00.000000000 -08:00
submission_103:
  :submitters:
  - :name: Dave Roy
    :sid: 'A004'
    :email: dave@example.edu
  :created_at: 2026-12-01 10:00:00.000000000 -08:00
submission_104:
  :submitters:
  - :name: Erin Park
    :sid: 'A005'
    :email: erin@example.edu
  :created_at: 2026-12-01 11:00:00.000000000 -08:00
"""
ROSTER = "SID,Name,Email\nA001,Alice Martin,alice@example.edu\nA002,Bob Li,bob@example.edu\n" \
         "A003,Carol Diaz,carol@example.edu\nA004,Dave Roy,dave@example.edu\nA005,Erin Park,erin@example.edu\n" \
         "A006,Frank Ode,frank@example.edu\n"
WRITTEN = "Because <script>alert('x')</script> the *mistakes* scale with $\\eta$."


def key_with_written_answer(hw1: Path) -> bytes:
    nb = nbformat.read(hw1 / "autograder" / "hw1_perceptron.ipynb", as_version=4)
    (answer,) = [c for c in nb.cells if c.cell_type == "markdown" and "otter_answer_cell" in c.metadata.get("tags", [])]
    answer.source = WRITTEN
    return nbformat.writes(nb).encode()


def zip_bytes(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def test_gradescope_export_in_a_zip_in_a_zip_graded_with_due_date_roster_and_written_answers(hw1, tmp_path):
    key = key_with_written_answer(hw1)
    student = (hw1 / "student" / "hw1_perceptron.ipynb").read_bytes()
    export = "assignment_7_export"
    files = {
        f"{export}/submission_metadata.yml": METADATA.encode(),
        f"{export}/submission_101/hw1_perceptron.ipynb": key,
        f"{export}/submission_102/hw1_perceptron.ipynb": student,
        f"{export}/submission_103/hw1_perceptron.ipynb": key[: len(key) // 2],  # truncated upload
        # A student who uploaded a zip of a folder: the notebook is found inside.
        f"{export}/submission_104/upload.zip": zip_bytes({"work/hw1_perceptron.ipynb": key}),
    }
    outer = tmp_path / "downloads.zip"
    outer.write_bytes(zip_bytes({"gradescope/export.zip": zip_bytes(files)}))
    (tmp_path / "roster.csv").write_text(ROSTER)
    out, written = tmp_path / "scores.csv", tmp_path / "written"
    done = subprocess.run([*TOOL, "grade", str(hw1 / "autograder" / "hw1_perceptron-autograder.zip"), str(outer),
                           "--out", str(out), "--due", "2026-12-01T23:59-08:00", "--roster", str(tmp_path / "roster.csv"),
                           "--written", str(written), "--jobs", "2", "--grace", "10", "--penalty", "10",
                           "--canvas", str(tmp_path / "canvas.csv"), "--assignment", "Homework 1"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    rows = {r["student_id"]: r for r in csv.DictReader(out.open())}
    assert list(rows["A001"]) == ["student_id", "name", "email", "section", "lms_id", "sis_user_id", "sis_login_id",
                                  "submission", "submitted_at", "due", "late", "hours_late", "late_penalty", "q1",
                                  "q2", "q3", "q4", "q5", "autograded", "q6_by_hand", "total", "possible", "written",
                                  "status", "reason"]
    assert list(rows) == ["A001", "A002", "A003", "A004", "A005", "A006"]  # the roster's order
    summary = {sid: (r["total"], r["status"], r["late"]) for sid, r in rows.items()}
    assert summary == {"A001": ("15", "ok", "no"), "A002": ("0", "ok", "yes"), "A003": ("0", "ok", "yes"),
                       "A004": ("0", "not graded", "no"), "A005": ("15", "ok", "no"), "A006": ("0", "missing", "")}
    assert (rows["A002"]["hours_late"], rows["A002"]["late_penalty"], rows["A001"]["possible"]) == ("9.02", "1.7", "17")
    with open(tmp_path / "canvas.csv", newline="") as fh:
        canvas = list(csv.reader(fh))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Homework 1"]
    assert canvas[1][0].strip() == "Points Possible" and canvas[1][-1] == "17"
    assert [(r[0], r[2], r[-1]) for r in canvas[2:]] == [
        ("Alice Martin", "A001", "15"), ("Bob Li", "A002", "0"), ("Carol Diaz", "A003", "0"),
        ("Dave Roy", "A004", ""), ("Erin Park", "A005", "15"), ("Frank Ode", "A006", "0")]
    assert (rows["A001"]["name"], rows["A001"]["email"]) == ("Alice Martin", "alice@example.edu")
    assert rows["A001"]["submitted_at"] == "2026-12-01T20:15:02.123456-08:00"
    assert rows["A002"]["submission"] == rows["A003"]["submission"] and "group of 2" in rows["A002"]["reason"]
    assert "invalid JSON" in rows["A004"]["reason"]
    assert rows["A006"]["reason"] == "no submission" and rows["A001"]["q6_by_hand"] == ""
    # The written answers: a page per student, the student's text shown as text, not run.
    page = (written / rows["A001"]["written"]).read_text()
    assert "q6 (2 points)" in page and "<em>mistakes</em>" in page
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "No notebook could be read" in (written / rows["A004"]["written"]).read_text()
    assert (written / "index.html").is_file()


def lay_out(root: Path, files: dict[str, bytes | str]) -> Path:
    """Write ``files`` (relative path: content; a path ending in ``/`` is an empty folder) under ``root``."""
    for name, content in files.items():
        path = root / name
        if name.endswith("/"):
            path.mkdir(parents=True, exist_ok=True)
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        (path.write_bytes if isinstance(content, bytes) else path.write_text)(content)
    return root


EMPTY = nbformat.writes(nbformat.v4.new_notebook())


def test_nbgrader_course_folder_and_exchange_inbound(tmp_path):
    course = lay_out(tmp_path / "course", {
        "submitted/ana/hw1_perceptron/hw1_perceptron.ipynb": EMPTY,
        "submitted/ana/hw1_perceptron/timestamp.txt": "2026-12-01 10:00:00.000000 UTC",
        "submitted/ben/hw1_perceptron/hw1_perceptron.ipynb": EMPTY,
        "submitted/ben/hw1_perceptron/timestamp.txt": "2026-12-02 10:00:00.000000 UTC",
        "submitted/ben/hw1_perceptron/scratch.ipynb": EMPTY,
        "submitted/cy/hw1_perceptron/": "",  # fetched, never submitted
    })
    lay_out(tmp_path / "exchange" / "course101" / "inbound", {
        f"{name}/hw1_perceptron.ipynb": EMPTY for name in (
            "dee+hw1_perceptron+2026-12-01 08:00:00.000000 UTC+a1b2",
            "dee+hw1_perceptron+2026-12-01 09:30:00.000000 UTC+c3d4",  # the later hand-in counts
            "eve+hw1_perceptron+2026-11-30 22:00:00.000000 UTC")})
    found = {s.student_id: s for s in discover([course, tmp_path / "exchange"], tmp_path / "work", "hw1_perceptron")}
    assert set(found) == {"ana", "ben", "cy", "dee", "eve"}
    assert found["ana"].submitted_at == datetime(2026, 12, 1, 10, tzinfo=UTC) and found["ana"].notes == []
    assert found["ben"].notebook.name == "hw1_perceptron.ipynb"
    assert found["ben"].notes == ["2 notebooks; graded hw1_perceptron.ipynb"]
    assert found["cy"].notebook is None and found["cy"].problem == "no .ipynb notebook in the submission"
    assert "09:30" in found["dee"].source and found["dee"].notes == ["2 hand-ins; graded the latest"]
    assert found["eve"].submitted_at == datetime(2026, 11, 30, 22, tzinfo=UTC)
    due = datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert {k: submissions.is_late(s.submitted_at, due) for k, s in found.items()} == {
        "ana": "no", "ben": "yes", "cy": "", "dee": "no", "eve": "no"}
    assert not (tmp_path / "work").exists() or not any((tmp_path / "work").iterdir())  # nothing copied


def test_loose_notebooks_and_folders_keep_working(tmp_path):
    lay_out(tmp_path / "class", {"zoe.ipynb": EMPTY, "late/yan.ipynb": EMPTY, "notes.txt": "not a submission",
                                 "=HYPERLINK(1).ipynb": ""})
    found = discover([tmp_path / "class"], tmp_path / "work")
    assert sorted(s.student_id for s in found) == ["=HYPERLINK(1)", "yan", "zoe"]
    # A file name a spreadsheet would run as a formula is written as text.
    report.write_csv(report.rows(found, {}, {"q1": 3.0}, {}), tmp_path / "s.csv")
    assert "\n'=HYPERLINK(1),,," in (tmp_path / "s.csv").read_text()
    with pytest.raises(ValueError, match="not a notebook, a folder or a zip"):
        discover([tmp_path / "class" / "notes.txt"], tmp_path / "work")


@pytest.mark.parametrize(("content", "reason"), [
    (b"", "the file is empty"),
    (b'{"cells": [{"cell_type": "code", "sou', "invalid JSON, truncated or damaged"),
    (b"\x89PNG\r\n\x1a\n\x00\x00", "not text"),
    (b"[1, 2, 3]", "no list of cells"),
    (b'{"cells": [], "nbformat": 3}', "nbformat 3, not 4"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
])
def test_a_notebook_that_is_not_one_gets_its_reason(tmp_path, content, reason):
    path = tmp_path / "x.ipynb"
    path.write_bytes(content)
    assert reason in notebook_problem(path)


def test_a_damaged_notebook_gets_a_row_and_the_batch_goes_on(hw1, tmp_path):
    folder = lay_out(tmp_path / "class", {"good.ipynb": (hw1 / "autograder" / "hw1_perceptron.ipynb").read_bytes(),
                                          "empty.ipynb": b"", "garbage.ipynb": b"PK\x03\x04 not json"})
    out = tmp_path / "scores.csv"
    done = subprocess.run([*TOOL, "grade", str(hw1 / "autograder" / "hw1_perceptron-autograder.zip"), str(folder),
                           "--out", str(out)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    rows = {r["student_id"]: r for r in csv.DictReader(out.open())}
    assert (rows["good"]["total"], rows["good"]["status"], rows["good"]["late"]) == ("15", "ok", "")
    assert (rows["empty"]["total"], rows["empty"]["status"], rows["empty"]["reason"]) == (
        "0", "not graded", "the file is empty")
    assert rows["garbage"]["status"] == "not graded" and "invalid JSON" in rows["garbage"]["reason"]
    assert "3 student(s): 1 ok, 2 not graded" in done.stdout


# ----------------------------------------------------------------------------------- safe zips
def _zip_with(tmp_path: Path, name: str, data: bytes = b"x", *, symlink: bool = False) -> Path:
    path = tmp_path / "in.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        info = zipfile.ZipInfo(name)
        if symlink:
            info.external_attr = (stat.S_IFLNK | 0o777) << 16
        zf.writestr(info, data)
    return path


@pytest.mark.parametrize(("name", "symlink", "message"), [
    ("../../escaped.ipynb", False, "outside the folder"),
    ("/tmp/absolute.ipynb", False, "outside the folder"),
    ("a/../../b.ipynb", False, "outside the folder"),
    ("C:/windows.ipynb", False, "outside the folder"),
    ("link.ipynb", True, "symbolic link"),
])
def test_zip_entries_that_would_leave_the_folder_are_refused(tmp_path, name, symlink, message):
    archive = _zip_with(tmp_path, name, b"/etc/passwd" if symlink else b"{}", symlink=symlink)
    with pytest.raises(UnsafeArchive, match=message):
        safe_extract(archive, tmp_path / "out")
    assert not (tmp_path / "escaped.ipynb").exists() and not Path("/tmp/absolute.ipynb").exists()


def test_zip_bombs_are_cut_at_the_limits(tmp_path):
    # 200 MiB of zeros compress to about 200 KiB; the limit of one entry is 64 MiB.
    bomb = tmp_path / "bomb.zip"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        with zf.open("s1/hw1_perceptron.ipynb", "w", force_zip64=True) as fh:
            for _ in range(200):
                fh.write(bytes(1 << 20))
        zf.writestr("s2/hw1_perceptron.ipynb", nbformat.writes(nbformat.v4.new_notebook()))
    assert bomb.stat().st_size < 1 << 20
    skipped = safe_extract(bomb, tmp_path / "out")
    big = tmp_path / "out" / "s1" / "hw1_perceptron.ipynb"
    assert big.stat().st_size == 0 and "more than the limit" in skipped[big]
    assert (tmp_path / "out" / "s2" / "hw1_perceptron.ipynb").stat().st_size > 0
    # Given to the grader, a folder per student: the first student's row says why, the other is graded.
    found = {s.student_id: s for s in discover([bomb], tmp_path / "work", "hw1_perceptron")}
    assert "more than the limit" in found["s1"].problem and found["s2"].problem == ""


def test_an_archive_past_its_budget_of_entries_or_bytes_is_cut(tmp_path, monkeypatch):
    archive = tmp_path / "many.zip"
    archive.write_bytes(zip_bytes({f"s{i}/n.ipynb": b"x" * 80 for i in range(5)}))
    monkeypatch.setattr(submissions, "MAX_ENTRIES", 3)
    with pytest.raises(UnsafeArchive, match="more than 3 entries"):
        safe_extract(archive, tmp_path / "a")
    monkeypatch.setattr(submissions, "MAX_ENTRIES", 100)
    monkeypatch.setattr(submissions, "MAX_TOTAL", 200)  # bytes: two entries fit, the third does not
    skipped = safe_extract(archive, tmp_path / "b")
    assert sorted(p.parent.name for p in skipped) == ["s2", "s3", "s4"]
    assert all("more than the limit of" in r or "larger than the limit" in r for r in skipped.values())


def test_zips_nested_too_deep_are_not_opened(tmp_path):
    data = nbformat.writes(nbformat.v4.new_notebook()).encode()
    inner = zip_bytes({"deep.ipynb": data})
    for _ in range(5):
        inner = zip_bytes({"level.zip": inner})
    archive = tmp_path / "nest.zip"
    archive.write_bytes(inner)
    skipped = safe_extract(archive, tmp_path / "out")
    assert any("nested more than" in reason for reason in skipped.values())
    assert not list((tmp_path / "out").rglob("deep.ipynb"))


# ----------------------------------------------------------------------------- table and times
def test_platform_times_parse_with_their_offsets():
    assert submissions.parse_time("2026-12-01 20:15:02.123456789 -08:00") == datetime(
        2026, 12, 1, 20, 15, 2, 123456, tzinfo=timezone(timedelta(hours=-8)))
    assert submissions.parse_time("2026-12-01 12:00:00.000000 UTC") == datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert submissions.parse_time("yesterday") is None and submissions.parse_time(None) is None
    due = datetime(2026, 12, 2, 7, 59, tzinfo=UTC)  # 23:59 at -08:00
    assert submissions.is_late(submissions.parse_time("2026-12-01 23:58:00 -08:00"), due) == "no"
    assert submissions.is_late(submissions.parse_time("2026-12-02 00:00:00 -08:00"), due) == "yes"
    # A due date without an offset is this machine's local time.
    local_due = datetime(2026, 12, 1, 23, 59)
    just_after = (local_due.astimezone() + timedelta(minutes=1)).astimezone(UTC)
    assert submissions.is_late(just_after, local_due) == "yes"
    assert submissions.is_late(just_after - timedelta(minutes=2), local_due) == "no"


def test_roster_needs_an_id_column_and_joins_by_id_or_email(tmp_path):
    bad = tmp_path / "bad.csv"
    bad.write_text("Name,Section\nAlice,1\n")
    with pytest.raises(ValueError, match="no column of student ids"):
        report.read_roster(bad)
    good = tmp_path / "roster.csv"
    good.write_text("Username,First Name,Last Name,Email\nalice,Alice,Martin,alice@example.edu\nbob,Bob,Li,\n")
    roster = report.read_roster(good)
    assert {k: roster[0][k] for k in ("student_id", "name", "email")} == {
        "student_id": "alice", "name": "Alice Martin", "email": "alice@example.edu"}
    subs = [Submission("A001", None, email="Alice@example.edu", problem="no notebook", platform="gradescope"),
            Submission("zed", None, problem="no notebook")]
    rows = report.rows(subs, {}, {"q1": 3.0}, {}, roster=roster)
    assert [(r["student_id"], r["status"], r["reason"]) for r in rows] == [
        ("alice", "not graded", "no notebook"), ("bob", "missing", "no submission"),
        ("zed", "not graded", "no notebook; not on the roster")]


def test_written_answers_are_the_cells_between_otters_markers(hw1, tmp_path):
    nb = nbformat.read(hw1 / "student" / "hw1_perceptron.ipynb", as_version=4)
    (answer,) = [c for c in nb.cells if c.cell_type == "markdown" and "otter_answer_cell" in c.metadata.get("tags", [])]
    answer.source = WRITTEN
    nb.cells.insert(nb.cells.index(answer) + 1, nbformat.v4.new_code_cell("print('a cell the student added')"))
    path = tmp_path / "s.ipynb"
    nbformat.write(nb, path)
    ((question, prompt, cells),) = report.written_answers(path)
    assert question == "q6" and prompt.startswith("**Question 6")
    assert cells == [{"type": "markdown", "source": WRITTEN}, {"type": "code", "source": "print('a cell the student added')"}]
