"""`make slides` (run by `make test`): a deck set for every course plan, every deck complete and legible.

Without a browser, on the built decks (_build/slides/<plan>/session_N.html): one deck per session of
every plan of ``coursebook.plan.PLANS``; every formal statement and proof of a session's chapters on a
slide; every figure with the book's own description as alt text (book/figure_descriptions.yml for
the static figures, the descriptions stored with a slider for its frames); speaker notes on every
slide; at least three concept questions per session, each followed by its answer as the question
bank states it now.

In Chromium (served on 127.0.0.1, any other host aborted), once per distinct session: every slide fits the slide,
shows content, its images load, its mathematics is typeset by the vendored MathJax with no TeX
error, no console error; a figure fills at least 80 % of the slide's width (or, when it is too tall
for that, the slide's height with its "what to see" beside it), its text (matplotlib's 10 pt at the
dpi its PNG states, scaled as shown) at least 13 px high at 1280x720; axe-core finds no WCAG A/AA violation in the print layout (every slide shown). The
print layout (`?print-pdf`) has one page per slide and prints to PDF. Screenshots of the first
slides land in _build/screenshots/slides/ and the figure measurements in _build/reports/slides.json.
"""

from __future__ import annotations

import html
import json
import re
import struct
from base64 import b64decode
from functools import cache
from pathlib import Path

import pytest
import yaml

from coursebook import banks, myst, plan, slides
from tests.support.browser import OfflinePage, Site

ROOT = Path(__file__).resolve().parents[2]
SLIDES = ROOT / "_build" / "slides"
SHOTS = ROOT / "_build" / "screenshots" / "slides"
REPORTS = ROOT / "_build" / "reports"
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
VIEWPORT = {"width": 1280, "height": 720}
#: matplotlib's default text size (10 pt); a figure's PNG states its dpi, so its text height in pixels.
TEXT_POINTS = 10
MIN_TEXT_PX = 13
PLACEHOLDER = re.compile(r"(?i)^(figure \d+ of chapter|the first figure|slider position \d+ of)|^\s*$")
SECTION = re.compile(r'<section class="([\w-]+)"([^>]*)>(.*?)</section>', re.DOTALL)
IMG = re.compile(r"<img\b[^>]*>")


def attr(tag: str, name: str) -> str | None:
    match = re.search(rf'\b{name}="([^"]*)"', tag)
    return html.unescape(match.group(1)) if match else None


@cache
def chapter_cells(number: int) -> list[dict]:
    return json.loads(plan.CHAPTERS[number - 1].read_text(encoding="utf-8"))["cells"]


def deck_sections(path: Path) -> list[tuple[str, str, str]]:
    return SECTION.findall(path.read_text(encoding="utf-8"))


def all_decks() -> list[tuple[str, int, list[int]]]:
    """(plan, session number, chapters) of every deck the plans call for."""
    return [(name, k, [p.chapter for p in pieces]) for name, table in plan.plans().items()
            for k, pieces in enumerate(table.sessions, start=1)]


OPTIONAL = re.compile(r"^(#{1,6}) (.*?)\s*$")


@cache
def core_parts(number: int) -> list[tuple[dict, str, str]]:
    """(cell, kind, source) of every part of chapter ``number`` on its core path: not under a heading that
    ends in "(optional)" (until the next heading of its level or higher). A code cell is one part."""
    out, level = [], None
    for cell in chapter_cells(number):
        parts = (myst.split("".join(cell["source"])) if cell["cell_type"] == "markdown"
                 else [("code", "".join(cell["source"]))])
        for kind, source in parts:
            if kind == "prose":
                for line in source.splitlines():
                    heading = OPTIONAL.match(line)
                    if heading and level is not None and len(heading[1]) <= level:
                        level = None
                    if heading and level is None and heading[2].endswith("(optional)"):
                        level = len(heading[1])
            if level is None:
                out.append((cell, kind, source))
    return out


def distinct_decks() -> list[str]:
    """One deck per distinct list of chapters (the plans share sessions), and every timetable deck built:
    what the browser checks."""
    seen, out = set(), []
    for name, k, chapters in all_decks():
        if tuple(chapters) not in seen:
            seen.add(tuple(chapters))
            out.append(f"{name}/session_{k}.html")
    # the decks of a timetable, when `make slides SESSIONS=n MINUTES=m` built one (split chapters)
    out += sorted(str(p.relative_to(SLIDES)) for p in SLIDES.glob("*x*/session_*.html")
                  if re.fullmatch(r"\d+x\d+", p.parent.name))
    return out


