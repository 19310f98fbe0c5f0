"""The self-grading homework: what otter generates, and how the sandboxed grader scores submissions.

The fake submissions are not stored: each one is the solutions notebook that ``otter assign``
generates from the master, with a few lines edited to plant one classic bug, or with a cell
added that attacks the grader (or the untouched student notebook, for an empty submission).
Every fake declares the tests it must fail; grading it must fail exactly those, and score
exactly the points of the others. The attacks run for real, in the sandbox, under an outer
process and memory limit of their own so that a sandbox that failed to contain them could not
take the machine down either.
"""

from __future__ import annotations

import csv
import json
import os
import re
import socket
import subprocess
import sys
import threading
import time
import uuid
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat
import numpy as np
import pytest

import perceptron
from perceptron_homework import checks, grading, plain, sandbox
from tests.support.homework_builds import PRIVATE_SECRET, homework_build

ROOT = Path(__file__).resolve().parents[2]
TOOL = [sys.executable, "-m", "perceptron_homework"]   # the CLI, as `perceptron-homework` runs it
MASTERS = ROOT / "notebooks" / "homework"
ASSIGNMENTS = checks.ASSIGNMENTS

# otter imports nbconvert, whose traitlets configuration still uses a deprecated form.
pytestmark = pytest.mark.filterwarnings("ignore:Traits should be given as instances:DeprecationWarning")

# Fakes whose code hangs are graded with short limits, so that they reach them quickly; the
# others with the tool's defaults, so that a loaded machine cannot make a slow cell look endless.
# An endless loop burns CPU until its limit, once for its cell and once for every test that calls
# it (about ten in all): 10 s and 5 s cost more CPU than the rest of the grading. 4 s and 2 s are
# still far above what the hanging fakes' other cells and tests take (under 0.5 s each, the whole
# key of homework 1 runs in 0.6 s of CPU).
HANG_LIMITS = {"cell": 4.0, "test": 2.0}
BACKSTOP = 120.0  # wall-clock seconds per submission; no fake may come near it
# The outer limits of the grading command itself: a sandbox that let a fork bomb or a memory
# hog through would still stop here (the kernel's own limits are 16 processes and 1 GiB).
OUTER = ["prlimit", "--nproc=400", f"--as={8 * 1024**3}"]


@dataclass(frozen=True)
class Fake:
    """A submission made from the solutions by ``edits`` (each ``old`` must occur exactly once)."""

    assignment: str
    name: str
    edits: tuple[tuple[str, str], ...] = ()
    fails: frozenset[str] = frozenset()  # the tests it must fail; all others must pass
    first: str = ""  # a cell put first
    last: str = ""  # a cell put last
    status: str = "ok"  # how the status starts
    hangs: bool = False  # graded with HANG_LIMITS


def fake(assignment, name, edits=(), fails=(), **kw) -> Fake:
    return Fake(assignment, name, tuple(edits), frozenset(fails), **kw)


def names_of(assignment: str, *questions: str) -> list[str]:
    return [n for n, c in checks.checks(assignment).items() if not questions or c.question in questions]


PREDICT_BODY = "    scores = np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + b\n"
UPDATE_RETURN = "return w + eta * y * np.asarray(x, dtype=float), b + eta * y"
SGN = [("np.where(scores >= 0, 1, -1)", "np.where(scores > 0, 1, -1)")]
SGN_FAILS = ["test_predict_small_example", "test_predict_points_on_the_hyperplane"]
SIGN_ERROR = [(UPDATE_RETURN, "return w - eta * y * np.asarray(x, dtype=float), b - eta * y")]
# A sign error in the update: the update, the training loop on the student's own update, the
# public XOR count (not the right one's fingerprint), the experiment's public check (the trainer
# never converges: issue 31), its counts and the conclusion drawn from them; not the loop checked
# with the grader's update in place.
SIGN_ERROR_FAILS = [*names_of("hw1_perceptron", "q2"), "test_train_small_example",
                    "test_train_matches_reference_on_random_data", "test_xor_training_stops",
                    "test_experiment_has_every_learning_rate", "test_experiment_counts_match_reference",
                    "test_experiment_conclusion"]
TRAIN_BODY = "    X, y = np.asarray(X, dtype=float), np.asarray(y)\n    w, b, mistakes"
DELEGATION_FAILS = ["test_train_small_example", "test_train_matches_reference_on_random_data",
                    "test_train_visits_points_in_order", "test_training_stops_after_max_epochs"]
NUMERIC_DOC = '    """Return the central finite differences of point_loss, one entry at a time."""\n'
BACKPROP_RETURN = "    return backprop(params, x, y)\n"
POCKET_RAISES = [("    best_w, best_b, best_errors = w.copy(), b, len(y)\n", "    raise RuntimeError('not done')\n")]

