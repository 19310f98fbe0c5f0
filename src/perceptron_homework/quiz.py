"""A private quiz: the question banks' concept questions with numbers redrawn by the instructor's secret.

The public banks (``book/instructor/bank_NN.md``) print their keys, so in a course whose quiz counts a
public key must not answer it. ``perceptron-homework quiz`` (``make quiz``, with the homework's secret)
writes every bank's concept questions with

* the numbers of each question that declares them redrawn from the secret (never a draw whose key
  states the public key's value), its key, explanation and distractors computed from them;
* every question's options in an order drawn from the secret (the key's letter too).

A question declares its numbers in its bank's last section, "Numbers a private quiz redraws", a YAML
block read here (the book shows it; nothing else reads it)::

    Q1.1:
      draw: {w: [[3, 4], [4, 3], [6, 8]], t: [2, 1, 3]}   # the first choice is the public draw
      let: {n: norm(w)}                                    # names computed from the draw, in order
      numbers: {"3": "w[0]", "4": "w[1]", "5": n, "10": n*t, "2": t, "0.4": t/n}

``numbers`` maps each number the question's text states (as written) to the expression that gives it.
Every number token of the text (outside roles, and outside bare sub- and superscripts such as ``x_1``
or ``^2``; ``^{100}`` and ``\\mathbb{R}^3`` count) that ``numbers`` names is replaced, all at once;
``keep`` lists snippets left alone (``2R``); ``key: fixed`` marks a question whose right option
states no drawn number ("the bound is the same"), whose draws must then change its stem instead. Arithmetic is exact (fractions); a number is written as
the shortest exact decimal with at least the digits of the public one. A value that is only
approximate (a square root, a logarithm) must be declared with ``~`` ("~0.155") and is rounded to the
public number's digits.

Checks (each a ValueError naming the question): the public draw reproduces the bank's text exactly;
no declared number is glued to a letter (``2w``, which no token replaces; ``keep`` it or write ``2\\,w``);
for every possible draw the options stay distinct and :func:`coursebook.bank_numbers.audit`, which
recomputes the key and every stated number from the question's own stem, finds nothing. Questions
without a declaration keep their numbers (and are only reshuffled); ``tests/homework/test_quiz.py``
lists those with digits, each with its reason.

The exports name their edition by :func:`fingerprint` (a hash of the drawn keys, never the secret):
Moodle categories ``Perceptron private quiz <fingerprint>/Bank NN``, Canvas quizzes whose description
names the key file their options A-D follow.
"""

from __future__ import annotations

import ast
import csv
import hashlib
import itertools
import math
import re
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

SECTION = "Numbers a private quiz redraws"
_ROLE = re.compile(r"\{[\w:]+\}`[^`]*`")
# A number token: digits (with a decimal part), not part of a word or a longer number.
_TOKEN = re.compile(r"(?<![\w.])\d+(?:\.\d+)?(?![\w]|\.\d)")


def _banks():
    from coursebook import banks

    return banks


# ---- the declarations ------------------------------------------------------------------------

def declarations(text: str) -> dict[str, dict[str, Any]]:
    """The redrawn numbers a bank's text declares: question name -> {draw, let, numbers, keep}."""
    import yaml

    head = re.search(rf"^## {re.escape(SECTION)}\s*$", text, flags=re.MULTILINE)
    if not head:
        return {}
    block = re.search(r"^```(?:\{code-block\} )?yaml\n(.*?)^```", text[head.end():], flags=re.MULTILINE | re.DOTALL)
    if not block:
        raise ValueError(f"the section '{SECTION}' has no ```yaml block")
    found = yaml.safe_load(block.group(1)) or {}
    for name, spec in found.items():
        if not isinstance(spec, dict) or set(spec) - {"draw", "let", "numbers", "keep", "key"} or "draw" not in spec \
                or "numbers" not in spec:
            raise ValueError(f"{name}: a declaration has draw and numbers (and optionally let, keep, key)")
        if spec.get("key", "fixed") != "fixed":
            raise ValueError(f"{name}: key can only be 'fixed' (a right option that states no drawn number)")
        for param, choices in spec["draw"].items():
            if not isinstance(choices, list) or len(choices) < 2:
                raise ValueError(f"{name}: draw {param} needs a list of at least two choices (the first is public)")
    return found


def _exact(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_exact(v) for v in value)
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        raise ValueError(f"not a number: {value!r}")  # noqa: TRY004 - bad input is a ValueError
    return Fraction(str(value))