@pytest.fixture(scope="module")
def site() -> Site:
    """The decks are what the shared ``server`` fixture (tests/conftest.py) serves here."""
    return Site(SLIDES, "make slides")


# ------------------------------------------------------------------ the decks' contents, no browser


def test_a_deck_for_every_session_of_every_plan():
    assert set(plan.PLANS) >= {"three", "five", "six"}
    for name, table in plan.plans().items():
        decks = sorted(p.name for p in (SLIDES / name).glob("session_*.html"))
        assert decks == sorted(f"session_{k}.html" for k in range(1, len(table.sessions) + 1)), name
    index = (SLIDES / "index.html").read_text(encoding="utf-8")
    for name, k, chapters in all_decks():
        assert f'href="{name}/session_{k}.html"' in index, f"the index does not link {name} session {k}"
        text = (SLIDES / name / f"session_{k}.html").read_text(encoding="utf-8")
        # loads nothing from the network (a link to the licence is not a load)
        assert not re.search(r"""src=["']https?://|<link(?![^>]*rel="license")[^>]*href=["']https?://""", text), (
            f"{name} {k} references the network")
        shown = [int(n) for n in re.findall(r"<h2>Chapter (\d+)</h2>", text)]
        assert shown == chapters, f"{name} session {k}: chapters {shown}, the plan says {chapters}"


@pytest.mark.parametrize(("name", "session", "chapters"), all_decks())
def test_every_statement_and_proof_is_on_a_slide(name, session, chapters):
    sections = deck_sections(SLIDES / name / f"session_{session}.html")
    statements = proofs = 0
    for number in chapters:                 # the book's plans teach the core path
        for _, kind, source in core_parts(number):
            if kind != "formal":
                continue
            block = myst.blocks(source)[0]
            statements += block.name in slides.STATEMENTS
            proofs += block.name == "prf:proof" and "optional" not in block.options.get("class", "")
    proof_slides = [body for kind, _, body in sections if kind == "proof"]
    assert sum(kind == "statement" for kind, _, _ in sections) == statements > 0
    first_slides = [b for b in proof_slides if not re.search(r"\((?:[2-9]|\d\d)/\d+\)", b.split("</h3>")[0])]
    assert len(first_slides) == proofs, f"{name} session {session}: {len(first_slides)} proofs shown of {proofs}"
    assert all(r"\(" in b or r"\[" in b for b in proof_slides), "a proof slide without mathematics"


def test_the_convergence_session_teaches_the_proof():
    text = (SLIDES / "five" / "session_3.html").read_text(encoding="utf-8")
    proofs = [body for kind, _, body in SECTION.findall(text) if kind == "proof"]
    titles = " ".join(re.sub(r"<[^>]+>", "", b.split("</h3>")[0]) for b in proofs)
    for lemma in ("The alignment grows linearly", "The length grows like a square root", "Novikoff's mistake bound"):
        assert f"Proof: {lemma}" in titles
    squeeze = next(b for b in proofs if "Novikoff" in b.split("</h3>")[0])
    assert r"\le\; \sqrt{k}\, \eta R" in squeeze        # the squeeze, as the chapter writes it
    assert len(SECTION.findall(text)) >= 20


@pytest.mark.parametrize(("name", "session", "chapters"), all_decks())
def test_every_image_carries_the_books_description(name, session, chapters):
    static = yaml.safe_load((ROOT / "book" / "figure_descriptions.yml").read_text(encoding="utf-8"))["static"]
    text = (SLIDES / name / f"session_{session}.html").read_text(encoding="utf-8")
    images = IMG.findall(text)
    cells = {c.get("id"): c for n in chapters for c in chapter_cells(n)}
    core = {c.get("id") for n in chapters for c, kind, _ in core_parts(n) if kind == "code"}
    figure_cells = {cid for cid, c in cells.items() if "-sol" not in (cid or "") and c["cell_type"] == "code"
                    and cid in core and any("image/png" in o.get("data", {}) for o in c.get("outputs", []))}
    shown = set()
    for tag in images:
        alt, cid = attr(tag, "alt"), attr(tag, "data-cell")
        assert alt is not None and not PLACEHOLDER.search(alt), f"{name} {session}: placeholder alt {alt!r}"
        assert cid in cells, f"{name} {session}: an image from no cell of the session's chapters"
        if attr(tag, "data-frame") is None:
            assert alt == " ".join(static[cid]["alt"].split()), f"cell {cid}: alt is not the book's description"
            shown.add(cid)
        else:
            page = "".join("".join(o["data"]["text/html"]) for o in cells[cid]["outputs"]
                           if "text/html" in o.get("data", {}))
            stored = json.loads(re.search(r'<script type="application/json">(.*?)</script>', page, re.DOTALL)[1])
            assert alt == stored["alts"][int(attr(tag, "data-frame"))], f"slider {cid}: not the frame's description"
    assert shown == figure_cells, f"{name} {session}: figures missing {sorted(figure_cells - shown)}"