# The attacks. Each one ends by breaking the notebook's answers if it got anywhere, so that a
# full score also says the attack failed inside the sandbox (the test checks outside it too).
SABOTAGE = """
if escaped:
    for _name in [n for n, v in list(globals().items()) if callable(v) and not n.startswith('_')]:
        del globals()[_name]
"""
SIDE_EFFECTS = """
import os, pathlib, shutil, signal, socket
escaped = []
def attempt(label, action):
    try:
        action()
        escaped.append(label)
    except Exception:
        pass
attempt('write home', lambda: pathlib.Path('{home_file}').write_text('pwned'))
attempt('write instructor file', lambda: pathlib.Path('{victim}').write_text('pwned'))
attempt('write /tmp', lambda: pathlib.Path('{tmp_file}').write_text('pwned'))
attempt('delete instructor file', lambda: os.remove('{victim}'))
attempt('delete instructor folder', lambda: shutil.rmtree('{victim_dir}'))
attempt('read instructor file', lambda: pathlib.Path('{secret_file}').read_text())
attempt('list the submissions', lambda: os.listdir('{submissions}'))
attempt('network', lambda: socket.create_connection(('127.0.0.1', {port}), timeout=2).close())
attempt('edit the checks', lambda: open('{checks_file}', 'a').write('# pwned'))
attempt('edit the job spec', lambda: open('/grading/spec.json', 'w').write('{{}}'))
attempt('edit an installed package', lambda: open(np.__file__, 'a').write('# pwned'))
attempt('kill the parent', lambda: os.kill(os.getppid(), signal.SIGKILL))
attempt('kill pid 1', lambda: os.kill(1, signal.SIGKILL))
attempt('see other processes', lambda: [p for p in os.listdir('/proc') if p.isdigit() and int(p) > 3][5])
os.kill(-1, signal.SIGKILL)  # every process this user may signal (none but itself, which is spared)
""" + SABOTAGE
FORK_BOMB = """
import os, time
escaped, forks = [], 0
try:
    for _ in range(300):  # bounded: the outer limit, if the sandbox's own failed
        if os.fork() == 0:
            try:
                while True:
                    os.fork()
            except OSError:
                time.sleep(60)
            os._exit(0)
        forks += 1
except OSError:
    pass
if forks > 32:
    escaped.append(forks)
""" + SABOTAGE
MEMORY_HOG = """
escaped, hog = [], []
try:
    for _ in range(64):  # up to 16 GiB, written to, if nothing stopped it
        hog.append(b"x" * (256 << 20))
except MemoryError:
    pass
if len(hog) > 4:
    escaped.append(len(hog))
del hog
""" + SABOTAGE
FLOOD = """
import os, resource, sys, time
escaped, start = [], time.monotonic()
while time.monotonic() - start < 2:
    print("flood " * 2000)
if resource.getrusage(resource.RUSAGE_SELF).ru_maxrss > 500_000:  # KiB: the text was kept somewhere
    escaped.append("memory")
""" + SABOTAGE + """
while True:
    print("flood " * 1000)
    sys.stderr.write("flood " * 1000)
    os.write(1, b"flood " * 1000)
"""
REBIND = """
import builtins, numpy, perceptron, otter
import perceptron_homework.checks as grader_checks
numpy.array_equal = numpy.allclose = lambda *a, **k: True
numpy.isclose = lambda *a, **k: numpy.True_
builtins.AssertionError = type("Harmless", (Exception,), {{}})
perceptron.predict = lambda X, w, b: numpy.ones(len(X), dtype=int)
grader_checks.judge = lambda *a, **k: (True, "")
grader_checks.run_here = lambda *a, **k: None
otter.Notebook.check = lambda *a, **k: None
"""
# Homework 3's own answers call scipy's linprog, which itself uses np.array_equal and np.allclose:
# rebinding those breaks the student's own computations, so there the attack leaves them alone.
REBIND_HW3 = REBIND.replace("numpy.array_equal = numpy.allclose = lambda *a, **k: True\n", "").replace(
    "perceptron.predict = lambda X, w, b: numpy.ones(len(X), dtype=int)", "perceptron.radius = lambda X: 5.0")
EXIT = "import os\nos._exit(0)"


def attack_fakes(assignment: str, bug: list, bug_fails: list, rebind: str = REBIND,
                 on_the_sandbox: tuple[str, ...] = ()) -> list[Fake]:
    """The rebinding attack (a bug, and everything the verdicts could be made to trust rebound: only
    the bug counts), and the attacks on the sandbox named in ``on_the_sandbox``."""
    sandbox_attacks = {
        "attack_side_effects": fake(assignment, "attack_side_effects", last=SIDE_EFFECTS),
        "attack_fork_bomb": fake(assignment, "attack_fork_bomb", first=FORK_BOMB),
        "attack_memory_hog": fake(assignment, "attack_memory_hog", first=MEMORY_HOG),
        "attack_endless_output": fake(assignment, "attack_endless_output", last=FLOOD, hangs=True),
        "attack_os_exit": fake(assignment, "attack_os_exit", last=EXIT, fails=names_of(assignment), status="error"),
    }
    return [*(sandbox_attacks[name] for name in on_the_sandbox),
            fake(assignment, "attack_rebinding", bug, bug_fails, first=rebind)]


# The attacks on the sandbox act on the kernel's process, files, memory and output, never on an
# assignment's answers, and the sandbox around a submission is made by the same code, with the same
# limits, whatever the assignment (sandbox.command, sandbox.default_limits): they run on homework 1
# (whose fakes test_autograder_image.py grades again without namespaces), and homework 2 keeps the
# exit, whose error row test_score_table reads. The rebinding attack goes after each assignment's own
# references and checks: it runs on every assignment with attacks.
SANDBOX_ATTACKS = ("attack_side_effects", "attack_fork_bomb", "attack_memory_hog", "attack_endless_output",
                   "attack_os_exit")


