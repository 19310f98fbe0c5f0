"""Homework 2, linear classifiers: the tests of q1-q4 (public ones as in the notebook), and its variants.

:func:`variant` is the one place the homework's conventions and data live. The public secret
gives the book's conventions (sgn(0) = +1, the geometric margin divides by ``||w||``, the
prototypes are the class means); any other secret changes at least two of the three (sgn(0) =
-1, the margin of the points augmented with a 1 divided by ``||(w, b)||``, the class medians), so
that the public master's solutions lose points under it. The master's ``{{ name }}``
placeholders (the conventions in its text, its solutions, the public tests' expected values and
the demonstration's data) are rendered from the same dictionary by the build.

The public tests say *which* common mistake an answer makes (the scores without the labels, the
margin's absolute value, a flipped prototype, a library call, an input changed in place) in the
notebook and here alike; the hidden ones compare with the grader's reference on random data.
"""

from __future__ import annotations

import numpy as np

from perceptron.datasets import make_separable

from . import NOTHING_OF_THE_PACKAGE as OWN
from . import PUBLIC_SECRET, call, check, rng_for

ASSIGNMENT = "hw2_linear_classifiers"
PUBLIC = {"tie": "plus", "norm": "w", "center": "mean", "demo_n": 60, "demo_seed": 5}
# Every private variant changes at least two of the three conventions.
PRIVATE = (("minus", "wb", "mean"), ("minus", "w", "median"), ("plus", "wb", "median"), ("minus", "wb", "median"))

TIE_TEXT = {
    "plus": r"$\operatorname{sgn}(0) = +1$, so a point on the hyperplane belongs to the positive class",
    "minus": r"$\operatorname{sgn}(0) = -1$, so a point on the hyperplane belongs to the *negative* class",
}
NORM_TEXT = {
    "w": r"the smallest functional margin divided by $\lVert w \rVert$. It is the distance from the hyperplane "
         "to the closest point when every point is on its own side; when some points are on the wrong side, "
         "it is minus the distance of the point *farthest* on the wrong side",
    "wb": r"the smallest functional margin divided by $\lVert (w, b) \rVert = \sqrt{\lVert w \rVert^2 + b^2}$ "
          "(in this homework the margin is measured for the points augmented with a constant 1, "
          r"$(x_i, 1)$, and the hyperplane through the origin with normal $(w, b)$). When every point is on "
          "its own side it is the distance from that hyperplane to the closest augmented point; when some "
          "points are on the wrong side, it is minus the distance of the augmented point *farthest* on the "
          "wrong side",
}
NORM_CODE = {"w": "np.linalg.norm(w)", "wb": "np.linalg.norm(np.append(w, b))"}
NORM_SHORT = {"w": "||w||", "wb": "||(w, b)||"}
CENTER_DOC = {"mean": "the class means", "median": "the class coordinate-wise medians (np.median along the rows)"}
CENTER_TEXT = {"mean": "means", "median": "coordinate-wise medians (`np.median` along the rows)"}

# The public examples (the same in the notebook's tests, whose expected values are rendered).
Q1_X, Q1_W, Q1_B = [[2.0, 1.0], [-1.0, -3.0], [0.5, 0.5]], [1.0, 1.0], -1.0
Q2_X, Q2_Y, Q2_W, Q2_B = [[1.0, 0.0], [-2.0, 0.0], [0.0, 1.0]], [1, -1, 1], [2.0, 0.0], 1.0
# A point on the wrong side, and a farther one: the worst point is not the closest.
Q3_X, Q3_Y, Q3_W, Q3_B = [[1.0, 0.0], [-1.0, 1.0], [3.0, -1.0]], [1, 1, -1], [1.0, 0.0], 0.5
Q4_X = [[2.0, 0.0], [4.0, 3.0], [9.0, 0.0], [0.0, 0.0], [-2.0, 3.0], [-4.0, 0.0]]  # means and medians differ
Q4_Y = [1, 1, 1, -1, -1, -1]


