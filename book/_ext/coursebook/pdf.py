"""The PDF stage: the printed book (``make pdf``, LaTeX builder only; the HTML book is untouched).

* Numbers: theorems, exercises and equations carry the HTML book's numbers ("Theorem 5.1"):
  sphinx-jupyterbook-latex counts sections into them when the toc has parts; reset to chapters.
* Sliders: a slider's static view (the ``perceptron-slider`` HTML that
  :class:`perceptron.widgets.SliderFigure` writes, with every frame inside) becomes a
  small-multiples strip of a few of its frames, each titled with its slider value, with a caption
  naming the slider and all the values the HTML book offers. book/printed.yml names, per chapter,
  the frames a strip must print (those its prose quotes) and the phrases that speak to a reader
  who drags the slider, with what the PDF prints instead ("The strip below turns ...").
* Proofs: sphinx-proof writes a ``{prf:proof}`` as an admonition without a title, which LaTeX
  prints as an empty coloured title bar above "Proof."; here the bar says "Proof".
* Quick checks: each question stays where it is, numbered ("Quick check 6.2"), and its answer moves
  to a "Quick-check answers" section at the chapter's end, before the solutions: on paper there is no
  fold to keep an answer out of sight.
* Headings kept with their bodies: a theorem's, a proof's or a solution's title bar never ends a page
  with its text on the next (needspace.sty before every such box: nine lines or a new page).
* Proof index: the numbered blocks ("Theorem 5.1 Novikoff's mistake bound") with their pages, by
  chapter in the book's order, instead of sphinx-proof's list of internal labels.
* Paper: US Letter, or A4 with ``PAPER=a4`` (``make pdf PAPER=a4``).
* Solutions: collected under a "Solutions" section at the end of each chapter instead of
  interleaved with the exercises (each still titled "Solution to Exercise N.k").
* The HTML book gets a "book .pdf" entry in every page's download menu (``make pdf`` copies the
  PDF next to index.html; the Pages workflow publishes it).
"""

from __future__ import annotations

import base64
import hashlib
import html
import io
import json
import re
from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

logger = logging.getLogger(__name__)

PDF_NAME = "perceptron.pdf"
STRIP_FRAMES = 4
_PAYLOAD = re.compile(r'<script type="application/json">(.*?)</script>', re.DOTALL)
_NAME = re.compile(r'aria-label="([^"]*)"')


PAPERS = {"letter": "letterpaper", "a4": "a4paper"}
QUICK_CHECKS = "Quick checks"
QUICK_CHECK_ANSWERS = "Quick-check answers"
# Before every admonition box (a theorem, a proof, an exercise, a solution): a box that would start with
# fewer than nine lines left on the page starts on the next one. framed.sty splits a box where it must,
# and with less room than a title row, a line and a displayed formula it split right after the title.
# A heading asks for more room than a box does, so that the box under it never needs a new page of its own
# (which would leave the heading behind at the foot of the page).
NEEDSPACE = r"\Needspace*{9\baselineskip}"
KEEP_WITH_BODY = r"""\usepackage{needspace}
\AddToHook{env/sphinxadmonition/before}{\Needspace*{9\baselineskip}}
\AddToHook{cmd/section/before}{\Needspace*{16\baselineskip}}
\AddToHook{cmd/subsection/before}{\Needspace*{16\baselineskip}}
\AddToHook{cmd/subsubsection/before}{\Needspace*{16\baselineskip}}
"""

PRINTED = Path(__file__).resolve().parents[2] / "printed.yml"


def strip_positions(n: int, k: int = STRIP_FRAMES, required: tuple[int, ...] = ()) -> list[int]:
    """``k`` of ``n`` slider positions: the ``required`` ones, then the rest spread evenly from the
    first to the last, each new one as far as possible from those already chosen.

    >>> strip_positions(11)
    [0, 3, 7, 10]
    >>> strip_positions(11, required=(3, 4))
    [0, 3, 4, 10]
    """
    bad = [i for i in required if not 0 <= i < n]
    if bad or len(set(required)) > max(k, 1):
        raise ValueError(f"required strip positions {list(required)} do not fit {k} frames of {n}")
    if n <= k:
        return list(range(n))
    chosen = set(required)
    even = sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})
    if not chosen:
        return even
    while len(chosen) < k:
        chosen.add(max((i for i in range(n) if i not in chosen),
                       key=lambda i: (min(abs(i - j) for j in chosen), i in even, -i)))
    return sorted(chosen)


