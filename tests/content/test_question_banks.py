"""The instructor question banks: counted, well-formed, and every stated number recomputed.

Each bank (book/instructor/bank_NN.md) has concept questions `### QN.k` with options A-D, one
answer and a misconception for each wrong option, and exam problems `### EN.k` with a worked
solution and a marking scheme whose points add up to the stated total. The numeric checks run the
`perceptron` package on the problems' data and look for the results in the text, so a bank that
states a wrong number fails here.
"""

from __future__ import annotations

import math
import re
import shutil

import numpy as np
import pytest

import perceptron as pc
from coursebook import CHAPTERS, ROOT, bank_numbers, banks

BANKS = sorted((ROOT / "book" / "instructor").glob("bank_*.md"))
NUMBERS = [int(p.stem[:2]) for p in CHAPTERS]    # a bank per chapter, numbered as its chapter


def bank(number: int) -> str:
    return (ROOT / "book" / "instructor" / f"bank_{number:02d}.md").read_text(encoding="utf-8")


def items(text: str, kind: str) -> dict[str, str]:
    """Map 'Q1.3' (or 'E1.3') to the text of that item, up to the next heading."""
    parts = re.split(r"^(#{2,3} .*)$", text, flags=re.MULTILINE)
    found = {}
    for heading, body in zip(parts[1::2], parts[2::2]):
        match = re.match(rf"### ({kind}\d+\.\d+):", heading)
        if match:
            found[match.group(1)] = body
    return found


def test_one_bank_per_chapter_in_the_toc():
    assert [p.stem for p in BANKS] == [f"bank_{i:02d}" for i in NUMBERS]
    toc = (ROOT / "_toc.yml").read_text()
    for path in BANKS:
        assert f"book/instructor/{path.stem}" in toc
    for number, chapter in zip(NUMBERS, CHAPTERS):
        assert f"notebooks/{chapter.stem}" in bank(number), f"bank {number} does not link its chapter"


@pytest.mark.parametrize("number", NUMBERS)
def test_concept_questions_have_an_answer_and_a_misconception_per_distractor(number):
    """Read by the one bank reader (coursebook.banks) that the slides and the exports use."""
    questions = banks.parse(bank(number), number)
    assert len(questions) >= 6 and len(questions) == len(items(bank(number), "Q")), f"bank {number}"
    for q in questions:
        assert list(q.options) == ["A", "B", "C", "D"] and all(v.strip() for v in q.options.values()), q.name
        assert q.answer in q.options and q.explanation, q.name
        assert sorted(q.distractors) == sorted(set("ABCD") - {q.answer}), q.name
        assert all(len(v) >= 20 for v in q.distractors.values()), q.name


@pytest.mark.parametrize("number", NUMBERS)
def test_exam_problems_have_a_solution_and_a_marking_scheme_that_adds_up(number):
    problems = items(bank(number), "E")
    assert len(problems) >= 3, f"bank {number} has {len(problems)} exam problems"
    for name, body in problems.items():
        assert "**Solution.**" in body, name
        total = re.search(r"\*\*Marking scheme \((\d+) points\)\.\*\*", body)
        assert total, name
        scheme = body[total.end():]
        points = [int(p) for p in re.findall(r"(\d+) points?\b", scheme)]
        assert points and sum(points) == int(total.group(1)), (name, points)


def test_answer_letters_are_not_all_the_same():
    letters = [q.answer for n in NUMBERS for q in banks.parse(bank(n), n)]
    assert len(set(letters)) >= 3


# ---- every number of a concept question, computed from the question's own data -----------------

@pytest.mark.parametrize("number", NUMBERS)
def test_every_concept_question_agrees_with_its_own_data(number):
    """coursebook.bank_numbers: the key computed from the stem, every other number of the options, the
    explanation and the distractors given by the stem or computed from it (or quoted from the chapter)."""
    path = ROOT / "book" / "instructor" / f"bank_{number:02d}.md"
    assert bank_numbers.problems(banks.questions(path)) == []


