"""`make slides`: one reveal.js deck per session of every course plan, in _build/slides/<plan>/.

The plans are :data:`coursebook.plan.PLANS` (three, five and six sessions of 90 minutes); with
``--sessions N --minutes M`` (``make slides SESSIONS=4 MINUTES=75``) the decks of
:func:`coursebook.plan.timetable` are made as well, in _build/slides/<N>x<M>/. A chapter that the
timetable splits over two sessions has its slides split in the same order.

Each chapter of a session gives, in the chapter's order:

- a title slide with the chapter's "You will learn" list;
- its formal statements (definitions, theorems, lemmas, propositions, algorithms) and, after each
  statement, the slides of its ``{prf:proof}`` (long proofs over several slides; the optional
  proofs are left out when a timetable skips them in class);
- its figures (not the exercises' solutions), from the notebook's committed outputs, scaled to fill
  the slide under a short title (the chapter section they illustrate), with the alt text the book
  gives them (book/figure_descriptions.yml, by cell id; slider frames carry the descriptions stored
  with the slider);
- three positions of each slider (first, middle, last), each a figure slide with that frame's description;
- three concept questions of the chapter's question bank (two per chapter when a session teaches
  two), each followed by a slide with its answer. The banks' options and answer letters are read
  from book/instructor/bank_NN.md at every build.

Every slide carries speaker notes (``<aside class="notes">``, press ``s`` in a deck): the chapter's
paragraphs around the statement or figure, the figure's description, and for the concept questions
the bank's analysis of the distractors.

The decks work offline and print: reveal.js and MathJax come from npm (package.json, installed by
`make node_modules`) and are copied into _build/slides/; no CDN is referenced. Add `?print-pdf` to a
deck's address and print it from the browser for a PDF (one slide per page).
"""

from __future__ import annotations

import argparse
import base64
import html
import json
import re
import shutil
import struct
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import yaml
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from . import CHAPTERS, ROOT, myst, plan
from .pdf import strip_positions

OUT = ROOT / "_build" / "slides"
REVEAL = ROOT / "node_modules" / "reveal.js"
MATHJAX = ROOT / "node_modules" / "mathjax-full" / "es5"
MATHJAX_FILES = ("tex-chtml.js", "startup.js", "loader.js", "core.js")
MATHJAX_FOLDERS = ("a11y", "adaptors", "input", "output", "sre", "ui")
DESCRIPTIONS = ROOT / "book" / "figure_descriptions.yml"
BANKS = ROOT / "book" / "instructor"
STATEMENTS = ("prf:definition", "prf:theorem", "prf:lemma", "prf:proposition", "prf:corollary", "prf:algorithm")
SLIDER_FRAMES = 3         # positions of a slider shown, first to last, each on its own slide
QUESTIONS_PER_SESSION = 3
#: The slide (reveal.js ``width`` x ``height``) and the box a figure is scaled to fill under its title.
SLIDE_WIDTH, SLIDE_HEIGHT = 1280, 720
FIGURE_BOX = (1240, 664)
SIDE_WIDTH = 400           # the text beside a figure too tall to fill the slide's width (its caption or description)
PROOF_WORDS = 110          # a longer proof continues on another slide, cut between paragraphs
OPTIONAL_NOTE = re.compile(r"^\s*\*\(Optional:[^)]*\)\*\s*")
LETTERS = ("A", "B", "C", "D")


def render_math(content: str, options: dict) -> str:
    content = html.escape(content)
    return f"\\[{content}\\]" if options.get("display_mode") else f"\\({content}\\)"


MARKDOWN = (MarkdownIt("commonmark").enable("table")
            .use(dollarmath_plugin, allow_space=True, double_inline=True, renderer=render_math))


@lru_cache(maxsize=1)
def labels() -> dict[str, str]:
    """Every formal block's label in the chapters, as text: ``lemma “The alignment grows linearly”``."""
    out = {}
    for path in CHAPTERS:
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                for block in myst.blocks("".join(cell["source"])):
                    if block.label and block.name.startswith("prf:"):
                        kind = block.name.split(":")[1]
                        out[block.label] = f"{kind} “{block.argument}”" if block.argument else kind
    return out


def plain_role(role: myst.Role) -> str:
    """A MyST role, which only the book resolves, as readable text."""
    if role.name == "math":
        return f"${role.content}$"
    if role.name.startswith("cite"):
        return "[" + role.content.replace(",", ", ") + "]"
    if role.name == "prf:ref":
        return role.text or labels().get(role.target, role.target)
    if role.name == "doc":
        chapter = re.search(r"(?:^|/)(\d\d)_", role.target)
        if chapter:
            return f"chapter {int(chapter.group(1))}"
        return role.text or role.target.rsplit("/", 1)[-1]
    return role.text or f"({role.target})"


