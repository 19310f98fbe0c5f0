"""The Jupyter-native chapters run where a student opens them: a Colab-like environment.

A fresh virtual environment gets only numpy, scipy, scikit-learn, matplotlib, ipywidgets, ipykernel
and nbclient, at the newest versions on PyPI when `make lock` last ran (requirements-colab.lock, not
requirements.lock: the gate gives the same answer from one day to the next), and no ``perceptron``. Every chapter
of _build/jupyter (written by `make book`) is executed from its first cell, in an empty directory,
with ``PERCEPTRON_INSTALL_FROM`` pointing at a wheel freshly built from this checkout: the first
chapter's setup cell must install it, the later chapters' (the same cell) find it working and say
nothing, and every cell run without error. The chapters run as a curious learner changed them
(tests/environments/tinker.py: other seeds, learning rates and sizes), which is the tinker test:
no teaching cell may raise, and a check may fail only saying it holds for the book's settings. Then PyPI's unrelated ``perceptron==0.4.0`` (same
import name) is preinstalled and chapters run again: the setup cell must replace it.

The same wheel and sdist must pass ``twine check``. Per-chapter times are printed and written to
_build/colab_like.json. Needs PyPI (pip's cache makes repeated runs fast).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
JUPYTER = ROOT / "_build" / "jupyter"
COLAB_LOCK = ROOT / "requirements-colab.lock"
# The decoy run covers the first chapter (the clean run covers all of them): what it tests is the
# setup cell, which is the same cell in every chapter (tests/environments/test_setup_cell.py checks that).
DECOY_CHAPTERS = ["01_geometry"]


def chapters() -> list[Path]:
    found = sorted((JUPYTER / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert found, "no Jupyter-native chapters in _build/jupyter: run `make book` first"
    return found


def run(cmd: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, check=False, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    # Built from a copy of the sources: setuptools' build/ folder would otherwise linger in the checkout
    # (and a module deleted from src/ could survive in it, into the next wheel).
    tree, out = tmp_path_factory.mktemp("tree"), tmp_path_factory.mktemp("dist")
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--wheel", "--outdir", out, tree])
    return out


@pytest.fixture(scope="module")
def wheel(dist) -> Path:
    (found,) = dist.glob("perceptron_course-*.whl")
    return found


@pytest.fixture(scope="module")
def colab(tmp_path_factory) -> Path:
    """The Colab-like environment: the newest scientific stack (requirements-colab.lock), no perceptron."""
    venv = tmp_path_factory.mktemp("colab") / "venv"
    run([sys.executable, "-m", "venv", venv])
    python = venv / "bin" / "python"
    # uv (in .venv, `make install`) installs the pinned set in seconds; the chapters' setup cell then
    # installs the book's wheel with the venv's own pip, as in Colab.
    uv = Path(sys.executable).with_name("uv")
    run([uv, "pip", "install", "-q", "--python", python, "-r", COLAB_LOCK],
        env={**os.environ, "UV_PYTHON_DOWNLOADS": "never"})
    return python


def test_wheel_and_sdist_pass_twine_check(dist):
    files = sorted(dist.iterdir())
    assert {f.suffix for f in files} >= {".whl", ".gz"}, files
    done = run([sys.executable, "-m", "twine", "check", "--strict", *files])
    assert done.stdout.count("PASSED") == len(files), done.stdout


def test_wheel_is_perceptron_course_at_the_book_version(wheel):
    import perceptron

    assert wheel.name.startswith(f"perceptron_course-{perceptron.__version__}-"), wheel.name


def execute(colab: Path, wheel: Path, scenario: str, notebooks: list[Path], tmp_path: Path, **env) -> list[dict]:
    result = tmp_path / f"{scenario}.json"
    environ = {**os.environ, "PERCEPTRON_INSTALL_FROM": str(wheel), **env}
    environ.pop("PYTHONPATH", None)
    run([colab, Path(__file__).with_name("colab_like.py"), result, scenario, *notebooks], env=environ, cwd=tmp_path)
    return json.loads(result.read_text())


def check(records: list[dict], wheel: Path) -> None:
    """The first notebook's setup cell installed the wheel; the later ones' found it and did nothing."""
    for k, r in enumerate(records):
        assert r["error"] is None, f"{r['notebook']} ({r['scenario']}) failed:\n{r['error']}"
        expected = f"Installed perceptron-course {wheel.name.split('-')[1]} from {wheel}\n" if k == 0 else ""
        assert r["setup_output"] == expected, f"{r['notebook']}: setup cell said {r['setup_output']!r}"
        assert r["installed_after"] == {"perceptron-course": wheel.name.split("-")[1]}, r["installed_after"]


def report(records: list[dict]) -> None:
    path = ROOT / "_build" / "colab_like.json"
    old = json.loads(path.read_text()) if path.exists() else []
    keep = [r for r in old if r["scenario"] not in {n["scenario"] for n in records}]
    path.write_text(json.dumps(keep + records, indent=1))
    for r in records:
        print(f"colab-like {r['scenario']:5} {r['notebook']:28} {r['seconds']:7.1f} s")


def test_the_package_installs_and_every_chapter_runs_as_a_learner_changed_it(colab, wheel, tmp_path):
    """Each chapter with the learner's edits of tests/environments/tinker.py (seeds, rates, sizes that
    are not the book's): the first chapter's setup cell installs the wheel (the others' then do
    nothing: tests/environments/test_setup_cell.py checks that every chapter carries that one cell), no teaching cell raises, and every check
    that fails says it holds for the book's settings (the book's own settings run under nbval)."""
    records = execute(colab, wheel, "clean", chapters(), tmp_path)
    report(records)
    check(records, wheel)
    assert [r["notebook"] for r in records] == [p.name for p in chapters()]
    print(f"tinkered: {sum(len(r['checks_naming_settings']) for r in records)} checks named the book's settings")


def test_setup_cell_replaces_the_unrelated_pypi_perceptron(colab, wheel, tmp_path):
    decoy_dir = tmp_path / "decoy"
    # PyPI's perceptron 0.4.0 ("Perceptron multimodal SDK"), with its dependencies (Pillow<12 among
    # them), as a student gets it: the wheel fetched once, then installed with what it requires by uv
    # (the newest versions that fit, as pip's resolver picks them; pip took minutes to resolve them).
    run([colab, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps", "perceptron==0.4.0",
         "-d", decoy_dir])
    (decoy,) = decoy_dir.glob("perceptron-0.4.0-*.whl")
    uv = Path(sys.executable).with_name("uv")
    run([uv, "pip", "install", "-q", "--python", colab, decoy], env={**os.environ, "UV_PYTHON_DOWNLOADS": "never"})
    notebooks = [JUPYTER / "notebooks" / f"{name}.ipynb" for name in DECOY_CHAPTERS]
    records = execute(colab, wheel, "decoy", notebooks, tmp_path, DECOY_WHEEL=str(decoy))
    report(records)
    check(records, wheel)


def pins(path: Path) -> dict[str, str]:
    found = {}
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if "==" in line:
            name, version = line.split("==")
            found[name.strip().lower().replace("_", "-")] = version.strip()
    return found


def test_colab_lock_pins_the_stack_no_older_than_the_books_lock():
    """requirements-colab.lock stands for "the newest on PyPI": every package of requirements-colab.in is
    pinned in it, at a version no older than requirements.lock's (which `make lock` moves together)."""
    from packaging.version import Version

    wanted = [line.split("#")[0].strip().lower() for line in (ROOT / "requirements-colab.in").read_text().splitlines()]
    colab, book = pins(COLAB_LOCK), pins(ROOT / "requirements.lock")
    missing = [name for name in wanted if name and name not in colab]
    assert not missing, f"requirements-colab.lock does not pin {missing}: run `make lock`"
    older = {name: (colab[name], book[name]) for name in colab if name in book and Version(colab[name]) < Version(book[name])}
    assert not older, f"requirements-colab.lock is older than requirements.lock for {older}: run `make lock`"
