"""Grade a class as Gradescope exports it: a zip of ``assignment_N_export/`` for ``--count`` students.

Builds homework 1, writes an export (``submission_metadata.yml`` with names, ids, emails and
times; per student the answer key, the empty student notebook, a planted bug or a truncated
file; every seventh handed in after the due date; one student on the roster only), zips it, and grades the
zip with ``perceptron-homework grade --due --roster --written --jobs N``. Prints the wall time and
checks every row: the score, the late flag, the status.

Usage: ``.venv/bin/python benchmarks/homework_export.py [--count 150] [--jobs 2]``
"""

from __future__ import annotations

import argparse
import csv
import io
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import nbformat

from perceptron_homework.build import build
from perceptron_homework.cli import main as cli

ROOT = Path(__file__).resolve().parent.parent
ASSIGNMENT = "hw1_perceptron"
UPDATE = "return w + eta * y * np.asarray(x, dtype=float), b + eta * y"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=150)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="homework-export-") as tmp:
        out = build(ROOT / "notebooks" / "homework" / f"{ASSIGNMENT}.ipynb", Path(tmp, "build"), run_tests=False)
        key = (out / "autograder" / f"{ASSIGNMENT}.ipynb").read_text()
        student = (out / "student" / f"{ASSIGNMENT}.ipynb").read_text()
        bug = nbformat.reads(key, as_version=4)
        (cell,) = [c for c in bug.cells if c.cell_type == "code" and UPDATE in c.source]
        cell.source = cell.source.replace(UPDATE, "return w + eta * y * np.asarray(x, dtype=float), b")
        kinds = [("key", key, 15, "ok"), ("empty", student, 0, "ok"), ("bias_bug", nbformat.writes(bug), 10, "ok"),
                 ("key", key, 15, "ok"), ("truncated", key[:5000], 0, "not graded")]
        buf, meta, roster, expected = io.BytesIO(), [], ["SID,Name,Email"], {}
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
            for i in range(args.count):
                _kind, text, score, status = kinds[i % len(kinds)]
                sid, day = f"S{i:04d}", 1 if i % 7 else 2  # every 7th hands in the day after the due date
                zf.writestr(f"assignment_9_export/submission_{1000 + i}/{ASSIGNMENT}.ipynb", text)
                meta.append(f"submission_{1000 + i}:\n  :submitters:\n  - :name: Student {i}\n    :sid: '{sid}'\n"
                            f"    :email: s{i}@example.edu\n  :created_at: 2026-12-0{day} 12:00:00.0 -08:00\n")
                roster.append(f"{sid},Student {i},s{i}@example.edu")
                expected[sid] = (f"{score:g}", status, "yes" if day == 2 else "no")
            zf.writestr("assignment_9_export/submission_metadata.yml", "".join(meta))
        roster.append("S9999,Absent Student,absent@example.edu")
        expected["S9999"] = ("0", "missing", "")
        export = Path(tmp, "assignment_9_export.zip")
        export.write_bytes(buf.getvalue())
        Path(tmp, "roster.csv").write_text("\n".join(roster) + "\n")
        scores = Path(tmp, "scores.csv")
        cmd = ["grade", str(out / "autograder" / f"{ASSIGNMENT}-autograder.zip"), str(export), "--out", str(scores),
               "--due", "2026-12-01T23:59-08:00", "--roster", str(Path(tmp, "roster.csv")),
               "--written", str(Path(tmp, "written")), "--jobs", str(args.jobs)]
        start = time.perf_counter()
        code = cli(cmd)
        seconds = time.perf_counter() - start
        with open(scores, newline="") as fh:
            rows = {r["student_id"]: (r["total"], r["status"], r["late"]) for r in csv.DictReader(fh)}
        pages = len(list(Path(tmp, "written").glob("*.html")))
    wrong = {sid: (rows.get(sid), want) for sid, want in expected.items() if rows.get(sid) != want}
    print(f"graded a Gradescope export of {args.count} students of {ASSIGNMENT} (+1 missing) with --jobs {args.jobs} "
          f"in {seconds:.1f} s: {60 * args.count / seconds:.1f} students per minute; {pages} written-answer pages; "
          f"wrong rows: {len(wrong)}")
    for sid, (got, want) in list(wrong.items())[:10]:
        print("  wrong:", sid, got, want)
    return 1 if code or wrong else 0


if __name__ == "__main__":
    sys.exit(main())
