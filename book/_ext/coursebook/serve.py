"""The one static server: a built folder on 127.0.0.1, for ``make serve``, the browser tests
(tests/support/browser.py) and the benchmarks (benchmarks/playground.py, benchmarks/lighthouse.py).

With ``pages=True`` it serves the way GitHub Pages does (text types gzip-compressed, a 10-minute
cache), as Lighthouse should see the book; the tests get the files as they are.
``python -m coursebook.serve [DIR]`` (``make serve``) serves DIR (default _build/html) as Pages does on
a free port and prints its URL. Only the standard library is imported: the tests' conftest imports it.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import io
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".txt", ".xml", ".map", ".inv"}


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Static files, no log line per request."""

    def log_message(self, format: str, *args: object) -> None:
        pass


class GzipHandler(QuietHandler):
    """Static files; text types gzip-compressed when the client accepts it, as Pages serves them."""

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "max-age=600")
        super().end_headers()

    def send_head(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        wants_gzip = "gzip" in self.headers.get("Accept-Encoding", "")
        if not (wants_gzip and path.suffix in COMPRESSED and path.is_file()):
            return super().send_head()
        body = gzip.compress(path.read_bytes(), compresslevel=6, mtime=0)
        self.send_response(200)
        self.send_header("Content-Type", self.guess_type(str(path)))
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def serve(directory: Path, pages: bool = True) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Start a server for ``directory`` on a free port in a daemon thread; return it and its URL."""
    handler = functools.partial(GzipHandler if pages else QuietHandler, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


@contextlib.contextmanager
def serve_folder(folder: Path, pages: bool = False) -> Iterator[str]:
    """Serve ``folder`` while the block runs; yield its base URL."""
    httpd, url = serve(folder, pages)
    try:
        yield url
    finally:
        httpd.shutdown()
        httpd.server_close()


if __name__ == "__main__":
    server, url = serve(Path(sys.argv[1] if len(sys.argv) > 1 else "_build/html"))
    print(url, flush=True)
    threading.Event().wait()
