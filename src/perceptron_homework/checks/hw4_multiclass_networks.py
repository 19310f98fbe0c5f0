"""Homework 4, several classes and networks: the tests of q1-q5 (public ones as in the notebook), and its variants.

:func:`variant` is the one place the homework's rules and data live. The public secret gives the
rules of chapters 9 and 10: a point is a multiclass mistake when its own class does not score
strictly more than every other (``s_y <= max_{r != y} s_r``), the rival is the earlier class on a
tie, a confusion matrix has a row per true class, the LMS step comes from the loss
``(1/2) (y - f)^2`` and the hidden units are ``tanh``. Any other secret picks one of the three other
combinations of mistake rule and tie rule, a confusion matrix with a row per *predicted* class, the
LMS step of the loss ``(y - f)^2`` (twice as long) and logistic hidden units, and other data, so
that the public master's solutions lose points under it. The master's ``{{ name }}`` placeholders
are rendered from the same dictionary by the build, among them the list of what differs from the
book (``differences_text``), so that a student never hunts for a difference that is not there.

The notation is the chapters': the class weights of q1-q3 are the matrix ``W`` of chapter 9 (each
row ending with the class's bias), the hidden weights of q5 the matrix ``V`` of chapter 10 (the
key ``"V"`` of the parameters).
"""

from __future__ import annotations

import numpy as np

import perceptron
from perceptron.datasets import make_overlapping

from . import NOTHING_OF_THE_PACKAGE as OWN
from . import PUBLIC_SECRET, call, check, fingerprint, rng_for, value

ASSIGNMENT = "hw4_multiclass_networks"
PUBLIC = {"rule": "margin", "tie": "earlier", "rows": "true", "lms_factor": 1, "activation": "tanh",
          "points_seed": 7, "line_seed": 1, "net_seed": 0}
PRIVATE_RULES = (("margin", "later"), ("predict", "earlier"), ("predict", "later"))  # every one but the public
N_POINTS, N_CLASSES = 12, 3
LINE_CENTRES = [[-3, 0], [0, 0], [3, 0]]
LINE_N, OVA_EPOCHS = 60, 100
# Trainers a "write it yourself" multiclass loop must not call (the hidden tests forbid the whole package).
MULTICLASS_TRAINERS = ("perceptron.multiclass.*", "perceptron.estimator.*", "perceptron._one_vs_all.*",
                       "perceptron.structured.*", "sklearn.linear_model.*")

# The book's rules (chapters 9 and 10): the public variant keeps them, a private one changes each.
BOOK_RULES = {"rule": "margin", "tie": "earlier", "rows": "true", "lms_factor": 1, "activation": "tanh"}
# What differs from the book, one item per rule (and the storage, which always does).
STORAGE_TEXT = (
    "*Storage and numbering* (every variant): the weights and biases of all classes are one matrix `W`, row "
    "$y$ holding $w_y$ followed by $b_y$ (the book's definitions write $w_y$ and $b_y$ apart), and the classes are numbered "
    "$0, \\dots, K-1$ (the book's definitions number them from 1).")
DIFFERENCE_TEXT = {
    "rule": "*The mistake rule* (questions 1 and 2): a point is a mistake only when the predicted class is wrong, "
            "not at every tie for the top as in the book.",
    "tie": "*The rival on a tie* (questions 1 and 2): the later class, not the earlier one as in the book.",
    "rows": "*The confusion matrix* (question 3): a row per predicted class, not per true class as in the book.",
    "lms_factor": "*The LMS loss* (question 4): $(y - f)^2$, without the book's factor $\\tfrac12$.",
    "activation": "*The hidden units* (question 5): the logistic function, not the book's $\\tanh$.",
}


def differences_text(v: dict) -> str:
    """The markdown list of what the variant ``v`` changes from the book (the storage always)."""
    items = [STORAGE_TEXT] + [DIFFERENCE_TEXT[k] for k in BOOK_RULES if v[k] != BOOK_RULES[k]]
    return "\n".join(f"- {item}" for item in items)


