"""The ``perceptron-homework`` command: build the homework, grade submissions, Gradescope's entry.

    perceptron-homework build [MASTER ...] [--masters DIR] [--out _build/homework] (--secret-file F | --public)
    perceptron-homework grade AUTOGRADER_ZIP SUBMISSIONS ... [--out scores.csv] [--jobs N] [--roster roster.csv]
                              [--written DIR] [--hand hand.csv] [--canvas gradebook.csv --assignment NAME]
                              [--due T [--grace MIN] [--penalty PCT] [--max-late-days D] [--extensions ext.csv]]
    perceptron-homework regrade AUTOGRADER_ZIP NOTEBOOK --student ID --scores scores.csv [--canvas gradebook.csv]
    perceptron-homework gradebook scores.csv [--hand hand.csv] [--canvas gradebook.csv --assignment NAME]
    perceptron-homework gradescope [--root /autograder]
    perceptron-homework gradescope-zip AUTOGRADER_ZIP [--out ZIP] [--wheel WHL ...]
    perceptron-homework check-sandbox
    perceptron-homework quiz [--out _build/quiz] (--secret-file F | $HOMEWORK_SECRET_FILE | $HOMEWORK_SECRET)
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from datetime import datetime
from pathlib import Path

from . import sandbox

UNSAFE_HELP = "run submissions WITHOUT the sandbox, with your rights and network (only if you trust them all)"


def _limits(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cell-timeout", type=float, default=60, help="seconds per notebook cell")
    p.add_argument("--test-timeout", type=float, default=30, help="seconds per test")
    p.add_argument("--timeout", type=float, default=900, help="seconds per submission, in all")
    p.add_argument("--unsafe-no-sandbox", action="store_true", help=UNSAFE_HELP)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="perceptron-homework", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("build", help="generate student notebooks and autograder zips")
    p.add_argument("masters", nargs="*", type=Path, help="master notebooks (default: the --masters folder's hw*.ipynb)")
    p.add_argument("--masters", dest="masters_dir", type=Path,
                   help=f"folder (or repository) of the master notebooks (default: ${MASTERS_ENV}, else "
                        "notebooks/homework); keep private masters in a private repository")
    p.add_argument("--out", type=Path, default=Path("_build/homework"))
    p.add_argument("--secret-file", type=Path,
                   help=f"file holding the secret that picks the variant and the hidden tests' data (default: "
                        f"${SECRET_FILE_ENV}, else ${SECRET_ENV}); any characters, one trailing newline dropped")
    p.add_argument("--public", action="store_true",
                   help="build the public variant, whose hidden tests' data anyone can reproduce (no secret)")
    p.add_argument("--no-run-tests", action="store_true", help="skip otter's check of the solutions")

    p = sub.add_parser("grade", help="grade submitted notebooks and write a CSV of scores, one row per student")
    p.add_argument("autograder", type=Path, help="the assignment's autograder zip")
    p.add_argument("submissions", nargs="+",
                   help="notebooks, folders or zips: a Gradescope export, an nbgrader submitted/ or inbound/ "
                        "folder, or loose notebooks, nested in any way")
    p.add_argument("--out", type=Path, default=Path("scores.csv"), help="CSV file (default scores.csv)")
    _late(p)
    p.add_argument("--roster", type=Path, help="CSV of the class as Canvas (Student, ID, SIS User ID, SIS Login ID, "
                                               "Section) or Gradescope (First Name, Last Name, SID, Email) export it, "
                                               "or any with a student_id/sid/id/username/email column: a row with "
                                               "status missing for each student without a submission")
    p.add_argument("--written", type=Path, help="folder for the written answers, one HTML page per student")
    p.add_argument("--details", type=Path, help="also write every test's result to this JSON file")
    p.add_argument("--jobs", type=int, default=1, help="submissions graded at the same time")
    _gradebook(p)
    _limits(p)

    p = sub.add_parser("regrade", help="grade one student's notebook again and update their row of the CSV in place")
    p.add_argument("autograder", type=Path, help="the assignment's autograder zip")
    p.add_argument("notebook", type=Path, help="the student's notebook")
    p.add_argument("--student", required=True, help="the student's id (or email) in the CSV")
    p.add_argument("--scores", type=Path, required=True, help="the CSV `grade` wrote; the row is replaced in it")
    p.add_argument("--submitted-at", type=_due, help="when this notebook was handed in: the late columns are "
                                                     "judged again (with --due and the policy's options)")
    _late(p)
    _gradebook(p, hand=False)
    _limits(p)

    p = sub.add_parser("gradebook", help="add the points graded by hand to the totals of a CSV of scores and "
                                         "write Canvas's gradebook")
    p.add_argument("scores", type=Path, help="the CSV `grade` wrote (its q*_by_hand columns filled in, or --hand)")
    _gradebook(p)

    p = sub.add_parser("gradescope", help="grade as Gradescope's run_autograder does")
    p.add_argument("--root", type=Path, default=Path("/autograder"))
    _limits(p)

    p = sub.add_parser("gradescope-zip", help="make an autograder zip self-contained for Gradescope (wheel, "
                                              "setup.sh with its own venv)")
    p.add_argument("autograder", type=Path, help="the autograder zip `make homework` built")
    p.add_argument("--out", type=Path, help="write here instead of replacing the zip")
    p.add_argument("--wheel", type=Path, action="append", help="wheel(s) to carry (default: build this checkout's)")
    p.add_argument("--unsafe-no-sandbox", action="store_true",
                   help="run_autograder grades WITHOUT the sandbox: a student's code can then rewrite its own score")

    sub.add_parser("check-sandbox", help="start an empty sandbox, or say why it cannot start")

    p = sub.add_parser("quiz", help="write a private quiz of the banks' concept questions: numbers redrawn and "
                                    "options reordered by the secret, with its key (Markdown, Moodle XML, Canvas QTI)")
    p.add_argument("--out", type=Path, default=Path("_build/quiz"))
    p.add_argument("--secret-file", type=Path,
                   help=f"file holding the secret (default: ${SECRET_FILE_ENV}, else ${SECRET_ENV}), as for build")
    p.set_defaults(public=False)

    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            from .build import build, find_masters

            secret = build_secret(args)
            masters = args.masters or find_masters(args.masters_dir)
            for master in masters:
                dest = build(master.resolve(), args.out.resolve(), secret=secret, run_tests=not args.no_run_tests)
                print(f"built {dest}")
        elif args.command == "quiz":
            from .quiz import write

            if not (args.secret_file or os.environ.get(SECRET_FILE_ENV) or os.environ.get(SECRET_ENV)):
                raise NoSecret("no secret: a private quiz draws its numbers from the homework's secret; give "
                               f"--secret-file FILE (or ${SECRET_FILE_ENV}, or ${SECRET_ENV}); the public quiz is "
                               "`make banks`")
            for path in write(build_secret(args), args.out.resolve()):
                print(path)
        elif args.command == "grade":
            return _grade(args)
        elif args.command == "regrade":
            return _regrade(args)
        elif args.command == "gradebook":
            return _gradebook_command(args)
        elif args.command == "gradescope-zip":
            from .gradescope import package

            out = package(args.autograder, args.out, wheels=args.wheel, unsafe_no_sandbox=args.unsafe_no_sandbox)
            print(f"Gradescope autograder: {out}")
        elif args.command == "gradescope":
            from .gradescope import run

            results = run(args.root, cell_seconds=args.cell_timeout, test_seconds=args.test_timeout,
                          timeout=args.timeout, unsafe_no_sandbox=args.unsafe_no_sandbox)
            print(f"score {results['score']:g}: {args.root / 'results' / 'results.json'}")
        else:
            if sandbox.check() == sandbox.BWRAP:
                print(f"the sandbox works: bubblewrap {'.'.join(map(str, sandbox.bwrap_version()))}")
            else:
                print("the sandbox works: bubblewrap cannot create its namespaces here, so each submission runs "
                      "as a user id of its own (no network, limits, root's files unreadable)")
    except (sandbox.SandboxUnavailable, NoSecret, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def _due(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not an ISO 8601 date and time, e.g. 2026-12-01T23:59") from exc


def _late(p: argparse.ArgumentParser) -> None:
    p.add_argument("--due", type=_due, help="due date, ISO 8601 (2026-12-01T23:59, local time unless an offset "
                                            "is given): late columns where the platform gives submission times")
    p.add_argument("--grace", type=float, default=0, metavar="MINUTES",
                   help="minutes after the due date that still count as on time (default 0)")
    p.add_argument("--penalty", type=float, default=0, metavar="PERCENT",
                   help="percent of the possible points a late hand-in loses per day or part of a day (default 0)")
    p.add_argument("--max-late-days", type=float, metavar="DAYS", help="a hand-in later than this gets no points")
    p.add_argument("--extensions", type=Path, help="CSV of per-student due dates: an id column and due (ISO 8601) "
                                                   "or days/hours added to --due")


def _policy(args: argparse.Namespace):
    from datetime import timedelta

    from .report import LatePolicy, read_extensions

    extensions = read_extensions(args.extensions, args.due) if args.extensions else {}
    return LatePolicy(due=args.due, grace=timedelta(minutes=args.grace), penalty=args.penalty,
                      max_days=args.max_late_days, extensions=extensions)


def _gradebook(p: argparse.ArgumentParser, hand: bool = True) -> None:
    if hand:
        p.add_argument("--hand", type=Path, help="CSV of the points graded by hand: an id column and one column per "
                                                 "question (q6); they count in the total")
    p.add_argument("--canvas", type=Path, help="also write Canvas's gradebook import (Student, ID, SIS User ID, "
                                               "SIS Login ID, Section, the assignment) to this CSV")
    p.add_argument("--assignment", help="the Canvas assignment column, as Canvas's export names it "
                                        "('Homework 1 (12345)'; default: the assignment's name)")


def _regrade(args: argparse.Namespace) -> int:
    """Grade one notebook, replace that student's row in the CSV (hand-graded points kept), rewrite it in place."""
    from . import report
    from .grading import Assignment, grade
    from .submissions import notebook_problem

    assignment = Assignment.from_zip(args.autograder)
    table = report.read_csv(args.scores)
    if args.submitted_at is not None and args.due is None:
        raise ValueError("--submitted-at needs --due (and the late policy's options) to judge lateness again")
    if not args.unsafe_no_sandbox:
        sandbox.check()
    notebook = args.notebook.resolve()
    problem = notebook_problem(notebook) if notebook.is_file() else f"{args.notebook}: no such file"
    result = None
    if not problem:
        reports = grade([notebook], args.autograder, jobs=1, cell_seconds=args.cell_timeout,
                        test_seconds=args.test_timeout, timeout=args.timeout, unsafe_no_sandbox=args.unsafe_no_sandbox)
        result = reports.get(str(notebook))
    policy = _policy(args) if args.submitted_at is not None else None
    row = report.regrade_row(table, args.student, result, assignment.points, submission=str(args.notebook),
                             problem=problem, submitted_at=args.submitted_at, policy=policy)
    report.write_csv(table, args.scores)
    if args.canvas:
        report.write_canvas(table, args.canvas, args.assignment or assignment.name)
    print(f"{row['student_id']}: {row['total']}/{row['possible']} ({row['status']}): {args.scores} updated")
    return 0