def _and(items: list[str]) -> str:
    return ", ".join(items[:-1]) + f" and {items[-1]}" if len(items) > 1 else "".join(items)


def printed(docname: str) -> dict:
    """The chapter's entry of book/printed.yml: ``strips`` and ``prose``, each maybe empty."""
    import yaml

    entry = (yaml.safe_load(PRINTED.read_text(encoding="utf-8")) or {}).get(docname) or {}
    unknown = set(entry) - {"strips", "prose"}
    if unknown:
        raise ValueError(f"{PRINTED.name}: {docname} has unknown keys {sorted(unknown)}")
    return {"strips": entry.get("strips") or {}, "prose": entry.get("prose") or {}}


def slider_strip(raw_html: str, wanted: dict[str, list[str]] | None = None
                 ) -> tuple[bytes, str, list[str], list[str]] | None:
    """(PNG of the strip, slider name, labels shown, all value labels) for a slider's static HTML, else
    None. ``wanted`` maps slider names to labels the strip must show (book/printed.yml)."""
    if 'class="perceptron-slider"' not in raw_html:
        return None
    payload = json.loads(html.unescape(_PAYLOAD.search(raw_html).group(1)))
    name = html.unescape(_NAME.search(raw_html).group(1))
    frames, labels = payload["frames"], payload["labels"]
    must = [str(label) for label in (wanted or {}).get(name, [])]
    missing = [label for label in must if label not in labels]
    if missing:
        raise ValueError(f"slider {name!r} has no position {missing} (its positions: {labels})")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import matplotlib.pyplot as plt

    picks = strip_positions(len(frames), required=tuple(labels.index(label) for label in must))
    images = [mpimg.imread(io.BytesIO(base64.b64decode(frames[i].split(",", 1)[1])), format="png") for i in picks]
    h, w = images[0].shape[:2]
    ncols = 1 if w / h > 1.6 else 2
    nrows = -(-len(picks) // ncols)
    width = 6.3
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, width / ncols * h / w * nrows * 1.1), squeeze=False)
    for ax in axes.flat:
        ax.axis("off")
    for ax, image, i in zip(axes.flat, images, picks):
        ax.imshow(image, interpolation="antialiased")
        ax.set_title(f"{name} = {labels[i]}", fontsize=9)
    fig.tight_layout(pad=0.3)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=150, metadata={"Software": None})
    plt.close(fig)
    return buf.getvalue(), name, [labels[i] for i in picks], labels


class SliderStrips(SphinxPostTransform):
    """Replace each slider's mime bundle by a figure of a few of its frames (before myst-nb picks a mime type)."""

    default_priority = 3
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        outdir = Path(self.app.builder.outdir)
        bundles: list[tuple[str, nodes.Element]] = []
        _by_chapter(self.document, "", lambda doc, node: isinstance(node, nodes.container)
                    and node.get("nb_element") == "mime_bundle", bundles)
        for docname, bundle in bundles:
            html_part = [c for c in bundle.children if c.get("mime_type") == "text/html"]
            raw = "".join(r.astext() for c in html_part for r in c.findall(nodes.raw))
            try:
                strip = slider_strip(raw, printed(docname)["strips"]) if raw else None
            except ValueError as error:
                logger.warning(f"{docname}: {error}", location=bundle)
                continue
            if strip is None:
                continue
            png, name, shown, labels = strip
            filename = f"slider-{hashlib.sha256(png).hexdigest()[:16]}.png"
            (outdir / filename).write_bytes(png)
            alt = f"Slider {name} at {', '.join(shown)}"
            # A caption as a plain paragraph: the HTML book numbers no figures, so neither does the PDF.
            figure = nodes.container("", nodes.image(uri=filename, alt=alt, width="100%", candidates={"*": filename}))
            figure += nodes.paragraph("", "", nodes.emphasis(
                "", f"The slider “{name}” at {len(shown)} of its {len(labels)} positions, {_and(shown)} "
                    f"(the HTML book moves through all of them: {', '.join(labels)})."))
            bundle.replace_self(figure)


