"""The private quiz (perceptron_homework.quiz, `make quiz`): numbers redrawn by the secret, keys recomputed here."""

from __future__ import annotations

import itertools
import math
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest

from coursebook import banks
from perceptron_homework import quiz

ROOT = Path(__file__).resolve().parents[2]
SECRETS = ("first class secret: quokka", "another term, another secret")
REDRAWN = {"Q1.1", "Q1.2", "Q1.4", "Q1.6", "Q1.7", "Q2.1", "Q2.5", "Q2.6", "Q4.1", "Q4.2", "Q5.2", "Q6.9", "Q6.10",
           "Q7.2", "Q7.3", "Q9.1", "Q9.2", "Q9.5", "Q10.2", "Q11.1", "Q11.3", "Q11.6", "Q11.8"}
# Redrawn with ``key: fixed``: the right option states no drawn number ("it does not change"), the stem does.
FIXED_KEY = {"Q1.4", "Q2.6", "Q7.3", "Q9.1", "Q9.5", "Q10.2"}


def number(text: str) -> float:
    return float(re.search(r"-?\d+(?:\.\d+)?", text).group(0))


def vector(text: str, name: str) -> np.ndarray:
    return np.array([float(x) for x in re.search(rf"{name} = \(([^()]*)\)", text).group(1).split(",")])


def scalar(text: str, pattern: str) -> float:
    return float(re.search(pattern, text).group(1))


def sqrt_value(text: str) -> float:
    found = re.search(r"\\sqrt\{(\d+)\}", text)
    return math.sqrt(float(found.group(1))) if found else number(text)


# Each question's key, recomputed here from its stem alone (not with the declarations or bank_numbers).
def key_q1_1(q):
    w, b = vector(q.stem, "w"), scalar(q.stem, r"\$b = (\d+)\$")
    return b / np.linalg.norm(w), number(q.options[q.answer])


def key_q1_7(q):
    x = vector(q.stem, r"\$x")
    return math.sqrt(x @ x + 1), sqrt_value(q.options[q.answer])


def key_q5_2(q):
    R, gamma = scalar(q.stem, r"R = ([\d.]+)"), scalar(q.stem, r"\\gamma = ([\d.]+)")
    return (R / gamma) ** 2, number(q.options[q.answer])


def key_q6_9(q):
    R, gamma = scalar(q.stem, r"R = ([\d.]+)"), scalar(q.stem, r"\\gamma = ([\d.]+)")
    assert "No deterministic learner" in q.options[q.answer]
    return (R / gamma) ** 2, number(q.options[q.answer])


def key_q6_10(q):
    n, M = scalar(q.stem, r"n = (\d+)"), scalar(q.stem, r"M = (\d+)")
    delta = 1 - scalar(q.stem, r"at least \$([\d.]+)\$")
    shown = float(re.search(r"\\approx ([\d.]+)", q.options[q.answer]).group(1))
    return M / n + math.sqrt(2 * math.log(1 / delta) / n), shown


def key_q9_2(q):
    n, d, K = (scalar(q.stem, r"(\d+) points"), scalar(q.stem, r"\\mathbb\{R\}\^(\d+)"),
               scalar(q.stem, r"(\d+) classes"))
    points, coordinates = map(float, re.match(r"(\d+) points with (\d+) coordinates", q.options[q.answer]).groups())
    assert coordinates == K * (d + 1)
    return n * (K - 1), points


def key_q1_2(q):
    """The options that are the same classifier: (w', b') a positive multiple of (w, b)."""
    v = np.append(vector(q.stem, r"\$w"), scalar(q.stem, r"\$b = (-?\d+)"))
    same = []
    for letter, text in q.options.items():
        v2 = np.append(vector(text, "w'"), scalar(text, r"b' = (-?\d+)"))
        if np.linalg.matrix_rank(np.array([v, v2])) == 1 and v @ v2 > 0:
            same.append(letter)
    return same, [q.answer]