RULE_TEXT = {
    "margin": r"Point $(x_i, y_i)$ is a *mistake* when its own class does not score strictly more than every "
              r"other class: $s_{y_i} \le \max_{r \ne y_i} s_r$ (a tie for the top is a mistake).",
    "predict": r"Point $(x_i, y_i)$ is a *mistake* when the predicted class $\hat y$ (the highest score, the "
               r"*earlier* class on a tie) is not $y_i$: a tie for the top is a mistake only when $y_i$ is not "
               "the earliest of the tied classes.",
}
TIE_TEXT = {
    "earlier": "the *earlier* (lower-numbered) class on a tie",
    "later": "the *later* (higher-numbered) class on a tie",
}
ROWS_TEXT = {
    "true": "`C[i, j]` counts the points of true class `i` that were predicted `j` (a row per true class)",
    "predicted": "`C[i, j]` counts the points predicted `i` whose true class is `j` (a row per *predicted* "
                 "class)",
}
LMS_TEXT = {
    1: r"the squared error $\tfrac12 (y - f(x))^2$, so the step is $w \leftarrow w + \eta\, e\, x$, "
       r"$b \leftarrow b + \eta\, e$",
    2: r"the squared error $(y - f(x))^2$ (no factor $\tfrac12$ in this homework), so the step is "
       r"$w \leftarrow w + 2 \eta\, e\, x$, $b \leftarrow b + 2 \eta\, e$",
}
ACTIVATION_TEXT = {
    "tanh": r"$\sigma(t) = \tanh t$, whose derivative is $1 - \tanh^2 t$",
    "sigmoid": r"the logistic function $\sigma(t) = 1 / (1 + e^{-t})$ (values between 0 and 1), whose derivative "
               r"is $\sigma(t)\,(1 - \sigma(t))$",
}
# The stubs' docstrings, one per variant (the rules a student codes from).
MISTAKE_DOC = {"margin": "a mistake when scores[y] <= the best score of another class",
               "predict": "a mistake when argmax(scores) != y (the earlier class wins a tie)"}
TIE_DOC = {"earlier": "the highest-scoring other class, the earlier one on a tie",
           "later": "the highest-scoring other class, the later one on a tie"}
ROWS_DOC = {"true": "C[i, j] counts the points of true class i predicted j",
            "predicted": "C[i, j] counts the points predicted i whose true class is j"}
LMS_DOC = {1: "(w + eta e x, b + eta e)", 2: "(w + 2 eta e x, b + 2 eta e)"}
DERIVATIVE_DOC = {"tanh": "1 - h**2", "sigmoid": "h (1 - h)"}
# The master's solution lines, one per variant (rendered into the answer key).
MISTAKE_CODE = {"margin": "scores[y] <= top", "predict": "int(np.argmax(scores)) != y"}
TIE_INDEX = {"earlier": "0", "later": "-1"}
CONFUSION_INDEX = {"true": "t, p", "predicted": "p, t"}
ACTIVATION_CODE = {"tanh": "np.tanh(t)", "sigmoid": "1.0 / (1.0 + np.exp(-t))"}
DERIVATIVE_CODE = {"tanh": "1.0 - h * h", "sigmoid": "h * (1.0 - h)"}


# ------------------------------------------------------------------------ the grader's references


def rival_ref(scores, y: int, tie: str) -> int:
    """The highest-scoring class other than ``y``, by the tie rule."""
    others = [r for r in range(len(scores)) if r != y]
    best = max(scores[r] for r in others)
    tied = [r for r in others if scores[r] == best]
    return tied[0] if tie == "earlier" else tied[-1]


def is_mistake_ref(scores, y: int, rule: str) -> bool:
    if rule == "margin":
        return bool(scores[y] <= max(s for r, s in enumerate(scores) if r != y))
    return int(np.argmax(scores)) != y


def update_ref(V, x, y: int, v: dict):
    """The variant's multiclass update: (new V, whether it was a mistake)."""
    V = np.array(V, dtype=float)
    x = np.asarray(x, dtype=float)
    scores = V @ x
    if not is_mistake_ref(scores, y, v["rule"]):
        return V, False
    r = rival_ref(scores, y, v["tie"])
    V[y] += x
    V[r] -= x
    return V, True


def augment(X):
    X = np.asarray(X, dtype=float)
    return np.column_stack([X, np.ones(len(X))])


def train_ref(X, y, n_classes: int, v: dict, max_epochs: int = 1000):
    """The variant's multiclass perceptron from zero, points in order: (V, mistakes)."""
    Xt = augment(X)
    V, mistakes = np.zeros((n_classes, Xt.shape[1])), 0
    for _ in range(max_epochs):
        clean = True
        for x_i, y_i in zip(Xt, y):
            V, mistake = update_ref(V, x_i, int(y_i), v)
            mistakes += mistake
            clean = clean and not mistake
        if clean:
            break
    return V, mistakes


def confusion_ref(y_true, y_pred, n_classes: int, rows: str):
    C = np.zeros((n_classes, n_classes), dtype=int)
    for t, p in zip(y_true, y_pred):
        C[(int(t), int(p)) if rows == "true" else (int(p), int(t))] += 1
    return C


def lms_ref(x, y, w, b, eta, factor: int):
    e = y - (float(np.dot(w, x)) + b)
    return np.asarray(w, dtype=float) + factor * eta * e * np.asarray(x, dtype=float), b + factor * eta * e


def activation(t, name: str):
    return np.tanh(t) if name == "tanh" else 1.0 / (1.0 + np.exp(-t))


def forward_ref(p: dict, x, name: str):
    h = activation(np.asarray(p["V"]) @ np.asarray(x, dtype=float) + np.asarray(p["beta"]), name)
    return h, float(h @ np.asarray(p["w"]) + p["b"])


