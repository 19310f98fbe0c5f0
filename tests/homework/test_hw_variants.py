"""Every variant agrees with itself: a student who codes each stub from its docstring gets full marks.

Issue 31: under a private secret, homework 1's conventions said the bias is not learned while the
stubs kept the public docstrings ("Return (w + eta y x, b + eta y)."), and a student who followed
them scored 6/15. Here, for several secrets of every homework, the master is rendered as the build
renders it (no ``otter assign``: the text is what the student notebook shows), and a *literal
student* writes every stub whose answer depends on the variant from the rule its docstring states
(:data:`STUDENT`: each rule a docstring may state, and the code it asks for). The rendered
notebook's cells then run with those answers, and every public test (the notebook's and its twin in
``perceptron_homework.checks``) and every hidden test must pass. A stub whose answer changes with
the variant but whose docstring states no rule of :data:`STUDENT` fails the test.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from perceptron_homework import checks
from perceptron_homework.build import render_master
from tests.support.homework_cells import twin_test

ROOT = Path(__file__).resolve().parents[2]
MASTERS = ROOT / "notebooks" / "homework"
# Secrets that between them pick every rule of every homework (checked below).
SECRETS = (checks.PUBLIC_SECRET, "a private secret", "s1", "s2", "s7", "course 2027")

pytestmark = pytest.mark.filterwarnings("ignore:Traits should be given as instances:DeprecationWarning")

PROTOTYPE = """X, y = np.asarray(X, dtype=float), np.asarray(y)
c_plus, c_minus = {center}(X[y == 1], axis=0), {center}(X[y == -1], axis=0)
return c_plus - c_minus, float(c_minus @ c_minus - c_plus @ c_plus) / 2"""
POCKET = """X, y = np.asarray(X, dtype=float), np.asarray(y)
w, b, c2 = np.zeros(X.shape[1]), 0.0, {c2}
best_w, best_b, best_errors = w.copy(), b, len(y)
for _ in range(max_epochs):
    clean = True
    for x_i, y_i in zip(X, y):
        if y_i * (x_i @ w + b) <= 0:
            w, b, clean = w + y_i * x_i, b + y_i * c2, False
            errors = int(np.count_nonzero(y * (X @ w + b) <= 0))
            if {takes}:
                best_w, best_b, best_errors = w.copy(), float(b), errors
    if clean:
        break
return best_w, best_b, best_errors"""
MULTICLASS = """W, x = np.array(W, dtype=float), np.asarray(x, dtype=float)
scores = W @ x
others = [r for r in range(len(scores)) if r != y]
top = max(scores[r] for r in others)
if not ({mistake}):
    return W, False
rival = [r for r in others if scores[r] == top][{index}]
W[y] += x
W[rival] -= x
return W, True"""
CONFUSION = """C = np.zeros((n_classes, n_classes), dtype=int)
for t, p in zip(y_true, y_pred):
    C[{index}] += 1