def key_q1_6(q):
    """The key's predictions on random points against the nearest-mean rule's."""
    plus, minus = vector(q.stem, r"c_\+"), vector(q.stem, "c_-")
    w, b = vector(q.options[q.answer], "w"), scalar(q.options[q.answer], r"b = (-?\d+)")
    points = np.random.default_rng(0).normal(size=(500, 2)) * 10
    nearest = [bool(np.linalg.norm(x - plus) < np.linalg.norm(x - minus)) for x in points]
    return nearest, [bool(x @ w + b > 0) for x in points]


def key_q4_2(q):
    p, n = vector(q.stem, "p"), vector(q.stem, r"\$q")
    return np.linalg.norm(p - n) / 2, number(q.options[q.answer])


def key_q7_2(q):
    d = int(scalar(q.stem, r"\\mathbb\{R\}\^(\d+)"))
    monomials = {tuple(sorted(c)) for k in range(3) for c in itertools.product(range(d), repeat=k)}
    return len(monomials), number(q.options[q.answer])


def key_q11_1(q):
    return math.log2(scalar(q.stem, r"= (\d+)\$ hypotheses")), number(q.options[q.answer])


def key_q11_3(q):
    experts, best = scalar(q.stem, r"\|\\mathcal E\| = (\d+)"), scalar(q.stem, r"M\^\\star = (\d+)")
    return round((best + math.log2(experts)) / math.log2(4 / 3), 1), number(q.options[q.answer])


def key_q11_6(q):
    size, d = scalar(q.stem, r"\|S\| = (\d+)"), scalar(q.stem, r"d = (\d+)")
    return 3 * size * math.ceil(math.log2(d)) + 1, number(q.options[q.answer])


def key_q11_8(q):
    R, gamma = scalar(q.stem, r"R = ([\d.]+)"), scalar(q.stem, r"\\gamma = ([\d.]+)")
    assert f"d \\ge {round((R / gamma) ** 2)}" in q.stem
    return (R / gamma) ** 2, number(q.options[q.answer])


def key_factor(q):
    """Q4.1: the factor of the stem multiplies the functional margin only."""
    c = scalar(q.stem, r"\((\d+)\\,w")
    assert q.options[q.answer].startswith("The functional margin is multiplied")
    return c, number(q.options[q.answer])


def key_q2_1(q):
    eta = scalar(q.stem, r"\\eta = ([\d.]+)\$, one with")
    return eta, number(q.options[q.answer].split("weights are")[1])


def key_q2_5(q):
    x = vector(q.stem, "x_1")
    w, b = vector(q.options[q.answer], "w"), scalar(q.options[q.answer], r"b = (-?\d+)")
    return tuple(x) + (1.0,), tuple(w) + (b,)


KEYS = {"Q1.1": key_q1_1, "Q1.7": key_q1_7, "Q5.2": key_q5_2, "Q6.9": key_q6_9, "Q6.10": key_q6_10,
        "Q9.2": key_q9_2, "Q1.2": key_q1_2, "Q1.6": key_q1_6, "Q4.2": key_q4_2, "Q7.2": key_q7_2,
        "Q11.1": key_q11_1, "Q11.3": key_q11_3, "Q11.6": key_q11_6, "Q11.8": key_q11_8, "Q4.1": key_factor,
        "Q2.1": key_q2_1, "Q2.5": key_q2_5}


def agree(expected, shown, name) -> bool:
    if isinstance(expected, (list, tuple)):
        return list(expected) == list(shown)
    return abs(expected - shown) <= (5e-4 if name == "Q6.10" else 1e-9)


def private(secret: str) -> dict[str, banks.Question]:
    return {q.name: q for path, text in quiz.private_banks(secret) for q in banks.parse(text, banks.bank_number(path))}


@pytest.fixture(scope="module")
def public():
    return {q.name: q for path in banks.bank_files() for q in banks.questions(path)}


@pytest.fixture(scope="module")
def quizzes():
    return [private(secret) for secret in SECRETS]


def test_the_declared_questions_are_the_redrawn_ones_and_every_draw_checks():
    assert set(quiz.check_banks()) == REDRAWN


