"""The playground page (book/playground.md): its JavaScript engine against the Python package, and its UI.

Everything runs in Debian's Chromium on the built book, served from 127.0.0.1 with every other
request aborted (the ``browser`` and ``server`` fixtures of tests/conftest.py). The engine comparison
is one page load and one ``evaluate`` call: Python computes every run, the page replays it and
compares bit for bit (``Object.is`` on every coordinate of every update), and only the mismatches
come back.
"""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

import perceptron as pc
from perceptron import _core
from tests.support.browser import OfflinePage

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
PAGE = "book/playground.html"
BIAS_MODES = ["one", "radius", "none"]
RULES = ["margin", "sign"]
MAX_EPOCHS = 10


def open_playground(browser, server, **options) -> OfflinePage:
    """The playground opened offline (``options`` as for :class:`OfflinePage`), once its UI is ready."""
    offline = OfflinePage(browser, server, **options)
    try:
        offline.open(PAGE)
        offline.page.wait_for_function("() => window.perceptronPlayground && window.perceptronPlayground.ui")
    except BaseException:
        offline.close()
        raise
    return offline


@pytest.fixture(scope="module")
def playground(browser, server):
    page = open_playground(browser, server)
    yield page
    page.close()


def libm_pow_dataset() -> tuple[np.ndarray, np.ndarray]:
    """Separable points scaled so that R ** 2 (libm's pow) and R * R (IEEE) differ in the last bit.

    With bias="radius" the package's b is then that of ``eta * R * R``; a package computing
    ``R ** 2`` would disagree with the playground here (and with itself across C libraries).
    """
    X, y = pc.datasets.make_separable(20, margin=0.1, seed=3)
    for k in range(1, 100_000):
        s = 1.0 + k * 1e-6
        R = _core.bias_scale(X * s, "radius")
        if R**2 != R * R:
            return X * s, y
    raise AssertionError("no scale found where libm's pow(R, 2) differs from R * R")


def datasets() -> list[tuple[str, np.ndarray, np.ndarray]]:
    """2-D and higher-dimensional, continuous and small-integer (exact ties), separable or not."""
    rng = np.random.default_rng(2026)
    out = []
    for s in range(5):
        out.append((f"separable{s}", *pc.datasets.make_separable(30, margin=0.05 * (s + 1), seed=s)))
        out.append((f"overlapping{s}", *pc.datasets.make_overlapping(30, separation=1.0, seed=s)))
        for d in (3, 10, 130):  # 130 features: numpy's norm switches to pairwise blocks above 128
            X = rng.normal(size=(20, d)) * 3.0
            y = np.where(X @ rng.normal(size=d) + rng.normal() > 0, 1, -1)
            y[:2] = [1, -1]
            out.append((f"normal{d}d_{s}", X, y))
        X = rng.integers(-3, 4, size=(25, 2)).astype(float)  # integer grid: scores of exactly 0
        out.append((f"int2d_{s}", X, np.where(X @ [1.0, -2.0] + 1.0 >= 0, 1, -1)))
        X = rng.integers(-2, 3, size=(25, 4)).astype(float)
        y = rng.choice([-1, 1], size=25)
        y[:2] = [1, -1]
        out.append((f"int4d_{s}", X, y))
    out.append(("xor-square", np.array([[1.0, 1], [-1, -1], [1, -1], [-1, 1]]), np.array([1, 1, -1, -1])))
    out.append(("libm-pow", *libm_pow_dataset()))
    return out


def starts(d: int, rng: np.random.Generator) -> list[tuple[float, list[float] | None, float]]:
    """(eta, w0, b0): the zero start, a real-valued start, an integer start; several learning rates."""
    return [
        (1.0, None, 0.0),
        (0.1, rng.normal(size=d).tolist(), float(rng.normal())),
        (3.7, rng.integers(-2, 3, size=d).astype(float).tolist(), float(rng.integers(-2, 3))),
        (0.5, None, 0.0),
    ]


def sequential_errors(X: np.ndarray, y: np.ndarray, w: np.ndarray, b: float, rule: str) -> int:
    """Training errors with every score summed left to right, as the training loop itself scores.

    ``TrainResult.errors`` scores with ``X @ w`` (BLAS), which can round a tie differently from
    the loop (integer data, eta = 3.7); the playground counts as the loop decides.
    """
    scores = np.array([_core.sequential_dot(x, w) + b for x in X])
    wrong = y * scores <= 0 if rule == "margin" else np.where(scores >= 0, 1, -1) != y
    return int(np.count_nonzero(wrong))


def python_runs() -> tuple[list, list[dict]]:
    """The datasets (each sent once) and every run of perceptron.train on them, with its updates."""
    rng = np.random.default_rng(7)
    runs, data = [], []
    for k, (name, X, y) in enumerate(datasets()):
        data.append([X.tolist(), [int(v) for v in y]])
        # Every start in the fixed order, and the first two starts shuffled (numpy's permutations).
        settings = [(start, False) for start in starts(X.shape[1], rng)]
        settings += [(start, True) for start, _ in settings[:2]]
        for (eta, w0, b0), shuffle in settings:
            for bias in BIAS_MODES:
                for rule in RULES:
                    seed = 100 + k if shuffle else None
                    r = pc.train(X, y, eta=eta, bias=bias, w0=w0, b0=b0, max_epochs=MAX_EPOCHS, record=True,
                                 shuffle=shuffle, seed=seed, rule=rule)
                    runs.append({
                        "name": name, "data": k,
                        "opts": {"eta": eta, "bias": bias, "w0": w0, "b0": b0, "maxEpochs": MAX_EPOCHS, "rule": rule,
                                 "shuffle": shuffle, "seed": seed},
                        "w": r.w.tolist(), "b": r.b, "mistakes": r.mistakes, "epochs": r.epochs,
                        "converged": r.converged, "errors": sequential_errors(X, y, r.w, r.b, rule), "blas_errors": r.errors,
                        "history": [[u.index, u.epoch, u.w.tolist(), u.b] for u in r.history],
                    })
    return data, runs


