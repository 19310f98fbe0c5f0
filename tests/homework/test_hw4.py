"""Homework 4 (several classes, networks): its variants, its formative public checks, constant answers.

The tests of tests/homework/test_homework.py run on homework 4 as on the others (they parametrise
over ``checks.ASSIGNMENTS``); these are the ones homework 1 has in test_formative_checks.py and
test_publishing.py. Each common wrong answer below is planted in the answer key that ``otter
assign`` writes, the notebook's cells are run in this process, and both forms of the question's
public test must fail with a message that names the problem and does not give the answer away:
the one in the student notebook (what ``grader.check`` runs) and its twin in
``perceptron_homework.checks`` (what grading runs).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import nbformat
import numpy as np
import pytest

from perceptron_homework import checks, grading
from perceptron_homework.checks import hw4_multiclass_networks as hw4
from tests.support.homework_builds import homework_build
from tests.support.homework_cells import hidden_passed, key_cells, notebook_test, run, twin_test

ROOT = Path(__file__).resolve().parents[2]
MASTERS = ROOT / "notebooks" / "homework"
HW4 = hw4.ASSIGNMENT
PRIVATE = 'Tulip$Rose&"8831'

pytestmark = pytest.mark.filterwarnings("ignore:Traits should be given as instances:DeprecationWarning")


@pytest.fixture(scope="module")
def variants(tmp_path_factory) -> dict[str, Path]:
    """Homework 4 built twice, as `make homework PUBLIC=1` and under a private secret (shared builds)."""
    return {"public": homework_build(tmp_path_factory, HW4),
            "private": homework_build(tmp_path_factory, HW4, secret=PRIVATE)}












# ------------------------------------------------------------------------------ variants of the task


def test_every_private_variant_changes_every_rule_deterministically():
    public = checks.variant(HW4, checks.PUBLIC_SECRET)
    assert (public["rule"], public["tie"], public["rows"], public["lms_factor"], public["activation"]) == (
        "margin", "earlier", "true", 1, "tanh")
    seen = set()
    for k in range(12):
        v = checks.variant(HW4, f"secret {k}")
        assert v == checks.variant(HW4, f"secret {k}")  # a function of the secret
        assert (v["rule"], v["tie"]) != ("margin", "earlier")
        assert (v["rows"], v["lms_factor"], v["activation"]) == ("predicted", 2, "sigmoid")
        assert v["points_seed"] != public["points_seed"] and hw4._fits(v)
        seen.add((v["rule"], v["tie"]))
    assert seen == set(hw4.PRIVATE_RULES)


def test_the_public_data_are_the_books_and_the_reference_is_the_packages():
    """Under the book's rules the grader's reference loop is ``perceptron.multiclass_train`` (bias "one")."""
    import perceptron

    v = checks.variant(HW4, checks.PUBLIC_SECRET)
    assert hw4._fits(v)
    assert {k: v[k] for k in hw4.BOOK_RULES} == hw4.BOOK_RULES  # the public variant is the book's rules
    X, y = hw4.points_data(v)
    V, mistakes = hw4.train_ref(X, y, 3, v)
    run_ = perceptron.multiclass_train(X, y)
    assert mistakes == run_.mistakes == 5 and np.array_equal(V, np.column_stack([run_.W, run_.b]))
    rng = np.random.default_rng(0)
    for K, d in ((3, 2), (5, 4)):
        Xr, yr = hw4._multiclass_data(rng, 40, K, d)
        V, mistakes = hw4.train_ref(Xr, yr, K, v)
        run_ = perceptron.multiclass_train(Xr, yr)
        assert mistakes == run_.mistakes and np.allclose(V, np.column_stack([run_.W, run_.b]))
    p, x, y1 = hw4.net_data(v)
    net = perceptron.TwoLayerNetwork(V=p["V"], beta=p["beta"], w=p["w"], b=p["b"])
    g = perceptron.network_gradient(net, [x], [y1])
    ours = hw4.backprop_ref(p, x, y1, "tanh")
    assert np.allclose(g.V, ours["V"]) and np.allclose(g.beta, ours["beta"]) and np.allclose(g.w, ours["w"])
    assert np.isclose(g.b, ours["b"])


def test_the_student_notebook_states_its_variants_task(variants):
    public = (variants["public"] / "student" / f"{HW4}.ipynb").read_text()
    private = (variants["private"] / "student" / f"{HW4}.ipynb").read_text()
    v = checks.variant(HW4, PRIVATE)
    assert "{{" not in public and "{{" not in private and "Tulip" not in private
    public_v = checks.variant(HW4, checks.PUBLIC_SECRET)
    changed = [k for k in ("rule_text", "tie_text", "rows_text", "lms_text", "activation_text") if v[k] != public_v[k]]
    assert len(changed) >= 4
    for key in changed:
        assert json.dumps(v[key])[1:-1] in private and json.dumps(v[key])[1:-1] not in public, key
    assert v["points_X"] in private and f"random_state={v['line_seed']}" in private


def test_the_public_masters_code_fails_a_private_variant(variants, tmp_path):
    keys = tmp_path / "keys"
    keys.mkdir()
    for name, folder in variants.items():
        shutil.copy(folder / "autograder" / f"{HW4}.ipynb", keys / f"{name}_key.ipynb")
    scores = {}
    for name, folder in variants.items():
        reports = grading.grade(sorted(keys.glob("*.ipynb")), folder / "autograder" / f"{HW4}-autograder.zip", jobs=2)
        for path, report in reports.items():
            assert report["status"] == "ok", report
            scores[name, Path(path).stem] = sum(report["questions"].values())
    print(f"hw4 scores (zip, key): {scores}")
    assert scores["public", "public_key"] == scores["private", "private_key"] == 16
    assert scores["private", "public_key"] <= 4  # the public master's solutions lose nearly everything
    assert scores["public", "private_key"] <= 4


def cell_text(built: Path, start: str, stop: str) -> str:
    """The student notebook's cells from the one starting with ``start`` up to the one starting with ``stop``."""
    sources = [c.source for c in nbformat.read(built / "student" / f"{HW4}.ipynb", as_version=4).cells]
    first = next(i for i, s in enumerate(sources) if s.startswith(start))
    last = next(i for i, s in enumerate(sources) if s.startswith(stop))
    return "\n".join(sources[first:last])