@pytest.mark.parametrize("index", [0, 1])
def test_each_key_is_right_recomputed_from_the_drawn_stem(quizzes, index):
    for name, recompute in KEYS.items():
        expected, shown = recompute(quizzes[index][name])
        assert agree(expected, shown, name), (name, expected, shown)


@pytest.mark.parametrize("name", sorted(KEYS))
def test_every_possible_draw_gives_a_key_this_test_recomputes(name):
    path = next(p for p in banks.bank_files() if name in p.read_text(encoding="utf-8"))
    text, bank = path.read_text(encoding="utf-8"), banks.bank_number(path)
    start, end = next((s, e) for s, e, n in banks.sections(text) if n == name)
    spec = quiz.declarations(text)[name]
    for draw in quiz.draws(name, spec):
        q = banks.parse(quiz.substitute(text[start:end], quiz.values(name, spec, draw), spec.get("keep") or []), bank)[0]
        expected, shown = KEYS[name](q)
        assert agree(expected, shown, name), (name, draw, expected, shown)


def test_two_secrets_give_other_numbers_than_the_public_bank_and_than_each_other(public, quizzes):
    for q in quizzes:
        for name in REDRAWN:
            if name in FIXED_KEY:
                assert q[name].options[q[name].answer] == public[name].options[public[name].answer], name
            else:
                assert q[name].options[q[name].answer] != public[name].options[public[name].answer], name
            assert q[name].stem != public[name].stem, name
    assert [quizzes[0][n].stem for n in sorted(REDRAWN)] != [quizzes[1][n].stem for n in sorted(REDRAWN)]
    # The letters are reshuffled too: the public key's letters do not answer the private quiz.
    names = sorted(public)
    assert [quizzes[0][n].answer for n in names] != [public[n].answer for n in names]
    assert [quizzes[0][n].answer for n in names] != [quizzes[1][n].answer for n in names]


def test_the_same_secret_gives_the_same_quiz(quizzes):
    again = private(SECRETS[0])
    assert again == quizzes[0]


def test_an_undeclared_question_keeps_its_text_and_only_its_order_changes(public, quizzes):
    q, p = quizzes[0]["Q3.1"], public["Q3.1"]
    assert q.stem == p.stem and sorted(q.options.values()) == sorted(p.options.values())
    assert q.options[q.answer] == p.options[p.answer]


def one_bank(tmp_path, monkeypatch, old: str, new: str) -> None:
    """Make the quiz read bank 1 alone, with ``old`` replaced by ``new`` in its text."""
    text = (banks.BANKS / "bank_01.md").read_text(encoding="utf-8")
    assert old in text
    (tmp_path / "bank_01.md").write_text(text.replace(old, new, 1), encoding="utf-8")
    monkeypatch.setattr(banks, "bank_files", lambda: [tmp_path / "bank_01.md"])


def test_a_declaration_that_does_not_reproduce_the_public_text_is_refused(tmp_path, monkeypatch):
    one_bank(tmp_path, monkeypatch, '"0.4": t/n', '"0.4": t/n**2')
    with pytest.raises(ValueError, match=r"Q1\.1: the public draw gives \{'0.4': '0.08'\}"):
        quiz.check_banks()


def test_a_draw_whose_explanation_would_be_wrong_is_refused(tmp_path, monkeypatch):
    # Without "5": n, Q1.1's explanation would keep "/ 5" under w = (6, -8): bank_numbers' audit names it.
    one_bank(tmp_path, monkeypatch, ' "5": n,', "")
    with pytest.raises(ValueError, match=r"Q1\.1: the draw .* does not check"):
        quiz.check_banks()


def test_the_public_bank_and_its_export_ignore_the_declarations():
    for path in banks.bank_files():
        text = path.read_text(encoding="utf-8")
        cut = text.split(f"\n## {quiz.SECTION}")[0] + "\n"
        assert banks.parse(text, banks.bank_number(path)) == banks.parse(cut, banks.bank_number(path))


