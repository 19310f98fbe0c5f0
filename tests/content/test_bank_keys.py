"""The question banks' answer keys are balanced, and their LMS exports read back (coursebook.banks)."""

from __future__ import annotations

import csv
import os
import re
import shutil
import subprocess
import sys
import zipfile
from collections import Counter
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from coursebook import banks

FILES = banks.bank_files()


def keys(path) -> list[str]:
    return [q.answer for q in banks.questions(path)]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_each_bank_is_in_the_balanced_order_its_keys_spread_over_the_letters(path):
    text = path.read_text(encoding="utf-8")
    assert banks.balance(text, banks.bank_number(path)) == text, "run `python -m coursebook.banks --write`"
    counts = Counter(keys(path))
    assert max(counts.values()) - min(counts.get(letter, 0) for letter in "ABCD") <= 1, counts


def test_over_all_banks_every_letter_is_the_key_of_about_a_quarter():
    counts = Counter(k for path in FILES for k in keys(path))
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


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    return banks.export(tmp_path_factory.mktemp("banks"))


def test_the_lms_export_reads_back(exported):
    xml, table = exported[:2]
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


# ---- Canvas: text2qti's QTI 1.2 packages, read back ------------------------------------------------

QTI = {"q": "http://www.imsglobal.org/xsd/ims_qtiasiv1p2"}
MANIFEST = {"m": "http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1"}
TYPOGRAPHY = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2013": "--",
                            "\u2014": "---", "\u2026": "..."})


class _Shown(HTMLParser):
    """The text an HTML fragment shows, with Canvas's equation images as their ``$LaTeX$``."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "img":
            assert "equation_image" in attrs.get("class", ""), attrs
            assert attrs["src"].startswith("/equation_images/"), attrs
            self.parts.append(f"${attrs['data-equation-content']}$")

    def handle_data(self, data):
        self.parts.append(data)


def shown(fragment: str | None) -> str:
    parser = _Shown()
    parser.feed(fragment or "")
    parser.close()
    return " ".join("".join(parser.parts).translate(TYPOGRAPHY).split())


def written(markdown: str, labels: dict[str, str]) -> str:
    """What a reader should see of a bank's Markdown: roles as words, no emphasis or code marks."""
    text = banks._plain_roles(markdown, labels)
    text = re.sub(r"(?<![\\$])[*`]", "", text)
    return " ".join(text.split())


def canvas_items(package):
    with zipfile.ZipFile(package) as archive:
        manifest = ET.fromstring(archive.read("imsmanifest.xml"))
        resources = manifest.findall("m:resources/m:resource[@type='imsqti_xmlv1p2']", MANIFEST)
        assert len(resources) == 1, package
        href = resources[0].find("m:file", MANIFEST).get("href")
        assessment = ET.fromstring(archive.read(href))  # the file the manifest names is in the zip
        meta = archive.read(href.rsplit("/", 1)[0] + "/assessment_meta.xml").decode()
    assert "<shuffle_answers>false</shuffle_answers>" in meta, "options must stay in the bank's order"
    return assessment, assessment.findall(".//q:item", QTI)


def test_every_bank_has_a_canvas_quiz(exported):
    zips = sorted(p.name for p in exported if p.suffix == ".zip")
    assert zips == [f"{p.stem}.zip" for p in FILES if banks.questions(p)] and len(zips) == len(FILES)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_the_canvas_qti_reads_back_as_the_bank(path, exported):
    """Each item of the bank's QTI zip has the question's title, stem and options in order (math as
    Canvas equation images holding the bank's LaTeX), 100 points only for the bank's key, the
    explanation as feedback and each wrong option's misconception as that option's feedback."""
    labels = banks._chapter_labels()
    bank = banks.questions(path)
    (package,) = [p for p in exported if p.name == f"{path.stem}.zip"]
    assessment, items = canvas_items(package)
    assert assessment.find("q:assessment", QTI).get("title") == f"Perceptron, {banks.bank_title(path)}"
    assert len(items) == len(bank)
    for item, q in zip(items, bank, strict=True):
        assert item.get("title") == f"{q.name} {q.title}"
        assert shown(item.findtext("q:presentation/q:material/q:mattext", namespaces=QTI)) == written(
            q.stem, labels), q.name
        labels_ = item.findall(".//q:response_label", QTI)
        assert [shown(x.findtext(".//q:mattext", namespaces=QTI)) for x in labels_] == [
            written(q.options[k], labels) for k in banks.LETTERS], q.name
        ids = [x.get("ident") for x in labels_]
        scored = [c.findtext("q:conditionvar/q:varequal", namespaces=QTI)
                  for c in item.findall("q:resprocessing/q:respcondition", QTI)
                  if c.findtext("q:setvar", namespaces=QTI) == "100"]
        assert scored == [ids[banks.LETTERS.index(q.answer)]], q.name
        feedback = {f.get("ident"): shown(f.findtext(".//q:mattext", namespaces=QTI))
                    for f in item.findall("q:itemfeedback", QTI)}
        assert feedback["general_fb"] == written(q.explanation, labels), q.name
        for k, ident in zip(banks.LETTERS, ids, strict=True):
            if k != q.answer:
                assert feedback[f"{ident}_fb"] == written(q.distractors[k], labels), (q.name, k)
        if "$" in q.stem:
            assert "equation_image" in item.findtext("q:presentation/q:material/q:mattext", namespaces=QTI)


def test_a_text2qti_error_names_the_quiz():
    with pytest.raises(ValueError, match="bank_99.txt: text2qti"):
        banks.canvas_qti("Quiz title: x\n\n1.  Which?\n*a) yes\n*b) yes\n", "bank_99.txt")


def test_the_text2qti_command_converts_an_exported_quiz_again(exported, tmp_path):
    """What instructors.md tells an instructor to do after editing: `text2qti bank_NN.txt`."""
    command = Path(sys.executable).with_name("text2qti")
    assert command.exists(), "text2qti's command is not installed next to this Python"
    (source,) = [p for p in exported if p.name == f"{FILES[0].stem}.txt"]
    shutil.copy(source, tmp_path / source.name)
    env = {**os.environ, "HOME": str(tmp_path)}  # text2qti writes its config file into HOME
    subprocess.run([str(command), source.name], cwd=tmp_path, env=env, check=True, capture_output=True)
    _, items = canvas_items(tmp_path / f"{FILES[0].stem}.zip")
    assert [item.get("title") for item in items] == [f"{q.name} {q.title}" for q in banks.questions(FILES[0])]


def test_every_export_carries_the_cc_by_licence(exported):
    """LICENSE-TEXT: the banks are CC BY 4.0. text2qti's manifest says "Private (Copyrighted)" unless set."""
    assert banks.CC_BY in banks.notice() and "CC BY 4.0" in banks.notice()
    xml = next(p for p in exported if p.name == "moodle.xml").read_text(encoding="utf-8")
    quiz = ET.fromstring(xml)
    infos = [c.findtext("info/text") for c in quiz.findall("question[@type='category']")]
    assert infos and all(banks.notice() == info for info in infos) and banks.notice() in xml.split("<quiz>")[0]
    for package in (p for p in exported if p.suffix == ".zip"):
        with zipfile.ZipFile(package) as archive:
            manifest = archive.read("imsmanifest.xml").decode()
        assert "Private (Copyrighted)" not in manifest and f"CC Attribution - {banks.CC_BY}" in manifest, package.name
    for source in (p for p in exported if p.suffix == ".txt"):
        assert banks.notice() in source.read_text(encoding="utf-8").split("\n")[1], source.name