def test_an_edit_to_a_question_fails_until_its_key_and_explanation_agree():
    """Q1.1 with w = (6, -8) and its explanation still "10 / 5 = 2" is refused, naming Q1.1; once the key,
    the explanation and the distractors say what w = (6, -8) gives, it passes."""
    text = bank(1)
    edited = text.replace("$w = (3, -4)$", "$w = (6, -8)$")
    found = bank_numbers.problems(banks.parse(edited, 1))
    assert found and all(p.startswith("Q1.1:") for p in found), found
    assert "Q1.1: its key A says 2, computed from its stem: 1" in found
    assert any("the explanation states 5" in p for p in found)
    agreed = (edited.replace("- **A.** $2$\n", "- **A.** $1$\n").replace("- **B.** $-2$\n", "- **B.** $-1$\n")
              .replace("10 / 5 = 2", "10 / 10 = 1").replace("at distance 2", "at distance 1")
              .replace("$0.4$", "$0.1$").replace("= 25$", "= 100$"))
    assert bank_numbers.problems(banks.parse(agreed, 1)) == []
    stale = agreed.replace("distance 1.\n", "distance 3.\n").replace("at distance 1", "at distance 3")
    assert any(p.startswith("Q1.1: the explanation states 3") for p in bank_numbers.problems(banks.parse(stale, 1)))


def test_a_number_no_check_computes_is_refused():
    text = bank(3)
    start, end, name = banks.sections(text)[0]
    question = banks.parse(text[start:end].replace("**Distractors.**", "It takes 7919 steps.\n\n**Distractors.**", 1), 3)
    assert "7919" in bank_numbers.audit(question[0])[0] and name in bank_numbers.audit(question[0])[0]


def test_make_banks_refuses_an_inconsistent_bank(tmp_path, monkeypatch):
    import subprocess
    import sys

    folder = tmp_path / "instructor"
    shutil.copytree(ROOT / "book" / "instructor", folder)
    (folder / "bank_01.md").write_text(bank(1).replace("$w = (3, -4)$", "$w = (6, -8)$"), encoding="utf-8")
    script = ("import sys; from pathlib import Path; from coursebook import banks; "
              f"banks.BANKS = Path({str(folder)!r}); sys.argv = ['banks', '--export', {str(tmp_path / 'out')!r}]; "
              "banks.main()")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "Q1.1: its key A says 2" in done.stderr, done.stderr
    assert not (tmp_path / "out" / "moodle.xml").exists()


# ---- the numbers stated in the exam problems, recomputed ----------------------------------------

def test_bank_1_numbers():
    text = bank(1)
    w, b = np.array([3.0, -4.0]), 10.0
    assert b / np.linalg.norm(w) == 2 and "10 / 5 = 2" in text                       # Q1.1
    w, b, x = np.array([5.0, 12.0]), -26.0, np.array([1.0, 1.0])                       # E1.1
    score = pc.decision_function(x[None], w, b)[0]
    assert score == -9 and pc.predict(x[None], w, b)[0] == -1
    foot = x - score / (w @ w) * w
    assert np.allclose(foot * 169, [214, 277]) and np.isclose(foot @ w + b, 0)
    assert "(214/169,\\ 277/169)" in text and "9/13 \\approx 0.6923" in text
    X, y = np.array([[1.0, 3.0], [-1.0, 1.0]]), np.array([1, -1])                     # E1.2
    w_p, b_p = pc.prototype(X, y)
    assert np.allclose(w_p, [2, 2]) and np.isclose(b_p, -4) and "= -4$" in text
    assert pc.predict(np.array([[1.0, 1.0]]), w_p, b_p)[0] == 1
    X, y = np.array([[6.0, 2.0], [0.0, 0.0]]), np.array([1, -1])                      # Q1.6
    w_p, b_p = pc.prototype(X, y)
    assert np.allclose(w_p, [6, 2]) and np.isclose(b_p, -20) and "$c_+ = (6, 2)$" in text


def notes_rule_run(X, y, max_epochs=100):
    """The 36-350 notes' rule, bias "one": update when y != sgn(w.x + b), sgn(0) = +1."""
    w, b, updates = np.zeros(X.shape[1]), 0.0, []
    for _ in range(max_epochs):
        clean = True
        for i in range(len(y)):
            if y[i] != (1 if X[i] @ w + b >= 0 else -1):
                w, b, clean = w + y[i] * X[i], b + y[i], False
                updates.append(i)
        if clean:
            return w, b, updates


