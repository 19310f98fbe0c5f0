"""The timings and session plans on book/instructors.md (and the reading times on book/intro.md) are measured
from the chapters and fit."""

from __future__ import annotations

import itertools
import re

from coursebook import ROOT
from coursebook import plan as course_plan


def test_instructor_page_shows_the_measured_times_and_plans():
    page = (ROOT / "book" / "instructors.md").read_text(encoding="utf-8")
    assert course_plan.section() in page, "run `python -m coursebook.plan --write`"


def test_every_chapter_is_measured_and_counted():
    measured = course_plan.chapters()
    assert [c.name for c in measured] == [p.stem for p in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))]
    for chapter in measured:
        assert chapter.prose_words > 500 and chapter.formal_blocks >= 3, chapter
        assert sum(chapter.exercises.values()) >= 4 and chapter.misconceptions >= 2, chapter
        assert chapter.class_minutes() > 0 and chapter.home > chapter.reading > 0


def test_every_session_of_every_plan_fits_in_90_minutes():
    for plan in course_plan.PLANS:
        minutes = course_plan.session_minutes(plan)
        assert max(minutes) <= course_plan.SESSION_MINUTES, (plan, minutes)
    sessions = {name: len(spec["sessions"]) for name, spec in course_plan.PLANS.items()}
    assert sessions == {"three": 3, "five": 5, "six": 6}


def test_the_old_plans_did_not_fit_and_the_pairs_that_fit_are_measured():
    measured = course_plan.chapters()
    chapters = {int(c.name[:2]): c for c in measured}
    fits = [pair for pair in itertools.combinations(sorted(chapters), 2)
            if sum(chapters[c].class_minutes() for c in pair) + course_plan.IN_CLASS_EXERCISE
            <= course_plan.SESSION_MINUTES]
    assert fits == course_plan.fitting_pairs(measured) and (1, 2) in fits
    for a, b in fits:                   # the page names every pair that fits (chapter 1's, and the others)
        assert str(b) in course_plan.section(measured).split("Chapter 1 is short")[1].split("\n\n")[0]
    for old in [(4, 5), (3, 4), (6, 8)]:       # the former three- and five-session plans
        assert course_plan.pair_minutes(measured, old) > course_plan.SESSION_MINUTES


def test_the_home_page_states_the_measured_reading_times():
    """book/intro.md gives each chapter's home reading minutes, and the rates they come from."""
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    section = " ".join(intro.split("## How to read it", 1)[1].split("\n## ", 1)[0].split())
    stated = dict(re.findall(r"\{doc\}`\.\./notebooks/(\d\d_\w+)`, about (\d+) minutes", section))
    measured = {chapter.name: str(chapter.reading) for chapter in course_plan.chapters()}
    assert stated == measured, "book/intro.md: use the home reading minutes of `python -m coursebook.plan`"
    assert f"prose at {course_plan.PROSE_WPM} words per minute" in section
    assert f"proofs at {course_plan.FORMAL_WPM} words per minute" in section
    assert course_plan.MINUTES_PER_CODE_CELL == 1 and "one minute per code cell" in section