FAKES = [
    *(fake(a, "full") for a in ASSIGNMENTS),
    # Three classic bugs are graded only inside the rebinding attacks below, which plant the same
    # edit and must lose exactly the same tests (issue 35: one kernel less each): sgn(0) = -1 (only
    # the tests with points on the hyperplane can tell) in homework 2's, the sign error in the update
    # in homework 1's, the pocket loop that raises in homework 3's. A rebinding that changed a verdict
    # would fail those fakes as a bug that went unnoticed would.
    # Passing the public tests without doing the work: the hidden tests catch both tricks (and the
    # public test of q4 the call to the package's prototype).
    fake("hw2_linear_classifiers", "special_cases_and_delegates",
         [(PREDICT_BODY + "    return np.where(scores >= 0, 1, -1)\n", "    return np.array([1, -1, 1])\n"),
          ("    return c_plus - c_minus,", ("    import perceptron\n    return perceptron.prototype(X, y)\n"
                                           "    return c_plus - c_minus,"))],
         ["test_predict_matches_reference_on_random_data", "test_predict_points_on_the_hyperplane",
          "test_prototype_small_example", "test_prototype_matches_reference", "test_prototype_picks_the_nearest_mean"]),
    # One function never returns (the cell that calls it too), another raises.
    fake("hw2_linear_classifiers", "never_returns_and_raises",
         [(PREDICT_BODY, "    while True:\n        pass\n" + PREDICT_BODY),
          ("    return float(np.min(functional_margins", ("    raise RuntimeError('not done')\n"
                                                          "    return float(np.min(functional_margins"))],
         [*names_of("hw2_linear_classifiers", "q1", "q3")], hangs=True),
    # The bias is never updated: everything that looks at b, but not the weights-only test.
    fake("hw1_perceptron", "bias_never_updated", [(UPDATE_RETURN, "return w + eta * y * np.asarray(x, dtype=float), b")],
         ["test_update_small_example", "test_update_bias_matches_reference", "test_train_small_example",
          "test_train_matches_reference_on_random_data", "test_xor_training_stops",
          "test_experiment_has_every_learning_rate", "test_experiment_counts_match_reference",
          "test_experiment_conclusion"]),
    # No max_epochs: an infinite loop on non-separable data, i.e. question 4, and question 3's public
    # check of max_epochs (issue 31: a loop that ignores max_epochs fails its own question).
    fake("hw1_perceptron", "infinite_loop_on_nonseparable_data",
         [("    for _ in range(max_epochs):\n        clean = True", "    while True:\n        clean = True")],
         [*names_of("hw1_perceptron", "q4"), "test_train_small_example"], hangs=True),
    # Delegating the training loop to the package's SGD trainer: the calls are noticed.
    fake("hw1_perceptron", "delegates_to_train_sgd",
         [(TRAIN_BODY, "    import perceptron\n    r = perceptron.train_sgd(X, y, loss='perceptron', eta=eta, "
                       "max_epochs=max_epochs)\n    return r.w, r.b, r.updates\n" + TRAIN_BODY)],
         DELEGATION_FAILS),
    # Hiding the call to the reference from the grader's watch: the loop's own updates are missing.
    fake("hw1_perceptron", "hides_its_call_to_train",
         [(TRAIN_BODY, "    import sys, perceptron\n    sys.setprofile(None)\n    r = perceptron.train(X, y, eta=eta, "
                       "max_epochs=max_epochs)\n    return r.w, r.b, r.mistakes\n" + TRAIN_BODY)],
         ["test_train_visits_points_in_order"]),
    # Two independent bugs of homework 4 in one submission (issue 35: its kernel is the costliest,
    # about 9 s of CPU; the multiclass questions q1-q2 and the network's q5 share no function, and
    # the exact set of failures still says that each bug was caught, and nothing else failed).
    # The later class as the rival on a tie: from V = 0 every score ties, so the update, the
    # training loop and the count all change; not the update on random real scores (no ties).
    # And a gradient check that returns backprop's gradient instead of differencing the loss.
    fake("hw4_multiclass_networks", "later_class_on_a_tie_and_gradient_check_returns_backprop",
         [("rival = tied[0]", "rival = tied[-1]"), (NUMERIC_DOC, NUMERIC_DOC + BACKPROP_RETURN)],
         [*names_of("hw4_multiclass_networks", "q2"), "test_multiclass_update_small_example",
          "test_multiclass_update_on_ties",
          "test_numeric_gradient_differentiates_point_loss", "test_gradient_gap_is_measured"]),
    *attack_fakes("hw2_linear_classifiers", SGN, SGN_FAILS, on_the_sandbox=("attack_os_exit",)),
    *attack_fakes("hw1_perceptron", SIGN_ERROR, SIGN_ERROR_FAILS, on_the_sandbox=SANDBOX_ATTACKS),
    *attack_fakes("hw3_convergence", POCKET_RAISES, names_of("hw3_convergence", "q5"), REBIND_HW3),
]


def plant(solutions: nbformat.NotebookNode, f: Fake, values: dict) -> nbformat.NotebookNode:
    nb = nbformat.from_dict(json.loads(json.dumps(solutions)))
    for old, new in f.edits:
        cells = [c for c in nb.cells if c.cell_type == "code" and old in c.source]
        assert len(cells) == 1 and cells[0].source.count(old) == 1, f"edit target not unique: {old!r}"
        cells[0].source = cells[0].source.replace(old, new)
    if f.first:
        nb.cells.insert(0, nbformat.v4.new_code_cell(f.first.format(**values)))
    if f.last:
        nb.cells.append(nbformat.v4.new_code_cell(f.last.format(**values)))
    return nb