def backprop_ref(p: dict, x, y, name: str) -> dict:
    """The gradient of one point's logistic loss log(1 + exp(-y f(x))), by the chain rule."""
    h, f = forward_ref(p, x, name)
    s = -y / (1.0 + np.exp(y * f))  # dl/df = l'(m) y with l'(m) = -1 / (1 + e^m)
    slope = 1.0 - h * h if name == "tanh" else h * (1.0 - h)
    g = s * np.asarray(p["w"]) * slope
    return {"V": np.outer(g, x), "beta": g, "w": s * h, "b": float(s)}


def numeric_ref(p: dict, x, y, eps: float, name: str) -> dict:
    """Central differences of one point's logistic loss with the step ``eps``."""
    def loss(q):
        return float(np.logaddexp(0.0, -y * forward_ref(q, x, name)[1]))

    grad = {}
    for key in ("V", "beta", "w", "b"):
        value = np.array(p[key], dtype=float)
        g = np.zeros_like(value)
        for i in np.ndindex(value.shape):
            up, down = value.copy(), value.copy()
            up[i] += eps
            down[i] -= eps
            as_param = (lambda a: a) if value.ndim else float
            g[i] = (loss({**p, key: as_param(up)}) - loss({**p, key: as_param(down)})) / (2 * eps)
        grad[key] = g if value.ndim else float(g)
    return grad


def random_params(rng, J: int = 2, d: int = 2) -> dict:
    return {"V": rng.normal(size=(J, d)), "beta": rng.normal(size=J), "w": rng.normal(size=J),
            "b": float(rng.normal())}


# ---------------------------------------------------------------------------------- the variant


def points_data(v: dict):
    """The small dataset of q2: integer points of three linearly separable classes."""
    rng = np.random.default_rng(v["points_seed"])
    W = rng.normal(size=(N_CLASSES, 3))
    X, y = [], []
    while len(X) < N_POINTS:
        x = rng.integers(-4, 5, size=2).astype(float)
        s = W @ np.append(x, 1.0)
        top = np.sort(s)
        if top[-1] - top[-2] >= 0.5 and [tuple(p) for p in X].count(tuple(x)) == 0:
            X.append(x)
            y.append(int(np.argmax(s)))
    return np.array(X), np.array(y)


def line_data(v: dict):
    from sklearn.datasets import make_blobs

    return make_blobs(LINE_N, centers=LINE_CENTRES, cluster_std=0.5, random_state=v["line_seed"])


def ova_predictions(v: dict):
    X, y = line_data(v)
    est = perceptron.Perceptron(max_iter=OVA_EPOCHS).fit(X, y)
    return est.predict(X)


def net_data(v: dict):
    rng = np.random.default_rng(v["net_seed"])
    p = {k: np.round(a, 2) if isinstance(a, np.ndarray) else round(a, 2) for k, a in random_params(rng).items()}
    return p, np.round(rng.normal(size=2), 2), 1


def _fits(v: dict) -> bool:
    """Whether the data make a good homework under ``v``: q2's run converges with every class twice or more,
    the public rules' count differs from the variant's, and one-vs-all errs on the line."""
    X, y = points_data(v)
    if min(np.bincount(y, minlength=N_CLASSES)) < 2:
        return False
    V, mistakes = train_ref(X, y, N_CLASSES, v, max_epochs=200)
    if any(update_ref(V, x, int(t), v)[1] for x, t in zip(augment(X), y)):
        return False  # not converged in 200 passes
    public = {**v, "rule": PUBLIC["rule"], "tie": PUBLIC["tie"]}
    if (v["rule"], v["tie"]) != (PUBLIC["rule"], PUBLIC["tie"]) and train_ref(X, y, N_CLASSES, public)[1] == mistakes:
        return False
    return int(np.sum(ova_predictions(v) != line_data(v)[1])) > 0


