"""Grade submitted notebooks: run each in the sandbox, judge its outputs here, write a table.

The grading process never runs a student's code. For each submission it computes the tests'
inputs from the autograder's secret, runs the notebook and the tests' calls in a sandboxed
kernel (:mod:`.sandbox`, :mod:`.runner`) that hands back only plain data, and applies every
test's verdict (:mod:`.checks`) to that data with its own numpy and reference implementation.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from . import checks, sandbox

CONFIG = "perceptron_homework.json"  # written into the autograder zip by the build
MAX_OUTPUT = 64 * 1024**2
MAX_NOTEBOOK = 32 * 1024**2


@dataclass(frozen=True)
class Assignment:
    """What grading needs from an autograder zip: the assignment, its secret, its tests' points."""

    name: str
    secret: str
    tests: dict[str, list[dict]]  # question -> [{"name", "points", "hidden"}], in order

    @property
    def points(self) -> dict[str, float]:
        return {q: sum(t["points"] for t in cases) for q, cases in self.tests.items()}

    def to_json(self) -> str:
        return json.dumps({"assignment": self.name, "secret": self.secret, "tests": self.tests}, indent=1) + "\n"

    @classmethod
    def from_json(cls, text: str) -> Assignment:
        data = json.loads(text)
        return cls(data["assignment"], data["secret"], data["tests"])

    @classmethod
    def from_zip(cls, autograder_zip: Path | str) -> Assignment:
        with zipfile.ZipFile(autograder_zip) as zf:
            if CONFIG not in zf.namelist():
                raise ValueError(f"{autograder_zip}: no {CONFIG}; rebuild the homework with `make homework`")
            return cls.from_json(zf.read(CONFIG).decode())


_plans: dict[tuple[str, str], dict] = {}
_plans_lock = threading.Lock()


def plan(assignment: Assignment) -> dict:
    """The tests' calls and verdicts, computed once per assignment and secret."""
    key = (assignment.name, assignment.secret)
    with _plans_lock:
        if key not in _plans:
            _plans[key] = checks.plan(assignment.name, assignment.secret)
            missing = {t["name"] for cases in assignment.tests.values() for t in cases} - set(_plans[key])
            if missing:
                raise ValueError(f"the autograder has tests this version does not know: {sorted(missing)}")
        return _plans[key]


def grade_one(submission: Path, assignment: Assignment, *, cell_seconds: float = 60, test_seconds: float = 30,
              timeout: float = 900, unsafe_no_sandbox: bool = False, isolation: str | None = None) -> dict:
    """Grade one notebook; return its status and the score of every question and test.

    ``isolation`` is :data:`.sandbox.BWRAP` or :data:`.sandbox.USER` (default: what
    :func:`.sandbox.check` finds); ignored with ``unsafe_no_sandbox``.
    """
    tests = plan(assignment)
    if not unsafe_no_sandbox and isolation is None:
        isolation = sandbox.check()
    alone = not unsafe_no_sandbox and isolation == sandbox.USER
    with tempfile.TemporaryDirectory(prefix="homework-job-") as tmp:
        job = Path(tmp)
        # Without namespaces the job's user must reach its scratch folder and nothing else here:
        # the folder is passable (0711), not listable; the files are root's alone.
        os.chmod(job, 0o711 if alone else 0o755)
        data = Path(submission).read_bytes()
        if len(data) > MAX_NOTEBOOK:
            return _scored(assignment, None, "error: the notebook is larger than 32 MiB")
        (job / "submission.ipynb").write_bytes(data)
        out = job / "out.json"
        out.touch()
        os.chmod(out, 0o600)  # the kernel opens it before it leaves root
        uid = sandbox.job_uid()
        inside = Path("/grading") if not (unsafe_no_sandbox or alone) else job
        spec = {
            "notebook": str(inside / "submission.ipynb"),
            "cell_seconds": cell_seconds,
            "test_seconds": test_seconds,
            "calls": {name: [c.to_plain() for c in calls] for name, (calls, _) in tests.items()},
            "confine": None if unsafe_no_sandbox else {
                "uid": uid, "limits": sandbox.default_limits(timeout), "no_network": alone,
                "writable": [] if alone else ["/tmp", "/scratch"]},
        }
        (job / "spec.json").write_text(json.dumps(spec, allow_nan=False))
        for name in ("spec.json", "submission.ipynb"):
            os.chmod(job / name, 0o600 if alone else 0o644)
        args = [str(inside / "spec.json"), str(inside / "out.json")]
        if unsafe_no_sandbox:
            cmd = [sys.executable, "-I", "-m", "perceptron_homework.runner", *args]
            env = {**os.environ, **sandbox.kernel_environment(str(job), str(job))}
            cwd = job
        elif alone:
            scratch = job / "scratch"
            scratch.mkdir(mode=0o700)
            os.chown(scratch, uid, uid)
            cmd = [sys.executable, "-I", "-m", "perceptron_homework.runner", *args]
            env = sandbox.kernel_environment(str(scratch), str(scratch))
            cwd = scratch
        else:
            cmd, env, cwd = sandbox.command(job, args), sandbox.kernel_environment("/scratch", "/tmp"), job
        group = None if unsafe_no_sandbox else sandbox.Cgroup.create()
        try:
            status = _run(cmd, env, timeout, cwd=cwd, group=group)
        finally:
            if group is not None:
                group.remove()
            if alone:
                sandbox.end_user(uid)
        if status.startswith("error") and 0 < out.stat().st_size < 10_000:
            try:
                status += "; " + json.loads(out.read_text())["kernel_error"].strip().splitlines()[-1][:300]
            except (ValueError, KeyError, TypeError, AttributeError, IndexError):
                pass
        if status != "ok":
            return _scored(assignment, None, status)
        if out.stat().st_size > MAX_OUTPUT:
            return _scored(assignment, None, "error: the kernel's output is too large")
        try:
            outputs = json.loads(out.read_text())
            raw = outputs["tests"]
            cells = outputs.get("cells", [])
            assert isinstance(raw, dict) and isinstance(cells, list)
        except (ValueError, KeyError, TypeError, AssertionError, RecursionError):
            return _scored(assignment, None, "error: the kernel's output is unreadable")
    verdicts = {name: checks.judge(calls, verdict, raw.get(name), test_seconds)
                for name, (calls, verdict) in tests.items()}
    report = _scored(assignment, verdicts, "ok")
    report["cells"] = [{"cell": c.get("cell"), "error": str(c.get("error"))[:500]} for c in cells[:100]
                       if isinstance(c, dict)]
    return report


