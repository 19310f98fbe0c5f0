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
import time
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


# How `make test` spreads the tests over two workers (`pytest -n 2 --dist loadfile`). xdist's unit of work is a file, which one worker runs whole and in order
# (strict nbval runs a chapter's cells in order in one kernel; a module's fixtures are built once),
# the next unit in line going to whichever worker runs short. Here (``pytest_xdist_make_scheduler``)
# the files of SPLIT are cut into one unit per test function, and the units of SPLIT_BY_LAST_ID
# further by the last part of the test's id (the light and the dark pass over the pages): only where
# the units share no costly fixture (a browser page is a test's own, or its unit's; each of
# test_lab.py's two tests starts its own JupyterLab). The longest units go first (SLOW_FIRST, longest first, from the durations of
# `make test`), so that the two workers finish together instead of one running a long unit alone at
# the end; the scheduler keeps that order (xdist would order the units by their number of tests,
# as `--loadscope-reorder`, its default, does). Then the chapters' strict nbval runs (10-60 s each), then every other unit in collection
# order. The session's end prints each worker's total and the longest units (``WorkerTotals``).
SPLIT = ("tests/book/test_browser.py", "tests/environments/test_lab.py")
SPLIT_BY_LAST_ID = ("tests/book/test_browser.py::test_page_offline_accessible_and_legible",)
SLOW_FIRST = (
    "tests/environments/test_colab_like.py",
    "tests/homework/test_homework.py",
    "tests/book/test_browser.py::test_page_offline_accessible_and_legible[light]",  # axe, offline checks, sliders
    "tests/book/test_browser.py::test_page_offline_accessible_and_legible[dark]",  # axe, figures in dark mode
    "tests/environments/test_lab.py::test_gated_solutions_stay_folded_and_no_gate_shows_as_source",
    "tests/environments/test_lab.py::test_chapter_runs_renders_and_slides_in_jupyterlab",
    "tests/homework/test_formative_checks.py",
    "tests/homework/test_homeworks_2_3.py",
    "tests/homework/test_hw4.py",
    "tests/homework/test_autograder_image.py",
    "tests/homework/test_secrets.py",
    "tests/book/test_phone.py",
    "tests/homework/test_publishing.py",
    "tests/book/test_publish_student.py",  # one student build in a copy (2-3 min)
    "tests/book/test_playground.py",
    "tests/environments/test_setup_cell.py",
)
assert all((ROOT / name).is_file() for name in SPLIT), f"SPLIT names a missing file: {SPLIT}"
assert all((ROOT / name.split("::")[0]).is_file() for name in SLOW_FIRST), f"SLOW_FIRST names a missing file: {SLOW_FIRST}"


def unit_of(nodeid: str) -> str:
    """The unit of work of the test ``nodeid`` (relative to the repository, as pytest writes it)."""
    path, _, rest = nodeid.partition("::")
    if path not in SPLIT:
        return path
    function, _, params = rest.partition("[")
    unit = f"{path}::{function}"
    if unit in SPLIT_BY_LAST_ID and params:
        unit += f"[{params.removesuffix(']').rsplit('-', 1)[-1]}]"
    return unit


def pytest_collection_modifyitems(config, items):
    def rank(item) -> int:
        unit = unit_of(item.nodeid)
        if unit in SLOW_FIRST:
            return SLOW_FIRST.index(unit)
        return len(SLOW_FIRST) + (not unit.endswith(".ipynb"))  # a chapter's nbval run before the short files

    items.sort(key=rank)  # stable: every other test keeps its order


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config, log):
    """`--dist loadfile` with the units of ``unit_of``: xdist's scheduler of files, told what a unit is."""
    if config.getvalue("dist") != "loadfile":
        return None
    from xdist.scheduler import LoadFileScheduling

    config.option.loadscopereorder = False  # keep the order of SLOW_FIRST (the one place it is set)

    class UnitScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)

    return UnitScheduling(config, log)


class WorkerTotals:
    """The seconds each xdist worker spent in tests (setup, call and teardown) and when it reported
    last, and the longest units: printed at the end of a `make test`, to check the balance."""

    def __init__(self):
        self.start = time.monotonic()
        self.seconds: dict[str, float] = {}
        self.last: dict[str, float] = {}
        self.units: dict[str, float] = {}

    def pytest_runtest_logreport(self, report):
        node = getattr(report, "node", None)
        if node is None:
            return
        worker = node.gateway.id
        self.seconds[worker] = self.seconds.get(worker, 0.0) + report.duration
        self.last[worker] = time.monotonic() - self.start
        unit = unit_of(report.nodeid)
        self.units[unit] = self.units.get(unit, 0.0) + report.duration

    def pytest_terminal_summary(self, terminalreporter):
        if not self.seconds:
            return
        terminalreporter.write_sep("=", "time per xdist worker")
        for worker in sorted(self.seconds):
            terminalreporter.write_line(f"{worker}: {self.seconds[worker]:7.1f} s in tests, "
                                        f"last report at {self.last[worker]:6.1f} s")
        longest = sorted(self.units.items(), key=lambda kv: -kv[1])[:15]
        terminalreporter.write_line("longest units: " + "; ".join(f"{u} {s:.0f} s" for u, s in longest))


def pytest_configure(config):
    """Under xdist, the controller also counts each worker's time (``WorkerTotals``).

    Every process the session starts (xdist's workers, nbval's kernels, the Colab-like run) gets
    OpenBLAS's kernel family most different from this CPU's own, unless one is already chosen: strict
    nbval then checks that the chapters' committed outputs, executed on the maintainer's native kernel,
    do not depend on the kernel (tests/content/test_portable_outputs.py checks that it happened)."""
    if getattr(config.option, "numprocesses", None) and not hasattr(config, "workerinput"):
        config.pluginmanager.register(WorkerTotals(), "worker-totals")
    # One BLAS thread per process: `make test` runs two workers on two cores, each with a kernel or a
    # browser beside it, and OpenBLAS's own threads (as many as cores, spinning while they wait) would
    # make four or more runnable threads per core. The chapters' data are small enough that one thread
    # loses nothing; strict nbval checks that their outputs do not change with it.
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS"):
        os.environ.setdefault(name, "1")
    if hasattr(config, "workerinput") or "OPENBLAS_CORETYPE" in os.environ:
        return  # an xdist worker inherits the controller's choice; a chosen kernel is kept
    kernel = other_kernel(blas_architectures(), cpu_flags())
    if kernel is not None:
        os.environ["OPENBLAS_CORETYPE"] = kernel


@pytest.fixture(scope="session")
def root() -> Path:
    """The repository's root folder (for a test that reads a file of the checkout; a module that
    needs it at import time, for parametrize, imports ``coursebook.ROOT``, the same folder)."""
    return ROOT