def predict_ref(X, w, b, tie: str) -> np.ndarray:
    scores = np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + b
    return np.where(scores > 0, 1, np.where(scores < 0, -1, 1 if tie == "plus" else -1))


def functional_ref(X, y, w, b) -> np.ndarray:
    return np.asarray(y, dtype=float) * (np.asarray(X, dtype=float) @ np.asarray(w, dtype=float) + b)


def norm_of(w, b, norm: str) -> float:
    return float(np.linalg.norm(w) if norm == "w" else np.linalg.norm(np.append(w, b)))


def geometric_ref(X, y, w, b, norm: str) -> float:
    return float(np.min(functional_ref(X, y, w, b)) / norm_of(w, b, norm))


def centers(X, y, center: str):
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    f = np.mean if center == "mean" else np.median
    return f(X[y == 1], axis=0), f(X[y == -1], axis=0)


def prototype_ref(X, y, center: str):
    c_plus, c_minus = centers(X, y, center)
    return c_plus - c_minus, float(c_minus @ c_minus - c_plus @ c_plus) / 2


def _numbers(values) -> str:
    return "[" + ", ".join(f"{v:g}" for v in values) + "]"


def variant(secret: str) -> dict:
    """The homework's conventions and data under ``secret``, with the master's placeholder values."""
    v = dict(PUBLIC)
    if secret != PUBLIC_SECRET:
        rng = rng_for(secret, ASSIGNMENT, "variant")
        v["tie"], v["norm"], v["center"] = PRIVATE[int(rng.integers(len(PRIVATE)))]
        v["demo_seed"] = int(rng.integers(1, 10**6))
    q1 = predict_ref(Q1_X, Q1_W, Q1_B, v["tie"])
    w4, b4 = prototype_ref(Q4_X, Q4_Y, v["center"])
    other_norm, other_center = ("wb" if v["norm"] == "w" else "w"), ("median" if v["center"] == "mean" else "mean")
    w4_other, b4_other = prototype_ref(Q4_X, Q4_Y, other_center)
    v.update(
        tie_text=TIE_TEXT[v["tie"]], sgn_zero="+1" if v["tie"] == "plus" else "-1",
        predict_code="np.where(scores >= 0, 1, -1)" if v["tie"] == "plus" else "np.where(scores > 0, 1, -1)",
        q1_expected=_numbers(q1), q1_on_line=int(q1[2]),
        norm_text=NORM_TEXT[v["norm"]], norm_code=NORM_CODE[v["norm"]], norm_short=NORM_SHORT[v["norm"]],
        other_norm_code=NORM_CODE[other_norm], other_norm_short=NORM_SHORT[other_norm],
        q3_expected=f"{geometric_ref(Q2_X, Q2_Y, Q2_W, Q2_B, v['norm']):.6g}",
        q3_worst=f"{geometric_ref(Q3_X, Q3_Y, Q3_W, Q3_B, v['norm']):.6g}",
        center_text=CENTER_TEXT[v["center"]], center_doc=CENTER_DOC[v["center"]], center_code=f"np.{v['center']}",
        center_word="means" if v["center"] == "mean" else "medians",
        q4_w=_numbers(w4), q4_b=f"{b4:g}", other_center=other_center, q4_other_w=_numbers(w4_other),
        q4_other_b=f"{b4_other:g}",
    )
    return v


IN_PLACE = "{name} changed the {what} it was given: work on a copy (for example np.asarray(X, dtype=float))"


def _unchanged(out, i: int, name: str, args: tuple, what: str = "array") -> None:
    """The arrays call ``i`` was given are as they were (no in-place change of the caller's data)."""
    for arg, after in zip(args, out.inputs_after(i)):
        if isinstance(arg, np.ndarray):
            assert np.array_equal(np.asarray(after), arg), IN_PLACE.format(name=name, what=what)


# ------------------------------------------------------------------------------ q1: predict