def test_the_conventions_name_every_difference_from_the_book_and_only_those(variants):
    """No hunting for differences that are not there: the list names the storage, and each rule the variant
    changes from the book's (chapters 9 and 10), public or private."""
    for name, secret in (("public", checks.PUBLIC_SECRET), ("private", PRIVATE)):
        v = checks.variant(HW4, secret)
        intro = cell_text(variants[name], "# Homework 4", "import numpy")
        assert "can differ from the book" not in intro and hw4.STORAGE_TEXT in intro
        assert "matrix `W` with the bias as its last entry" in intro and "numbered $0, 1" in intro
        for rule, book in hw4.BOOK_RULES.items():
            assert (hw4.DIFFERENCE_TEXT[rule] in intro) == (v[rule] != book), (name, rule)
    for k in range(6):  # every private variant lists what it changes, and the public one nothing but the storage
        v = checks.variant(HW4, f"secret {k}")
        changed = [r for r, book in hw4.BOOK_RULES.items() if v[r] != book]
        assert v["differences_text"].count("\n- ") == len(changed) >= 4
    assert checks.variant(HW4, checks.PUBLIC_SECRET)["differences_text"] == f"- {hw4.STORAGE_TEXT}"


def test_the_class_weights_and_the_hidden_weights_keep_the_chapters_symbols(variants):
    """Questions 1-4 call the class weights W (chapter 9's matrix), question 5 the hidden weights V
    (chapter 10's): no letter means two things."""
    def chapter(name):
        return "".join("".join(c["source"]) for c in json.loads((ROOT / "notebooks" / name).read_text())["cells"])

    hidden = re.search(r"hidden weights \$(\w) \\in", chapter("10_networks.ipynb")).group(1)
    classes = re.search(r"Only two rows of \$(\w)\$ change", chapter("09_multiclass.ipynb")).group(1)
    assert (classes, hidden) == ("W", "V")
    for name in variants:
        q1_to_q4 = cell_text(variants[name], "**Question 1.**", "**Question 5.**")
        q5 = cell_text(variants[name], "**Question 5.**", "<!-- BEGIN QUESTION")
        tests = json.loads((variants[name] / "student" / f"{HW4}.ipynb").read_text())["metadata"]["otter"]["tests"]
        q1_to_q4 += "\n".join(tests[q] for q in ("q1", "q2", "q3", "q4"))  # the public checks and their messages
        assert not re.search(rf"\b{hidden}\b", q1_to_q4) and len(re.findall(rf"\b{classes}\b", q1_to_q4)) >= 10
        assert f'params["{hidden}"]' in q5 and f"({hidden} x + \\beta)" in q5
    assert "array W it was given" in hw4.IN_PLACE_UPDATE