return C"""
BACKPROP = """h, f = forward(params, x)
s = -y / (1.0 + np.exp(y * f))
g = s * np.asarray(params["w"]) * ({derivative})
return {{"V": np.outer(g, x), "beta": g, "w": s * h, "b": float(s)}}"""

# function -> {what its docstring may say (a phrase, or phrases all said): the body a student writes from it}
STUDENT = {
    "hw1_perceptron": {
        "is_mistake": {
            "y (w . x + b) <= 0": "return bool(y * (np.dot(w, x) + b) <= 0)",
            "y != sgn(w . x + b), with sgn(0) = +1": "return bool(y != (1 if np.dot(w, x) + b >= 0 else -1))",
        },
        "update": {
            "(w + eta y x, b + eta y)": "return w + eta * y * np.asarray(x, dtype=float), b + eta * y",
            "(w + eta y x, b)": "return w + eta * y * np.asarray(x, dtype=float), b",
        },
    },
    "hw2_linear_classifiers": {
        "predict": {
            "sgn(0) = +1": "scores = np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + b\n"
                           "return np.where(scores >= 0, 1, -1)",
            "sgn(0) = -1": "scores = np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + b\n"
                           "return np.where(scores > 0, 1, -1)",
        },
        "geometric_margin": {
            "/ ||w||": "return float(np.min(functional_margins(X, y, w, b)) / np.linalg.norm(w))",
            "/ ||(w, b)||": "return float(np.min(functional_margins(X, y, w, b)) / np.linalg.norm(np.append(w, b)))",
        },
        "prototype_classifier": {
            "the class means": PROTOTYPE.format(center="np.mean"),
            "the class coordinate-wise medians": PROTOTYPE.format(center="np.median"),
        },
    },
    "hw3_convergence": {
        "augment": {
            "a column of ones": "X = np.asarray(X, dtype=float)\nreturn np.column_stack([X, np.ones(len(X))])",
            "a column equal to radius(X)": "X = np.asarray(X, dtype=float)\n"
                                           "return np.column_stack([X, np.full(len(X), radius(X))])",
        },
        "pocket": {
            (bias, ties): POCKET.format(c2=c2, takes=takes)
            for bias, c2 in (("b <- b + y;", "1.0"), ("b <- b + y R**2, with R = radius(X);", "radius(X) ** 2"))
            for ties, takes in (("only when they make strictly fewer errors", "errors < best_errors"),
                                ("when they make fewer errors or as many", "errors <= best_errors"))
        },
    },
    "hw4_multiclass_networks": {
        "multiclass_update": {
            (rule, tie): MULTICLASS.format(mistake=mistake, index=index)
            for rule, mistake in (("scores[y] <= the best score of another class", "scores[y] <= top"),
                                  ("argmax(scores) != y", "int(np.argmax(scores)) != y"))
            for tie, index in (("the earlier one on a tie", 0), ("the later one on a tie", -1))
        },
        "confusion": {
            "of true class i predicted j": CONFUSION.format(index="t, p"),
            "predicted i whose true class is j": CONFUSION.format(index="p, t"),
        },
        "lms_step": {
            "(w + eta e x, b + eta e)": "e = y - (np.dot(w, x) + b)\n"
                                        "return w + eta * e * np.asarray(x, dtype=float), b + eta * e",
            "(w + 2 eta e x, b + 2 eta e)": "e = y - (np.dot(w, x) + b)\n"
                                            "return w + 2 * eta * e * np.asarray(x, dtype=float), b + 2 * eta * e",
        },
        "backprop": {
            "1 - h**2": BACKPROP.format(derivative="1.0 - h * h"),
            "h (1 - h)": BACKPROP.format(derivative="h * (1.0 - h)"),
        },
    },
}


def says(rule: str | tuple[str, ...], docstring: str) -> bool:
    """Whether ``docstring`` states ``rule`` (every phrase of it)."""
    return all(phrase in docstring for phrase in ((rule,) if isinstance(rule, str) else rule))


def rendered(assignment: str, secret: str) -> dict:
    return json.loads(render_master(MASTERS / f"{assignment}.ipynb", checks.variant(assignment, secret)))


def source(cell: dict) -> str:
    return "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]


STUB = re.compile(r'^def (\w+)\(.*?\):\n    """(.*?)"""\n    # BEGIN SOLUTION\n(.*?)    # END SOLUTION',
                  re.DOTALL | re.MULTILINE)


def stubs(nb: dict) -> dict[str, tuple[str, str]]:
    """Every function a student writes: name -> (docstring, the answer key's body)."""
    return {m[1]: (" ".join(m[2].split()), m[3]) for c in nb["cells"] if c["cell_type"] == "code"
            for m in STUB.finditer(source(c))}


def literal_answer(assignment: str, name: str, docstring: str) -> str | None:
    """What the literal student writes for ``name`` from its docstring (None: the key's body)."""
    rules = STUDENT.get(assignment, {}).get(name)
    if rules is None:
        return None
    said = [rule for rule in rules if says(rule, docstring)]
    assert len(said) == 1, f"{assignment}, {name}: the docstring {docstring!r} states {len(said)} known rules"
    return "    " + rules[said[0]].replace("\n", "\n    ") + "\n"


@pytest.mark.parametrize("assignment", checks.ASSIGNMENTS)
def test_the_secrets_pick_every_rule_and_every_variant_dependent_stub_has_a_stated_rule(assignment):
    keys = {secret: stubs(rendered(assignment, secret)) for secret in SECRETS}
    varying = {name for name in keys[checks.PUBLIC_SECRET]
               if len({body for key in keys.values() for body in [key[name][1]]}) > 1}
    assert varying <= set(STUDENT.get(assignment, {})), (
        f"{assignment}: the answers of {sorted(varying - set(STUDENT.get(assignment, {})))} change with the "
        "variant, and the literal student has no rule for them")
    for name, rules in STUDENT.get(assignment, {}).items():
        phrases = {phrase for rule in rules for phrase in ((rule,) if isinstance(rule, str) else rule)}
        stated = {phrase for key in keys.values() for phrase in phrases if phrase in key[name][0]}
        assert stated == phrases, f"{assignment}, {name}: the secrets never pick {phrases - stated}"


def answer_cells(assignment: str, secret: str) -> list[str]:
    """The rendered notebook's code cells, with each variant-dependent stub written from its docstring."""
    cells = []
    for cell in rendered(assignment, secret)["cells"]:
        text = source(cell)
        if cell["cell_type"] != "code" or text.startswith("# Setup:") or "BEGIN TEST CONFIG" in text:
            continue

        def write(m: re.Match) -> str:
            body = literal_answer(assignment, m[1], " ".join(m[2].split()))
            return m[0] if body is None else m[0].replace(m[3], body)

        cells.append(STUB.sub(write, text))
    return cells


def run_cells(cells: list[str]) -> tuple[dict, list[str]]:
    """Run the cells in one namespace; the public test cells' failures are collected, not raised."""
    env: dict = {"__name__": "__main__"}
    failed = []
    for text in cells:
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                exec(compile(text, "<cell>", "exec"), env)  # noqa: S102 - a notebook cell
        except AssertionError as exc:
            if not text.startswith("def test_"):
                raise
            failed.append(f"{text.split('(', 1)[0][4:]}: {exc}")
    return env, failed


@pytest.mark.parametrize("secret", SECRETS)
@pytest.mark.parametrize("assignment", checks.ASSIGNMENTS)
def test_a_student_who_follows_the_docstrings_gets_full_marks(assignment, secret):
    env, failed = run_cells(answer_cells(assignment, secret))
    assert failed == [], f"{assignment} under {secret!r}: the notebook's public tests fail: {failed}"
    tests = checks.checks(assignment)
    for question in sorted({c.question for c in tests.values() if not c.hidden}):
        assert twin_test(assignment, question, env, secret) == (True, ""), (assignment, secret, question)
    failed = []
    for name, check in tests.items():
        if check.hidden:
            try:  # in the notebook's own namespace, where the grader's patches reach the student's functions
                checks.run_here(assignment, name, env, secret=secret)
            except AssertionError as exc:
                failed.append(f"{name}: {exc}")
    assert failed == [], f"{assignment} under {secret!r}: hidden tests fail: {failed}"


@pytest.mark.parametrize("assignment", checks.ASSIGNMENTS)
def test_no_variant_credits_the_cmu_notes_with_a_proof_they_do_not_give(assignment):
    """Issue 34: homework 3's private variants said "the CMU notes prove (2R/gamma*)^2"; the notes
    (CMU 36-350, 2009) state that theorem without its proof."""
    for secret in SECRETS:
        text = json.dumps(rendered(assignment, secret))
        assert not re.search(r"CMU notes (prove|show|derive)", text), (assignment, secret)


def test_every_student_notebook_carries_the_cc_by_notice_of_the_citation_file(tmp_path_factory):
    """Issue 31: the homework notebooks carried no licence notice. The notice names the title and the
    holder that CITATION.cff and LICENSE-TEXT name, and the licence CC BY 4.0 with its link."""
    import yaml

    from perceptron_homework.build import HOLDER, TITLE
    from tests.support.homework_builds import homework_build

    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert TITLE == citation["title"] and [HOLDER] == [a["name"] for a in citation["authors"]]
    assert "CC-BY-4.0" in citation["license"]
    assert f"Copyright (c) 2026 {HOLDER}." in (ROOT / "LICENSE-TEXT").read_text(encoding="utf-8")
    for assignment in checks.ASSIGNMENTS:
        nb = json.loads((homework_build(tmp_path_factory, assignment) / "student" / f"{assignment}.ipynb").read_text())
        notices = [source(c) for c in nb["cells"] if c["cell_type"] == "markdown" and "CC BY 4.0" in source(c)]
        assert len(notices) == 1, assignment
        assert TITLE in notices[0] and HOLDER in notices[0], notices[0]
        assert "https://creativecommons.org/licenses/by/4.0/" in notices[0] and "MIT" in notices[0]
        first = next(i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "markdown")
        assert "CC BY 4.0" in source(nb["cells"][first + 1]), f"{assignment}: the notice is not under the title"
