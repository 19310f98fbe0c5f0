"""What every group of tests shares: a built folder served on 127.0.0.1, Debian's Chromium, and the
order of the slowest files across xdist's workers.

The groups are folders by concern: package/ (the perceptron package, `make test-oldest` runs it
alone), book/ (the built book and its machinery), content/ (what the chapters say), homework/ (the
grader), environments/ (where the course runs); pdf/ and lighthouse/ have make targets of their own.
Nothing here imports more than the standard library and pytest at module level: the package tests
run in a scratch environment of the package's oldest dependencies, with no Playwright; the
``browser`` fixture imports it when a test asks for it. Helpers that tests import are in
tests/support/.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.support.blas import blas_architectures, cpu_flags, other_kernel
from tests.support.browser import CHROMIUM, FLAGS, Site, serve_folder

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent


@pytest.fixture(scope="module")
def site() -> Site:
    """What ``server`` serves: the HTML book. A test module overrides this fixture to serve another
    built folder (tests/book/test_slides.py serves _build/slides)."""
    return Site(ROOT / "_build" / "html", "make book")


@pytest.fixture(scope="module")
def server(site: Site):
    """The base URL of ``site`` served over HTTP on 127.0.0.1 at a free port, for the module's tests."""
    assert (site.folder / "index.html").exists(), \
        f"{site.folder.relative_to(ROOT)} is not built: run `{site.target}` (make test does it first)"
    with serve_folder(site.folder) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    """Debian's Chromium (never a browser download of Playwright's), headless, launched by Playwright."""
    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: `make test` installs Debian's chromium with apt-get"
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=FLAGS)
        yield chromium
        chromium.close()


# The longest test files first, so that `pytest -n 2 --dist loadfile` (make test) starts them at once
# on the two workers instead of leaving one of them to finish alone at the end.
SLOW_FIRST = ("environments/test_colab_like.py", "environments/test_lab.py")
assert all((TESTS / name).is_file() for name in SLOW_FIRST), f"SLOW_FIRST names a missing file: {SLOW_FIRST}"


def pytest_collection_modifyitems(config, items):
    def rank(item) -> int:
        path = item.path.resolve()
        name = path.relative_to(TESTS).as_posix() if path.is_relative_to(TESTS) else None
        return SLOW_FIRST.index(name) if name in SLOW_FIRST else len(SLOW_FIRST)

    items.sort(key=rank)  # stable: every other test keeps its order


def pytest_configure(config):
    """Every process the session starts (xdist's workers, nbval's kernels, the Colab-like run) gets
    OpenBLAS's kernel family most different from this CPU's own, unless one is already chosen: strict
    nbval then checks that the chapters' committed outputs, executed on the maintainer's native kernel,
    do not depend on the kernel (tests/content/test_portable_outputs.py checks that it happened)."""
    if hasattr(config, "workerinput") or "OPENBLAS_CORETYPE" in os.environ:
        return  # an xdist worker inherits the controller's choice; a chosen kernel is kept
    kernel = other_kernel(blas_architectures(), cpu_flags())
    if kernel is not None:
        os.environ["OPENBLAS_CORETYPE"] = kernel
