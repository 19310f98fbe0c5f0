"""The timings and session plans on book/instructors.md (and the reading times on book/intro.md) are measured
from the chapters and fit."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys

import pytest

from coursebook import CHAPTERS, ROOT
from coursebook import plan as course_plan


def test_instructor_page_shows_the_measured_times_and_plans():
    page = (ROOT / "book" / "instructors.md").read_text(encoding="utf-8")
    assert course_plan.section() in page, "run `python -m coursebook.plan --write`"


def test_every_chapter_is_measured_and_counted():
    measured = course_plan.chapters()
    assert [c.name for c in measured] == [p.stem for p in CHAPTERS]
    for chapter in measured:
        assert chapter.prose_words > 500 and chapter.formal_blocks >= 3, chapter
        assert sum(chapter.exercises.values()) >= 4 and chapter.misconceptions >= 2, chapter
        assert chapter.class_minutes() > 0 and chapter.home > chapter.reading > 0


def test_every_session_of_every_plan_fits_in_90_minutes_with_its_slack():
    made = course_plan.plans()
    for name, plan in made.items():
        assert max(plan.session_minutes()) + course_plan.SLACK <= course_plan.SESSION_MINUTES, (name, plan)
        assert min(plan.spare()) >= course_plan.SLACK
        # core path by default: a chapter's class time is that of its core path
        for piece in (p for s in plan.sessions for p in s):
            assert not piece.optional
            assert piece.minutes == course_plan.by_number(course_plan.chapters())[piece.chapter].class_minutes(False)
    assert {name: len(plan.sessions) for name, plan in made.items()} == {"three": 3, "five": 5, "six": 6}


def test_the_old_plans_did_not_fit_and_the_pairs_that_fit_are_measured():
    measured = course_plan.chapters()
    chapters = {int(c.name[:2]): c for c in measured}
    fits = [pair for pair in itertools.combinations(sorted(chapters), 2)
            if sum(chapters[c].class_minutes(False) for c in pair) + course_plan.IN_CLASS_EXERCISE
            + course_plan.SLACK <= course_plan.SESSION_MINUTES]
    assert fits == course_plan.fitting_pairs(measured) and (1, 2) in fits
    for a, b in fits:                   # the page names every pair that fits (chapter 1's, and the others)
        assert str(b) in course_plan.section(measured).split("Chapter 1 is short")[1].split("\n\n")[0]
    # The former five-session plans paired chapters 3 and 4, and 6 and 8; since chapter 4's core path
    # was cut (issue 32) the first pair fits, and the page says so; the second still does not.
    assert (3, 4) in fits
    assert course_plan.pair_minutes(measured, (6, 8)) + course_plan.SLACK > course_plan.SESSION_MINUTES
    # The former three-session plan taught chapters 4 and 5 whole in one session (instructors.md: "163
    # minutes of class"); since issue 32 their core paths alone fit one session, so it is measured whole.
    whole = sum(chapters[c].class_minutes() for c in (4, 5)) + course_plan.IN_CLASS_EXERCISE
    assert whole + course_plan.SLACK > course_plan.SESSION_MINUTES


def test_the_home_page_states_the_measured_reading_times():
    """book/intro.md gives each chapter's home reading minutes, and the rates they come from."""
    intro = (ROOT / "book" / "intro.md").read_text(encoding="utf-8")
    section = " ".join(intro.split("## How to read it", 1)[1].split("\n## ", 1)[0].split())
    stated = {name: (core, whole or core) for name, core, whole in re.findall(
        r"\{doc\}`\.\./notebooks/(\d\d_\w+)`, about (\d+) minutes(?: on its core path, (\d+) in all)?",
        section)}
    measured = {c.name: (str(c.core_reading), str(c.reading)) for c in course_plan.chapters()}
    assert stated == measured, "book/intro.md: use the home reading minutes of `python -m coursebook.plan`"
    for name, (core, whole) in measured.items():   # one number only where the core is the whole chapter
        assert (f"{core} minutes on its core path, {whole} in all" in section) == (core != whole), name
    assert f"prose at {course_plan.PROSE_WPM} words per minute" in section
    assert f"proofs at {course_plan.FORMAL_WPM} words per minute" in section
    assert course_plan.MINUTES_PER_CODE_CELL == 1 and "one minute per code cell" in section


def test_a_timetable_for_any_reasonable_grid_fits_or_says_why():
    """`make plan SESSIONS=n MINUTES=m`: every session fits, the core is taught whole and in order."""
    measured = course_plan.chapters()
    made = refused = 0
    for sessions in range(1, 13):
        for minutes in range(20, 181, 5):
            try:
                plan = course_plan.timetable(sessions, minutes, measured)
            except ValueError as error:
                assert "minutes" in str(error), error
                refused += 1
                continue
            made += 1
            assert len(plan.sessions) == sessions
            assert all(m + plan.slack <= minutes for m in plan.session_minutes()), (sessions, minutes, plan)
            order = [p.chapter for s in plan.sessions for p in s]
            assert order == sorted(order), (sessions, minutes, order)
            taught = set(order)
            assert set(course_plan.CORE) <= taught and not taught & set(plan.reading + plan.labs)
            for chapter in taught:
                pieces = [p for s in plan.sessions for p in s if p.chapter == chapter]
                assert sum(p.minutes for p in pieces) == course_plan.by_number(measured)[chapter].class_minutes(False)
                assert [p.part for p in pieces] == list(range(1, len(pieces) + 1))
                assert {p.parts for p in pieces} == {len(pieces)}
    assert made > 250 and refused > 0, (made, refused)