def _gradebook_command(args: argparse.Namespace) -> int:
    from . import report

    table = report.read_csv(args.scores)
    if args.hand:
        hand = report.read_hand(args.hand)
        for row in table:
            keys = [row.get(c, "") for c in ("student_id", "email", *report.LMS_COLUMNS[1:])]
            for question, given in report._hand_for(hand, keys).items():
                column = f"{question}_by_hand"
                if column not in row:
                    raise ValueError(f"{question} is not graded by hand in {args.scores}")
                row[column] = f"{given:g}"
    for row in table:
        report.total_row(row)
    report.write_csv(table, args.scores)
    if args.canvas:
        report.write_canvas(table, args.canvas, args.assignment or args.scores.stem)
    print(f"{len(table)} student(s): totals with the points graded by hand in {args.scores}"
          + (f"; Canvas gradebook {args.canvas}" if args.canvas else ""))
    return 0


def _grade(args: argparse.Namespace) -> int:
    """Find every student's notebook, grade the readable ones, write the table (and the written answers)."""
    from . import report
    from .grading import Assignment, grade
    from .submissions import discover, notebook_problem

    assignment = Assignment.from_zip(args.autograder)
    roster = report.read_roster(args.roster) if args.roster else None
    policy = _policy(args)
    hand = report.read_hand(args.hand) if args.hand else None
    if not args.unsafe_no_sandbox:
        sandbox.check()  # before anything: no table at all rather than one graded unprotected
    with tempfile.TemporaryDirectory(prefix="homework-submissions-") as tmp:
        try:
            submissions = discover(args.submissions, Path(tmp), assignment.name)
        except ValueError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        if not submissions:
            print("error: no submissions found (no .ipynb notebook, Gradescope export or nbgrader folder)",
                  file=sys.stderr)
            return 2
        for sub in submissions:
            if sub.notebook is not None and not sub.problem:
                sub.problem = notebook_problem(sub.notebook)
        gradable = list(dict.fromkeys(s.notebook for s in submissions if s.notebook is not None and not s.problem))
        reports = grade(gradable, args.autograder, jobs=args.jobs, cell_seconds=args.cell_timeout,
                        test_seconds=args.test_timeout, timeout=args.timeout,
                        unsafe_no_sandbox=args.unsafe_no_sandbox) if gradable else {}
        manual = report.manual_points(args.autograder)
        pages = report.export_written(submissions, args.written, manual) if args.written else None
        table = report.rows(submissions, reports, assignment.points, manual, roster=roster, written=pages,
                            policy=policy, hand=hand)
        report.write_csv(table, args.out)
        if args.canvas:
            report.write_canvas(table, args.canvas, args.assignment or assignment.name)
        if args.details:
            args.details.write_text(json.dumps(reports, indent=2) + "\n")
    statuses = [row["status"] for row in table]
    summary = ", ".join(f"{statuses.count(s)} {s}" for s in ("ok", "error", "timed out", "not graded", "missing")
                        if s in statuses)
    print(f"{len(table)} student(s): {summary}: {args.out}")
    return 0


