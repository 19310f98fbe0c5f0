"""Sphinx extension: every page of the book shows the version it was built from.

The version is the package's (``perceptron.__version__``, or pyproject.toml's where the package does
not define one), the same number CITATION.cff and CHANGELOG.md carry
(tests/environments/test_release.py). It is set as Sphinx's ``version``/``release`` and written into
the page footer, next to a link to the changelog.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.config import Config

ROOT = Path(__file__).resolve().parents[2]


def book_version() -> str:
    try:
        import perceptron

        version = getattr(perceptron, "__version__", None)
    except ImportError:
        version = None
    if version:
        return version
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def show_version(app: Sphinx, config: Config) -> None:
    version = book_version()
    config.version = config.release = version
    options = dict(config.html_theme_options or {})
    repository = options.get("repository_url", "").rstrip("/")
    changelog = f' (<a href="{repository}/blob/main/CHANGELOG.md">changes</a>)' if repository else ""
    footer = f'<p class="book-version">Version {version}{changelog}.</p>'
    options["extra_footer"] = footer + (options.get("extra_footer") or "")
    config.html_theme_options = options


def setup(app: Sphinx) -> dict[str, bool]:
    app.connect("config-inited", show_version)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
