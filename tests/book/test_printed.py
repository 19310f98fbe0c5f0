"""The printed book's data and rules (book/printed.yml, book/_ext/coursebook/pdf.py), without building it.

book/printed.yml names, per chapter, the frames a slider's strip must print and the phrases the PDF
prints differently. Here: every chapter and slider it names exists, every label is a position of that
slider, every phrase is in that chapter's prose (else the PDF build warns, which fails it), the strip
keeps the frames asked for, and PAPER accepts letter and a4 only. tests/pdf reads the built PDF back.
"""

from __future__ import annotations

import html
import json
import re
import types
from pathlib import Path

import pytest
import yaml

from coursebook import pdf

ROOT = Path(__file__).resolve().parents[2]
PRINTED = yaml.safe_load((ROOT / "book" / "printed.yml").read_text(encoding="utf-8"))


def sliders(doc: str) -> dict[str, list[str]]:
    """Each slider of a chapter's committed outputs: name -> position labels."""
    nb = json.loads((ROOT / f"{doc}.ipynb").read_text(encoding="utf-8"))
    found = {}
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            page = "".join(out.get("data", {}).get("text/html", ""))
            if 'class="perceptron-slider"' in page:
                name = html.unescape(re.search(r'aria-label="([^"]*)"', page).group(1))
                payload = json.loads(html.unescape(re.search(r'<script type="application/json">(.*?)</script>',
                                                             page, re.DOTALL).group(1)))
                found[name] = payload["labels"]
    return found


def prose(doc: str) -> str:
    nb = json.loads((ROOT / f"{doc}.ipynb").read_text(encoding="utf-8"))
    return " ".join(" ".join("".join(c["source"]).split()) for c in nb["cells"] if c["cell_type"] == "markdown")


@pytest.mark.parametrize("doc", sorted(PRINTED))
def test_printed_entries_name_real_sliders_positions_and_phrases(doc):
    assert (ROOT / f"{doc}.ipynb").exists(), f"{doc} is not a chapter"
    entry = pdf.printed(doc)
    found = sliders(doc)
    for name, labels in entry["strips"].items():
        assert name in found, f"{doc}: no slider {name!r} (sliders: {sorted(found)})"
        assert set(map(str, labels)) <= set(found[name]), f"{doc}: {name!r} has no position {labels}"
        assert len(labels) <= pdf.STRIP_FRAMES
    text = prose(doc).replace("'", "’")   # smartquotes: the PDF's text has ’ where the source has '
    for phrase in entry["prose"]:
        # The PDF build matches a phrase within one run of plain text: emphasis, code or math in the
        # source ends the run, so a phrase written with their marks can never be found there.
        assert not set(phrase) & set("*`$_"), f"{doc}: {phrase!r} spans Markdown markup; quote plain text only"
        assert " ".join(phrase.split()).replace("'", "’") in text, f"{doc}: no longer says {phrase!r}"


def test_every_chapter_with_a_slider_has_its_passages_rewritten():
    chapters = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    missing = [c for c in chapters if sliders(f"notebooks/{c}") and not pdf.printed(f"notebooks/{c}")["prose"]]
    assert not missing, f"chapters with a slider but no printed prose in book/printed.yml: {missing}"


def test_strip_positions_keep_the_required_frames_and_spread_the_rest():
    assert pdf.strip_positions(11) == [0, 3, 7, 10]
    assert pdf.strip_positions(11, required=(3, 4)) == [0, 3, 4, 10]
    assert pdf.strip_positions(16, required=(3, 7, 8, 9)) == [3, 7, 8, 9]
    assert pdf.strip_positions(3, required=(1,)) == [0, 1, 2]
    with pytest.raises(ValueError, match="do not fit"):
        pdf.strip_positions(11, required=(1, 2, 3, 4, 5))
    with pytest.raises(ValueError, match="do not fit"):
        pdf.strip_positions(5, required=(7,))


def test_paper_is_letter_or_a4(monkeypatch):
    class Config:
        def __init__(self):
            self.latex_elements = {"preamble": "x"}

    for given, expected in [("", "letterpaper"), ("letter", "letterpaper"), ("A4", "a4paper")]:
        monkeypatch.setenv("PAPER", given)
        config = Config()
        pdf.paper(None, config)
        assert config.latex_elements == {"preamble": "x", "papersize": expected}
    monkeypatch.setenv("PAPER", "b5")
    with pytest.raises(ValueError, match="letter or a4"):
        pdf.paper(None, Config())


def test_every_box_of_the_pdf_asks_for_room_before_it_starts():
    """A theorem's, proof's or solution's title bar never ends a page (tests/pdf checks the PDF itself)."""
    config = types.SimpleNamespace(latex_elements={"preamble": "x"})
    pdf.keep_titles_with_bodies(None, config)
    pdf.keep_titles_with_bodies(None, config)  # connected once per build, but idempotent
    assert config.latex_elements["preamble"] == "x" + pdf.KEEP_WITH_BODY
