"""The notebook stage: Jupyter-native copies of the chapters in _build/jupyter, for places without MyST.

Colab, a JupyterHub and the notebook download button open these instead of the MyST sources. After
the HTML build, every chapter notebook is copied to ``_build/jupyter/<same path>.ipynb`` with its
outputs, and each Markdown cell is rewritten to plain Jupyter Markdown from the build's own data,
so the numbers are the book's:

- ``{prf:theorem}``, ``{prf:lemma}``, ... and ``{exercise}`` blocks become a bold heading with the
  book's number ("**Lemma 2.1** (title)") and an HTML anchor; ``{prf:proof}`` starts with *Proof.*;
  ``{solution}`` is folded in ``<details><summary>``; ``{literalinclude}`` becomes a code block;
- ``{prf:ref}``, ``{ref}``, ``{doc}`` become links to that page of the published book;
- ``{cite}`` becomes (Author, year) text, ``{cite:t}`` Author (year), with the entries listed under
  "References" at the end of the notebook.

Why not a converter package: sphinx-tojupyter (the maintained Sphinx-to-notebook builder) rebuilds
notebooks from the doctree, which drops the committed outputs (it would re-execute everything through
dask), points cross-references at local .ipynb files rather than the published book and has no folded
solutions; jupytext changes the file format but leaves MyST markup as it is. Both need the numbers
the book assigns, which only this Sphinx build knows. See tests/book/test_jupyter_notebooks.py.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.util import logging

from . import myst, setup_cell, solutions
from .content import GATES, source, walk

logger = logging.getLogger(__name__)

ADMONITIONS = {"note", "tip", "important", "warning", "caution", "attention", "hint", "seealso"}


def book_url(app: Sphinx) -> str:
    """The published book's address: html_baseurl if set, else GitHub Pages of repository.url."""
    if app.config.html_baseurl:
        return app.config.html_baseurl.rstrip("/") + "/"
    repo = (app.config.html_theme_options or {}).get("repository_url", "")
    match = re.match(r"https://github\.com/([^/]+)/([^/]+?)(?:\.git)?/?$", repo)
    if not match:
        raise ValueError(f"cannot derive the book's address from repository.url {repo!r}; set html.baseurl")
    return f"https://{match[1]}.github.io/{match[2]}/"


