"""Homework 3, convergence and beyond: the tests of q1-q5 (public ones as in the notebook), and its variants.

:func:`variant` is the one place the homework's rules and data live. The public secret gives the
book's perceptron (the bias learned as a weight on a constant 1, ``b <- b + y``), the pocket that
takes new weights only when they make strictly fewer errors, and the datasets the public master
names. Any other secret learns the bias as the CMU notes do (``b <- b + y R**2``, the points
augmented with ``R``: ``perceptron.train(..., bias="radius")``), picks the pocket's tie rule, and
draws other datasets, so that the public master's solutions lose points under it. The build
renders the master's ``{{ name }}`` placeholders from the same dictionary.
"""

from __future__ import annotations

import numpy as np

import perceptron
from perceptron.datasets import make_overlapping, make_separable

from . import NOTHING_OF_THE_PACKAGE as OWN
from . import PUBLIC_SECRET, TRAINERS, call, check, fingerprint, rng_for, value

ASSIGNMENT = "hw3_convergence"
# The notebook's (X, y), the experiment's datasets (q4: seeds q4_first, ..., q4_first + q4_count - 1)
# and the overlapping data of the pocket's demonstration.
PUBLIC = {"bias": "one", "ties": "strict", "n": 50, "margin": 0.1, "seed": 11, "q4_n": 30, "q4_margin": 0.05,
          "q4_first": 0, "q4_count": 20, "o_n": 200, "o_separation": 2.0, "o_seed": 3}
PRIVATE = (("radius", "strict"), ("radius", "ties"))  # the bias as the CMU notes learn it, either tie rule
NO_BOUND = (*TRAINERS, "sklearn.*")  # novikoff_bound may call max_margin, not the package's bound
Q1_X = [[3.0, 4.0], [1.0, 0.0], [0.0, -2.0]]
Q2_X = [[1.0, 2.0], [-3.0, 0.5]]
Q5_X = [[1.0], [2.0], [3.0], [-1.0], [-2.0], [1.5]]  # one negative point among the positives
Q5_Y = [1, 1, 1, -1, -1, -1]

BIAS_TEXT = {
    "one": r"$b \leftarrow b + y_i$ (the bias is the weight of a constant feature $1$)",
    "radius": r"$b \leftarrow b + y_i R^2$, with $R$ the radius of the training data (the bias is $R$ times the "
              r"weight of a constant feature $R$, as in the CMU notes)",
}
AUG_TEXT = {"one": "a column of ones", "radius": "a column equal to $R$ = `radius(X)` (the radius of `X` itself)"}
NAIVE_BOUND_TEXT = {
    "one": r"and for it $(R/\gamma^\star)^2$ with the best margin $\gamma^\star$ of any hyperplane is *false* (on the "
           "irises of chapter 8 measured in millimetres it is about 4004, and the perceptron makes 124963 mistakes)",
    "radius": r"and the theorem does not give it $(R/\gamma^\star)^2$ with the best margin $\gamma^\star$ of any "
              r"hyperplane either (the CMU notes state $(2R/\gamma^\star)^2$ for it)",
}
TIE_TEXT = {
    "strict": "if that is *strictly* fewer than the pocket's count, put the new weights in the pocket (a copy!)",
    "ties": "if that is fewer than the pocket's count *or as many* (a tie goes to the newer weights), put the "
            "new weights in the pocket (a copy!)",
}
TIE_RULE = {"strict": "new weights go into the pocket only when they make strictly fewer errors",
            "ties": "new weights go into the pocket when they make fewer errors or as many"}


def constant(X, bias: str) -> float:
    """The constant feature of the augmented points: 1, or the radius of ``X``."""
    return 1.0 if bias == "one" else perceptron.radius(X)


def augment_ref(X, bias: str) -> np.ndarray:
    X = np.asarray(X, dtype=float)
    return np.column_stack([X, np.full(len(X), constant(X, bias))])


def bound_ref(X, y, bias: str) -> float:
    Z = augment_ref(X, bias)
    return (perceptron.radius(Z) / perceptron.max_margin(Z, y, bias="none").gamma) ** 2