def _norm(v: tuple) -> Fraction:
    square = sum(x * x for x in v)
    root = Fraction(math.isqrt(square.numerator), math.isqrt(square.denominator))
    if root * root != square:
        raise ValueError(f"norm{tuple(map(str, v))} is not rational; draw a Pythagorean vector")
    return root


FUNCTIONS = {"norm": _norm, "sqrt": lambda x: math.sqrt(x), "ln": lambda x: math.log(x),
             "comb": lambda n, k: Fraction(math.comb(int(n), int(k)))}


def _evaluate(expression: Any, names: dict[str, Any], where: str) -> Any:
    """``expression`` (a number or Python arithmetic on ``names``) with fractions; floats only from sqrt, ln."""
    if isinstance(expression, (int, float)):
        return _exact(expression)
    tree = ast.parse(str(expression), mode="eval")
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Load, ast.Constant, ast.Call, ast.Subscript,
               ast.Add, ast.Sub, ast.Mult, ast.Div, ast.Pow, ast.USub, ast.UAdd)
    for node in ast.walk(tree):
        if not isinstance(node, allowed):
            raise ValueError(f"{where}: {expression!r} may use only + - * / **, [i], names and {sorted(FUNCTIONS)}")  # noqa: TRY004 - bad input is a ValueError
        if isinstance(node, ast.Call) and not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS):
            raise ValueError(f"{where}: {expression!r} calls an unknown function")
        if isinstance(node, ast.Constant) and not isinstance(node.value, (int, float)):
            raise ValueError(f"{where}: {expression!r} has a constant that is not a number")  # noqa: TRY004 - bad input is a ValueError
    tree = ast.fix_missing_locations(_Exact().visit(tree))
    try:
        return eval(compile(tree, where, "eval"), {"__builtins__": {}, "Fraction": Fraction},
                    {**FUNCTIONS, **names})
    except (NameError, TypeError, IndexError, ZeroDivisionError) as error:
        raise ValueError(f"{where}: {expression!r}: {error}") from None


class _Exact(ast.NodeTransformer):
    """Number constants as fractions, so that ``t/n`` is exact (indices stay integers)."""

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        node.value = self.visit(node.value)
        return node

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return ast.Call(func=ast.Name("Fraction", ast.Load()), args=[ast.Constant(str(node.value))], keywords=[])
        return node


def written(value: Any, public: str, where: str) -> str:
    """``value`` as the bank writes numbers: exact, with at least the public number's decimals
    (``public`` with a leading ``~``: rounded to them)."""
    approximate = public.startswith("~")
    digits = len(public.split(".")[1]) if "." in public else 0
    if approximate:
        return f"{abs(float(value)):.{digits}f}"
    if not isinstance(value, Fraction):
        raise ValueError(f"{where}: {public} is computed inexactly ({value!r}); declare it as ~{public}")  # noqa: TRY004 - bad input is a ValueError
    value = abs(value)
    for places in itertools.count(digits):
        scaled = value * 10 ** places
        if scaled.denominator == 1:
            return f"{float(value):.{places}f}" if places else str(scaled.numerator)
        if places > 12:
            raise ValueError(f"{where}: {public} becomes {value}, which has no finite decimal; change the draw")
    raise AssertionError


# ---- drawing ---------------------------------------------------------------------------------

def draws(name: str, spec: dict[str, Any]) -> list[dict[str, Any]]:
    """Every possible draw of a question, the public one (every first choice) first."""
    params = list(spec["draw"])
    return [dict(zip(params, combo, strict=True))
            for combo in itertools.product(*(spec["draw"][p] for p in params))]


def values(name: str, spec: dict[str, Any], draw: dict[str, Any]) -> dict[str, str]:
    """The text of every declared number under ``draw``: public literal -> new literal."""
    names = {param: _exact(value) for param, value in draw.items()}
    for var, expression in (spec.get("let") or {}).items():
        names[var] = _evaluate(expression, names, f"{name}, let {var}")
    out = {}
    for literal, expression in spec["numbers"].items():
        literal = str(literal)
        out[literal.lstrip("~")] = written(_evaluate(expression, names, f"{name}, number {literal}"), literal, name)
    return out


