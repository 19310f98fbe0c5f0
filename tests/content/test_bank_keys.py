"""The question banks' answer keys are balanced, and their LMS export reads back (coursebook.banks)."""

from __future__ import annotations

import csv
import re
from collections import Counter
from xml.etree import ElementTree as ET

import pytest

from coursebook import banks

FILES = banks.bank_files()


def keys(text: str) -> list[str]:
    return re.findall(r"^\*\*Answer: ([A-D])\.\*\*", text, flags=re.MULTILINE)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_bank_is_in_the_balanced_order_its_keys_spread_over_the_letters(path):
    text = path.read_text(encoding="utf-8")
    assert banks.balance(text, banks.bank_number(path)) == text, "run `python -m coursebook.banks --write`"
    counts = Counter(keys(text))
    assert max(counts.values()) - min(counts.get(letter, 0) for letter in "ABCD") <= 1, counts


def test_over_all_banks_every_letter_is_the_key_of_about_a_quarter():
    counts = Counter(k for path in FILES for k in keys(path.read_text(encoding="utf-8")))
    total = sum(counts.values())
    assert total >= 60 and all(0.2 <= counts[letter] / total <= 0.3 for letter in "ABCD"), counts


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_options_answers_and_misconceptions_travel_together(path):
    """Moving every key elsewhere and back gives the bank again; each option keeps its misconception
    and its rightness, and a "same as X" still names the same option."""
    number, text = banks.bank_number(path), path.read_text(encoding="utf-8")
    before = {q.name: q for q in banks.questions(path)}
    moved = text
    for start, end, name in reversed(banks.sections(text)):
        key = before[name].answer
        other = "ABCD"[("ABCD".index(key) + 1) % 4]
        moved = moved[:start] + banks.reorder(number, name, moved[start:end], other) + moved[end:]
    assert moved != text and banks.balance(moved, number) == text
    after = {q.name: q for q in banks.parse(moved, number)}
    for name, q in before.items():
        p = after[name]
        assert q.options[q.answer] == p.options[p.answer] and q.answer != p.answer
        meaning = {q.options[k]: v for k, v in q.distractors.items()}
        for k, v in p.distractors.items():
            same = re.search(r"same as ([A-D])", v)
            if same:
                old = re.search(r"same as ([A-D])", meaning[p.options[k]]).group(1)
                assert p.options[same.group(1)] == q.options[old], name
                v, meaning[p.options[k]] = v.replace(same.group(0), ""), meaning[p.options[k]].replace(
                    f"same as {old}", "")
            assert meaning[p.options[k]] == v, name


def test_a_malformed_question_is_named():
    with pytest.raises(ValueError, match="Q1.9: expected four consecutive option lines"):
        banks.reorder(1, "Q1.9", "### Q1.9: x\n\n- **A.** a\n- **B.** b\n\n**Answer: A.**\n", "B")


def test_the_lms_export_reads_back(tmp_path):
    xml, table = banks.export(tmp_path)
    every = [q for path in FILES for q in banks.questions(path)]
    quiz = ET.parse(xml).getroot()
    categories = quiz.findall("question[@type='category']")
    items = quiz.findall("question[@type='multichoice']")
    assert len(categories) == len(FILES) and len(items) == len(every)
    for item, q in zip(items, every, strict=True):
        assert item.findtext("name/text") == f"{q.name} {q.title}"
        answers = item.findall("answer")
        assert [a.get("fraction") for a in answers] == ["100" if k == q.answer else "0" for k in "ABCD"]
        assert item.findtext("shuffleanswers") == "false" and item.findtext("single") == "true"
        shown = " ".join(t.text for t in item.iter("text"))
        assert "{prf:" not in shown and "{doc}" not in shown and "$" not in shown.replace("$course$", "")
        if "$" in q.stem:
            assert "\\(" in item.findtext("questiontext/text"), q.name
    with table.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["id"], r["answer"], r[r["answer"]]) for r in rows] == [
        (q.name, q.answer, q.options[q.answer]) for q in every]


def test_a_same_as_reference_follows_its_option():
    question = ("### Q1.9: synthetic\n\nWhich?\n\n- **A.** alpha\n- **B.** beta\n- **C.** gamma\n- **D.** delta\n\n"
                "**Answer: B.** Because.\n\n**Distractors.**\n- A: first misconception of the option.\n"
                "- C: same as A; and more words to be long enough.\n- D: third misconception of the option.\n")
    moved = set()
    for target in "ABCD":
        (q,) = banks.parse(banks.reorder(1, "Q1.9", question, target), 1)
        alpha = next(k for k, v in q.options.items() if v == "alpha")
        gamma = next(k for k, v in q.options.items() if v == "gamma")
        assert q.options[q.answer] == "beta" and q.answer == target
        assert q.distractors[gamma].startswith(f"same as {alpha};"), q.distractors
        moved.add(alpha)
    assert moved != {"A"}