class Listener:
    """A TCP server on 127.0.0.1 that counts the connections it gets."""

    def __init__(self):
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.sock.settimeout(0.2)
        self.port, self.count, self.stop = self.sock.getsockname()[1], 0, False
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
                self.count += 1
                conn.close()
            except OSError:
                pass

    def close(self):
        self.stop = True
        self.thread.join()
        self.sock.close()


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict[str, Path]:
    """Every assignment, built once per session by the same code as ``make homework`` (read-only)."""
    # otter's own run of the tests is skipped: grading the "full" fakes below checks the same.
    with ThreadPoolExecutor(max_workers=2) as pool:
        dirs = pool.map(lambda a: homework_build(tmp_path_factory, a), ASSIGNMENTS)
    return dict(zip(ASSIGNMENTS, dirs))


def zip_of(built, assignment) -> Path:
    return built[assignment] / "autograder" / f"{assignment}-autograder.zip"


@pytest.fixture(scope="session")
def graded(built, tmp_path_factory) -> dict:
    """Grade every fake and every empty notebook with the command-line tool, under outer limits."""
    root = tmp_path_factory.mktemp("submissions")
    instructor = tmp_path_factory.mktemp("instructor")
    victim_dir = instructor / "grades"
    victim_dir.mkdir()
    (victim_dir / "grades.csv").write_text("alice,12\n")
    (instructor / "secret.txt").write_text("the answer key\n")
    listener = Listener()
    values = {"home_file": Path.home() / f".homework-attack-{uuid.uuid4().hex}", "victim": victim_dir / "grades.csv",
              "victim_dir": victim_dir, "tmp_file": f"/tmp/homework-attack-{uuid.uuid4().hex}",
              "secret_file": instructor / "secret.txt", "submissions": root, "port": listener.port,
              "checks_file": checks.__file__}
    before = snapshot(instructor)
    folders = {}
    for f in FAKES:
        folder = folders.setdefault((f.assignment, f.hangs), root / f"{f.assignment}-{'hang' if f.hangs else 'ok'}")
        folder.mkdir(exist_ok=True)
        solutions = nbformat.read(built[f.assignment] / "autograder" / f"{f.assignment}.ipynb", as_version=4)
        nbformat.write(plant(solutions, f, values), folder / f"{f.name}.ipynb")
    for a in ASSIGNMENTS:
        (folders[a, False] / "empty.ipynb").write_bytes((built[a] / "student" / f"{a}.ipynb").read_bytes())

    def run(group):
        assignment, hangs = group
        folder = folders[group]
        limits = ["--cell-timeout", str(HANG_LIMITS["cell"]), "--test-timeout", str(HANG_LIMITS["test"])] if hangs else []
        cmd = [*OUTER, *TOOL, "grade", str(zip_of(built, assignment)), str(folder),
               "--out", str(folder / "scores.csv"), "--details", str(folder / "details.json"), "--jobs", "2",
               "--timeout", str(BACKSTOP), *limits]
        start = time.monotonic()
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=10 * BACKSTOP, check=False)
        assert done.returncode == 0, done.stderr
        return time.monotonic() - start

    try:
        # Each run grades two at a time; much of it is waiting for a time limit, so runs overlap.
        with ThreadPoolExecutor(max_workers=3) as pool:
            groups = sorted(folders, key=lambda g: not g[1])  # the hanging groups first: they wait most
            seconds = dict(zip((folders[g].name for g in groups), pool.map(run, groups)))
    finally:
        listener.close()
    results = {"reports": {}, "csv": {}, "seconds": seconds, "listener": listener.count, "values": values,
               "before": before, "after": snapshot(instructor)}
    for (assignment, _), folder in folders.items():
        for path, report in json.loads((folder / "details.json").read_text()).items():
            results["reports"][(assignment, Path(path).stem)] = report
        with open(folder / "scores.csv", newline="") as fh:
            results["csv"][folder.name] = list(csv.DictReader(fh))
    print(f"grading times (s): {seconds}")
    return results


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# ------------------------------------------------------------------------------------- the build