def plain_roles(text: str) -> str:
    return myst.replace_roles(text, plain_role)


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
    head = base64.b64decode(uri.split(",", 1)[1][:44])
    if head[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("a figure output is not a PNG")
    return struct.unpack(">II", head[16:24])


def fitted(width: int, height: int, box: tuple[int, int] = FIGURE_BOX) -> tuple[int, int]:
    """The size that fills ``box`` keeping the aspect ratio (larger than the image when it is small)."""
    scale = min(box[0] / width, box[1] / height)
    return round(width * scale), round(height * scale)


# ---------------------------------------------------------------- the bank's concept questions


@dataclass(frozen=True)
class Question:
    """One concept question of a bank: its options by letter and the letter of the answer."""

    number: str
    title: str
    stem: str
    options: dict[str, str]
    answer: str
    explanation: str
    distractors: str


QUESTION = re.compile(r"^### (Q\d+\.\d+):[ \t]*(.*)$", re.MULTILINE)
OPTION = re.compile(r"^- \*\*([A-Z])\.\*\*[ \t]*(.*(?:\n(?!- \*\*[A-Z]\.\*\*|\s*$).*)*)", re.MULTILINE)
ANSWER = re.compile(r"^\*\*Answer:[ \t]*([A-Z])\.?\*\*[ \t]*(.*?)(?=^\*\*Distractors|\Z)", re.MULTILINE | re.DOTALL)


def bank_path(number: int) -> Path:
    return BANKS / f"bank_{number:02d}.md"


def questions(number: int) -> list[Question]:
    """The concept questions of the bank of chapter ``number``, read from the file as it is now.

    Raises
    ------
    ValueError
        If a question does not have exactly the options A to D, or no answer among them.
    """
    path = bank_path(number)
    if not path.exists():
        return []
    text = path.read_text(encoding="utf-8")
    section = re.search(r"^## Concept questions\s*$(.*?)(?=^## |\Z)", text, re.MULTILINE | re.DOTALL)
    if not section:
        return []
    heads = list(QUESTION.finditer(section.group(1)))
    out = []
    for k, head in enumerate(heads):
        end = heads[k + 1].start() if k + 1 < len(heads) else len(section.group(1))
        body = section.group(1)[head.end():end]
        options = [(m.group(1), " ".join(m.group(2).split())) for m in OPTION.finditer(body)]
        where = f"{path.name}, {head.group(1)}"
        if [letter for letter, _ in options] != list(LETTERS):
            raise ValueError(f"{where}: options {[letter for letter, _ in options]}, expected A, B, C, D in order")
        answer = ANSWER.search(body)
        if not answer or answer.group(1) not in LETTERS:
            raise ValueError(f"{where}: no **Answer: X.** line with X among A to D")
        first = OPTION.search(body)
        distractors = body.split("**Distractors.**", 1)[1].strip() if "**Distractors.**" in body else ""
        out.append(Question(head.group(1), head.group(2).strip(), body[:first.start()].strip(), dict(options),
                            answer.group(1), answer.group(2).strip(), distractors))
    return out


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
    """The paragraphs of a prose part of a cell worth reading as notes (no headings, fences, tables)."""
    if prose.lstrip().startswith(("```", ":::")):
        return []
    out = []
    for para in re.split(r"\n\s*\n", prose):
        para = para.strip()
        if (len(para.split()) >= 8 and not para.startswith(("#", "|", "<", "!", "(", "```", ":::"))
                and "**You will learn**" not in para):
            out.append(para)
    return out


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
    """A chapter as slides: its title slide, its content slides in order, its title."""

    number: int
    title: str
    opening: Slide
    content: list[Slide]


def chapter(number: int, skip_optional: bool = False) -> Chapter:
    path = CHAPTERS[number - 1]
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    first = "".join(cells[0]["source"])
    title = first.splitlines()[0].lstrip("# ").strip()
    intro = paragraphs(first)
    opening = Slide("chapter", f'<h2>Chapter {number}</h2><h1>{inline(title)}</h1>'
                               f'<div class="learn">{learn_list(first)}</div>', notes=intro[:1])
    described = descriptions()
    slides: list[Slide] = []
    last_para, section, statement = (intro[-1] if intro else ""), "", None
    for cell in cells[1:]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for kind, part in myst.split(source):
                if kind == "prose":
                    section = (headings(part) or [section])[-1]
                    found = paragraphs(part)
                    if found:
                        for slide in slides:
                            if slide.wants_next:
                                slide.notes.append(found[0])
                                slide.wants_next = False
                        last_para = found[-1]
                    continue
                if kind != "formal":
                    continue
                block = myst.blocks(part)[0]
                if block.name in STATEMENTS:
                    heading = block.name.split(":")[1].capitalize() + (f": {block.argument}" if block.argument else "")
                    statement = (heading, block.argument)
                    slides.append(Slide("statement", f"<h3>{inline(heading)}</h3>{md(block.body)}",
                                        notes=[last_para] if last_para else [], wants_next=not last_para))
                elif block.name == "prf:proof" and statement:
                    optional = "optional" in block.options.get("class", "")
                    if optional and skip_optional:
                        continue
                    chunks = proof_chunks(block.body)
                    for k, chunk in enumerate(chunks, start=1):
                        name = f"Proof: {statement[1]}" if statement[1] else f"Proof of the {statement[0].lower()}"
                        more = f" ({k}/{len(chunks)})" if len(chunks) > 1 else ""
                        tag = ' <span class="tag">optional in the book</span>' if optional else ""
                        notes = [f"Proof of {statement[0]}." + (" The book marks this proof optional." if optional else ""),
                                 *([last_para] if k == 1 and last_para else [])]
                        slides.append(Slide("proof", f"<h3>{inline(name + more)}{tag}</h3>{md(chunk)}",
                                            notes=notes, wants_next=True))
            continue
        if cell["cell_type"] != "code" or "-sol" in (cell.get("id") or ""):
            continue                                        # the exercises' solutions stay in the book
        if "SliderFigure(" in source:
            frames, alts = slider_frames(cell)
            picks = strip_positions(len(frames), SLIDER_FRAMES) if frames else []
            for n, i in enumerate(picks, start=1):
                heading = f"{section or 'The slider'}: position {i + 1} of {len(frames)}"
                slides.append(figure_slide(
                    "slider", as_uri(frames[i]), heading, alts[i], "", f' data-cell="{cell["id"]}" data-frame="{i}"',
                    notes=[p for p in (last_para if n == 1 else "",
                                       (f"Frame {n} of the {len(picks)} shown from the book's slider (first to last); "
                                       "in the book, students move it themselves."),
                                       "This frame: " + alts[i]) if p]))
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/png" not in data:
                continue
            cid = cell.get("id")
            if cid not in described:
                raise ValueError(f"{path.name} cell {cid}: a figure with no description in {DESCRIPTIONS.name}")
            alt = " ".join(described[cid]["alt"].split())
            uri = "data:image/png;base64," + "".join(data["image/png"]).replace("\n", "")
            caption = described[cid].get("caption", "")
            slides.append(figure_slide("figure", uri, figure_title(section, alt), alt, caption, f' data-cell="{cid}"',
                                       notes=[p for p in (last_para, caption, "The figure: " + alt) if p]))
    for slide in slides:
        slide.wants_next = False
    return Chapter(number, title, opening, slides)


def question_slides(question: Question, bank: int) -> list[Slide]:
    options = "".join(f"<li><b>{letter}.</b> {inline(text)}</li>" for letter, text in question.options.items())
    ask = Slide("question", f'<h3>Concept question {question.number}: {inline(question.title)}</h3>'
                            f'{md(question.stem)}<ul class="options">{options}</ul>',
                notes=[(f"From the question bank of chapter {bank} ({bank_path(bank).name}). Let everyone vote "
                       "(cards or fingers for A to D), have neighbours argue for a minute, vote again; "
                       "the answer is on the next slide.")],
                attrs=f' data-question="{question.number}"')
    answer = Slide("answer", f'<h3>Answer to {question.number}</h3>'
                             f'<p class="answer"><b>{question.answer}.</b> '
                             f'{inline(question.options[question.answer])}</p>{md(question.explanation)}',
                   notes=[question.distractors or question.explanation],
                   attrs=f' data-question="{question.number}" data-answer="{question.answer}"')
    return [ask, answer]


# ---------------------------------------------------------------- sessions and decks


@dataclass(frozen=True)
class Session:
    """What one session teaches: (chapter, part, parts) pieces, and its class minutes in the plan."""

    pieces: tuple[tuple[int, int, int], ...]
    minutes: int


def plan_sessions(name: str) -> list[Session]:
    spec = plan.PLANS[name]
    minutes = plan.session_minutes(name)
    return [Session(tuple((c, 1, 1) for c in chapters), m) for chapters, m in zip(spec["sessions"], minutes, strict=True)]


def timetable_sessions(table: plan.Timetable) -> list[Session]:
    return [Session(tuple((p.chapter, p.part, p.parts) for p in pieces), minutes)
            for pieces, minutes in zip(table.sessions, table.session_minutes(), strict=True) if pieces]


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


def session_slides(session: Session, skip_optional: bool) -> list[Slide]:
    slides = []
    per_piece = -(-QUESTIONS_PER_SESSION // len(session.pieces)) if len(session.pieces) > 1 else QUESTIONS_PER_SESSION
    per_piece = max(per_piece, 2) if len(session.pieces) > 1 else per_piece
    for number, part, parts in session.pieces:
        ch = chapter(number, skip_optional)
        opening = ch.opening
        if parts > 1:
            opening = Slide("chapter", opening.content.replace(
                f"<h2>Chapter {number}</h2>", f"<h2>Chapter {number}, part {part} of {parts}</h2>"), opening.notes)
        slides.append(opening)
        slides += part_of(ch.content, part, parts)
        bank = questions(number)
        if bank:
            start = (part - 1) * per_piece
            for k in range(min(per_piece, len(bank))):
                slides += question_slides(bank[(start + k) % len(bank)], number)
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
"""


def deck(heading: str, session: Session, number: int, skip_optional: bool) -> str:
    names = ", ".join(f"{c}" + (f" (part {p} of {n})" if n > 1 else "") for c, p, n in session.pieces)
    chapters = len({c for c, _, _ in session.pieces})
    title = Slide("title", f'<h1>Session {number}</h1><p>The Perceptron: linear classifiers, executed. '
                           f'Chapter{"s" if chapters > 1 else ""} {names}.</p><p class="note">{html.escape(heading)}</p>',
                  notes=[(f"Session {number} of {heading}: chapter{'s' if chapters > 1 else ''} {names}. The course "
                         f"plan's word-count model gives {session.minutes} minutes of class, the exercise done in "
                         f"class ({plan.IN_CLASS_EXERCISE} minutes) included; adjust to your students.")])
    slides = [title, *session_slides(session, skip_optional)]
    body = "\n".join(s.html() for s in slides)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Session {number}: chapters {names}</title>
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="icon" href="data:,">
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


def decks(sessions: int | None = None, minutes: int | None = None) -> dict[str, tuple[str, list[Session], bool]]:
    """Folder name -> (heading, sessions, skip optional proofs) of every deck set to build."""
    out = {}
    for name, spec in plan.PLANS.items():
        out[name] = (f"the {name}-session plan", plan_sessions(name), spec["skip_optional"])
    if sessions is not None or minutes is not None:
        table = plan.timetable(sessions or 5, minutes or plan.SESSION_MINUTES)
        out[f"{sessions or 5}x{minutes or plan.SESSION_MINUTES}"] = (
            f"a timetable of {sessions or 5} sessions of {table.minutes} minutes", timetable_sessions(table),
            table.skip_optional)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, help="also the decks of a timetable of this many sessions")
    parser.add_argument("--minutes", type=int, help="... of this many minutes each (default 90)")
    args = parser.parse_args(argv)
    for needed in (REVEAL / "dist" / "reveal.js", MATHJAX / "tex-chtml.js"):
        if not needed.exists():
            raise SystemExit(f"{needed} is missing: `make node_modules` installs reveal.js and MathJax")
    try:
        sets = decks(args.sessions, args.minutes)
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
    for folder, (heading, sessions, skip) in sets.items():
        (OUT / folder).mkdir()
        links = []
        for number, session in enumerate(sessions, start=1):
            name = f"session_{number}.html"
            (OUT / folder / name).write_text(deck(heading, session, number, skip), encoding="utf-8")
            chapters = ", ".join(f"{c}" + (f" (part {p} of {n})" if n > 1 else "") for c, p, n in session.pieces)
            plural = "s" if len(session.pieces) > 1 else ""
            links.append(f'<li><a href="{folder}/{name}">Session {number}</a>: chapter{plural} {chapters} '
                         f'({session.minutes} minutes)</li>')
            count += 1
        sections.append(f"<h2>Slides for {html.escape(heading)}</h2><ul>{''.join(links)}</ul>")
    (OUT / "index.html").write_text(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Slides</title></head><body>"
        "<h1>Slides</h1>" + "".join(sections) +
        "<p>Press <kbd>s</kbd> in a deck for the speaker notes. Add <code>?print-pdf</code> to a deck's "
        "address and print it to get a PDF.</p></body></html>", encoding="utf-8")
    print(f"{count} decks in {OUT}: {', '.join(sets)}")


if __name__ == "__main__":
    main()
