"""The self-grading homework: what otter generates, and how its autograder scores submissions.

The fake submissions are not stored: each one is the solutions notebook that ``otter assign``
generates from the master, with a few lines edited to plant one classic bug (or the untouched
student notebook, for an empty submission). Every fake declares the tests its bug must fail;
grading it must fail exactly those, and score exactly the points of the others. So a change to a
master that makes a test miss its bug, or catch a bug it is not about, fails here.
"""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import subprocess
import sys
import time
import zipfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "homework.py"
MASTERS = ROOT / "notebooks" / "homework"
ASSIGNMENTS = ("hw1_linear_classifiers", "hw2_perceptron", "hw3_convergence")

# otter imports nbconvert, whose traitlets configuration still uses a deprecated form.
pytestmark = pytest.mark.filterwarnings("ignore:Traits should be given as instances:DeprecationWarning")

_spec = importlib.util.spec_from_file_location("homework_tool", TOOL)
homework = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(homework)

# Fakes whose code hangs are graded with short limits, the others with the tool's defaults.
HANG_LIMITS = {"cell": 15.0, "test": 5.0}
BACKSTOP = 240.0  # wall-clock seconds per submission; no fake may come near it


@dataclass(frozen=True)
class Fake:
    """A submission made from the solutions by ``edits`` (each ``old`` must occur exactly once)."""

    assignment: str
    name: str
    edits: tuple[tuple[str, str], ...]
    fails: frozenset[str]  # the tests the planted bug must fail; all others must pass
    hangs: bool = False


def fake(assignment: str, name: str, edits=(), fails=(), hangs=False) -> Fake:
    return Fake(assignment, name, tuple(edits), frozenset(fails), hangs)


PREDICT_BODY = "    scores = np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + b\n"
UPDATE_RETURN = "return w + eta * y * np.asarray(x, dtype=float), b + eta * y"
Q2_HW2 = ("test_update_small_example", "test_update_weights_match_reference", "test_update_bias_matches_reference")
Q3_HW2 = ("test_train_small_example", "test_train_matches_reference_on_random_data", "test_train_uses_the_learning_rate")
Q4_HW2 = ("test_xor_training_stops", "test_training_stops_after_max_epochs", "test_xor_errors_counts_the_returned_hyperplane")
Q1_HW1 = ("test_predict_small_example", "test_predict_matches_reference_on_random_data", "test_predict_points_on_the_hyperplane")
Q3_HW1 = ("test_geometric_margin_small_example", "test_geometric_margin_matches_reference", "test_geometric_margin_ignores_the_scale")
Q5_HW3 = ("test_pocket_small_example", "test_pocket_matches_reference_on_overlapping_data", "test_pocket_on_separable_data")

FAKES = [
    *(fake(a, "full") for a in ASSIGNMENTS),
    # sgn(0) = -1: only the tests with points on the hyperplane can tell.
    fake("hw1_linear_classifiers", "sgn_zero_is_minus_one",
         [("np.where(scores >= 0, 1, -1)", "np.where(scores > 0, 1, -1)")],
         ["test_predict_small_example", "test_predict_points_on_the_hyperplane"]),
    # Passing the public tests without doing the work: the hidden tests catch both tricks.
    fake("hw1_linear_classifiers", "special_cases_and_delegates",
         [(PREDICT_BODY + "    return np.where(scores >= 0, 1, -1)\n", "    return np.array([1, -1, 1])\n"),
          ("    return c_plus - c_minus,", "    import perceptron\n    return perceptron.prototype(X, y)\n    return c_plus - c_minus,")],
         ["test_predict_matches_reference_on_random_data", "test_predict_points_on_the_hyperplane",
          "test_prototype_matches_reference", "test_prototype_picks_the_nearest_mean"]),
    # One function never returns (the cell that calls it too), another raises.
    fake("hw1_linear_classifiers", "never_returns_and_raises",
         [(PREDICT_BODY, "    while True:\n        pass\n" + PREDICT_BODY),
          ("    return float(np.min(functional_margins", "    raise RuntimeError('not done')\n    return float(np.min(functional_margins")],
         [*Q1_HW1, *Q3_HW1], hangs=True),
    # A sign error in the update: the update, the training loop and the experiment's counts.
    fake("hw2_perceptron", "update_sign_error",
         [(UPDATE_RETURN, "return w - eta * y * np.asarray(x, dtype=float), b - eta * y")],
         [*Q2_HW2, *Q3_HW2, "test_experiment_counts_match_reference"]),
    # The bias is never updated: everything that looks at b, but not the weights-only test.
    fake("hw2_perceptron", "bias_never_updated",
         [(UPDATE_RETURN, "return w + eta * y * np.asarray(x, dtype=float), b")],
         ["test_update_small_example", "test_update_bias_matches_reference", *Q3_HW2,
          "test_experiment_counts_match_reference"]),
    # No max_epochs: an infinite loop on non-separable data, i.e. exactly question 4.
    fake("hw2_perceptron", "infinite_loop_on_nonseparable_data",
         [("    for _ in range(max_epochs):\n        clean = True", "    while True:\n        clean = True")],
         Q4_HW2, hangs=True),
    fake("hw3_convergence", "pocket_raises",
         [("    best_w, best_b, best_errors = w.copy(), b, len(y)\n", "    raise RuntimeError('not done')\n")],
         Q5_HW3),
]


