"""Homeworks 2 and 3: variants that change the task, formative public checks, no points for constants.

As for homework 1 (tests/homework/test_formative_checks.py, test_publishing.py), issue 22:

* a private secret changes the task itself (homework 2: sgn(0), the margin's norm, the
  prototypes; homework 3: how the bias is learned, the pocket's tie rule, the datasets), stated
  in the student notebook, so that the public master's solutions lose points under it while
  each variant's own key scores full marks;
* each question's public test (in the student notebook, what ``grader.check`` runs, and its twin
  in ``perceptron_homework.checks``, what grading runs) catches the common wrong answers and
  says what is wrong without giving the answer away;
* constant answers earn nothing from the hidden tests; a homework's data live in one place.

The wrong answers are planted in the answer key that ``otter assign`` writes (each edit's target
must occur exactly once), and the notebook's cells are run in this process.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from perceptron_homework import checks, grading
from perceptron_homework.build import render_master
from tests.support.homework_builds import homework_build
from tests.support.homework_cells import hidden_passed, key_cells, notebook_test, run, twin_test

ROOT = Path(__file__).resolve().parents[2]
MASTERS = ROOT / "notebooks" / "homework"
HW2, HW3 = "hw2_linear_classifiers", "hw3_convergence"
PRIVATE_SECRET = 'Tulip$Rose&"8831'  # the secret of issue 22
POINTS = {HW2: 12, HW3: 14}

pytestmark = pytest.mark.filterwarnings("ignore:Traits should be given as instances:DeprecationWarning")


# ------------------------------------------------------------------------------------- helpers


def master_cells(assignment: str, secret: str, solutions_of: str | None = None) -> list[str]:
    """The code the master's answer key runs under ``secret``'s variant (no setup, no tests).

    With ``solutions_of``, the solution cells are those rendered for that secret instead: the
    public master's solution code pasted into a private variant's notebook.
    """
    def code(of: str) -> list[str]:
        nb = json.loads(render_master(MASTERS / f"{assignment}.ipynb", checks.variant(assignment, of)))
        return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
                for c in nb["cells"] if c["cell_type"] == "code"]

    def is_solution(source: str) -> bool:
        return "# BEGIN SOLUTION" in source or "# SOLUTION" in source

    own = code(secret)
    pasted = code(solutions_of) if solutions_of else own
    return [pasted[i] if is_solution(source) else source for i, source in enumerate(own)
            if not source.startswith("# Setup:") and "def test_" not in source]






def score(assignment: str, env: dict, secret: str) -> tuple[int, list[str]]:
    """Points under ``secret`` (every test is worth one point in homeworks 2 and 3) and the tests failed."""
    failed = []
    for name in checks.checks(assignment):
        try:
            checks.run_here(assignment, name, dict(env), secret=secret)
        except AssertionError:
            failed.append(name)
    return len(checks.checks(assignment)) - len(failed), failed






VARIANT_KEYS = {HW2: ("tie", "norm", "center"), HW3: ("bias", "ties")}
PRIVATE_COMBINATIONS = {HW2: 4, HW3: 2}


def secrets_of_every_variant(assignment: str) -> dict[tuple, str]:
    """A secret for each private combination of the variant's rules."""
    found: dict[tuple, str] = {}
    for k in range(100):
        v = checks.variant(assignment, f"secret {k}")
        found.setdefault(tuple(v[key] for key in VARIANT_KEYS[assignment]), f"secret {k}")
        if len(found) == PRIVATE_COMBINATIONS[assignment]:
            break
    return found


# ----------------------------------------------------------------------------- the variants