def python_margins() -> list[dict]:
    """2-D datasets, separable or not (by a line, or through the origin), with Python's answers."""
    rng = np.random.default_rng(11)
    sets = []
    for s in range(8):
        sets.append(pc.datasets.make_separable(40, margin=(0.01, 0.05, 0.2)[s % 3], seed=s))
        sets.append(pc.datasets.make_separable(30, margin=0.1, radius=5.0, bias="none", seed=s))
        sets.append(pc.datasets.make_overlapping(40, separation=(1.0, 4.0)[s % 2], seed=s))
        sets.append(pc.datasets.make_xor(20, seed=s))
        X = rng.integers(-4, 5, size=(20, 2)).astype(float)  # ties: points on the other hull's edge
        y = np.where(X @ [1.0, 2.0] + 1.0 >= 0, 1, -1)
        if len(set(y)) == 2:
            sets.append((X, y))
    t = np.linspace(-2.0, 3.0, 11)
    sets += [  # degenerate geometry: collinear points, duplicates, supports on parallel edges
        (np.c_[t, 0 * t], np.where(t > 0.4, 1, -1)), (np.c_[t, 2 * t + 1], np.where(t > 0.4, 1, -1)),
        (np.array([[1.0, 1], [1, 1], [3, 3], [-1, -2], [-1, -2]]), np.array([1, 1, 1, -1, -1])),
        (np.array([[0.0, 1], [1, 1], [0, -1], [1, -1]]), np.array([1, 1, -1, -1])),
        (np.array([[0.0, 0], [2, 0], [1, 0]]), np.array([1, -1, 1])),  # between the others: no line
        (np.array([[1e5, 2e5], [-3e5, 1e5], [2e5, -1e5]]), np.array([1, -1, 1])),
    ]
    out = []
    for X, y in sets:
        case = {"X": X.tolist(), "y": [int(v) for v in y]}
        try:
            m = pc.max_margin(X, y)
            case["best"] = {"w": m.w.tolist(), "b": m.b, "gamma": m.gamma}
        except ValueError as err:
            assert "not linearly separable" in str(err)
            case["best"] = None
        for bias in BIAS_MODES:
            try:
                case[bias] = pc.mistake_bound(X, y, bias=bias)
            except ValueError as err:
                assert "not linearly separable" in str(err)
                case[bias] = None
        out.append(case)
    return out


COMPARE = """
(payload) => {
  const P = window.perceptronPlayground, data = JSON.parse(payload), bad = [];
  const same = (a, b) => Object.is(a, b);
  const sameVec = (a, b) => a.length === b.length && a.every((v, j) => same(v, b[j]));
  let updates = 0, blasDiffers = 0;
  for (const c of data.runs) {
    const [X, y] = data.data[c.data];
    const r = P.train(X, y, c.opts);
    const where = c.name + " " + JSON.stringify(c.opts);
    updates += c.history.length;
    if (!sameVec(r.w, c.w) || !same(r.b, c.b)) { bad.push(where + ": final (w, b) differ"); continue; }
    if (r.mistakes !== c.mistakes || r.epochs !== c.epochs || r.converged !== c.converged)
      { bad.push(where + ": counts differ"); continue; }
    if (r.errors !== c.errors) { bad.push(where + ": errors " + r.errors + " vs " + c.errors); continue; }
    if (c.errors !== c.blas_errors) blasDiffers += 1;
    if (r.history.length !== c.history.length) { bad.push(where + ": history length differs"); continue; }
    for (let k = 0; k < c.history.length; k++) {
      const h = r.history[k], e = c.history[k];
      if (h.index !== e[0] || h.epoch !== e[1] || !sameVec(h.w, e[2]) || !same(h.b, e[3]))
        { bad.push(where + ": update " + k + " differs"); break; }
    }
  }
  const rel = (a, b) => Math.abs(a - b) / Math.abs(b);
  let worst = 0, separable = 0, inseparable = 0;
  for (const [k, c] of data.margins.entries()) {
    const m = P.maxMargin(c.X, c.y);
    if ((m === null) !== (c.best === null)) { bad.push("margins " + k + ": null differs"); continue; }
    if (m !== null) {
      separable += 1;
      const norm = Math.hypot(m.w[0], m.w[1]);
      worst = Math.max(worst, rel(m.gamma, c.best.gamma), Math.abs(norm - 1));
      if (rel(m.gamma, c.best.gamma) > 1e-9 || Math.abs(norm - 1) > 1e-12) bad.push("margins " + k + ": gamma");
      if (Math.abs(m.w[0] - c.best.w[0]) > 1e-7 || Math.abs(m.w[1] - c.best.w[1]) > 1e-7) bad.push("margins " + k + ": w");
    } else inseparable += 1;
    for (const bias of ["one", "radius", "none"]) {
      const q = P.mistakeBound(c.X, c.y, bias);
      if ((q === null) !== (c[bias] === null)) { bad.push("bound " + k + " " + bias + ": null differs"); continue; }
      if (q !== null) {
        worst = Math.max(worst, rel(q, c[bias]));
        if (rel(q, c[bias]) > 1e-9) bad.push("bound " + k + " " + bias + ": " + q + " vs " + c[bias]);
      }
    }
  }
  return {bad, runs: data.runs.length, updates, blasDiffers, margins: data.margins.length, separable, inseparable, worst};
}
"""


def test_engine_makes_exactly_the_packages_updates(playground, record_property):
    (data, runs), margins = python_runs(), python_margins()
    result = playground.page.evaluate(COMPARE, json.dumps({"data": data, "runs": runs, "margins": margins}))
    print(f"\n{result['runs']} runs ({len(datasets())} datasets x (4 starts, fixed order + 2 shuffled) x 3 bias modes "
          f"x {len(RULES)} rules), "
          f"{result['updates']} updates compared bit for bit; {result['margins']} max-margin datasets "
          f"({result['separable']} separable, {result['inseparable']} not), worst relative gap {result['worst']:.1e}; "
          f"runs whose TrainResult.errors (BLAS scores) differ from the loop's own sequential count: {result['blasDiffers']}")
    record_property("playground_runs", result["runs"])
    assert result["bad"] == [], result["bad"][:10]
    assert result["runs"] == len(runs) and result["updates"] > 5_000
    assert result["separable"] > 20 and result["inseparable"] > 10  # both answers exercised
    assert not playground.errors and not playground.blocked


