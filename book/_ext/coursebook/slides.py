"""`make slides`: one reveal.js deck per session of every course plan, in _build/slides/<plan>/.

The plans are :func:`coursebook.plan.plans` (three, five and six sessions of 90 minutes); ``make slides
SESSIONS=4 MINUTES=75`` adds the decks of :func:`coursebook.plan.timetable` in _build/slides/4x75/,
``CHAPTERS="1, 2 | 4+ | 5"`` those of the instructor's choice in _build/slides/chosen/, and
``PLAN=myplan.yml`` those of a plan file in _build/slides/myplan/. A chapter that a timetable splits
over two sessions has its slides split in the same order.

Each chapter of a session gives, in the chapter's order and on its core path (no section marked
"(optional)", no optional proof) unless the plan says "+":

- a title slide with the chapter's "You will learn" list;
- its formal statements (definitions, theorems, lemmas, propositions, algorithms) and, after each
  statement, its ``{prf:proof}`` revealed step by step (reveal.js fragments: each sentence, display
  formula or list item; long proofs over several slides);
- its figures (not the exercises' solutions), from the notebook's committed outputs, scaled to fill
  the slide under a short title, with the alt text the book gives them;
- three positions of each slider (first, middle, last), each a figure slide with that frame's description.

After the content of the session's last chapter: the exercise done in class (its first pen-and-paper
exercise with a written solution, else its quick checks) and the answer on the next slide; then three
concept questions of the chapters' banks (read by :mod:`coursebook.banks`), each followed by its answer.

Every slide carries speaker notes (``<aside class="notes">``, press ``s``), written to be said: the first
whole sentences of the chapter's paragraph around the slide (a paragraph that ends at a colon keeps its
formula, none is said twice), citations as "Novikoff (1962)" from book/references.bib, nothing pointing
"above" or "below". Every deck carries the CC BY 4.0 notice (coursebook.banks.notice).

The decks work offline and print: reveal.js and MathJax come from npm (package.json, installed by
`make node_modules`) and are copied into _build/slides/; no CDN is referenced. Add `?print-pdf` to a
deck's address and print it from the browser for a PDF (one slide per page, every step shown).
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import re
import shutil
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from . import CHAPTERS, ROOT, banks, content, myst, plan
from .pdf import strip_positions

OUT = ROOT / "_build" / "slides"
REVEAL = ROOT / "node_modules" / "reveal.js"
MATHJAX = ROOT / "node_modules" / "mathjax-full" / "es5"
MATHJAX_FILES = ("tex-chtml.js", "startup.js", "loader.js", "core.js")
MATHJAX_FOLDERS = ("a11y", "adaptors", "input", "output", "sre", "ui")
DESCRIPTIONS = ROOT / "book" / "figure_descriptions.yml"
BANKS = content.BANKS
STATEMENTS = ("prf:definition", "prf:theorem", "prf:lemma", "prf:proposition", "prf:corollary", "prf:algorithm")
SLIDER_FRAMES = 3         # positions of a slider shown, first to last, each on its own slide
QUESTIONS_PER_SESSION = 3
#: The slide (reveal.js ``width`` x ``height``) and the box a figure is scaled to fill under its title.
SLIDE_WIDTH, SLIDE_HEIGHT = 1280, 720
FIGURE_BOX = (1240, 664)
SIDE_WIDTH = 400           # the text beside a figure too tall to fill the slide's width (its caption or description)
PROOF_WORDS = 110          # a longer proof continues on another slide, cut between paragraphs
OPTIONAL_NOTE = re.compile(r"^\s*\*\(Optional:[^)]*\)\*\s*")


def render_math(content: str, options: dict) -> str:
    content = html.escape(content)
    return f"\\[{content}\\]" if options.get("display_mode") else f"\\({content}\\)"


MARKDOWN = (MarkdownIt("commonmark").enable("table")
            .use(dollarmath_plugin, allow_space=True, double_inline=True, renderer=render_math))


@lru_cache(maxsize=1)
def labels() -> dict[str, str]:
    """Every formal block's label in the chapters, as text: ``lemma “The alignment grows linearly”``."""
    return {label: f"{s.kind} “{s.title}”" if s.title else s.kind for label, s in content.statements().items()}