def variant(secret: str) -> dict:
    """The homework's rules and data under ``secret``, with the master's placeholder values."""
    v = dict(PUBLIC)
    if secret != PUBLIC_SECRET:
        rng = rng_for(secret, ASSIGNMENT, "variant")
        v["rule"], v["tie"] = PRIVATE_RULES[int(rng.integers(len(PRIVATE_RULES)))]
        v.update(rows="predicted", lms_factor=2, activation="sigmoid", net_seed=int(rng.integers(1, 10**6)))
        for _ in range(200):
            v["points_seed"], v["line_seed"] = int(rng.integers(1, 10**6)), int(rng.integers(1, 10**6))
            if _fits(v):
                break
        else:  # pragma: no cover - a few seeds in ten fit, never two hundred in a row fail
            raise RuntimeError("no dataset for homework 4")
    X, y = points_data(v)
    _, mistakes = train_ref(X, y, N_CLASSES, v)
    yl = line_data(v)[1]
    ova = ova_predictions(v)
    p, x_net, y_net = net_data(v)
    q1 = update_ref(np.zeros((3, 3)), [1.0, 2.0, 1.0], 1, v)[0]
    q4 = lms_ref([1.0, 1.0], 1, np.zeros(2), 0.0, 0.25, v["lms_factor"])
    h_net, f_net = forward_ref(p, x_net, v["activation"])
    v.update(
        differences_text=differences_text(v), rule_text=RULE_TEXT[v["rule"]], tie_text=TIE_TEXT[v["tie"]], rows_text=ROWS_TEXT[v["rows"]],
        lms_text=LMS_TEXT[v["lms_factor"]], activation_text=ACTIVATION_TEXT[v["activation"]],
        mistake_doc=MISTAKE_DOC[v["rule"]], tie_doc=TIE_DOC[v["tie"]], rows_doc=ROWS_DOC[v["rows"]],
        lms_doc=LMS_DOC[v["lms_factor"]], derivative_doc=DERIVATIVE_DOC[v["activation"]],
        mistake_code=MISTAKE_CODE[v["rule"]], tie_index=TIE_INDEX[v["tie"]],
        confusion_index=CONFUSION_INDEX[v["rows"]], lms_step_code="eta" if v["lms_factor"] == 1 else "2 * eta",
        activation_code=ACTIVATION_CODE[v["activation"]], derivative_code=DERIVATIVE_CODE[v["activation"]],
        points_X=str(X.astype(int).tolist()), points_y=str(y.tolist()),
        q1_V=str(q1.tolist()), q1_mistake=str(is_mistake_ref([0.0, 0.0, 0.0], 0, v["rule"])),
        mistakes_fingerprint=fingerprint(ASSIGNMENT, "q2", mistakes),
        line_n=LINE_N, line_seed=v["line_seed"], ova_epochs=OVA_EPOCHS,
        ova_errors_fingerprint=fingerprint(ASSIGNMENT, "q3", int(np.sum(ova != yl))),
        class_axis=1 if v["rows"] == "true" else 0,
        q4_w=str(q4[0].tolist()), q4_b=f"{q4[1]:g}",
        net_V=str(p["V"].tolist()), net_beta=str(p["beta"].tolist()), net_w=str(p["w"].tolist()), net_b=p["b"],
        net_x=str(x_net.tolist()), net_y=y_net, net_h=str(np.round(h_net, 6).tolist()), net_f=f"{f_net:.6f}",
    )
    return v


# ------------------------------------------------------------------------ q1: the multiclass update

IN_PLACE_UPDATE = "multiclass_update changed the array W it was given: return a new array instead"
Q1_X = [1.0, 2.0, 1.0]


def q1_problem(W, expected) -> str:
    """What is wrong with ``W``, returned after a mistake on (x, 1) from W = 0 (empty if it is right), in words.

    The notebook's public test of q1, and q2's test of the update it relies on, say the same.
    """
    W, expected, x = np.asarray(W, dtype=float), np.asarray(expected, dtype=float), np.array(Q1_X)
    if W.shape != expected.shape:
        return f"multiclass_update returned W of shape {W.shape}: it should keep the shape of the W it was given"
    if not np.any(W):
        return "from W = 0 every score is 0: read the mistake rule again to decide whether (x, 1) is a mistake"
    if np.allclose(W, expected):
        return ""
    if not np.allclose(W[1], x):
        return ("after a mistake on (x, 1) the own class's row W[1] gains x, and only x: read the update "
                "rule again")
    if sorted([np.allclose(W[0], -x), np.allclose(W[2], -x)]) == [False, True] and not np.any(W[0] + W[2] + x):
        return "the wrong row lost x: which class is the rival on a tie? Read the tie rule again"
    return ("after a mistake exactly one other row, the rival's, loses x, and no other row changes: read the "
            "update rule again")


@check("q1")
def test_multiclass_update_small_example(rng, v):
    W0, x = np.zeros((3, 3)), np.array(Q1_X)
    expected = update_ref(W0, x, 1, v)[0]
    mistake = update_ref(W0, x, 0, v)[1]

    def verdict(out):
        W, _ = out[0]
        problem = q1_problem(W, expected)
        assert not problem, problem
        assert np.array_equal(out.inputs_after(0)[0], W0), IN_PLACE_UPDATE
        assert bool(out[1][1]) == mistake, (
            "from W = 0 every score is 0: read the mistake rule again to decide whether (x, 0) is a mistake")

    return [call("multiclass_update", W0, x, 1, inputs_after=True), call("multiclass_update", W0, x, 0)], verdict


def _update_cases(rng, count, ties: bool):
    cases = []
    for _ in range(count):
        K, m = int(rng.integers(3, 6)), int(rng.integers(2, 5))
        if ties:  # small integers: ties for the top and with the own class are common
            V, x = rng.integers(-1, 2, size=(K, m)).astype(float), rng.integers(-1, 2, size=m).astype(float)
        else:
            V, x = rng.normal(size=(K, m)), rng.normal(size=m)
        cases.append((V, x, int(rng.integers(K))))
    return cases


