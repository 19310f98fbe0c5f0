"""The gradebook an LMS imports: Canvas's CSV, points graded by hand, the late policy, rosters, regrade.

The Canvas file is read back as Canvas reads an import (the csv module): its five student columns in
order, the assignment's column, the ``Points Possible`` row, then one row per student. Only the
regrade test grades a notebook (one, in the sandbox); the others build the table from reports.
"""

from __future__ import annotations

import csv
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from perceptron_homework import report
from perceptron_homework.report import LatePolicy
from perceptron_homework.submissions import Submission

TOOL = [sys.executable, "-m", "perceptron_homework"]
POINTS = {"q1": 3.0, "q2": 3.0, "q3": 3.0, "q4": 3.0, "q5": 3.0}
MANUAL = {"q6": 2.0}
DUE = datetime(2026, 12, 2, 7, 59, tzinfo=UTC)
CANVAS_ROSTER = (
    "Student,ID,SIS User ID,SIS Login ID,Section,Homework 1 (881)\n"
    "    Points Possible,,,,,17.00\n"
    '"Martin, Alice",1001,A001,alice,PHYS 101 (01),\n'
    '"Li, Bob",1002,A002,bob,PHYS 101 (01),\n'
    '"Diaz, Carol",1003,A003,carol,PHYS 101 (02),\n'
    '"Ode, Frank",1006,A006,frank,PHYS 101 (02),\n')
GRADESCOPE_ROSTER = ("First Name,Last Name,SID,Email,Role,Sections\n"
                     "Alice,Martin,A001,alice@example.edu,Student,01\n")


def full(questions=POINTS):
    return {"status": "ok", "questions": dict(questions)}


