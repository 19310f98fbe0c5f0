"""The ``perceptron-homework`` command: build the homework, grade submissions, Gradescope's entry.

    perceptron-homework build [MASTER ...] [--masters DIR] [--out _build/homework] (--secret-file F | --public)
    perceptron-homework grade AUTOGRADER_ZIP SUBMISSIONS ... [--out scores.csv] [--jobs N] [--due T]
                              [--roster roster.csv] [--written DIR]
    perceptron-homework gradescope [--root /autograder]
    perceptron-homework gradescope-zip AUTOGRADER_ZIP [--out ZIP] [--wheel WHL ...]
    perceptron-homework check-sandbox
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
    p.add_argument("--due", type=_due, help="due date, ISO 8601 (2026-12-01T23:59, local time unless an offset "
                                            "is given): a late column where the platform gives submission times")
    p.add_argument("--roster", type=Path, help="CSV of the class (a student_id/sid/id/username/email column): "
                                               "a row with status missing for each student without a submission")
    p.add_argument("--written", type=Path, help="folder for the written answers, one HTML page per student")
    p.add_argument("--details", type=Path, help="also write every test's result to this JSON file")
    p.add_argument("--jobs", type=int, default=1, help="submissions graded at the same time")
    _limits(p)

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

    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            from .build import build, find_masters

            secret = build_secret(args)
            masters = args.masters or find_masters(args.masters_dir)
            for master in masters:
                dest = build(master.resolve(), args.out.resolve(), secret=secret, run_tests=not args.no_run_tests)
                print(f"built {dest}")
        elif args.command == "grade":
            return _grade(args)
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
    except (sandbox.SandboxUnavailable, NoSecret) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0


def _due(text: str) -> datetime:
    try:
        return datetime.fromisoformat(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{text!r} is not an ISO 8601 date and time, e.g. 2026-12-01T23:59") from exc


def _grade(args: argparse.Namespace) -> int:
    """Find every student's notebook, grade the readable ones, write the table (and the written answers)."""
    from . import report
    from .grading import Assignment, grade
    from .submissions import discover, notebook_problem

    assignment = Assignment.from_zip(args.autograder)
    roster = report.read_roster(args.roster) if args.roster else None
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
        table = report.rows(submissions, reports, assignment.points, manual, due=args.due, roster=roster,
                            written=pages)
        report.write_csv(table, args.out)
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
            "To build the public variant anyway (anyone can reproduce it), add --public")
    if secret == PUBLIC_SECRET:
        raise NoSecret(f"the secret {PUBLIC_SECRET!r} is the public variant's: use --public for it")
    return secret