def _run(cmd: list[str], env: dict | None, timeout: float, cwd: Path, group: sandbox.Cgroup | None = None) -> str:
    if group is not None:
        cmd = group.wrap(cmd)
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=env, cwd=cwd, start_new_session=True)
    try:
        _, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return f"timed out: grading took longer than {timeout:g} s"
    if proc.returncode != 0:
        last = (err.decode(errors="replace").strip().splitlines() or [f"exit status {proc.returncode}"])[-1]
        return f"error: the notebook's process ended before grading finished ({last[:300]})"
    return "ok"


def _scored(assignment: Assignment, verdicts: dict | None, status: str) -> dict:
    report = {"status": status, "questions": {}, "tests": {}, "failures": {}}
    for question, cases in assignment.tests.items():
        report["tests"][question] = {}
        for case in cases:
            passed, message = verdicts[case["name"]] if verdicts else (False, status)
            report["tests"][question][case["name"]] = passed
            if not passed:
                report["failures"][case["name"]] = message
        report["questions"][question] = sum(c["points"] for c in cases if report["tests"][question][c["name"]])
    return report


def grade(submissions: list[Path], autograder_zip: Path, *, jobs: int = 1, cell_seconds: float = 60,
          test_seconds: float = 30, timeout: float = 900, unsafe_no_sandbox: bool = False,
          secret: str | None = None) -> dict[str, dict]:
    """Grade every submission, ``jobs`` at a time; refuse if no isolation is possible.

    Without namespaces (:data:`.sandbox.USER`), a submission's user could read what every user of
    the machine can: grading refuses unless the autograder zip and the submissions are not
    readable by all (:func:`.sandbox.exposed`).
    """
    assignment = Assignment.from_zip(autograder_zip)
    if secret is not None:
        assignment = Assignment(assignment.name, secret, assignment.tests)
    if unsafe_no_sandbox:
        print("WARNING: --unsafe-no-sandbox: every submission runs UNPROTECTED, with your rights, "
              "able to read, change and delete your files and to use the network", file=sys.stderr)
        isolation = None
    else:
        isolation = sandbox.check()
        if isolation == sandbox.USER:
            open_to_all = sandbox.exposed([Path(autograder_zip), *map(Path, submissions)])
            if open_to_all:
                raise sandbox.SandboxUnavailable(
                    f"bubblewrap cannot start here, so each submission runs as a user of its own, who can read "
                    f"every file readable by all users; {open_to_all[0]} is one (with {len(open_to_all) - 1} "
                    f"more): make the folders of the autograder zip and of the submissions yours alone "
                    f"(chmod 700) and grade again")
            print("note: bubblewrap cannot start here; each submission runs as a user id of its own without "
                  "network (no namespaces: see book/homework.md)", file=sys.stderr)
    plan(assignment)

    def one(submission: Path) -> dict:
        return grade_one(submission, assignment, cell_seconds=cell_seconds, test_seconds=test_seconds,
                         timeout=timeout, unsafe_no_sandbox=unsafe_no_sandbox, isolation=isolation)

    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        reports = list(pool.map(one, submissions))
    return {str(s): r for s, r in zip(submissions, reports)}


def natural_key(text: str) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", text)]