@pytest.mark.parametrize(("name", "session", "chapters"), all_decks())
def test_every_slide_has_speaker_notes(name, session, chapters):
    sections = deck_sections(SLIDES / name / f"session_{session}.html")
    for k, (kind, _, body) in enumerate(sections, start=1):
        notes = re.search(r'<aside class="notes">(.*?)</aside>', body, re.DOTALL)
        words = len(re.sub(r"<[^>]+>", " ", notes.group(1)).split()) if notes else 0
        assert words >= 5, f"{name} session {session}, slide {k} ({kind}): no speaker notes"


def bank_answers(number: int) -> dict[str, tuple[str, str]]:
    """Question number -> (answer letter, that option's text), read by the one bank reader (coursebook.banks)."""
    path = ROOT / "book" / "instructor" / f"bank_{number:02d}.md"
    return {q.name: (q.answer, q.options[q.answer]) for q in banks.questions(path)}


@pytest.mark.parametrize(("name", "session", "chapters"), all_decks())
def test_concept_questions_then_their_answers_from_the_banks(name, session, chapters):
    sections = deck_sections(SLIDES / name / f"session_{session}.html")
    answers = {q: a for n in chapters for q, a in bank_answers(n).items()}
    asked = 0
    for k, (kind, attrs, body) in enumerate(sections):
        if kind != "question":
            continue
        asked += 1
        number = attr(attrs, "data-question")
        assert number in answers
        assert all(f"<b>{letter}.</b>" in body for letter in "ABCD"), f"{number}: options missing"
        next_kind, next_attrs, next_body = sections[k + 1]
        assert next_kind == "answer" and attr(next_attrs, "data-question") == number, f"{number}: no answer next"
        letter, option = answers[number]
        assert attr(next_attrs, "data-answer") == letter, f"{number}: the bank's answer is {letter}"
        assert f"<b>{letter}.</b>" in next_body and slides.inline(option) in next_body
    assert asked >= min(3, sum(len(bank_answers(n)) for n in chapters))


def test_the_answer_letter_is_read_from_the_bank_as_it_is(tmp_path, monkeypatch):
    """Reshuffled options: the slides follow the file's letters, never a remembered answer."""
    text = (ROOT / "book" / "instructor" / "bank_05.md").read_text(encoding="utf-8")
    first = text.index("### Q5.1")
    chunk = text[first:text.index("### Q5.2")]
    options = dict(re.findall(r"^- \*\*([A-D])\.\*\* (.*)$", chunk, re.MULTILINE))
    letter = re.search(r"\*\*Answer: ([A-D])\.\*\*", chunk)[1]
    order = [letter] + [x for x in "ABCD" if x != letter]          # the right option moves to A
    reordered = "".join(f"- **{new}.** {options[old]}\n" for new, old in zip("ABCD", order, strict=True))
    shuffled = re.sub(r"(^- \*\*[A-D]\.\*\* .*\n)+", lambda _: reordered, chunk, count=1,
                      flags=re.MULTILINE).replace(f"**Answer: {letter}.**", "**Answer: A.**")
    (tmp_path / "bank_05.md").write_text(text[:first] + shuffled + text[first + len(chunk):], encoding="utf-8")
    monkeypatch.setattr(slides, "BANKS", tmp_path)
    question = slides.questions(5)[0]
    assert question.answer == "A" and question.options["A"] == " ".join(options[letter].split())
    (tmp_path / "bank_05.md").write_text(text[:first] + shuffled.replace("- **C.**", "- **E.**")
                                         + text[first + len(chunk):], encoding="utf-8")
    with pytest.raises(ValueError, match="Q5.1: options"):
        slides.questions(5)