def test_ties_separate_the_two_rules(playground):
    # From the zero start every score is 0: the book's rule updates on the first point whatever
    # its label, the notes' rule (sgn(0) = +1) skips a first point labelled +1 and updates on the
    # next one, labelled -1. The bulk comparison covers such runs; this one pins the difference.
    X, y = [[1.0, 0.0], [-1.0, 0.0]], [1, -1]
    got = playground.page.evaluate(
        "([X, y]) => ['margin', 'sign'].map(rule => perceptronPlayground.train(X, y, {bias: 'none', rule}).history[0].index)",
        [X, y])
    python = [pc.train(X, y, bias="none", rule=rule, record=True).history[0].index for rule in RULES]
    assert got == python == [0, 1]


def test_presets_are_the_packages_datasets():
    check = subprocess.run([sys.executable, "-m", "coursebook.playground", "--check"],
                           capture_output=True, text=True, check=False)
    assert check.returncode == 0, check.stderr


def state(page) -> dict:
    return page.evaluate("""() => { const ui = perceptronPlayground.ui, r = ui.run || {pocket: {}};
        return {n: ui.points.length, points: ui.points, updates: r.updates, epoch: r.epoch, errors: r.errors,
                w: r.w, b: r.b, converged: r.converged, finished: r.finished, updated: r.updated,
                pocket: r.pocket.errors, live: ui.live.textContent,
                shown: Object.fromEntries(Object.entries(ui.out).map(([k, v]) => [k, v.textContent]))}; }""")


def test_chapter2_preset_counts_and_steps_equal_pythons(browser, server):
    offline = OfflinePage(browser, server)
    offline.open(PAGE)
    page = offline.page
    X, y = pc.datasets.make_separable(30, margin=0.3, radius=4.0, seed=7)
    run = pc.train(X, y, record=True, max_epochs=1000)
    first = state(page)
    assert first["n"] == 30 and first["updates"] == 0
    assert np.array_equal([p["x"] for p in first["points"]], X)
    for k in range(3):  # "step to next update" makes exactly one update, Python's k-th
        page.click("#pp-next-update")
        s = state(page)
        u = run.history[k]
        assert (s["updates"], s["updated"], s["epoch"]) == (k + 1, u.index, u.epoch)
        assert s["w"] == u.w.tolist() and s["b"] == u.b
        errors = pc.count_errors(X, y, u.w, u.b)
        assert s["errors"] == errors
        assert s["live"] == f"Update {k + 1} on point {u.index}: {errors} error{'s' if errors != 1 else ''} left."
    page.click("#pp-converge")
    s = state(page)
    assert s["converged"] and (s["updates"], s["epoch"]) == (run.mistakes, run.epochs)
    assert s["w"] == run.w.tolist() and s["b"] == run.b and s["errors"] == 0
    assert s["shown"]["updates"] == str(run.mistakes) and s["shown"]["epoch"] == str(run.epochs)
    shown_bound = re.fullmatch(rf"{run.mistakes} updates so far, bound ([0-9.e+]+) \(bias \"one\"\)", s["shown"]["bound"])
    assert shown_bound and float(shown_bound[1]) == pytest.approx(pc.mistake_bound(X, y, bias="one"), rel=1e-5)
    assert float(s["shown"]["gamma"]) == pytest.approx(pc.max_margin(X, y).gamma, rel=1e-5)
    # Shuffled with a seed, bias "radius", eta 0.3: the run of train(..., shuffle=True, seed=3).
    page.select_option("#pp-order", "shuffled")
    page.fill("#pp-seed", "3")
    page.select_option("#pp-bias", "radius")
    page.fill("#pp-eta", "0.3")
    page.locator("#pp-eta").dispatch_event("change")
    page.locator("#pp-seed").dispatch_event("change")
    page.click("#pp-converge")
    shuffled = pc.train(X, y, eta=0.3, bias="radius", shuffle=True, seed=3)
    s = state(page)
    assert (s["updates"], s["epoch"], s["converged"]) == (shuffled.mistakes, shuffled.epochs, True)
    assert s["w"] == shuffled.w.tolist() and s["b"] == shuffled.b
    assert not offline.errors and not offline.blocked
    offline.close()


