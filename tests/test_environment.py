"""The pinned environment: requirements.lock (what `make` installs) and environment.yml (Binder) agree."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^([A-Za-z0-9_.\-]+)==([^\s;]+)$")


def normalise(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_pins() -> dict[str, str]:
    pins = {}
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        match = PIN.match(line)
        assert match, f"requirements.lock line is not an exact pin: {line!r}"
        pins[normalise(match[1])] = match[2]
    return pins


def environment_pins() -> dict[str, str]:
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_sections = [d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d]
    assert len(pip_sections) == 1, "environment.yml must have exactly one pip section"
    pins = {}
    for entry in pip_sections[0]:
        match = PIN.match(entry.strip())
        assert match, f"environment.yml pip entry is not an exact pin: {entry!r}"
        pins[normalise(match[1])] = match[2]
    return pins


def test_lock_and_environment_pin_the_same_versions():
    lock, env = lock_pins(), environment_pins()
    only_lock = sorted(set(lock) - set(env))
    only_env = sorted(set(env) - set(lock))
    differ = sorted(f"{k}: lock {lock[k]} vs environment.yml {env[k]}" for k in set(lock) & set(env) if lock[k] != env[k])
    assert not (only_lock or only_env or differ), f"only in lock: {only_lock}; only in environment.yml: {only_env}; differ: {differ}"


def test_environment_yml_uses_python_311():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert "python=3.11" in env["dependencies"]


@pytest.mark.parametrize("package", ["jupyter-book", "numpy", "scikit-learn", "nbval", "otter-grader"])
def test_installed_versions_match_the_lock(package):
    from importlib.metadata import version

    assert version(package) == lock_pins()[package], f"{package} in .venv differs from requirements.lock: run make install"


def test_jupyter_book_is_the_sphinx_based_1x():
    assert lock_pins()["jupyter-book"].startswith("1."), "Jupyter Book 2 cannot build offline here; pin jupyter-book<2"


def test_package_dependencies_are_all_pinned():
    import tomllib

    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    lock = lock_pins()
    missing = [d for d in deps if normalise(re.split(r"[<>=!~ \[]", d)[0]) not in lock]
    assert not missing, f"declared in pyproject.toml but not pinned in requirements.lock: {missing}"
