"""The one MyST reader of the book's tools: directive blocks, roles and targets of a Markdown text.

Jupyter Book parses MyST with markdown-it-py and the plugins of mdit-py-plugins (through
myst-parser); this module runs the same parser (same plugins, no Sphinx) for the stages that read a
chapter's Markdown outside Sphinx: the Jupyter-native export (:mod:`coursebook.notebooks`), the
solution filter (:mod:`coursebook.solutions`), the course plan (:mod:`coursebook.plan`) and the
slides (:mod:`coursebook.slides`).

A directive is a fenced block whose info string starts with ``{name}``, with backticks or colons;
its options are the ``:key: value`` lines that open its body. Blocks inside blocks are found by
reading a block's body again.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.amsmath import amsmath_plugin
from mdit_py_plugins.colon_fence import colon_fence_plugin
from mdit_py_plugins.deflist import deflist_plugin
from mdit_py_plugins.dollarmath import dollarmath_plugin
from mdit_py_plugins.myst_blocks import myst_block_plugin
from mdit_py_plugins.myst_role import myst_role_plugin

DIRECTIVE = re.compile(r"^\{(?P<name>[\w:-]+)\}\s*(?P<argument>.*)$")
OPTION = re.compile(r"^:(?P<key>[\w-]+):[ \t]*(?P<value>.*)$")

#: Directive names by the kind of text they hold, as the course plan counts them.
FORMAL_PREFIX = "prf:"
SOLUTIONS = ("solution", "solution-start", "solution-end")


@lru_cache(maxsize=1)
def parser() -> MarkdownIt:
    """markdown-it-py with the MyST syntax the book enables (``parse: myst_enable_extensions``)."""
    return (MarkdownIt("commonmark").enable("table")
            .use(colon_fence_plugin).use(myst_role_plugin).use(myst_block_plugin)
            .use(dollarmath_plugin, allow_space=True, double_inline=True).use(amsmath_plugin)
            .use(deflist_plugin))


def tokens(text: str) -> list[Token]:
    return parser().parse(text)


@dataclass(frozen=True)
class Block:
    """One directive: ``{name} argument``, its options and its body (options removed).

    ``start`` and ``end`` are the block's first line and the line after its closing fence, counted
    from 0 in the text it was read from.
    """

    name: str
    argument: str
    options: dict[str, str] = field(hash=False)
    body: str
    start: int
    end: int

    @property
    def kind(self) -> str:
        """``formal`` (``{prf:...}``), ``exercise``, ``solution`` (all three forms) or ``other``."""
        if self.name.startswith(FORMAL_PREFIX):
            return "formal"
        if self.name == "exercise":
            return "exercise"
        if self.name in SOLUTIONS:
            return "solution"
        return "other"

    @property
    def label(self) -> str:
        return self.options.get("label", "")

    @property
    def classes(self) -> list[str]:
        return self.options.get("class", "").split()


def _block(token: Token, lines: list[str]) -> Block | None:
    match = DIRECTIVE.match(token.info.strip())
    if match is None or token.map is None:
        return None
    body = token.content.split("\n")
    options: dict[str, str] = {}
    while body and (option := OPTION.match(body[0].strip())):
        options[option["key"]] = option["value"].strip()
        body.pop(0)
    start, end = token.map
    # markdown-it's map ends after the closing fence, or at the end of the text if it is unclosed.
    closed = end <= len(lines) and end > start + 1 and set(lines[end - 1].strip()) == {token.markup[0]} \
        and len(lines[end - 1].strip()) >= len(token.markup)
    if not closed:
        raise ValueError(f"unclosed {token.markup}{{{match['name']}}} block at line {start + 1}")
    return Block(match["name"], match["argument"].strip(), options, "\n".join(body).strip("\n"), start, end)


def blocks(text: str) -> list[Block]:
    """Every directive block of ``text`` that is not inside another one, in order.

    Raises ValueError for a directive whose fence is never closed.
    """
    lines = text.split("\n")
    found = []
    for token in tokens(text):
        if token.type in ("fence", "colon_fence"):
            block = _block(token, lines)
            if block is not None:
                found.append(block)
    return found


def split(text: str) -> list[tuple[str, str]]:
    """``text`` cut into its directive blocks and the prose between them: (kind, source) pairs.

    The kinds are those of :attr:`Block.kind`, with ``prose`` for the text between blocks (and for
    a block of another directive, such as ``{literalinclude}``).
    """
    lines = text.split("\n")
    out: list[tuple[str, str]] = []
    pos = 0
    for block in blocks(text):
        if block.start > pos:
            out.append(("prose", "\n".join(lines[pos:block.start])))
        kind = "prose" if block.kind == "other" else block.kind
        out.append((kind, "\n".join(lines[block.start:block.end])))
        pos = block.end
    if pos < len(lines):
        out.append(("prose", "\n".join(lines[pos:])))
    return [(kind, source) for kind, source in out if source.strip()]


def replace_blocks(text: str, render, prose=str) -> str:
    """``text`` with each top-level directive block replaced by ``render(block)`` and each stretch of
    text between blocks by ``prose(stretch)`` (unchanged by default)."""
    lines = text.split("\n")
    out, pos = [], 0
    for block in blocks(text):
        out.append(prose("\n".join(lines[pos:block.start])))
        out.append(render(block))
        pos = block.end
    out.append(prose("\n".join(lines[pos:])))
    return "\n".join(out)


@dataclass(frozen=True)
class Role:
    """One inline role, ``{name}`content```: ``text`` and ``target`` split as ``text <target>``."""

    name: str
    content: str
    source: str

    @property
    def text(self) -> str | None:
        match = EXPLICIT.match(self.content)
        return match["text"] if match else None

    @property
    def target(self) -> str:
        match = EXPLICIT.match(self.content)
        return (match["target"] if match else self.content).strip()


EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)


def roles(text: str) -> list[Role]:
    """Every role of ``text`` outside code (code spans, fenced code and directive bodies excluded)."""
    found = []
    for token in tokens(text):
        for child in token.children or []:
            if child.type == "myst_role":
                ticks = "`" * max(1, len(child.markup) or 1)
                found.append(Role(child.meta["name"], child.content,
                                  f"{{{child.meta['name']}}}{ticks}{child.content}{ticks}"))
    return found


def replace_roles(text: str, render) -> str:
    """``text`` with every role outside code replaced by ``render(role)``."""
    for role in roles(text):
        text = text.replace(role.source, render(role))
    return text


def targets(text: str) -> list[tuple[int, str]]:
    """(line, label) of every ``(label)=`` target of ``text``, lines counted from 0."""
    return [(token.map[0], token.content) for token in tokens(text) if token.type == "myst_target"]