def pocket_ref(X, y, v: dict, max_epochs: int = 50):
    """The grader's pocket: the variant's bias update and tie rule, every update in order."""
    X, y = np.asarray(X, dtype=float), np.asarray(y)
    c2 = constant(X, v["bias"]) ** 2
    w, b = np.zeros(X.shape[1]), 0.0
    best = (w.copy(), b, len(y))
    for _ in range(max_epochs):
        clean = True
        for x_i, y_i in zip(X, y):
            if y_i * (x_i @ w + b) <= 0:
                w, b, clean = w + y_i * x_i, b + y_i * c2, False
                errors = int(np.count_nonzero(y * (X @ w + b) <= 0))
                if errors < best[2] or (v["ties"] == "ties" and errors == best[2]):
                    best = (w.copy(), float(b), errors)
        if clean:
            break
    return best


def given(v: dict):
    return make_separable(v["n"], margin=v["margin"], seed=v["seed"])


def experiment(v: dict) -> list:
    return [make_separable(v["q4_n"], margin=v["q4_margin"], seed=s)
            for s in range(v["q4_first"], v["q4_first"] + v["q4_count"])]


def _same_margins(v: dict) -> bool:
    X, y = given(v)
    gamma = perceptron.max_margin(X, y).gamma
    return bool(np.isclose(gamma, perceptron.max_margin(augment_ref(X, v["bias"]), y, bias="none").gamma, rtol=1e-6))


def _numbers(values) -> str:
    return "[" + ", ".join(f"{float(x):g}" for x in values) + "]"


def variant(secret: str) -> dict:
    """The homework's rules and data under ``secret``, with the master's placeholder values."""
    v = dict(PUBLIC)
    if secret != PUBLIC_SECRET:
        rng = rng_for(secret, ASSIGNMENT, "variant")
        v["bias"], v["ties"] = PRIVATE[int(rng.integers(len(PRIVATE)))]
        v["q4_first"], v["o_seed"] = (int(s) for s in rng.integers(1, 10**6, size=2))
        # The notebook's data: the first whose best margin through the origin, augmented, is
        # smaller than the best margin (the public q2 check tells a student who mixes them up).
        for _ in range(100):
            v["seed"] = int(rng.integers(1, 10**6))
            if not _same_margins(v):
                break
        else:  # pragma: no cover - one seed in a few fails, never a hundred in a row
            raise RuntimeError("no dataset for the notebook")
    w5, b5, errors5 = pocket_ref(Q5_X, Q5_Y, v, max_epochs=20)
    w5_other, b5_other, _ = pocket_ref(Q5_X, Q5_Y, {**v, "ties": "ties" if v["ties"] == "strict" else "strict"}, 20)
    if np.allclose(w5, w5_other) and np.isclose(b5, b5_other):  # the example does not tell the rules apart
        w5_other, b5_other = [np.nan], np.nan
    mistakes = [perceptron.train(Xs, ys, bias=v["bias"]).mistakes for Xs, ys in experiment(v)]
    v.update(
        bias_text=BIAS_TEXT[v["bias"]], naive_bound_text=NAIVE_BOUND_TEXT[v["bias"]], aug_text=AUG_TEXT[v["bias"]], aug_c="1" if v["bias"] == "one" else "R",
        aug_column="np.ones(len(X))" if v["bias"] == "one" else "np.full(len(X), radius(X))",
        c2_code="1.0" if v["bias"] == "one" else "radius(X) ** 2",
        tie_text=TIE_TEXT[v["ties"]],
        check_constant="1.0" if v["bias"] == "one" else "perceptron.radius(X)",
        aug_doc="a column of ones" if v["bias"] == "one" else "a column equal to radius(X)",
        pocket_bias_doc="b <- b + y;" if v["bias"] == "one" else "b <- b + y R**2, with R = radius(X);",
        pocket_takes="errors < best_errors" if v["ties"] == "strict" else "errors <= best_errors",
        q5_w=_numbers(w5), q5_b=f"{b5:g}", q5_errors=errors5, tie_rule=TIE_RULE[v["ties"]],
        q5_other_w=_numbers(w5_other).replace("nan", "np.nan"), q5_other_b=f"{b5_other:g}".replace("nan", "np.nan"),
        q2_column=repr(constant(Q2_X, v["bias"])), aug_of_R="1.0" if v["bias"] == "one" else "R",
        aug_plain="a column of ones" if v["bias"] == "one" else "a column equal to R = radius(X)",
        q4_fingerprint=fingerprint(ASSIGNMENT, "q4", sum(mistakes)),
    )
    return v