def test_private_variants_change_the_task_deterministically():
    hw2 = checks.variant(HW2, checks.PUBLIC_SECRET)
    assert (hw2["tie"], hw2["norm"], hw2["center"], hw2["demo_seed"]) == ("plus", "w", "mean", 5)
    seen = secrets_of_every_variant(HW2)
    for combination, secret in seen.items():
        assert checks.variant(HW2, secret) == checks.variant(HW2, secret)  # a function of the secret
        changed = sum(a != b for a, b in zip(combination, ("plus", "w", "mean")))
        assert changed >= 2, f"{combination} changes only {changed} of homework 2's conventions"
    assert set(seen) == {("minus", "wb", "mean"), ("minus", "w", "median"), ("plus", "wb", "median"),
                         ("minus", "wb", "median")}
    hw3 = checks.variant(HW3, checks.PUBLIC_SECRET)
    assert (hw3["bias"], hw3["ties"], hw3["seed"], hw3["q4_first"]) == ("one", "strict", 11, 0)
    seen = secrets_of_every_variant(HW3)
    assert set(seen) == {("radius", "strict"), ("radius", "ties")}
    for secret in seen.values():
        v = checks.variant(HW3, secret)
        assert v["seed"] != 11 and v["q4_first"] != 0 and v["o_seed"] != 3


@pytest.mark.parametrize("assignment", [HW2, HW3])
def test_the_public_masters_code_fails_every_private_variant(assignment):
    """Under every private variant: its own key scores full marks; the public key (its notebook as
    it is) and the public solution code pasted into the private notebook lose points."""
    public_env = run(master_cells(assignment, checks.PUBLIC_SECRET))
    assert score(assignment, public_env, checks.PUBLIC_SECRET) == (POINTS[assignment], [])
    scores = {}
    for combination, secret in sorted(secrets_of_every_variant(assignment).items()):
        own = score(assignment, run(master_cells(assignment, secret)), secret)
        assert own == (POINTS[assignment], []), (combination, own)
        public_key = score(assignment, public_env, secret)[0]
        pasted = score(assignment, run(master_cells(assignment, secret, checks.PUBLIC_SECRET)), secret)[0]
        scores[combination] = (public_key, pasted)
    print(f"{assignment}: (public key, public code in the private notebook) out of {POINTS[assignment]}: {scores}")
    for combination, (public_key, pasted) in scores.items():
        assert public_key <= POINTS[assignment] * 2 // 3 and pasted <= POINTS[assignment] * 3 // 4, combination
    # What book/homework.md states: the range over the private variants, of each measure.
    ranges = tuple((min(s[k] for s in scores.values()), max(s[k] for s in scores.values())) for k in (0, 1))
    assert ranges == STATED[assignment]


STATED = {HW2: ((4, 7), (4, 7)), HW3: ((1, 3), (3, 5))}


@pytest.fixture(scope="module")
def private(tmp_path_factory) -> dict[str, Path]:
    """Homeworks 2 and 3 built under the private secret of issue 22 (shared builds)."""
    return {a: homework_build(tmp_path_factory, a, secret=PRIVATE_SECRET) for a in (HW2, HW3)}


@pytest.mark.parametrize("assignment", [HW2, HW3])
def test_the_student_notebook_states_its_variants_task(private, hw2, hw3, assignment):
    public_text = ((hw2 if assignment == HW2 else hw3) / "student" / f"{assignment}.ipynb").read_text()
    private_text = (private[assignment] / "student" / f"{assignment}.ipynb").read_text()
    v, p = checks.variant(assignment, PRIVATE_SECRET), checks.variant(assignment, checks.PUBLIC_SECRET)
    assert "{{" not in public_text and "{{" not in private_text and "Tulip" not in private_text
    rules = ("tie_text", "norm_text", "center_text") if assignment == HW2 else ("bias_text", "tie_text")
    changed = [key for key in rules if v[key] != p[key]]
    assert changed
    for key in changed:
        assert json.dumps(v[key])[1:-1] in private_text and json.dumps(v[key])[1:-1] not in public_text, key


@pytest.mark.parametrize("assignment", [HW2, HW3])
def test_the_public_key_loses_points_under_a_private_build(private, hw2, hw3, assignment, tmp_path):
    """As homework 1's test: both keys graded in the sandbox by both autograder zips."""
    builds = {"public": hw2 if assignment == HW2 else hw3, "private": private[assignment]}
    for name, folder in builds.items():
        shutil.copy(folder / "autograder" / f"{assignment}.ipynb", tmp_path / f"{name}_key.ipynb")
    scores = {}
    for name, folder in builds.items():
        reports = grading.grade(sorted(tmp_path.glob("*.ipynb")), folder / "autograder" / f"{assignment}-autograder.zip",
                                jobs=2)
        for path, report in reports.items():
            assert report["status"] == "ok", report
            scores[name, Path(path).stem] = sum(report["questions"].values())
    print(f"{assignment} scores (zip, key): {scores}")
    full = POINTS[assignment]
    assert scores["public", "public_key"] == scores["private", "private_key"] == full
    assert scores["private", "public_key"] <= full * 2 // 3