@check("q1", hidden=True)
def test_multiclass_update_matches_reference(rng, v):
    cases = _update_cases(rng, 30, ties=False)

    def verdict(out):
        mistakes = 0
        for k, ((V, x, y), got) in enumerate(zip(cases, out)):
            expected, mistake = update_ref(V, x, y, v)
            new_V, was_mistake = got
            assert bool(was_mistake) == mistake, f"wrong mistake flag for y = {y}, scores {V @ x}"
            assert np.allclose(new_V, expected), f"wrong W after the update for y = {y}, scores {V @ x}"
            assert np.array_equal(out.inputs_after(k)[0], V), IN_PLACE_UPDATE
            mistakes += mistake
        assert 0 < mistakes < len(cases)

    return [call("multiclass_update", *case, forbid=OWN, inputs_after=True) for case in cases], verdict


@check("q1", hidden=True)
def test_multiclass_update_on_ties(rng, v):
    cases = [(np.zeros((4, 3)), rng.integers(-2, 3, size=3).astype(float) + [0, 0, 1], y) for y in range(4)]
    cases += _update_cases(rng, 30, ties=True)

    def verdict(out):
        for (V, x, y), got in zip(cases, out):
            expected, mistake = update_ref(V, x, y, v)
            new_V, was_mistake = got
            where = "from W = 0" if not np.any(V) else f"for the scores {V @ x} and y = {y}"
            assert bool(was_mistake) == mistake and np.allclose(new_V, expected), (
                f"wrong answer {where}: read the mistake rule and the tie rule again")

    return [call("multiclass_update", *case, forbid=OWN) for case in cases], verdict


# ---------------------------------------------------------------------------- q2: the training loop


FIX_Q1_FIRST = ("train_multiclass runs on your multiclass_update, which does not pass question 1's check yet: "
                "fix q1's multiclass_update first")


@check("q2")
def test_points_mistakes(rng, v):
    X, y = points_data(v)
    W0, x = np.zeros((3, 3)), np.array(Q1_X)
    q1 = update_ref(W0, x, 1, v)[0], update_ref(W0, x, 0, v)[1]

    def verdict(out):
        # A wrong update makes every count wrong: say so first, not something about the loop.
        assert not q1_problem(out[2][0], q1[0]) and bool(out[3][1]) == q1[1], FIX_Q1_FIRST
        W, mistakes = out[0]
        count = out[1]
        assert np.shape(W) == (N_CLASSES, 3), "W has one row (w_y, b_y) per class: shape (3, 3) here"
        assert int(mistakes) == mistakes and mistakes > 0, "mistakes counts the updates: a positive whole number"
        assert count == mistakes, "points_mistakes is not the count train_multiclass returned"
        assert fingerprint(ASSIGNMENT, "q2", int(mistakes)) == v["mistakes_fingerprint"], (
            "train_multiclass makes the wrong number of mistakes on these points: check the rules, the order "
            "of the points and the stopping rule")

    return [call("train_multiclass", X, y, N_CLASSES, forbid=MULTICLASS_TRAINERS), value("points_mistakes"),
            call("multiclass_update", W0, x, 1), call("multiclass_update", W0, x, 0)], verdict


def _multiclass_data(rng, n: int, K: int, d: int):
    """Separable data of K classes in d dimensions (a random linear classifier's labels, with a gap)."""
    W = rng.normal(size=(K, d + 1))
    X, y = [], []
    while len(X) < n:
        x = rng.uniform(-3, 3, size=d)
        s = np.sort(W @ np.append(x, 1.0))
        if s[-1] - s[-2] >= 0.3:
            X.append(x)
            y.append(int(np.argmax(W @ np.append(x, 1.0))))
    return np.array(X), np.array(y)


@check("q2", hidden=True)
def test_train_multiclass_matches_reference(rng, v):
    cases = [(*_multiclass_data(rng, 30, K, d), K) for K, d in ((3, 2), (4, 3), (5, 2))]

    def verdict(out):
        for (X, y, K), got in zip(cases, out):
            V, mistakes = got
            ref, count = train_ref(X, y, K, v)
            assert mistakes == count, f"{mistakes} mistakes instead of {count} on {K} classes"
            assert np.allclose(V, ref), "wrong final W"

    return [call("train_multiclass", X, y, K, forbid=OWN) for X, y, K in cases], verdict


@check("q2", hidden=True)
def test_train_multiclass_stops_after_max_epochs(rng, v):
    X, y2 = make_overlapping(30, separation=0.5, seed=int(rng.integers(2**31)))
    y = np.where(y2 > 0, 1, 0) + (X[:, 0] > 1)  # three classes that overlap
    epochs = (1, 3, 7)

    def verdict(out):
        counts = []
        for n, (V, mistakes) in zip(epochs, out):
            ref, count = train_ref(X, y, 3, v, max_epochs=n)
            assert mistakes == count and np.allclose(V, ref), f"wrong (W, mistakes) after max_epochs = {n} passes"
            counts.append(mistakes)
        assert counts[0] < counts[1] < counts[2], "more passes should make more mistakes on these data"

    return [call("train_multiclass", X, y, 3, max_epochs=n, forbid=OWN) for n in epochs], verdict


