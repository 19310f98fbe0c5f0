"""The ``perceptron-homework`` command: build the homework, grade submissions, Gradescope's entry.

    perceptron-homework build [MASTER ...] [--out _build/homework] [--secret S]
    perceptron-homework grade AUTOGRADER_ZIP SUBMISSION_OR_FOLDER ... [--out scores.csv] [--jobs N]
    perceptron-homework gradescope [--root /autograder]
    perceptron-homework check-sandbox
"""

from __future__ import annotations

import argparse
import json
import os
import sys
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
    p.add_argument("masters", nargs="*", type=Path, help="master notebooks (default: notebooks/homework/hw*.ipynb)")
    p.add_argument("--out", type=Path, default=Path("_build/homework"))
    p.add_argument("--secret", default=os.environ.get("HOMEWORK_SECRET") or None,
                   help="the secret the hidden tests' data are drawn from (default: $HOMEWORK_SECRET, or public)")
    p.add_argument("--no-run-tests", action="store_true", help="skip otter's check of the solutions")

    p = sub.add_parser("grade", help="grade submitted notebooks and write a CSV of scores")
    p.add_argument("autograder", type=Path, help="the assignment's autograder zip")
    p.add_argument("submissions", nargs="+", help="notebooks, or folders of notebooks")
    p.add_argument("--out", type=Path, default=Path("scores.csv"), help="CSV file (default scores.csv)")
    p.add_argument("--details", type=Path, help="also write every test's result to this JSON file")
    p.add_argument("--jobs", type=int, default=1, help="submissions graded at the same time")
    _limits(p)

    p = sub.add_parser("gradescope", help="grade as Gradescope's run_autograder does")
    p.add_argument("--root", type=Path, default=Path("/autograder"))
    _limits(p)

    sub.add_parser("check-sandbox", help="start an empty sandbox, or say why it cannot start")

    args = parser.parse_args(argv)
    try:
        if args.command == "build":
            from .build import build
            from .checks import PUBLIC_SECRET

            masters = args.masters or sorted(Path("notebooks/homework").glob("hw*.ipynb"))
            for master in masters:
                dest = build(master.resolve(), args.out.resolve(), secret=args.secret or PUBLIC_SECRET,
                             run_tests=not args.no_run_tests)
                print(f"built {dest}")
        elif args.command == "grade":
            from .grading import Assignment, find_submissions, grade, write_csv

            submissions = find_submissions(args.submissions)
            reports = grade(submissions, args.autograder, jobs=args.jobs, cell_seconds=args.cell_timeout,
                            test_seconds=args.test_timeout, timeout=args.timeout,
                            unsafe_no_sandbox=args.unsafe_no_sandbox)
            write_csv(reports, Assignment.from_zip(args.autograder).points, args.out)
            if args.details:
                args.details.write_text(json.dumps(reports, indent=2) + "\n")
            print(f"graded {len(reports)} submission(s): {args.out}")
        elif args.command == "gradescope":
            from .gradescope import run

            results = run(args.root, cell_seconds=args.cell_timeout, test_seconds=args.test_timeout,
                          timeout=args.timeout, unsafe_no_sandbox=args.unsafe_no_sandbox)
            print(f"score {results['score']:g}: {args.root / 'results' / 'results.json'}")
        else:
            sandbox.check()
            print("the sandbox works")
    except sandbox.SandboxUnavailable as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    return 0