def _is_number(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


IN_PLACE = "{name} changed the array it was given: work on a copy (for example np.asarray(X, dtype=float))"


# ------------------------------------------------------------------------------ q1: radius


def diagnose_radius(got, X) -> None:
    assert got is not None and np.ndim(got) == 0, "radius should return one number"
    got, X = float(got), np.asarray(X, dtype=float)
    norms = np.linalg.norm(X, axis=1)
    if np.isclose(got, norms.max()):
        return
    if np.isclose(got, np.linalg.norm(X, axis=0).max()):
        raise AssertionError("that is the largest norm of a column: take the norm of every row (axis=1)")
    if np.isclose(got, (norms**2).max()):
        raise AssertionError("that is the largest squared norm: take the square root")
    if np.isclose(got, np.abs(X).max()):
        raise AssertionError("that is the largest coordinate: the radius is the largest Euclidean norm of a row")
    raise AssertionError("radius(X) should be the largest Euclidean norm of a row of X")


@check("q1")
def test_radius_small_example(rng, v):
    X_given, _ = given(v)

    def verdict(out):
        diagnose_radius(out[0], Q1_X)
        assert np.array_equal(out.inputs_after(0)[0], Q1_X), IN_PLACE.format(name="radius")
        R, mine = out[1], out[2]
        assert _is_number(R) and mine is not None and np.isclose(R, float(mine)), (
            "R is not the radius of the data X (radius(X))")

    return [call("radius", np.array(Q1_X), forbid=OWN, inputs_after=True), value("R"),
            call("radius", X_given, forbid=OWN)], verdict


@check("q1", hidden=True)
def test_radius_matches_reference(rng):
    cases = [rng.normal(scale=2.0, size=(35, d)) for d in (1, 3, 7)]

    def verdict(out):
        for X, got in zip(cases, out):
            assert np.isclose(float(got), perceptron.radius(X)), f"wrong radius for d = {X.shape[1]}"

    return [call("radius", X, forbid=OWN) for X in cases], verdict


@check("q1", hidden=True)
def test_R_of_the_given_data(rng, v):
    X, _ = given(v)

    def verdict(out):
        R = out[0]
        assert R is not None and np.isclose(float(R), perceptron.radius(X)), "R is not the radius of X"

    return [value("R")], verdict


# ------------------------------------------------------------------- q2: margins, augmented data


@check("q2")
def test_margins_are_consistent(rng, v):
    def verdict(out):
        gamma, R_aug, gamma_aug = out[0], out[1], out[2]  # R (question 1's) only when they are consistent
        assert all(_is_number(x) for x in (gamma, R_aug, gamma_aug)), "set gamma, R_aug and gamma_aug (numbers)"
        assert not np.isclose(gamma_aug, gamma, rtol=1e-6), (
            "gamma_aug equals gamma: gamma_aug is the best margin *through the origin* of the augmented points "
            "(max_margin(..., bias=\"none\"))")
        assert 0 < gamma_aug <= gamma, (
            "0 < gamma_aug <= gamma: the best unit (w, b) for the augmented points has ||w|| <= ||(w, b)|| = 1,"
            " so its margin y (w.x + b) / ||w|| is at least gamma_aug"
        )
        Z = np.asarray(out[4], dtype=float)
        c = constant(Q2_X, v["bias"])
        assert Z.shape == (2, 3) and np.allclose(Z[:, :2], Q2_X), "augment should keep X and append one column"
        assert np.allclose(Z[:, 2], c), f"augment should append {v['aug_plain']}"
        assert np.array_equal(out.inputs_after(4)[0], Q2_X), IN_PLACE.format(name="augment")
        R = out[3]
        if _is_number(R):
            assert np.isclose(R_aug, np.hypot(R, constant([[R]], v["bias"]))), (
                f"R_aug does not agree with R: every augmented point is (x_i, {v['aug_c']}), so R_aug^2 = R^2 + "
                f"{v['aug_c']}^2")

    return [value("gamma"), value("R_aug"), value("gamma_aug"), value("R"),
            call("augment", np.array(Q2_X), forbid=OWN, inputs_after=True)], verdict


@check("q2", hidden=True)
def test_margins_match_reference(rng, v):
    X, y = given(v)
    Z = augment_ref(X, v["bias"])

    def verdict(out):
        gamma, R_aug, gamma_aug = (float(x) for x in out)
        assert np.isclose(gamma, perceptron.max_margin(X, y).gamma, rtol=1e-6), "gamma"
        assert np.isclose(R_aug, perceptron.radius(Z)), "R_aug"
        assert np.isclose(gamma_aug, perceptron.max_margin(Z, y, bias="none").gamma, rtol=1e-6), "gamma_aug"

    return [value("gamma"), value("R_aug"), value("gamma_aug")], verdict


@check("q2", hidden=True)
def test_augment_on_random_data(rng, v):
    X = rng.normal(size=(9, 3))

    def verdict(out):
        Z = np.asarray(out[0], dtype=float)
        assert Z.shape == (9, 4) and np.allclose(Z[:, :3], X) and np.allclose(Z[:, 3], constant(X, v["bias"])), (
            "augment should append the constant column"
        )

    return [call("augment", X, forbid=OWN)], verdict


# ------------------------------------------------------------------------------ q3: the bound


@check("q3")
def test_bound_of_the_given_data(rng, v):
    X, y = given(v)

    def verdict(out):
        got, R_aug, gamma_aug, R, gamma = out[0], out[1], out[2], out[3], out[4]
        assert got is not None and np.ndim(got) == 0, "novikoff_bound should return one number"
        got = float(got)
        if np.isclose(got, bound_ref(X, y, v["bias"]), rtol=1e-6):
            return
        consistent = _is_number(R_aug) and _is_number(gamma_aug) and gamma_aug != 0
        assert not (consistent and np.isclose(got, (R_aug / gamma_aug) ** 2)), (
            "novikoff_bound agrees with your R_aug and gamma_aug, but they are not the radius and the best margin "
            "through the origin of the augmented points: run question 2's check first")
        if all(_is_number(x) and x > 0 for x in (R, gamma)) and np.isclose(got, (R / gamma) ** 2):
            raise AssertionError("that is (R / gamma)^2 for the data as they are: for a perceptron that learns a "
                                 "bias it is not the theorem's bound; use the augmented points")
        if _is_number(R_aug) and _is_number(gamma_aug) and np.isclose(got, R_aug / gamma_aug):
            raise AssertionError("square it: the bound is (R_aug / gamma_aug)^2")
        assert np.isclose(got, (float(R_aug) / float(gamma_aug)) ** 2), "expected (R_aug / gamma_aug)**2"

    return [call("novikoff_bound", X, y, forbid=NO_BOUND), value("R_aug"), value("gamma_aug"), value("R"),
            value("gamma")], verdict


@check("q3", hidden=True)
def test_bound_matches_reference(rng, v):
    cases = [make_separable(30, d, margin=0.1, seed=int(rng.integers(2**31))) for d in (2, 4)]

    def verdict(out):
        for (X, y), got in zip(cases, out):
            assert np.isclose(float(got), bound_ref(X, y, v["bias"]), rtol=1e-6), f"wrong bound for d = {X.shape[1]}"

    return [call("novikoff_bound", X, y, forbid=NO_BOUND) for X, y in cases], verdict


# --------------------------------------------------------------------------- q4: the experiment


@check("q4")
def test_experiment_shapes(rng, v):
    X0, y0 = experiment(v)[0]

    def verdict(out):
        mistakes, bounds, bound_holds, tightness, first_bound = out
        count = v["q4_count"]
        assert np.shape(mistakes) == (count,) and np.shape(bounds) == (count,), "one entry per seed"
        mistakes, bounds = np.asarray(mistakes), np.asarray(bounds, dtype=float)
        assert np.all(mistakes == np.round(mistakes)) and np.all(mistakes >= 1), (
            "mistakes counts updates: whole numbers, at least 1")
        assert isinstance(bound_holds, (bool, np.bool_)), "bound_holds should be True or False"
        assert bool(bound_holds) == bool(np.all(mistakes <= bounds)), "bound_holds does not agree with your arrays"
        assert _is_number(tightness) and np.isclose(tightness, np.max(mistakes / bounds)), (
            "tightness is not the largest ratio mistakes / bounds of your arrays")
        assert np.isclose(bounds[0], float(first_bound)), (
            "bounds[0] is not novikoff_bound of the first dataset")
        assert np.isclose(bounds[0], bound_ref(X0, y0, v["bias"]), rtol=1e-6), (
            "your bounds come from your novikoff_bound, which is not the theorem's bound yet: run question 3's "
            "check first")
        assert fingerprint(ASSIGNMENT, "q4", int(np.sum(mistakes))) == v["q4_fingerprint"], (
            f"the mistake counts are not those of this homework's perceptron, train(X, y, bias=\"{v['bias']}\"), on "
            "these datasets")

    return [value("mistakes"), value("bounds"), value("bound_holds"), value("tightness"),
            call("novikoff_bound", X0, y0, forbid=NO_BOUND)], verdict


def _experiment_right(v: dict):
    def right(mistakes, bounds):
        data = experiment(v)
        assert np.array_equal(mistakes, [perceptron.train(Xs, ys, bias=v["bias"]).mistakes for Xs, ys in data]), (
            "mistakes")
        assert np.allclose(np.asarray(bounds, dtype=float), [bound_ref(Xs, ys, v["bias"]) for Xs, ys in data],
                           rtol=1e-6), "bounds"

    return right


@check("q4", hidden=True)
def test_experiment_matches_reference(rng, v):
    right = _experiment_right(v)

    def verdict(out):
        right(*out)

    return [value("mistakes"), value("bounds")], verdict


@check("q4", hidden=True)
def test_experiment_conclusion(rng, v):
    # The conclusion earns its point only with the numbers it is drawn from (True is no guess).
    right = _experiment_right(v)

    def verdict(out):
        mistakes, bounds, bound_holds, tightness = out
        assert bound_holds is True or type(bound_holds) is np.bool_ and bool(bound_holds), (
            "the theorem holds on every separable dataset"
        )
        ratio = np.max(np.asarray(mistakes, dtype=float) / np.asarray(bounds, dtype=float))
        assert np.isclose(float(tightness), ratio), "tightness"
        right(mistakes, bounds)

    return [value("mistakes"), value("bounds"), value("bound_holds"), value("tightness")], verdict


# ------------------------------------------------------------------------------ q5: the pocket


@check("q5")
def test_pocket_small_example(rng, v):
    X, y = np.array(Q5_X), np.array(Q5_Y)
    w_ref, b_ref, errors_ref = pocket_ref(X, y, v, max_epochs=20)

    def verdict(out):
        w, b, errors = out[0]
        w, b = np.asarray(w, dtype=float), float(b)
        after = out.inputs_after(0)
        assert np.array_equal(after[0], X) and np.array_equal(after[1], y), IN_PLACE.format(name="pocket")
        assert np.count_nonzero(y * (X @ w + b) <= 0) == errors, (
            "errors must count the points the returned (w, b) gets wrong: did the pocket keep a copy?")
        if np.allclose(w, w_ref) and np.isclose(b, b_ref) and errors == errors_ref:
            return
        other = pocket_ref(X, y, {**v, "ties": "ties" if v["ties"] == "strict" else "strict"}, max_epochs=20)
        if np.allclose(w, other[0]) and np.isclose(b, other[1]):
            raise AssertionError(f"a tie: read the pocket's rule again ({v['tie_rule']})")
        raise AssertionError(f"expected the pocket w = {v['q5_w']}, b = {v['q5_b']} with {v['q5_errors']} "
                             f"error(s), got w = {w}, b = {b:g} with {errors}")

    return [call("pocket", X, y, max_epochs=20, forbid=OWN, inputs_after=True)], verdict


@check("q5", hidden=True)
def test_pocket_matches_reference_on_overlapping_data(rng, v):
    cases = [(*make_overlapping(40, 3, separation=1.5, seed=int(rng.integers(2**31))), epochs) for epochs in (5, 30)]

    def verdict(out):
        for (X, y, epochs), got in zip(cases, out):
            w, b, errors = got
            w_ref, b_ref, errors_ref = pocket_ref(X, y, v, max_epochs=epochs)
            assert errors == errors_ref, f"{errors} errors instead of {errors_ref}"
            assert np.allclose(w, w_ref) and np.isclose(b, b_ref), "a different (w, b) went into the pocket"

    return [call("pocket", X, y, max_epochs=epochs, forbid=OWN) for X, y, epochs in cases], verdict


@check("q5", hidden=True)
def test_pocket_on_separable_data(rng, v):
    X, y = make_separable(40, 2, margin=0.1, seed=int(rng.integers(2**31)))

    def verdict(out):
        w, b, errors = out[0]
        ref = perceptron.train(X, y, bias=v["bias"])
        assert errors == 0 and np.allclose(w, ref.w) and np.isclose(b, ref.b), (
            "on separable data the pocket ends with the perceptron's final weights"
        )

    return [call("pocket", X, y, forbid=OWN)], verdict
