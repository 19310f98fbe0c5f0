"""Build the homework with otter-grader and grade submitted notebooks locally, without Docker.

    python tools/homework.py build [MASTER ...] [--out _build/homework]
    python tools/homework.py grade AUTOGRADER_ZIP SUBMISSION_OR_FOLDER ... [--out scores.csv]

``build`` runs ``otter assign`` on each master notebook of ``notebooks/homework/`` and writes, per
assignment, ``student/<name>.ipynb`` (solutions and hidden tests stripped) and
``autograder/<name>-autograder.zip`` under the output folder.

``grade`` grades every notebook with otter's own non-containerised grader (``otter.api``, what
``otter run`` uses) and writes one CSV row per submission. Unlike a bare ``otter run`` it cannot
hang on a submission that never returns: each submission is graded in a child process with a
wall-clock limit, and inside the kernel every cell and every test gets a time limit of its own, so
a loop that never ends costs only the points of the tests that run into it.
"""

from __future__ import annotations

import argparse
import csv
import json
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MASTERS = ROOT / "notebooks" / "homework"
SUPPORT_FILES = ("hwcheck.py",)  # files the masters' configs list in autograder_files

# Prepended to each submission before grading (a copy: the submission itself is not changed).
# It arms SIGALRM around every cell and every test case. A test case's clock pauses the cell's.
# ``call_func`` below replaces otter's method of the same name with the same body plus the time
# limit; calling the test function from this frame keeps otter's error messages pointing at the
# line of the test that failed.
PRELUDE = '''\
def _homework_time_limits(cell_seconds, test_seconds):
    import inspect, signal
    from IPython import get_ipython
    from otter.test_files import exception_test

    if not hasattr(signal, "SIGALRM"):
        return  # no SIGALRM (Windows): only the wall-clock limit of the whole submission applies
    reason = [""]

    def expire(signum, frame):
        raise TimeoutError(reason[0])

    def arm(seconds, why):
        reason[0] = why
        signal.setitimer(signal.ITIMER_REAL, seconds)

    def disarm():
        return signal.setitimer(signal.ITIMER_REAL, 0)[0]

    signal.signal(signal.SIGALRM, expire)
    cell_reason = f"the cell ran longer than {cell_seconds:g} s and was stopped"
    test_reason = f"the test ran longer than {test_seconds:g} s: does the code ever return?"
    shell = get_ipython()
    shell.events.register("pre_run_cell", lambda info: arm(cell_seconds, cell_reason))
    shell.events.register("post_run_cell", lambda result: disarm())

    def call_func(self, global_environment):
        params = inspect.signature(self.test_func).parameters
        kwargs = {p: global_environment if p == "env" else global_environment.get(p) for p in params}
        paused, why = disarm(), reason[0]
        arm(test_seconds, test_reason)
        try:
            self.test_func(**kwargs)
        finally:
            disarm()
            if paused > 0:
                arm(paused, why)

    exception_test.test_case.call_func = call_func


_homework_time_limits(__CELL__, __TEST__)
del _homework_time_limits
'''


