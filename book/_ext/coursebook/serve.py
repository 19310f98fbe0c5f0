"""Serve a built book on 127.0.0.1 the way GitHub Pages does: gzip for text, a 10-minute cache.

Used by the Lighthouse benchmark (benchmarks/lighthouse.py, `make lighthouse`); ``python -m coursebook.serve DIR`` serves DIR on a
free port and prints its URL.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import sys
import threading
from pathlib import Path

COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".txt", ".xml", ".map", ".inv"}


class GzipHandler(http.server.SimpleHTTPRequestHandler):
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
        import io

        return io.BytesIO(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


def serve(directory: Path) -> tuple[http.server.ThreadingHTTPServer, str]:
    """Start a server for ``directory`` on a free port in a daemon thread; return it and its URL."""
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(GzipHandler, directory=str(directory)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return httpd, f"http://127.0.0.1:{httpd.server_address[1]}"


if __name__ == "__main__":
    server, url = serve(Path(sys.argv[1] if len(sys.argv) > 1 else "_build/html"))
    print(url, flush=True)
    threading.Event().wait()