def test_bank_2_numbers():
    text = bank(2)
    X, y = np.array([[1.0, 2.0], [2.0, -1.0], [-1.0, -1.0]]), np.array([1, -1, -1])   # E2.1
    run = pc.train(X, y, record=True)
    assert [u.index for u in run.history] == [0, 1] and run.epochs == 2 and run.converged
    assert np.array_equal(run.history[0].w, [1, 2]) and run.history[0].b == 1
    assert np.array_equal(run.w, [-1, 3]) and run.b == 0 and "$w = (-1, 3)$, $b = 0$" in text
    half = pc.train(X, y, eta=0.5)
    assert np.array_equal(half.w, [-0.5, 1.5]) and "$w = (-0.5, 1.5)$" in text
    w, b, updates = notes_rule_run(X, y)
    assert updates == [1, 2] and np.array_equal(w, [-1, 2]) and b == -2 and "$w = (-1, 2)$," in text
    first = pc.train(np.array([[2.0, 3.0], [-1.0, -1.0]]), np.array([1, -1]), record=True).history[0]  # Q2.5
    assert np.array_equal(first.w, [2, 3]) and first.b == 1 and "$w = (2, 3)$, $b = 1$" in text
    w0, xi, xj = np.array([0.0, 1.0]), np.array([1.0, -2.0]), np.array([-1.0, 1.0])    # E2.3
    w1 = w0 + xi
    assert (xi @ w0, xj @ w0, xi @ w1, xj @ w1) == (-2, 1, 3, -2)
    scales = {s: pc.train(s * X, y, bias="radius", record=True) for s in (1.0, 10.0)}  # Q2.6
    assert [u.index for u in scales[1.0].history] == [u.index for u in scales[10.0].history]


def test_bank_3_numbers():
    X, y = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, -1.0]]), np.array([1, 1, -1])    # E3.1
    w, b = np.array([-1.0, 0.0]), 0.0
    assert np.array_equal(pc.functional_margins(X, y, w, b), [-1, 0, -1])
    assert pc.perceptron_criterion(X, y, w, b) == 2
    w2, b2 = w + y[1] * X[1], b + y[1]
    assert np.array_equal(pc.functional_margins(X, y, w2, b2), [0, 2, -1])
    assert pc.perceptron_criterion(X, y, w2, b2) == 1 and "New $E = 0 + 0 + 1 = 1$" in bank(3)
    assert pc.total_loss(X, y, np.zeros(2), 0.0, loss="hinge") == len(y)                # Q3.7
    assert pc.perceptron_criterion(X, y, np.zeros(2), 0.0) == 0                         # Q3.1