@check("q2", hidden=True)
def test_points_mistakes_counts_the_notebooks_run(rng, v):
    # The count earns its point only with a train_multiclass that makes it (the right number is no guess).
    X, y = points_data(v)  # the notebook's data
    ref, count = train_ref(X, y, N_CLASSES, v)

    def verdict(out):
        V, mistakes = out[1]
        assert mistakes == count and np.allclose(V, ref), "train_multiclass is wrong on the notebook's points"
        assert out[0] == count, "points_mistakes is not the number of updates on the notebook's points"

    return [value("points_mistakes"), call("train_multiclass", X, y, N_CLASSES, forbid=OWN)], verdict


# ------------------------------------------------------------------ q3: confusion and one-vs-all


@check("q3")
def test_ova_confusion_is_consistent(rng, v):
    y_true = line_data(v)[1]
    axis = 1 if v["rows"] == "true" else 0  # the axis summed over to get each true class's size

    def verdict(out):
        C, errors = np.asarray(out[0]), out[1]
        assert C.shape == (N_CLASSES, N_CLASSES), "ova_confusion is a 3 by 3 matrix"
        assert np.all(C >= 0) and np.array_equal(C, np.round(C)), "a confusion matrix holds counts"
        assert C.sum() == LINE_N, f"ova_confusion should count all {LINE_N} points once"
        assert np.array_equal(C.sum(axis=axis), np.bincount(y_true, minlength=N_CLASSES)), (
            "the rows and columns of ova_confusion are the wrong way round: read the convention again")
        assert int(errors) == errors and errors == C.sum() - np.trace(C), (
            "ova_errors does not agree with your ova_confusion: the errors are the counts off its diagonal")
        assert fingerprint(ASSIGNMENT, "q3", int(errors)) == v["ova_errors_fingerprint"], (
            "ova_errors is not the number of training points that one-vs-all gets wrong")

    return [value("ova_confusion"), value("ova_errors")], verdict


@check("q3", hidden=True)
def test_confusion_matches_reference(rng, v):
    cases = []
    for _ in range(5):
        K, n = int(rng.integers(2, 6)), int(rng.integers(5, 40))
        cases.append((rng.integers(K, size=n), rng.integers(K, size=n), K))

    def verdict(out):
        for (t, p, K), got in zip(cases, out):
            assert np.array_equal(np.asarray(got), confusion_ref(t, p, K, v["rows"])), (
                "wrong confusion matrix on random labels")

    return [call("confusion", *case, forbid=OWN) for case in cases], verdict


@check("q3", hidden=True)
def test_ova_confusion_matches_reference(rng, v):
    _, y = line_data(v)
    expected = confusion_ref(y, ova_predictions(v), N_CLASSES, v["rows"])

    def verdict(out):
        C, errors = out
        assert np.array_equal(np.asarray(C), expected), "ova_confusion is not one-vs-all's confusion matrix"
        assert errors == expected.sum() - np.trace(expected), "wrong ova_errors"

    return [value("ova_confusion"), value("ova_errors")], verdict


# ------------------------------------------------------------------------------------ q4: LMS


IN_PLACE_W = "lms_step changed the array w it was given: return a new array instead"


def q4_problem(w, b, right_w, right_b) -> str:
    """What is wrong with one LMS step from w = 0, b = 0 on x = (1, 1), y = 1 (empty if it is right), in words."""
    w, right_w = np.asarray(w, dtype=float), np.asarray(right_w, dtype=float)
    if w.shape != right_w.shape or np.ndim(b) != 0:
        return "lms_step should return the pair (w, b): w of the shape it was given, (2,) here, and b a number"
    ok_w, ok_b = np.allclose(w, right_w), np.isclose(b, right_b)
    if ok_w and ok_b:
        return ""
    if not np.any(w) and b == 0:
        return "lms_step did not move from w = 0, b = 0, yet the error y - f(x) of the point is not 0: LMS steps"
    for ratio, length in ((2.0, "twice"), (0.5, "half")):
        if np.allclose(w, ratio * right_w) and np.isclose(b, ratio * right_b):
            return (f"your step is {length} the length this homework's loss gives: read again which squared "
                    "error LMS is the SGD step of here")
    if ok_w:
        return "the weights are right but the bias is not: the bias steps like a weight whose input is always 1"
    if ok_b:
        return "the bias is right but the weights are not: each weight steps by its own input times the error"
    return ("lms_step takes the wrong step from w = 0, b = 0: it is the SGD step of the question's loss, along x, "
            "by the error y - f(x)")


@check("q4")
def test_lms_step_small_example(rng, v):
    w0 = np.array([0.0, 0.0])
    new_w, new_b = lms_ref([1.0, 1.0], 1, w0, 0.0, 0.25, v["lms_factor"])

    def verdict(out):
        w, b = out[0]
        problem = q4_problem(w, b, new_w, new_b)
        assert not problem, problem
        assert np.array_equal(out.inputs_after(0)[2], w0), IN_PLACE_W
        w3, b3 = out[1]
        assert not (np.allclose(w3, [1.0, 1.0]) and np.isclose(b3, 1.0)), (
            "the point has margin 3: it is correct, so the perceptron would not move, but LMS steps on every "
            "point with a non-zero error y - f(x)")

    return [call("lms_step", np.array([1.0, 1.0]), 1, w0, 0.0, 0.25, inputs_after=True),
            call("lms_step", np.array([1.0, 1.0]), 1, np.array([1.0, 1.0]), 1.0, 0.25)], verdict


