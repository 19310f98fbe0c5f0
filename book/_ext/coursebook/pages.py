"""The HTML stage: each page prepared before it is written, and post-processed once after.

Before a page is written (``html-page-context``):

* Slider frames: a slider's static view carries every frame as a base64 ``data:`` URI (so that a
  notebook output is self-contained). In the built book each frame becomes a PNG file in
  ``_images/`` and the slider refers to it, so a chapter's HTML shrinks from megabytes to a few
  hundred kilobytes and the browser fetches a frame only when the slider reaches it.
* Phone frames: a slider figure of two panels side by side also gets its panels stacked, shown on
  a narrow screen (:mod:`coursebook.phone`).
* The notebooks' saved widget state (a live slider's model, with a PNG in it) is not embedded in
  the page: the book shows the static slider view and loads no widget JavaScript to read it.
* Every ``<img>`` of a page gets its intrinsic ``width`` and ``height`` (read from the PNG) so the
  page does not shift while the images arrive; images after the first load lazily.

Once the build has written every page (``build-finished``), each page is read once, rewritten by
the three fixes that need the theme's finished HTML, and written once: the controls' accessible
names (:func:`coursebook.accessibility.fix_names`), Font Awesome's script tag dropped
(:mod:`coursebook.icons`), every formula typeset to SVG (:mod:`coursebook.svg_math`). Then the
icons' CSS is cut down to what the finished pages use.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

from sphinx.application import Sphinx

from . import accessibility, icons, phone, svg_math
from .content import frame_name, png_size

_DATA_PNG = re.compile(r"data:image/png;base64,([A-Za-z0-9+/=]+)")
_IMG = re.compile(r"<img\b([^>]*?)\s*/?>")
_SRC = re.compile(r'\bsrc="([^"]+)"')


def frames_to_files(body: str, outdir: Path, pathto) -> tuple[str, dict[str, tuple[int, int]]]:
    """Replace each data-URI PNG in ``body`` by a file in ``_images/``; return the new body and sizes."""
    sizes: dict[str, tuple[int, int]] = {}
    images = outdir / "_images"

    def extract(match: re.Match) -> str:
        png = base64.b64decode(match.group(1))
        name = frame_name(png)
        target = images / name
        if not target.exists():
            images.mkdir(parents=True, exist_ok=True)
            target.write_bytes(png)
        url = pathto(f"_images/{name}", 1)
        size = png_size(png)
        if size:
            sizes[url] = size
        return url

    return _DATA_PNG.sub(extract, body), sizes


def size_images(
    body: str, outdir: Path, pagedir: Path, known: dict[str, tuple[int, int]], sources: dict[str, Path] | None = None
) -> str:
    """Give every ``<img>`` of ``body`` its PNG's width and height, and lazy loading after the first.

    ``sources`` maps a file name in ``_images/`` to the file Sphinx copies there: on a fresh build the
    copies are made only after every page is written, so the size is read from the source.
    """
    first = True
    sources = sources or {}

    def add_size(match: re.Match) -> str:
        nonlocal first
        attrs = match.group(1)
        src = _SRC.search(attrs)
        extra = ""
        if src and " width=" not in attrs and " height=" not in attrs:
            url = src.group(1)
            size = known.get(url)
            if size is None and not url.startswith(("data:", "http:", "https:")):
                path = (pagedir / url.split("?")[0]).resolve()
                if not path.is_file() and path.parent == (outdir / "_images").resolve():
                    path = sources.get(path.name, path)
                if path.suffix == ".png" and path.is_file():
                    with path.open("rb") as f:
                        size = png_size(f.read(24))
            if size:
                extra += f' width="{size[0]}" height="{size[1]}"'
        if " loading=" not in attrs:
            extra += "" if first else ' loading="lazy"'
        first = False
        return f"<img{attrs}{extra}>"

    return _IMG.sub(add_size, body)


WIDGET_STATE = "application/vnd.jupyter.widget-state+json"


def lighten_page(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    scripts = context.get("script_files")
    if scripts is not None:
        scripts[:] = [js for js in scripts if getattr(js, "attributes", {}).get("type") != WIDGET_STATE]
    body = context.get("body")
    if not body or app.builder.format != "html":
        return
    outdir = Path(app.builder.outdir)
    known: dict[str, tuple[int, int]] = {}
    if "perceptron-slider" in body:
        body = phone.add_phone_frames(body, outdir, context["pathto"])
        body, known = frames_to_files(body, outdir, context["pathto"])
    pagedir = (outdir / app.builder.get_target_uri(pagename)).parent
    # builder.images: each image of the page (path from the source folder) -> its name in _images/.
    sources = {name: Path(app.srcdir) / src for src, name in getattr(app.builder, "images", {}).items()}
    context["body"] = size_images(body, outdir, pagedir, known, sources)


def finish_pages(app: Sphinx, exception: Exception | None) -> None:
    """Read, fix and write every HTML page once (``build-finished``)."""
    if exception is not None or app.builder.format != "html":
        return
    outdir = Path(app.outdir)
    typeset = svg_math.PageTypesetter() if app.builder.math_renderer_name == "svg" else None
    try:
        for path in sorted(outdir.rglob("*.html")):
            if "_static" in path.relative_to(outdir).parts:
                continue
            text = path.read_text(encoding="utf-8")
            page = icons.drop_script(accessibility.fix_names(text))
            if typeset is not None:
                page = typeset(page, str(path.relative_to(outdir)))
            if page != text:
                path.write_text(page, encoding="utf-8")
    finally:
        if typeset is not None:
            typeset.close()
    icons.write_css(outdir)