def test_bank_4_numbers():
    text = bank(4)
    assert np.isclose(pc.max_margin([[4.0, 6.0], [1.0, 2.0]], [1, -1]).gamma, 2.5)     # Q4.2
    assert "$p = (4, 6)$" in text and "$q = (1, 2)$" in text
    X, y = np.array([[2.0, 0.0], [3.0, 2.0], [0.0, 0.0], [0.0, 2.0]]), np.array([1, 1, -1, -1])  # E4.1
    assert np.array_equal(pc.functional_margins(X, y, np.array([2.0, 1.0]), -3.0), [1, 5, 3, 1])
    assert np.isclose(pc.geometric_margin(X, y, np.array([2.0, 1.0]), -3.0), 1 / math.sqrt(5))
    best = pc.max_margin(X, y)
    assert np.allclose(best.w, [1, 0]) and np.isclose(best.b, -1) and np.isclose(best.gamma, 1)
    support = np.flatnonzero(np.isclose(pc.functional_margins(X, y, best.w, best.b), best.gamma))
    assert support.tolist() == [0, 2, 3]
    for i in support:                                   # Q4.4: with both labels left, gamma* never decreases
        keep = np.arange(len(y)) != i
        assert len(set(y[keep].tolist())) == 2 and pc.max_margin(X[keep], y[keep]).gamma >= best.gamma - 1e-9
    with pytest.raises(ValueError, match="only one class"):     # one label left: no margin to maximise
        pc.max_margin(X[y == 1], y[y == 1])
    assert "suppose both labels remain" in text
    run = pc.train(X, y)
    assert np.array_equal(run.w, [2, -2]) and run.b == -1 and "$w = (2, -2)$, $b = -1$" in text
    assert np.isclose(pc.geometric_margin(X, y, run.w, run.b), 1 / (2 * math.sqrt(2)))
    assert "0.3536" in text and "0.4472" in text
    w, b, x = np.array([3.0, 4.0]), -5.0, np.array([2.0, 1.0])                          # E4.3
    assert (x @ w + b) / 5 == 1
    moved = x - w / np.linalg.norm(w)
    assert np.isclose(moved @ w + b, 0) and np.allclose(moved, [1.4, 0.2])
    # exactly: (1.4, 0.2) = (7, 1)/5, so the score is (3*7 + 4*1 - 25)/5 = 0, predicted +1, margin 0
    assert pc.predict(np.array([[7.0, 1.0]]), w, 5 * b)[0] == 1
    assert np.array([7.0, 1.0]) @ w + 5 * b == 0                       # margin 0: a training mistake


def test_bank_5_numbers():
    text = bank(5)
    X, y = np.array([[2.0, 0.0], [0.0, 1.0]]), np.array([1, -1])                      # E5.2
    run = pc.train(X, y, bias="none", record=True)
    assert run.mistakes == 2 and np.array_equal(run.w, [2, -1])
    assert np.isclose(pc.max_margin(X, y, bias="none").gamma, 2 / math.sqrt(5)) and "0.8944" in text
    assert np.isclose(pc.mistake_bound(X, y, bias="none"), 5) and "= 5 \\ge M = 2" in text
    assert (2 / 0.5) ** 2 == 16                                                        # Q5.2


def test_bank_6_numbers():
    X = np.array([[1.0, 1.0], [1.0, -1.0], [-1.0, -1.0], [-1.0, 1.0]])                # E6.1
    y = np.array([1, -1, 1, -1])
    history = pc.train(X, y, max_epochs=1, record=True).history
    states = [(u.w.tolist(), u.b) for u in history]
    assert states == [([1, 1], 1), ([0, 2], 0), ([-1, 1], 1), ([0, 0], 0)]
    errors = [int(np.sum(pc.functional_margins(X, y, np.array(w), b) <= 0)) for w, b in states]
    assert errors == [3, 2, 1, 4]
    pocket = pc.pocket(X, y, max_epochs=1, shuffle=False)
    assert np.array_equal(pocket.w, [-1, 1]) and pocket.b == 1 and pocket.errors == 1
    assert pc.fewest_errors_line(X, y).errors == 1
    average = pc.averaged(X, y, max_epochs=1, shuffle=False)
    assert np.array_equal(average.w, [0, 1]) and average.b == 0.5 and average.errors == 2
    cycle = pc.find_cycle(X, y)
    assert (cycle.start, cycle.period, cycle.updates_per_period) == (0, 1, 4)
    Xc = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])               # Q6.7
    assert pc.train(Xc, np.array([1, 1, -1, -1]), max_epochs=1).w.tolist() == [0, 0]
    rho, eps = 0.2, np.array([0.05, 0.10])                                             # E6.3
    assert np.allclose(rho + (1 - 2 * rho) * eps, [0.23, 0.26])
    text = bank(6)
    assert "0.10 + \\sqrt{2 \\ln 20 / 2000} \\approx 0.155" in text                           # Q6.10
    assert round(pc.online_to_batch_bound(200, 2000, delta=0.05), 3) == 0.155
    # E6.4: radius 2, margin >= 0.5 along u = e_1, one flipped point at y u.x = -1.
    X4, y4 = np.array([[2.0, 0.0], [-0.5, 0.0], [1.0, 0.0]]), np.array([1, -1, -1])
    for T in (1, 4, 100):
        bound = pc.hinge_mistake_bound(X4, y4, [1.0, 0.0], 0.5, bias="none", passes=T)
        assert bound == pytest.approx((4 + 3 * np.sqrt(T)) ** 2)
    assert pc.hinge_mistake_bound(X4, y4, [1.0, 0.0], 0.5, bias="none") == pytest.approx(49)
    assert pc.adversary_sequence(pc.perceptron_learner, 100, dim=1000).margin == pytest.approx(0.1)  # Q6.9