def plant(solutions: nbformat.NotebookNode, edits: tuple[tuple[str, str], ...]) -> nbformat.NotebookNode:
    nb = nbformat.from_dict(json.loads(json.dumps(solutions)))
    for old, new in edits:
        cells = [c for c in nb.cells if c.cell_type == "code" and old in c.source]
        assert len(cells) == 1 and cells[0].source.count(old) == 1, f"edit target not unique: {old!r}"
        cells[0].source = cells[0].source.replace(old, new)
    return nb


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> dict[str, Path]:
    """Every assignment, built once by the same code as ``make homework``."""
    out = tmp_path_factory.mktemp("homework")
    # otter's own run of the tests is skipped: grading the "full" fakes below checks the same.
    with ThreadPoolExecutor(max_workers=2) as pool:
        dirs = pool.map(lambda a: homework.build(MASTERS / f"{a}.ipynb", out, run_tests=False), ASSIGNMENTS)
    return dict(zip(ASSIGNMENTS, dirs))


@pytest.fixture(scope="session")
def graded(built, tmp_path_factory) -> dict:
    """Grade every fake and every empty notebook with the command-line tool, one CSV per group."""
    root = tmp_path_factory.mktemp("submissions")
    groups: dict[tuple[str, bool], Path] = {}
    for f in FAKES:
        folder = groups.setdefault((f.assignment, f.hangs), root / f"{f.assignment}-{'hang' if f.hangs else 'ok'}")
        folder.mkdir(exist_ok=True)
        solutions = nbformat.read(built[f.assignment] / "autograder" / f"{f.assignment}.ipynb", as_version=4)
        nbformat.write(plant(solutions, f.edits), folder / f"{f.name}.ipynb")
    for a in ASSIGNMENTS:
        (root / f"{a}-ok" / "empty.ipynb").write_bytes((built[a] / "student" / f"{a}.ipynb").read_bytes())

    def run(group):
        (assignment, hangs), folder = group
        limits = ["--cell-timeout", str(HANG_LIMITS["cell"]), "--test-timeout", str(HANG_LIMITS["test"])] if hangs else []
        zip_path = built[assignment] / "autograder" / f"{assignment}-autograder.zip"
        cmd = [sys.executable, str(TOOL), "grade", str(zip_path), str(folder), "--out", str(folder / "scores.csv"),
               "--details", str(folder / "details.json"), "--timeout", str(BACKSTOP), *limits]
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=4 * BACKSTOP)
        assert done.returncode == 0, done.stderr
        return folder

    # The hanging groups spend most of their time waiting for a time limit, not computing:
    # a third worker overlaps that wait with the others' work.
    order = sorted(groups.items(), key=lambda item: not item[0][1])
    with ThreadPoolExecutor(max_workers=3) as pool:
        runs = list(pool.map(run, order))
    results = {"reports": {}, "csv": {}}
    for ((assignment, _), _), folder in zip(order, runs):
        for path, report in json.loads((folder / "details.json").read_text()).items():
            results["reports"][(assignment, Path(path).stem)] = report
        with open(folder / "scores.csv", newline="") as fh:
            results["csv"][folder.name] = list(csv.DictReader(fh))
    return results


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
    assert "SOLUTION" not in student and "hidden=True" not in student
    tests = homework.autograder_tests(built[assignment] / "autograder" / f"{assignment}-autograder.zip")
    for cases in tests.values():
        for case in cases:
            # Public tests travel in the notebook's metadata for grader.check; hidden ones never.
            assert (case["name"] in student) == (not case["hidden"]), case["name"]


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_every_question_has_public_and_hidden_tests(built, assignment):
    manifest = json.loads((built[assignment] / "manifest.json").read_text())
    tests = homework.autograder_tests(built[assignment] / manifest["autograder_zip"])
    assert len(tests) >= 4, "at least four autograded questions"
    for question, cases in tests.items():
        assert any(c["hidden"] for c in cases) and any(not c["hidden"] for c in cases), question
    assert manifest["points"] == {q: sum(c["points"] for c in cases) for q, cases in tests.items()}
    with zipfile.ZipFile(built[assignment] / manifest["autograder_zip"]) as zf:
        assert "files/hwcheck.py" in zf.namelist()