def master_solution_lines(master: Path) -> set[str]:
    """Code lines of the master's solutions that occur nowhere else in it."""
    inside, outside = set(), set()
    for cell in nbformat.read(master, as_version=4).cells:
        if cell.cell_type != "code":
            continue
        in_block = False
        for line in cell.source.splitlines():
            text = line.strip()
            if text in ("# BEGIN SOLUTION", "# END SOLUTION"):
                in_block = text == "# BEGIN SOLUTION"
            elif text.endswith("# SOLUTION"):
                inside.add(text.removesuffix("# SOLUTION").strip())
            elif text and not text.startswith("#"):
                (inside if in_block else outside).add(text)
    return inside - outside


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_student_notebook_has_no_solution_and_no_hidden_test(built, assignment):
    student = (built[assignment] / "student" / f"{assignment}.ipynb").read_text()
    nb = nbformat.reads(student, as_version=4)
    code = {line.strip() for cell in nb.cells for line in cell.source.splitlines()}
    solution_lines = master_solution_lines(MASTERS / f"{assignment}.ipynb")
    assert len(solution_lines) >= 5
    assert not solution_lines & code, "solution code left in the student notebook"
    assert "SOLUTION" not in student and "hidden=True" not in student and "homework_secret" not in student
    for name, c in checks.checks(assignment).items():
        # Public tests travel in the notebook's metadata for grader.check; hidden ones never.
        assert (name in student) == (not c.hidden), name


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_question_has_public_and_hidden_tests(built, assignment):
    manifest = json.loads((built[assignment] / "manifest.json").read_text())
    config = grading.Assignment.from_zip(built[assignment] / manifest["autograder_zip"])
    assert len(config.tests) >= 4, "at least four autograded questions"
    for question, cases in config.tests.items():
        assert any(c["hidden"] for c in cases) and any(not c["hidden"] for c in cases), question
        for case in cases:
            c = checks.checks(assignment)[case["name"]]
            assert (c.question, c.hidden) == (question, case["hidden"]), case["name"]
    assert manifest["points"] == config.points and config.secret == checks.PUBLIC_SECRET
    with zipfile.ZipFile(built[assignment] / manifest["autograder_zip"]) as zf:
        assert {"run_autograder", "setup.sh", grading.CONFIG, "files/homework_secret.json"} <= set(zf.namelist())


# ----------------------------------------------------------------------------------- the grading


@pytest.mark.parametrize("f", FAKES, ids=lambda f: f"{f.assignment}-{f.name}")
def test_fake_submission_loses_exactly_the_targeted_points(built, graded, f):
    report = graded["reports"][(f.assignment, f.name)]
    assert report["status"].startswith(f.status), report["status"]
    failed = {name for cases in report["tests"].values() for name, ok in cases.items() if not ok}
    assert failed == f.fails, {n: report["failures"].get(n) for n in failed ^ f.fails}
    config = grading.Assignment.from_zip(zip_of(built, f.assignment))
    for question, cases in config.tests.items():
        expected = sum(c["points"] for c in cases if c["name"] not in f.fails)
        assert report["questions"][question] == expected, question


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_empty_submission_scores_zero(graded, assignment):
    report = graded["reports"][(assignment, "empty")]
    assert report["status"] == "ok" and sum(report["questions"].values()) == 0


def test_attacks_leave_no_trace_outside_the_sandbox(graded):
    values = graded["values"]
    assert graded["listener"] == 0, "a submission reached a server on 127.0.0.1"
    assert graded["after"] == graded["before"], "the instructor's files changed"
    for leftover in (values["home_file"], values["tmp_file"]):
        assert not Path(leftover).exists(), leftover
    assert "pwned" not in Path(checks.__file__).read_text()


def test_score_table(graded):
    rows = {Path(r["submission"]).stem: r for r in graded["csv"]["hw2_linear_classifiers-ok"]}
    assert list(rows["full"]) == ["student_id", "name", "email", "section", "lms_id", "sis_user_id", "sis_login_id",
                                  "submission", "submitted_at", "due", "late", "hours_late", "late_penalty", "q1",
                                  "q2", "q3", "q4", "autograded", "total", "possible", "written", "status", "reason"]
    # attack_rebinding carries the sgn(0) = -1 bug (see FAKES)
    totals = {name: (rows[name]["total"], rows[name]["possible"], rows[name]["status"])
              for name in ("full", "empty", "attack_rebinding", "special_cases_and_delegates")}
    assert totals == {"full": ("12", "12", "ok"), "empty": ("0", "12", "ok"),
                      "attack_rebinding": ("10", "12", "ok"), "special_cases_and_delegates": ("7", "12", "ok")}
    assert rows["attack_rebinding"]["q1"] == "1"
    assert rows["attack_os_exit"]["total"] == "0" and rows["attack_os_exit"]["status"] == "error"
    assert rows["attack_os_exit"]["reason"] == "the kernel's output is unreadable"


def test_code_that_never_returns_is_stopped_test_by_test(graded):
    # Not the backstop (the status is "ok"): each test that calls the endless code runs out of
    # its own time, and the rest of the notebook is graded as usual.
    for key, stopped in ((("hw2_linear_classifiers", "never_returns_and_raises"), names_of("hw2_linear_classifiers", "q1")),
                         (("hw1_perceptron", "infinite_loop_on_nonseparable_data"), ["test_training_stops_after_max_epochs"])):
        report = graded["reports"][key]
        assert report["status"] == "ok"
        for name in stopped:
            message = report["failures"][name]
            assert f"the test ran longer than {HANG_LIMITS['test']:g} s" in message or "not defined" in message, message
    cells = graded["reports"][("hw2_linear_classifiers", "never_returns_and_raises")]["cells"]
    assert any(c["error"] == f"the cell ran longer than {HANG_LIMITS['cell']:g} s and was stopped" for c in cells), cells
    failures = graded["reports"][("hw2_linear_classifiers", "never_returns_and_raises")]["failures"]
    assert "RuntimeError: not done" in failures["test_geometric_margin_small_example"]
    assert "implement it yourself" in graded["reports"][("hw1_perceptron", "delegates_to_train_sgd")]["failures"][
        "test_train_matches_reference_on_random_data"]


