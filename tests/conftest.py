"""What every group of tests shares: the order of the slowest files across xdist's workers.

The groups are folders by concern: package/ (the perceptron package, `make test-oldest` runs it
alone), book/ (the built book and its machinery), content/ (what the chapters say), homework/ (the
grader), environments/ (where the course runs); pdf/ and lighthouse/ have make targets of their own.
Nothing here imports more than the standard library and pytest: the package tests run in a scratch
environment of the package's oldest dependencies, with no book tools installed.
"""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent

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