@pytest.fixture(scope="module")
def cli(tmp_path_factory):
    """`perceptron-homework quiz` (what `make quiz` runs) with SECRETS[0] in a file: (its run, its folder)."""
    tmp_path = tmp_path_factory.mktemp("quiz")
    (tmp_path / "secret.txt").write_text(SECRETS[0] + "\n")
    env = {**os.environ, "HOMEWORK_SECRET_FILE": str(tmp_path / "secret.txt")}
    env.pop("HOMEWORK_SECRET", None)
    out = tmp_path / "quiz"
    run = subprocess.run([sys.executable, "-m", "perceptron_homework", "quiz", "--out", str(out)],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=300, check=False)
    return run, out


def contents(folder: Path) -> dict[str, bytes]:
    """Every file's bytes; a zip's by member (text2qti's zips differ only in their timestamps)."""
    found = {}
    for p in sorted(q for q in folder.rglob("*") if q.is_file()):
        if p.suffix == ".zip":
            with zipfile.ZipFile(p) as z:
                found.update({f"{p.relative_to(folder)}:{n}": z.read(n) for n in z.namelist()})
        else:
            found[str(p.relative_to(folder))] = p.read_bytes()
    return found


def test_the_same_secret_writes_the_same_files(cli, tmp_path):
    quiz.write(SECRETS[0], tmp_path / "again")
    assert contents(tmp_path / "again") == contents(cli[1])


def test_make_quiz_writes_every_export_without_printing_the_secret(cli):
    secret = SECRETS[0]
    run, out = cli
    assert run.returncode == 0, run.stderr
    assert secret not in run.stdout + run.stderr and "quokka" not in run.stdout + run.stderr
    files = sorted(p for p in out.rglob("*") if p.is_file())
    assert {p.name for p in files} >= {"moodle.xml", "questions.csv", "bank_01.md", "bank_01_key.md",
                                       "bank_01.txt", "bank_01.zip"}
    for p in files:
        data = p.read_bytes()
        if p.suffix == ".zip":
            with zipfile.ZipFile(p) as z:
                data = b"".join(z.read(n) for n in z.namelist())
        assert secret.encode() not in data and b"quokka" not in data, p
    drawn = private(secret)
    student = (out / "bank_01.md").read_text(encoding="utf-8")
    assert drawn["Q1.1"].stem in student and "**Answer" not in student and "CC BY 4.0" in student
    assert drawn["Q1.1"].stem.split("$")[1] in (out / "moodle.xml").read_text(encoding="utf-8")
    with zipfile.ZipFile(out / "canvas" / "bank_01.zip") as z:
        names = z.namelist()
        manifest = z.read("imsmanifest.xml").decode()
        body = "".join(z.read(n).decode() for n in names if n.endswith(".xml"))
    assert "creativecommons.org/licenses/by/4.0" in manifest
    w = drawn["Q1.1"].stem.split("$w = (")[1].split(")")[0]
    assert w in body


