"""Write the playground's preset datasets into book/_static/playground.js, from the package itself.

The presets are the chapters' datasets, generated here by ``perceptron.datasets`` and written with
``repr`` (shortest round-trip form), so the page holds exactly the doubles Python holds: a run in
the browser and ``perceptron.train`` on the same preset then start from the same numbers.
``python -m coursebook.playground --check`` exits 1 when the file is stale (tests call it).
"""

from __future__ import annotations

import json
import re
import sys

import perceptron as pc

from . import ROOT

SCRIPT = ROOT / "book" / "_static" / "playground.js"
BEGIN, END = "/* PRESETS BEGIN (book/_ext/coursebook/playground.py) */", "/* PRESETS END */"

#: (key, label, Python call that makes it); margins of the "separable" family are chosen in the page.
#: Labels stay short: a select shows its label whole at a phone's width (tests/book/test_playground.py).
SEPARABLE_MARGINS = (0.3, 0.2, 0.1, 0.05, 0.02)


def presets() -> list[dict]:
    """Every preset: a key, the label the page shows, the call that makes it, X and y."""
    calls = [(f"separable-{m}", f"50 points, margin {m}", f"make_separable(50, margin={m}, seed=0)")
             for m in SEPARABLE_MARGINS]
    calls += [
        ("chapter2", "Chapter 2's 30 points", "make_separable(30, margin=0.3, radius=4.0, seed=7)"),
        ("xor", "XOR (40 points)", "make_xor(40, seed=0)"),
        ("overlapping", "Overlapping, 100 points", "make_overlapping(100, separation=2.0, seed=0)"),
    ]
    out = []
    for key, label, call in calls:
        X, y = eval(f"pc.datasets.{call}", {"pc": pc})  # the calls above, nothing else
        out.append({"key": key, "label": label, "call": f"perceptron.datasets.{call}",
                    "X": [[float(v) for v in row] for row in X], "y": [int(v) for v in y]})
    return out


def block() -> str:
    body = json.dumps(presets(), separators=(",", ":"))  # json writes floats with repr: exact
    return f"{BEGIN}\n  var PRESETS = {body};\n  {END}"


def main(argv: list[str]) -> int:
    text = SCRIPT.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.DOTALL)
    if not pattern.search(text):
        raise SystemExit(f"{SCRIPT} has no preset block ({BEGIN} ... {END})")
    new = pattern.sub(lambda _: block(), text)
    if "--check" in argv:
        if new != text:
            print(f"{SCRIPT.name}: presets are stale; run python -m coursebook.playground", file=sys.stderr)
            return 1
        return 0
    SCRIPT.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