@lru_cache(maxsize=1)
def references() -> dict[str, tuple[str, str]]:
    """Every entry of book/references.bib as (authors' last names, year): ("Block and Levin", "1970")."""
    from pybtex.database import parse_file

    out = {}
    for key, entry in parse_file(str(ROOT / "book" / "references.bib")).entries.items():
        people = [" ".join(p.last_names) for p in entry.persons.get("author", []) or entry.persons.get("editor", [])]
        names = (people[0] if len(people) == 1 else " and ".join(people) if len(people) == 2
                 else f"{people[0]} et al." if people else "“" + entry.fields.get("title", key).strip("{}") + "”")
        out[key] = (names.replace("{", "").replace("}", ""), entry.fields.get("year", "n.d."))
    return out


def citation(role: myst.Role) -> str:
    """A citation as said aloud: ``Novikoff (1962)`` for ``{cite:t}``, ``(Novikoff, 1962)`` for ``{cite}``.

    Raises
    ------
    ValueError
        If a key is not in book/references.bib.
    """
    known = references()
    keys = [k.strip() for k in role.content.split(",") if k.strip()]
    missing = [k for k in keys if k not in known]
    if missing:
        raise ValueError(f"citation key(s) {missing} not in book/references.bib")
    if role.name == "cite:t":
        return " and ".join(f"{known[k][0]} ({known[k][1]})" for k in keys)
    return "(" + "; ".join(f"{known[k][0]}, {known[k][1]}" for k in keys) + ")"


def plain_role(role: myst.Role) -> str:
    """A MyST role, which only the book resolves, as readable text."""
    if role.name == "math":
        return f"${role.content}$"
    if role.name.startswith("cite"):
        return citation(role)
    if role.name == "prf:ref":
        return role.text or labels().get(role.target, role.target)
    if role.name == "doc":
        chapter = re.search(r"(?:^|/)(\d\d)_", role.target)
        if chapter:
            return f"chapter {int(chapter.group(1))}"
        return role.text or role.target.rsplit("/", 1)[-1]
    return role.text or f"({role.target})"


def plain_roles(text: str) -> str:
    text = re.sub(r"\b([Cc]hapter) chapter (\d+)", r"\1 \2", myst.replace_roles(text, plain_role))
    kinds = "|".join(k.split(":")[1] for k in (*STATEMENTS, "prf:proof")) + "|chapter"
    return re.sub(rf"(^|[.!?]\s+)({kinds})\b", lambda m: m.group(1) + m.group(2).capitalize(), text)


def md(text: str) -> str:
    return MARKDOWN.render(plain_roles(text))


def inline(text: str) -> str:
    """One line of Markdown as HTML without its paragraph."""
    out = md(text).strip()
    return out[3:-4] if out.startswith("<p>") and out.endswith("</p>") else out


def statements(markdown: list[str]) -> list[tuple[str, str, str]]:
    """(kind, title, body) of every formal statement in the chapter, in order."""
    return [(block.name.split(":")[1].capitalize(), block.argument, block.body)
            for source in markdown for block in myst.blocks(source) if block.name in STATEMENTS]


def learn_list(first_cell: str) -> str:
    # the bullets, each with its wrapped continuation lines
    match = re.search(r"\*\*You will learn\*\*\s*\n((?:[ \t]*-.*\n?|[ \t]+\S.*\n?)+)", first_cell)
    return md(match.group(1)) if match else ""


@lru_cache(maxsize=1)
def descriptions() -> dict[str, dict]:
    """The static figures' descriptions of book/figure_descriptions.yml, by notebook cell id."""
    data = yaml.safe_load(DESCRIPTIONS.read_text(encoding="utf-8"))
    return {str(k): v for k, v in (data.get("static") or {}).items()}


def png_size(uri: str) -> tuple[int, int]:
    """Width and height of a PNG data URI, from its header."""
    size = content.png_size(base64.b64decode(uri.split(",", 1)[1][:44]))
    if size is None:
        raise ValueError("a figure output is not a PNG")
    return size


def fitted(width: int, height: int, box: tuple[int, int] = FIGURE_BOX) -> tuple[int, int]:
    """The size that fills ``box`` keeping the aspect ratio (larger than the image when it is small)."""
    scale = min(box[0] / width, box[1] / height)
    return round(width * scale), round(height * scale)


# ---------------------------------------------------------------- the bank's concept questions


def bank_path(number: int) -> Path:
    return BANKS / f"bank_{number:02d}.md"


def questions(number: int) -> list[banks.Question]:
    """The concept questions of the bank of chapter ``number``, read by coursebook.content from the file as
    it is now (its parser raises a ValueError naming a malformed question)."""
    found = content.Bank(bank_path(number))
    return found.questions if found.path.exists() else []


# ---------------------------------------------------------------- slides