def test_make_quiz_without_a_secret_names_where_to_give_it():
    env = {k: v for k, v in os.environ.items() if k not in ("HOMEWORK_SECRET", "HOMEWORK_SECRET_FILE")}
    run = subprocess.run([sys.executable, "-m", "perceptron_homework", "quiz", "--out", "/nonexistent/quiz"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=120, check=False)
    assert run.returncode == 2 and "HOMEWORK_SECRET_FILE" in run.stderr and "make banks" in run.stderr
    with pytest.raises(ValueError, match="make banks"):
        quiz.write("public", Path("/nonexistent"))


def test_every_csv_row_carries_the_licence(cli, tmp_path):
    """LICENSE-TEXT: the banks are CC BY 4.0; the CSV export (public and private) says so on every row."""
    import csv

    banks.export(tmp_path)
    for table in (tmp_path / "questions.csv", cli[1] / "questions.csv"):
        with table.open(encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
        assert len(rows) >= 60 and all(row["licence"] == banks.notice() for row in rows), table
        assert "CC BY 4.0" in rows[0]["licence"]


# ---- every numeric question is redrawn; the private exports name their own edition -------------

# Questions whose stem or options contain a digit and that a private quiz may leave as they are
# (options reordered only): name -> why their digits are not data a key could be looked up by.
MATHEMATICS = ("its digits are the mathematics itself (0, +1 and -1, sgn(0) = +1, exponents, the 1/2 of a squared "
               "norm, the 2 of 2R or of 2(R/gamma)^2, a threshold such as eta >= 1): other values would change the "
               "statement it asks about, not its data, and no key is a number read off data")
CHAPTER = ("quotes the chapter's own experiment (its nbval-checked outputs: the digits 3 and 8, the 45 pairs, "
           "0.991, 100 epochs, the seeds of its runs, the XOR square it runs); other numbers would be false")
HISTORY = "its number is the year of the history it asks about (1943, 1969)"
KEPT: dict[str, str] = {
    **dict.fromkeys(["Q1.3", "Q1.5", "Q2.2", "Q2.3", "Q2.4", "Q2.7", "Q3.1", "Q3.2", "Q3.3", "Q3.4", "Q3.5",
                     "Q3.6", "Q3.7", "Q4.6", "Q4.7", "Q5.1", "Q5.3", "Q5.4", "Q5.5", "Q5.6", "Q5.7", "Q6.1",
                     "Q6.3", "Q6.8", "Q7.5", "Q9.4", "Q10.4", "Q10.5", "Q11.2", "Q11.4", "Q11.5", "Q11.7"],
                    MATHEMATICS),
    **dict.fromkeys(["Q6.7", "Q8.4", "Q8.5", "Q8.6", "Q9.6", "Q10.6"], CHAPTER),
    **dict.fromkeys(["Q10.1", "Q10.3"], HISTORY),
    "Q8.1": "the factor 10 is the ratio of millimetres to centimetres, the units the question is about",
    "Q10.7": "its digits name hidden units 1 and 2 of a two-unit network; no quantity",
}


def has_digits(q: banks.Question) -> bool:
    return bool(re.search(r"\d", q.stem + " ".join(q.options.values())))


def as_drawn(q: banks.Question) -> tuple[str, frozenset[str]]:
    """A question's text with its numbers, options in any order (the order is reshuffled anyway)."""
    return q.stem, frozenset(q.options.values())


def test_no_question_with_numbers_comes_out_the_same_under_two_secrets(public, quizzes):
    """A question with digits in its stem or options keeps its numbers if a secret gives it its public
    numbers, or if two secrets give it the same ones. A question with few draws may coincide under two
    given secrets by chance, so "the same" is: under all four secrets here."""
    numeric = sorted(name for name, q in public.items() if has_digits(q))
    assert len(numeric) >= 40 and set(KEPT) <= set(numeric), sorted(set(KEPT) - set(numeric))
    every = [*quizzes, private("a third secret"), private("and a fourth")]
    same = [name for name in numeric if len({as_drawn(q[name]) for q in every}) == 1
            or any(as_drawn(q[name]) == as_drawn(public[name]) for q in every)]
    assert sorted(set(same) - set(KEPT)) == [], "keep their public numbers under a secret"
    # The list holds only what is really kept: a question redrawn since must leave it.
    assert sorted(set(KEPT) - set(same)) == [], "are redrawn now: take them off KEPT"
    assert all(len(reason) > 20 for reason in KEPT.values())


def categories(xml: str) -> list[str]:
    from xml.etree import ElementTree as ET

    return [q.find("category/text").text for q in ET.fromstring(xml).iter("question")
            if q.get("type") == "category"]


def test_the_private_moodle_categories_are_not_the_public_ones(cli, tmp_path):
    run, out = cli
    assert run.returncode == 0, run.stderr
    public_names = categories(banks.moodle_xml([banks.questions(p) for p in banks.bank_files()]))
    mine = categories((out / "moodle.xml").read_text(encoding="utf-8"))
    assert len(mine) == len(public_names) == len(set(mine)) and not set(mine) & set(public_names)
    edition = quiz.fingerprint([key for _, key in quiz.private_banks(SECRETS[0])])
    assert re.fullmatch(r"[0-9a-f]{8}", edition)
    assert all(name.startswith(f"$course$/top/Perceptron private quiz {edition}/Bank ") for name in mine), mine
    assert SECRETS[0] not in "".join(mine)
    other = tmp_path / "other"
    quiz.write(SECRETS[1], other)
    theirs = categories((other / "moodle.xml").read_text(encoding="utf-8"))
    assert not set(theirs) & set(mine) and not set(theirs) & set(public_names)


def canvas_options(quiz_text: str) -> list[tuple[list[str], str]]:
    """Each question of a text2qti quiz: its options' text in order (a, b, c, d) and the right one's letter."""
    found = []
    for block in re.split(r"\n(?=Title: )", quiz_text)[1:]:
        lines = re.findall(r"^(\*?)([a-d])\) +(.*)$", block, flags=re.MULTILINE)
        assert [letter for _, letter, _ in lines] == list("abcd"), block
        found.append(([text.strip() for _, _, text in lines], "ABCD"["abcd".index(
            next(letter for star, letter, _ in lines if star))]))
    return found


def assert_canvas_matches_the_named_source(quiz_text: str, folder: Path, bank_path: Path) -> None:
    described = re.search(r"options A-D as in (.+?)\. ", quiz_text).group(1)
    if described == "the bank":
        source = bank_path.read_text(encoding="utf-8")
    else:
        name = re.match(r"(bank_\d\d_key\.md)\b", described)
        assert name, described
        source = (folder / name.group(1)).read_text(encoding="utf-8")
    questions = banks.parse(source, banks.bank_number(bank_path))
    labels = banks._chapter_labels()
    expected = [([banks._text2qti_markdown(q.options[letter], labels, 4).strip() for letter in "ABCD"], q.answer)
                for q in questions]
    assert canvas_options(quiz_text) == expected, described


def test_each_canvas_quiz_says_truly_where_its_option_letters_come_from(cli, tmp_path):
    run, out = cli
    assert run.returncode == 0, run.stderr
    banks.export(tmp_path / "public")
    for path in banks.bank_files():
        if not banks.questions(path):
            continue
        public_text = (tmp_path / "public" / "canvas" / f"{path.stem}.txt").read_text(encoding="utf-8")
        assert_canvas_matches_the_named_source(public_text, tmp_path / "public", path)
        private_text = (out / "canvas" / f"{path.stem}.txt").read_text(encoding="utf-8")
        assert "as in the bank" not in private_text
        assert_canvas_matches_the_named_source(private_text, out, path)


def test_a_declared_number_glued_to_a_letter_is_refused(tmp_path, monkeypatch):
    # "2b" cannot be redrawn token by token: the draw would change the 2 of "b = 2" and leave "2b".
    one_bank(tmp_path, monkeypatch, "and $b = 10$.", "and $b = 10$, so $2b = 20$.")
    with pytest.raises(ValueError, match=r"Q1\.1: writes \['2b'\], which a draw cannot replace"):
        quiz.check_banks()


def test_a_fixed_key_must_not_change_and_its_stem_must(tmp_path, monkeypatch):
    text = (banks.BANKS / "bank_01.md").read_text(encoding="utf-8")
    (tmp_path / "bank_01.md").write_text(text.replace('  numbers: {"2": c}\n  key: fixed\n', '  numbers: {"2": c}\n'),
                                         encoding="utf-8")
    monkeypatch.setattr(banks, "bank_files", lambda: [tmp_path / "bank_01.md"])
    with pytest.raises(ValueError, match=r"Q1\.4: every draw keeps the public key's value"):
        quiz.check_banks()
    (tmp_path / "bank_01.md").write_text(text.replace('"0.4": t/n}\n', '"0.4": t/n}\n  key: fixed\n'), encoding="utf-8")
    with pytest.raises(ValueError, match=r"Q1\.1: declares key: fixed, but the draw .* changes its right option"):
        quiz.check_banks()
