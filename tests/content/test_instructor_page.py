"""The instructors' page covers every numbered chapter: a learning outcome and homework exercises each,
the exercises named by labels that the chapter defines."""

from __future__ import annotations

import json
import re

from coursebook import CHAPTERS, ROOT

PAGE = ROOT / "book" / "instructors.md"


def section(title: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    start = text.index(f"## {title}")
    return text[start:text.index("\n## ", start + 1)]


def test_every_chapter_has_a_learning_outcome():
    outcomes = section("Learning outcomes")
    for number, chapter in enumerate(CHAPTERS, start=1):
        assert re.search(rf"^{number}\. \*\*[^*]+\*\* \(\{{doc\}}`\.\./notebooks/{chapter.stem}`\)", outcomes, re.MULTILINE), \
            f"no learning outcome for chapter {number} ({chapter.stem})"


def test_every_chapter_has_homework_exercises_that_it_defines():
    rows = dict(re.findall(r"^\| (\d+) \| (.+) \|$", section("Exercises for homework"), flags=re.MULTILINE))
    for number, chapter in enumerate(CHAPTERS, start=1):
        assert str(number) in rows, f"no homework exercises listed for chapter {number}"
        labels = re.findall(r"<([\w-]+)>`", rows[str(number)])
        source = json.loads(chapter.read_text(encoding="utf-8"))
        defined = {m for c in source["cells"] for m in re.findall(r":label: ([\w-]+)", "".join(c["source"]))}
        assert labels and set(labels) <= defined, (number, labels)