class PrintedProse(SphinxPostTransform):
    """Each chapter's phrases of book/printed.yml ("Drag the slider ...") replaced by their printed form."""

    default_priority = 4
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for chapter_file in list(self.document.findall(addnodes.start_of_file)):
            docname = chapter_file["docname"]
            phrases = printed(docname)["prose"]
            if not phrases:
                continue
            found = {phrase: 0 for phrase in phrases}
            # A line break of the source stays in the text: match the phrase's words across any whitespace.
            patterns = {phrase: re.compile(r"\s+".join(map(re.escape, phrase.split()))) for phrase in phrases}
            runs: list[tuple[nodes.Element, int, int]] = []
            _text_runs(chapter_file, runs)
            for parent, start, stop in reversed(runs):  # later runs first: earlier indices stay valid
                # A source line break splits a paragraph's text into several Text nodes: join each run.
                old = "".join(str(t) for t in parent.children[start:stop])
                new = old
                for phrase, replacement in phrases.items():
                    new, count = patterns[phrase].subn(lambda _, r=replacement: " ".join(r.split()), new)
                    found[phrase] += count
                if new != old:
                    text = nodes.Text(new)
                    text.parent = parent
                    parent.children[start:stop] = [text]
            for phrase in [p for p, count in found.items() if not count]:
                logger.warning(f"{PRINTED.name}: {docname} no longer says {phrase!r} (in plain text)",
                               location=docname)


class ProofTitles(SphinxPostTransform):
    """A ``{prf:proof}`` titled "Proof" (its bar), its text without the leading "Proof. ".

    sphinx-proof gives the proof's admonition no title and starts its text with "Proof. "; Sphinx's
    LaTeX writer then takes the first token of the body as the (empty) title of the box."""

    default_priority = 4
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        from sphinx_proof.nodes import proof_node

        for proof in list(self.document.findall(proof_node)):
            for box in proof.children:
                if not isinstance(box, nodes.admonition) or isinstance(box.children[0], nodes.title):
                    continue
                first = next(iter(box.findall(nodes.Text)), None)
                if first is not None and str(first).startswith("Proof. "):
                    parent = first.parent
                    parent.children[parent.children.index(first)] = nodes.Text(str(first)[len("Proof. "):])
                box.insert(0, nodes.title("", "Proof"))


class QuickCheckAnswersAtChapterEnd(SphinxPostTransform):
    """The answers of a chapter's quick checks (the dropdown admonitions of its "Quick checks" section)
    moved to a "Quick-check answers" section at the chapter's end; each question stays in place,
    numbered "Quick check N.k", its answer under the same number at the end."""

    default_priority = 4  # before SolutionsAtChapterEnd: the answers come before the solutions
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for chapter_file in list(self.document.findall(addnodes.start_of_file)):
            number = self.env.toc_secnumbers.get(chapter_file["docname"], {}).get("")
            chapter = next((c for c in chapter_file.children if isinstance(c, nodes.section)), None)
            if not number or chapter is None:
                continue
            checks = [s for s in chapter.findall(nodes.section)
                      if s.children and isinstance(s[0], nodes.title) and s[0].astext() == QUICK_CHECKS]
            boxes = [(section, box) for section in checks for box in list(section.children)
                     if isinstance(box, nodes.admonition) and "dropdown" in box.get("classes", [])
                     and isinstance(box.children[0], nodes.title)]
            if not boxes:
                continue
            answers = nodes.section(ids=[f"quick-check-answers-{chapter_file['docname'].replace('/', '-')}"])
            answers += nodes.title("", QUICK_CHECK_ANSWERS)
            for k, (section, box) in enumerate(boxes, start=1):
                name = f"Quick check {number[0]}.{k}"
                question = box.children[0]
                asked = nodes.paragraph("", "", nodes.strong("", f"{name}. "), *question.children,
                                        nodes.emphasis("", " (Answer at the end of the chapter.)"))
                section.replace(box, asked)
                answer = nodes.container("", nodes.paragraph("", "", nodes.strong("", f"{name}. "),
                                                             *[c.deepcopy() for c in question.children]))
                answer.extend(box.children[1:])
                answers += answer
            chapter += answers


