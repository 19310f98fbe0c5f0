"""The instructor question banks (book/instructor/bank_NN.md): balanced answer keys and LMS exports.

A concept question (``### QN.k: title``) has a stem, four options ``- **A.** ...`` to ``- **D.** ...``,
one ``**Answer: X.**`` line and, under ``**Distractors.**``, one ``- X: misconception`` item per wrong
option. Written by hand, 41 of 63 keys were B. ``python -m coursebook.banks --write`` puts every
question's options in an order that depends only on the question (a hash of its name and each
option's text) and then moves the right option to a target letter: the targets of a bank are
blocks of the four letters, each block in a seeded order, so every letter is the key of a quarter of
the questions, give or take one. The answer line, the distractor items and any "same as X" in
their text follow the options. The order depends on the question, not on the file, so running it
again changes nothing (`tests/content/test_question_banks.py` checks the banks are in that order).

``python -m coursebook.banks --export DIR`` (``make banks``) first refuses a bank whose question states a
number its own data do not give (:mod:`coursebook.bank_numbers`, naming the question), then writes every bank's concept questions for
a learning management system: ``DIR/moodle.xml`` (Moodle XML, Moodle's question bank import, one
category per bank; math as MathJax's ``\\( \\)`` delimiters, which Moodle's and Canvas's filters read)
and ``DIR/questions.csv`` (one row per question: bank, id, title, stem, options A-D, answer,
explanation, in the banks' Markdown, and the licence notice) for clicker tools and spreadsheets and, for Canvas, one quiz
per bank: ``DIR/canvas/bank_NN.txt`` in text2qti's plain-text quiz format and ``DIR/canvas/bank_NN.zip``,
the QTI 1.2 package text2qti makes of it (Canvas: Settings, Import Course Content, "QTI .zip file";
math becomes Canvas's own equation images, read from the course's Canvas).
"""

from __future__ import annotations

import csv
import hashlib
import re
import sys
from pathlib import Path

from . import ROOT, content, myst
from .content import (  # noqa: F401
    ANSWER,
    DISTRACTOR,
    LETTERS,
    OPTION,
    Bank,
    Question,
    distractor_items,
    parse,
    sections,
)

BANKS = ROOT / "book" / "instructor"
CC_BY = "https://creativecommons.org/licenses/by/4.0/"


def notice() -> str:
    """The licence notice the slides and the LMS exports carry (LICENSE-TEXT; author and year from _config.yml)."""
    import yaml

    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
    return (f"\u00a9 {config['copyright']} {config['author']}. Text and figures: CC BY 4.0 ({CC_BY}); "
            "code: MIT.")
# A reference to another option inside an explanation ("same as A").
REFERENCE = re.compile(r"\b(same as|option|options|than|unlike) ([A-D])\b")


def _digest(*parts: object) -> int:
    return int.from_bytes(hashlib.sha256("|".join(map(str, parts)).encode()).digest()[:8], "big")


def targets(bank: int, count: int) -> list[str]:
    """The key letter of each of ``count`` questions of ``bank``: seeded blocks of the four letters."""
    out: list[str] = []
    block = 0
    while len(out) < count:
        out += sorted(LETTERS, key=lambda letter, b=block: _digest("bank", bank, "block", b, letter))
        block += 1
    return out[:count]