def test_keyboard_and_mouse_place_points_and_xor_cycles(browser, server):
    offline = OfflinePage(browser, server)
    offline.open(PAGE)
    page = offline.page
    page.click("#pp-clear")
    assert state(page)["n"] == 0
    canvas = page.locator("canvas.pp-canvas")
    canvas.focus()
    view = page.evaluate("() => perceptronPlayground.ui.view")
    step = 0.05 * view
    # Keyboard only: the XOR square, from the cursor at the origin.
    # Steps are 5% of the view, snapped to its grid, and the cursor stops at the edge: 30 presses
    # from the origin reach a corner, 60 cross the whole view.
    for keys, label in [(["ArrowRight"] * 30 + ["ArrowUp"] * 30, "+"), (["ArrowLeft"] * 60 + ["ArrowDown"] * 60, "+"),
                        (["ArrowUp"] * 60, "-"), (["ArrowRight"] * 60 + ["ArrowDown"] * 60, "-")]:
        for key in keys:
            page.keyboard.press(key)
        page.keyboard.press(label)
    s = state(page)
    assert [p["x"] for p in s["points"]] == [[view, view], [-view, -view], [-view, view], [view, -view]]
    assert [p["y"] for p in s["points"]] == [1, 1, -1, -1]
    assert "Added point 3 of class \u22121" in s["live"]
    page.keyboard.press("Delete")  # removes the point nearest the cursor (point 3)
    assert state(page)["n"] == 3
    page.keyboard.press("u")
    assert state(page)["n"] == 4
    # The XOR square: one pass of four mistakes brings the weights back to zero, a cycle.
    page.click("#pp-epoch-run")
    s = state(page)
    assert s["updates"] == 4 and s["w"] == [0, 0] and "Cycle" in s["shown"]["state"]
    assert s["shown"]["gamma"] == "no line separates the classes"
    assert s["shown"]["bound"].startswith("none")
    Xs = np.array([p["x"] for p in s["points"]])
    pocket = pc.pocket(Xs, [1, 1, -1, -1], shuffle=False, max_epochs=1)
    assert s["pocket"] == pocket.errors
    # Mouse: a click adds the chosen class where it lands, Shift-click the other class.
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    page.mouse.click(box["x"] + box["width"] * 0.75, box["y"] + box["height"] * 0.5)
    page.keyboard.down("Shift")
    page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] * 0.25)
    page.keyboard.up("Shift")
    s = state(page)
    assert s["n"] == 6
    (x1, y1), (x2, y2) = s["points"][4]["x"], s["points"][5]["x"]
    assert s["points"][4]["y"] == 1 and s["points"][5]["y"] == -1
    assert abs(x1 - view / 2) < 2 * step and abs(y1) < 2 * step
    assert abs(x2) < 2 * step and abs(y2 - view / 2) < 2 * step
    # Drag point 4 to the left half.
    page.mouse.move(box["x"] + box["width"] * 0.75, box["y"] + box["height"] * 0.5)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.3, box["y"] + box["height"] * 0.5, steps=5)
    page.mouse.up()
    moved = state(page)["points"][4]["x"]
    assert abs(moved[0] + 0.4 * view) < 2 * step and abs(moved[1]) < 2 * step
    assert not offline.errors and not offline.blocked
    offline.close()


def test_controls_are_labelled_and_focus_is_visible(playground):
    page = playground.page
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('#perceptron-playground input, #perceptron-playground select, #perceptron-playground textarea')]
        .filter(e => !(e.labels && e.labels.length)).map(e => e.outerHTML)""")
    assert unlabelled == []
    page.locator("#pp-next-update").focus()
    page.keyboard.press("Tab")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert outline == "solid"
    assert page.locator("#pp-live[aria-live=polite][role=status]").count() == 1


def exact_nearest_norm2(Z: list[list[Fraction]]) -> Fraction:
    """Squared distance from the origin to conv(Z), exactly: best affine minimiser over all faces."""
    def dot(a, b):
        return sum(p * q for p, q in zip(a, b))

    best = None
    for k in range(1, len(Z) + 1):
        for S in itertools.combinations(Z, k):
            # Affine minimiser: [G 1; 1' 0] [alpha; mu] = [0; 1], by exact Gauss-Jordan elimination.
            m = len(S)
            M = [[dot(S[i], S[j]) for j in range(m)] + [Fraction(1), Fraction(0)] for i in range(m)]
            M.append([Fraction(1)] * m + [Fraction(0), Fraction(1)])
            try:
                for c in range(m + 1):
                    p = next(r for r in range(c, m + 1) if M[r][c] != 0)
                    M[c], M[p] = M[p], M[c]
                    for r in range(m + 1):
                        if r != c and M[r][c] != 0:
                            f = M[r][c] / M[c][c]
                            M[r] = [a - f * b for a, b in zip(M[r], M[c])]
            except StopIteration:
                continue  # affinely dependent face
            alpha = [M[i][m + 1] / M[i][i] for i in range(m)]
            if min(alpha) < 0:
                continue
            x = [sum(alpha[i] * S[i][j] for i in range(m)) for j in range(len(Z[0]))]
            if all(dot(x, z) >= dot(x, x) for z in Z) and (best is None or dot(x, x) < best):
                best = dot(x, x)
    return best


def test_mistake_bound_exact_on_badly_scaled_data(playground):
    # Points at the 1e-5 scale with bias "one": the appended 1 dwarfs them, and the margin of the
    # augmented points must be found to full precision. The playground's nearest-point solver
    # agrees with an exact rational computation to 1e-12 (perceptron.max_margin, whose SLSQP and
    # KKT polish work on the same ill-conditioned problem, was 1.7e-7 off here when this was written).
    X, y = [[1e-5, 2e-5], [-3e-5, 1e-5], [2e-5, -1e-5]], [1, -1, 1]
    Z = [[Fraction(yi) * Fraction(v) for v in x] + [Fraction(yi)] for x, yi in zip(X, y)]
    R = pc.radius(np.c_[np.array(X), np.ones(3)])
    exact = R * R / float(exact_nearest_norm2(Z))
    got = playground.page.evaluate("([X, y]) => perceptronPlayground.mistakeBound(X, y, 'one')", [X, y])
    assert got == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("chapter", ["02_update_rule", "05_convergence", "06_nonseparable"])
def test_chapters_link_to_the_playground(chapter):
    # One link in the chapter's text, besides the one in the table of contents.
    html = (HTML / "notebooks" / f"{chapter}.html").read_text(encoding="utf-8")
    article = html[html.index('<article class="bd-article">'):]
    assert 'href="../book/playground.html"' in article, f"{chapter} does not link to the playground"


# ---------------------------------------------------------------- the tasks, driven as a student --------

TASKS = ["one-update", "many-updates", "no-line", "pocket", "learning-rate", "margin", "no-bias"]


class Student:
    """The playground as a student works it: keys on the focused plot, mouse clicks and drags, buttons,
    the settings' fields; and what the page shows (the tasks' marks, the news line, the numbers).

    The page is only read, never driven, through ``perceptronPlayground.ui``: where the keyboard
    cursor is, where a point of the plane falls on the canvas, what the run's numbers are.
    """

    def __init__(self, offline: OfflinePage):
        self.offline = offline
        self.page = offline.page
        self.canvas = self.page.locator("canvas.pp-canvas")

    def read(self, expression: str):
        return self.page.evaluate(f"() => {{ const ui = perceptronPlayground.ui; return {expression}; }}")

    def points(self) -> tuple[list[list[float]], list[int]]:
        points = self.read("ui.points")
        return [p["x"] for p in points], [p["y"] for p in points]

    def run(self) -> dict:
        return self.read("""ui.run && {updates: ui.run.updates, epoch: ui.run.epoch, converged: ui.run.converged,
            finished: ui.run.finished, errors: ui.run.errors, pocket: ui.run.pocket.errors, w: ui.run.w, b: ui.run.b}""")

    def shown(self, name: str) -> str:
        return self.page.locator(f"#pp-{name}").text_content()

    def press(self, button: str) -> None:
        self.page.click(f"#pp-{button}")

    def set(self, field: str, value: str) -> None:
        """Type into a settings field and leave it with Tab, which commits the change."""
        self.page.fill(f"#pp-{field}", value)
        self.page.locator(f"#pp-{field}").press("Tab")

    def key_to(self, x: float, y: float) -> None:
        """Arrow keys on the focused plot, towards (x, y): the cursor moves by 5% of the view."""
        self.canvas.focus()
        step = 0.05 * self.read("ui.view")
        cx, cy = self.read("ui.cursor")
        for moves, more, less in ((round((x - cx) / step), "ArrowRight", "ArrowLeft"),
                                  (round((y - cy) / step), "ArrowUp", "ArrowDown")):
            for _ in range(abs(moves)):
                self.page.keyboard.press(more if moves > 0 else less)

    def key_point(self, x: float, y: float, label: int) -> None:
        self.key_to(x, y)
        self.page.keyboard.press("+" if label > 0 else "-")

    def pixel(self, x: float, y: float) -> tuple[float, float]:
        self.canvas.scroll_into_view_if_needed()
        return tuple(self.page.evaluate("""([x, y]) => { const ui = perceptronPlayground.ui, box = ui.canvas.getBoundingClientRect(),
            p = ui.toPixel([x, y]); return [box.left + ui.canvas.clientLeft + p[0], box.top + ui.canvas.clientTop + p[1]]; }""",
                                        [x, y]))

    def click_point(self, x: float, y: float, label: int) -> None:
        """A click adds a point of the chosen class (+1 as the page starts), Shift-click one of the other."""
        px, py = self.pixel(x, y)
        if label < 0:
            self.page.keyboard.down("Shift")
        self.page.mouse.click(px, py)
        if label < 0:
            self.page.keyboard.up("Shift")

    def drag(self, start: tuple[float, float], end: tuple[float, float]) -> None:
        (ax, ay), (bx, by) = self.pixel(*start), self.pixel(*end)
        self.page.mouse.move(ax, ay)
        self.page.mouse.down()
        self.page.mouse.move(bx, by, steps=5)
        self.page.mouse.up()

    def done(self) -> list[str]:
        """The tasks marked done, as the page shows them: each item's mark reads "Done ✓" or "To do"."""
        items = self.page.evaluate("""() => [...document.querySelectorAll('#pp-tasks li')].map(li =>
            [li.dataset.task, li.classList.contains('pp-task-done'), li.querySelector('.pp-task-mark').textContent])""")
        assert [key for key, _, _ in items] == TASKS
        for key, done, mark in items:
            assert mark == ("Done \u2713" if done else "To do"), f"task {key}: mark {mark!r}, done {done}"
        done = [key for key, done, _ in items if done]
        assert self.shown("task-progress") == f"{len(done)} of {len(TASKS)} done."
        return done

    def news(self) -> str:
        return self.shown("task-news")

    def clean(self) -> bool:
        return not self.offline.errors and not self.offline.blocked