def test_the_hidden_tests_want_the_gradient_of_b_as_a_number(variants):
    """The gradients have the keys and shapes of params: b a number, not an array of shape (1,)."""
    cells = key_cells(variants["public"], HW4)
    for edits, fails in (
        ([(BACKPROP_RETURN, BACKPROP_RETURN.replace("float(s)", "np.array([s])"))],
         {"test_forward_and_backprop_match_reference"}),
        ([("grad[name] = g if value.ndim else float(g)", "grad[name] = g if value.ndim else g.reshape(1)")],
         {"test_numeric_gradient_differentiates_point_loss", "test_gradient_gap_is_measured"}),
    ):
        env = run(cells, tuple(edits))
        hidden = {n for n, c in checks.checks(HW4).items() if c.hidden}
        assert hidden - set(hidden_passed(HW4, env, checks.PUBLIC_SECRET)) == fails


# -------------------------------------------------------------------------- formative public checks

UPDATE_COPY = "W, x = np.array(W, dtype=float), np.asarray(x, dtype=float)"
TRAIN_BODY = "    X = np.asarray(X, dtype=float)\n    Xt = np.column_stack"
TRAIN_LOOP = "        for x_i, y_i in zip(Xt, y):\n"
LMS_RETURN = "return w + step * e * np.asarray(x, dtype=float), b + step * e"
LMS_ERROR = "    e = y - (np.dot(w, x) + b)\n"
NUMERIC_MOVE = "            moved = value.copy()\n"
BACKPROP_RETURN = 'return {"V": np.outer(g, x), "beta": g, "w": s * h, "b": float(s)}'
# Each wrong answer: its question, the edits that plant it, and the words its feedback must contain.
WRONG = {
    "in_place_update": ("q1", [(UPDATE_COPY, "W, x = np.asarray(W), np.asarray(x, dtype=float)")],
                        "changed the array W it was given"),
    "later_class_on_a_tie": ("q1", [("rival = tied[0]", "rival = tied[-1]")], "which class is the rival on a tie"),
    "tie_is_no_mistake": ("q1", [("if not (scores[y] <= top)", "if not (scores[y] < top)")],
                          "read the mistake rule again"),
    "own_class_not_updated": ("q1", [("W[y] += x", "W[y] += 0 * x")], "the own class's row W[1] gains x"),
    # A wrong update makes q2's count wrong too: its check says to fix q1 first, not something about the loop.
    "wrong_rule_in_training": ("q2", [("rival = tied[0]", "rival = tied[-1]")], "fix q1's multiclass_update first"),
    "tie_is_no_mistake_in_training": ("q2", [("if not (scores[y] <= top)", "if not (scores[y] < top)")],
                                      "fix q1's multiclass_update first"),
    "points_in_reverse_order": ("q2", [(TRAIN_LOOP, "        for x_i, y_i in zip(Xt[::-1], y[::-1]):\n")],
                                "wrong number of mistakes"),
    "guessed_count": ("q2", [("W_points, points_mistakes = train_multiclass(X_points, y_points, 3)",
                              "W_points, points_mistakes = train_multiclass(X_points, y_points, 3)[0], 4")],
                      "is not the count train_multiclass returned"),
    "library_trainer": ("q2", [(TRAIN_BODY, "    import perceptron as pc\n    r = pc.multiclass_train(X, y, "
                                "max_epochs=max_epochs)\n    return np.column_stack([r.W, r.b]), r.mistakes\n"
                                + TRAIN_BODY)], "yourself"),
    "transposed_confusion": ("q3", [("C[t, p] += 1", "C[p, t] += 1")], "the wrong way round"),
    "inconsistent_answers": ("q3", [("ova_errors = int(ova_confusion.sum() - np.trace(ova_confusion))",
                                     "ova_errors = int(np.trace(ova_confusion))")], "does not agree with your"),
    "in_place_lms_step": ("q4", [(LMS_RETURN, "w += step * e * np.asarray(x, dtype=float)\n    return w, b + step * e")],
                          "changed the array w it was given"),
    "perceptron_rule_in_lms": ("q4", [(LMS_ERROR, LMS_ERROR + "    if y * (np.dot(w, x) + b) > 0:\n        return w, b\n")],
                               "LMS steps on every point"),
    "lms_step_of_the_other_loss": ("q4", [("step = eta", "step = 2 * eta")], "twice the length this homework's loss"),
    "lms_bias_not_updated": ("q4", [(LMS_RETURN, "return w + step * e * np.asarray(x, dtype=float), b")],
                             "the bias steps like a weight"),
    "numeric_gradient_in_place": ("q5", [(NUMERIC_MOVE, "            moved = params[name] if value.ndim else value.copy()\n")],
                                  "changed the parameters it was given"),
    # backprop off on the hidden layer: the feedback names the parameter and says which function looks wrong.
    "wrong_derivative": ("q5", [("(1.0 - h * h)", "(1.0 - h)")],
                         ("disagree most on the entries of 'V' (by 1.2e+00; gradient_gap should be below 1e-6). "
                          "A finite difference of point_loss along that parameter agrees with numeric_gradient, not "
                          "with backprop: backprop looks wrong")),
    "backprop_of_w_forgets_h": ("q5", [(BACKPROP_RETURN, BACKPROP_RETURN.replace('"w": s * h', '"w": s * np.ones_like(h)'))],
                                "disagree most on the entries of 'w'"),
    "numeric_gradient_divides_by_eps": ("q5", [("g[i] = (plus - minus) / (2 * eps)", "g[i] = (plus - minus) / eps")],
                                        "numeric_gradient looks wrong. Check how it moves each entry of 'V'"),
    "backprop_b_is_an_array": ("q5", [(BACKPROP_RETURN, BACKPROP_RETURN.replace('float(s)', 'np.array([s])'))],
                               "backprop(...)['b'] has shape (1,): it should be a number"),
    "numeric_b_is_an_array": ("q5", [("grad[name] = g if value.ndim else float(g)", "grad[name] = g if value.ndim else g.reshape(1)")],
                              "numeric_gradient(...)['b'] has shape (1,): it should be a number"),
}
# The answers a failed public check must not show: the expected arrays of q1 and q4 (under either
# secret), the right counts of q2 and q3.
PUBLIC_V = checks.variant(HW4, checks.PUBLIC_SECRET)
ANSWERS = [PUBLIC_V["q1_V"], PUBLIC_V["q4_w"], re.compile(r"\b(5|22)\b")]


