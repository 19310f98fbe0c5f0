"""`make slides`: one reveal.js deck per session of the five-session plan, in _build/slides/.

Each deck is made from the chapters of its session (:mod:`coursebook.plan`, plan "five"):

- a title slide with the chapter's "You will learn" list;
- the statements of its definitions, theorems, lemmas and propositions (proofs stay in the book);
- its figures, taken from the committed outputs of the notebook;
- one strip of frames of its first slider (the pre-computed positions, side by side);
- a concept question from the chapter's question bank, with the answer on the next fragment.

The decks work offline and print: reveal.js and MathJax come from npm (package.json, installed by
`make node_modules`) and are copied into _build/slides/; no CDN is referenced. Add
`?print-pdf` to a deck's address and print it from the browser for a PDF (one slide per page).
"""

from __future__ import annotations

import html
import json
import re
import shutil
from pathlib import Path

from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from . import CHAPTERS, ROOT, myst
from .pdf import strip_positions
from .plan import PLANS

OUT = ROOT / "_build" / "slides"
REVEAL = ROOT / "node_modules" / "reveal.js"
MATHJAX = ROOT / "node_modules" / "mathjax-full" / "es5"
MATHJAX_FILES = ("tex-chtml.js", "startup.js", "loader.js", "core.js")
MATHJAX_FOLDERS = ("a11y", "adaptors", "input", "output", "sre", "ui")
STATEMENTS = ("prf:definition", "prf:theorem", "prf:lemma", "prf:proposition", "prf:corollary", "prf:algorithm")
MAX_FIGURES, STRIP_FRAMES = 3, 4
DATA_PNG = re.compile(r"data:image/png;base64,[A-Za-z0-9+/=]+")


def render_math(content: str, options: dict) -> str:
    content = html.escape(content)
    return f"\\[{content}\\]" if options.get("display_mode") else f"\\({content}\\)"


MARKDOWN = (MarkdownIt("commonmark").enable("table")
            .use(dollarmath_plugin, allow_space=True, double_inline=True, renderer=render_math))


def plain_role(role: myst.Role) -> str:
    """A MyST role, which only the book resolves, as readable text."""
    if role.name == "math":
        return f"${role.content}$"
    if role.name.startswith("cite"):
        return "[" + role.content.replace(",", ", ") + "]"
    if role.name == "doc":
        chapter = re.search(r"(?:^|/)(\d\d)_", role.target)
        if chapter:
            return f"chapter {chapter.group(1)}"
        return role.text or role.target.rsplit("/", 1)[-1]
    return role.text or f"({role.target})"


def plain_roles(text: str) -> str:
    return myst.replace_roles(text, plain_role)


def md(text: str) -> str:
    return MARKDOWN.render(plain_roles(text))


def statements(markdown: list[str]) -> list[tuple[str, str, str]]:
    """(kind, title, body) of every formal statement in the chapter, in order."""
    return [(block.name.split(":")[1].capitalize(), block.argument, block.body)
            for source in markdown for block in myst.blocks(source) if block.name in STATEMENTS]


def learn_list(first_cell: str) -> str:
    # the bullets, each with its wrapped continuation lines
    match = re.search(r"\*\*You will learn\*\*\s*\n((?:[ \t]*-.*\n?|[ \t]+\S.*\n?)+)", first_cell)
    return md(match.group(1)) if match else ""


def figures(cells: list[dict]) -> tuple[list[str], list[str]]:
    """Static figures (PNG outputs) and the frames of the first slider, as data URIs."""
    pngs, frames = [], []
    for cell in cells:
        if cell["cell_type"] != "code":
            continue
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "SliderFigure(" in "".join(cell["source"]) and "text/html" in data and not frames:
                frames = DATA_PNG.findall("".join(data["text/html"]))
            elif "image/png" in data:
                pngs.append("data:image/png;base64," + "".join(data["image/png"]).replace("\n", ""))
    return pngs, frames


def concept_question(number: int) -> tuple[str, str, str]:
    """(question with options, answer line, title) of the first concept question of a bank."""
    bank = (ROOT / "book" / "instructor" / f"bank_{number:02d}.md").read_text(encoding="utf-8")
    match = re.search(r"^### (Q\d\.\d+): ([^\n]*)\n(.*?)(?=^### )", bank, flags=re.MULTILINE | re.DOTALL)
    title, body = f"{match.group(1)}: {match.group(2)}", match.group(3)
    question = body.split("**Answer:")[0]
    answer = "**Answer:" + body.split("**Answer:")[1].split("**Distractors.**")[0]
    return md(question), md(answer), title