@check("q1")
def test_predict_small_example(rng, v):
    args = (np.array(Q1_X), np.array(Q1_W), Q1_B)
    expected = predict_ref(*args, v["tie"])

    def verdict(out):
        labels = np.asarray(out[0])
        assert labels.shape == (3,), f"predict should return one label per row of X, an array of shape (3,), not {labels.shape}"
        assert set(labels.tolist()) <= {-1, 1} and labels.dtype.kind in "iu", (
            "predict should return the integer labels -1 and +1 (not True/False, not 0/1, not the scores)")
        if np.array_equal(labels[:2], expected[:2]) and labels[2] != expected[2]:
            raise AssertionError(f"the third point lies on the line: in this homework sgn(0) = {v['sgn_zero']}")
        assert np.array_equal(labels, expected), f"expected {v['q1_expected']}, got {labels.tolist()}"
        _unchanged(out, 0, "predict", args)

    return [call("predict", *args, forbid=OWN, inputs_after=True)], verdict


@check("q1", hidden=True)
def test_predict_matches_reference_on_random_data(rng, v):
    cases = []
    for d in (1, 3, 6):
        cases.append((rng.normal(size=(40, d)), rng.normal(size=d), float(rng.normal())))

    def verdict(out):
        for (X, w, b), got in zip(cases, out):
            assert np.array_equal(np.asarray(got), predict_ref(X, w, b, v["tie"])), f"wrong labels for d = {X.shape[1]}"

    return [call("predict", X, w, b, forbid=OWN) for X, w, b in cases], verdict


@check("q1", hidden=True)
def test_predict_points_on_the_hyperplane(rng, v):
    # Integer points and weights: every point of the grid on the line is in X, where sgn(0) decides.
    w, b = np.array([2.0, -1.0]), 1.0
    grid = np.array([[x1, x2] for x1 in range(-4, 5) for x2 in range(-4, 5)], dtype=float)
    X = np.vstack([grid[rng.integers(0, len(grid), size=60)], grid[grid @ w + b == 0]])
    X = X[rng.permutation(len(X))]

    def verdict(out):
        assert np.array_equal(np.asarray(out[0]), predict_ref(X, w, b, v["tie"])), "wrong labels on the hyperplane"

    return [call("predict", X, w, b, forbid=OWN)], verdict


# ------------------------------------------------------------------- q2: functional margins


def diagnose_margins(got, X, y, w, b) -> None:
    """The common wrong functional margins, each with what to do about it."""
    got = np.atleast_1d(np.asarray(got, dtype=float))
    X, y, w = np.asarray(X, dtype=float), np.asarray(y, dtype=float), np.asarray(w, dtype=float)
    assert got.shape == y.shape, f"return one margin per point, an array of shape {y.shape}, not {got.shape}"
    if np.allclose(got, X @ w + b):
        raise AssertionError("these are the scores w . x_i + b: multiply each by its label y_i")
    if np.allclose(got, y * (X @ w)):
        raise AssertionError("the bias b is missing: the margin is y_i (w . x_i + b)")
    if np.allclose(got, functional_ref(X, y, w, b) / np.linalg.norm(w)):
        raise AssertionError("these are divided by ||w||: the functional margin is not normalized")
    assert np.allclose(got, functional_ref(X, y, w, b)), "these are not y_i (w . x_i + b)"


@check("q2")
def test_functional_margins_small_example(rng):
    args = (np.array(Q2_X), np.array(Q2_Y), np.array(Q2_W), Q2_B)

    def verdict(out):
        diagnose_margins(out[0], *args)
        _unchanged(out, 0, "functional_margins", args)

    return [call("functional_margins", *args, forbid=OWN, inputs_after=True)], verdict


@check("q2", hidden=True)
def test_functional_margins_match_reference(rng):
    cases = []
    for d in (2, 5):
        cases.append((rng.normal(size=(30, d)), rng.choice([-1, 1], size=30), rng.normal(size=d), float(rng.normal())))

    def verdict(out):
        for (X, y, w, b), got in zip(cases, out):
            assert np.allclose(np.asarray(got, dtype=float), functional_ref(X, y, w, b)), (
                f"wrong margins for d = {X.shape[1]}"
            )

    return [call("functional_margins", *case, forbid=OWN) for case in cases], verdict