def substitute(section: str, mapping: dict[str, str], keep: list[str] = ()) -> str:
    """``section`` with every number token that ``mapping`` names replaced (all at once); roles, bare
    sub- and superscripts and the ``keep`` snippets untouched."""
    protected = [m.span() for m in _ROLE.finditer(section)]
    for snippet in keep:
        protected += [(m.start(), m.end()) for m in re.finditer(re.escape(snippet), section)]

    def replace(match: re.Match) -> str:
        start = match.start()
        if any(a <= start < b for a, b in protected) or match.group(0) not in mapping:
            return match.group(0)
        before = section[max(0, start - 12):start]
        if before.endswith(("_", "^")) and not before.endswith("\\mathbb{R}^"):
            return match.group(0)
        return mapping[match.group(0)]
    return _TOKEN.sub(replace, section)


def _seed(secret: str, *parts: object) -> int:
    return int.from_bytes(hashlib.sha256("\0".join([secret, "quiz", *map(str, parts)]).encode()).digest()[:8], "big")


def _check(bank: int, name: str, section: str, spec: dict[str, Any]) -> None:
    """The declaration reproduces the public text; every draw keeps four distinct options and passes
    coursebook.bank_numbers' audit."""
    from coursebook.bank_numbers import audit

    banks = _banks()
    everything = draws(name, spec)
    public = values(name, spec, everything[0])
    if public != {k: k for k in public}:
        wrong = {k: v for k, v in public.items() if k != v}
        raise ValueError(f"{name}: the public draw gives {wrong} (written -> computed); fix its declaration")
    keep = spec.get("keep") or []
    missing = sorted(set(public) - {m.group(0) for m in _TOKEN.finditer(section)})
    if missing:
        raise ValueError(f"{name}: declares {missing}, which its text does not state")
    unkept = _ROLE.sub(" ", section)
    for snippet in keep:
        unkept = unkept.replace(snippet, " ")
    glued = sorted({m.group(0) for literal in public for m in
                    re.finditer(rf"(?<![\w.]){re.escape(literal)}[A-Za-z]\w*", unkept)})
    if glued:
        raise ValueError(f"{name}: writes {glued}, which a draw cannot replace; put a space (\\,) after the number")
    for draw in everything:
        text = substitute(section, values(name, spec, draw), keep)
        question = banks.parse(text, bank)[0]
        if len(set(question.options.values())) != 4:
            raise ValueError(f"{name}: the draw {draw} makes two options the same")
        problems = audit(question)
        if problems:
            raise ValueError(f"{name}: the draw {draw} does not check: {'; '.join(problems)}")
    redraws(bank, name, section, spec)


def redraws(bank: int, name: str, section: str, spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The draws a private quiz picks from: those whose key states another value than the public key
    (with ``key: fixed``, a right option that states no drawn number: those whose stem is another)."""
    banks = _banks()
    public = banks.parse(section, bank)[0]
    fixed = spec.get("key") == "fixed"
    out = []
    for draw in draws(name, spec)[1:]:
        question = banks.parse(substitute(section, values(name, spec, draw), spec.get("keep") or []), bank)[0]
        if fixed and question.options[question.answer] != public.options[public.answer]:
            raise ValueError(f"{name}: declares key: fixed, but the draw {draw} changes its right option")
        if (question.stem != public.stem) if fixed else (question.options[question.answer] != public.options[public.answer]):
            out.append(draw)
    if not out:
        raise ValueError(f"{name}: every draw keeps the public key's value; give its parameters other choices")
    return out


def private_section(bank: int, name: str, section: str, spec: dict[str, Any] | None, secret: str,
                    target: str) -> str:
    """One question's text in the private quiz: numbers redrawn (never the public draw) and options
    reordered by the secret, the key at ``target``."""
    banks = _banks()
    if spec:
        choices = redraws(bank, name, section, spec)
        draw = choices[_seed(secret, "draw", name) % len(choices)]
        section = substitute(section, values(name, spec, draw), spec.get("keep") or [])
    return banks.reorder(_seed(secret, "order", bank) % 2**31, name, section, target)


def _targets(secret: str, bank: int, count: int) -> list[str]:
    out: list[str] = []
    block = 0
    while len(out) < count:
        out += sorted("ABCD", key=lambda letter, b=block: _seed(secret, "target", bank, b, letter))
        block += 1
    return out[:count]


def check_banks() -> list[str]:
    """The redrawn questions of every bank, each checked (a ValueError names the first wrong one)."""
    banks = _banks()
    checked = []
    for path in banks.bank_files():
        text = path.read_text(encoding="utf-8")
        found = {name: (start, end) for start, end, name in banks.sections(text)}
        for name, spec in declarations(text).items():
            if name not in found:
                raise ValueError(f"{path.name}: declares numbers for {name}, which is not one of its questions")
            _check(banks.bank_number(path), name, text[slice(*found[name])], spec)
            checked.append(name)
    return checked


def fingerprint(keys: list[str]) -> str:
    """A short name of one draw: 8 hex digits of the SHA-256 of its keys' Markdown (a function of the
    quiz students see, not of the secret alone), so that a private quiz's exports name their edition."""
    return hashlib.sha256("\0".join(keys).encode()).hexdigest()[:8]