def canvas_rows(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


@pytest.fixture
def table(tmp_path):
    """Alice on time, the group of Bob and Carol 30 s late, Frank on the roster without a hand-in."""
    roster = tmp_path / "roster.csv"
    roster.write_text(CANVAS_ROSTER)
    nb = tmp_path / "a.ipynb"
    subs = [Submission("A001", nb, name="Alice Martin", submitted_at=DUE - timedelta(hours=1), platform="gradescope"),
            Submission("A002", tmp_path / "g.ipynb", submitted_at=DUE + timedelta(seconds=30), platform="gradescope"),
            Submission("A003", tmp_path / "g.ipynb", submitted_at=DUE + timedelta(seconds=30), platform="gradescope")]
    reports = {str(nb): full(), str(tmp_path / "g.ipynb"): full({"q1": 3, "q2": 3, "q3": 0, "q4": 0, "q5": 0})}
    return {"submissions": subs, "reports": reports, "roster": report.read_roster(roster)}


def test_canvas_gradebook_has_canvas_columns_points_possible_and_totals_with_hand_points(table, tmp_path):
    rows = report.rows(table["submissions"], table["reports"], POINTS, MANUAL, roster=table["roster"],
                       policy=LatePolicy(due=DUE, grace=timedelta(minutes=5)), hand={"a001": {"q6": 1.5}})
    out = tmp_path / "canvas.csv"
    report.write_canvas(rows, out, "Homework 1 (881)")
    header, possible, *students = canvas_rows(out)
    assert header == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Homework 1 (881)"]
    assert possible[0].strip() == "Points Possible" and possible[1:] == ["", "", "", "", "17"]
    assert students == [["Martin, Alice", "1001", "A001", "alice", "PHYS 101 (01)", "16.5"],  # 15 + 1.5 by hand
                        ["Li, Bob", "1002", "A002", "bob", "PHYS 101 (01)", "6"],  # 30 s late: within the grace
                        ["Diaz, Carol", "1003", "A003", "carol", "PHYS 101 (02)", "6"],
                        ["Ode, Frank", "1006", "A006", "frank", "PHYS 101 (02)", "0"]]
    by_id = {r["student_id"]: r for r in rows}
    assert (by_id["A002"]["late"], by_id["A001"]["q6_by_hand"], by_id["A001"]["autograded"]) == ("no", "1.5", "15")


def test_late_policy_grace_penalty_per_day_cap_and_extensions(tmp_path):
    policy = LatePolicy(due=DUE, grace=timedelta(minutes=5), penalty=10, max_days=3,
                        extensions={"a003": DUE + timedelta(days=2)})
    assert policy.judge(["A002"], DUE + timedelta(seconds=30))[1:] == ("no", "", 0.0)
    assert policy.judge(["A002"], DUE + timedelta(minutes=6))[1:] == ("yes", "0.10", pytest.approx(0.1))
    assert policy.judge(["A002"], DUE + timedelta(hours=36))[1:] == ("yes", "36.00", pytest.approx(0.2))
    assert policy.judge(["A002"], DUE + timedelta(days=3, hours=1))[3] == 1.0          # past the last day
    assert policy.judge(["A003"], DUE + timedelta(hours=36))[:2] == ((DUE + timedelta(days=2)).isoformat(), "no")
    assert LatePolicy().judge(["A002"], DUE) == ("", "", "", 0.0)  # no due date: no late column
    # The penalty is points of the possible total, and the total never goes below 0.
    subs = [Submission("A002", tmp_path / "n.ipynb", submitted_at=DUE + timedelta(hours=36))]
    (row,) = report.rows(subs, {str(tmp_path / "n.ipynb"): full({"q1": 3})}, POINTS, MANUAL, policy=policy)
    assert (row["late_penalty"], row["total"]) == ("3.4", "0")  # 20% of 17 points; 3 - 3.4 < 0
    for bad, message in (({"grace": timedelta(minutes=-1)}, "grace"), ({"penalty": 150}, "percentage")):
        with pytest.raises(ValueError, match=message):
            LatePolicy(due=DUE, **bad)


def test_extensions_file_gives_due_dates_or_hours(tmp_path):
    ext = tmp_path / "ext.csv"
    ext.write_text("SID,hours,due\nA002,48,\nA003,,2026-12-10T12:00+00:00\n")
    assert report.read_extensions(ext, DUE) == {"a002": DUE + timedelta(hours=48),
                                                "a003": datetime(2026, 12, 10, 12, tzinfo=UTC)}
    ext.write_text("SID,hours\nA002,two\n")
    with pytest.raises(ValueError, match="line 2: the extension of 'A002'"):
        report.read_extensions(ext, DUE)
    ext.write_text("SID,reason\nA002,ill\n")
    with pytest.raises(ValueError, match="due, days or hours column"):
        report.read_extensions(ext, DUE)


def test_rosters_as_canvas_and_gradescope_export_them(tmp_path):
    canvas, gradescope = tmp_path / "c.csv", tmp_path / "g.csv"
    canvas.write_text(CANVAS_ROSTER)
    gradescope.write_text(GRADESCOPE_ROSTER)
    students = report.read_roster(canvas)
    assert len(students) == 4  # the Points Possible row is not a student
    assert students[0] == {"student_id": "A001", "name": "Martin, Alice", "email": "", "section": "PHYS 101 (01)",
                           "lms_id": "1001", "sis_user_id": "A001", "sis_login_id": "alice"}
    (alice,) = report.read_roster(gradescope)
    assert (alice["student_id"], alice["name"], alice["email"]) == ("A001", "Alice Martin", "alice@example.edu")
    # Without Canvas's ids the gradebook matches on the SIS User ID: the platform's student id.
    subs = [Submission("A001", None, problem="no notebook")]
    rows = report.rows(subs, {}, POINTS, MANUAL, roster=report.read_roster(gradescope))
    report.write_canvas(rows, tmp_path / "out.csv", "Homework 1")
    assert canvas_rows(tmp_path / "out.csv")[2] == ["Alice Martin", "", "A001", "", "", ""]  # not graded: blank


def test_hand_points_out_of_range_or_for_an_autograded_question_are_refused(tmp_path):
    subs = [Submission("A001", None, problem="no notebook")]
    with pytest.raises(ValueError, match="3 points for q6, which is out of 2"):
        report.rows(subs, {}, POINTS, MANUAL, hand={"a001": {"q6": 3}})
    with pytest.raises(ValueError, match="q1 is not graded by hand"):
        report.rows(subs, {}, POINTS, MANUAL, hand={"a001": {"q1": 1}})
    hand = tmp_path / "hand.csv"
    hand.write_text("SID,q6_by_hand\nA001,x\n")
    with pytest.raises(ValueError, match="q6_by_hand of 'A001' is 'x'"):
        report.read_hand(hand)


def test_gradebook_command_adds_filled_in_hand_points_to_the_totals(table, tmp_path):
    rows = report.rows(table["submissions"], table["reports"], POINTS, MANUAL, roster=table["roster"])
    scores = tmp_path / "scores.csv"
    report.write_csv(rows, scores)
    hand = tmp_path / "hand.csv"
    hand.write_text("SIS User ID,q6\nA002,2\n")
    done = subprocess.run([*TOOL, "gradebook", str(scores), "--hand", str(hand), "--canvas", str(tmp_path / "c.csv"),
                           "--assignment", "Homework 1 (881)"], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    totals = {r["student_id"]: r["total"] for r in csv.DictReader(scores.open())}
    assert totals == {"A001": "15", "A002": "8", "A003": "6", "A006": "0"}
    assert [r[-1] for r in canvas_rows(tmp_path / "c.csv")[2:]] == ["15", "8", "6", "0"]


def test_regrade_updates_one_students_row_in_place(hw1, tmp_path, table):
    zip_ = hw1 / "autograder" / "hw1_perceptron-autograder.zip"
    rows = report.rows(table["submissions"], table["reports"], POINTS, MANUAL, roster=table["roster"],
                       hand={"a002": {"q6": 2}})
    scores = tmp_path / "scores.csv"
    report.write_csv(rows, scores)
    before = scores.read_text().splitlines()
    key = hw1 / "autograder" / "hw1_perceptron.ipynb"  # the solutions: full marks
    done = subprocess.run([*TOOL, "regrade", str(zip_), str(key), "--student", "bob", "--scores", str(scores),
                           "--canvas", str(tmp_path / "c.csv"), "--assignment", "Homework 1 (881)"],
                          capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    after = scores.read_text().splitlines()
    assert len(after) == len(before) and [i for i, (a, b) in enumerate(zip(before, after)) if a != b] == [2]
    bob = next(r for r in csv.DictReader(scores.open()) if r["student_id"] == "A002")
    assert (bob["autograded"], bob["q6_by_hand"], bob["total"], bob["status"]) == ("15", "2", "17", "ok")
    assert "regraded" in bob["reason"]
    assert canvas_rows(tmp_path / "c.csv")[3][-1] == "17"
    unknown = subprocess.run([*TOOL, "regrade", str(zip_), str(key), "--student", "nobody", "--scores", str(scores),
                              "--unsafe-no-sandbox"], capture_output=True, text=True, timeout=600, check=False)
    assert unknown.returncode == 2 and "no row for student 'nobody'" in unknown.stderr
