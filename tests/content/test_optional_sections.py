"""A section a first read can skip says so at its heading, and the chapter's "Core path" agrees.

Each chapter's first cell has a "Core path" paragraph. It either says the whole chapter is core, or
reads "every section except the one(s) marked (optional) at its/their heading: *A*, *B* and *C*",
naming the sections a first read can skip. Every section it names, and every subsection of such a
section, ends its heading with the marker " (optional)", which reads the same in the HTML book, the
PDF and a notebook opened in Jupyter; no other section carries it. So a reader who jumps into the
middle of a chapter sees at the heading whether the section is on the core path.
"""

from __future__ import annotations

import json
import re

import pytest

from coursebook import CHAPTERS

MARKER = " (optional)"
STRUCTURE = {"Common misconceptions", "Summary", "Quick checks", "Exercises"}
# Chapter 6 is being rewritten in parallel; its headings follow once that work is merged.
IN_SCOPE = CHAPTERS
LIST_START = re.compile(r"every section except (?:the|those|the two)[^:]*?marked \(optional\) at (?:its|their) heading:\s*")
ITALIC = re.compile(r"\*([^*]+)\*")


def cells(chapter) -> list[str]:
    nb = json.loads(chapter.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown"]


def walk(chapter):
    """Each markdown line of the chapter, with its heading (level, title) where the line is one
    outside fenced blocks, else None."""
    for text in cells(chapter):
        depth = 0  # inside ``` or ::: blocks
        for line in text.splitlines():
            heading = None
            if line.strip() in ("```", ":::"):
                depth = max(depth - 1, 0)
            elif line.startswith(("```", ":::")):
                depth += 1
            elif (match := re.match(r"(#{1,6}) (.+)", line)) and depth == 0:
                heading = (len(match.group(1)), match.group(2).strip())
            yield line, heading


def headings(chapter) -> list[tuple[int, str]]:
    """(level, title) of every heading of the chapter's markdown, outside fenced blocks."""
    return [heading for _, heading in walk(chapter) if heading]


def core_path(chapter) -> str:
    first = cells(chapter)[0]
    paragraphs = [p for p in first.split("\n\n") if p.startswith("**Core path:**")]
    assert len(paragraphs) == 1, f"{chapter.stem}: no single 'Core path' paragraph in the first cell"
    return " ".join(paragraphs[0].split())


def optional_names(paragraph: str) -> list[str]:
    """The italic section names listed after 'every section except ... marked (optional) ...:'."""
    start = LIST_START.search(paragraph)
    if start is None:
        return []
    names, pos = [], start.end()
    while (match := ITALIC.match(paragraph, pos)) is not None:
        names.append(match.group(1))
        pos = match.end()
        separator = re.match(r",? and |, ", paragraph[pos:])
        if separator is None or not paragraph[pos + separator.end():].startswith("*"):
            break
        pos += separator.end()
    return names


def optional_status(chapter) -> list[tuple[str, bool, bool]]:
    """(heading, carries the marker, named optional by the core path or under such a section)."""
    names = set(optional_names(core_path(chapter)))
    rows, parent_optional = [], False
    for level, title in headings(chapter):
        base = title.removesuffix(MARKER)
        if level == 1:
            continue
        if base in STRUCTURE:  # never optional, whatever the Core path says
            parent_optional = False
            rows.append((title, title.endswith(MARKER), False))
            continue
        optional = base in names or (level > 2 and parent_optional)
        if level == 2:
            parent_optional = optional
        rows.append((title, title.endswith(MARKER), optional))
    return rows


@pytest.mark.parametrize("chapter", IN_SCOPE, ids=lambda p: p.stem)
def test_every_section_off_the_core_path_is_marked_at_its_heading(chapter):
    wrong = [(title, named) for title, marked, named in optional_status(chapter) if marked != named]
    assert not wrong, (
        f"{chapter.stem}: headings whose '{MARKER.strip()}' marker disagrees with the Core path "
        f"(heading, named optional there): {wrong}"
    )


@pytest.mark.parametrize("chapter", IN_SCOPE, ids=lambda p: p.stem)
def test_every_section_the_core_path_names_exists(chapter):
    titles = {title.removesuffix(MARKER) for _, title in headings(chapter)}
    stale = [name for name in optional_names(core_path(chapter)) if name not in titles]
    assert not stale, f"{chapter.stem}: the Core path names sections that have no heading: {stale}"


def test_the_parser_reads_a_list_and_stops_at_its_end():
    paragraph = ("**Core path:** every section except those marked (optional) at their heading: *A b*, "
                 "*C?* and *D $x$*. In *E* the proof is optional.")
    assert optional_names(paragraph) == ["A b", "C?", "D $x$"]
    assert optional_names("**Core path:** the whole chapter; nothing in it is optional.") == []


def test_the_core_path_chapters_have_sections_to_skip():
    # Chapter 1 too since issue 32: its code mechanics (the broadcasting check, the slider's stops) and the
    # prototype rule left its core path.
    counts = {c.stem[:2]: sum(marked for _, marked, _ in optional_status(c)) for c in IN_SCOPE}
    assert counts["01"] >= 2
    assert counts["02"] >= 1 and counts["04"] >= 1 and counts["05"] >= 5


@pytest.mark.parametrize("chapter", IN_SCOPE, ids=lambda p: p.stem)
def test_the_core_path_is_the_whole_chapter_or_lists_its_optional_sections(chapter):
    """A Core path in any other words would leave the headings unchecked by the tests above."""
    paragraph = core_path(chapter)
    whole = paragraph.startswith("**Core path:** the whole chapter")
    assert whole or optional_names(paragraph), (
        f"{chapter.stem}: the Core path neither says 'the whole chapter' nor lists the sections "
        f"'marked (optional) at their heading': {paragraph[:120]}"
    )


def text_by_path(chapter) -> tuple[str, dict[str, str]]:
    """The chapter's markdown on the core path, and that of each optional section by its title (a
    subsection of an optional section counts as part of it); headings found as in :func:`headings`."""
    core, optional, level, title = [], {}, None, ""
    for line, heading in walk(chapter):
        if heading:
            if level is not None and heading[0] <= level:
                level = None
            if level is None and heading[1].endswith(MARKER):
                level, title = heading[0], heading[1].removesuffix(MARKER)
        (core if level is None else optional.setdefault(title, [])).append(line)
    return "\n".join(core), {name: "\n".join(lines) for name, lines in optional.items()}


def test_chapter_4_keeps_the_margins_chapter_5_uses_on_its_core_and_derives_p2_off_it():
    """Issue 32: the derivation of (P2) cost first readers two or three rereads on the core path, so it
    opens the optional *Two forms of the problem*, whole, before the theorem it leads to; the core
    points there. Chapter 5 reads gamma(w, b), gamma*, R and the scaling lemma off chapter 4's core."""
    chapter = next(c for c in IN_SCOPE if c.stem == "04_margins")
    core, optional = text_by_path(chapter)
    for label in ("ch4-def-margins", "ch4-def-max-margin", "ch4-lem-scaling"):
        assert f":label: {label}" in core, label
    assert r"dataset is $\gamma(w, b) = \min_i \gamma_i$" in core
    assert r"*maximum margin* $\gamma^\star$ is the largest margin $\gamma(w, b)$" in core
    assert r"$R = \max_i \lVert x_i \rVert$" in core
    assert r"\tag{P2}" not in core and "*Two forms of the problem*" in core
    two_forms = optional["Two forms of the problem"]
    derived = two_forms.index(r"\tag{P2}")
    assert "fix the *functional* margin of the closest point to $1$" in two_forms[:derived]
    assert "$\\lVert w^\\circ \\rVert = 1/\\gamma^\\star$" in two_forms[derived:]
    assert derived < two_forms.index(":label: ch4-thm-two-forms")
