"""coursebook.oldest, which `make test-oldest` installs: every lower bound of pyproject.toml pinned."""

from __future__ import annotations

import tomllib

import pytest
from packaging.version import Version

from coursebook import ROOT, oldest


def test_every_dependency_is_pinned_at_its_declared_lower_bound():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = oldest.oldest_pins()
    assert len(pins) == len(declared)
    for spec_, pin in zip(declared, pins):
        name, bound = (part.strip() for part in spec_.split(">="))
        assert pin == f"{name}=={bound}"


def test_the_locked_versions_satisfy_the_declared_bounds():
    # The lock (what the book is built with) must lie inside the range pyproject.toml claims.
    locked = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        if "==" in line and not line.startswith("#"):
            name, _, version = line.partition("==")
            locked[name.strip().lower()] = Version(version.strip())
    for pin in oldest.oldest_pins():
        name, _, bound = pin.partition("==")
        assert locked[name.lower()] >= Version(bound), pin


def test_a_dependency_without_a_lower_bound_is_refused(tmp_path):
    bad = tmp_path / "pyproject.toml"
    bad.write_text('[project]\nname = "x"\ndependencies = ["numpy>=2.0", "scipy"]\n')
    with pytest.raises(SystemExit, match="'scipy' is not of the form 'name>=version'"):
        oldest.oldest_pins(bad)


def test_the_test_tools_come_from_the_lock():
    tools = oldest.locked_test_tools()
    assert [t.partition("==")[0] for t in tools] == list(oldest.TEST_TOOLS)
    assert all("==" in t for t in tools)