class Converter:
    """Rewrites the Markdown of one chapter (``docname``) using the build environment."""

    def __init__(self, app: Sphinx, docname: str, base: str):
        self.app, self.env, self.docname, self.base = app, app.env, docname, base
        self.cited: list[str] = []
        self.bib = bibliography(app)

    # -- numbers and targets -------------------------------------------------------------------
    def number(self, docname: str, countertype: str, label: str) -> str:
        numbers = self.env.toc_fignumbers.get(docname, {}).get(countertype, {}).get(label)
        if not numbers:
            raise ValueError(f"{self.docname}: no number for {countertype} {label!r}")
        return ".".join(map(str, numbers))

    def proof_heading(self, label: str) -> str:
        entry = self.env.proof_list[label]
        kind = entry["realtype"].title()
        if entry.get("nonumber"):
            return kind
        return f"{kind} {self.number(entry['docname'], entry['countertype'], label)}"

    def exercise_heading(self, label: str) -> str:
        entry = self.env.sphinx_exercise_registry[label]
        return self.app.config.numfig_format["exercise"] % self.number(entry["docname"], "exercise", label)

    def page(self, docname: str, anchor: str = "") -> str:
        return f"{self.base}{docname}.html" + (f"#{anchor}" if anchor else "")

    def resolve_doc(self, target: str) -> str:
        if target.startswith("/"):
            return target.lstrip("/")
        folder = self.docname.rsplit("/", 1)[0] if "/" in self.docname else ""
        parts = (folder.split("/") if folder else []) + target.split("/")
        out: list[str] = []
        for part in parts:
            if part == "..":
                out.pop()
            elif part not in ("", "."):
                out.append(part)
        return "/".join(out)

    # -- roles ---------------------------------------------------------------------------------
    def role(self, found: myst.Role) -> str:
        role, body, text, target = found.name, found.content, found.text, found.target
        if role == "doc":
            doc = self.resolve_doc(target)
            if doc not in self.env.titles:
                raise ValueError(f"{self.docname}: {{doc}} target {target!r} is not a page of the book")
            return f"[{text or self.env.titles[doc].astext()}]({self.page(doc)})"
        if role == "prf:ref":
            entry = self.env.proof_list.get(target)
            if entry is None:
                raise ValueError(f"{self.docname}: unknown {{prf:ref}} label {target!r}")
            return f"[{text or self.proof_heading(target)}]({self.page(entry['docname'], target)})"
        if role in ("ref", "numref"):
            registry = getattr(self.env, "sphinx_exercise_registry", {})
            if target in registry:
                entry = registry[target]
                return f"[{text or self.exercise_heading(target)}]({self.page(entry['docname'], target)})"
            if target in self.env.proof_list:
                entry = self.env.proof_list[target]
                return f"[{text or self.proof_heading(target)}]({self.page(entry['docname'], target)})"
            labels = self.env.domaindata["std"]["labels"]
            if target not in labels:
                raise ValueError(f"{self.docname}: unknown {{ref}} label {target!r}")
            docname, anchor, title = labels[target]
            return f"[{text or title}]({self.page(docname, anchor)})"
        if role.startswith("cite"):
            keys = [k.strip() for k in target.split(",")]
            for key in keys:
                if key not in self.bib:
                    raise ValueError(f"{self.docname}: unknown citation key {key!r}")
                if key not in self.cited:
                    self.cited.append(key)
            if role in ("cite:t", "cite:ts"):
                return "; ".join(f"[{self.bib[k]['authors']} ({self.bib[k]['year']})](#cite-{k})" for k in keys)
            return "(" + "; ".join(f"[{self.bib[k]['authors']}, {self.bib[k]['year']}](#cite-{k})" for k in keys) + ")"
        if role in ("math", "eq"):
            return f"${body}$" if role == "math" else f"({body})"
        raise ValueError(f"{self.docname}: MyST role {{{role}}} has no Jupyter rendering")

    def inline(self, text: str) -> str:
        """Prose: each ``(label)=`` target as an HTML anchor, each role as Markdown."""
        lines = text.split("\n")
        for line, label in myst.targets(text):
            lines[line] = f'<a id="{label}"></a>'
        return myst.replace_roles("\n".join(lines), self.role)

    # -- directives ----------------------------------------------------------------------------
    def directive(self, block: myst.Block) -> str:
        name, arg, options, body = block.name, block.argument, block.options, block.body
        label = block.label
        anchor = f'<a id="{label}"></a>\n\n' if label else ""
        content = self.markdown(body).strip("\n")
        title = f" ({self.inline(arg)})." if arg else ""
        if name == "prf:proof":
            opening = "*Proof.* " if content[:1].isalpha() else "*Proof.*\n\n"
            closing = " ∎" if content.rstrip()[-1:].isalnum() or content.rstrip()[-1:] in ".)" else "\n\n∎"
            return f"{anchor}{opening}{content}{closing}"
        if name.startswith("prf:"):
            heading = self.proof_heading(label) if label else name[4:].title()
            return f"{anchor}**{heading}{title or '.'}**\n\n{content}"
        if name == "exercise":
            heading = self.exercise_heading(label) if label else "Exercise"
            return f"{anchor}**{heading}{title or '.'}**\n\n{content}"
        if name == "solution":
            target = arg.strip()
            heading = self.exercise_heading(target) if target in self.env.sphinx_exercise_registry else target
            return (f"{anchor}<details>\n<summary>Solution to {heading}</summary>\n\n{content}\n\n</details>")
        if name in GATES:
            # A gated solution spans cells (executed code between solution-start and solution-end);
            # <details> cannot span cells, so the gates are resolved cell by cell in ``fold``.
            raise ValueError(f"{self.docname}: a {{{name}}} inside another block")
        if name == "literalinclude":
            return self.literalinclude(arg, options)
        if name in ADMONITIONS or name == "admonition":
            head = self.inline(arg if name == "admonition" else name.title())
            if "dropdown" in block.classes:   # folded, as in the book (a quick check and its answer)
                return f"{anchor}<details>\n<summary>{head}</summary>\n\n{content}\n\n</details>"
            return f"**{head}.** {content}"
        raise ValueError(f"{self.docname}: MyST directive {{{name}}} has no Jupyter rendering")

    def literalinclude(self, arg: str, options: dict[str, str]) -> str:
        source = Path(self.env.doc2path(self.docname)).parent / arg.strip()
        code = source.read_text(encoding="utf-8")
        if "pyobject" in options:
            tree = ast.parse(code)
            node = next(n for n in ast.walk(tree) if getattr(n, "name", None) == options["pyobject"])
            start = node.decorator_list[0].lineno if getattr(node, "decorator_list", None) else node.lineno
            code = "\n".join(code.splitlines()[start - 1:node.end_lineno])
        return f"```{options.get('language', '')}\n{code.rstrip()}\n```"

    def gated(self, text: str) -> tuple[list[str], list[tuple[str, str]]]:
        """A Markdown cell cut at its solution gates: the converted text around them (``len(gates) + 1``
        pieces, the newlines and a gate's anchor kept as :meth:`markdown` joins them) and each gate
        as (name, heading)."""
        lines = text.split("\n")
        pieces, marks, pos, tail = [], [], 0, ""
        for block in myst.blocks(text):
            if block.name not in GATES:
                continue
            anchor = f'<a id="{block.label}"></a>\n\n' if block.label and block.name == "solution-start" else ""
            pieces.append(tail + self.markdown("\n".join(lines[pos:block.start])) + "\n" + anchor)
            target = block.argument.strip()
            registry = self.env.sphinx_exercise_registry
            marks.append((block.name, self.exercise_heading(target) if target in registry else target))
            pos, tail = block.end, "\n"
        pieces.append(tail + self.markdown("\n".join(lines[pos:])))
        return pieces, marks

    def markdown(self, text: str) -> str:
        """A chapter's Markdown as plain Jupyter Markdown: blocks rendered, roles resolved."""
        return myst.replace_blocks(text, self.directive, self.inline)

    def references_cell(self) -> str | None:
        if not self.cited:
            return None
        entries = "\n".join(f'- <a id="cite-{k}"></a>{self.bib[k]["entry"]}' for k in self.cited)
        return f"## References\n\n{entries}\n"