SECRET_ENV = "HOMEWORK_SECRET"
SECRET_FILE_ENV = "HOMEWORK_SECRET_FILE"
MASTERS_ENV = "HOMEWORK_MASTERS"


class NoSecret(Exception):
    """No secret was given, and the public variant was not asked for."""


def build_secret(args: argparse.Namespace) -> str:
    """The build's secret, from a file or the environment (never printed), or the public one with --public."""
    from .checks import PUBLIC_SECRET

    # No --secret option: a command line is visible to every user of the machine (ps).
    file = args.secret_file or (Path(os.environ[SECRET_FILE_ENV]) if os.environ.get(SECRET_FILE_ENV) else None)
    if file is not None:
        try:
            secret = file.read_text(encoding="utf-8")
        except OSError as exc:
            raise NoSecret(f"cannot read the secret file {file}: {exc.strerror}") from None
        secret = secret.removesuffix("\n")
        secret = secret.removesuffix("\r")
        if not secret:
            raise NoSecret(f"the secret file {file} is empty")
    else:
        secret = os.environ.get(SECRET_ENV) or ""
    if args.public:
        if secret:
            raise NoSecret("--public builds the public variant: do not give a secret with it")
        print("warning: building the PUBLIC variant (--public): its tasks and hidden tests' data are the public "
              "master's, which anyone can reproduce; for a graded class give a secret", file=sys.stderr)
        return PUBLIC_SECRET
    if not secret:
        raise NoSecret(
            "no secret: put it in a file and give --secret-file FILE (or $HOMEWORK_SECRET_FILE), or in "
            "$HOMEWORK_SECRET; it picks the variant of every assignment and the hidden tests' data. "
            "To build the public variant anyway (anyone can reproduce it), add --public "
            "(with make: make homework PUBLIC=1)")
    if secret == PUBLIC_SECRET:
        raise NoSecret(f"the secret {PUBLIC_SECRET!r} is the public variant's: use --public for it")
    return secret