def test_a_timetable_splits_a_chapter_over_sessions_without_losing_a_slide():
    sets = slides.decks(5, 50)
    _, sessions = sets["5x50"]
    table = plan.timetable(5, 50)
    assert [s.pieces for s in sessions] == [tuple((p.chapter, p.part, p.parts, p.optional) for p in s)
                                            for s in table.sessions if s]
    split = {c: parts for s in sessions for c, _, parts, _ in s.pieces if parts > 1}
    assert split, "this timetable splits no chapter: choose another"
    for number, count in split.items():
        whole = slides.chapter(number, optional=False).content
        parts = [slides.part_of(whole, k, count) for k in range(1, count + 1)]
        assert [s.html() for part in parts for s in part] == [s.html() for s in whole]
        assert all(parts) and all(part[0].kind != "proof" for part in parts[1:])
    with pytest.raises(ValueError, match="core"):
        slides.decks(1, 60)


# ------------------------------------------------------------------ in Chromium


def open_deck(browser, server: str, path: str) -> OfflinePage:
    """The deck at ``path`` opened offline, once reveal.js and MathJax are ready."""
    deck = OfflinePage(browser, server, viewport=VIEWPORT)
    try:
        deck.page.goto(f"{server}/{path}", wait_until="load")
        deck.page.wait_for_function("() => window.Reveal && Reveal.isReady()", timeout=15000)
        deck.page.wait_for_function("() => window.MathJax && MathJax.startup && MathJax.startup.promise",
                                    timeout=15000)
        deck.page.evaluate("() => MathJax.startup.promise")
        # measured and photographed where the slide rests, not half-way through a transition
        deck.page.evaluate("() => Reveal.configure({transition: 'none', backgroundTransition: 'none'})")
    except BaseException:
        deck.close()
        raise
    return deck


def png_dpi(uri: str) -> float:
    """The dpi a PNG data URI states in its pHYs chunk (matplotlib writes it)."""
    data = b64decode(uri.split(",", 1)[1])
    at = data.find(b"pHYs")
    assert at > 0, "a figure PNG states no resolution"
    per_metre = struct.unpack(">I", data[at + 4:at + 8])[0]
    return per_metre * 0.0254


VISIT = """() => {
  const out = [];
  const slidesBox = document.querySelector('.reveal .slides').getBoundingClientRect();
  for (let k = 0; k < Reveal.getTotalSlides(); k++) {
    Reveal.slide(k);
    const s = Reveal.getCurrentSlide();
    const bottom = Math.max(...[...s.children].filter(c => c.tagName !== 'ASIDE')
                                 .map(c => c.getBoundingClientRect().bottom - slidesBox.top));
    out.push({k, kind: s.className.split(' ')[0], text: s.innerText.trim().length, bottom,
              height: slidesBox.height,
      loaded: [...s.querySelectorAll('img')].every(i => i.complete && i.naturalWidth > 0),
      figures: [...s.querySelectorAll('img.figure')].map(i => {
        const r = i.getBoundingClientRect();
        return {cell: i.dataset.cell, width: r.width, height: r.height, natural: i.naturalWidth,
                slide: slidesBox.width, slideHeight: slidesBox.height, side: s.querySelector('.side') ? s.querySelector('.side').getBoundingClientRect().width : 0,
                bottom: r.bottom - slidesBox.top, src: i.src};
      })});
  }
  return out;
}"""


@pytest.fixture(scope="module")
def measured() -> list[dict]:
    out: list[dict] = []
    yield out
    REPORTS.mkdir(parents=True, exist_ok=True)
    (REPORTS / "slides.json").write_text(json.dumps(out, indent=1), encoding="utf-8")


