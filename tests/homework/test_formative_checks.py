"""Homework 1's public checks give formative feedback, and constant answers earn nothing hidden.

Each wrong answer below is a common one (issue 22): a guessed count, a training loop handed to
the library's trainer, answers that contradict each other, an update that changes ``w`` in
place. Each is planted in the answer key that ``otter assign`` writes, the notebook's cells are
run in this process, and then both forms of the question's public test must fail: the one in the
student notebook (otter's test file, what ``grader.check`` runs) and its twin in
``perceptron_homework.checks`` (what grading runs). The message must not give the answer away.
The key itself passes both.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

from perceptron_homework import checks
from tests.support.homework_builds import homework_build
from tests.support.homework_cells import hidden_passed, key_cells, notebook_test, run, twin_test

ROOT = Path(__file__).resolve().parents[2]
MASTERS = ROOT / "notebooks" / "homework"
HW1 = "hw1_perceptron"

pytestmark = pytest.mark.filterwarnings("ignore:Traits should be given as instances:DeprecationWarning")


@pytest.fixture(scope="module")
def hw1(tmp_path_factory) -> Path:
    """Homework 1, public variant, built as `make homework PUBLIC=1` builds it (shared: read-only)."""
    return homework_build(tmp_path_factory, HW1)


@pytest.fixture(scope="module")
def key_env(hw1) -> dict:
    """The namespace of the answer key's cells, run once for the module: each test takes a copy
    (``dict(key_env)``; no test changes a value in place)."""
    return run(key_cells(hw1, HW1))


UPDATE = "return w + eta * y * np.asarray(x, dtype=float), b + eta * y"
TRAIN_BODY = "    X, y = np.asarray(X, dtype=float), np.asarray(y)\n"
WRONG = {
    "guessed_count": ("q4", [("xor_errors = sum(", "xor_errors = 3 + 0 * sum(")], "xor_errors is not the number"),
    "training_mistakes_as_errors": ("q4", [("xor_errors = sum(", "xor_errors = xor_mistakes + 0 * sum(")],
                                    "not the updates made in training"),
    "library_trainer": ("q3", [(TRAIN_BODY, TRAIN_BODY + "    import perceptron as pc\n"
                                "    r = pc.train(X, y, eta=eta, max_epochs=max_epochs)\n"
                                "    return r.w, r.b, r.mistakes\n")], "yourself"),
    "inconsistent_answers": ("q5", [("same_mistakes = len(set(mistakes_by_eta.values())) == 1",
                                     "same_mistakes = not (len(set(mistakes_by_eta.values())) == 1)")],
                             "does not agree with your counts"),
    # Issue 31: these passed their own question's check and were blamed on (or hidden by) a later one.
    "loop_one_pass_short": ("q3", [("for _ in range(max_epochs):", "for _ in range(1, max_epochs):")],
                            "does your loop make max_epochs passes"),
    "wrong_sign_update": ("q5", [(UPDATE, "return w - eta * y * np.asarray(x, dtype=float), b - eta * y")],
                          "never converged"),
    "in_place_update": ("q2", [(UPDATE, "w += eta * y * np.asarray(x, dtype=float)\n    return w, b + eta * y")],
                        "changed the array w it was given"),
}


def test_the_answer_key_passes_every_public_check(hw1, key_env):
    env = dict(key_env)
    for question in ("q1", "q2", "q3", "q4", "q5"):
        assert notebook_test(hw1, HW1, question, env)[0], question
        assert twin_test(HW1, question, env) == (True, ""), question


@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_public_check_catches_a_common_wrong_answer_without_giving_it_away(hw1, key_env, wrong):
    question, edits, reason = WRONG[wrong]
    cells = key_cells(hw1, HW1)
    for old, _ in edits:
        assert sum(c.count(old) for c in cells) == 1, f"edit target not unique: {old!r}"
    env = run(cells, tuple(edits))
    for passed, message in (notebook_test(hw1, HW1, question, env), twin_test(HW1, question, env)):
        assert not passed, f"{wrong}: the public check of {question} passed"
        assert reason in message, message
    if question == "q4":  # the right count (30 for the public variant) is not in the feedback
        right = key_env["xor_errors"]
        assert right == 30
        assert str(right) not in notebook_test(hw1, HW1, question, env)[1] + twin_test(HW1, question, env)[1]


# An earlier question's bug, and the later question's code right: the later check names the earlier question.
LATER = {
    "loop_one_pass_short": ("q4", [("for _ in range(max_epochs):", "for _ in range(1, max_epochs):")]),
    "wrong_sign_update": ("q5", [(UPDATE, "return w - eta * y * np.asarray(x, dtype=float), b - eta * y")]),
    "margin_rule_reversed": ("q4", [("return bool(y * (np.dot(w, x) + b) <= 0)", "return bool(y * (np.dot(w, x) + b) < 0)")]),
}


@pytest.mark.parametrize("wrong", sorted(LATER))
def test_a_later_check_names_the_earlier_question_instead_of_blaming_its_own_code(hw1, wrong):
    question, edits = LATER[wrong]
    env = run(key_cells(hw1, HW1), tuple(edits))
    for passed, message in (notebook_test(hw1, HW1, question, env), twin_test(HW1, question, env)):
        assert not passed, f"{wrong}: the public check of {question} passed"
        assert "questions 1 to 3" in message and "xor_errors is not" not in message, message


def test_the_notebooks_q3_check_watches_the_trainers_the_grader_forbids():
    """The notebook's public q3 test looks for calls into the library trainers' modules; the twin
    and the hidden tests forbid ``checks.TRAINERS``: every trainer they name lives in one of those."""
    import importlib

    master = json.loads((MASTERS / f"{HW1}.ipynb").read_text())
    source = next("".join(c["source"]) for c in master["cells"] if "def test_train_small_example" in "".join(c["source"]))
    watched = eval(source.split("trainers = ", 1)[1].split("\n    called", 1)[0])  # the tuple literal
    for entry in checks.TRAINERS:
        module, _, attr = entry.rpartition(".")
        if attr == "*":
            assert module.startswith(watched), entry
            continue
        function = getattr(importlib.import_module(module), attr)
        assert function.__module__.startswith(watched), f"{entry} is in {function.__module__}"


CONSTANT_ANSWERS = {
    "is_mistake": "def is_mistake(x, y, w, b):\n    return {mistake}\n",
    "update": "def update(x, y, w, b, eta):\n    return np.zeros(len(w)), 0.0\n",
    "train_perceptron": "def train_perceptron(X, y, eta=1.0, max_epochs=1000):\n    return np.zeros(2), 0.0, 4\n",
}


@pytest.mark.parametrize("secret", [checks.PUBLIC_SECRET, "a private secret"])
@pytest.mark.parametrize("mistake", [True, False])
def test_constant_answers_earn_nothing_from_the_hidden_tests(mistake, secret):
    """Every function answers a constant, every variable is a guess: no hidden test passes."""
    env: dict = {"np": np}
    for source in CONSTANT_ANSWERS.values():
        exec(source.format(mistake=mistake), env)  # noqa: S102 - the answer cell
    X_xor = np.zeros((40, 2))
    env.update(X_xor=X_xor, xor_w=np.zeros(2), xor_b=0.0, xor_mistakes=25, xor_errors=40 if mistake else 3,
               mistakes_by_eta=dict.fromkeys((0.01, 0.1, 1.0, 10.0), 10), same_mistakes=True)
    assert sum(c.hidden for c in checks.checks(HW1).values()) == 10
    assert hidden_passed(HW1, env, secret) == []


def test_the_right_conclusion_earns_its_point_only_with_the_right_counts(key_env):
    env = dict(key_env)
    checks.run_here(HW1, "test_experiment_conclusion", env, secret=checks.PUBLIC_SECRET)
    env["mistakes_by_eta"] = {eta: m + 1 for eta, m in env["mistakes_by_eta"].items()}
    with pytest.raises(AssertionError, match="wrong count"):
        checks.run_here(HW1, "test_experiment_conclusion", env, secret=checks.PUBLIC_SECRET)


# ----------------------------------------------------------------- the student notebook as handed out


def test_a_renamed_student_notebook_still_finds_its_tests(hw1, key_env, tmp_path, monkeypatch):
    """Why grader.check broke: otter's cell named the file, ``otter.Notebook("hw1_perceptron.ipynb")``,
    and otter reads the public tests from that file. The build's cell finds the file by its content."""
    import otter

    from perceptron_homework.build import INIT_CELL
    from perceptron_homework.runner import code_cells
    from perceptron_homework.student import notebook_file

    student = json.loads((hw1 / "student" / f"{HW1}.ipynb").read_text())
    init = [c for c in student["cells"] if "otter.Notebook(" in source_of(c)]
    assert [source_of(c) for c in init] == [INIT_CELL.format(name=HW1)]
    assert not [s for s in code_cells(student) if "otter.Notebook(" in s or "notebook_file" in s], (
        "the grading kernel must skip otter's cell")
    (tmp_path / f"{HW1} (1).ipynb").write_text(json.dumps(student))
    (tmp_path / "my notes.ipynb").write_text(json.dumps({"cells": [], "metadata": {}, "nbformat": 4,
                                                         "nbformat_minor": 5}))
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    with pytest.raises(FileNotFoundError):
        otter.Notebook(f"{HW1}.ipynb")  # the old cell, in a folder where the notebook was renamed
    assert notebook_file(HW1) == f"{HW1} (1).ipynb"
    grader = otter.Notebook(notebook_file(HW1))
    with contextlib.redirect_stdout(io.StringIO()):
        result = grader.check("q1", dict(key_env))
    assert "All test cases passed" in repr(result)
    (tmp_path / f"{HW1} (1).ipynb").unlink()
    with pytest.raises(FileNotFoundError, match="save the notebook"):
        notebook_file(HW1)


