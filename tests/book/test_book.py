"""Checks of the built book (_build/html), run by `make test` right after `make book`."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"


def toc_files() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]
    for part in toc.get("parts", []):
        files += [chapter["file"] for chapter in part["chapters"]]
    return files


@pytest.fixture(scope="module")
def built() -> Path:
    assert (HTML / "index.html").exists(), "the book is not built: run `make book` (make test does it first)"
    return HTML


@pytest.mark.parametrize("page", toc_files())
def test_every_toc_page_is_built_without_leftover_errors(built, page):
    path = built / f"{page}.html"
    assert path.exists(), f"{page} is in _toc.yml but {path} was not built"
    text = path.read_text(encoding="utf-8")
    for marker in ("system-message", "Unknown directive", "Traceback (most recent call last)", "CellExecutionError"):
        assert marker not in text, f"{page}.html contains {marker!r}"


@pytest.mark.parametrize("page", [p for p in toc_files() if p.startswith("notebooks/")])
def test_chapters_render_their_math_blocks_and_exercises(built, page):
    text = (built / f"{page}.html").read_text(encoding="utf-8")
    assert re.search(r'class="[^"]*\bproof\b', text), f"{page}: no theorem/definition/proof block rendered"
    assert re.search(r'class="[^"]*\bexercise\b', text), f"{page}: no exercise block rendered"
    assert re.search(r'class="[^"]*\bsolution\b', text), f"{page}: no solution block rendered"
    assert "math notranslate" in text, f"{page}: no math"


def test_references_page_lists_the_bibliography(built):
    text = (built / "book" / "references.html").read_text(encoding="utf-8")
    for key in ("Rosenblatt", "Novikoff", "Block"):
        assert key in text, f"{key} missing from the references page"


def test_static_book_shows_slider_views_not_dead_widgets(built):
    for page in built.glob("notebooks/*.html"):
        text = page.read_text(encoding="utf-8")
        assert "application/vnd.jupyter.widget-view+json" not in text, f"{page.name} embeds a live-widget view"


@pytest.mark.parametrize("page", toc_files())
def test_no_unrendered_dollar_math_in_prose(built, page):
    """A `$` left in the rendered prose means MyST did not recognise a formula (e.g. `$$` glued to text)."""
    from bs4 import BeautifulSoup

    soup = BeautifulSoup((built / f"{page}.html").read_text(encoding="utf-8"), "html.parser")
    article = soup.find("article") or soup
    for tag in article.select("pre, code, script, style, .math, .cell_output, .output, div.highlight"):
        tag.decompose()
    stray = [line.strip() for line in article.get_text("\n").splitlines() if "$" in line]
    assert not stray, f"{page}: unrendered math near: {stray[:3]}"


@pytest.mark.parametrize("page", toc_files())
def test_every_page_is_under_3_mb(built, page):
    size = (built / f"{page}.html").stat().st_size
    assert size < 3_000_000, f"{page}.html is {size / 1e6:.2f} MB (the budget is 3 MB)"


def undescribed_images(html: str) -> list[str]:
    """Content images of a page whose alt text is missing, a file name, or a slider's bare value."""
    import json as _json

    from bs4 import BeautifulSoup

    soup = BeautifulSoup(html, "html.parser")
    article = soup.find("article") or soup
    bad = []
    for img in article.find_all("img"):
        alt = (img.get("alt") or "").strip()
        if not alt or re.search(r"\.(png|svg|jpe?g)\b|_images/|^[0-9a-f]{16,}", alt) or alt.startswith("figure for "):
            bad.append(alt or f"(no alt) {img.get('src', '')[:40]}")
    for slider in article.select("div.perceptron-slider"):
        alts = _json.loads(slider.find("script", type="application/json").string).get("alts", [])
        if len(set(alts)) < len(alts) or any(a.startswith("figure for ") for a in alts):
            bad.append(f"slider frames not each described: {alts[:2]}")
    return bad


@pytest.mark.parametrize("page", [p for p in toc_files() if p.startswith("notebooks/")])
def test_every_figure_and_slider_frame_is_described_in_words(built, page):
    bad = undescribed_images((built / f"{page}.html").read_text(encoding="utf-8"))
    assert not bad, f"{page}: {len(bad)} image(s) without a description, e.g. {bad[:3]}"
