"""Sphinx extension: keep the static book free of scripts that reach for a CDN it does not use.

Jupyter Book 1 always loads sphinx-thebe, which writes a script pointing at thebe on unpkg into
every page (twice, which also raises a console error). The book has no thebe buttons, so its
page-script hook is disconnected; thebe's default configuration is left in place.
"""

from __future__ import annotations

from sphinx.application import Sphinx


def drop_thebe_scripts(app: Sphinx) -> None:
    try:
        from sphinx_thebe import init_thebe_core
    except ImportError:
        return
    for listener in list(app.events.listeners.get("env-before-read-docs", [])):
        if listener.handler is init_thebe_core:
            app.disconnect(listener.id)


def setup(app: Sphinx) -> dict[str, bool]:
    app.connect("builder-inited", drop_thebe_scripts)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