def test_backstop_stops_a_submission_that_outlives_its_wall_clock_limit(built, tmp_path):
    assignment = "hw3_convergence"
    submission = tmp_path / "slow.ipynb"
    nb = nbformat.read(built[assignment] / "student" / f"{assignment}.ipynb", as_version=4)
    nb.cells.insert(1, nbformat.v4.new_code_cell("import signal, time\nsignal.setitimer(signal.ITIMER_REAL, 0)\n"
                                                 "signal.signal(signal.SIGALRM, signal.SIG_IGN)\ntime.sleep(600)"))
    nbformat.write(nb, submission)
    start = time.monotonic()
    reports = grading.grade([submission], zip_of(built, assignment), cell_seconds=600, timeout=4)
    assert time.monotonic() - start < 60
    report = reports[str(submission)]
    assert report["status"].startswith("timed out") and sum(report["questions"].values()) == 0


def test_student_gets_feedback_from_grader_check(built, tmp_path):
    # A student who has answered everything, working in plain Jupyter: grader.check reads the
    # public tests from the notebook itself, and every one passes.
    from nbclient import NotebookClient

    assignment = "hw1_perceptron"
    student = nbformat.read(built[assignment] / "student" / f"{assignment}.ipynb", as_version=4)
    key = nbformat.read(built[assignment] / "autograder" / f"{assignment}.ipynb", as_version=4)
    answers = [c for c in student.cells if c.cell_type == "code" and "otter_answer_cell" in c.metadata.get("tags", [])]
    solutions = [c for c in key.cells if c.cell_type == "code" and "otter_assign_solution_cell" in c.metadata.get("tags", [])]
    assert len(answers) == len(solutions) == 5
    for answer, solution in zip(answers, solutions):
        answer.source = solution.source
    nbformat.write(student, tmp_path / f"{assignment}.ipynb")  # grader.check reads the tests from it
    NotebookClient(student, timeout=120, resources={"metadata": {"path": str(tmp_path)}}).execute()
    feedback = {c.source: "".join(o.get("data", {}).get("text/plain", "") for o in c.outputs)
                for c in student.cells if c.cell_type == "code" and c.source.startswith("grader.check(")}
    assert len(feedback) == 5
    for source, text in feedback.items():
        assert text == f"{re.search(r'q[0-9]+', source).group()} results: All test cases passed!", text


# ------------------------------------------------------------------------------ private variants


def test_two_secrets_draw_different_hidden_data():
    """The tests whose inputs come from the secret (RANDOM_TESTS) draw them anew under each secret; the
    others do not.

    That each answer key scores full marks under another secret than the public one (the key built
    with it: every assignment's task changes with the secret) is not graded here any more (issue 35:
    four otter assigns and four kernels). The same private secret's builds are graded, key by key, in
    test_publishing.py's test_the_public_masters_code_fails_a_private_variant (homework 1),
    test_homeworks_2_3.py's test_the_public_key_loses_points_under_a_private_build (homeworks 2 and 3)
    and test_hw4.py's own (homework 4), each asserting the private key's full score; under the public
    secret, the "full" fakes above."""
    for assignment in ASSIGNMENTS:
        assert checks.variant(assignment, PRIVATE_SECRET) != checks.variant(assignment, checks.PUBLIC_SECRET)
        a, b = checks.plan(assignment, "first secret"), checks.plan(assignment, "second secret")
        public = checks.plan(assignment, checks.PUBLIC_SECRET)
        for name in checks.checks(assignment):
            args = [json.dumps([call.to_plain() for call in plan[name][0]]) for plan in (a, b, public)]
            uses_rng = name in RANDOM_TESTS[assignment]
            assert (args[0] != args[1] and args[0] != args[2]) == uses_rng, name


# The tests whose inputs come from the secret: its random draws, or the data of the variant it
# picks (the others check values computed from the notebook's variables, or fixed examples).
RANDOM_TESTS = {
    "hw2_linear_classifiers": {"test_predict_matches_reference_on_random_data", "test_predict_points_on_the_hyperplane",
                               "test_functional_margins_match_reference",
                               "test_functional_margins_scale_with_the_hyperplane",
                               "test_geometric_margin_matches_reference", "test_geometric_margin_ignores_the_scale",
                               "test_prototype_matches_reference", "test_prototype_picks_the_nearest_mean"},
    "hw1_perceptron": {"test_is_mistake_matches_the_margin_rule", "test_is_mistake_at_the_zero_start",
                       "test_update_weights_match_reference", "test_update_bias_matches_reference",
                       "test_train_matches_reference_on_random_data", "test_train_visits_points_in_order",
                       "test_training_stops_after_max_epochs",
                       # the public q5 check trains on the variant's data, which the secret draws
                       "test_experiment_has_every_learning_rate"},
    # Homework 4's public q2 and q5 checks, and the hidden test of the count, call the student's
    # functions on the variant's data, which the secret draws too.
    "hw4_multiclass_networks": {"test_multiclass_update_matches_reference", "test_multiclass_update_on_ties",
                                "test_points_mistakes", "test_train_multiclass_matches_reference",
                                "test_train_multiclass_stops_after_max_epochs",
                                "test_points_mistakes_counts_the_notebooks_run", "test_confusion_matches_reference",
                                "test_lms_step_weights_match_reference", "test_lms_step_bias_matches_reference",
                                "test_lms_steps_on_correct_points", "test_network_gradient_check",
                                "test_forward_and_backprop_match_reference",
                                "test_numeric_gradient_differentiates_point_loss", "test_gradient_gap_is_measured"},
    "hw3_convergence": {"test_radius_matches_reference", "test_augment_on_random_data", "test_bound_matches_reference",
                        "test_pocket_matches_reference_on_overlapping_data", "test_pocket_on_separable_data",
                        "test_radius_small_example", "test_bound_of_the_given_data", "test_experiment_shapes"},
}