def test_the_answer_key_passes_every_public_check(variants):
    env = run(key_cells(variants["public"], HW4))
    for question in ("q1", "q2", "q3", "q4", "q5"):
        assert notebook_test(variants["public"], HW4, question, env)[0], question
        assert twin_test(HW4, question, env) == (True, ""), question


@pytest.mark.parametrize("wrong", sorted(WRONG))
def test_public_check_catches_a_common_wrong_answer_without_giving_it_away(variants, wrong):
    question, edits, reason = WRONG[wrong]
    cells = key_cells(variants["public"], HW4)
    for old, _ in edits:
        assert sum(c.count(old) for c in cells) == 1, f"edit target not unique: {old!r}"
    env = run(cells, tuple(edits))
    messages = []
    for passed, message in (notebook_test(variants["public"], HW4, question, env), twin_test(HW4, question, env)):
        assert not passed, f"{wrong}: the public check of {question} passed"
        assert reason in message, message
        if question in ("q1", "q2", "q3", "q4"):  # no expected array, count or value
            assert not any(re.search(a, message) if isinstance(a, re.Pattern) else a in message for a in ANSWERS)
        messages.append(message)
    if wrong != "library_trainer":  # (the grader's watch on calls words its own message)
        assert messages[1] in messages[0]  # the notebook's check (in otter's frame) and its twin say the same