@dataclass
class Slide:
    """A ``<section>`` of a deck: its kind (its class), content and speaker notes (Markdown)."""

    kind: str
    content: str
    notes: list[str] = field(default_factory=list)
    attrs: str = ""
    wants_next: bool = False   # the chapter paragraph after it is added to its notes

    def html(self) -> str:
        notes = "".join(md(n) for n in self.notes if n.strip())
        return (f'<section class="{self.kind}"{self.attrs}>{self.content}'
                f'<aside class="notes">{notes}</aside></section>')


def paragraphs(prose: str) -> list[str]:
    """The paragraphs of a prose part of a cell worth saying as notes (no headings, fences, tables), each
    as :func:`spoken` makes it. A paragraph that ends at a colon keeps what the colon announces (the
    formula or list after it), or loses its last sentence when nothing follows."""
    if prose.lstrip().startswith(("```", ":::")):
        return []
    parts = [p.strip() for p in re.split(r"\n\s*\n", prose) if p.strip()]
    merged: list[str] = []
    for para in parts:
        if merged and merged[-1].endswith(":") and not para.startswith(("#", "```", ":::")):
            merged[-1] += "\n\n" + para
        else:
            merged.append(para)
    out = []
    for para in merged:
        if (len(para.split()) >= 8 and not para.startswith(("#", "|", "<", "!", "(", "```", ":::"))
                and "**You will learn**" not in para):
            said = spoken(para)
            if said:
                out.append(said)
    return out


#: A speaker note says the first sentences of a paragraph, up to about this many words.
NOTE_WORDS = 60
SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")
#: Where the book's text points up or down the page, which a slide cannot show.
POSITIONAL = [(re.compile(r"\s*\((?:as )?(?:shown |see )?(?:above|below)\)"), ""),
              (re.compile(r"\b(shown|stated|given|defined|computed|plotted|drawn|seen|listed|found) (above|below)\b"),
               r"\1 in the book"),
              (re.compile(r"\b(the|these|those|every|each) (\w+) above\b", re.IGNORECASE), r"\1 \2 in the book"),
              (re.compile(r"\b(see|as) (above|below)\b"), r"\1 in the book"),
              (re.compile(r"\bsee\s+(the\s[^.;:()]*?)\s+(above|below)\b"), r"see \1 in the book")]


def unpositioned(text: str) -> str:
    """``text`` without "above"/"below" pointing at the book's page."""
    for pattern, replacement in POSITIONAL:
        text = pattern.sub(replacement, text)
    return text


def spoken(paragraph: str) -> str:
    """A chapter paragraph as a speaker note: its first whole sentences (about ``NOTE_WORDS`` words),
    never ending at a colon, with nothing pointing "above" or "below"."""
    sentences = SENTENCE.split(unpositioned(" ".join(paragraph.split()) if "$$" not in paragraph else paragraph))
    said: list[str] = []
    for sentence in sentences:
        if said and len(" ".join(said + [sentence]).split()) > NOTE_WORDS:
            break
        said.append(sentence)
    while said and said[-1].rstrip().endswith(":"):
        said.pop()
    return " ".join(said).strip()


def headings(prose: str) -> list[str]:
    return [m.group(1).strip() for m in re.finditer(r"^#{2,4}\s+(.*)$", prose, re.MULTILINE)]


def proof_chunks(body: str) -> list[str]:
    """A proof cut between paragraphs into pieces of about ``PROOF_WORDS`` words."""
    paras, merged = re.split(r"\n\s*\n", OPTIONAL_NOTE.sub("", body.strip())), []
    for para in paras:                       # a display formula with blank lines stays whole
        if merged and merged[-1].count("$$") % 2:
            merged[-1] += "\n\n" + para
        else:
            merged.append(para)
    chunks: list[str] = []
    for para in merged:
        if chunks and len((chunks[-1] + " " + para).split()) <= PROOF_WORDS:
            chunks[-1] += "\n\n" + para
        else:
            chunks.append(para)
    return chunks


def slider_frames(cell: dict) -> tuple[list[str], list[str]]:
    """The pre-computed frames of a slider cell and the description stored with each."""
    for output in cell.get("outputs", []):
        page = "".join(output.get("data", {}).get("text/html", ""))
        match = re.search(r'<script type="application/json">(.*?)</script>', page, re.DOTALL)
        if match:
            data = json.loads(match.group(1))
            if len(data["frames"]) != len(data["alts"]):
                raise ValueError(f"slider cell {cell.get('id')}: {len(data['frames'])} frames, "
                                 f"{len(data['alts'])} descriptions")
            return data["frames"], data["alts"]
    return [], []


def as_uri(frame: str) -> str:
    return frame if frame.startswith("data:") else "data:image/png;base64," + frame