@pytest.mark.parametrize("assignment", [HW2, HW3])
def test_a_private_key_passes_its_own_public_checks(private, assignment):
    env = run(key_cells(private[assignment], assignment))
    for question in sorted({c.question for c in checks.checks(assignment).values()}):
        assert notebook_test(private[assignment], assignment, question, env)[0], question
        assert twin_test(assignment, question, env, PRIVATE_SECRET) == (True, ""), question


# ------------------------------------------------------------------------- formative checks

PROTOTYPE = "    return c_plus - c_minus, float(c_minus @ c_minus - c_plus @ c_plus) / 2"
MARGINS = "    return float(np.min(functional_margins(X, y, w, b)) / np.linalg.norm(w))"
POCKET_UPDATE = "w, b = w + y_i * x_i, b + y_i * c2"
BOUND = '    Z = augment(X)\n    return (radius(Z) / max_margin(Z, y, bias="none").gamma) ** 2'
POCKET_START = "    X, y = np.asarray(X, dtype=float), np.asarray(y)\n    w, b, c2"
LIBRARY_PREDICT = "    import perceptron\n    return perceptron.predict(X, w, b)\n    scores = np.asarray(X"
LIBRARY_POCKET = ("    from perceptron.pocket import pocket as p\n"
                  "    r = p(X, y, max_epochs=max_epochs, shuffle=False)\n    return r.w, r.b, r.errors\n")
