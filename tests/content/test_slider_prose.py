"""A slider's frames include the states its prose points at (issue 21).

The prose before a slider says what moving it shows; these tests read the slider's stored frames
(their labels and the descriptions `describe_*` wrote for them) and check that the states named
in the prose are among them. nbval checks that the stored outputs are what the code produces today.
"""

from __future__ import annotations

import json
import re

from coursebook import ROOT


def cells(chapter: str) -> dict[str, dict]:
    nb = json.loads((ROOT / "notebooks" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    return {c.get("id"): c for c in nb["cells"]}


def source(cell: dict) -> str:
    return "".join(cell["source"])


def printed(cell: dict) -> str:
    return "".join("".join(out.get("text", "")) for out in cell["outputs"])


def frames(cell: dict) -> list[tuple[str, str]]:
    """(label, description) of every frame of the slider a cell displays."""
    for out in cell["outputs"]:
        html = "".join(out.get("data", {}).get("text/html", ""))
        if "perceptron-slider" in html:
            data = json.loads(re.search(r'<script type="application/json">(.*?)</script>', html).group(1))
            return list(zip(data["labels"], data["alts"]))
    raise AssertionError(f"cell {cell.get('id')} shows no slider")


def test_chapter_1_direction_slider_reaches_the_separating_directions_its_prose_names():
    ch = cells("01_geometry")
    # the slider's stops are told in the optional subsection after the slider (issue 32)
    prose, slider = source(ch["3b725f58"]) + source(ch["slider-stops"]), ch["67681fc2"]
    stated = re.search(r"only those from (\d+)° to (\d+)°.*?up to (\d+)°", prose, re.DOTALL)
    assert stated, "the prose no longer names the separating range"
    first, last, beyond = (int(v) for v in stated.groups())
    assert f"{first}° to {last}°" in printed(slider), "the prose's range is not the one the cell computed"
    wrong = {int(label): int(re.search(r"(\d+) on the wrong side", alt).group(1)) for label, alt in frames(slider)}
    assert len(wrong) <= 16 and {first, last, beyond} <= set(wrong)
    assert {a for a, n in wrong.items() if n == 0} == {a for a in wrong if first <= a <= last}
    assert beyond == last + 1 and wrong[beyond] > 0            # "a point crosses to the wrong side again"
    assert set(range(0, 360, 30)) <= set(wrong)                # coarse steps around the whole circle


def test_chapter_5_margin_slider_shows_the_crossing_move_right_and_the_run_stop_earlier():
    ch = cells("05_convergence")
    prose, slider = source(ch["8815451b"]), ch["142998e1"]
    number = r"(\d+(?:\.\d+)?)"
    stated = re.search(rf"moves right, from (\d+) to (\d+),.*?it makes {number} of its bound at margin {number}"
                       rf" and {number} at margin {number}", prose, re.DOTALL)
    assert stated, "the prose no longer states how the crossing and the run move"
    low, high, used_first, m_first, used_last, m_last = stated.groups()
    shown = []
    for label, alt in frames(slider):
        updates, bound = re.search(r"(\d+) updates, bound (\d+(?:\.\d+)?)", alt).groups()
        shown.append((label, int(updates), float(bound)))
    bounds = [b for _, _, b in shown]
    assert bounds == sorted(bounds) and len(set(bounds)) == len(bounds), "the crossing does not move right"
    (label0, k0, b0), (label1, k1, b1) = shown[0], shown[-1]
    assert (label0, label1) == (m_first, m_last)
    assert (round(b0), round(b1)) == (int(low), int(high))
    assert (round(k0 / b0, len(used_first) - 2), round(k1 / b1, len(used_last) - 2)) == (
        float(used_first), float(used_last))
    assert k1 / b1 < k0 / b0


def test_chapter_9_update_slider_starts_with_the_first_class_everywhere_and_ends_with_no_error():
    ch = cells("09_multiclass")
    prose, slider = source(ch["mc-slider-intro"]), ch["mc-slider"]
    stated = re.search(r"(\d+) of the (\d+) wrongly.*?after the (\w+) update\s+every point lies in its own region",
                       prose, re.DOTALL)
    assert stated, "the prose no longer says where the run starts and ends"
    start, total, last = int(stated.group(1)), int(stated.group(2)), stated.group(3)
    shown = frames(slider)
    wrong = [int(re.search(r"(\d+) of the (\d+) points lie outside", alt).group(1)) for _, alt in shown]
    assert [label for label, _ in shown] == [str(k) for k in range(len(shown))]   # every update, from the start
    assert wrong[0] == start and f"of the {total} points" in shown[0][1]
    assert wrong[-1] == 0 and wrong[-2] > 0                                      # the last update ends the errors
    ordinals = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
    assert ordinals.index(last) == len(shown) - 2