# ---------------------------------------------------------------------------------------- build
def build(master: Path, out: Path, *, run_tests: bool = True) -> Path:
    """Run ``otter assign`` on ``master`` and install its outputs in ``out/<name>``; return that.

    With ``run_tests`` (otter's default) otter also grades the solutions against every public and
    hidden test and fails the build if one does not pass.
    """
    name = master.stem
    with tempfile.TemporaryDirectory(prefix=f"{name}-") as tmp:
        # Assign from a copy so that nothing otter writes lands in the repository.
        src = Path(tmp, "src")
        src.mkdir()
        shutil.copy(master, src / master.name)
        for support in SUPPORT_FILES:
            shutil.copy(master.parent / support, src / support)
        dist = Path(tmp, "dist")
        cmd = [sys.executable, "-m", "otter", "assign", "--no-pdfs", str(src / master.name), str(dist)]
        run = subprocess.run(cmd + ([] if run_tests else ["--no-run-tests"]), capture_output=True, text=True)
        if run.returncode != 0:
            raise RuntimeError(f"otter assign failed on {master}:\n{run.stdout}\n{run.stderr}")
        # otter stamps the zip's name with the time; a fixed name is what instructors link to.
        (zip_path,) = (dist / "autograder").glob("*.zip")
        zip_path.rename(dist / "autograder" / f"{name}-autograder.zip")
        for view in ("student", "autograder"):
            stable_cell_ids(dist / view / master.name)
        manifest = {
            "assignment": name,
            "student_notebook": f"student/{name}.ipynb",
            "autograder_zip": f"autograder/{name}-autograder.zip",
            "points": question_points(dist / "autograder" / f"{name}-autograder.zip"),
            "manual_points": manual_points(master),
        }
        (dist / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
        dest = out / name
        if dest.exists():
            shutil.rmtree(dest)
        out.mkdir(parents=True, exist_ok=True)
        shutil.move(str(dist), str(dest))
    return dest


def question_points(autograder_zip: Path) -> dict[str, float]:
    """Points of every autograded question, read from the test files in the zip."""
    return {q: sum(t["points"] for t in tests) for q, tests in autograder_tests(autograder_zip).items()}


def stable_cell_ids(notebook: Path) -> None:
    """Number the cells: otter gives the cells it adds random ids, so rebuilds would differ."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:03d}"
    nbformat.write(nb, notebook)


def manual_points(master: Path) -> dict[str, float]:
    """Points of the questions graded by hand, read from the master's question configs."""
    import nbformat
    import yaml

    found = {}
    for cell in nbformat.read(master, as_version=4).cells:
        if cell.cell_type == "raw" and cell.source.lstrip().startswith("# BEGIN QUESTION"):
            config = yaml.safe_load(cell.source.split("\n", 1)[1]) or {}
            if config.get("manual"):
                found[config["name"]] = config.get("points", 0)
    return found


def autograder_tests(autograder_zip: Path) -> dict[str, list[dict]]:
    """The test cases of every question in the zip, in order: name, points, hidden."""
    from otter.test_files.exception_test import ExceptionTestFile

    found = {}
    with zipfile.ZipFile(autograder_zip) as zf:
        for entry in sorted(n for n in zf.namelist() if re.fullmatch(r"tests/[^/]+\.py", n)):
            tf = ExceptionTestFile.from_string(zf.read(entry).decode(), path=entry)
            found[tf.name] = [
                {"case": tc.name, "name": tc.body.test_func.__name__, "points": tc.points, "hidden": tc.hidden}
                for tc in tf.test_cases
            ]
    return dict(sorted(found.items(), key=lambda kv: natural_key(kv[0])))


def natural_key(text: str) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


# ---------------------------------------------------------------------------------------- grade
def grade_one(submission: Path, autograder_zip: Path, cell_seconds: float, test_seconds: float) -> dict:
    """Grade one notebook in this process; return scores per question and per test case."""
    import nbformat
    import otter.api

    nb = nbformat.read(submission, as_version=4)
    prelude = PRELUDE.replace("__CELL__", repr(float(cell_seconds))).replace("__TEST__", repr(float(test_seconds)))
    nb.cells.insert(0, nbformat.v4.new_code_cell(prelude))
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp, submission.name)
        nbformat.write(nb, copy)
        results = otter.api.grade_submission(str(copy), str(autograder_zip), quiet=True)
    tests = autograder_tests(autograder_zip)
    report = {"status": "ok", "questions": {}, "tests": {}, "failures": {}}
    if results.has_catastrophic_failure():
        report["status"] = f"error: {results.summary()}"
    for question, cases in tests.items():
        graded = results.results.get(question)
        outcome = {r.test_case.name: r for r in graded.test_case_results} if graded else {}
        passed = {c["name"]: c["case"] in outcome and outcome[c["case"]].passed for c in cases}
        report["tests"][question] = passed
        report["questions"][question] = sum(c["points"] for c in cases if passed[c["name"]])
        # Why each failed test failed (the last lines of otter's message), for the instructor.
        for c in cases:
            if not passed[c["name"]]:
                message = outcome[c["case"]].message if c["case"] in outcome else "not run"
                report["failures"][c["name"]] = "\n".join(message.strip().splitlines()[-3:])
    return report