def reorder(bank: int, name: str, section: str, target: str) -> str:
    """``section`` (one concept question) with its options in the canonical order and its key at
    ``target``; the answer line, the distractors and "same as X" references follow."""
    lines = section.split("\n")
    at = [k for k, line in enumerate(lines) if OPTION.match(line)]
    if len(at) != 4 or at != list(range(at[0], at[0] + 4)):
        raise ValueError(f"{name}: expected four consecutive option lines - **A.** to - **D.**")
    options = {OPTION.match(lines[k]).group(1): OPTION.match(lines[k]).group(2) for k in at}
    if sorted(options) != list(LETTERS):
        raise ValueError(f"{name}: options must be A, B, C and D, found {sorted(options)}")
    answers = [k for k, line in enumerate(lines) if ANSWER.match(line)]
    if len(answers) != 1:
        raise ValueError(f"{name}: expected one **Answer: X.** line, found {len(answers)}")
    key = ANSWER.match(lines[answers[0]]).group(1)
    order = sorted(LETTERS, key=lambda letter: _digest(bank, name, options[letter]))
    spot = LETTERS.index(target)
    here = order.index(key)
    order[here], order[spot] = order[spot], key
    new = {old: LETTERS[k] for k, old in enumerate(order)}  # old letter -> new letter

    def remap(text: str) -> str:
        return REFERENCE.sub(lambda m: f"{m.group(1)} {new[m.group(2)]}", text)

    for k, old in zip(at, order, strict=True):
        lines[k] = f"- **{new[old]}.** {options[old]}"
    answer = ANSWER.match(lines[answers[0]])
    lines[answers[0]] = f"**Answer: {new[answer.group(1)]}.**{remap(answer.group(2))}"
    marks = [k for k, line in enumerate(lines) if line.strip() == "**Distractors.**"]
    if len(marks) != 1:
        raise ValueError(f"{name}: expected one **Distractors.** line")
    start = marks[0] + 1
    end = start
    while end < len(lines) and (not lines[end].strip() or DISTRACTOR.match(lines[end])
                                or lines[end].startswith("  ")):
        end += 1
    while end > start and not lines[end - 1].strip():
        end -= 1
    body = lines[start:end]
    lead = 0
    while lead < len(body) and not body[lead].strip():
        lead += 1
    items = distractor_items(body[lead:])
    if sorted(items) != sorted(set(LETTERS) - {key}):
        raise ValueError(f"{name}: distractors {sorted(items)} do not match the wrong options")
    rewritten = []
    for old in sorted(items, key=lambda letter: new[letter]):
        first, *rest = items[old]
        rewritten.append(f"- {new[old]}: {remap(DISTRACTOR.match(first).group(2))}")
        rewritten += [remap(line) for line in rest]
    lines[start:end] = body[:lead] + rewritten
    return "\n".join(lines)


def balance(text: str, bank: int) -> str:
    """A bank's text with every concept question reordered (idempotent)."""
    found = sections(text)
    keys = targets(bank, len(found))
    out, last = [], 0
    for (start, end, name), target in zip(found, keys, strict=True):
        out += [text[last:start], reorder(bank, name, text[start:end], target)]
        last = end
    return "".join(out) + text[last:]


def bank_files() -> list[Path]:
    return content.bank_files(BANKS)


def bank_number(path: Path) -> int:
    return Bank(path).number


def questions(path: Path) -> list[Question]:
    """The concept questions of one bank file."""
    return Bank(path).questions


# ---- exports ---------------------------------------------------------------------------------

def _chapter_labels() -> dict[str, str]:
    """Every ``{prf:...}`` label of the chapters, as the words a reader outside the book can follow:
    'the lemma "Title" of chapter 3'."""
    return {label: f"the {s.kind}" + (f' "{s.title}"' if s.title else "") + f" of chapter {s.chapter}"
            for label, s in content.statements().items()}


def _plain_roles(text: str, labels: dict[str, str]) -> str:
    """MyST roles as words: a labelled statement by its kind, title and chapter; a page by its chapter."""
    def role(found: myst.Role) -> str:
        if found.text:
            return found.text
        if found.name == "doc":
            number = re.search(r"notebooks/(\d\d)_", found.target)
            return f"chapter {int(number.group(1))}" if number else found.target.rsplit("/", 1)[-1]
        return labels.get(found.target, found.target)
    return myst.replace_roles(text, role)


def html(text: str, labels: dict[str, str]) -> str:
    """A bank's Markdown as the HTML an LMS shows: math as MathJax's ``\\( \\)`` and ``\\[ \\]``
    (Moodle's and Canvas's MathJax filters read them), roles as words."""
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin

    def math(content: str, options: dict) -> str:
        escaped = content.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        return f"\\[{escaped}\\]" if options.get("display_mode") else f"\\({escaped}\\)"

    md = MarkdownIt("commonmark").use(dollarmath_plugin, renderer=math)
    rendered = md.render(_plain_roles(text, labels)).strip()
    if rendered.startswith("<p>") and rendered.endswith("</p>") and rendered.count("<p>") == 1:
        rendered = rendered[3:-4]
    return rendered


