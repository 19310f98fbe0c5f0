"""Print the requirements of the oldest-versions test: every lower bound pyproject.toml declares, pinned.

Each ``name>=X`` of ``[project].dependencies`` becomes ``name==X`` (a dependency without a lower
bound is refused: its oldest version is not a claim anyone made). The test tools, which the package
does not depend on, are pinned as in requirements.lock. ``make test-oldest`` installs this set in a
scratch environment and runs the package tests there, so the bounds in pyproject.toml are tested
claims.
"""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

from . import ROOT

TEST_TOOLS = ("pytest", "pytest-xdist", "pytest-timeout", "hypothesis")
BOUND = re.compile(r"^([A-Za-z0-9_.\-]+)\s*>=\s*([0-9][A-Za-z0-9_.]*)$")


def oldest_pins(pyproject: Path = ROOT / "pyproject.toml") -> list[str]:
    """``name==version`` for every dependency of the package, at its declared lower bound."""
    dependencies = tomllib.loads(pyproject.read_text())["project"]["dependencies"]
    pins = []
    for spec in dependencies:
        match = BOUND.match(spec.strip())
        if not match:
            raise SystemExit(f"pyproject.toml: {spec!r} is not of the form 'name>=version'")
        pins.append(f"{match[1]}=={match[2]}")
    return pins


def locked_test_tools(lock: Path = ROOT / "requirements.lock") -> list[str]:
    """The test tools' pins from requirements.lock."""
    wanted = {name: None for name in TEST_TOOLS}
    for line in lock.read_text().splitlines():
        name = line.partition("==")[0].strip().lower()
        if name in wanted:
            wanted[name] = line.strip()
    missing = [name for name, pin in wanted.items() if pin is None]
    if missing:
        raise SystemExit(f"requirements.lock pins no version of {', '.join(missing)}")
    return list(wanted.values())


if __name__ == "__main__":
    sys.stdout.write("\n".join(oldest_pins() + locked_test_tools()) + "\n")