@pytest.mark.parametrize("deck_path", distinct_decks())
def test_every_slide_renders_legibly_with_math_and_no_console_error(browser, server, deck_path, measured):
    deck = open_deck(browser, server, deck_path)
    page = deck.page
    try:
        visited = page.evaluate(VISIT)
        SHOTS.mkdir(parents=True, exist_ok=True)
        for k in range(3):
            page.evaluate(f"() => Reveal.slide({k})")
            page.screenshot(path=str(SHOTS / f"{deck_path.replace('/', '_')[:-5]}_{k + 1}.png"))
        first_figure = next(v["k"] for v in visited if v["figures"])
        page.evaluate(f"() => Reveal.slide({first_figure})")
        page.screenshot(path=str(SHOTS / f"{deck_path.replace('/', '_')[:-5]}_figure.png"))
        typeset = page.locator("mjx-container").count()
        raw = page.evaluate("() => [...document.querySelectorAll('.slides section')]"
                            ".some(s => /\\\\\\(|\\\\\\[/.test(s.innerText))")
        merrors = page.locator("mjx-merror").count()
    finally:
        deck.close()
    assert len(visited) >= 15
    for v in visited:
        assert v["text"] > 0, f"{deck_path}, slide {v['k'] + 1} is empty"
        assert v["loaded"], f"{deck_path}, slide {v['k'] + 1}: an image did not load"
        assert v["bottom"] <= v["height"] + 1, f"{deck_path}, slide {v['k'] + 1} ({v['kind']}) runs off the slide"
        for f in v["figures"]:
            where = f"{deck_path}, slide {v['k'] + 1}, cell {f['cell']}"
            share, fills = f["width"] / f["slide"], f["height"] / f["slideHeight"]
            text_px = TEXT_POINTS / 72 * png_dpi(f.pop("src")) * f["width"] / f["natural"]
            measured.append({"deck": deck_path, "slide": v["k"] + 1, **f, "width_share": round(share, 3),
                             "height_share": round(fills, 3), "text_px": round(text_px, 1)})
            used = (f["width"] + f["side"]) / f["slide"]
            assert share >= 0.8 or (fills >= 0.82 and used >= 0.8), f"{where}: {share:.0%} of the slide's width"
            assert text_px >= MIN_TEXT_PX, f"{where}: its text is {text_px:.1f} px high at 1280x720"
            assert f["bottom"] <= f["slideHeight"] + 1, f"{where}: the figure runs off the slide"
    assert typeset > 10 and not raw, f"{deck_path}: math not typeset ({typeset} formulas)"
    assert merrors == 0, "MathJax reported a TeX error"
    assert not deck.blocked, deck.blocked
    assert not deck.errors, deck.errors


@pytest.fixture(scope="module")
def axe_source() -> str:
    assert AXE.exists(), f"{AXE} is missing: `make node_modules` installs the pinned axe-core"
    return AXE.read_text(encoding="utf-8")


@pytest.mark.parametrize("deck_path", distinct_decks())
def test_axe_finds_no_wcag_violation_on_any_slide(browser, server, axe_source, deck_path):
    """The print layout shows every slide at once, so axe checks them all (speaker notes stay hidden)."""
    deck = open_deck(browser, server, f"{deck_path}?print-pdf")
    try:
        deck.page.wait_for_selector(".pdf-page", timeout=15000)
        deck.page.add_script_tag(content=axe_source)
        result = deck.page.evaluate("tags => axe.run(document, {runOnly: {type: 'tag', values: tags},"
                                    " resultTypes: ['violations']})", WCAG_TAGS)
    finally:
        deck.close()
    violations = [(v["id"], len(v["nodes"]), v["nodes"][0]["target"]) for v in result["violations"]]
    assert len(result["passes"]) > 10, "axe checked almost nothing"
    assert not violations, f"{deck_path}: WCAG violations {violations}"


def test_print_layout_has_one_page_per_slide(browser, server):
    deck = open_deck(browser, server, "five/session_3.html?print-pdf")
    page = deck.page
    try:
        page.wait_for_selector(".pdf-page", timeout=15000)
        pages = page.locator(".pdf-page").count()
        assert pages == page.evaluate("() => Reveal.getTotalSlides()")
        pdf = page.pdf(prefer_css_page_size=True)
        assert pdf[:4] == b"%PDF" and len(pdf) > 10_000
        assert len(re.findall(rb"/Type\s*/Page(?!s)", pdf)) == pages, "not one PDF page per slide"
        assert not deck.errors, deck.errors
    finally:
        deck.close()


# ------------------------------------------------------------------ decks to lecture from, no browser

def notes_of(body: str) -> str:
    found = re.search(r'<aside class="notes">(.*?)</aside>', body, re.DOTALL)
    return html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))) if found else ""


@pytest.mark.parametrize(("name", "session", "chapters"), all_decks())
def test_every_proof_is_revealed_step_by_step(name, session, chapters):
    """A proof slide of more than one sentence (or with a display formula or a list) has reveal.js fragments,
    and its first step shows with the slide."""
    for kind, _, body in deck_sections(SLIDES / name / f"session_{session}.html"):
        if kind != "proof":
            continue
        text = body.split("</h3>", 1)[1].split('<aside class="notes">')[0]
        steps = len(slides.sentences(re.sub(r"<[^>]+>", " ", text))) + text.count("<li")
        if steps > 1:
            assert 'class="fragment"' in text, body[:200]
            first = re.sub(r"<[^>]+>", "", text.split('class="fragment"')[0]).strip()
            assert first, "a proof slide that starts empty"