@pytest.fixture
def student(browser, server):
    offline = open_playground(browser, server)
    yield Student(offline)
    offline.close()


def test_tasks_come_first_and_none_is_done_by_the_presets(student):
    page = student.page
    order = page.evaluate("""() => ['#pp-tasks', 'canvas.pp-canvas', '#what-the-picture-shows', '#exactly-the-package-s-arithmetic']
        .map(s => document.querySelector(s).getBoundingClientRect().top + window.scrollY)""")
    assert order == sorted(order), f"the tasks, the plot, the picture's key, the exactness story are not in order: {order}"
    assert page.locator("#pp-task-news[role=status][aria-live=polite]").count() == 1
    assert student.done() == [] and student.news() == ""
    # Every preset, run to its end, done with none of the tasks: they ask for the student's own points.
    for key in page.evaluate("() => [...document.querySelectorAll('#pp-preset option')].map(o => o.value)"):
        page.select_option("#pp-preset", key)
        student.press("load")
        student.press("converge")
        assert student.run()["finished"], key
        assert student.done() == [], f"preset {key} did a task: {student.news()}"
    assert student.clean()


def test_task_one_update(student):
    student.press("clear")
    student.key_point(0.9, 0, +1)
    student.key_point(-0.9, 0, -1)   # too close: the first update leaves it on the wrong side
    student.press("converge")
    assert student.run()["updates"] == 2 and student.run()["converged"]
    assert student.done() == []
    student.canvas.focus()
    student.page.keyboard.press("u")  # undo the second point, place it further out
    student.key_point(-1.8, 0, -1)
    assert student.done() == []
    student.press("converge")
    X, y = student.points()
    python = pc.train(X, y, record=True)
    assert python.converged and python.mistakes == student.run()["updates"] == 1
    assert student.done() == ["one-update"]
    assert student.news() == "Task 1 done: converged after exactly 1 update, on point 0. (1 of 7 tasks done.)"
    assert student.clean()


def test_task_six_points_many_updates(student):
    student.press("clear")
    for x, y, label in [(1, 1, +1), (2, 2, +1), (1, 2, +1), (-1, -1, -1), (-2, -1, -1), (-2, -2, -1)]:
        student.click_point(x, y, label)
    student.press("converge")
    assert student.run()["updates"] < 100 and student.done() == ["one-update"]
    student.click_point(0.9, 1.3, -1)  # a seventh point, just left of the +1 points: a thin margin
    student.press("converge")
    assert student.run()["converged"] and student.run()["updates"] > 100
    assert "many-updates" not in student.done()  # seven points
    student.page.mouse.dblclick(*student.pixel(-2, -2))  # delete the sixth point: six remain
    X, y = student.points()
    assert len(X) == 6 and [-2, -2] not in X
    assert "many-updates" not in student.done()  # not run yet
    student.press("converge")
    updates = student.run()["updates"]
    assert pc.train(X, y).mistakes == updates > 100
    assert student.done() == ["one-update", "many-updates"]
    assert f"Task 2 done: converged after {updates} updates on 6 points." in student.news()
    assert student.clean()


