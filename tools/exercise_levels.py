"""Difficulty of every exercise (one to three stars) and the proofs an introductory course may skip.

`python tools/exercise_levels.py --write` edits the chapter notebooks:

- every ``{exercise}`` gets its stars as its title (``{exercise} ★★`` renders "Exercise 2.3 (★★)"),
  and the exercises of a chapter are put in order of difficulty (a stable sort, so exercises of
  equal difficulty keep their order); an exercise moves together with its solution, whether that is
  a ``{solution}`` block or gated ``{solution-start}`` ... ``{solution-end}`` cells;
- every proof listed in OPTIONAL_PROOFS (named by the label of the statement it proves) becomes a
  ``{prf:proof}`` with the class ``optional`` and opens with a line saying so.

`python tools/exercise_levels.py` only checks the sources. Until `--write` has been run (after the
chapter rewrite of issue 11 lands), book/_ext/exercise_levels.py shows the stars and the optional
proofs in the built book from the tables below; tests/content/test_exercise_levels.py checks both.
The stars are a judgement: ★ applies the chapter directly (a computation, a short run), ★★ needs
an argument of a few steps or a small experiment to design, ★★★ is a proof or an open-ended
investigation at the level of the chapter's theorems.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHAPTERS = sorted((ROOT / "notebooks").glob("0*.ipynb"))
STAR = "★"

LEVELS = {
    "01_geometry": {"ex-ch1-origin": 1, "ex-ch1-negative": 1, "ex-prototype": 2, "ex-ch1-closest": 2,
                    "ex-ch1-count": 2},
    "02_update_rule": {"ex-ch2-augmented": 1, "ex-ch2-order": 1, "ex-ch2-dual": 2, "ex-ch2-start": 2,
                       "ex-ch2-scale": 3},
    "03_sgd": {"ex-ch3-logistic": 1, "ex-ch3-sklearn-perceptron": 1, "ex-ch3-hinge-subdifferential": 2,
               "ex-ch3-cone": 2, "ex-ch3-margin-perceptron": 2},
    "04_margins": {"ch4-ex-translation": 1, "ch4-ex-remove-support": 1, "ch4-ex-two-points": 2,
                   "ch4-ex-robust": 2, "ch4-ex-origin": 3},
    "05_convergence": {"ch5-ex-nonseparable": 1, "ch5-ex-scale-one": 2, "ch5-ex-tight": 3,
                       "ch5-ex-constant": 3, "ch5-ex-start": 3},
    "06_nonseparable": {"ex-ch6-xor-hand": 1, "ex-ch6-lazy-average": 2, "ex-ch6-best-line": 2,
                        "ex-ch6-noise-test": 2, "ex-ch6-periodic-fail": 3},
    "07_beyond_linear": {"ex-ch7-feature-count": 1, "ex-ch7-hinge-bound": 1, "ex-ch7-dual-radius": 2,
                         "ex-ch7-circles-poly": 2, "ex-ch7-svm-circles": 2, "ex-ch7-hinge-monotone": 3},
    "08_real_data": {"ex-real-petals": 1, "ex-real-translation": 2, "ex-real-pairs": 2,
                     "ex-real-units": 3, "ex-real-cycle": 3},
}

# Proofs an introductory course can skip, named by the label of the statement they prove.
OPTIONAL_PROOFS = {
    "03_sgd": ["lem-perceptron-subdifferential"],
    "04_margins": ["ch4-thm-two-forms"],
    "05_convergence": ["ch5-thm-cosine"],
    "06_nonseparable": ["prop-ch6-periodic"],
    "07_beyond_linear": ["thm-ch7-compression"],
    "08_real_data": ["thm-real-units", "lem-real-translation"],
}
OPTIONAL_LINE = "*(Optional: an introductory course can skip this proof.)*"

EXERCISE = re.compile(r"^(?P<fence>`{3,}|:{3,})\{exercise\}(?P<title>[^\n]*)\n:label: (?P<label>\S+)", re.M)


def exercises(notebook: dict) -> list[tuple[str, int]]:
    """(label, stars in the title) of every exercise, in order."""
    found = []
    for cell in notebook["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for match in EXERCISE.finditer("".join(cell["source"])):
            found.append((match["label"], match["title"].strip().count(STAR)))
    return found


def optional_proofs(notebook: dict) -> list[str]:
    """Labels of the statements whose proof is marked optional."""
    text = "\n".join("".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == "markdown")
    blocks = re.findall(r"\{prf:(\w+)\}[^\n]*\n((?::[\w-]+:[^\n]*\n)*)", text)
    marked, last_label = [], None
    for kind, options in blocks:
        label = re.search(r":label: (\S+)", options)
        if kind != "proof":
            last_label = label.group(1) if label else None
        elif "optional" in options and last_label:
            marked.append(last_label)
    return marked


def check() -> list[str]:
    problems = []
    for path in CHAPTERS:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        found = exercises(notebook)
        expected = LEVELS[path.stem]
        if sorted(label for label, _ in found) != sorted(expected):
            problems.append(f"{path.stem}: exercises {[l for l, _ in found]} differ from LEVELS")
            continue
        stars = [s for _, s in found]
        if stars != [expected[label] for label, _ in found]:
            problems.append(f"{path.stem}: stars {stars} differ from LEVELS")
        if stars != sorted(stars):
            problems.append(f"{path.stem}: exercises not in order of difficulty: {stars}")
        if optional_proofs(notebook) != OPTIONAL_PROOFS.get(path.stem, []):
            problems.append(f"{path.stem}: optional proofs {optional_proofs(notebook)}")
    return problems


def set_stars(text: str, levels: dict[str, int]) -> str:
    return EXERCISE.sub(lambda m: f"{m['fence']}{{exercise}} {STAR * levels[m['label']]}\n:label: {m['label']}", text)


def mark_optional(cells: list[dict], labels: list[str]) -> None:
    """Fold the proof that follows each labelled statement and say it is optional."""
    for label in labels:
        seen = False
        for cell in cells:
            if cell["cell_type"] != "markdown":
                continue
            text = "".join(cell["source"])
            if not seen and f":label: {label}\n" in text:
                seen, text_from = True, text.index(f":label: {label}\n")
            else:
                text_from = 0
            if not seen:
                continue
            match = re.compile(r"^(`{3,}|:{3,})\{prf:proof\}[^\n]*\n((?::[\w-]+:[^\n]*\n)*)", re.M).search(text, text_from)
            if not match:
                continue
            if "optional" not in match.group(2):
                head = match.group(0) + ":class: optional\n"
                rest = text[match.end():].lstrip("\n")
                text = text[:match.start()] + head + "\n" + OPTIONAL_LINE + " " + rest
                cell["source"] = text.splitlines(keepends=True)
            break


def reorder(notebook: dict, levels: dict[str, int]) -> None:
    """Sort the exercises (each with its solution cells) by stars, stably."""
    cells = notebook["cells"]
    first = next(i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and EXERCISE.search("".join(c["source"])))
    head_cells, items = cells[:first], []
    for cell in cells[first:]:
        if cell["cell_type"] != "markdown":
            items.append(("cell", cell))
            continue
        text = "".join(cell["source"])
        cuts = [m.start() for m in EXERCISE.finditer(text)]
        bounds = [0] + cuts + [len(text)]
        for k, (a, b) in enumerate(zip(bounds, bounds[1:])):
            if a == b:
                continue
            items.append(("md", text[a:b], cell, k, a in cuts))
    prefix, units = [], []
    for item in items:
        if item[0] == "md" and item[4]:
            units.append([item])
        elif units:
            units[-1].append(item)
        else:
            prefix.append(item)
    label_of = lambda unit: EXERCISE.search(unit[0][1])["label"]
    units.sort(key=lambda unit: levels[label_of(unit)])
    out, used_ids = list(head_cells), {c.get("id") for c in cells}
    for item in prefix + [item for unit in units for item in unit]:
        if item[0] == "cell":
            out.append(item[1])
            continue
        _, text, original, k, _ = item
        text = text.strip("\n")
        if not text:
            continue
        cell = {key: value for key, value in original.items() if key != "source"}
        if "id" in original and k > 0:
            new_id = f"{original['id']}-{k}"
            while new_id in used_ids:
                new_id += "x"
            used_ids.add(new_id)
            cell["id"] = new_id
        cell["source"] = text.splitlines(keepends=True)
        out.append(cell)
    notebook["cells"] = out


def write() -> None:
    for path in CHAPTERS:
        notebook = json.loads(path.read_text(encoding="utf-8"))
        levels = LEVELS[path.stem]
        for cell in notebook["cells"]:
            if cell["cell_type"] == "markdown":
                cell["source"] = set_stars("".join(cell["source"]), levels).splitlines(keepends=True)
        mark_optional(notebook["cells"], OPTIONAL_PROOFS.get(path.stem, []))
        reorder(notebook, levels)
        path.write_text(json.dumps(notebook, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> None:
    if "--write" in sys.argv:
        write()
    problems = check()
    print("\n".join(problems) or "every exercise has its stars, in order; optional proofs marked")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