class SolutionsAtChapterEnd(SphinxPostTransform):
    """Move every solution of a chapter into a "Solutions" section at the chapter's end."""

    default_priority = 5
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        from sphinx_exercise.nodes import solution_node

        for chapter_file in list(self.document.findall(addnodes.start_of_file)):
            found: list[tuple[nodes.Element, nodes.Element]] = []
            _own_solutions(chapter_file, solution_node, found)
            chapter = next((c for c in chapter_file.children if isinstance(c, nodes.section)), None)
            if not found or chapter is None:
                continue
            section = nodes.section(ids=[f"solutions-{chapter_file['docname'].replace('/', '-')}"])
            section += nodes.title("", "Solutions")
            for parent, solution in found:
                parent.remove(solution)
                section += solution
            chapter += section


class TaggedMathForLatex(SphinxPostTransform):
    """Display math with its own ``\\tag{...}``: MathJax accepts it, LaTeX not inside the
    ``split`` environment Sphinx wraps display math in; such a block is written in an
    environment that takes tags (``equation*``, or ``gather*``/``align*`` for several lines)."""

    default_priority = 5
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for block in list(self.document.findall(nodes.math_block)):
            tex = block.astext()
            if "\\tag{" not in tex or block.get("nowrap"):
                continue
            env = "equation*" if "\\\\" not in tex else ("align*" if "&" in tex else "gather*")
            block.children = []
            block += nodes.Text(f"\\begin{{{env}}}\n{tex.strip()}\n\\end{{{env}}}")
            block["nowrap"] = True


class ExerciseNumbersForLatex(SphinxPostTransform):
    """A ``{numref}`` to an exercise in another chapter: Sphinx writes ``\\ref{doc:label}``, a
    label sphinx-exercise never defines (it writes ``exercise:label``), so LaTeX prints "??". The
    number is already known (the node's text, as in HTML): link to sphinx-exercise's label with it."""

    default_priority = 30
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        from sphinx_exercise.nodes import exercise_enumerable_node, exercise_latex_number_reference

        registry = getattr(self.env, "sphinx_exercise_registry", {})
        for ref in list(self.document.findall(addnodes.number_reference)):
            label = ref.get("refuri", "").rpartition("#")[2] or ref.get("refid", "")
            target = registry.get(label, {}).get("node")
            if isinstance(target, exercise_enumerable_node):
                ref.replace_self(exercise_latex_number_reference("", ref.astext(), refid=label))


class ChapterNumbersLikeHtml(SphinxPostTransform):
    """Number in LaTeX exactly the chapters the HTML book numbers (the toc's numbered part), with
    the same numbers; the front and back matter (notation, instructors' notes, references) stay
    unnumbered, as in HTML. Sections, equations and figures follow their chapter's number."""

    default_priority = 5
    formats = ("latex",)

    def run(self, **kwargs) -> None:
        for chapter_file in list(self.document.findall(addnodes.start_of_file)):
            number = self.env.toc_secnumbers.get(chapter_file["docname"], {}).get("")
            if number:
                tex = "\\setcounter{secnumdepth}{2}\\setcounter{chapter}{" + str(number[0] - 1) + "}\n"
            else:
                tex = "\\setcounter{secnumdepth}{-1}\n"
            chapter_file.insert(0, nodes.raw("", tex, format="latex"))


def _by_chapter(node: nodes.Element, docname: str, wanted, found: list) -> None:
    """(chapter docname, node) for every node under ``node`` that ``wanted(docname, node)`` accepts;
    the latex builder's document is the whole book, a chapter being a ``start_of_file``."""
    for child in node.children:
        if not isinstance(child, nodes.Element):
            continue
        inner = child["docname"] if isinstance(child, addnodes.start_of_file) else docname
        if wanted(inner, child):
            found.append((inner, child))
        else:
            _by_chapter(child, inner, wanted, found)


