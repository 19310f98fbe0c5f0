"""The oldest set `make test-oldest` installs (uv's --resolution lowest-direct, `make oldest-requirements`):
every dependency of pyproject.toml at its declared lower bound, the test tools as locked."""

from __future__ import annotations

import re
import subprocess
import tomllib

from packaging.version import Version

from coursebook import ROOT

BOUND = re.compile(r"^([A-Za-z0-9_.\-]+)\s*>=\s*([0-9][A-Za-z0-9_.]*)$")


def declared() -> list[str]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]


def test_every_dependency_declares_a_lower_bound():
    # lowest-direct would otherwise install the oldest release ever made: a bound nobody claimed.
    assert [spec for spec in declared() if not BOUND.match(spec.strip())] == []


def test_the_oldest_set_pins_every_lower_bound_and_the_locked_test_tools():
    done = subprocess.run(["make", "--no-print-directory", "-s", "oldest-requirements"], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    pins = {name.lower(): Version(v) for name, _, v in (line.partition("==") for line in done.stdout.split())}
    for spec in declared():
        name, bound = BOUND.match(spec.strip()).groups()
        assert pins[name.lower()] == Version(bound), spec
    lock = (ROOT / "requirements.lock").read_text()
    for tool in ("pytest", "pytest-xdist", "pytest-timeout", "hypothesis"):
        assert f"{tool}=={pins[tool]}" in lock, tool


def test_the_locked_versions_satisfy_the_declared_bounds():
    # The lock (what the book is built with) must lie inside the range pyproject.toml claims.
    locked = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, _, version = line.partition("==")
            locked[name.strip().lower()] = Version(version.strip())
    for spec in declared():
        name, bound = BOUND.match(spec.strip()).groups()
        assert locked[name.lower()] >= Version(bound), spec