def moodle_xml(banks: list[list[Question]], top: str = "Perceptron") -> str:
    """Concept questions as Moodle XML (Moodle's question bank import): one category per bank (under
    ``$course$/top/<top>``; a private quiz names its own, so that it does not merge into the public one), a
    single-answer multiple-choice question per concept question, options in the bank's order
    (A-D, not shuffled, so that the key and the explanations match), the misconception of each wrong
    option as its feedback and the explanation as general feedback."""
    from xml.etree import ElementTree as ET

    labels = _chapter_labels()
    quiz = ET.Element("quiz")

    def text(parent: ET.Element, tag: str, value: str, fmt: str | None = "html") -> ET.Element:
        node = ET.SubElement(parent, tag, {"format": fmt} if fmt else {})
        ET.SubElement(node, "text").text = value
        return node

    for bank in banks:
        if not bank:
            continue
        category = ET.SubElement(quiz, "question", {"type": "category"})
        text(category, "category", f"$course$/top/{top}/Bank {bank[0].bank:02d}", None)
        text(category, "info", notice(), "html")
        for q in bank:
            item = ET.SubElement(quiz, "question", {"type": "multichoice"})
            text(item, "name", f"{q.name} {q.title}", None)
            text(item, "questiontext", html(q.stem, labels))
            text(item, "generalfeedback", html(q.explanation, labels))
            for tag, value in (("defaultgrade", "1"), ("penalty", "0"), ("hidden", "0"), ("single", "true"),
                               ("shuffleanswers", "false"), ("answernumbering", "ABCD")):
                ET.SubElement(item, tag).text = value
            for letter in LETTERS:
                right = letter == q.answer
                answer = text(item, "answer", html(q.options[letter], labels))
                answer.set("fraction", "100" if right else "0")
                feedback = "Right." if right else html(q.distractors[letter], labels)
                text(answer, "feedback", feedback)
    ET.indent(quiz)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<!-- ' + notice() + " -->\n"
            + ET.tostring(quiz, encoding="unicode") + "\n")


def bank_title(path: Path) -> str:
    """A bank's title, its first heading: "Bank 1: linear classifiers and their geometry"."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# "):
            return line[2:].strip()
    raise ValueError(f"{path.name}: no '# ' title line")


def _text2qti_markdown(text: str, labels: dict[str, str], indent: int) -> str:
    """A bank's Markdown as text2qti reads it after a start marker ``indent`` characters wide: roles as
    words, display math as inline math (text2qti reads only ``$...$``), continuation lines indented."""
    text = _plain_roles(text, labels)
    text = re.sub(r"\$\$\s*(.+?)\s*\$\$", r"$\1$", text, flags=re.DOTALL)
    lines = text.strip().split("\n")
    return "\n".join([lines[0]] + [" " * indent + line if line.strip() else "" for line in lines[1:]])


def text2qti_quiz(bank: list[Question], title: str, labels: dict[str, str] | None = None,
                  source: str = "the bank") -> str:
    """One bank's concept questions as a text2qti quiz: options in the order of ``source`` (the bank, or a
    private quiz's key; answers not shuffled, so the explanations' letters match), the explanation as the
    question's feedback and each wrong option's misconception as that option's feedback."""
    if not bank:
        raise ValueError(f"{title}: the bank has no concept questions")
    labels = _chapter_labels() if labels is None else labels
    out = [f"Quiz title: Perceptron, {title}",
           (f"Quiz description: Concept questions of bank {bank[0].bank} of the Perceptron course, "
            f"in the bank's order; options A-D as in {source}. {notice()}"),
           "Shuffle answers: false", ""]
    for number, q in enumerate(bank, 1):
        start = f"{number}.".ljust(4)
        out += [f"Title: {q.name} {q.title}", "Points: 1",
                start + _text2qti_markdown(q.stem, labels, len(start))]
        if q.explanation:
            out.append("... " + _text2qti_markdown(q.explanation, labels, 4))
        for k, letter in enumerate(LETTERS):
            mark = f"{'*' if letter == q.answer else ''}{'abcd'[k]})".ljust(4)
            out.append(mark + _text2qti_markdown(q.options[letter], labels, len(mark)))
            if letter != q.answer:
                out.append("... " + _text2qti_markdown(q.distractors[letter], labels, 4))
        out.append("")
    return "\n".join(out)


