"""The printed book (`make pdf-test` builds it, then runs this file), read back with pdftotext.

Compared with the HTML book in _build/html (built by `make book`): every chapter title, every
numbered theorem-like block and exercise carries the same number in the PDF; solutions come after
the last exercise of their chapter; each slider appears as a strip of frames that prints every frame
its prose quotes, and the prose speaks of the strip, not of dragging a slider (book/printed.yml); every
proof box's title bar says "Proof"; the pages are of the paper asked for (``PAPER``, letter by default);
nothing is left unresolved ("??", "[?]") and no raw MyST or LaTeX markup leaks into the text. The page
count and the numbers checked go to _build/reports/pdf.json.
"""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from bs4 import BeautifulSoup

ROOT = Path(__file__).resolve().parents[2]
PDF = ROOT / "_build" / "pdf" / "perceptron.pdf"
TEX = ROOT / "_build" / "latex" / "perceptron.tex"
PRINTED = ROOT / "book" / "printed.yml"
# pdfinfo's page size in points, per PAPER (make pdf PAPER=a4).
PAGE_SIZES = {"letter": (612, 792), "a4": (595.276, 841.89)}
# What a reader of paper cannot do: any of these near "slider" means a passage was not rewritten.
DRAG = re.compile(r"\b(drag|move|moving|step through)\b[^.]{0,40}\bslider\b|\bslider\b[^.]{0,15}\b(drag|move)\b",
                  re.IGNORECASE)
HTML = ROOT / "_build" / "html"
REPORT = ROOT / "_build" / "reports" / "pdf.json"
# The kinds of numbered block that sphinx-proof and sphinx-exercise write (title "Theorem 5.1").
NUMBERED = re.compile(r"^(Theorem|Lemma|Corollary|Proposition|Definition|Algorithm|Remark|Example|Exercise|"
                      r"Conjecture|Axiom|Criterion|Property|Observation|Assumption|Notation) \d+\.\d+$")
# Markup as it would show if MyST or LaTeX had not processed it (the instructors' notes name the
# directives in inline code, e.g. {prf:theorem}, so directive names alone are no evidence).
RAW_MARKUP = ["```", ":::{", "{cite}`", "{cite:p}`", "{cite:t}`", "{ref}`", "{numref}`", "{eq}`", "{doc}`", "$$",
              "\\begin{", "\\end{", "\\label{", "\\ref{", "\\cite{", "\\hyperref", "\\(", "\\[",
              "Undefined control sequence", "LaTeX Error", "SliderFigure:"]


def toc_chapters() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [c["file"] for part in toc.get("parts", []) for c in part["chapters"]]


def normalise(text: str) -> str:
    """pdftotext's text with hyphenation, ligatures and line breaks undone, as one line of words."""
    text = text.replace("\u00ad", "").replace("ﬁ", "fi").replace("ﬂ", "fl").replace("ﬀ", "ff")
    text = re.sub(r"-\n(?=\w)", "-", text)
    return re.sub(r"\s+", " ", text)


@pytest.fixture(scope="module")
def pdf_text() -> str:
    assert PDF.exists(), f"{PDF} is missing: run `make pdf` (`make pdf-test` builds it first)"
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(PDF), "-"], capture_output=True, text=True, check=True)
    return out.stdout


@pytest.fixture(scope="module")
def html_pages() -> dict[str, BeautifulSoup]:
    assert (HTML / "index.html").exists(), "the HTML book is not built: run `make book`"
    return {doc: BeautifulSoup((HTML / f"{doc}.html").read_text(encoding="utf-8"), "html.parser")
            for doc in toc_chapters()}


def page_count() -> int:
    info = subprocess.run(["pdfinfo", str(PDF)], capture_output=True, text=True, check=True).stdout
    return int(re.search(r"^Pages:\s+(\d+)", info, re.MULTILINE).group(1))


def html_numbers(soup: BeautifulSoup) -> list[str]:
    spans = soup.select("article .admonition-title .caption-number")
    return [s.get_text(" ", strip=True) for s in spans if NUMBERED.match(s.get_text(" ", strip=True))]


