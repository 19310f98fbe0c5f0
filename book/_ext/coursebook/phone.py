"""The book on a phone: formulas that scroll instead of being cut off, and slider frames for a phone.

The stylesheet and script (``book/_static/phone.css``, ``phone.js``) let a formula wider than its
column scroll in its own box with a visible cue, keep inline code and tables from widening the page,
and swap a two-panel slider figure for its *phone frame* where the column is too narrow for it.

Phone frames are made when the book is built, from the frames the chapter's slider already carries
(nothing is re-executed): a frame of two panels side by side is cut at the widest blank band of
columns near its middle, and the right panel is placed under the left one. On a 320-390 px screen the
stacked figure is shown at about 70-80% of its size instead of 40%, so titles and axis labels stay
legible. A frame with no blank band there (one panel, or panels joined by a common title) gets none.

Printed outputs: a chapter prints sentences ("converged: True, after 721 epochs") and tables (a
header and rows in aligned columns). On a phone both are set smaller (``outputs.css``); a sentence
wraps at the column's edge, as text does, while a table keeps its lines, and its columns, whole and
scrolls sideways in its box if it must. The build tells them apart (:func:`is_table`) and marks each
output's ``<pre>`` with ``output-table`` or ``output-text``.
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

from .content import frame_name, png_size

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


def add_phone_frames(body: str, outdir: Path, pathto) -> str:
    """Give each slider whose frames have panels to stack a ``data-phone-frames`` map (and the files).

    The map takes a frame's URL (as :func:`coursebook.pages.frames_to_files` will name it) to
    ``[phone URL, phone width, phone height, frame width, frame height]``.
    """
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


_OUTPUT_PRE = re.compile(r'(<div class="output (?:stream|text_plain)[^"]*"><div class="highlight"><pre)>(.*?)</pre>',
                         re.DOTALL)
_TAG = re.compile(r"<[^>]+>")
FIELD = 24  # characters: a longer field is a phrase, not a table cell
_FIELD = re.compile(r"\S+(?: \S+)*")  # a field: words joined by single blanks


def is_table(text: str) -> bool:
    r"""True when printed ``text`` is laid out in columns, which wrapping would scramble: two or more
    lines of fields (runs of words apart by two or more blanks) with a field starting or ending at
    the same place (left- or right-aligned columns), or a printed matrix. Lines aligned by their
    numbers but carrying a sentence (a field longer than ``FIELD`` characters) read well wrapped.

    >>> is_table("eta   hinge\n0.01   1888\n0.1     194")
    True
    >>> is_table("converged: True, after 721 epochs and M = 1562 mistakes")
    False
    >>> is_table("[[ 1.  0.]\n [ 0.  1.]]")
    True
    >>> is_table("c =  1.0: b =   1.00, distance of the origin to the boundary = 0.2425\n"
    ...          "c = 10.0: b =  10.00, distance of the origin to the boundary = 0.2425")
    False
    """
    lines = [line.rstrip() for line in text.expandtabs().split("\n") if line.strip()]
    if len(lines) < 2:
        return False
    if lines[0].startswith("[[") or any(line.startswith(" [") for line in lines):
        return True
    edges = []
    for line in lines:
        fields = list(_FIELD.finditer(line))
        if len(fields) >= 2:
            if max(len(f.group()) for f in fields) > FIELD:  # a sentence, maybe aligned with the next
                return False
            edges.append({("start", f.start()) for f in fields[1:]} | {("end", f.end()) for f in fields})
    return any(a & b for k, a in enumerate(edges) for b in edges[k + 1:])


def mark_outputs(body: str) -> str:
    """Each printed output's ``<pre>`` classed ``output-table`` or ``output-text`` (see the module's docstring)."""
    import html as htmllib

    def one(match: re.Match) -> str:
        text = htmllib.unescape(_TAG.sub("", match.group(2)))
        kind = "output-table" if is_table(text) else "output-text"
        return f'{match.group(1)} class="{kind}">{match.group(2)}</pre>'

    return _OUTPUT_PRE.sub(one, body)


PHONE_MEDIA = "(max-width: 575.98px)"
_OUTPUT_IMG = re.compile(r'<img\b(?=[^>]*\balt=")(?=[^>]*\bsrc="((?:\.\./)*_images/(?!frame-)[^"/]+\.png)")[^>]*>')


def add_phone_figures(body: str, read_png, write_png) -> str:
    """Give each two-panel figure of ``body`` a stacked variant for a phone, as slider frames get.

    ``read_png(url)`` returns the PNG an ``<img>`` shows (or None), ``write_png(png)`` stores a
    stacked one and returns its URL. The ``<img>`` goes into a ``<picture>`` whose ``<source>``
    serves the stacked figure where the screen is at most 575 px wide (a phone): there two panels
    side by side, e.g. chapter 9's two confusion matrices, would be shown at about 40% of their size.
    """
    def one(match: re.Match) -> str:
        png = read_png(match.group(1))
        stacked = stack_panels(png) if png else None
        if stacked is None:
            return match.group(0)
        width, height = png_size(stacked)
        source = f'<source media="{PHONE_MEDIA}" srcset="{write_png(stacked)}" width="{width}" height="{height}">'
        return f'<picture class="phone-stacked">{source}{match.group(0)}</picture>'

    return _OUTPUT_IMG.sub(one, body)


def mark_page_outputs(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Printed outputs classed for a phone (:func:`mark_outputs`), two-panel figures given a stacked
    variant (:func:`add_phone_figures`)."""
    body = context.get("body")
    if not body or app.builder.format != "html" or "cell_output" not in body:
        return
    outdir = Path(app.builder.outdir)
    pagedir = (outdir / app.builder.get_target_uri(pagename)).parent
    sources = {name: Path(app.srcdir) / src for src, name in getattr(app.builder, "images", {}).items()}

    def read_png(url: str) -> bytes | None:
        path = (pagedir / url).resolve()
        path = path if path.is_file() else sources.get(path.name, path)
        return path.read_bytes() if path.is_file() else None

    def write_png(png: bytes) -> str:
        name = frame_name(png).replace("frame-", "phone-", 1)
        target = outdir / "_images" / name
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(png)
        return context["pathto"](f"_images/{name}", 1)

    context["body"] = add_phone_figures(mark_outputs(body), read_png, write_png)


def register(app: Sphinx) -> None:
    app.add_css_file("phone.css")
    app.add_css_file("outputs.css")
    app.add_js_file("phone.js", loading_method="defer")
    app.connect("html-page-context", mark_page_outputs)