def _lms_cases(rng, count):
    cases = []
    for _ in range(count):
        d = int(rng.integers(1, 5))
        cases.append((rng.normal(size=d), int(rng.choice([-1, 1])), rng.normal(size=d), float(rng.normal()),
                      float(rng.uniform(0.01, 0.5))))
    return cases


@check("q4", hidden=True)
def test_lms_step_weights_match_reference(rng, v):
    cases = _lms_cases(rng, 20)

    def verdict(out):
        for k, (case, (w, _)) in enumerate(zip(cases, out)):
            assert np.allclose(w, lms_ref(*case, v["lms_factor"])[0]), "wrong weights after the LMS step"
            assert np.array_equal(out.inputs_after(k)[2], case[2]), IN_PLACE_W

    return [call("lms_step", *case, forbid=OWN, inputs_after=True) for case in cases], verdict


@check("q4", hidden=True)
def test_lms_step_bias_matches_reference(rng, v):
    cases = _lms_cases(rng, 20)

    def verdict(out):
        for case, (_, b) in zip(cases, out):
            assert np.isclose(b, lms_ref(*case, v["lms_factor"])[1]), "wrong bias after the LMS step"

    return [call("lms_step", *case, forbid=OWN) for case in cases], verdict


@check("q4", hidden=True)
def test_lms_steps_on_correct_points(rng, v):
    # Points the perceptron gets right (margin above 1), which LMS still moves: back towards margin 1.
    cases = []
    for _ in range(10):
        d = int(rng.integers(2, 4))
        x, y = rng.normal(size=d), int(rng.choice([-1, 1]))
        w = y * (2.0 + rng.uniform(0, 2)) * x / (x @ x)
        cases.append((x, y, w, 0.0, 0.1))

    def verdict(out):
        for case, (w, b) in zip(cases, out):
            new_w, new_b = lms_ref(*case, v["lms_factor"])
            assert np.allclose(w, new_w) and np.isclose(b, new_b), (
                "wrong step on a point with margin above 1: LMS steps there, by the error y - f(x)")

    return [call("lms_step", *case, forbid=OWN) for case in cases], verdict


# --------------------------------------------------------------------- q5: backprop and its check


KEYS = ("V", "beta", "w", "b")


def gradient_problem(params: dict, gradients: dict) -> str:
    """What is wrong with the keys, shapes or entries of each of ``gradients`` (function name -> its dictionary).

    Empty if each has the keys and shapes of ``params`` (``"b"`` a number, like ``params["b"]``) and
    finite entries.
    """
    for name, g in gradients.items():
        if not isinstance(g, dict) or set(g) != set(params):
            return f"{name} should return a dictionary with the keys of params, {sorted(params)}"
        for k, given in params.items():
            shape = np.shape(given)
            if np.shape(g[k]) != shape:
                like = "a number, like params['b'] (float(...))" if shape == () else f"shape {shape}, like params[{k!r}]"
                return f"{name}(...)[{k!r}] has shape {np.shape(g[k])}: it should be {like}"
            if not np.all(np.isfinite(np.asarray(g[k], dtype=float))):
                return f"{name}(...)[{k!r}] holds entries that are not finite numbers"
    return ""


def gap_problem(params: dict, exact: dict, numeric: dict, gap, loss) -> str:
    """Whether ``gap`` is backprop's (``exact``) distance to ``numeric_gradient`` and small; if not, why, in words.

    Where the two disagree, a finite difference of ``loss`` along the parameter they disagree most on, in
    the direction of their difference, says which of them is off.
    """
    if not isinstance(gap, float | np.floating) or not gap >= 0:
        return ("gradient_gap should be a number: the largest absolute difference between backprop and "
                "numeric_gradient, over every entry of every parameter")
    diffs = {k: np.asarray(exact[k], dtype=float) - np.asarray(numeric[k], dtype=float) for k in KEYS}
    worst = max(KEYS, key=lambda k: float(np.max(np.abs(diffs[k]))))
    largest = float(np.max(np.abs(diffs[worst])))
    if largest < 1e-6:
        if gap < 1e-6:
            return ""
        return ("backprop and numeric_gradient agree to within 1e-6, yet gradient_gap is not below 1e-6: it "
                "should be the largest absolute difference between them, over every entry of every parameter")
    d = diffs[worst] / np.sqrt(np.sum(diffs[worst] ** 2))  # a unit step along their difference
    t = 1e-5
    slope = (loss({**params, worst: params[worst] + t * d}) - loss({**params, worst: params[worst] - t * d})) / (2 * t)
    off = {name: abs(float(np.sum(np.asarray(g[worst], dtype=float) * d)) - slope) > largest / 4
           for name, g in (("backprop", exact), ("numeric_gradient", numeric))}
    head = (f"backprop and numeric_gradient disagree most on the entries of {worst!r} (by {largest:.1e}; "
            "gradient_gap should be below 1e-6). A finite difference of point_loss along that parameter agrees ")
    if not off["numeric_gradient"]:
        return head + (f"with numeric_gradient, not with backprop: backprop looks wrong. Derive its gradient for "
                       f"{worst!r} again by the chain rule, with this homework's activation")
    if not off["backprop"]:
        return head + (f"with backprop, not with numeric_gradient: numeric_gradient looks wrong. Check how it "
                       f"moves each entry of {worst!r} (by +eps and by -eps, one entry at a time, the others as "
                       "given) and that it divides the change of point_loss by 2 * eps")
    return head + f"with neither of them: check both functions for {worst!r}"


