"""The book on a phone: formulas that scroll instead of being cut off, and slider frames for a phone.

The stylesheet and script (``book/_static/phone.css``, ``phone.js``) let a formula wider than its
column scroll in its own box with a visible cue, keep inline code and tables from widening the page,
and swap a two-panel slider figure for its *phone frame* where the column is too narrow for it.

Phone frames are made when the book is built, from the frames the chapter's slider already carries
(nothing is re-executed): a frame of two panels side by side is cut at the widest blank band of
columns near its middle, and the right panel is placed under the left one. On a 320-390 px screen the
stacked figure is shown at about 70-80% of its size instead of 40%, so titles and axis labels stay
legible. A frame with no blank band there (one panel, or panels joined by a common title) gets none.
"""

from __future__ import annotations

import base64
import html
import io
import json
import re
from pathlib import Path

import numpy as np
from PIL import Image
from sphinx.application import Sphinx

# Frames narrower than this fit a phone's column well enough as they are (one-panel figures are 370-390).
MIN_WIDTH = 500
# The cut must leave this many blank columns between the panels, in the middle part of the frame.
MIN_GAP = 3
MIDDLE = (0.3, 0.7)
# A pixel within this distance (0-255 per channel) of the ground counts as blank.
TOLERANCE = 8

_SLIDER = re.compile(r'<div class="perceptron-slider">(.*?)<script type="application/json">(.*?)</script>', re.DOTALL)


def stack_panels(png: bytes) -> bytes | None:
    """The frame with its two side-by-side panels stacked, as PNG; None if it has no such cut.

    >>> img = Image.new("RGB", (600, 100), "white")
    >>> img.paste((0, 0, 0), (10, 10, 280, 90)); img.paste((0, 0, 0), (320, 10, 590, 90))
    >>> buf = io.BytesIO(); img.save(buf, format="PNG")
    >>> Image.open(io.BytesIO(stack_panels(buf.getvalue()))).size
    (300, 200)
    """
    image = Image.open(io.BytesIO(png)).convert("RGB")
    width, height = image.size
    if width < MIN_WIDTH:
        return None
    pixels = np.asarray(image, dtype=np.int16)
    ground = pixels[0, 0]
    blank = (np.abs(pixels - ground).max(axis=2) <= TOLERANCE).all(axis=0)  # per column
    lo, hi = int(width * MIDDLE[0]), int(width * MIDDLE[1])
    # The widest blank band; of equal ones the leftmost (a right panel's axis label has a narrow band
    # on each side of it, and belongs to the right panel).
    best, start = (0, 0), None
    for x in range(lo, hi + 1):
        if x < hi and blank[x]:
            start = x if start is None else start
        elif start is not None:
            best = max(best, (x - start, -start))
            start = None
    gap, left_end = best[0], -best[1]
    if gap < MIN_GAP:
        return None
    cut = left_end + gap // 2
    left, right = image.crop((0, 0, cut, height)), image.crop((cut, 0, width, height))
    stacked = Image.new("RGB", (max(left.width, right.width), 2 * height), tuple(int(c) for c in ground))
    stacked.paste(left, (0, 0))
    stacked.paste(right, (0, height))
    out = io.BytesIO()
    stacked.save(out, format="PNG", optimize=True)
    return out.getvalue()


def add_phone_frames(body: str, outdir: Path, pathto, frame_name) -> str:
    """Give each slider whose frames have panels to stack a ``data-phone-frames`` map (and the files).

    The map takes a frame's URL (as :func:`coursebook.pages.frames_to_files` will name it) to
    ``[phone URL, phone width, phone height, frame width, frame height]``.
    """
    from .pages import png_size

    def one_slider(match: re.Match) -> str:
        data = json.loads(match.group(2))
        phones: dict[str, list] = {}
        for uri in data.get("frames", []):
            if not uri.startswith("data:image/png;base64,"):
                continue
            png = base64.b64decode(uri.split(",", 1)[1])
            stacked = stack_panels(png)
            if stacked is None:
                continue
            name = frame_name(stacked)
            target = outdir / "_images" / name
            if not target.exists():
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(stacked)
            size, phone_size = png_size(png), png_size(stacked)
            phones[pathto(f"_images/{frame_name(png)}", 1)] = [pathto(f"_images/{name}", 1), *phone_size, *size]
        if not phones:
            return match.group(0)
        attribute = html.escape(json.dumps(phones, separators=(",", ":")), quote=True)
        return f'<div class="perceptron-slider" data-phone-frames="{attribute}">' + match.group(0)[len('<div class="perceptron-slider">'):]

    return _SLIDER.sub(one_slider, body)


def register(app: Sphinx) -> None:
    app.add_css_file("phone.css")
    app.add_js_file("phone.js", loading_method="defer")