def canvas_qti(source: str, name: str) -> bytes:
    """The QTI 1.2 package (a zip Canvas imports) text2qti makes of a quiz's text; a text2qti error
    becomes a ValueError naming the quiz."""
    from text2qti.config import Config
    from text2qti.err import Text2qtiError
    from text2qti.qti import QTI
    from text2qti.quiz import Quiz

    # Config() without .load(): text2qti's defaults (math as images from the importing Canvas's own
    # /equation_images/), not a config file in the user's home.
    try:
        qti = QTI(Quiz(source, config=Config(), source_name=name))
    except Text2qtiError as error:
        raise ValueError(f"{name}: text2qti: {error}") from error
    # text2qti's manifest says "Private (Copyrighted)"; the banks are CC BY 4.0, in the words Canvas
    # itself writes for that licence.
    private = "Private (Copyrighted) - http://en.wikipedia.org/wiki/Copyright"
    if private not in qti.imsmanifest_xml:
        raise ValueError(f"{name}: text2qti's manifest no longer has its rights statement; set the licence anew")
    qti.imsmanifest_xml = qti.imsmanifest_xml.replace(private, f"CC Attribution - {CC_BY}")
    return qti.zip_bytes()


CSV_FIELDS = ["bank", "id", "title", "stem", "A", "B", "C", "D", "answer", "explanation", "licence"]  # licence: notice()


def export(folder: Path) -> list[Path]:
    """Write ``moodle.xml`` (every bank), ``questions.csv`` (one row per question) and, in
    ``canvas/``, each bank's text2qti quiz and its QTI zip into ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    files = bank_files()
    banks = [questions(path) for path in files]
    xml = folder / "moodle.xml"
    xml.write_text(moodle_xml(banks), encoding="utf-8")
    table = folder / "questions.csv"
    with table.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        writer.writerows({"bank": q.bank, "id": q.name, "title": q.title, "stem": q.stem, **q.options,
                          "answer": q.answer, "explanation": q.explanation, "licence": notice()}
                         for bank in banks for q in bank)
    canvas = folder / "canvas"
    canvas.mkdir(exist_ok=True)
    labels = _chapter_labels()
    written = [xml, table]
    for path, bank in zip(files, banks, strict=True):
        if not bank:
            continue
        quiz = canvas / f"{path.stem}.txt"
        quiz.write_text(text2qti_quiz(bank, bank_title(path), labels), encoding="utf-8")
        package = canvas / f"{path.stem}.zip"
        package.write_bytes(canvas_qti(quiz.read_text(encoding="utf-8"), quiz.name))
        written += [quiz, package]
    return written


def inconsistent() -> list[str]:
    """Every concept question whose key or explanation disagrees with its own data (coursebook.bank_numbers)."""
    from .bank_numbers import problems

    return [problem for path in bank_files() for problem in problems(questions(path))]


def main() -> None:
    if "--export" in sys.argv:
        index = sys.argv.index("--export") + 1
        if index >= len(sys.argv):
            sys.exit("--export needs a folder")
        wrong = inconsistent()
        if wrong:
            sys.exit("coursebook.banks: not exported, a question disagrees with its own data:\n  "
                     + "\n  ".join(wrong))
        for path in export(Path(sys.argv[index])):
            print(path)
        return
    stale = []
    for path in bank_files():
        text = path.read_text(encoding="utf-8")
        done = balance(text, bank_number(path))
        if done != text:
            stale.append(path)
            if "--write" in sys.argv:
                path.write_text(done, encoding="utf-8")
    if stale and "--write" not in sys.argv:
        sys.exit("not in balanced order: " + ", ".join(p.name for p in stale)
                 + " (run `python -m coursebook.banks --write`)")
    print(f"{len(stale)} bank(s) rewritten" if "--write" in sys.argv else "the banks are in balanced order")


if __name__ == "__main__":
    main()
