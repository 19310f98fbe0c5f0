"""The PDF stage: the printed book (``make pdf``, LaTeX builder only; the HTML book is untouched).

* Numbers: theorems, exercises and equations carry the HTML book's numbers ("Theorem 5.1"):
  sphinx-jupyterbook-latex counts sections into them when the toc has parts; reset to chapters.
* Sliders: a slider's static view (the ``perceptron-slider`` HTML that
  :class:`perceptron.widgets.SliderFigure` writes, with every frame inside) becomes a
  small-multiples strip of a few of its frames, each titled with its slider value, with a caption
  naming the slider and all the values the HTML book offers.
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

PDF_NAME = "perceptron.pdf"
STRIP_FRAMES = 4
_PAYLOAD = re.compile(r'<script type="application/json">(.*?)</script>', re.DOTALL)
_NAME = re.compile(r'aria-label="([^"]*)"')


def strip_positions(n: int, k: int = STRIP_FRAMES) -> list[int]:
    """``k`` slider positions spread evenly from the first to the last of ``n``."""
    if n <= k:
        return list(range(n))
    return sorted({round(i * (n - 1) / (k - 1)) for i in range(k)})


def slider_strip(raw_html: str) -> tuple[bytes, str, list[str], list[str]] | None:
    """(PNG of the strip, slider name, labels shown, all value labels) for a slider's static HTML, else None."""
    if 'class="perceptron-slider"' not in raw_html:
        return None
    payload = json.loads(html.unescape(_PAYLOAD.search(raw_html).group(1)))
    name = html.unescape(_NAME.search(raw_html).group(1))
    frames, labels = payload["frames"], payload["labels"]
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.image as mpimg
    import matplotlib.pyplot as plt

    picks = strip_positions(len(frames))
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
        for bundle in list(self.document.findall(nodes.container)):
            if bundle.get("nb_element") != "mime_bundle":
                continue
            html_part = [c for c in bundle.children if c.get("mime_type") == "text/html"]
            raw = "".join(r.astext() for c in html_part for r in c.findall(nodes.raw))
            strip = slider_strip(raw) if raw else None
            if strip is None:
                continue
            png, name, shown, labels = strip
            filename = f"slider-{hashlib.sha256(png).hexdigest()[:16]}.png"
            (outdir / filename).write_bytes(png)
            alt = f"Slider {name} at {', '.join(shown)}"
            # A caption as a plain paragraph: the HTML book numbers no figures, so neither does the PDF.
            figure = nodes.container("", nodes.image(uri=filename, alt=alt, width="100%", candidates={"*": filename}))
            figure += nodes.paragraph("", "", nodes.emphasis(
                "", f"The slider “{name}” at {len(shown)} of its {len(labels)} positions "
                    f"(the HTML book moves through all of them: {', '.join(labels)})."))
            bundle.replace_self(figure)


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


def no_xindy(app: Sphinx, config) -> None:
    config.latex_use_xindy = False  # makeindex ships with texlive-binaries; xindy is another package


def prepare_latex(app: Sphinx) -> None:
    if app.builder.format != "latex":
        return
    app.config.numfig_secnum_depth = 1
    Path(app.builder.outdir).mkdir(parents=True, exist_ok=True)
    (Path(app.builder.outdir) / "bbm.sty").write_text(BBM_STANDIN)


def add_pdf_download(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"].append({
                "type": "link", "url": context["pathto"](PDF_NAME, 1), "text": "book .pdf",
                "icon": "fas fa-book", "tooltip": "Download the whole book as one PDF",
                "label": "download-book-pdf-button",
            })


def register(app: Sphinx) -> None:
    app.connect("config-inited", no_xindy, priority=900)
    app.connect("builder-inited", prepare_latex, priority=900)
    app.connect("html-page-context", add_pdf_download, priority=600)
    from sphinx_exercise.nodes import depart_exercise_enumerable_node, exercise_enumerable_node

    app.add_node(exercise_enumerable_node, override=True, latex=(visit_exercise_latex, depart_exercise_enumerable_node))
    app.add_post_transform(SliderStrips)
    app.add_post_transform(SolutionsAtChapterEnd)
    app.add_post_transform(TaggedMathForLatex)
    app.add_post_transform(ChapterNumbersLikeHtml)
    app.add_post_transform(ExerciseNumbersForLatex)