def test_the_timetable_for_the_books_own_grids_is_the_page_plan():
    for name, sessions in (("three", 3), ("five", 5), ("six", 6)):
        plan = course_plan.timetable(sessions, course_plan.SESSION_MINUTES)
        assert plan.sessions == course_plan.plans()[name].sessions, name


def test_a_timetable_refuses_what_is_not_a_timetable():
    for bad in (0, -1, True, 2.5, "3"):
        with pytest.raises(ValueError, match="positive whole number"):
            course_plan.timetable(bad, 90)
        with pytest.raises(ValueError, match="positive whole number"):
            course_plan.timetable(3, bad)
    with pytest.raises(ValueError, match="at least 35"):
        course_plan.timetable(10, 30)
    with pytest.raises(ValueError, match="the core .* more sessions or longer ones"):
        course_plan.timetable(1, 60)


def test_make_plan_prints_the_timetable_with_its_caveat():
    done = subprocess.run(["make", "--no-print-directory", "-s", "plan", "SESSIONS=4", "MINUTES=75"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    rows = [line for line in done.stdout.splitlines() if re.match(r"\| \d+ \|", line)]
    assert len(rows) == 4 and "word-count model" in done.stdout, done.stdout
    assert "left for questions" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "coursebook.plan", "--sessions", "four"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert bad.returncode != 0 and "positive whole number" in bad.stderr


def test_the_core_path_leaves_out_optional_sections_and_proofs(tmp_path):
    """core_reading counts the words up to an "(optional)" heading and again after the next heading
    of the same or a higher level; an optional proof and a code cell inside the section do not count."""
    def md(text):
        return {"cell_type": "markdown", "metadata": {}, "source": text}
    words = " ".join(["w"] * 120)                     # one minute of prose
    cells = [md(f"# T\n\n{words}\n\n## Skip (optional)\n\n{words}\n\n### Deeper\n\n{words}"),
             {"cell_type": "code", "metadata": {}, "source": "1", "outputs": [], "execution_count": None},
             md(f"## Back\n\n{words}\n\n```{{prf:proof}}\n:class: dropdown, optional\n\n"
                + " ".join(["p"] * 400) + "\n```\n")]
    path = tmp_path / "99_x.ipynb"
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    chapter = course_plan.measure(path)
    assert chapter.core[2] == 0 and chapter.code_cells == 1
    assert chapter.core_reading == 2 and chapter.reading > 12


def test_a_gated_solution_and_a_removed_cell_are_not_read(tmp_path):
    """The cells between {solution-start} and {solution-end} (a solution's prose and executed code, folded
    in the book and absent from the student edition) and a cell tagged remove-cell (never shown) count
    neither in the core path nor in the whole chapter's reading."""
    def md(text):
        return {"cell_type": "markdown", "metadata": {}, "source": text}

    def code(tags=()):
        return {"cell_type": "code", "metadata": {"tags": list(tags)}, "source": "1", "outputs": [],
                "execution_count": None}
    words = " ".join(["w"] * 120)                     # one minute of prose
    cells = [code(["remove-cell"]), md(f"# T\n\n{words}"),
             md("```{exercise}\n:label: e\n\nDo it.\n```\n\n```{solution-start} e\n:class: dropdown\n```"),
             md(" ".join(["s"] * 1200)), code(), code(), md("```{solution-end}\n```"), md(words), code()]
    path = tmp_path / "99_x.ipynb"
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    chapter = course_plan.measure(path)
    assert chapter.code_cells == 1 and chapter.core[2] == 1
    assert chapter.core_reading == chapter.reading == 3


def test_four_sessions_of_75_minutes_are_even_and_keep_time_for_questions():
    """The issue's case: before, chapter 1 alone (39 of 75), then 62, 70 and chapter 5 at 75 of 75 with
    two optional proofs. Now the core path, every session keeping at least SLACK minutes free, and a note
    where whole chapters cannot be evened out."""
    plan = course_plan.timetable(4, 75)
    # The core path's chapters 1, 2 and 4, 5 (cut in issue 32) share a session each, in order.
    assert [[p.chapter for p in s] for s in plan.sessions][:2] == [[1, 2], [4, 5]]
    assert min(plan.spare()) >= course_plan.SLACK and max(plan.session_minutes()) < 75
    assert not any(p.optional for s in plan.sessions for p in s)
    text = course_plan.timetable_markdown(plan)
    assert f"at least {course_plan.SLACK} minutes left for questions" in text


def test_timetables_are_as_even_as_whole_chapters_allow():
    """No other cut of the same chapters, in order, into the same sessions has a shorter longest session."""
    measured = course_plan.chapters()
    numbered = course_plan.by_number(measured)
    for sessions, minutes in ((3, 90), (4, 75), (5, 90), (6, 90), (4, 120), (3, 150), (2, 150)):
        plan = course_plan.timetable(sessions, minutes, measured)
        if any(p.parts > 1 for s in plan.sessions for p in s):
            continue
        order = [p.chapter for s in plan.sessions for p in s]
        times = [numbered[c].class_minutes(False) for c in order]
        longest = max(plan.session_minutes()) - course_plan.IN_CLASS_EXERCISE
        for cuts in itertools.combinations(range(1, len(order)), min(sessions, len(order)) - 1):
            edges = [0, *cuts, len(order)]
            assert max(sum(times[a:b]) for a, b in itertools.pairwise(edges)) >= longest, (sessions, minutes)


def test_an_instructor_chooses_chapters_and_optional_parts_per_session(tmp_path):
    plan = course_plan.chosen("1+, 2 | 4 | 5", 90)
    numbered = course_plan.by_number(course_plan.chapters())
    assert [[(p.chapter, p.optional) for p in s] for s in plan.sessions] == [[(1, True), (2, False)], [(4, False)],
                                                                              [(5, False)]]
    assert plan.sessions[0][0].minutes == numbered[1].class_minutes(True) > numbered[1].class_minutes(False)
    assert 3 in plan.reading and 8 in plan.labs
    # One minute short of chapters 1 and 2's core path, the in-class exercise and SLACK: refused.
    short = sum(numbered[c].class_minutes(False) for c in (1, 2)) + course_plan.IN_CLASS_EXERCISE + course_plan.SLACK - 1
    with pytest.raises(ValueError, match=rf"session 1 \(chapters 1, 2\) needs .* more than {short}"):
        course_plan.chosen("1, 2 | 4 | 5", short)
    with pytest.raises(ValueError, match="session 2: '12' is not a chapter"):
        course_plan.chosen("1 | 12", 90)
    with pytest.raises(ValueError, match="chapter 4 is chosen twice"):
        course_plan.chosen("4 | 4", 90)
    # SLACK=0 lets through the session that SLACK refused above: it fits, with less than SLACK to spare.
    assert 0 <= course_plan.chosen("1, 2 | 4 | 5", short, slack=0).spare()[0] < course_plan.SLACK
    yml = tmp_path / "plan.yml"
    yml.write_text("minutes: 80\nslack: 5\nsessions:\n  - \"1+\"\n  - [2]\n  - \"4\"\n  - \"5\"\n", encoding="utf-8")
    from_file = course_plan.plan_file(yml)
    assert from_file.minutes == 80 and from_file.slack == 5 and from_file.sessions[0][0].optional
    yml.write_text("minutes: 75\nsesions: [1]\n", encoding="utf-8")
    with pytest.raises(ValueError, match="plan.yml: expected a mapping"):
        course_plan.plan_file(yml)


def test_make_plan_takes_the_instructors_chapters():
    done = subprocess.run(["make", "--no-print-directory", "-s", "plan", "CHAPTERS=1+, 2 | 4 | 5", "MINUTES=90"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert "chapter 1 with its optional parts" in done.stdout
    numbered = course_plan.by_number(course_plan.chapters())
    short = sum(numbered[c].class_minutes(False) for c in (1, 2)) + course_plan.IN_CLASS_EXERCISE + course_plan.SLACK - 1
    bad = subprocess.run(["make", "--no-print-directory", "-s", "plan", "CHAPTERS=1, 2 | 4 | 5", f"MINUTES={short}"],
                         cwd=ROOT, capture_output=True, text=True, check=False)
    assert bad.returncode != 0 and "session 1 (chapters 1, 2)" in bad.stderr


def test_solution_text_in_the_cells_that_open_and_close_a_gate_is_not_read(tmp_path):
    """A gated solution often starts in its exercise's cell (text after {solution-start}) and ends in a cell
    whose text comes before {solution-end}: that text is the solution too ("exercises and their solutions
    are not part of the words", book/instructors.md), not reading."""
    def md(text):
        return {"cell_type": "markdown", "metadata": {}, "source": text}
    words = " ".join(["w"] * 120)                     # one minute of prose
    solution = " ".join(["s"] * 1200)                 # ten minutes, if it were read
    cells = [md(f"# T\n\n{words}"),
             md(f"```{{exercise}}\n:label: e\n\nDo it.\n```\n\n```{{solution-start}} e\n:class: dropdown\n```\n\n{solution}"),
             {"cell_type": "code", "metadata": {}, "source": "1", "outputs": [], "execution_count": None},
             md(f"{solution}\n\n```{{solution-end}}\n```\n\n{words}")]
    path = tmp_path / "99_x.ipynb"
    path.write_text(json.dumps({"cells": cells}), encoding="utf-8")
    chapter = course_plan.measure(path)
    assert chapter.prose_words == chapter.core[0] == 2 + 240      # "# T" and the two paragraphs
    assert chapter.core_reading == chapter.reading == 2 and chapter.code_cells == 0
