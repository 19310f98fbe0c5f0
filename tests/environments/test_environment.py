"""The pinned environment: requirements.lock (what `make` installs) and environment.yml (Binder) agree;
the distribution is perceptron-course with one version."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
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


def test_environment_pins_are_the_locks_versions():
    lock, env = lock_pins(), environment_pins()
    only_env = sorted(set(env) - set(lock))
    differ = sorted(f"{k}: lock {lock[k]} vs environment.yml {env[k]}" for k in set(lock) & set(env) if lock[k] != env[k])
    assert not (only_env or differ), f"only in environment.yml: {only_env}; differ: {differ}"


def test_environment_holds_what_a_student_runs_and_nothing_else():
    """Binder gets the runtime closure (package, grader, JupyterLab + jupyterlab-myst), not the dev stack."""
    from coursebook.environment import closure, roots

    env = set(environment_pins())
    needed = closure(roots())
    assert env == needed, f"missing: {sorted(needed - env)}; not needed: {sorted(env - needed)} (run make lock)"
    for package in ("jupyterlab", "jupyterlab-myst", "otter-grader", "numpy", "ipywidgets", "ipykernel"):
        assert package in env, f"{package} missing from environment.yml"
    for dev_tool in ("jupyter-book", "pytest", "playwright", "hypothesis", "nbval", "coverage", "build"):
        assert dev_tool not in env, f"{dev_tool} is a development tool, not for Binder"


def test_binder_installs_the_package_itself():
    assert "pip install --no-deps" in (ROOT / "postBuild").read_text()


def test_environment_yml_uses_python_311():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    assert "python=3.11" in env["dependencies"]


@pytest.mark.parametrize("package", [
    "jupyter-book", "numpy", "scikit-learn", "nbval", "otter-grader", "jupyterlab", "jupyterlab-myst"])
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


def test_distribution_name_and_single_version():
    """The distribution cannot collide with PyPI's unrelated `perceptron`; the version is in one file."""
    import tomllib
    from importlib.metadata import version

    import perceptron

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == "perceptron-course"
    assert "version" not in project and "version" in project["dynamic"]
    text = (ROOT / "src" / "perceptron" / "_version.py").read_text()
    assert f'__version__ = "{perceptron.__version__}"' in text
    assert version("perceptron-course") == perceptron.__version__, "stale install: run make install"