CONSTANT_ANSWERS = """
def multiclass_update(V, x, y):
    return np.array(V, dtype=float), {mistake}
def train_multiclass(X, y, n_classes, max_epochs=1000):
    return np.zeros((n_classes, np.shape(X)[1] + 1)), 5
def confusion(y_true, y_pred, n_classes):
    return np.eye(n_classes, dtype=int) * 20
def lms_step(x, y, w, b, eta):
    return np.array(w, dtype=float), b
def forward(params, x):
    return np.zeros(len(params["beta"])), 0.0
def backprop(params, x, y):
    return {{k: np.zeros(np.shape(v)) for k, v in params.items()}}
def numeric_gradient(params, x, y, eps=1e-6):
    return {{k: np.zeros(np.shape(v)) for k, v in params.items()}}
"""


@pytest.mark.parametrize("secret", [checks.PUBLIC_SECRET, "a private secret"])
@pytest.mark.parametrize("mistake", [True, False])
def test_constant_answers_earn_nothing_from_the_hidden_tests(mistake, secret):
    env: dict = {"np": np}
    exec(CONSTANT_ANSWERS.format(mistake=mistake), env)  # noqa: S102 - the answer cells
    env.update(points_mistakes=5, ova_confusion=np.eye(3, dtype=int) * 20, ova_errors=0, gradient_gap=1e-9)
    hidden = [n for n, c in checks.checks(HW4).items() if c.hidden]
    assert len(hidden) == 13
    assert hidden_passed(HW4, env, secret) == []


def test_the_hidden_tests_can_pass_and_aim_at_their_question(variants):
    """The public key passes all 13 hidden tests; with the LMS step of the other loss put in, it
    fails exactly q4's three."""
    key = run(key_cells(variants["public"], HW4))
    hidden = {n for n, c in checks.checks(HW4).items() if c.hidden}
    assert set(hidden_passed(HW4, key, checks.PUBLIC_SECRET)) == hidden
    exec("def lms_step(x, y, w, b, eta):\n    e = y - (np.dot(w, x) + b)\n"  # noqa: S102 - an answer cell
         "    return w + 2 * eta * e * np.asarray(x, dtype=float), b + 2 * eta * e\n", key)
    failed = hidden - set(hidden_passed(HW4, key, checks.PUBLIC_SECRET))
    assert failed == {n for n in hidden if checks.checks(HW4)[n].question == "q4"}


# ----------------------------------------------------------------- the student notebook as handed out