def _text_runs(node: nodes.Element, found: list) -> None:
    """(parent, start, stop) for each run of consecutive Text children in a chapter's prose (not in
    code, formulas or a nested chapter), innermost first so that replacing one leaves the others valid."""
    start = None
    for i, child in enumerate([*node.children, None]):
        if isinstance(child, nodes.Text):
            start = i if start is None else start
            continue
        if start is not None:
            found.append((node, start, i))
            start = None
        if child is None or isinstance(child, (nodes.literal_block, nodes.literal, nodes.math, nodes.math_block,
                                               nodes.raw, addnodes.start_of_file)):
            continue
        if isinstance(child, nodes.Element):
            _text_runs(child, found)


def _own_solutions(node: nodes.Element, kind: type, found: list) -> None:
    """(parent, solution) pairs under ``node`` that are not inside a nested document.

    A walk that carries the parent along: after sphinx-exercise and jupyterbook-latex rewrite
    the tree, a node's ``.parent`` pointer cannot be trusted.
    """
    for child in node.children:
        if isinstance(child, kind):
            found.append((node, child))
        elif isinstance(child, nodes.Element) and not isinstance(child, addnodes.start_of_file):
            _own_solutions(child, kind, found)


# jupyterBook.cls loads bbm.sty (blackboard bold, only for shorthands such as \RR that the book
# never uses), which Debian ships in the 1.4 GB texlive-fonts-extra: a two-line stand-in instead.
BBM_STANDIN = r"""\ProvidesPackage{bbm}[2026/01/01 stand-in: blackboard bold from amssymb]
\RequirePackage{amssymb}
\providecommand{\mathbbm}[1]{\mathbb{#1}}
"""


def visit_exercise_latex(self, node) -> None:
    """sphinx-exercise's LaTeX label (``exercise:label``) plus Sphinx's (``doc:label``), which
    ``{ref}`` links and the solutions' titles point to."""
    from sphinx_exercise.nodes import visit_exercise_enumerable_node

    docname = self.builder.env.sphinx_exercise_registry[node["label"]]["docname"]
    self.body.append(r"\phantomsection\label{" + self.idescape(f"{docname}:{node['label']}") + "}")
    visit_exercise_enumerable_node(self, node)


def label_on_the_box_page(visit):
    """sphinx-proof's LaTeX visitor, preceded by the box's page check: it writes a block's
    ``\\label`` just before the box, and the box's own ``\\Needspace`` (KEEP_WITH_BODY) could then
    move the box to the next page without its label, so the proof index would name the page before."""

    def visit_with_needspace(self, node) -> None:
        self.body.append("\n" + NEEDSPACE)
        visit(self, node)

    return visit_with_needspace


def no_xindy(app: Sphinx, config) -> None:
    config.latex_use_xindy = False  # makeindex ships with texlive-binaries; xindy is another package


def paper(app: Sphinx, config) -> None:
    """The PDF's paper from ``PAPER`` in the environment (``make pdf PAPER=a4``): letter (default) or a4."""
    import os

    name = os.environ.get("PAPER", "letter").strip().lower() or "letter"
    if name not in PAPERS:
        raise ValueError(f"PAPER={name!r}: the PDF is typeset on {' or '.join(PAPERS)} paper")
    config.latex_elements = {**(config.latex_elements or {}), "papersize": PAPERS[name]}


def keep_titles_with_bodies(app: Sphinx, config) -> None:
    """The LaTeX preamble's part that keeps a box's title with its body (``KEEP_WITH_BODY``)."""
    elements = dict(config.latex_elements or {})
    if KEEP_WITH_BODY not in elements.get("preamble", ""):
        elements["preamble"] = elements.get("preamble", "") + KEEP_WITH_BODY
    config.latex_elements = elements


