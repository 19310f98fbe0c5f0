"""Write environment.yml (Binder) from requirements.lock: what a student runs, at the lock's versions.

Binder gets the package's runtime dependencies, the homework grader (otter-grader), JupyterLab with
jupyterlab-myst (so the MyST chapters render as a book, not as markup) and everything those need,
each pinned exactly as in requirements.lock; the development tools (jupyter-book, pytest, playwright,
...) stay out. The dependency closure is read from the installed metadata, so run this with the
project's .venv (`make lock` does). tests/environments/test_environment.py recomputes it and compares.
"""

from __future__ import annotations

import re
import sys
import tomllib
from importlib import metadata

from packaging.requirements import Requirement

from . import ROOT

# Beyond the package's own dependencies: what a student's session runs.
STUDENT = ["otter-grader", "jupyterlab", "jupyterlab-myst", "ipykernel"]
HEADER = """\
# Binder environment: what a student runs (the package's dependencies, otter-grader for the homework,
# JupyterLab with jupyterlab-myst), pinned exactly as in requirements.lock; postBuild installs the
# perceptron package itself. Written by book/_ext/coursebook/environment.py (`make lock`); checked by
# tests/environments/test_environment.py.
name: perceptron
channels:
  - conda-forge
dependencies:
  - python=3.11
  - pip
  - pip:
"""


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_lines() -> dict[str, str]:
    lines = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            lines[normalise(line.split("==")[0])] = line.strip()
    return lines


def roots() -> list[str]:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    return [Requirement(d).name for d in deps] + STUDENT


def closure(names: list[str]) -> set[str]:
    """Every distribution the named ones need at run time (no extras), by installed metadata."""
    seen: set[str] = set()
    todo = [normalise(n) for n in names]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for spec in metadata.requires(name) or []:
            req = Requirement(spec)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(normalise(req.name))
    return seen


def render() -> str:
    lock = lock_lines()
    needed = closure(roots())
    missing = sorted(needed - set(lock))
    if missing:
        raise SystemExit(f"not pinned in requirements.lock: {missing}")
    pins = sorted((lock[name] for name in needed), key=str.lower)
    return HEADER + "".join(f"      - {p}\n" for p in pins)


if __name__ == "__main__":
    text = render()
    if "--check" in sys.argv:
        sys.exit(0 if (ROOT / "environment.yml").read_text() == text else 1)
    (ROOT / "environment.yml").write_text(text)