# name: (assignment, question, edits, what both forms of the public test must say)
WRONG = {
    "hw2_sgn_zero_is_minus_one": (HW2, "q1", [("np.where(scores >= 0, 1, -1)", "np.where(scores > 0, 1, -1)")],
                                  "sgn(0) = +1"),
    "hw2_boolean_labels": (HW2, "q1", [("return np.where(scores >= 0, 1, -1)", "return scores >= 0")],
                           "integer labels -1 and +1"),
    "hw2_library_predict": (HW2, "q1", [("    scores = np.asarray(X", LIBRARY_PREDICT)], "calls perceptron"),
    "hw2_scores_not_margins": (HW2, "q2", [("    return y * (X @ w + b)", "    return X @ w + b")],
                               "multiply each by its label"),
    "hw2_closest_not_worst": (HW2, "q3", [(MARGINS, MARGINS.replace("np.min(functional_margins(X, y, w, b))",
                                                                    "np.min(np.abs(functional_margins(X, y, w, b)))"))],
                              "whatever its side"),
    "hw2_not_divided": (HW2, "q3", [(MARGINS, "    return float(np.min(functional_margins(X, y, w, b)))")],
                        "divide it by ||w||"),
    "hw2_flipped_prototype": (HW2, "q4", [(PROTOTYPE, PROTOTYPE.replace("c_plus - c_minus,", "c_minus - c_plus,"))],
                              "w points from c_+ to c_-"),
    "hw2_b_without_half": (HW2, "q4", [(PROTOTYPE, PROTOTYPE.removesuffix(" / 2"))], "twice too large"),
    "hw2_library_prototype": (HW2, "q4", [(PROTOTYPE, "    import perceptron\n    return perceptron.prototype(X, y)")],
                              "calls perceptron"),
    # 0/1 labels made in the caller's array: the answer is right, the caller's y is not.
    "hw2_relabels_y_in_place": (HW2, "q4", [("np.asarray(y)\n    c_plus", "np.asarray(y)\n    y[y == -1] = 0\n    c_plus"),
                                            ("(X[y == -1], axis=0)", "(X[y == 0], axis=0)")],
                                "changed the X or y it was given"),
    "hw3_column_norms": (HW3, "q1", [("np.linalg.norm(np.asarray(X, dtype=float), axis=1)",
                                      "np.linalg.norm(np.asarray(X, dtype=float), axis=0)")], "norm of every row"),
    "hw3_R_squared": (HW3, "q1", [("\nR = radius(X)", "\nR = radius(X) ** 2")], "R is not the radius"),
    "hw3_gamma_aug_with_a_bias": (HW3, "q2", [('gamma_aug = max_margin(augment(X), y, bias="none").gamma',
                                               "gamma_aug = max_margin(augment(X), y).gamma")], "through the origin"),
    "hw3_R_aug_not_augmented": (HW3, "q2", [("R_aug = radius(augment(X))", "R_aug = radius(X)")],
                                "R_aug does not agree with R"),
    "hw3_bound_of_the_data_as_they_are": (HW3, "q3", [(BOUND, "    return (radius(X) / max_margin(X, y).gamma) ** 2")],
                                          "for the data as they are"),
    "hw3_library_bound": (HW3, "q3", [(BOUND, "    import perceptron\n    return perceptron.mistake_bound(X, y)")],
                          "calls perceptron"),
    "hw3_inconsistent_conclusion": (HW3, "q4", [("bound_holds = bool(np.all(mistakes <= bounds))",
                                                 "bound_holds = not bool(np.all(mistakes <= bounds))")],
                                    "does not agree with your arrays"),
    "hw3_wrong_counts": (HW3, "q4", [("bound_holds = bool(", "mistakes = mistakes + 1\nbound_holds = bool(")],
                         "not those of this homework's perceptron"),
    "hw3_pocket_keeps_no_copy": (HW3, "q5", [(POCKET_UPDATE, "w += y_i * x_i\n                b = b + y_i * c2"),
                                             ("best_w, best_b, best_errors = w.copy(), float(b)",
                                              "best_w, best_b, best_errors = w, float(b)")],
                                 "did the pocket keep a copy?"),
    "hw3_pocket_takes_ties": (HW3, "q5", [("if errors < best_errors:", "if errors <= best_errors:")], "a tie"),
    "hw3_library_pocket": (HW3, "q5", [(POCKET_START, LIBRARY_POCKET + POCKET_START)], "calls perceptron"),
    # The sign trick (x_i <- y_i x_i) done in the caller's array.
    "hw3_pocket_flips_X_in_place": (HW3, "q5", [(POCKET_START, POCKET_START.replace("\n", "\n    X *= y[:, None]\n", 1))],
                                    "changed the array it was given"),
    # Issue 31: an earlier question's bug under a later question's right code: the later check names it.
    "hw2_margins_bug_named_in_q3": (HW2, "q3", [("    return y * (X @ w + b)", "    return X @ w + b")],
                                    "fix question 2 first"),
    "hw3_augment_bug_named_in_q3": (HW3, "q3", [("np.column_stack([X, np.ones(len(X))])",
                                                 "np.column_stack([X, np.full(len(X), 2.0)])")],
                                    "run question 2's check first"),
    "hw3_bound_bug_named_in_q4": (HW3, "q4", [(BOUND, BOUND.removesuffix(" ** 2"))], "run question 3's check first"),
}


@pytest.fixture(scope="module")
def public(hw2, hw3) -> dict[str, Path]:
    return {HW2: hw2, HW3: hw3}


@pytest.mark.parametrize("assignment", [HW2, HW3])
def test_the_answer_key_passes_every_public_check(public, assignment):
    env = run(key_cells(public[assignment], assignment))
    for question in sorted({c.question for c in checks.checks(assignment).values()}):
        assert notebook_test(public[assignment], assignment, question, env)[0], question
        assert twin_test(assignment, question, env) == (True, ""), question


