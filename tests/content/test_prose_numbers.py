"""Every number a chapter's prose or solutions state comes from the chapter's own code.

A number written in a markdown cell (outside display math and proofs) must match a number in the
chapter's code: in a code cell's source (a parameter, like `seed=11`) or in a stored output (a
result, like `124963 mistakes`), either verbatim or as its rounding to the digits the prose shows
("about 0.34" for 0.3372, "about 22,000" for 22134). nbval checks that the stored outputs are what the
code produces today, so together the two tests fail when a stated number drifts. Small integers
(0-10) and years are not checked; numbers that are definitions or arithmetic on the page (a power of
two, "2500 times worse" computed in the text) are listed in ALLOWED with the reason.
"""

from __future__ import annotations

import json
import re

import pytest

from coursebook import CHAPTERS

NUMBER = re.compile(r"(?<![\w.^_{\\])(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(?![\w}])")
SCI = re.compile(r"(\d+(?:\.\d+)?)\s*\\times\s*10\^\{(-?\d+)\}")

# (chapter stem, number as written) -> why it needs no code
ALLOWED = {
    ("01_geometry", "0.6"): "the solution divides (3, -4) by 5 on the page",
    ("01_geometry", "0.8"): "the solution divides (3, -4) by 5 on the page",
    ("02_update_rule", "99"): "seeds 0, ..., 99 is the code's range(100)",
    ("05_convergence", "2500"): "(10^4 + 1)^2 / (4 * 10^4), computed in the text",
    ("07_beyond_linear", "2145"): "(d + 1)(d + 2) / 2 for d = 64, computed in the text",
    ("06_nonseparable", "21"): "a chapter number of the cited book",
    ("07_beyond_linear", "26.12"): "a theorem number of the cited book",
    ("07_beyond_linear", "26.13"): "a theorem number of the cited book",
    ("08_real_data", "150"): "the size of Fisher's iris data, a fact about the source",
    ("08_real_data", "4.5"): "a flower's coordinates, shown in the figure",
    ("08_real_data", "2.3"): "a flower's coordinates, shown in the figure",
    ("08_real_data", "1797"): "the size of scikit-learn's digits data, a fact about the source",
    ("08_real_data", "357"): "the size of a digits pair, a fact about the source",
    ("08_real_data", "45"): "the number of pairs of ten digits, 10 * 9 / 2",
    ("10_networks", "20"): "the Mark I's retina of 20 x 20 photocells, a fact about the source",
    ("11_online_learning", "50"): "error rates from 5% to 50% are the code's np.linspace(0.05, 0.5, 20)",
    ("11_online_learning", "3.3"): "a section number of the cited survey",
    ("11_online_learning", "21.2"): "a section number of the cited book",
    ("11_online_learning", "9.97"): "log2 1000, computed in the text",
    ("11_online_learning", "0.415"): "log2(4/3), computed in the text",
    ("11_online_learning", "33.7"): "(10 + 4) / log2(4/3), computed in the text",
}


def prose(cell_source: str) -> str:
    """Markdown without display math, proofs, directive options, labels, links and code spans."""
    text = re.sub(r"\$\$.*?\$\$", " ", cell_source, flags=re.DOTALL)
    text = re.sub(r"```\{prf:proof\}.*?```", " ", text, flags=re.DOTALL)
    text = re.sub(r"^:\w+:.*$", " ", text, flags=re.MULTILINE)
    text = re.sub(r"\{(?:ref|doc|prf:ref|cite|numref)\}`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return re.sub(r"\b(?:36-350|2-1)\b", " ", text)          # names of the source notes


def stated_numbers(cell_source: str) -> list[str]:
    text = prose(cell_source)
    found = [f"{m}e{e}" for m, e in SCI.findall(text)]
    text = SCI.sub(" ", text)
    for number in NUMBER.findall(text):
        value = float(number.replace(",", ""))
        if "." not in number and (value <= 10 or 1900 <= value <= 2030):
            continue
        found.append(number)
    return found


def code_numbers(nb: dict) -> tuple[str, list[float]]:
    chunks = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        chunks.append("".join(cell["source"]))
        for out in cell.get("outputs", []):
            if "text" in out:
                chunks.append("".join(out["text"]))
            for key in ("text/plain", "text/html"):
                if key in out.get("data", {}):                   # slider views: their labels, no frames
                    chunks.append(re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", " ",
                                         "".join(out["data"][key])))
    text = "\n".join(chunks)
    values = [float(v.replace("_", "")) for v in re.findall(r"-?\d[\d_]*(?:\.\d+)?(?:e[-+]?\d+)?", text)]
    return text, values