def test_pdf_has_every_chapter_and_every_numbered_block_of_the_html_book(pdf_text, html_pages):
    text = normalise(pdf_text)
    pages = page_count()
    missing_titles, missing_numbers, checked = [], [], {}
    for doc, soup in html_pages.items():
        title = soup.select_one("article h1").get_text(" ", strip=True).rstrip("#").strip()
        title = re.sub(r"^\d+\.\s*", "", title)  # the HTML's section number is not part of the title
        if normalise(title) not in text:
            missing_titles.append(title)
        numbers = html_numbers(soup)
        checked[doc] = {"title": title, "numbers": numbers}
        missing_numbers += [f"{doc}: {n}" for n in numbers if not re.search(re.escape(n) + r"\b", text)]
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps({"pdf": str(PDF.relative_to(ROOT)), "pages": pages, "chapters": checked}, indent=1))
    print(f"\n{PDF.name}: {pages} pages; {sum(len(c['numbers']) for c in checked.values())} numbered blocks checked")
    assert sum(len(c["numbers"]) for c in checked.values()) > 50, "too few numbered blocks found in the HTML book"
    assert not missing_titles, f"chapter titles missing from the PDF: {missing_titles}"
    assert not missing_numbers, f"numbered blocks of the HTML book missing from the PDF: {missing_numbers[:10]}"


def test_pdf_has_nothing_unresolved_and_no_raw_markup(pdf_text):
    text = normalise(pdf_text)
    assert "??" not in text, f"unresolved reference near: {text[max(0, text.find('??') - 80):text.find('??') + 20]}"
    assert "[?]" not in text, "an unresolved citation ([?])"
    leaked = [m for m in RAW_MARKUP if m in text]
    assert not leaked, f"raw MyST/LaTeX markup in the PDF text: {leaked}"
    for author in ("Rosenblatt", "Novikoff", "Block"):
        assert author in text, f"the bibliography lacks {author}"


def test_solutions_are_collected_at_the_end_of_each_chapter(pdf_text, html_pages):
    """Chapter N's solutions stand together under its "N.k Solutions" heading, after the last
    exercise: the heading directly precedes the first solution, and no exercise block follows it."""
    text = normalise(pdf_text)
    for doc, soup in html_pages.items():
        exercises = [n for n in html_numbers(soup) if n.startswith("Exercise")]
        if not exercises:
            continue
        chapter = exercises[0].split()[1].split(".")[0]
        solutions = [m.start() for n in exercises for m in re.finditer(rf"Solution to {re.escape(n)}\b", text)]
        assert len(solutions) >= len(exercises), f"{doc}: {len(exercises)} exercises, {len(solutions)} solutions"
        headings = [m.end() for m in re.finditer(rf"\b{chapter}\.\d+\.? Solutions\b", text) if m.end() < min(solutions)]
        assert headings and min(solutions) - headings[-1] < 80, \
            f"{doc}: the first solution does not open a 'Solutions' section of chapter {chapter}"
        blocks = [m.start() for m in re.finditer(rf"(?<!Solution to ){re.escape(exercises[-1])}\b", text)]
        assert blocks and min(blocks) < headings[-1], f"{doc}: {exercises[-1]} is not printed before the solutions"


def test_every_slider_is_a_strip_of_frames(pdf_text):
    text = normalise(pdf_text)
    sliders = sum(len(re.findall(r'class="perceptron-slider"', (HTML / f"{doc}.html").read_text(encoding="utf-8")))
                  for doc in toc_chapters())
    strips = re.findall(r"The slider “[^”]+” at (\d+) of its (\d+) positions", text)
    assert sliders > 0
    assert len(strips) == sliders, f"{sliders} sliders in the HTML book, {len(strips)} strips in the PDF"
    assert all(1 < int(shown) <= int(total) for shown, total in strips)