def test_tasks_no_line_and_the_pocket(student):
    student.press("clear")
    for x, y, label in [(0.9, 0.9, +1), (-0.9, -0.9, +1), (-0.9, 0.9, -1)]:
        student.key_point(x, y, label)
    student.press("converge")
    assert student.run()["converged"] and student.done() == []  # a line separates three of them
    student.key_point(0.9, -0.9, -1)  # the XOR square: no line separates it
    assert student.shown("gamma") == "no line separates the classes" and student.done() == []
    student.press("epoch-run")
    assert not student.run()["finished"] and student.done() == []  # not over yet
    student.press("converge")
    X, y = student.points()
    run, python = student.run(), pc.train(X, y, max_epochs=1000, record=True)
    assert not python.converged and (run["updates"], run["epoch"]) == (python.mistakes, python.epochs) == (3809, 1000)
    assert student.done() == ["no-line"]
    assert student.news() == ("Task 3 done: no line separates these 4 points, and the run stopped after 1000 epochs "
                              "without converging. (1 of 7 tasks done.)")
    # After 1000 epochs the last weights are as good as the pocket's: one error each.
    errors = [pc.count_errors(X, y, u.w, u.b) for u in python.history]
    assert run["errors"] == errors[-1] == run["pocket"] == min(errors) == 1
    # Stopped after one epoch, the last weights make two errors and the pocket's one.
    student.set("max-epochs", "1")
    assert student.done() == ["no-line"]
    student.press("converge")
    first = pc.train(X, y, max_epochs=1, record=True)
    errors = [pc.count_errors(X, y, u.w, u.b) for u in first.history]
    assert (student.run()["pocket"], student.run()["errors"]) == (min(errors), errors[-1]) == (1, 2)
    assert student.done() == ["no-line", "pocket"]
    assert student.news() == "Task 4 done: the pocket\u2019s weights make 1 error, the last weights 2 errors. (2 of 7 tasks done.)"
    assert student.clean()


def test_task_learning_rate(student):
    student.press("clear")
    for x, y, label in [(3.76, -0.9, -1), (1.82, 3.7, +1), (3.41, 3.52, -1)]:
        student.click_point(x, y, label)
    X, y = student.points()
    assert X == [[3.76, -0.9], [1.82, 3.7], [3.41, 3.52]]
    # From another start the task does not count, even where the two runs happen to agree.
    student.set("w01", "0.1")
    student.press("converge")
    student.set("eta", "0.5")
    student.press("converge")
    agree = [[u.index for u in pc.train(X, y, eta=eta, w0=[0.1, 0], record=True).history] for eta in (1.0, 0.5)]
    assert agree[0] == agree[1] and student.done() == []
    student.set("w01", "0")
    student.press("converge")  # eta 0.5 from the zero start: no run to compare with yet
    assert student.done() == []
    student.press("reset")
    student.press("converge")  # the same run again: the learning rate has not changed
    assert student.done() == []
    # eta 0.7 scales every step by a number that is no power of 2: rounded differently, a score
    # changes sign and the run makes other updates than with eta 0.5 (Python agrees).
    student.set("eta", "0.7")
    student.press("converge")
    runs = {eta: [u.index for u in pc.train(X, y, eta=eta, record=True).history] for eta in (0.5, 0.7, 1.0)}
    assert runs[0.7] != runs[0.5] == runs[1.0]
    assert student.run()["updates"] == len(runs[0.7]) and student.done() == []
    student.set("eta", "1")
    assert student.done() == []
    student.press("converge")  # the same updates as with eta 0.5
    assert student.run()["updates"] == len(runs[1.0])
    assert student.done() == ["learning-rate"]
    assert student.news() == (f"Task 5 done: \u03b7 = 0.5 and \u03b7 = 1 made the same {len(runs[1.0])} updates, on the "
                              "same points in the same order; only w and b scale with \u03b7. (1 of 7 tasks done.)")
    assert student.clean()


def test_task_shrink_the_margin(student):
    student.press("clear")
    for x, y, label in [(1, 1, +1), (2, 2, +1), (1, 2, +1), (-1, -1, -1), (-2, -1, -1)]:
        student.click_point(x, y, label)
    student.press("converge")
    # Two points moved at once: the margin shrinks and the updates grow, but the task asks for one.
    X0, y0 = student.points()
    student.drag((-1, -1), (0.9, 1.3))
    student.drag((-2, -1), (-2.5, -1.5))
    X1, _ = student.points()
    student.press("converge")
    assert sum(a != b for a, b in zip(X0, X1)) == 2
    assert pc.max_margin(X1, y0).gamma < pc.max_margin(X0, y0).gamma and pc.train(X1, y0).mistakes > pc.train(X0, y0).mistakes
    assert "margin" not in student.done()
    # One point moved back, out: the margin grows.
    student.drag((0.9, 1.3), (-1, -1))
    student.press("converge")
    assert "margin" not in student.done()
    X2, y2 = student.points()
    # The same point moved in again: the margin shrinks, the updates grow.
    student.drag((-1, -1), (0.9, 1.3))
    X3, y3 = student.points()
    assert y3 == y2 and sum(a != b for a, b in zip(X2, X3)) == 1
    assert "margin" not in student.done()  # not run yet
    student.press("converge")
    old, new = pc.max_margin(X2, y2).gamma, pc.max_margin(X3, y3).gamma
    updates = (pc.train(X2, y2).mistakes, pc.train(X3, y3).mistakes)
    assert new < old and updates[1] > updates[0]
    assert "margin" in student.done()
    found = re.search("Task 6 done: \u03b3\\* went from ([0-9.]+) down to ([0-9.]+) and the updates from (\\d+) up to (\\d+)\\.",
                      student.news())
    assert found and (int(found[3]), int(found[4])) == updates
    assert float(found[1]) == pytest.approx(old, rel=1e-3) and float(found[2]) == pytest.approx(new, rel=1e-3)
    assert student.clean()