_BIB_CACHE: dict[str, dict] = {}


def bibliography(app: Sphinx) -> dict[str, dict]:
    """Author-year labels and formatted entries of every key in the project's .bib files."""
    if "entries" in _BIB_CACHE:
        return _BIB_CACHE["entries"]
    from pybtex.database import parse_file
    from pybtex.plugin import find_plugin

    style = find_plugin("pybtex.style.formatting", "plain")()
    backend = find_plugin("pybtex.backends", "markdown")()
    out = {}
    for name in app.config.bibtex_bibfiles:
        data = parse_file(str(Path(app.srcdir) / name))
        formatted = {e.key: e.text.render(backend) for e in style.format_entries(data.entries.values())}
        for key, entry in data.entries.items():
            people = entry.persons.get("author") or entry.persons.get("editor") or []
            last = [" ".join(p.last_names).replace("{", "").replace("}", "") for p in people]
            if len(last) > 2:
                authors = f"{last[0]} et al."
            elif last:
                authors = " and ".join(last)
            else:
                authors = entry.fields.get("organization", entry.fields.get("title", key))
            out[key] = {"authors": authors, "year": entry.fields.get("year", "n.d."),
                        "entry": " ".join(formatted[key].replace("\\", "").split())}
    _BIB_CACHE["entries"] = out
    return out


FOLDED = {"source_hidden": True, "outputs_hidden": True}


def details(summary: str, body: str) -> str:
    return f"<details>\n<summary>{summary}</summary>\n\n{body}\n\n</details>"


