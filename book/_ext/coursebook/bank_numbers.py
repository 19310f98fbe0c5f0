"""The numbers of a bank's questions, computed from each question's own data.

A question with numbers has a check here, ``@computes("Q1.1")``: it reads its data from the question's
stem (``q.given("w")`` finds ``$w = (3, -4)$``), computes with numpy or the ``perceptron`` package, and
returns the value its key must have and every other number the question may state. :func:`audit`
then holds the question to it:

* the key's option states the computed value;
* every number in the options, the explanation and the distractors (outside sub- and superscripts,
  roles and the words "chapter N") is a number of the stem or one the check computed, to the digits
  shown;
* a question without a check may state only the numbers of its stem, 0 and 1, and numbers its chapter
  states in its text or its committed (nbval-checked) text outputs, as when it quotes the chapter's
  experiment; anything else is refused.

This covers the concept questions (what the slides and the LMS exports carry). The exam problems'
worked solutions are recomputed by the tests of ``tests/content/test_question_banks.py``.

So an edit to a question's data fails until its key and its explanation agree with it: changing Q1.1's
$w$ to $(6, -8)$ with its explanation still saying $10 / 5 = 2$ is refused, naming Q1.1.
`make banks` runs :func:`problems` before it exports, and ``tests/content/test_question_banks.py`` runs
it on every bank.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable
from functools import cache

import numpy as np

from .content import Question

Check = Callable[["Data"], tuple[float | None, Iterable[float]]]
CHECKS: dict[str, Check] = {}
ALWAYS = (0.0, 1.0)            # numbers any question may state ("the $+1$ side", "$w = 0$")

_MATH = re.compile(r"\$\$?(.+?)\$\$?", re.DOTALL)
_ROLE = re.compile(r"\{[\w:]+\}`[^`]*`")
_SCRIPT = re.compile(r"[_^](\{[^{}]*\}|\\?\w)")
_COMMAND = re.compile(r"\\[A-Za-z]+")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def computes(name: str) -> Callable[[Check], Check]:
    def register(check: Check) -> Check:
        CHECKS[name] = check
        return check
    return register


def stated(text: str) -> list[str]:
    """The numbers a text states, as written: in its mathematics and its words, not in sub- or
    superscripts (indices, squares), roles (labels) or chapter numbers."""
    text = _ROLE.sub(" ", text)
    text = re.sub(r"\\t?frac\s*(\d)(\d)", r"\1/\2", text)            # \tfrac12
    text = re.sub(r"\b(1[89]|20)\d\d\b(?![^$]*\$[^$]*$)", " ", text)     # a year, in the words
    text = re.sub(r"(?i)\b(chapter|chapters|seed|bank|notes?)\s+[\d-]+", " ", text)
    text = re.sub(r"\b\d+-\d+\b", " ", text)                 # a course number such as 36-350
    text = _MATH.sub(lambda m: " " + _COMMAND.sub(" ", _SCRIPT.sub(" ", m.group(1))) + " ", text)
    text = re.sub(r"\b[A-Za-z]+\d+\b|\b[QE]\d+\.\d+\b", " ", text)   # names such as L1, Q1.1
    return _NUMBER.findall(text)


def agrees(written: str, value: float) -> bool:
    """``written`` (a number as a bank prints it) is ``value`` to the digits shown (signs aside)."""
    digits = len(written.split(".")[1]) if "." in written else 0
    return abs(abs(value) - float(written)) <= 0.5 * 10.0 ** -digits + 1e-9


def value(text: str) -> float:
    """The number an option states first: ``$2\\sqrt 2$``, ``$-2$``, ``$\\sqrt{26}$``, ``16 mistakes``."""
    found = _MATH.search(text)
    source = found.group(1) if found else text
    expression = re.split(r"=|\\approx", source)[-1] if found else source
    expression = re.sub(r"\\sqrt\s*\{([^{}]*)\}|\\sqrt\s*(\d+)", lambda m: f"sqrt({m.group(1) or m.group(2)})", expression)
    expression = re.sub(r"(\d)\s*(sqrt)", r"\1*\2", expression)
    expression = expression.replace("\\,", "").replace("\\cdot", "*").strip()
    expression = expression if found else (_NUMBER.search(expression) or [""])[0]
    if not re.fullmatch(r"[-+*/().\d\s]*(sqrt\([^()]*\)[-+*/().\d\s]*)*", expression) or not expression.strip():
        raise ValueError(f"not a number: {text!r}")
    return float(eval(expression, {"__builtins__": {}}, {"sqrt": math.sqrt}))


class Data:
    """A question's data, as its stem states them."""

    def __init__(self, question: Question):
        self.question = question
        self.math = " ".join(m.group(1) for m in _MATH.finditer(question.stem))

    def given(self, name: str) -> float | np.ndarray:
        """The value the stem gives ``name``: ``$w = (3, -4)$`` is an array, ``$b = 10$`` a number."""
        pattern = rf"(?<![\w\\]){re.escape(name)}\s*=\s*(\(-?[\d.]+(?:,\s*-?[\d.]+)*\)|-?\d+(?:\.\d+)?)"
        found = re.search(pattern, self.math)
        if not found:
            raise ValueError(f"{self.question.name}: its stem does not give ${name} = \\dots$")
        text = found.group(1)
        if text.startswith("("):
            return np.array([float(x) for x in text[1:-1].split(",")])
        return float(text)

    def number(self, pattern: str) -> float:
        """The number the stem's words give where ``pattern`` (a regex with one group) matches."""
        found = re.search(pattern, self.question.stem)
        if not found:
            raise ValueError(f"{self.question.name}: its stem does not match {pattern!r}")
        return float(found.group(1))