@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_public_check_catches_a_common_wrong_answer_and_says_what_to_do(public, wrong):
    assignment, question, edits, reason = WRONG[wrong]
    cells = key_cells(public[assignment], assignment)
    for old, _ in edits:
        assert sum(c.count(old) for c in cells) == 1, f"edit target not unique: {old!r}"
    env = run(cells, tuple(edits))
    for passed, message in (notebook_test(public[assignment], assignment, question, env),
                            twin_test(assignment, question, env)):
        assert not passed, f"{wrong}: the public check of {question} passed"
        assert reason in message, message
    if question == "q4" and assignment == HW3:  # the right counts are not in the feedback
        right = run(key_cells(public[assignment], assignment))["mistakes"]
        feedback = notebook_test(public[assignment], assignment, question, env)[1] + twin_test(assignment, question,
                                                                                               env)[1]
        assert str(int(np.sum(right))) not in feedback and str(list(right))[1:20] not in feedback


# ---------------------------------------------------------------------------- constant answers


def constant_answers(assignment: str, k: int) -> dict:
    """Every function answers a constant and every variable is a guess (``k`` picks which)."""
    if assignment == HW2:
        return {"predict": lambda X, w, b: np.full(len(X), (1, -1)[k]),
                "functional_margins": lambda X, y, w, b: np.full(len(y), float(k)),
                "geometric_margin": lambda X, y, w, b: (0.5, -1.0)[k],
                "prototype_classifier": lambda X, y: (np.ones(np.shape(X)[1]), float(k))}
    return {"radius": lambda X: (5.0, 1.0)[k], "R": (5.0, 1.0)[k], "gamma": 0.1, "R_aug": 5.1, "gamma_aug": 0.05,
            "augment": lambda X: np.ones((len(X), np.shape(X)[1] + 1)), "novikoff_bound": lambda X, y: 100.0,
            "mistakes": np.full(20, 10), "bounds": np.full(20, 100.0), "bound_holds": True, "tightness": 0.1,
            "pocket": lambda X, y, max_epochs=50: (np.zeros(np.shape(X)[1]), 0.0, (len(y), 0)[k])}


@pytest.mark.parametrize("secret", [checks.PUBLIC_SECRET, PRIVATE_SECRET])
@pytest.mark.parametrize("k", [0, 1])
@pytest.mark.parametrize("assignment", [HW2, HW3])
def test_constant_answers_earn_nothing_from_the_hidden_tests(assignment, k, secret):
    env = constant_answers(assignment, k)
    assert sum(c.hidden for c in checks.checks(assignment).values()) == (8 if assignment == HW2 else 9)
    assert hidden_passed(assignment, env, secret) == []


# ----------------------------------------------------------------------------- data in one place


def test_homework_3s_data_live_in_one_place(monkeypatch):
    """Changing homework 3's dataset in checks.hw3_convergence changes the notebook and the tests."""
    from perceptron_homework.checks import hw3_convergence as hw3

    monkeypatch.setattr(hw3, "PUBLIC", {**hw3.PUBLIC, "seed": 12, "q4_first": 5})
    monkeypatch.setattr(checks, "_variants", {})
    v = checks.variant(HW3, checks.PUBLIC_SECRET)
    notebook = render_master(MASTERS / f"{HW3}.ipynb", v)
    assert "make_separable(50, margin=0.1, seed=12)" in notebook and "seed=11" not in notebook
    assert "seeds = range(5, 5 + 20)" in notebook
    X_new, _ = hw3.make_separable(50, margin=0.1, seed=12)
    X_old, _ = hw3.make_separable(50, margin=0.1, seed=11)
    checks.run_here(HW3, "test_R_of_the_given_data", {"R": hw3.perceptron.radius(X_new)}, secret=checks.PUBLIC_SECRET)
    with pytest.raises(AssertionError, match="R is not the radius"):
        checks.run_here(HW3, "test_R_of_the_given_data", {"R": hw3.perceptron.radius(X_old)},
                        secret=checks.PUBLIC_SECRET)


def test_homework_2s_data_live_in_one_place(monkeypatch):
    from perceptron_homework.checks import hw2_linear_classifiers as hw2

    monkeypatch.setattr(hw2, "PUBLIC", {**hw2.PUBLIC, "demo_seed": 9})
    monkeypatch.setattr(checks, "_variants", {})
    notebook = render_master(MASTERS / f"{HW2}.ipynb", checks.variant(HW2, checks.PUBLIC_SECRET))
    assert "make_separable(60, margin=0.1, seed=9)" in notebook and "seed=5)" not in notebook