def grade(
    submissions: list[Path],
    autograder_zip: Path,
    *,
    jobs: int = 1,
    cell_seconds: float = 60,
    test_seconds: float = 30,
    timeout: float = 900,
) -> dict[str, dict]:
    """Grade each submission in a child process (at most ``timeout`` s each, ``jobs`` at a time)."""

    def child(submission: Path) -> dict:
        with tempfile.TemporaryDirectory() as tmp:
            out = Path(tmp, "report.json")
            cmd = [sys.executable, __file__, "grade-one", str(autograder_zip), str(submission), str(out),
                   "--cell-timeout", str(cell_seconds), "--test-timeout", str(test_seconds)]
            try:
                run = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            except subprocess.TimeoutExpired:
                return failed(f"timed out: grading took longer than {timeout:g} s")
            if run.returncode != 0 or not out.exists():
                last = (run.stderr.strip().splitlines() or ["no output"])[-1]
                return failed(f"error: {last}")
            return json.loads(out.read_text())

    def failed(status: str) -> dict:
        tests = autograder_tests(autograder_zip)
        return {
            "status": status,
            "questions": {q: 0 for q in tests},
            "tests": {q: {c["name"]: False for c in cases} for q, cases in tests.items()},
            "failures": {c["name"]: status for cases in tests.values() for c in cases},
        }

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        reports = list(pool.map(child, submissions))
    return {str(s): r for s, r in zip(submissions, reports)}


def write_csv(reports: dict[str, dict], points: dict[str, float], path: Path) -> None:
    """One row per submission: its file, the score of each question, total, possible, status."""
    questions = list(points)
    with open(path, "w", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["submission", *questions, "total", "possible", "status"])
        for submission, report in reports.items():
            scores = [report["questions"].get(q, 0) for q in questions]
            writer.writerow([submission, *(f"{s:g}" for s in scores), f"{sum(scores):g}",
                             f"{sum(points.values()):g}", report["status"]])


def find_submissions(paths: list[str]) -> list[Path]:
    found = []
    for p in map(Path, paths):
        if p.is_dir():
            found.extend(sorted(p.glob("*.ipynb")))
        elif p.suffix == ".ipynb":
            found.append(p)
        else:
            raise SystemExit(f"{p}: not a notebook or a folder of notebooks")
    if not found:
        raise SystemExit("no .ipynb submissions found")
    return found


# ------------------------------------------------------------------------------------------ cli
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("build", help="generate student notebooks and autograder zips")
    p.add_argument("masters", nargs="*", type=Path, help="master notebooks (default: all hw*.ipynb)")
    p.add_argument("--out", type=Path, default=ROOT / "_build" / "homework")

    p = sub.add_parser("grade", help="grade submitted notebooks and write a CSV of scores")
    p.add_argument("autograder", type=Path, help="the assignment's autograder zip")
    p.add_argument("submissions", nargs="+", help="notebooks, or folders of notebooks")
    p.add_argument("--out", type=Path, default=Path("scores.csv"), help="CSV file (default scores.csv)")
    p.add_argument("--details", type=Path, help="also write every test's result to this JSON file")
    p.add_argument("--jobs", type=int, default=1, help="submissions graded at the same time")
    p.add_argument("--cell-timeout", type=float, default=60, help="seconds per notebook cell")
    p.add_argument("--test-timeout", type=float, default=30, help="seconds per test case")
    p.add_argument("--timeout", type=float, default=900, help="seconds per submission, in all")

    p = sub.add_parser("grade-one", help=argparse.SUPPRESS)  # the child process of `grade`
    p.add_argument("autograder", type=Path)
    p.add_argument("submission", type=Path)
    p.add_argument("report", type=Path)
    p.add_argument("--cell-timeout", type=float, required=True)
    p.add_argument("--test-timeout", type=float, required=True)

    args = parser.parse_args(argv)
    if args.command == "build":
        masters = args.masters or sorted(MASTERS.glob("hw*.ipynb"))
        for master in masters:
            print(f"built {build(master.resolve(), args.out.resolve())}")
    elif args.command == "grade":
        submissions = find_submissions(args.submissions)
        reports = grade(submissions, args.autograder, jobs=args.jobs, cell_seconds=args.cell_timeout,
                        test_seconds=args.test_timeout, timeout=args.timeout)
        write_csv(reports, question_points(args.autograder), args.out)
        if args.details:
            args.details.write_text(json.dumps(reports, indent=2) + "\n")
        print(f"graded {len(reports)} submission(s): {args.out}")
    else:
        report = grade_one(args.submission, args.autograder, args.cell_timeout, args.test_timeout)
        args.report.write_text(json.dumps(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