@check("q2", hidden=True)
def test_functional_margins_scale_with_the_hyperplane(rng):
    X, y = rng.normal(size=(25, 3)), rng.choice([-1, 1], size=25)
    w, b = rng.normal(size=3), float(rng.normal())
    calls = [call("functional_margins", X, y, w, b, forbid=OWN),
             call("functional_margins", X, y, 3.5 * w, 3.5 * b, forbid=OWN)]

    def verdict(out):
        base, scaled = np.asarray(out[0], dtype=float), np.asarray(out[1], dtype=float)
        # A margin is positive exactly on the point's own side (so a constant answer fails).
        assert base.shape == (25,) and np.array_equal(base > 0, functional_ref(X, y, w, b) > 0), (
            "a margin should be positive exactly when the point is on its own side")
        assert np.allclose(scaled, 3.5 * base), "multiplying (w, b) by 3.5 should multiply every margin by 3.5"

    return calls, verdict


# --------------------------------------------------------------------- q3: geometric margin


def diagnose_geometric(got, X, y, w, b, v: dict) -> None:
    assert got is not None and np.ndim(got) == 0, "geometric_margin should return one number"
    got = float(got)
    f = functional_ref(X, y, w, b)
    expected = geometric_ref(X, y, w, b, v["norm"])
    if np.isclose(expected, got):
        return
    other = "wb" if v["norm"] == "w" else "w"
    if np.isclose(got, np.min(f)):
        raise AssertionError(f"that is the smallest functional margin: divide it by {v['norm_short']}")
    if np.isclose(got, np.min(f) / norm_of(w, b, other)):
        raise AssertionError(f"divided by {v['other_norm_short']}: in this homework divide by {v['norm_short']}")
    if np.isclose(got, np.min(np.abs(f)) / norm_of(w, b, v["norm"])):
        raise AssertionError("that is the distance of the closest point, whatever its side: a point on the wrong "
                             "side has a negative margin, and the worst one counts")
    if np.isclose(got, np.max(f) / norm_of(w, b, v["norm"])):
        raise AssertionError("that is the largest margin: the geometric margin is the smallest one")
    raise AssertionError(f"expected min_i y_i (w . x_i + b) / {v['norm_short']}")


@check("q3")
def test_geometric_margin_small_example(rng, v):
    cases = [(np.array(Q2_X), np.array(Q2_Y), np.array(Q2_W), Q2_B), (np.array(Q3_X), np.array(Q3_Y), np.array(Q3_W),
                                                                     Q3_B)]

    def verdict(out):
        for case, got in zip(cases, list(out)[:2]):
            try:
                diagnose_geometric(got, *case, v)
            except AssertionError:
                try:  # geometric_margin may use functional_margins: is question 2's answer the cause?
                    earlier = not np.allclose(out[2], functional_ref(*cases[0]))
                except AssertionError as not_run:  # not defined: not used either
                    earlier = "is not defined" not in str(not_run)
                if earlier:
                    raise AssertionError("geometric_margin is wrong, and your functional_margins does not pass "
                                         "question 2's check yet: if geometric_margin uses it, fix question 2 "
                                         "first") from None
                raise

    return [call("geometric_margin", *case, forbid=OWN) for case in cases] + [
        call("functional_margins", *cases[0], forbid=OWN)], verdict


@check("q3", hidden=True)
def test_geometric_margin_matches_reference(rng, v):
    cases = []
    for d in (2, 4):
        cases.append((rng.normal(size=(30, d)), rng.choice([-1, 1], size=30), rng.normal(size=d), float(rng.normal())))

    def verdict(out):
        for (X, y, w, b), got in zip(cases, out):
            assert np.isclose(float(got), geometric_ref(X, y, w, b, v["norm"])), f"wrong margin for d = {X.shape[1]}"

    return [call("geometric_margin", *case, forbid=OWN) for case in cases], verdict