def test_every_html_page_links_the_pdf_which_sits_next_to_the_book(html_pages):
    for doc, soup in html_pages.items():
        links = [a for a in soup.select("a[href]") if a["href"].split("/")[-1] == PDF.name]
        assert links, f"{doc}: no link to {PDF.name} in the page's download menu"
        target = (HTML / doc).parent / links[0]["href"]
        assert target.resolve().is_file(), f"{doc}: the PDF link points at {target}, which `make pdf` did not fill"


def test_every_proof_box_has_a_title_bar_that_says_proof(pdf_text):
    """sphinx-proof's proof admonition has no title; LaTeX printed an empty coloured bar above "Proof."."""
    tex = TEX.read_text(encoding="utf-8")
    untitled = [m.start() for m in re.finditer(r"\\begin\{sphinxadmonition\}\{note\}(?!\{)", tex)]
    assert not untitled, f"{len(untitled)} boxes without a title, first: {tex[untitled[0]:untitled[0] + 200]!r}"
    proofs = tex.count("\\begin{sphinxadmonition}{note}{Proof}")
    sources = sum(len(re.findall(r"\{prf:proof\}", (ROOT / f"{doc}.ipynb").read_text(encoding="utf-8")))
                  for doc in toc_chapters() if doc.startswith("notebooks/"))
    assert proofs >= sources > 10, f"{proofs} proof boxes titled Proof, {sources} proofs in the chapters"
    text = normalise(pdf_text)
    assert "Proof. " not in text, f"a proof still starts 'Proof.': {text[text.find('Proof. ') - 60:][:160]!r}"


def test_slider_passages_speak_of_the_printed_strip(pdf_text):
    text = normalise(pdf_text)
    told = [text[max(0, m.start() - 60):m.end() + 20] for m in DRAG.finditer(text)]
    assert not told, f"the PDF asks the reader to move a slider: {told[:3]}"
    printed = yaml.safe_load(PRINTED.read_text(encoding="utf-8"))
    for doc, entry in printed.items():
        for replacement in (entry.get("prose") or {}).values():
            assert " ".join(replacement.split()) in text, f"{doc}: the PDF lacks {replacement!r}"


def strips(text: str) -> list[tuple[str, list[str]]]:
    """(slider name, the labels its strip prints) of every strip, from its caption."""
    found = re.findall(r"The slider “([^”]+)” at \d+ of its \d+ positions, (.+?) \(the HTML book moves", text)
    return [(name, re.split(r", | and ", shown)) for name, shown in found]


def test_every_frame_the_prose_quotes_is_printed(pdf_text):
    text = normalise(pdf_text)
    shown = strips(text)
    printed = yaml.safe_load(PRINTED.read_text(encoding="utf-8"))
    for doc, entry in printed.items():
        for name, labels in (entry.get("strips") or {}).items():
            prints = [frames for strip, frames in shown if strip == name]
            assert prints, f"{doc}: no strip of the slider {name!r}"
            assert any(set(map(str, labels)) <= set(f) for f in prints), f"{doc}: {name!r} prints {prints}, not {labels}"
    # Chapter 2: "the count of errors goes up at some updates (from 3 to 6 at update 4)": the frames
    # before and after update 4, each titled with its count of errors.
    update = int(re.search(r"from \d+ to \d+ at update (\d+)", text).group(1))
    chapter_2 = [frames for name, frames in shown if name == "update k" and "0" in frames]
    assert len(chapter_2) == 1 and {str(update - 1), str(update)} <= set(chapter_2[0]), shown


def test_pages_are_of_the_paper_asked_for():
    import os

    paper = os.environ.get("PAPER", "letter").lower()
    info = subprocess.run(["pdfinfo", str(PDF)], capture_output=True, text=True, check=True).stdout
    width, height = map(float, re.search(r"^Page size:\s+([\d.]+) x ([\d.]+) pts", info, re.MULTILINE).groups())
    expected = PAGE_SIZES[paper]
    assert abs(width - expected[0]) < 1 and abs(height - expected[1]) < 1, f"PAPER={paper}: pages {width} x {height}"