def test_task_no_bias(student):
    student.press("clear")
    student.key_point(0.9, 0, +1)
    student.key_point(-0.9, 0, -1)
    student.page.select_option("#pp-bias", "none")
    student.press("converge")
    assert student.run()["converged"] and student.done() == ["one-update"]  # a line through the origin separates them
    student.canvas.focus()
    student.page.keyboard.press("g")  # pick up the -1 point, carry it past the +1 point, drop it
    student.key_to(2.7, 0)
    student.page.keyboard.press("g")
    X, y = student.points()
    assert X[1][0] > X[0][0] > 0 and X[0][1] == X[1][1] == 0
    assert "no-bias" not in student.done()
    # With a bias, stopped after one epoch: not converged either, but the bias is there.
    student.page.select_option("#pp-bias", "one")
    student.set("max-epochs", "1")
    student.press("converge")
    assert not student.run()["converged"] and "no-bias" not in student.done()
    student.set("max-epochs", "1000")
    student.press("converge")
    assert student.run()["converged"] and "no-bias" not in student.done()
    student.page.select_option("#pp-bias", "none")
    assert "no-bias" not in student.done()  # not run yet
    student.press("converge")
    assert not pc.train(X, y, bias="none", max_epochs=1000).converged and pc.train(X, y).converged
    assert student.done() == ["one-update", "no-bias"]
    assert student.news() == ("Task 7 done: a line separates these points, none through the origin does, and the run "
                              "without a bias stopped after 1000 epochs without converging. (2 of 7 tasks done.)")
    assert student.clean()


def test_python_line_describes_the_points_now(student):
    page = student.page
    call = "Python: X, y = perceptron.datasets.make_separable(30, margin=0.3, radius=4.0, seed=7)"
    assert student.shown("preset-call") == call
    student.press("clear")
    assert student.shown("preset-call") == "Python: no points yet."
    student.key_point(0.9, 0, +1)
    student.key_point(-0.9, 0, -1)
    X, y = student.points()
    assert student.shown("preset-call") == f"Python: X = {X}, y = {y}".replace(".0,", ",").replace(".0]", "]")
    page.select_option("#pp-preset", "chapter2")
    student.press("load")
    assert student.shown("preset-call") == call
    student.click_point(0.5, 0.5, +1)
    assert student.shown("preset-call") == "Python: your 31 points are the X and y of \u201cThe same run in Python\u201d below."
    student.canvas.focus()
    page.keyboard.press("u")
    assert student.shown("preset-call") == call
    assert student.clean()


def test_counts_are_singular_for_one(student):
    page = student.page
    student.press("clear")
    student.key_point(0.9, 0, +1)
    assert student.shown("live").endswith("; 1 point.")
    student.key_point(-1.8, 0, -1)
    assert student.shown("live").endswith("; 2 points.")
    student.press("epoch-run")
    assert student.shown("live").startswith("1 update in epoch 1. ")
    assert student.shown("bound").startswith("1 update so far, bound ")
    student.press("converge")
    assert student.shown("state") == "Converged: epoch 2 made no mistake (1 update in all)."
    student.key_point(3.6, 0, -1)  # -1, +1, -1 on a line: no line separates them
    student.set("max-epochs", "1")
    student.press("converge")
    assert student.shown("state") == "Stopped after 1 epoch without converging."
    assert re.fullmatch("1 error at w = .*", student.shown("pocket")), student.shown("pocket")
    student.canvas.focus()
    for _ in range(2):
        page.keyboard.press("u")
    assert student.shown("live") == "Undone: 1 point."
    assert student.clean()


@pytest.mark.parametrize("width", [390, 1280])
def test_page_does_not_scroll_sideways(browser, server, width):
    offline = open_playground(browser, server, viewport={"width": width, "height": 900})
    try:
        student = Student(offline)
        student.press("clear")
        student.key_point(0.9, 0, +1)
        student.key_point(-1.8, 0, -1)
        student.press("converge")  # task 1: the news line fills
        assert student.done() == ["one-update"]
        widths = offline.page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.clientWidth]")
        assert widths[0] <= widths[1], f"at {width} px the page is {widths[0]} px wide"
        assert student.clean()
    finally:
        offline.close()