@cache
def chapter_numbers(bank: int) -> frozenset[str]:
    """Every number the chapter of a bank states, in its text or its committed (nbval-checked) outputs:
    a question may quote the chapter's experiments ("the error jumps between 12 and 48")."""
    from . import CHAPTERS

    path = next(p for p in CHAPTERS if int(p.stem[:2]) == bank)
    texts = []
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        if cell["cell_type"] == "markdown":
            texts.append("".join(cell["source"]))
        for output in cell.get("outputs", []):
            texts.append("".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", "")))
    return frozenset(_NUMBER.findall(" ".join(texts)))


def audit(question: Question) -> list[str]:
    """What is wrong with the numbers of one question (nothing when its check and its text agree)."""
    check = CHECKS.get(question.name)
    parts = [*question.options.values(), question.explanation, *question.distractors.values()]
    given = [float(n) for n in stated(question.stem)]
    if check is None:
        extra = sorted({n for text in parts for n in stated(text)
                        if not any(agrees(n, v) for v in (*given, *ALWAYS)) and n not in chapter_numbers(question.bank)},
                       key=float)
        return [(f"{question.name} states {', '.join(extra)}, which neither its stem nor its chapter's text and "
                 f"outputs give, and no check in coursebook/bank_numbers.py computes")] if extra else []
    try:
        key, values = check(Data(question))
    except ValueError as error:
        return [str(error)]
    known = [*given, *ALWAYS, *(float(v) for v in values), *([] if key is None else [float(key)])]
    out = []
    if key is not None:
        shown = value(question.options[question.answer])
        if not math.isclose(shown, key, rel_tol=5e-3, abs_tol=1e-9):
            out.append(f"{question.name}: its key {question.answer} says {shown:g}, computed from its stem: {key:g}")
    for where, text in [*((f"option {k}", t) for k, t in question.options.items()),
                        ("the explanation", question.explanation),
                        *((f"distractor {k}", t) for k, t in question.distractors.items())]:
        wrong = [n for n in stated(text) if not any(agrees(n, v) for v in known)]
        if wrong:
            out.append(f"{question.name}: {where} states {', '.join(wrong)}, not computed from its stem")
    return out


def problems(questions: Iterable[Question]) -> list[str]:
    return [problem for question in questions for problem in audit(question)]


# ---- the checks -------------------------------------------------------------------------------

def norm(v: np.ndarray) -> float:
    return float(np.linalg.norm(v))


@computes("Q1.1")
def _q1_1(q: Data):
    w, b = q.given("w"), q.given("b")
    distance = b / norm(w)
    return distance, [norm(w), norm(w) ** 2, b, -distance, b / norm(w) ** 2]


@computes("Q1.2")
def _q1_2(q: Data):
    w, b = q.given("w"), q.given("b")
    same = []
    for letter, text in q.question.options.items():
        found = re.search(r"w' = \(([^()]*)\)\$, \$b' = (-?[\d.]+)", text)
        if not found:
            raise ValueError(f"{q.question.name}: option {letter} gives no $w' = (...)$, $b' = ...$")
        w2, b2 = np.array([float(x) for x in found.group(1).split(",")]), float(found.group(2))
        c = w2 @ w / (w @ w)
        if np.allclose(w2, c * w) and math.isclose(b2, c * b) and c > 0:
            same.append((letter, c, w2, b2))
    if [s[0] for s in same] != [q.question.answer]:
        raise ValueError(f"{q.question.name}: the same classifier is option(s) {[s[0] for s in same]}, "
                         f"the key says {q.question.answer}")
    _, c, w2, b2 = same[0]
    return None, [c, *w2, b2, -1, *w, b, norm(w) ** 2, norm(w2) ** 2, 2 * b, norm(w), norm(w2)]


@computes("Q1.7")
def _q1_7(q: Data):
    x = q.given("x")
    squared = norm(x) ** 2 + 1
    return math.sqrt(squared), [squared, norm(x) + 1, norm(x)]


@computes("Q4.2")
def _q4_2(q: Data):
    p, n = q.given("p"), q.given("q")
    gap = norm(p - n)
    l1 = float(np.sum(np.abs(p - n)))
    return gap / 2, [gap, gap ** 2, gap ** 2 / 2, l1, l1 / 2, float(np.abs(p).max())]


@computes("Q5.2")
def _q5_2(q: Data):
    R, gamma = q.given("R"), q.given("\\gamma")
    return (R / gamma) ** 2, [R / gamma, 2 * R / gamma, (2 * R / gamma) ** 2, 2]   # 2: the 2 of 2R/gamma


@computes("Q6.9")
def _q6_9(q: Data):
    R, gamma, d = q.given("R"), q.given("\\gamma"), q.number(r"\\mathbb\{R\}\^\{(\d+)\}")
    bound = (R / gamma) ** 2
    return None, [bound, math.sqrt(bound), d, 1 / math.sqrt(bound)]


@computes("Q6.10")
def _q6_10(q: Data):
    from perceptron import online_to_batch_bound

    n, M, confidence = q.given("n"), q.given("M"), q.number(r"at least \$(0\.\d+)\$")
    delta = 1 - confidence
    bound = online_to_batch_bound(int(M), int(n), delta=delta)
    return bound, [M / n, 2 * M / n, 1 / delta, n, bound, 2]   # 2: Azuma-Hoeffding's constant, the vote's factor


@computes("Q7.2")
def _q7_2(q: Data):
    d, degree = q.number(r"\\mathbb\{R\}\^(\d+)"), 2
    features = math.comb(int(d) + degree, degree)
    return features, [d, (d + 1) ** 2, features - 1, 2 * d, degree, d * (d + 1) / 2, d * (d - 1) / 2]


@computes("Q9.2")
def _q9_2(q: Data):
    n, d, K = (q.number(r"(\d+) points"), q.number(r"\\mathbb\{R\}\^(\d+)"), q.number(r"(\d+) classes"))
    points, length = n * (K - 1), K * (d + 1)
    return points, [K - 1, K, d + 1, length, K * d, n * K, n, d]


@computes("Q1.6")
def _q1_6(q: Data):
    plus, minus = q.given("c_+"), q.given("c_-")
    w, b = plus - minus, (norm(minus) ** 2 - norm(plus) ** 2) / 2
    key = q.question.options[q.question.answer]
    if not (np.allclose(_vector(key, "w"), w) and math.isclose(_scalar(key, "b"), b)):
        raise ValueError(f"{q.question.name}: the key {q.question.answer} is not $w = c_+ - c_-$, $b = {b:g}$")
    midpoint = (plus + minus) / 2 @ w / norm(w)
    return None, [*w, b, midpoint, -midpoint, *w / 2, 2]   # 2: the 2 of the factor 1/2


def _vector(text: str, name: str) -> np.ndarray:
    found = re.search(rf"{re.escape(name)} = \(([^()]*)\)", text)
    if not found:
        raise ValueError(f"no ${name} = (...)$ in {text!r}")
    return np.array([float(x) for x in found.group(1).split(",")])


def _scalar(text: str, name: str) -> float:
    found = re.search(rf"{re.escape(name)} = (-?[\d.]+)", text)
    if not found:
        raise ValueError(f"no ${name} = ...$ in {text!r}")
    return float(found.group(1))


WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}