def figure_title(heading: str, alt: str) -> str:
    """A short title for a figure slide: the chapter section it belongs to, else its description's start."""
    if heading:
        return heading
    return re.split(r"[:;(]|, ", alt, maxsplit=1)[0]


def figure_slide(kind: str, uri: str, title: str, alt: str, caption: str, attrs: str, notes: list[str]) -> Slide:
    """A figure scaled to fill the slide under a short title; one too tall for the slide's width has its
    caption (or its description) beside it."""
    natural = png_size(uri)
    width, height = fitted(*natural)
    side = ""
    if width < 0.8 * SLIDE_WIDTH:
        width, height = fitted(*natural, (FIGURE_BOX[0] - SIDE_WIDTH, FIGURE_BOX[1]))
        side = f'<div class="side">{md(caption or alt)}</div>'
    return Slide(kind, f'<h4 class="figure-title">{inline(title)}</h4>'
                       f'<div class="figure-row"><img class="figure" src="{uri}"{attrs} alt="{html.escape(alt)}" '
                       f'style="width:{width}px;height:{height}px">{side}</div>', notes=notes, wants_next=True)


@dataclass
class Chapter:
    """A chapter as slides: its title slide, its content slides in order, its title, and the in-class
    exercise (its slide and the answer's) it offers."""

    number: int
    title: str
    opening: Slide
    content: list[Slide]
    exercise: list[Slide] = field(default_factory=list)


OPTIONAL_HEADING = re.compile(r"^(#{1,6}) (.*?)\s*$", re.MULTILINE)


MATH_SPAN = re.compile(r"\$\$.+?\$\$|\$[^$]+\$", re.DOTALL)


def sentences(text: str) -> list[str]:
    """``text`` cut at its sentences' ends (never inside a formula); a display formula is a piece of its own."""
    spans: list[str] = []

    def hold(match: re.Match) -> str:
        spans.append(match.group(0))
        mark = "\x01" if match.group(0).startswith("$$") else "\x00"
        return f"{mark}{len(spans) - 1}{mark}"

    held = MATH_SPAN.sub(hold, text)
    parts = re.split(r"(?<=[.!?])\s+(?=[A-Z\x00\x01])|\s*(\x01\d+\x01[.,;]?)\s*", held)
    return [re.sub("[\x00\x01](\\d+)[\x00\x01]", lambda m: spans[int(m.group(1))], p).strip()
            for p in parts if p and p.strip()]


def stepwise(markdown: str) -> str:
    """A proof's text as HTML that reveal.js shows one step at a time: every sentence after the first,
    every display formula (with the words leading into it) and every item of a list is a step."""
    out: list[str] = []
    step = 0                                  # the step shown with the slide is 0; then 1, 2, ...

    def mark(k: int) -> str:
        return "" if k == 0 else f' class="fragment" data-fragment-index="{k}"'

    for para in (p for p in re.split(r"\n\s*\n", markdown.strip()) if p.strip()):
        if re.match(r"^\s*([-*]|\d+\.)\s", para):
            rendered = md(para)
            while "<li>" in rendered:
                step += 1
                rendered = rendered.replace("<li>", f"<li{mark(step)}>", 1)
            out.append(rendered)
            continue
        line: list[str] = []
        leading = False                       # the last words lead into a formula: same step
        for piece in sentences(para):
            if piece.startswith("$$"):
                if not leading and (out or line):
                    step += 1
                if line:
                    out.append("<p>" + " ".join(line) + "</p>")
                    line = []
                out.append(f'<div{mark(step)}>{md(piece)}</div>' if step else f"<div>{md(piece)}</div>")
                leading = False
                continue
            if (out or line) and not leading:
                step += 1
            line.append(f"<span{mark(step)}>{inline(piece)}</span>" if step else inline(piece))
            leading = not re.search(r"[.!?]$", piece.rstrip("*_ "))
        if line:
            out.append("<p>" + " ".join(line) + "</p>")
    return "".join(out)