@pytest.mark.parametrize(("name", "session", "chapters"), all_decks())
def test_an_exercise_in_class_then_its_answer(name, session, chapters):
    sections = deck_sections(SLIDES / name / f"session_{session}.html")
    at = [k for k, (kind, _, _) in enumerate(sections) if kind == "exercise"]
    assert len(at) == 1, f"{name} session {session}: {len(at)} exercise slides"
    _, attrs, body = sections[at[0]]
    assert sections[at[0] + 1][0] == "exercise-answer" and attr(sections[at[0] + 1][1], "data-exercise") == attr(
        attrs, "data-exercise")
    label = attr(attrs, "data-exercise")
    source = "".join("".join(c["source"]) for n in chapters for c in chapter_cells(n))
    assert label == "quick-checks" or f":label: {label}" in source, label
    assert f"({plan.IN_CLASS_EXERCISE} minutes)" in body


def test_speaker_notes_are_written_to_be_said():
    """No note ends at a colon (its formula or list left out), no raw citation key, and citations read as
    "Novikoff (1962)" or "(Novikoff, 1962)"."""
    said, cut, keys = "", [], []
    for path in sorted(SLIDES.glob("*/session_*.html")):
        for _, _, body in deck_sections(path):
            note = " ".join(notes_of(body).split())
            said += note + "\n"
            if note.endswith(":"):
                cut.append(f"{path.parent.name}/{path.name}: {note[-80:]}")
            keys += re.findall(r"\[[a-z][\w-]*\d{4}[\w-]*\]", note)
    assert not cut, cut
    assert not keys, sorted(set(keys))
    # Both forms of a citation are said somewhere: "(Author, year)" and "Author (year)".
    assert re.search(r"\([A-Z][a-z]+(?: and [A-Z][a-z]+| et al\.)?, \d{4}\)", said) and "Gallant (1990)" in said


def test_a_citation_reads_as_author_and_year():
    role = myst.roles("{cite:t}`novikoff1962convergence`")[0]
    assert slides.citation(role) == "Novikoff (1962)"
    assert slides.plain_roles("see {cite}`novikoff1962convergence`") == "see (Novikoff, 1962)"
    with pytest.raises(ValueError, match="nosuchkey"):
        slides.plain_roles("{cite}`nosuchkey`")


def test_notes_say_whole_sentences_and_never_point_above():
    long = "First sentence here. Then " + " ".join(["word"] * 70) + ". Third one."
    assert slides.spoken(long) == "First sentence here."
    assert slides.spoken("It is short. It ends at a colon:") == "It is short."
    assert "above" not in slides.spoken("The margins above come close to the bound. Fine.")
    assert slides.paragraphs("The bound reads as follows for every separator:\n\n$$k \\le (R/\\gamma)^2$$\n") == [
        "The bound reads as follows for every separator:\n\n$$k \\le (R/\\gamma)^2$$"]


def test_no_slide_points_above_or_below():
    for path in sorted(SLIDES.glob("*/session_*.html")):
        for kind, _, body in deck_sections(path):
            shown = re.sub(r"<[^>]+>", " ", re.sub(r'<aside class="notes">.*?</aside>', "", body, flags=re.DOTALL))
            assert not re.search(r"\b(above|below)[.,;:)]|\b(shown|stated|see) (above|below)\b", shown), (path, kind)


def test_every_deck_carries_the_cc_by_notice():
    for path in sorted(SLIDES.glob("*/session_*.html")):
        text = path.read_text(encoding="utf-8")
        sections = deck_sections(path)
        assert banks.CC_BY in sections[0][2] and "CC BY 4.0" in sections[0][2], path
        assert sections[-1][0] == "licence" and banks.CC_BY in sections[-1][2], path
        assert f'<link rel="license" href="{banks.CC_BY}">' in text


def test_a_plan_that_leaves_out_optional_parts_leaves_them_out_of_the_deck():
    """Chapter 5's core path has no optional proof and no optional section; "5+" has both."""
    core, whole = slides.chapter(5, optional=False).content, slides.chapter(5, optional=True).content
    assert len(whole) > len(core)
    assert not any("optional in the book" in s.content for s in core)
    assert any("optional in the book" in s.content for s in whole)
    _, sessions = slides.decks(chapters="1+, 2 | 4 | 5", minutes=90)["chosen"]
    assert sessions[0].pieces == ((1, 1, 1, True), (2, 1, 1, False)) and sessions[1].pieces == ((4, 1, 1, False),)