def fold(cell: dict, pieces: list[str], marks: list[tuple[str, str]], inside: bool) -> str:
    """A Markdown cell's text with its gated-solution marks resolved (``pieces`` and ``marks`` from
    :meth:`Converter.gated`; ``inside``: a solution is open before the cell). The text after a
    solution-start is folded in ``<details>`` (one per solution, as ``{solution}`` gets); a Markdown
    cell wholly inside an open solution is collapsed in JupyterLab (``jupyter.source_hidden``), as the
    code cells between the marks are."""
    if inside and not marks:
        cell["metadata"].setdefault("jupyter", {}).update(source_hidden=True)
        return pieces[0]
    out, k = [], 0
    while True:
        mark = marks[k][0] if k < len(marks) else None
        if not inside and mark == "solution-start":
            out.append(pieces[k])
            closed = k + 1 < len(marks) and marks[k + 1][0] == "solution-end"
            out.append(details(f"Solution to {marks[k][1]}", pieces[k + 1].strip("\n")))
            if not closed:
                out.append(f"\n\n{FOLDED_NOTE}")
                return "".join(out).strip("\n")
            k += 2
        elif inside and mark == "solution-end":
            body = pieces[k].strip("\n")
            if body:  # the solution's last words, in the cell that closes it
                out.append(details("Solution, continued", body) + "\n\n")
            inside, k = False, k + 1
        elif mark is None:
            out.append(pieces[k])
            break
        else:
            raise ValueError(f"cell {cell.get('id')}: a {{{mark}}} where a solution is {'open' if inside else 'closed'}")
    return "".join(out).strip("\n") or "*End of solution.*"


FOLDED_NOTE = "*The cells down to the end of this solution are folded; expand them to see it.*"


def colab_form(cell: dict, title: str) -> None:
    """A code cell folded in Colab: a form cell (``cellView: form``) whose first line, the ``#@title``
    line ``title``, Colab shows in place of the code (its outputs stay shown)."""
    cell["source"] = f"{title}\n{source(cell)}"
    cell["metadata"]["cellView"] = "form"


def form_cell(cell: dict, heading: str) -> None:
    """A solution's code cell folded in Colab (:func:`colab_form`) and in JupyterLab
    (``jupyter.source_hidden``).

    Its stored outputs are dropped: Colab hides a form cell's code but shows its output, so a
    solution's printed numbers and figures would sit in plain view under the exercise. The student
    runs the cell to see them."""
    colab_form(cell, f"#@title Solution to {heading}")
    cell["metadata"].setdefault("jupyter", {}).update(FOLDED)
    cell["outputs"], cell["execution_count"] = [], None


CHECK_TITLE = "#@title Check of the claim above (holds for the book's settings)"


def check_form(cell: dict) -> None:
    """A check cell (tag ``check``, folded in the book) folded in Colab as a form cell titled
    ``CHECK_TITLE``. JupyterLab keeps it open, as with the MyST sources: a collapsed input keeps its
    "[ ]" prompt after Run All, which reads as "not run" (tests/content/test_check_cells.py)."""
    colab_form(cell, CHECK_TITLE)


def description_cell(cell: dict) -> dict | None:
    """A Markdown cell under a figure with its description (``mystnb.image.alt``, after its caption if
    it has one): Jupyter and Colab show an image output without the alt text the HTML book gives it."""
    mystnb = cell["metadata"].get("mystnb", {})
    alt = (mystnb.get("image") or {}).get("alt", "").strip()
    if not alt or not any("image/png" in o.get("data", {}) for o in cell.get("outputs", [])):
        return None
    caption = (mystnb.get("figure") or {}).get("caption", "").strip()
    text = (f"{caption}\n\n" if caption else "") + f"*Figure description:* {alt}"
    return {"cell_type": "markdown", "id": f"{cell.get('id', 'figure')}-description"[:64],
            "metadata": {"perceptron_book": {"describes": cell.get("id")}}, "source": text}


_SLIDER_PAYLOAD = re.compile(r'<script type="application/json">(.*?)</script>', re.DOTALL)
RUN_TO_MOVE = "Run the cell to move the slider"


def slider_placeholder(output: dict) -> bool:
    """A slider's saved output (its widget view and the static HTML, whose range input does nothing
    where the notebook is not trusted or the widget state is not restored) becomes the initial frame
    with its description and a line saying to run the cell; the kernel replaces it with the live
    widget. True when ``output`` was a slider's."""
    import html as htmllib

    data = output.get("data", {})
    page = "".join(data.get("text/html", ""))
    if 'class="perceptron-slider"' not in page:
        return False
    payload = json.loads(htmllib.unescape(_SLIDER_PAYLOAD.search(page).group(1)))
    name = htmllib.unescape(re.search(r'aria-label="([^"]*)"', page).group(1))
    index = int(re.search(r'<input type="range"[^>]*\bvalue="(\d+)"', page).group(1))
    frame, alt, label = payload["frames"][index], payload["alts"][index], payload["labels"][index]
    n = len(payload["labels"])
    note = f"{RUN_TO_MOVE} “{name}” ({n} positions; this picture is {name} = {label})."
    output["data"] = {
        "text/html": (f'<div class="perceptron-slider-saved"><p><em>{htmllib.escape(note)}</em></p>\n'
                      f'<img src="{frame}" alt="{htmllib.escape(alt)}"></div>'),
        "text/plain": f"{note}\nThe picture: {alt}",
    }
    return True