def exercise_slides(number: int, exercise: tuple[str, str, str], quick: list[tuple[str, str]]) -> list[Slide]:
    """The session's exercise done in class and, on the next slide, its answer: the chapter's first
    pen-and-paper exercise of its core path with its written solution, else its quick checks."""
    minutes = plan.IN_CLASS_EXERCISE
    if exercise:
        label, body, solution = exercise
        ask = Slide("exercise", f"<h3>Exercise in class ({minutes} minutes)</h3>{md(body)}",
                    notes=[(f"This exercise comes from the end of chapter {number}. Give the class ten minutes in pairs, "
                           "with pen and paper. Walk around and listen. Then ask two pairs to explain their answer "
                           "before you show the next slide.")], attrs=f' data-exercise="{label}"')
        answer = Slide("exercise-answer", f"<h3>Answer to the exercise</h3>{md(solution)}",
                       notes=["Go through the answer step by step. Ask who found it another way."],
                       attrs=f' data-exercise="{label}"')
        return [ask, answer]
    items = "".join(f"<li>{inline(q)}</li>" for q, _ in quick)
    answers = "".join(f"<li><strong>{inline(q)}</strong> {md(a)}</li>" for q, a in quick)
    return [Slide("exercise", f"<h3>Quick checks in class ({minutes} minutes)</h3><ol>{items}</ol>",
                  notes=[(f"These are the quick checks of chapter {number}. Let pairs answer them on paper in ten "
                         "minutes. Then collect answers before you show the next slide.")],
                  attrs=' data-exercise="quick-checks"'),
            Slide("exercise-answer", f"<h3>Answers to the quick checks</h3><ol class=\"answers\">{answers}</ol>",
                  notes=["Take each answer in turn. Ask a pair that got it right to say why."],
                  attrs=' data-exercise="quick-checks"')]


def chapter(number: int, optional: bool = True) -> Chapter:
    """Chapter ``number`` as slides; with ``optional=False`` its core path only (no section marked
    "(optional)" at its heading, no optional proof), as a plan that does not say "+" teaches it."""
    read = content.chapter(CHAPTERS[number - 1])
    path, cells = read.path, read.cells
    first = cells[0].source
    title = read.title
    intro = paragraphs(first)
    opening = Slide("chapter", f'<h2>Chapter {number}</h2><h1>{inline(title)}</h1>'
                               f'<div class="learn">{learn_list(first)}</div>', notes=intro[:1])
    described = descriptions()
    slides: list[Slide] = []
    last_para, section, statement = (intro[-1] if intro else ""), "", None
    said: set[str] = set(opening.notes)      # a chapter paragraph is said once, on the first slide it fits

    def fresh(paragraph: str) -> str:
        if not paragraph or paragraph in said:
            return ""
        said.add(paragraph)
        return paragraph

    skipping: int | None = None            # the level of the "(optional)" heading being left out
    exercise: tuple[str, str, str] | None = None
    pending: tuple[str, str] | None = None  # a pen-and-paper exercise waiting for its solution
    quick: list[tuple[str, str]] = []
    for cell in cells[1:]:
        source = cell.source
        if cell.type == "markdown":
            for kind, part in myst.split(source):
                if kind == "prose":
                    for level, text in OPTIONAL_HEADING.findall(part):
                        if skipping is not None and len(level) <= skipping:
                            skipping = None
                        if skipping is None and not optional and text.endswith("(optional)"):
                            skipping = len(level)
                    if cell.id == "quick-checks":
                        quick += [(b.argument, b.body) for b in myst.blocks(part) if b.name == "admonition"]
                    if skipping is not None:
                        continue
                    section = (headings(part) or [section])[-1]
                    found = paragraphs(part)
                    if found:
                        for slide in slides:
                            if slide.wants_next and fresh(found[0]):
                                slide.notes.append(found[0])
                                slide.wants_next = False
                        last_para = found[-1]
                    continue
                if skipping is not None:
                    continue
                block = myst.blocks(part)[0]
                if kind == "exercise" and not exercise and block.body.lstrip().startswith("(Pen and paper.)"):
                    pending = (block.options.get("label", ""), block.body)
                elif kind == "solution" and pending and block.argument == pending[0] and block.body.strip():
                    exercise, pending = (*pending, block.body), None
                if kind != "formal":
                    continue
                if block.name in STATEMENTS:
                    heading = block.name.split(":")[1].capitalize() + (f": {block.argument}" if block.argument else "")
                    statement = (heading, block.argument)
                    slides.append(Slide("statement", f"<h3>{inline(heading)}</h3>{md(unpositioned(block.body))}",
                                        notes=[p for p in (fresh(last_para),) if p], wants_next=True))
                elif block.name == "prf:proof" and statement:
                    marked = "optional" in block.options.get("class", "")
                    if marked and not optional:
                        continue
                    chunks = proof_chunks(unpositioned(block.body))
                    for k, chunk in enumerate(chunks, start=1):
                        name = f"Proof: {statement[1]}" if statement[1] else f"Proof of the {statement[0].lower()}"
                        more = f" ({k}/{len(chunks)})" if len(chunks) > 1 else ""
                        tag = ' <span class="tag">optional in the book</span>' if marked else ""
                        notes = [f"The proof of the {statement[0].split(':')[0].lower()}, one step at a time: press the "
                                 "arrow for each step." + (" The book marks this proof optional." if marked else ""),
                                 *([fresh(last_para)] if k == 1 else [])]
                        slides.append(Slide("proof", f"<h3>{inline(name + more)}{tag}</h3>{stepwise(chunk)}",
                                            notes=notes, wants_next=True))
            continue
        if skipping is not None or cell.type != "code" or cell.solution:
            continue                                        # the exercises' solutions stay in the book
        if content.is_slider(cell.raw):
            frames, alts = slider_frames(cell.raw)
            picks = strip_positions(len(frames), SLIDER_FRAMES) if frames else []
            for n, i in enumerate(picks, start=1):
                heading = f"{section or 'The slider'}: position {i + 1} of {len(frames)}"
                slides.append(figure_slide(
                    "slider", as_uri(frames[i]), heading, alts[i], "", f' data-cell="{cell.id}" data-frame="{i}"',
                    notes=[p for p in (fresh(last_para) if n == 1 else "",
                                       (f"This is frame {n} of the {len(picks)} shown from the book's slider, first "
                                        "to last. In the book, students move it themselves."),
                                       alts[i]) if p]))
            continue
        for output in cell.raw.get("outputs", []):
            data = output.get("data", {})
            if "image/png" not in data:
                continue
            cid = cell.id
            if cid not in described:
                raise ValueError(f"{path.name} cell {cid}: a figure with no description in {DESCRIPTIONS.name}")
            alt = " ".join(described[cid]["alt"].split())
            uri = "data:image/png;base64," + "".join(data["image/png"]).replace("\n", "")
            caption = described[cid].get("caption", "")
            slides.append(figure_slide("figure", uri, figure_title(section, alt), alt, caption, f' data-cell="{cid}"',
                                       notes=[p for p in (fresh(last_para), spoken(caption), alt) if p]))
    for slide in slides:
        slide.wants_next = False
    for slide in slides:
        slide.notes = [n if re.search(r"[.!?)]$", n.strip()) else n.strip() + "." for n in slide.notes if n.strip()]
    return Chapter(number, title, opening, slides,
                   exercise_slides(number, exercise, quick) if exercise or quick else [])