def chapter_slides(path: Path, number: int) -> list[str]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    markdown = ["".join(c["source"]) for c in cells if c["cell_type"] == "markdown"]
    title = markdown[0].splitlines()[0].lstrip("# ").strip()
    slides = [(f'<section class="chapter"><h2>Chapter {number}</h2><h1>{html.escape(title)}</h1>'
               f'<div class="learn">{learn_list(markdown[0])}</div></section>')]
    pngs, frames = figures(cells)
    if pngs:
        slides.append(f'<section><h3>{html.escape(title)}</h3><img class="figure" src="{pngs[0]}" '
                      f'alt="The first figure of chapter {number}"></section>')
    for kind, name, body in statements(markdown):
        heading = f"{kind}: {name}" if name else kind
        slides.append(f'<section class="statement"><h3>{md(heading)[3:-5]}</h3>{md(body)}</section>')
    for k, png in enumerate(pngs[1:MAX_FIGURES], start=2):
        slides.append(f'<section><h3>{html.escape(title)}</h3><img class="figure" src="{png}" '
                      f'alt="Figure {k} of chapter {number}"></section>')
    if frames:
        picks = strip_positions(len(frames), STRIP_FRAMES)
        strip = "".join(f'<img src="{frames[i]}" alt="slider position {i + 1} of {len(frames)}">' for i in picks)
        slides.append(f'<section><h3>Moving the slider</h3><div class="strip">{strip}</div>'
                      f'<p class="note">{len(picks)} of the {len(frames)} positions of the book\'s slider, first to last.</p>'
                      '</section>')
    question, answer, qtitle = concept_question(number)
    slides.append(f'<section class="question"><h3>Concept question ({html.escape(qtitle)})</h3>{question}'
                  f'<div class="fragment answer">{answer}</div></section>')
    return slides


STYLE = """
.reveal { font-size: 30px; }
.reveal h1 { font-size: 1.7em; } .reveal h2 { font-size: 1.1em; color: #555; } .reveal h3 { font-size: 1.05em; }
.reveal section { text-align: left; }
.reveal .statement p, .reveal .question p, .reveal li { font-size: 0.9em; line-height: 1.35; }
.reveal img.figure { display: block; margin: 0 auto; max-height: 560px; max-width: 100%; }
.reveal .strip { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; }
.reveal .strip img { width: 100%; max-height: 300px; object-fit: contain; margin: 0; }
.reveal .note { font-size: 0.6em; color: #555; }
.reveal .answer { margin-top: 0.6em; padding: 0.3em 0.6em; border-left: 4px solid #0072B2; }
"""


def deck(session: int, chapters: list[int]) -> str:
    slides = []
    names = ", ".join(str(c) for c in chapters)
    slides.append(f'<section class="title"><h1>Session {session}</h1><p>The Perceptron: linear classifiers, '
                  f'executed. Chapter{"s" if len(chapters) > 1 else ""} {names}.</p></section>')
    for number in chapters:
        slides += chapter_slides(CHAPTERS[number - 1], number)
    body = "\n".join(slides)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Session {session}: chapters {names}</title>
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="icon" href="data:,">
<link rel="stylesheet" href="reveal/dist/reset.css">
<link rel="stylesheet" href="reveal/dist/reveal.css">
<link rel="stylesheet" href="reveal/dist/theme/white.css">
<style>{STYLE}</style>
<script>
window.MathJax = {{ tex: {{ inlineMath: [["\\\\(", "\\\\)"]], displayMath: [["\\\\[", "\\\\]"]] }},
                   startup: {{ typeset: true }} }};
</script>
<script src="mathjax/tex-chtml.js" id="MathJax-script"></script>
</head>
<body>
<div class="reveal"><div class="slides">
{body}
</div></div>
<script src="reveal/dist/reveal.js"></script>
<script>
Reveal.initialize({{ hash: true, slideNumber: true, center: false, width: 1280, height: 800,
                     pdfSeparateFragments: false }});
</script>
</body>
</html>
"""


def main() -> None:
    for needed in (REVEAL / "dist" / "reveal.js", MATHJAX / "tex-chtml.js"):
        if not needed.exists():
            raise SystemExit(f"{needed} is missing: `make node_modules` installs reveal.js and MathJax")
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    shutil.copytree(REVEAL / "dist", OUT / "reveal" / "dist")
    shutil.copy2(REVEAL / "LICENSE", OUT / "reveal" / "LICENSE")
    (OUT / "mathjax").mkdir()
    for name in MATHJAX_FILES:
        shutil.copy2(MATHJAX / name, OUT / "mathjax" / name)
    for name in MATHJAX_FOLDERS:
        shutil.copytree(MATHJAX / name, OUT / "mathjax" / name)
    links = []
    for session, chapters in enumerate(PLANS["five"]["sessions"], start=1):
        name = f"session_{session}.html"
        (OUT / name).write_text(deck(session, chapters), encoding="utf-8")
        links.append(f'<li><a href="{name}">Session {session}</a>: chapters {", ".join(map(str, chapters))}</li>')
    (OUT / "index.html").write_text(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Slides</title></head><body>"
        "<h1>Slides for the five-session plan</h1><ul>" + "".join(links) + "</ul>"
        "<p>Add <code>?print-pdf</code> to a deck's address and print it to get a PDF.</p></body></html>",
        encoding="utf-8")
    print(f"{len(links)} decks in {OUT}")


if __name__ == "__main__":
    main()
