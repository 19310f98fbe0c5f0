"""Write the playground's preset datasets, book/_static/playground_presets.json, from the package itself.

The presets are the chapters' datasets, generated here by ``perceptron.datasets`` and written with
``repr`` (shortest round-trip form; playground.js fetches the file), so the page holds exactly the doubles Python holds: a run in
the browser and ``perceptron.train`` on the same preset then start from the same numbers.
``python -m coursebook.playground --check`` exits 1 when the file is stale (tests call it).
"""

from __future__ import annotations

import json
import sys

import perceptron as pc

from . import ROOT

PRESETS = ROOT / "book" / "_static" / "playground_presets.json"

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


def text() -> str:
    """The presets as JSON, one preset a line (json writes floats with repr: exact)."""
    return "[\n" + ",\n".join(json.dumps(p, separators=(",", ":")) for p in presets()) + "\n]\n"


def main(argv: list[str]) -> int:
    new = text()
    if "--check" in argv:
        if not PRESETS.exists() or PRESETS.read_text(encoding="utf-8") != new:
            print(f"{PRESETS.name}: presets are stale; run python -m coursebook.playground", file=sys.stderr)
            return 1
        return 0
    PRESETS.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