def question_slides(question: banks.Question, bank: int) -> list[Slide]:
    options = "".join(f"<li><b>{letter}.</b> {inline(text)}</li>" for letter, text in question.options.items())
    ask = Slide("question", f'<h3>Concept question {question.name}: {inline(question.title)}</h3>'
                            f'{md(question.stem)}<ul class="options">{options}</ul>',
                notes=[(f"From the question bank of chapter {bank} ({bank_path(bank).name}). Let everyone vote "
                       "(cards or fingers for A to D), have neighbours argue for a minute, vote again; "
                       "the answer is on the next slide.")],
                attrs=f' data-question="{question.name}"')
    answer = Slide("answer", f'<h3>Answer to {question.name}</h3>'
                             f'<p class="answer"><b>{question.answer}.</b> '
                             f'{inline(question.options[question.answer])}</p>{md(question.explanation)}',
                   notes=[spoken(f"Those who chose {k}: {v}") for k, v in question.distractors.items()],
                   attrs=f' data-question="{question.name}" data-answer="{question.answer}"')
    return [ask, answer]


# ---------------------------------------------------------------- sessions and decks


@dataclass(frozen=True)
class Session:
    """What one session teaches: (chapter, part, parts, with its optional parts) pieces, its class minutes
    in the plan and the minutes left for questions."""

    pieces: tuple[tuple[int, int, int, bool], ...]
    minutes: int
    spare: int = 0


def sessions_of(table: plan.Timetable) -> list[Session]:
    return [Session(tuple((p.chapter, p.part, p.parts, p.optional) for p in pieces), minutes, spare)
            for pieces, minutes, spare in zip(table.sessions, table.session_minutes(), table.spare(), strict=True)
            if pieces]


def part_of(slides: list[Slide], part: int, parts: int) -> list[Slide]:
    """The ``part``-th of ``parts`` runs of the slides; a run never starts on a proof's continuation."""
    cuts = [0]
    for k in range(1, parts):
        cut = max(cuts[-1], round(k * len(slides) / parts))
        while 0 < cut < len(slides) and slides[cut].kind == "proof":
            cut += 1
        cuts.append(cut)
    cuts.append(len(slides))
    return slides[cuts[part - 1]:cuts[part]]