# A block's title line: "Theorem 6.4 (A lower bound ...)", "Proof", "Solution to Exercise 5.3 (★★★)".
BLOCK_TITLE = re.compile(r"^(?:(?:Theorem|Lemma|Corollary|Proposition|Definition|Algorithm|Remark|Example|Exercise) "
                         r"\d+\.\d+(?: \(.*\))?|Proof|Solution to Exercise \d+\.\d+(?: \(★+\))?)$")
# What pdftotext prints after a page's text: its number and its running head.
RUNNING_HEAD = re.compile(r"^(?:\d+|[ivxlc]+|Chapter \d+\. .*|\d+\.\d+\. .*|.*, Release \d.*)$")


def pdf_pages() -> list[str]:
    out = subprocess.run(["pdftotext", "-enc", "UTF-8", str(PDF), "-"], capture_output=True, text=True, check=True)
    return out.stdout.split("\f")


def test_no_title_of_a_theorem_proof_or_solution_is_left_at_the_foot_of_a_page():
    """A block's title bar as a page's last line, its statement on the next page, is a broken page."""
    stranded = []
    for number, page in enumerate(pdf_pages(), start=1):
        lines = [line.strip() for line in page.splitlines() if line.strip()]
        while lines and RUNNING_HEAD.match(lines[-1]):
            lines.pop()
        if lines and BLOCK_TITLE.match(lines[-1]):
            stranded.append((number, lines[-1]))
    assert not stranded, f"titles at the foot of a page (PDF page, title): {stranded}"


def test_the_proof_index_names_each_block_by_its_number_with_its_page(pdf_text):
    """Not sphinx-proof's internal labels ("ch5-thm-novikoff (notebooks/05_convergence), 92")."""
    text = normalise(pdf_text)
    labels = re.findall(r"\b[a-z0-9]+(?:-[a-z0-9]+)+ \((?:notebooks|book)/[\w/]+\)", text)
    assert not labels, f"the proof index lists internal labels: {labels[:3]}"
    entry = re.search(r"Theorem 5\.1 \(Novikoff’s mistake bound\),? (\d+)", text)
    assert entry, "the proof index has no entry 'Theorem 5.1 (Novikoff’s mistake bound), <page>'"
    pages = pdf_pages()
    where = [page for page in pages if "Theorem 5.1 (Novikoff’s mistake bound)" in page and "Proof Index" not in page]
    printed = [line.strip() for line in where[0].splitlines() if re.fullmatch(r"\d+", line.strip())]
    assert entry.group(1) in printed, f"the index says page {entry.group(1)}, the theorem is on page {printed}"


def test_quick_check_answers_wait_at_the_end_of_their_chapter(pdf_text, html_pages):
    """On paper nothing folds an answer away: each chapter's quick checks are asked in place and
    answered in a "Quick-check answers" section after its exercises."""
    text = normalise(pdf_text)
    checked = 0
    for doc, soup in html_pages.items():
        exercises = [n for n in html_numbers(soup) if n.startswith("Exercise")]
        heading = soup.find(lambda tag: tag.name in ("h2", "h3") and tag.get_text(" ", strip=True).rstrip("#").strip()
                            .endswith("Quick checks"))
        if not exercises or heading is None:
            continue
        chapter = exercises[0].split()[1].split(".")[0]
        asked = [m.start() for m in re.finditer(rf"Quick check {chapter}\.1\. ", text)]
        assert len(asked) == 2, f"{doc}: 'Quick check {chapter}.1.' printed {len(asked)} times, not asked and answered"
        answers = [m.start() for m in re.finditer(r"Quick-check answers", text) if asked[0] < m.start() < asked[1]]
        first_exercise = text.find(exercises[0], asked[0])
        assert answers and asked[0] < first_exercise < answers[-1], f"{doc}: an answer is printed before the exercises"
        checked += 1
    assert checked >= 9, f"only {checked} chapters with quick checks found"