def matches(stated: str, values: list[float]) -> bool:
    if "e" in stated:                                    # m x 10^e: compare the mantissa's digits
        mantissa, exp = stated.split("e")
        digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
        target = float(mantissa)
        for v in values:
            if v != 0:
                scaled = abs(v) / 10 ** int(exp)
                if round(scaled, digits) == target:
                    return True
        return False
    plain = stated.replace(",", "")
    target = float(plain)
    if "." in plain:
        digits = len(plain.split(".")[1])
        return any(round(abs(v), digits) == target or round(abs(v), digits + 1) == target for v in values)
    zeros = len(plain) - len(plain.rstrip("0"))
    for v in values:
        if abs(v) == target or round(abs(v)) == target:
            return True
        if zeros and target >= 100:                      # "about 22,000": two significant digits
            significant = len(plain) - zeros
            if float(f"{abs(v):.{significant}g}") == target:
                return True
    return False


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: p.stem)
def test_every_number_in_the_prose_comes_from_the_chapters_code(path):
    nb = json.loads(path.read_text(encoding="utf-8"))
    _, values = code_numbers(nb)
    unmatched = []
    for cell in nb["cells"]:
        if cell["cell_type"] != "markdown":
            continue
        for number in stated_numbers("".join(cell["source"])):
            if (path.stem, number) in ALLOWED or matches(number, values):
                continue
            unmatched.append(number)
    assert not unmatched, f"{path.stem}: numbers in the prose that no code cell produces: {unmatched}"


def test_the_checker_fails_on_a_drifted_number():
    values = [124963.0, 0.3372, 22134.0, 1.2234657731369225e-13]
    assert matches("124963", values) and matches("0.34", values) and matches("22,000", values)
    assert matches("1.2e-13", values)
    assert not matches("124964", values) and not matches("0.35", values) and not matches("1.3e-13", values)
    assert not matches("23,000", values)


def test_homework_3_states_the_counterexample_it_computes(root):
    """hw3's introduction quotes (R/gamma*)^2 and the mistakes of its own perceptron on irises in mm
    (the public variant's introduction: the master's text is rendered from the variant)."""
    import numpy as np

    import perceptron as pc
    from perceptron_homework import checks
    from perceptron_homework.build import render_master

    master = root / "notebooks" / "homework" / "hw3_convergence.ipynb"
    nb = json.loads(render_master(master, checks.variant("hw3_convergence", checks.PUBLIC_SECRET)))
    intro = "".join(next(c for c in nb["cells"] if c["cell_type"] == "markdown")["source"])
    stated_bound, stated_mistakes = (int(v) for v in re.search(r"about (\d+), and the perceptron makes (\d+)",
                                                               intro).groups())
    X, y = pc.datasets.load_iris_pair("setosa", "versicolor")
    X = 10 * X
    bound = (pc.radius(X) / pc.max_margin(X, y).gamma) ** 2
    run = pc.train(X, y, bias="one", max_epochs=100_000)      # the homework's b += y_i perceptron
    assert round(bound) == stated_bound and run.mistakes == stated_mistakes > bound
    assert run.mistakes <= pc.mistake_bound(X, y, bias="one")        # the augmented bound holds
    assert np.isfinite(bound)