def test_secret_build_ships_the_secret_only_in_the_autograder(tmp_path_factory):
    # The private build test_publishing.py grades (one otter assign for both in a session).
    out = homework_build(tmp_path_factory, "hw1_perceptron", secret=PRIVATE_SECRET)
    config = grading.Assignment.from_zip(out / "autograder" / "hw1_perceptron-autograder.zip")
    assert config.secret == PRIVATE_SECRET
    for text in ((out / "student" / "hw1_perceptron.ipynb").read_text(), (out / "manifest.json").read_text()):
        assert PRIVATE_SECRET not in text and json.dumps(PRIVATE_SECRET)[1:-1] not in text and "Tulip" not in text


# ------------------------------------------------------------------------------------ Gradescope


def test_gradescope_layout(built, tmp_path):
    """Gradescope's layout in a scratch folder, run by the zip's run_autograder inside an outer
    bubblewrap sandbox without network; the dependencies are this project's .venv.

    The answer key only (issue 35). The empty notebook it also graded is covered twice: its score
    by test_empty_submission_scores_zero (homework 2's student notebook, 0 points, status ok) and
    run_autograder's results.json of a notebook that scores nothing by test_autograder_image.py's
    test_fakes_score_as_in_the_sandbox_without_namespaces (attack_os_exit: score 0, status error)."""
    assignment = "hw2_linear_classifiers"
    root = tmp_path / "autograder"
    (root / "submission").mkdir(parents=True)
    with zipfile.ZipFile(zip_of(built, assignment)) as zf:
        zf.extractall(root / "source")
    (root / "submission" / f"{assignment}.ipynb").write_bytes(
        (built[assignment] / "autograder" / f"{assignment}.ipynb").read_bytes())
    outer = [sandbox.bwrap(), "--unshare-net", "--unshare-pid", "--die-with-parent", "--ro-bind", "/", "/",
             "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp",
             # the checkout (and its .venv) again, read-only, in case it lives under /tmp (CI's clone may)
             "--ro-bind", str(ROOT), str(ROOT), "--bind", str(root), str(root),
             *(["--cap-add", "ALL"] if os.getuid() == 0 else [])]
    env = {"PATH": os.environ["PATH"], "AUTOGRADER_ROOT": str(root), "PYTHON": sys.executable}
    done = subprocess.run([*outer, "bash", str(root / "source" / "run_autograder")], env=env, capture_output=True,
                          text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["score"] == 12, results
    assert len(results["tests"]) == 12 and sum(t["max_score"] for t in results["tests"]) == 12
    hidden = {t["name"] for t in results["tests"] if t["visibility"] == "after_published"}
    assert len(hidden) == 8 and all(t["score"] == t["max_score"] for t in results["tests"])


# ------------------------------------------------------------------------------- the refusals


def test_grading_refuses_without_a_sandbox(built, tmp_path, monkeypatch, capsys):
    from perceptron_homework import cli

    key = tmp_path / "key.ipynb"
    key.write_text("{}")
    monkeypatch.setattr(sandbox.shutil, "which", lambda name: None)
    # Where the grader is root it would run each submission as a user of its own: not here.
    monkeypatch.setattr(sandbox, "user_isolation_problem", lambda: "the grader is not root")
    code = cli.main(["grade", str(zip_of(built, "hw2_linear_classifiers")), str(key), "--out", str(tmp_path / "s.csv")])
    assert code == 2 and not (tmp_path / "s.csv").exists()
    message = capsys.readouterr().err
    assert "bubblewrap" in message and "--unsafe-no-sandbox" in message


def test_plain_data_round_trip_and_refusals():
    value = {"a": (np.arange(6).reshape(2, 3), np.float64(np.nan), True, None, [1.5, "x"]), 2.0: np.bool_(True)}
    back = plain.decode(json.loads(json.dumps(plain.encode(value))))
    assert back.keys() == value.keys() and np.array_equal(back["a"][0], value["a"][0])
    assert back["a"][0].dtype == np.int64 and np.isnan(back["a"][1]) and type(back[2.0]) is np.bool_
    assert back["a"][2:] == (True, None, [1.5, "x"])
    assert repr(plain.decode(plain.encode(object()))) == "<a object object>"
    hyperplane = perceptron.prototype(np.array([[1.0, 0.0], [-1.0, 0.0]]), np.array([1, -1]))
    w, b = plain.decode(plain.encode(hyperplane))  # a result object that unpacks travels as its items
    assert np.array_equal(w, hyperplane.w) and b == hyperplane.b
    for bad in ({"array": [1], "dtype": "O", "shape": [1]}, {"array": [1, 2], "dtype": "<f8", "shape": [3]},
                {"dict": [[[1], 2]]}, {"eval": "1"}, {"float": "__import__('os')"}):
        with pytest.raises(plain.PlainDataError):
            plain.decode(bad)


def test_verdict_messages_for_failed_calls():
    calls = [checks.call("f", 1)]
    cases = {"missing": {"missing": True}, "raised": {"error": "ValueError: no"}, "called": {"called": "perceptron.train"},
             "time": {"timeout": True}}
    messages = {k: checks.judge(calls, lambda out: out[0], [raw], 4.0)[1] for k, raw in cases.items()}
    assert messages == {"missing": "`f` is not defined: run the cell where you define it",
                        "raised": "`f` raised ValueError: no",
                        "called": "your function calls perceptron.train: implement it yourself",
                        "time": "the test ran longer than 4 s: does the code ever return?"}
    assert checks.judge(calls, lambda out: out[0], [{"value": 1}]) == (True, "")
    assert re.match("the answer could not be checked", checks.judge(calls, lambda out: float(out[0]), [{"value": [1]}])[1])


def test_cgroup_caps_the_memory_of_all_processes_together():
    # Per-process limits alone would let a notebook that forks fill memory in every child; where
    # the machine allows it (root, cgroup v1 or v2), each sandbox also gets a group with a ceiling.
    group = sandbox.Cgroup.create(memory=256 * 1024**2, pids=8)
    if group is None:
        pytest.skip("this machine does not let the grader create control groups")
    try:
        hog = ("import os, sys, time\nkids = []\nfor _ in range(3):\n    pid = os.fork()\n    if pid == 0:\n"
               "        x = b'x' * (100 << 20)\n        time.sleep(1)\n        os._exit(0)\n    kids.append(pid)\n"
               "x = b'x' * (100 << 20)\nsys.exit(9 if any(os.waitpid(p, 0)[1] for p in kids) else 0)")
        done = subprocess.run(group.wrap([sys.executable, "-c", hog]), capture_output=True, text=True, timeout=60,
                              check=False)
        assert done.returncode in (-9, 9), "four processes of 100 MiB each went past a ceiling of 256 MiB"
        fine = subprocess.run(group.wrap([sys.executable, "-c", "x = b'x' * (50 << 20)"]), timeout=60, check=False)
        assert fine.returncode == 0
    finally:
        group.remove()
    assert not any(d.exists() for d in group.dirs)


def test_a_forged_output_file_is_judged_as_data(built, tmp_path, monkeypatch):
    # The kernel's output file is in reach of the student's code, which may write anything there:
    # nested a million deep, malformed, or claiming the answers. The grader reads it as data.
    assignment = grading.Assignment.from_zip(zip_of(built, "hw2_linear_classifiers"))
    submission = tmp_path / "s.ipynb"
    submission.write_bytes((built["hw2_linear_classifiers"] / "student" / "hw2_linear_classifiers.ipynb").read_bytes())
    forged = {"deep": "[" * 100_000 + "]" * 100_000, "garbage": "\x00not json",
              "claims": json.dumps({"tests": {"test_predict_small_example": [{"value": {"eval": "1"}}],
                                              "test_predict_matches_reference_on_random_data": "passed"}})}
    for name, text in forged.items():
        def run(cmd, env, timeout, cwd, group=None, text=text):
            (cwd / "out.json").write_text(text)
            return "ok"

        monkeypatch.setattr(grading, "_run", run)
        report = grading.grade_one(submission, assignment)
        assert sum(report["questions"].values()) == 0, name
        assert report["status"] == ("ok" if name == "claims" else "error: the kernel's output is unreadable"), name


def test_the_built_autograder_is_self_contained(built):
    """`make homework`'s zip is Gradescope's upload as is: this checkout's wheel of perceptron-course
    (not PyPI's unrelated `perceptron`), the lock as constraints, and no install from git."""
    from perceptron import __version__
    from perceptron_homework import gradescope

    with zipfile.ZipFile(zip_of(built, "hw2_linear_classifiers")) as zf:
        names = set(zf.namelist())
        assert f"wheels/perceptron_course-{__version__}-py3-none-any.whl" in names
        assert zf.read("setup.sh").decode() == gradescope.SETUP_SH
        assert "git+" not in zf.read("requirements.txt").decode() and "constraints.txt" in names


def test_hw3_margin_check_gives_the_true_reason_for_gamma_aug_at_most_gamma():
    # The reason: the best unit (w, b) for the points (x, 1) has ||w|| <= ||(w, b)|| = 1, so as a
    # hyperplane of the data its geometric margins y (w.x + b) / ||w|| are at least gamma_aug.
    calls, verdict = checks.plan("hw3_convergence", checks.PUBLIC_SECRET)["test_margins_are_consistent"]
    passed, message = checks.judge(calls, verdict, [{"value": 0.5}, {"value": 2.0}, {"value": 0.6}])
    assert not passed and "||w|| <= ||(w, b)|| = 1" in message and "unit w only when" not in message
    master = nbformat.read(MASTERS / "hw3_convergence.ipynb", as_version=4)
    public = next(c.source for c in master.cells if "def test_margins_are_consistent" in c.source)
    assert "||w|| <= ||(w, b)|| = 1" in public
    X, y = perceptron.datasets.make_separable(50, margin=0.1, seed=11)
    best = perceptron.max_margin(np.column_stack([X, np.ones(len(y))]), y, bias="none")
    w, b = best.w[:-1], best.w[-1]
    assert np.linalg.norm(w) <= 1 and np.min(y * (X @ w + b)) / np.linalg.norm(w) >= best.gamma - 1e-12