def private_banks(secret: str) -> Iterator[tuple[Path, str]]:
    """(bank file, the private quiz's Markdown with its key) for every bank."""
    banks = _banks()
    check_banks()
    for path in banks.bank_files():
        text = path.read_text(encoding="utf-8")
        bank = banks.bank_number(path)
        specs = declarations(text)
        found = banks.sections(text)
        targets = _targets(secret, bank, len(found))
        parts = [f"# {banks.bank_title(path)}: private quiz, key\n\n{banks.notice()}\n"]
        for (start, end, name), target in zip(found, targets, strict=True):
            parts.append(private_section(bank, name, text[start:end], specs.get(name), secret, target).rstrip() + "\n")
        yield path, "\n".join(parts)


def student_markdown(title: str, questions: list) -> str:
    """The quiz as students see it: stems and options, no key."""
    banks = _banks()
    out = [f"# {title}: quiz", "", banks.notice(), ""]
    for k, q in enumerate(questions, 1):
        out += [f"## Question {k}: {q.title}", "", q.stem, ""]
        out += [f"- **{letter}.** {q.options[letter]}" for letter in "ABCD"] + [""]
    return "\n".join(out)


def write(secret: str, folder: Path) -> list[Path]:
    """Write the private quiz of every bank into ``folder``: ``bank_NN.md`` (for students),
    ``bank_NN_key.md`` (key, explanations, misconceptions), ``moodle.xml``, ``questions.csv`` and, in
    ``canvas/``, text2qti's quiz and its QTI zip, as ``make banks`` writes the public ones. Each names its
    edition, :func:`fingerprint` of the draw: the Moodle categories are ``Perceptron private quiz
    <fingerprint>/Bank NN`` (not the public ``Perceptron/Bank NN``), the Canvas quizzes say their options
    are in the order of ``bank_NN_key.md``."""
    from perceptron_homework.checks import PUBLIC_SECRET

    if not secret or secret == PUBLIC_SECRET:
        raise ValueError("a private quiz needs the instructor's secret; the public quiz is `make banks`")
    banks = _banks()
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "canvas").mkdir(exist_ok=True)
    labels = banks._chapter_labels()
    drawn = list(private_banks(secret))
    edition = fingerprint([key for _, key in drawn])
    written_files, all_questions = [], []
    for path, key in drawn:
        bank = banks.bank_number(path)
        questions = banks.parse(key, bank)
        all_questions.append(questions)
        title = banks.bank_title(path)
        (folder / f"{path.stem}_key.md").write_text(key, encoding="utf-8")
        (folder / f"{path.stem}.md").write_text(student_markdown(f"{title} (private quiz {edition})", questions),
                                                 encoding="utf-8")
        quiz = folder / "canvas" / f"{path.stem}.txt"
        quiz.write_text(banks.text2qti_quiz(questions, f"{title} (private quiz {edition})", labels,
                                            source=f"{path.stem}_key.md of private quiz {edition}"),
                        encoding="utf-8")
        package = quiz.with_suffix(".zip")
        package.write_bytes(banks.canvas_qti(quiz.read_text(encoding="utf-8"), quiz.name))
        written_files += [folder / f"{path.stem}.md", folder / f"{path.stem}_key.md", quiz, package]
    xml = folder / "moodle.xml"
    xml.write_text(banks.moodle_xml(all_questions, top=f"Perceptron private quiz {edition}"), encoding="utf-8")
    table = folder / "questions.csv"
    with table.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=banks.CSV_FIELDS)
        writer.writeheader()
        writer.writerows({"bank": q.bank, "id": q.name, "title": q.title, "stem": q.stem, **q.options,
                          "answer": q.answer, "explanation": q.explanation, "licence": banks.notice()}
                         for bank in all_questions for q in bank)
    return [xml, table, *written_files]