def test_bank_7_numbers():
    text = bank(7)
    X = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]])                # E7.1
    y = np.array([1, 1, -1, -1])
    K = (X @ X.T + 1) ** 2
    assert np.array_equal(K, 8 * np.eye(4) + 1)
    run = pc.kernel_train(X, y, kernel="poly", degree=2)
    assert run.alpha.tolist() == [1, 1, 1, 1] and run.b == 0 and run.mistakes == 4 and run.epochs == 3
    grid = np.random.default_rng(0).normal(size=(50, 2))
    scores = ((grid @ X.T + 1) ** 2) @ (run.alpha * y) + run.b
    assert np.allclose(scores, 8 * grid[:, 0] * grid[:, 1])
    bound = lambda M, n, delta: 8 * M * math.log(n**2 / delta) / n                    # E7.3
    assert f"{bound(5, 1000, 0.05):.3f}" == "0.672" and "\\approx 0.672" in text
    smallest = next(n for n in range(10, 100_000) if bound(5, n, 0.05) <= 0.1)
    assert smallest == 8430 and "$n = 8430$" in text
    e73 = items(text, "E")["E7.3"]                     # the theorem's hypotheses, and n for the sample size
    for hypothesis in ("i.i.d.", "started from $w = 0$ with `bias=\"none\"`", "converge on", "$M \\le n/2$"):
        assert hypothesis in e73, hypothesis
    assert not re.search(r"\$m\b|\bm\^2|/m\b", e73)
    assert math.comb(4 + 2, 2) == 15 and "$\\mathbb{R}^4$" in bank(7)                    # Q7.2


def test_bank_8_numbers():
    text = bank(8)
    X, y = np.array([[11.0], [12.0], [9.0], [8.0]]), np.array([1, 1, -1, -1])          # E8.1, E8.2
    one = {s: pc.train(s * X, y, bias="one", max_epochs=100_000).mistakes for s in (1.0, 0.1, 10.0)}
    radius = {s: pc.train(s * X, y, bias="radius", max_epochs=100_000).mistakes for s in (1.0, 0.1, 10.0)}
    assert one == {1.0: 386, 0.1: 19, 10.0: 28824} and set(radius.values()) == {23}
    assert "386 mistakes at scale 1, 19 at scale $0.1$ and 28824 at scale 10" in text
    best = pc.max_margin(X, y)
    assert pc.radius(X) == 12 and np.isclose(best.gamma, 1) and np.isclose(best.b, -10)
    assert np.isclose(pc.mistake_bound(X, y, bias="radius"), 576)
    assert np.isclose(pc.mistake_bound(X, y, bias="one"), 14645) and "= 14645" in text
    Z = X - 10
    assert pc.radius(Z) == 2 and np.isclose(pc.max_margin(Z, y).gamma, 1)
    assert np.isclose(pc.mistake_bound(Z, y, bias="radius"), 16) and np.isclose(pc.mistake_bound(Z, y, bias="one"), 5)
    assert pc.train(Z, y, bias="one").mistakes == 2 and pc.train(Z, y, bias="radius").mistakes == 2
    Xs, ys = np.array([[1.0, 1.0], [2.0, 0.0], [-1.0, -1.0], [0.0, -2.0]]), np.array([1, 1, -1, -1])  # E8.3
    before, after = pc.max_margin(Xs, ys), pc.max_margin(Xs @ np.diag([1.0, 4.0]), ys)
    assert np.isclose(before.gamma, math.sqrt(2)) and np.isclose(before.b, 0, atol=1e-9) and pc.radius(Xs) == 2
    assert np.isclose(after.gamma, 2.5) and np.allclose(after.w, [0.6, 0.8]) and np.isclose(after.b, 1.3)
    assert pc.radius(Xs @ np.diag([1.0, 4.0])) == 8 and "$R/\\gamma^\\star = 8/2.5 = 3.2$" in text