def session_slides(session: Session) -> list[Slide]:
    """The session's chapters in order, the exercise done in class after the last one's content, then the
    concept questions of each chapter."""
    slides = []
    per_piece = -(-QUESTIONS_PER_SESSION // len(session.pieces)) if len(session.pieces) > 1 else QUESTIONS_PER_SESSION
    per_piece = max(per_piece, 2) if len(session.pieces) > 1 else per_piece
    asked = []
    for k, (number, part, parts, optional) in enumerate(session.pieces):
        ch = chapter(number, optional)
        opening = ch.opening
        if parts > 1:
            opening = Slide("chapter", opening.content.replace(
                f"<h2>Chapter {number}</h2>", f"<h2>Chapter {number}, part {part} of {parts}</h2>"), opening.notes)
        slides.append(opening)
        slides += part_of(ch.content, part, parts)
        if k == len(session.pieces) - 1:
            slides += ch.exercise
        bank = questions(number)
        if bank:
            start = (part - 1) * per_piece
            asked += [(bank[(start + j) % len(bank)], number) for j in range(min(per_piece, len(bank)))]
    for question, number in asked:
        slides += question_slides(question, number)
    return slides


STYLE = """
.reveal { font-size: 30px; }
.reveal h1 { font-size: 1.7em; } .reveal h2 { font-size: 1.1em; color: #555; } .reveal h3 { font-size: 1.05em; }
.reveal section { text-align: left; }
.reveal .statement p, .reveal .proof p, .reveal .question p, .reveal .answer p, .reveal li { font-size: 0.9em; line-height: 1.35; }
.reveal .proof p { font-size: 0.82em; }
.reveal h4.figure-title { font-size: 0.8em; margin: 0 0 4px 0; line-height: 1.2; color: #333; text-transform: none; }
.reveal .figure-row { display: flex; gap: 24px; align-items: center; justify-content: center; width: 100%; }
.reveal img.figure { display: block; margin: 0; max-width: none; max-height: none; flex: none; }
.reveal .figure-row .side { flex: 1 1 0; min-width: 300px; font-size: 0.85em; line-height: 1.35; }
.reveal .note { font-size: 0.6em; color: #555; }
.reveal .tag { font-size: 0.6em; color: #555; font-weight: normal; }
.reveal ul.options { list-style: none; margin-left: 0; }
.reveal .slide-number, .reveal .slide-number a { background-color: #222; color: #fff; }
.reveal p.answer { margin-top: 0.6em; padding: 0.3em 0.6em; border-left: 4px solid #0072B2; }
.reveal .exercise p, .reveal .exercise-answer p, .reveal .exercise li, .reveal .exercise-answer li { font-size: 0.85em; line-height: 1.35; }
.reveal ol.answers li p { display: inline; }
.reveal p.licence { font-size: 0.55em; color: #555; margin-top: 2em; }
.reveal p.licence a { color: #0b5394; text-decoration: underline; }
"""


def piece_names(session: Session) -> str:
    return ", ".join(f"{c}" + (" with its optional parts" if o else "") + (f" (part {p} of {n})" if n > 1 else "")
                     for c, p, n, o in session.pieces)


def licence_html() -> str:
    return (f'<p class="licence">{html.escape(banks.notice()).replace(html.escape(banks.CC_BY), "")}'
            .replace("CC BY 4.0 ()", f'<a href="{banks.CC_BY}" rel="license">CC BY 4.0</a>') + "</p>")


def deck(heading: str, session: Session, number: int) -> str:
    names = piece_names(session)
    chapters = len({c for c, *_ in session.pieces})
    plural = "s" if chapters > 1 else ""
    title = Slide("title", f'<h1>Session {number}</h1><p>The Perceptron: linear classifiers, executed. '
                           f'Chapter{plural} {names}.</p><p class="note">{html.escape(heading)}</p>{licence_html()}',
                  notes=[(f"Session {number} of {heading}: chapter{plural} {names}. The plan gives "
                          f"{session.minutes} minutes of class, the exercise included. That leaves {session.spare} "
                          "minutes for questions. The minutes come from a word-count model, so adjust them to your "
                          "students.")])
    end = Slide("licence", f"<h3>Licence</h3>{licence_html()}<p>The decks are made from the book by "
                           "<code>make slides</code>; reveal.js (MIT) and MathJax (Apache 2.0) are bundled with "
                           "their licences.</p>",
                notes=["You may reuse and adapt these slides if you credit the Perceptron module."])
    slides = [title, *session_slides(session), end]
    body = "\n".join(s.html() for s in slides)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Session {number}: chapters {names}</title>
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="icon" href="data:,">
<link rel="license" href="{banks.CC_BY}">
<link rel="stylesheet" href="../reveal/dist/reset.css">
<link rel="stylesheet" href="../reveal/dist/reveal.css">
<link rel="stylesheet" href="../reveal/dist/theme/white.css">
<style>{STYLE}</style>
<script>
window.MathJax = {{ tex: {{ inlineMath: [["\\\\(", "\\\\)"]], displayMath: [["\\\\[", "\\\\]"]] }},
                   startup: {{ typeset: true }} }};
</script>
<script src="../mathjax/tex-chtml.js" id="MathJax-script"></script>
</head>
<body>
<div class="reveal"><div class="slides">
{body}
</div></div>
<script src="../reveal/dist/reveal.js"></script>
<script src="../reveal/plugin/notes/notes.js"></script>
<script>
Reveal.initialize({{ hash: true, slideNumber: true, center: false, width: {SLIDE_WIDTH}, height: {SLIDE_HEIGHT},
                     margin: 0.02, pdfSeparateFragments: false, plugins: [RevealNotes] }});
</script>
</body>
</html>
"""


def decks(sessions: int | None = None, minutes: int | None = None, chapters: str | None = None,
          plan_path: str | None = None, slack: int | None = None) -> dict[str, tuple[str, list[Session]]]:
    """Folder name -> (heading, sessions) of every deck set to build: the book's plans, and the plan asked
    for (``make slides SESSIONS=4 MINUTES=75``, ``CHAPTERS="1, 2 | 4+ | 5"`` or ``PLAN=myplan.yml``)."""
    out = {name: (f"the {name}-session plan", sessions_of(table)) for name, table in plan.plans().items()}
    table = plan.requested(sessions, minutes, chapters, plan_path, slack)
    if table is not None:
        if plan_path:
            folder, heading = Path(plan_path).stem, f"the plan {Path(plan_path).name}"
        elif chapters:
            folder, heading = "chosen", f"the plan “{chapters}” in sessions of {table.minutes} minutes"
        else:
            folder = f"{len(table.sessions)}x{table.minutes}"
            heading = f"a timetable of {len(table.sessions)} sessions of {table.minutes} minutes"
        if folder in out:
            raise ValueError(f"a plan file may not be called {folder}: the book's own plans use that name")
        out[folder] = (heading, sessions_of(table))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    plan.arguments(parser)
    args = parser.parse_args(argv)
    for needed in (REVEAL / "dist" / "reveal.js", MATHJAX / "tex-chtml.js"):
        if not needed.exists():
            raise SystemExit(f"{needed} is missing: `make node_modules` installs reveal.js and MathJax")
    try:
        sets = decks(args.sessions, args.minutes, args.chapters, args.plan, args.slack)
    except ValueError as error:
        raise SystemExit(f"coursebook.slides: {error}") from error
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    shutil.copytree(REVEAL / "dist", OUT / "reveal" / "dist")
    shutil.copytree(REVEAL / "plugin" / "notes", OUT / "reveal" / "plugin" / "notes")
    shutil.copy2(REVEAL / "LICENSE", OUT / "reveal" / "LICENSE")
    (OUT / "mathjax").mkdir()
    for name in MATHJAX_FILES:
        shutil.copy2(MATHJAX / name, OUT / "mathjax" / name)
    for name in MATHJAX_FOLDERS:
        shutil.copytree(MATHJAX / name, OUT / "mathjax" / name)
    sections, count = [], 0
    for folder, (heading, sessions) in sets.items():
        (OUT / folder).mkdir()
        links = []
        for number, session in enumerate(sessions, start=1):
            name = f"session_{number}.html"
            (OUT / folder / name).write_text(deck(heading, session, number), encoding="utf-8")
            chapters = piece_names(session)
            plural = "s" if len(session.pieces) > 1 else ""
            links.append(f'<li><a href="{folder}/{name}">Session {number}</a>: chapter{plural} {chapters} '
                         f'({session.minutes} minutes, {session.spare} left for questions)</li>')
            count += 1
        sections.append(f"<h2>Slides for {html.escape(heading)}</h2><ul>{''.join(links)}</ul>")
    (OUT / "index.html").write_text(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Slides</title></head><body>"
        "<h1>Slides</h1>" + "".join(sections) +
        "<p>Press <kbd>s</kbd> in a deck for the speaker notes. Add <code>?print-pdf</code> to a deck's "
        "address and print it to get a PDF.</p>" + licence_html() + "</body></html>", encoding="utf-8")
    print(f"{count} decks in {OUT}: {', '.join(sets)}")


if __name__ == "__main__":
    main()
