"""The built pages stay light and steady (book/_ext/coursebook/pages.py): checked on the built book.

Every image has its PNG's own width and height in the markup, so the text does not jump while the
images arrive (Lighthouse's layout shift); images after a page's first load lazily; no slider frame
is inlined as a data URI. A fresh build copies the images only after the pages are written, which
is when a size read from the output folder went missing: `make test` always builds fresh in CI.
"""

from __future__ import annotations

import re
import struct
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
IMG = re.compile(r"<img\b[^>]*>")


def pages() -> list[Path]:
    assert (HTML / "index.html").exists(), "the book is not built: run `make book`"
    return sorted(p for p in HTML.rglob("*.html") if "_static" not in p.parts)


def png_size(path: Path) -> tuple[int, int]:
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path.name} is no PNG"
    return struct.unpack(">II", head[16:24])


def test_every_image_has_its_own_size_and_loads_lazily_after_the_first():
    checked = 0
    for page in pages():
        images = [tag for tag in IMG.findall(page.read_text(encoding="utf-8")) if "_images/" in tag]
        for tag in images:
            src = re.search(r'src="([^"]+)"', tag).group(1)
            size = png_size((page.parent / src).resolve())
            found = (re.search(r'width="(\d+)"', tag), re.search(r'height="(\d+)"', tag))
            assert all(found), f"{page.name}: {src} has no width and height"
            assert tuple(int(m.group(1)) for m in found) == size, f"{page.name}: {src} is {size}, not as marked"
            checked += 1
        assert all('loading="lazy"' in tag for tag in images[1:]), f"{page.name}: a later image loads eagerly"
    assert checked >= 40  # the chapters' figures and the first frame of each slider


def test_no_slider_frame_is_inlined():
    for page in pages():
        assert "data:image/png;base64" not in page.read_text(encoding="utf-8"), f"{page.name} inlines a PNG"
