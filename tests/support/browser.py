"""Debian's Chromium driven by Playwright, offline, on a folder served from 127.0.0.1.

The fixtures ``browser`` and ``server`` (tests/conftest.py) are built from these; ``OfflinePage``
is the page the browser tests open. Only the standard library is imported here: Playwright is
imported by the ``browser`` fixture when a test asks for it, so the package tests never need it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlparse

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]
LOCAL_HOSTS = {"127.0.0.1", "localhost"}


@dataclass(frozen=True)
class Site:
    """A built folder that the ``server`` fixture serves, and the make target that builds it."""

    folder: Path
    target: str


def serve_folder(folder: Path):
    """Serve ``folder`` over HTTP on 127.0.0.1 at a free port (a context manager yielding its base URL):
    the book's one static server, imported here only when a test serves something."""
    from coursebook.serve import serve_folder as serve

    return serve(folder)


class OfflinePage:
    """A page whose requests to non-local hosts are aborted, with console errors collected."""

    def __init__(self, browser, base: str, color_scheme: str = "light", viewport: dict | None = None, **options):
        """``options`` go to Playwright's ``new_context`` as they are (``has_touch=True`` for a phone)."""
        self.context = browser.new_context(viewport=viewport or {"width": 1280, "height": 900},
                                           color_scheme=color_scheme, **options)
        self.blocked: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.pending: set = set()  # requests sent and not yet answered
        self.page.on("request", lambda r: self.pending.add(r))
        self.page.on("requestfinished", lambda r: self.pending.discard(r))
        self.page.on("requestfailed", lambda r: self.pending.discard(r))
        self.page.on("console", lambda m: self.errors.append(m.text) if m.type == "error" else None)
        self.page.on("pageerror", lambda e: self.errors.append(str(e)))
        self.base = base

    def _route(self, route) -> None:
        host = urlparse(route.request.url).hostname
        if host in LOCAL_HOSTS:
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def open(self, path: str) -> None:
        """Load the page, then wait until no request it made is still unanswered, two frames running
        (Playwright's "networkidle" waits a fixed 500 ms of quiet instead)."""
        self.page.goto(f"{self.base}/{path}", wait_until="load")
        for _ in range(600):
            if not self.pending:
                self.page.evaluate("new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")
                if not self.pending:
                    return
            self.page.wait_for_timeout(50)
        raise AssertionError(f"{path}: requests still unanswered 30 s after load: {[r.url for r in self.pending][:5]}")

    def close(self) -> None:
        self.context.close()