@check("q5")
def test_network_gradient_check(rng, v):
    p, x, y = net_data(v)
    h, f = forward_ref(p, x, v["activation"])

    def loss(q):
        return float(np.logaddexp(0.0, -y * forward_ref(q, x, v["activation"])[1]))

    def verdict(out):
        got_h, got_f = out[0]
        assert np.allclose(got_h, h, atol=1e-6) and np.isclose(got_f, f, atol=1e-6), (
            "forward gives the wrong hidden values or score for the notebook's network: check the activation")
        assert np.array_equal(out.inputs_after(1)[0]["V"], p["V"]) and out.inputs_after(1)[0]["b"] == p["b"], (
            "numeric_gradient changed the parameters it was given: move a copy, or put each one back")
        exact, numeric = out[3], out[1]
        problem = gradient_problem(p, {"backprop": exact, "numeric_gradient": numeric})
        problem = problem or gap_problem(p, exact, numeric, out[2], loss)
        assert not problem, problem

    return [call("forward", p, x), call("numeric_gradient", p, x, y, inputs_after=True),
            value("gradient_gap"), call("backprop", p, x, y)], verdict


@check("q5", hidden=True)
def test_forward_and_backprop_match_reference(rng, v):
    cases = [(random_params(rng, int(rng.integers(1, 4)), int(rng.integers(1, 4))), int(rng.choice([-1, 1])))
             for _ in range(10)]
    cases = [(p, rng.normal(size=p["V"].shape[1]), y) for p, y in cases]

    def verdict(out):
        for k, (p, x, y) in enumerate(cases):
            h, f = out[2 * k]
            ref_h, ref_f = forward_ref(p, x, v["activation"])
            assert np.allclose(h, ref_h) and np.isclose(f, ref_f), "forward is wrong on a random network"
            g, ref = out[2 * k + 1], backprop_ref(p, x, y, v["activation"])
            for name in KEYS:
                assert np.shape(g[name]) == np.shape(p[name]), (
                    f"backprop's gradient for {name} does not have the shape of params[{name!r}]")
                assert np.allclose(g[name], ref[name]), f"backprop's gradient for {name} is wrong"

    calls = []
    for p, x, y in cases:
        calls += [call("forward", p, x, forbid=OWN), call("backprop", p, x, y, forbid=OWN)]
    return calls, verdict


@check("q5", hidden=True)
def test_numeric_gradient_differentiates_point_loss(rng, v):
    # With a large step the central differences are far from the exact gradient: a numeric_gradient
    # that moves each parameter by eps and differences the loss finds them; one that returns backprop
    # (or ignores eps) does not.
    cases = [(random_params(rng, 2, 2), rng.normal(size=2), int(rng.choice([-1, 1])), float(eps))
             for eps in (0.5, 0.8, 1.0)]

    def verdict(out):
        for (p, x, y, eps), g in zip(cases, out):
            ref = numeric_ref(p, x, y, eps, v["activation"])
            for name in KEYS:
                assert np.shape(g[name]) == np.shape(p[name]), (
                    f"numeric_gradient's gradient for {name} does not have the shape of params[{name!r}]")
                assert np.allclose(g[name], ref[name], atol=1e-9), (
                    f"numeric_gradient with eps = {eps} does not difference point_loss, one entry at a time, "
                    "by +eps and -eps")

    return [call("numeric_gradient", p, x, y, eps=eps, forbid=OWN) for p, x, y, eps in cases], verdict


@check("q5", hidden=True)
def test_gradient_gap_is_measured(rng, v):
    p, x, y = net_data(v)
    exact = backprop_ref(p, x, y, v["activation"])

    def verdict(out):
        g, gap = out
        for name in KEYS:
            assert np.shape(g[name]) == np.shape(p[name]) and np.allclose(g[name], exact[name], atol=1e-6), (
                "numeric_gradient is wrong on the notebook's network")
        assert isinstance(gap, float | np.floating) and 0 < gap < 1e-6, "gradient_gap is not measured"

    return [call("numeric_gradient", p, x, y, forbid=OWN), value("gradient_gap")], verdict