@check("q3", hidden=True)
def test_geometric_margin_ignores_the_scale(rng, v):
    X, y = make_separable(40, 3, margin=0.2, seed=int(rng.integers(2**31)))
    w, b = rng.normal(size=3), float(rng.normal())
    expected = geometric_ref(X, y, w, b, v["norm"])
    scales = (0.01, 1.0, 250.0)

    def verdict(out):
        for c, got in zip(scales, out):
            assert np.isclose(float(got), expected), f"wrong margin when (w, b) is multiplied by {c}"

    return [call("geometric_margin", X, y, c * w, c * b, forbid=OWN) for c in scales], verdict


# ------------------------------------------------------------------------- q4: prototype


def diagnose_prototype(got, X, y, v: dict) -> None:
    w, b = got
    w, b = np.asarray(w, dtype=float), float(b)
    w_ref, b_ref = prototype_ref(X, y, v["center"])
    assert w.shape == w_ref.shape, f"w should have one weight per feature, shape {w_ref.shape}"
    if np.allclose(w, w_ref) and np.isclose(b, b_ref):
        return
    other = "median" if v["center"] == "mean" else "mean"
    w_other, b_other = prototype_ref(X, y, other)
    if np.allclose(w, w_other) and np.isclose(b, b_other):
        raise AssertionError(f"these prototypes are the class {other}s: in this homework they are the class "
                             f"{v['center_word']}")
    if np.allclose(w, -w_ref):
        raise AssertionError("w points from c_+ to c_-: w = c_+ - c_- points towards the positive class")
    assert np.allclose(w, w_ref), "w is not c_+ - c_-"
    if np.isclose(b, -b_ref):
        raise AssertionError("b has the wrong sign: b = (||c_-||^2 - ||c_+||^2) / 2")
    if np.isclose(b, 2 * b_ref):
        raise AssertionError("b is twice too large: b = (||c_-||^2 - ||c_+||^2) / 2")
    raise AssertionError("w is right, b is not (||c_-||^2 - ||c_+||^2) / 2")


@check("q4")
def test_prototype_small_example(rng, v):
    args = (np.array(Q4_X), np.array(Q4_Y))

    def verdict(out):
        diagnose_prototype(out[0], *args, v)
        _unchanged(out, 0, "prototype_classifier", args, "X or y")

    return [call("prototype_classifier", *args, forbid=OWN, inputs_after=True)], verdict


@check("q4", hidden=True)
def test_prototype_matches_reference(rng, v):
    cases = []
    for d in (2, 5):
        X = rng.normal(size=(45, d))
        y = np.where(rng.random(45) < 0.4, 1, -1)
        y[:2] = (1, -1)  # both classes present, whatever the draw
        cases.append((X, y))

    def verdict(out):
        for (X, y), got in zip(cases, out):
            w, b = got
            w_ref, b_ref = prototype_ref(X, y, v["center"])
            assert np.allclose(w, w_ref) and np.isclose(b, b_ref), f"wrong (w, b) for d = {X.shape[1]}"

    return [call("prototype_classifier", X, y, forbid=OWN) for X, y in cases], verdict


@check("q4", hidden=True)
def test_prototype_picks_the_nearest_mean(rng, v):
    X = rng.normal(size=(60, 3)) + np.array([1.0, 0.0, -0.5])
    y = np.where(X[:, 0] + rng.normal(scale=1.5, size=60) > 1.0, 1, -1)
    y[:2] = (1, -1)
    queries = rng.normal(scale=3.0, size=(200, 3))

    def verdict(out):
        w, b = out[0]
        c_plus, c_minus = centers(X, y, v["center"])
        to_plus = np.linalg.norm(queries - c_plus, axis=1)
        to_minus = np.linalg.norm(queries - c_minus, axis=1)
        nearest = np.where(to_plus <= to_minus, 1, -1)
        labels = np.where(queries @ np.asarray(w, dtype=float) + float(b) >= 0, 1, -1)
        assert np.array_equal(labels, nearest), f"some points get the class of the farther {v['center']}"

    return [call("prototype_classifier", X, y, forbid=OWN)], verdict