def prepare_latex(app: Sphinx) -> None:
    if app.builder.format != "latex":
        return
    app.config.numfig_secnum_depth = 1
    Path(app.builder.outdir).mkdir(parents=True, exist_ok=True)
    (Path(app.builder.outdir) / "bbm.sty").write_text(BBM_STANDIN)
    if "prf" in app.env.domains:  # the PDF's proof index: numbered blocks and pages (numbered_proof_index)
        app.env.domains["prf"].indices = [numbered_proof_index()]


def add_pdf_download(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"].append({
                "type": "link", "url": context["pathto"](PDF_NAME, 1), "text": "book .pdf",
                "icon": "fas fa-book", "tooltip": "Download the whole book as one PDF",
                "label": "download-book-pdf-button",
            })


def numbered_proof_index():
    """sphinx-proof's index, for LaTeX: "Theorem 5.1 Novikoff's mistake bound" and its page, grouped by
    chapter in the book's order, where sphinx-proof lists internal labels in alphabetical order."""
    from sphinx_proof.domain import ProofIndex

    class NumberedProofIndex(ProofIndex):
        def generate(self, docnames=None):
            env = self.domain.env
            groups: dict[tuple, list] = {}
            titles: dict[str, dict[str, str]] = {}
            for label, values in getattr(env, "proof_list", {}).items():
                docname, kind = values["docname"], values.get("countertype") or values["realtype"]
                chapter = env.toc_secnumbers.get(docname, {}).get("")
                number = env.toc_fignumbers.get(docname, {}).get(kind, {}).get(values["ids"][0])
                if not chapter or not number or values.get("nonumber"):
                    continue
                if docname not in titles:
                    titles[docname] = _block_titles(env.get_doctree(docname))
                name = f"{values['realtype'].title()} {'.'.join(map(str, number))}"
                title = titles[docname].get(values["ids"][0], "")
                entry = (f"{name} {title}".strip(), 0, docname, label, "", "", "")
                groups.setdefault(tuple(chapter), []).append((tuple(number), entry))
            content = [(f"Chapter {'.'.join(map(str, chapter))}", [e for _, e in sorted(entries)])
                       for chapter, entries in sorted(groups.items())]
            return content, False

    return NumberedProofIndex


def _block_titles(doctree: nodes.document) -> dict[str, str]:
    """The title a numbered block was given in its source ("(Novikoff's mistake bound)"), by node id."""
    from sphinx_proof.nodes import NODE_TYPES

    found = {}
    for node in doctree.findall(lambda n: isinstance(n, tuple(NODE_TYPES.values()))):
        first = node.children[0] if node.children else None
        title = first.astext() if isinstance(first, nodes.title) else node.get("title", "")
        for i in node.get("ids", []):
            found[i] = title.strip()
    return found


def register(app: Sphinx) -> None:
    app.connect("config-inited", no_xindy, priority=900)
    app.connect("config-inited", paper, priority=900)
    app.connect("config-inited", keep_titles_with_bodies, priority=900)
    app.connect("builder-inited", prepare_latex, priority=900)
    app.connect("html-page-context", add_pdf_download, priority=600)
    from sphinx_exercise.nodes import depart_exercise_enumerable_node, exercise_enumerable_node

    app.add_node(exercise_enumerable_node, override=True, latex=(visit_exercise_latex, depart_exercise_enumerable_node))
    from sphinx_proof import nodes as proof

    for node in proof.NODE_TYPES.values():
        app.add_node(node, override=True,
                     latex=(label_on_the_box_page(proof.visit_enumerable_node), proof.depart_enumerable_node))
    app.add_node(proof.unenumerable_node, override=True,
                 latex=(label_on_the_box_page(proof.visit_unenumerable_node), proof.depart_unenumerable_node))
    app.add_post_transform(SliderStrips)
    app.add_post_transform(PrintedProse)
    app.add_post_transform(ProofTitles)
    app.add_post_transform(QuickCheckAnswersAtChapterEnd)
    app.add_post_transform(SolutionsAtChapterEnd)
    app.add_post_transform(TaggedMathForLatex)
    app.add_post_transform(ChapterNumbersLikeHtml)
    app.add_post_transform(ExerciseNumbersForLatex)