def source_of(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


def test_every_student_notebook_has_its_setup_cell_before_otter(tmp_path_factory):
    for master in sorted(MASTERS.glob("hw*.ipynb")):
        out = homework_build(tmp_path_factory, master.stem, master=master)
        cells = json.loads((out / "student" / master.name).read_text())["cells"]
        setup = [i for i, c in enumerate(cells) if source_of(c).startswith("# Setup:")]
        otter = [i for i, c in enumerate(cells) if "import otter" in source_of(c)]
        assert len(setup) == len(otter) == 1 and setup[0] < otter[0], master.name
        assert not [c for c in cells[:setup[0]] if c["cell_type"] == "code"], master.name


def answered_student_notebook(built: Path, assignment: str) -> tuple[dict, int]:
    """The student notebook with the answer key's code in its answer cells, and its number of
    grader.check cells."""
    student = json.loads((built / "student" / f"{assignment}.ipynb").read_text())
    key = json.loads((built / "autograder" / f"{assignment}.ipynb").read_text())
    answers, solutions = (
        [c for c in nb["cells"] if c["cell_type"] == "code" and tag in c["metadata"].get("tags", [])]
        for nb, tag in ((student, "otter_answer_cell"), (key, "otter_assign_solution_cell")))
    assert answers and len(answers) == len(solutions), assignment
    for answer, solution in zip(answers, solutions):
        answer["source"] = solution["source"]
    checks_cells = sum("grader.check(" in "".join(c["source"]) for c in student["cells"] if c["cell_type"] == "code")
    return student, checks_cells


def test_the_student_notebooks_run_in_order_in_a_fresh_environment_without_otter(tmp_path_factory, tmp_path,
                                                                                 project_wheel):
    """A fresh virtual environment (no otter, no numpy, no package): homework 1's setup cell installs
    them (the package from this checkout's wheel, the session's, as $PERCEPTRON_INSTALL_FROM says), then every cell runs in
    order and every grader.check passes, in a notebook renamed as a download renames it. Homeworks 2
    to 4 then run the same way in that environment (their setup cell is homework 1's, and comes before
    `import otter`: test_every_student_notebook_has_its_setup_cell_before_otter), so one install
    serves all four."""
    import os
    import subprocess
    import sys

    venv = tmp_path / "venv"
    base = Path(sys.base_prefix) / "bin" / "python3"
    subprocess.run([str(base), "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    assert subprocess.run([python, "-c", "import otter"], capture_output=True, check=False).returncode != 0
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PERCEPTRON_INSTALL_FROM"] = str(project_wheel)
    # pip installs without byte-compiling every module of every package (`pip install --compile`'s
    # default; issue 35: measured 62 s of CPU for the install with it, 33 s without): the notebooks
    # compile what they import, and nothing here checks the rest. (PIP_COMPILE=0, not
    # PIP_NO_COMPILE=1: pip reads a negative option's variable as its value, so that one compiles.)
    env["PIP_COMPILE"] = "0"
    assert checks.ASSIGNMENTS[0] == HW1
    for assignment in checks.ASSIGNMENTS:
        student, expected = answered_student_notebook(homework_build(tmp_path_factory, assignment), assignment)
        work = tmp_path / assignment
        work.mkdir()
        (work / f"{assignment} (1).ipynb").write_text(json.dumps(student))
        done = subprocess.run([python, str(Path(__file__).with_name("run_cells.py")), f"{assignment} (1).ipynb"],
                              cwd=work, capture_output=True, text=True, check=False, env=env, timeout=1800)
        assert done.returncode == 0, assignment + ":\n" + done.stdout[-3000:] + done.stderr[-3000:]
        checks_run = [line for line in done.stdout.splitlines() if line.startswith("check ")]
        assert expected and len(checks_run) == expected, (assignment, done.stdout[-3000:])
        assert all("All test cases passed" in line for line in checks_run), (assignment, done.stdout[-3000:])