@pytest.mark.parametrize("mode", ["light", "dark"])
def test_tasks_done_pass_axe(browser, server, mode):
    """tests/book/test_browser.py runs axe on the page as it opens, every task to do; here a task is done
    (its mark, the news line) and axe-core's WCAG 2.0/2.1 A and AA rules check the playground again."""
    axe = ROOT / "node_modules" / "axe-core" / "axe.min.js"
    assert axe.exists(), f"{axe} is missing: `make node_modules` installs the pinned axe-core"
    offline = open_playground(browser, server, color_scheme=mode)
    try:
        page = offline.page
        assert page.evaluate("document.documentElement.dataset.theme") == mode
        student = Student(offline)
        student.press("clear")
        student.key_point(0.9, 0, +1)
        student.key_point(-1.8, 0, -1)
        student.press("converge")
        assert student.done() == ["one-update"] and student.news()
        page.mouse.move(0, 0)  # no hover colour on a button
        page.evaluate("Promise.all(document.getAnimations().map(a => a.finished.catch(() => null)))")
        page.add_script_tag(content=axe.read_text(encoding="utf-8"))
        result = page.evaluate("""tags => axe.run('#perceptron-playground', {runOnly: {type: 'tag', values: tags},
            resultTypes: ['violations']})""", ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"])
    finally:
        offline.close()
    assert len(result["passes"]) > 10
    assert result["violations"] == [], [(v["id"], [n["target"] for n in v["nodes"]]) for v in result["violations"]]


class Phone(Student):
    """The playground on a phone, 390 px wide: taps on the plot and on the controls, no key held."""

    def tap(self, x: float, y: float) -> None:
        self.page.touchscreen.tap(*self.pixel(x, y))

    def choose(self, what: str) -> None:
        """Tap one of the choices above the plot: "class-pos", "class-neg" or "tap-delete"."""
        self.page.locator(f"label[for=pp-{what}]").tap()


@pytest.fixture
def phone(browser, server):
    offline = open_playground(browser, server, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    yield Phone(offline)
    offline.close()


def test_phone_chooses_what_a_tap_does_right_above_the_plot(phone):
    """The choice sat ~1,280 px below the canvas at 390 px, and the other class needed Shift-click."""
    page = phone.page
    gap = page.evaluate("""() => document.querySelector('canvas.pp-canvas').getBoundingClientRect().top
        - document.querySelector('#pp-tap').getBoundingClientRect().bottom""")
    assert 0 <= gap < 24, f"the choice of what a tap does is {gap} px from the plot"
    phone.press("clear")
    phone.tap(-2, 1)                      # +1, as the page starts
    phone.choose("class-neg")
    phone.tap(2, -1)                      # -1, no key held
    phone.tap(2, 1.5)
    X, y = phone.points()
    assert y == [1, -1, -1] and np.allclose(X, [[-2, 1], [2, -1], [2, 1.5]], atol=0.03), (X, y)
    phone.choose("tap-delete")
    phone.tap(2.2, 1.6)                   # a finger's width off the point still deletes it
    X, y = phone.points()
    assert y == [1, -1] and len(X) == 2
    assert phone.shown("live").startswith("Removed point 2")
    phone.tap(0, -4)                      # nothing there: nothing deleted, and the page says so
    assert len(phone.points()[0]) == 2 and phone.shown("live") == "No point there to delete: tap on a point."
    phone.choose("class-pos")
    phone.tap(-3, -3)
    assert phone.points()[1] == [1, -1, 1]
    assert phone.clean()


def test_phone_task_two_says_what_went_wrong_then_follows_its_hint(phone):
    """Task 2's old hint ("a small margin makes a large mistake bound") led to a bound of 1001 with 4
    updates and no message; now a missed attempt says why, and the hint's own points do the task."""
    phone.press("clear")
    phone.tap(0.9, 0)
    phone.choose("class-neg")
    phone.tap(-0.9, 0)
    phone.press("converge")
    run = phone.run()
    assert run["converged"] and 1 < run["updates"] <= 100
    news = phone.news()
    assert f"Task 2 not yet: {run['updates']} updates, not more than 100." in news, news
    assert "an upper limit, not a prediction" in news
    # The hint: +1 at (4, 0) and -1 at (4.5, 0), close together and far from the origin.
    phone.press("clear")
    phone.choose("class-pos")
    phone.tap(4, 0)
    phone.choose("class-neg")
    phone.tap(4.5, 0)
    X, y = phone.points()
    assert y == [1, -1] and np.allclose(X, [[4, 0], [4.5, 0]], atol=0.03), X
    phone.press("converge")
    updates = phone.run()["updates"]
    assert pc.train(X, y).mistakes == updates > 100
    assert "many-updates" in phone.done()
    assert f"Task 2 done: converged after {updates} updates on 2 points." in phone.news()
    assert phone.clean()


def test_each_task_says_what_went_wrong(student):
    """A finished run that tries a task and misses it gets a sentence saying why, once, in the news line."""
    student.press("clear")
    student.key_point(0.9, 0, +1)
    student.key_point(-0.9, 0, -1)      # too close for one update
    student.press("converge")
    assert student.news().startswith("Task 1 not yet: 2 updates, not 1.")
    # No line through the origin, with bias "none": task 7 needs a line that separates them at all.
    student.press("clear")
    for x, y, label in [(0.9, 0.9, +1), (-0.9, -0.9, +1), (-0.9, 0.9, -1), (0.9, -0.9, -1)]:
        student.key_point(x, y, label)
    student.page.select_option("#pp-bias", "none")
    student.press("converge")              # the XOR square does tasks 3 and 4, and says so
    assert student.done() == ["no-line", "pocket"]
    student.press("reset")
    student.press("converge")              # the same run again: no task left for it but the one it misses
    assert "Task 7 not yet: no line at all separates these points" in student.news(), student.news()
    # A line through the origin separates these: the run converges, and task 7 says where to put them.
    student.press("clear")
    student.key_point(1, 1, +1)
    student.key_point(-1, -1, -1)
    student.press("converge")              # does task 1 (one update), and says so
    student.press("reset")
    student.press("converge")
    assert "Task 7 not yet: a line through the origin separates these points" in student.news(), student.news()
    # Task 6: two points moved between runs.
    student.page.select_option("#pp-bias", "one")
    student.press("clear")
    student.key_point(1, 1, +1)
    student.key_point(-1, -1, -1)
    student.press("converge")
    student.drag((1, 1), (0.5, 1))
    student.drag((-1, -1), (-0.5, -1))
    student.press("converge")
    assert "Task 6 not yet: 2 points moved between the two runs: move exactly one." in student.news(), student.news()
    assert student.clean()


@pytest.mark.parametrize("width", [390, 1280])
def test_dropdown_labels_are_shown_whole(browser, server, width):
    """Every option of every select fits its box (the preset read "Chapter 2: the 30 p..." at 1280 px)."""
    offline = open_playground(browser, server, viewport={"width": width, "height": 900})
    try:
        cut = offline.page.evaluate("""() => [...document.querySelectorAll('.pp select')].flatMap(s => {
            const style = getComputedStyle(s), pen = document.createElement('canvas').getContext('2d');
            pen.font = style.font;
            const room = s.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;  // the arrow
            return [...s.options].filter(o => pen.measureText(o.text).width > room).map(o => [s.id, o.text, room]);
        })""")
        assert cut == [], f"at {width} px these labels are cut off: {cut}"
    finally:
        offline.close()