@computes("Q9.5")
def _q9_5(q: Data):
    found = re.search(r"(\w+) classes instead of (\w+)", q.question.stem)
    if not found:
        raise ValueError(f"{q.question.name}: its stem does not say 'N classes instead of M'")
    new, old = (int(g) if g.isdigit() else WORDS[g.lower()] for g in found.groups())
    return None, [new, old, new / old, (new - 1) / (old - 1), new - 1, old - 1, 2]   # 2: the bound's factor


@computes("Q9.6")
def _q9_6(q: Data):
    classes = 10 if "ten digits" in q.question.stem else None
    if classes is None:
        raise ValueError(f"{q.question.name}: its stem does not say how many classes")
    return None, [math.comb(classes, 2), classes]


@computes("Q7.3")
def _q7_3(q: Data):
    if "random* labels" not in q.question.stem:
        raise ValueError(f"{q.question.name}: its stem no longer says the labels are random")
    return None, [1 / 2]                       # a coin toss's error on two labels


@computes("Q11.1")
def _q11_1(q: Data):
    size = q.given("|\\mathcal H|")
    return math.log2(size), [size, size / 2, 2 * math.log2(size)]


@computes("Q11.3")
def _q11_3(q: Data):
    from perceptron import weighted_majority_bound
    experts, best, lam = q.given("|\\mathcal E|"), q.given("M^\\star"), q.given("\\sigma")
    bound = weighted_majority_bound(int(best), int(experts), beta=lam)
    log_n, rate = math.log2(experts), math.log2(4 / 3)
    return bound, [best + log_n, log_n, 4, 3, rate, 1 / rate, best * experts, best]


@computes("Q11.6")
def _q11_6(q: Data):
    from perceptron import winnow_mistake_bound
    relevant, d = q.given("|S|"), q.given("d")
    logd = math.ceil(math.log2(d))
    return winnow_mistake_bound(int(relevant), int(d)), [relevant * d, relevant * logd, logd, 3]  # the promotions' cap |S| ceil(log2 d); 3: the theorem's factor


@computes("Q11.8")
def _q11_8(q: Data):
    R, gamma = q.given("R"), q.given("\\gamma")
    return (R / gamma) ** 2, [R / gamma]