def convert(app: Sphinx, docname: str, base: str) -> dict:
    source = Path(app.env.doc2path(docname))
    notebook = json.loads(source.read_text(encoding="utf-8"))
    if app.config.student_build:
        notebook = solutions.drop_from_notebook(notebook)
    converter = Converter(app, docname, base)
    heading, cells = "", []
    for step in walk(notebook["cells"]):
        cell, inside = step.cell, step.after
        cells.append(cell)
        if cell["cell_type"] == "markdown":
            pieces, marks = converter.gated(step.source)
            heading = next((h for name, h in reversed(marks) if name == "solution-start"), heading)
            cell["source"] = fold(cell, pieces, marks, step.inside)
            continue
        if inside:
            form_cell(cell, heading)
        elif "check" in cell["metadata"].get("tags", []):
            check_form(cell)
        elif setup_cell.is_setup_cell(cell):  # collapsed in JupyterLab by its committed metadata
            colab_form(cell, setup_cell.COLAB_TITLE)
        for output in cell.get("outputs", []):
            slider_placeholder(output)
        described = description_cell(cell)
        if described is not None:
            if inside:
                described["metadata"]["jupyter"] = {"source_hidden": True}
            cells.append(described)
    notebook["cells"] = cells
    references = converter.references_cell()
    if references:
        notebook["cells"].append({"cell_type": "markdown", "id": "book-references", "metadata": {},
                                  "source": references})
    notebook["metadata"]["perceptron_book"] = {"page": converter.page(docname)}
    return notebook


def write_notebooks(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.name != "html":
        return
    chapters = [d for d in sorted(app.env.found_docs) if Path(app.env.doc2path(d)).suffix == ".ipynb"]
    if not chapters:
        return
    out = Path(app.outdir).parent / "jupyter"
    base = book_url(app)
    count = 0
    for docname in chapters:
        try:
            notebook = convert(app, docname, base)
        except (ValueError, KeyError, StopIteration) as error:
            logger.warning(f"jupyter notebook for {docname}: {error!r}", location=docname)
            continue
        text = json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"
        target = out / f"{docname}.ipynb"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        # The page's download button serves _sources/<docname>.ipynb: make it this notebook too.
        download = Path(app.outdir) / "_sources" / f"{docname}.ipynb"
        if download.exists():
            download.write_text(text, encoding="utf-8")
        count += 1
    logger.info(f"Jupyter-native notebooks: {count} written to {out}")


def point_launch_buttons(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Colab and JupyterHub open the Jupyter-native notebook, published on its own branch.

    Binder keeps the repository's main branch (its environment has jupyterlab-myst, which renders
    the MyST sources as the book does) unless ``binder_branch`` names another ref: the student
    edition sets both to the student branch (coursebook.edition), whose notebooks have no
    solutions. Runs after sphinx-book-theme's add_launch_buttons (501).
    """
    branch = app.config.jupyter_notebooks_branch
    binder = app.config.binder_branch
    source = (app.config.html_theme_options or {}).get("repository_branch", "main")
    for group in context.get("header_buttons", []):
        for button in group.get("buttons", []) if isinstance(group, dict) else []:
            if button.get("text") == "Colab":
                button["url"] = button["url"].replace(f"/blob/{source}/", f"/blob/{branch}/", 1)
            elif button.get("text") == "JupyterHub":
                button["url"] = button["url"].replace(f"branch={source}", f"branch={branch}", 1)
            elif button.get("text") == "Binder" and binder:
                button["url"] = button["url"].replace(f"/{source}?", f"/{binder}?", 1)


def register(app: Sphinx) -> None:
    app.add_config_value("jupyter_notebooks_branch", "jupyter", "html")
    app.add_config_value("binder_branch", "", "html")  # "": Binder opens repository.branch
    app.connect("html-page-context", point_launch_buttons, priority=502)
    app.connect("build-finished", write_notebooks)
