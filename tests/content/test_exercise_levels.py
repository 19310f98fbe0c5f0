"""Difficulty stars on every exercise, optional proofs marked, and the tool that orders exercises.

The built chapters must show each exercise's stars (tools/exercise_levels.py LEVELS) and fold the
proofs listed as optional. The reordering of the chapters' sources by difficulty is done by
`tools/exercise_levels.py --write`; the last test runs it on a copy of the chapters and checks the
result: every exercise in order of stars, every code cell (with its outputs) kept, unique cell ids.
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
spec = importlib.util.spec_from_file_location("exercise_levels", ROOT / "tools" / "exercise_levels.py")
levels = importlib.util.module_from_spec(spec)
sys.modules["exercise_levels"] = levels
spec.loader.exec_module(levels)


@pytest.mark.parametrize("chapter", levels.CHAPTERS, ids=lambda p: p.stem)
def test_every_exercise_has_one_to_three_stars(chapter):
    found = [label for label, _ in levels.exercises(json.loads(chapter.read_text(encoding="utf-8")))]
    table = levels.LEVELS[chapter.stem]
    assert sorted(found) == sorted(table), "an exercise without stars, or a star for a missing exercise"
    assert set(table.values()) <= {1, 2, 3} and len(set(table.values())) >= 2


@pytest.mark.parametrize("chapter", levels.CHAPTERS, ids=lambda p: p.stem)
def test_built_chapter_shows_the_stars_and_the_optional_proofs(chapter):
    page = HTML / "notebooks" / f"{chapter.stem}.html"
    assert page.exists(), "the book is not built: run `make book`"
    text = page.read_text(encoding="utf-8")
    shown = re.findall(r'id="([^"]+)"[^>]*>\s*<p class="admonition-title"><span class="caption-number">'
                       r'Exercise [\d.]+ </span> \((★+)\)', text)
    table = levels.LEVELS[chapter.stem]
    assert {label: len(s) for label, s in shown} == table
    optional = len(levels.OPTIONAL_PROOFS.get(chapter.stem, []))
    assert len(re.findall(r'class="proof optional admonition"', text)) == optional
    assert text.count("Optional: an introductory course can skip this proof.") == optional


def test_write_orders_a_copy_of_the_chapters_by_difficulty(tmp_path, monkeypatch):
    copies = []
    for path in levels.CHAPTERS:
        shutil.copy(path, tmp_path / path.name)
        copies.append(tmp_path / path.name)
    monkeypatch.setattr(levels, "CHAPTERS", copies)
    levels.write()
    assert levels.check() == []
    for original, copy in zip(sorted(levels.LEVELS), copies):
        before = json.loads((ROOT / "notebooks" / copy.name).read_text(encoding="utf-8"))
        after = json.loads(copy.read_text(encoding="utf-8"))
        ids = [c.get("id") for c in after["cells"]]
        assert len(set(ids)) == len(ids) and all(c["cell_type"] in ("markdown", "code") for c in after["cells"])
        key = lambda c: json.dumps(c, sort_keys=True)
        code = lambda nb: sorted(key(c) for c in nb["cells"] if c["cell_type"] == "code")
        assert code(before) == code(after), f"{copy.name}: a code cell or its outputs changed"