def test_bank_8_mistakes_and_accuracy_of_the_digit_pairs():
    """Q8.5: 1 vs 8 costs the most mistakes and scores 0.991; 4 vs 9 takes 4 to 22 mistakes over 20 orders."""
    from itertools import combinations

    from sklearn.model_selection import train_test_split

    text = bank(8)
    parts = {}
    for a, b in combinations(range(10), 2):
        X, y = pc.datasets.load_digits_pair(a, b)
        parts[a, b] = train_test_split(X, y, test_size=0.3, stratify=y, random_state=0)
    fits = {pair: pc.Perceptron().fit(Xa, ya) for pair, (Xa, _, ya, _) in parts.items()}
    most = max(fits, key=lambda pair: fits[pair].n_mistakes_)
    Xa, Xb, ya, yb = parts[most]
    assert most == (1, 8) and f"{fits[most].score(Xb, yb):.3f}" == "0.991"
    assert "1 against 8 costs the most mistakes and still scores 0.991" in text
    Xa, _, ya, _ = parts[4, 9]
    orders = [pc.train(Xa, ya, shuffle=True, seed=s).mistakes for s in range(20)]
    assert (min(orders), max(orders)) == (4, 22) and "from 4 to 22\nmistakes in 20 shuffled orders" in text


def test_bank_9_numbers():
    text = bank(9)
    X = np.array([[2.0, 0.0], [0.0, 2.0], [-2.0, -2.0]])                                # E9.1
    run = pc.multiclass_train(X, ["a", "b", "c"], record=True)
    assert [(u.index, u.rival) for u in run.history] == [(0, 1), (1, 0), (2, 0)] and run.epochs == 2
    assert run.W.tolist() == [[4, 0], [-2, 2], [-2, -2]] and run.b.tolist() == [-1, 0, 1]
    assert run.decision_function([[3.0, 0.5]]).tolist() == [[11, -5, -6]] and "$(11, -5, -6)$" in text
    assert "$W = ((4, 0), (-2, 2), (-2, -2))$, $b = (-1, 0, 1)$" in text
    Z = pc.kesler_points([[1.0, 2.0], [0.0, 1.0], [1.0, 0.0]], [2, 1, 3], bias="none")[0]   # E9.2
    assert Z.tolist() == [[-1, -2, 1, 2, 0, 0], [0, 0, 1, 2, -1, -2]] and np.all(np.sum(Z**2, axis=1) == 10)
    X, y = np.array([[-3.0], [0.0], [3.0]]), np.array(["A", "B", "C"])                 # E9.3
    assert not pc.train(X, [-1, 1, -1], max_epochs=100).converged
    W, b = np.array([[-1.0], [0.0], [1.0]]), np.array([-1.0, 0.0, -1.0])
    scores = X @ W.T + b
    assert scores.tolist() == [[2, 0, -4], [-1, 0, -1], [-4, 0, 2]]
    v = np.column_stack([W, b]).ravel()
    own = scores[np.arange(3), [0, 1, 2]]
    rivals = np.where(np.eye(3, dtype=bool), -np.inf, scores).max(axis=1)
    assert np.linalg.norm(v) == 2 and np.min(own - rivals) / 2 == 0.5
    R = np.linalg.norm([3.0, 1.0])
    assert np.isclose(2 * R**2 / 0.5**2, 80)
    gamma = pc.multiclass_margin(X, y)
    assert f"{gamma:.4f}" == "0.8018" and f"{pc.multiclass_mistake_bound(X, y):.1f}" == "31.1"
    run = pc.multiclass_train(X, y)
    assert (run.mistakes, run.epochs) == (5, 4) and "makes 5 mistakes in 4 epochs" in text
    from sklearn.datasets import make_blobs
    from sklearn.linear_model import Perceptron

    Xl, yl = make_blobs(60, centers=[[-3, 0], [0, 0], [3, 0]], cluster_std=0.5, random_state=1)
    ova = Perceptron(shuffle=False, tol=None, penalty=None, max_iter=100).fit(Xl, yl)        # Q9.3
    assert np.sum(ova.predict(Xl) != yl) == 22 and pc.multiclass_train(Xl, yl).converged
    assert "keeps 22 training errors of 60" in text