@pytest.mark.parametrize("f", FAKES, ids=lambda f: f"{f.assignment}-{f.name}")
def test_fake_submission_loses_exactly_the_targeted_points(built, graded, f):
    report = graded["reports"][(f.assignment, f.name)]
    assert report["status"] == "ok"
    failed = {name for cases in report["tests"].values() for name, ok in cases.items() if not ok}
    assert failed == f.fails
    tests = homework.autograder_tests(built[f.assignment] / "autograder" / f"{f.assignment}-autograder.zip")
    for question, cases in tests.items():
        expected = sum(c["points"] for c in cases if c["name"] not in f.fails)
        assert report["questions"][question] == expected, question


@pytest.mark.parametrize("assignment", ASSIGNMENTS)
def test_empty_submission_scores_zero(graded, assignment):
    report = graded["reports"][(assignment, "empty")]
    assert report["status"] == "ok" and sum(report["questions"].values()) == 0


def test_score_table(graded):
    rows = {Path(r["submission"]).stem: r for r in graded["csv"]["hw1_linear_classifiers-ok"]}
    assert sorted(rows) == ["empty", "full", "sgn_zero_is_minus_one", "special_cases_and_delegates"]
    assert list(rows["full"]) == ["submission", "q1", "q2", "q3", "q4", "total", "possible", "status"]
    totals = {name: (row["total"], row["possible"], row["status"]) for name, row in rows.items()}
    assert totals == {"full": ("12", "12", "ok"), "empty": ("0", "12", "ok"),
                      "sgn_zero_is_minus_one": ("10", "12", "ok"), "special_cases_and_delegates": ("8", "12", "ok")}
    assert rows["sgn_zero_is_minus_one"]["q1"] == "1"


def test_code_that_never_returns_is_stopped_test_by_test(graded):
    # Not the backstop (the status is "ok"): each test that calls the endless code runs out of
    # its own time, and the rest of the notebook is graded as usual.
    for key, stopped in ((("hw1_linear_classifiers", "never_returns_and_raises"), Q1_HW1),
                         (("hw2_perceptron", "infinite_loop_on_nonseparable_data"), ["test_training_stops_after_max_epochs"])):
        report = graded["reports"][key]
        assert report["status"] == "ok"
        for name in stopped:
            assert f"the test ran longer than {HANG_LIMITS['test']:g} s" in report["failures"][name], name
    assert "RuntimeError: not done" in graded["reports"][("hw1_linear_classifiers", "never_returns_and_raises")]["failures"][
        "test_geometric_margin_small_example"]


def test_student_gets_feedback_from_grader_check(built, tmp_path):
    # A student who has answered everything, working in plain Jupyter: grader.check reads the
    # public tests from the notebook itself, and every one passes.
    from nbclient import NotebookClient

    assignment = "hw2_perceptron"
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


def test_backstop_stops_a_submission_that_outlives_its_wall_clock_limit(built, tmp_path):
    assignment = "hw3_convergence"
    submission = tmp_path / "slow.ipynb"
    nb = nbformat.read(built[assignment] / "student" / f"{assignment}.ipynb", as_version=4)
    nb.cells.insert(1, nbformat.v4.new_code_cell("import time\ntime.sleep(600)"))
    nbformat.write(nb, submission)
    start = time.monotonic()
    reports = homework.grade([submission], built[assignment] / "autograder" / f"{assignment}-autograder.zip",
                             cell_seconds=600, timeout=3)
    assert time.monotonic() - start < 60
    report = reports[str(submission)]
    assert report["status"].startswith("timed out") and sum(report["questions"].values()) == 0