def test_bank_10_numbers():
    text = bank(10)
    w, b, x, label, eta = np.array([1.0, 0.0]), 0.0, np.array([2.0, 1.0]), 1, 0.1          # E10.1
    assert label * (x @ w + b) == 2                                      # correct: no perceptron step
    error = label - (x @ w + b)
    w, b = w + eta * error * x, b + eta * error
    assert np.allclose(w, [0.8, -0.1]) and np.isclose(b, -0.1) and np.isclose(x @ w + b, 1.4)
    assert np.isclose(label - (x @ w + b), error * (1 - eta * (x @ x + 1)))
    assert "= (0.8, -0.1)$" in text and "= 1.4$" in text
    net = pc.TwoLayerNetwork(V=np.array([[1.0, -1.0], [0.5, 0.5]]), beta=np.array([0.0, -1.0]),   # E10.2
                             w=np.array([2.0, -1.0]), b=0.0)
    X1, y1 = np.array([[1.0, 1.0]]), np.array([1])
    assert np.array_equal(net.hidden(X1)[0], [0, 0]) and net.decision_function(X1)[0] == 0
    g = pc.network_gradient(net, X1, y1)
    assert g.b == -0.5 and np.array_equal(g.w, [0, 0]) and np.array_equal(g.beta, [-1, 0.5])
    assert np.array_equal(g.V, [[-1, -1], [0.5, 0.5]])
    V, beta, b = net.V - 0.5 * g.V, net.beta - 0.5 * g.beta, net.b - 0.5 * g.b
    assert np.array_equal(V, [[1.5, -0.5], [0.25, 0.25]]) and np.array_equal(beta, [0.5, -1.25]) and b == 0.25
    assert "$\\beta = (0.5, -1.25)$" in text and "$b = 0.25$" in text
    X4, y4 = np.array([[1.0, 1.0], [-1.0, -1.0], [1.0, -1.0], [-1.0, 1.0]]), np.array([1, 1, -1, -1])  # E10.3
    assert pc.fewest_errors_line(X4, y4).errors == 1
    hidden = np.column_stack([pc.predict(X4, [1.0, 1.0], -1.0), pc.predict(X4, [-1.0, -1.0], -1.0)])
    assert hidden.tolist() == [[1, -1], [-1, 1], [-1, -1], [-1, -1]]
    assert pc.predict(hidden, [1.0, 1.0], 1.0).tolist() == y4.tolist()
    runs = {s: pc.train_network(X4, y4, n_hidden=2, epochs=1000, seed=s) for s in (3, 1)}          # Q10.6
    assert runs[3].errors[-1] == 0 and runs[1].errors[-1] == 1


def test_bank_11_numbers():
    text = bank(11)
    X = [[1, 0, 0, 0], [0, 1, 1, 1], [1, 0, 0, 0], [1, 0, 0, 0]]                                  # E11.1
    run = pc.winnow(X, [1, 0, 1, 1])
    assert run.predictions.tolist() == [0, 0, 0, 1] and run.mistakes == 2 and run.w.tolist() == [4, 1, 1, 1]
    assert pc.winnow_mistake_bound(1, 4) == 7 and "= 7$ mistakes" in text
    assert "$w = (2, 1, 1, 1)$" in text and "$w = (4, 1, 1, 1)$" in text
    bound = pc.weighted_majority_bound(3, 8)                                                      # E11.2
    assert round(bound, 2) == 14.46 and int(bound) == 14 and "\\approx 14.46$, so at most $14$" in text
    H = pc.thresholds(3)                                                                         # E11.3
    assert H.tolist() == [[1, 1, 1], [-1, 1, 1], [-1, -1, 1], [-1, -1, -1]]
    assert pc.littlestone_dimension(H) == 2 and "so $\\operatorname{Ldim}(\\mathcal H) = 2$" in text
