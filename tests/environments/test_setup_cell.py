"""The setup cell (coursebook.setup_cell) at the top of every chapter and homework master.

Its install path inside whole chapters (Colab-like, with and without PyPI's unrelated `perceptron`) is
exercised by tests/environments/test_colab_like.py; here: every notebook carries the current cell, it names
the version of src/perceptron/_version.py and the repository of _config.yml, the book hides it, in .venv it
does nothing and prints nothing, and in a scratch environment put in each state a student can reach (fresh,
ours installed, the SDK installed, ours overwritten by the SDK or left without its __init__.py, an older
version of ours) it leaves our package, alone and whole, importable.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from coursebook import ROOT, setup_cell

NOTEBOOKS = setup_cell.CHAPTERS + setup_cell.HOMEWORK


def test_every_notebook_carries_the_current_cell():
    done = subprocess.run([sys.executable, "-m", "coursebook.setup_cell", "--check"], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, f"stale setup cells (run python -m coursebook.setup_cell):\n{done.stdout}"
    assert len(setup_cell.CHAPTERS) >= 8 and len(setup_cell.HOMEWORK) >= 3


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_setup_cell_is_the_first_code_cell_hidden_from_the_book_and_folded_in_jupyter(path):
    """Removed from the HTML book; folded (its code collapsed, one click opens it) in JupyterLab and
    Notebook 7, where readers met some fifty lines of installer before the chapter's first sentence of
    code. Colab's fold (a form cell) is added to the Jupyter-native copies: test_jupyter_notebooks.py."""
    cells = json.loads(path.read_text())["cells"]
    first = next(c for c in cells if c["cell_type"] == "code")
    assert "".join(first["source"]).startswith(setup_cell.FIRST_LINE)
    assert first["metadata"].get("tags") == ["remove-cell"] and first["outputs"] == []
    assert first["metadata"].get("jupyter") == {"source_hidden": True}


def test_cell_installs_the_books_release_from_the_configured_repository():
    import perceptron

    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"].rstrip("/")
    source = setup_cell.cell_source()
    assert f'BOOK = "perceptron-course", "{perceptron.__version__}"' in source
    assert f'SOURCE = "git+{url}@v{perceptron.__version__}"' in source
    assert 'os.environ.get("PERCEPTRON_INSTALL_FROM")' in source
    homework = setup_cell.cell_source(homework=True)
    assert f'GRADER = "otter-grader", "{setup_cell.lock_version("otter-grader")}"' in homework


def test_cell_fits_the_code_column():
    for homework in (False, True):
        assert max(map(len, setup_cell.cell_source(homework).splitlines())) <= 80


@pytest.mark.parametrize("homework", [False, True], ids=["chapter", "homework"])
def test_cell_is_a_silent_no_op_where_the_package_is_installed(homework, tmp_path):
    # A PERCEPTRON_INSTALL_FROM that pip could not install proves that no installation is attempted.
    env = {"PATH": "/usr/bin:/bin", "PERCEPTRON_INSTALL_FROM": str(tmp_path / "no-such-wheel.whl")}
    done = subprocess.run([sys.executable, "-c", setup_cell.cell_source(homework)], capture_output=True,
                          text=True, env=env, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "" and done.stderr == ""


def test_cell_installs_when_the_version_differs(tmp_path):
    """With the wrong version 'installed', the cell goes to pip, with PERCEPTRON_INSTALL_FROM as source."""
    source = setup_cell.cell_source().replace(f'"{setup_cell.book_version()}"', '"0.0.0-not-this"', 1)
    env = {"PATH": "/usr/bin:/bin", "PERCEPTRON_INSTALL_FROM": str(tmp_path / "no-such-wheel.whl")}
    done = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, env=env,
                          cwd=tmp_path, check=False)
    assert done.returncode != 0
    assert "pip install" in done.stderr and "no-such-wheel.whl" in done.stderr


def test_the_html_book_hides_the_cell():
    pages = sorted((ROOT / "_build" / "html" / "notebooks").glob("*.html"))
    assert pages, "run `make book` first"
    for page in pages:
        assert "PERCEPTRON_INSTALL_FROM" not in page.read_text(encoding="utf-8"), f"{page.name} shows the setup cell"


# -- every state a student's environment can be in -----------------------------------------------------
# One scratch virtual environment with the package's dependencies (newest from PyPI, as test_colab_like),
# put in each state below, then the chapters' setup cell run in it (as a kernel runs it: one process,
# which then imports the package) and the package imported again in a fresh process. Needs PyPI.
SDK = "perceptron==0.4.0"  # PyPI's unrelated "Perceptron multimodal SDK": same import name
DEPENDENCIES = ["pip", "numpy", "scipy", "scikit-learn", "matplotlib", "ipywidgets", "numba", "pandas"]
OLD_VERSION = "0.0.9"
# What the cell must leave: ours alone, importable whole, at the book's version.
AFTER = """
import json, importlib.metadata as md, perceptron
owners = {d: md.version(d) for d in ("perceptron", "perceptron-course")
          if d in {x.metadata["Name"] for x in md.distributions()}}
print(json.dumps({"version": perceptron.__version__, "datasets": hasattr(perceptron, "datasets"),
                  "owners": owners, "file": perceptron.__file__}))
"""


def _run(cmd: list, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, check=False, **kwargs)
    assert done.returncode == 0, f"{' '.join(map(str, cmd))} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"
    return done


def _wheel(tmp: Path, version: str) -> Path:
    tree, out = tmp / f"tree-{version}", tmp / f"dist-{version}"
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, tree / name)
    version_file = tree / "src" / "perceptron" / "_version.py"
    text = version_file.read_text()
    version_file.write_text(text.replace(f'"{setup_cell.book_version()}"', f'"{version}"'))
    _run([sys.executable, "-m", "build", "--no-isolation", "--wheel", "--outdir", out, tree])
    (found,) = out.glob("perceptron_course-*.whl")
    return found


@pytest.fixture(scope="module")
def scratch(tmp_path_factory):
    """(python of the scratch venv, our wheel, an older wheel of ours, the SDK's wheel)."""
    tmp = tmp_path_factory.mktemp("setup-states")
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", venv])
    python = venv / "bin" / "python"
    uv = Path(sys.executable).with_name("uv")
    _run([uv, "pip", "install", "-q", "--python", python, *DEPENDENCIES],
         env={**os.environ, "UV_PYTHON_DOWNLOADS": "never"})
    _run([python, "-m", "pip", "download", "-q", "--no-deps", SDK, "-d", tmp / "sdk"])
    (sdk,) = (tmp / "sdk").glob("perceptron-*.whl")
    return python, _wheel(tmp, setup_cell.book_version()), _wheel(tmp, OLD_VERSION), sdk


def _pip(python, *args) -> None:
    _run([python, "-m", "pip", "-q", "--disable-pip-version-check", *args])


STATES = {
    "fresh": [],
    "ours installed": [["ours"]],
    "the SDK installed": [["sdk"]],
    "ours overwritten by the SDK": [["ours"], ["sdk"]],
    # What the previous setup cell made of the state above: the SDK uninstalled, our __init__.py with it.
    "ours without its __init__": [["ours"], ["sdk"], ["uninstall", "perceptron"]],
    "an older version of ours": [["old"]],
}


@pytest.mark.parametrize("state", STATES)
def test_cell_leaves_a_working_perceptron_in_every_state(scratch, state, tmp_path):
    python, ours, old, sdk = scratch
    _pip(python, "uninstall", "-y", "perceptron", "perceptron-course")
    wheels = {"ours": ours, "old": old, "sdk": sdk}
    for step in STATES[state]:
        if step[0] == "uninstall":
            _pip(python, "uninstall", "-y", step[1])
        else:  # --no-deps: the SDK's own dependencies play no part in which files it overwrites
            _pip(python, "install", "--no-deps", wheels[step[0]])
    env = {"PATH": "/usr/bin:/bin", "PERCEPTRON_INSTALL_FROM": str(ours), "HOME": str(tmp_path)}
    done = subprocess.run([python, "-c", setup_cell.cell_source() + "\n" + AFTER], capture_output=True,
                          text=True, env=env, cwd=tmp_path, check=False)
    assert done.returncode == 0, f"{state}: the setup cell failed:\n{done.stderr[-3000:]}"
    said, _, report = done.stdout.rstrip("\n").rpartition("\n")
    expected = "" if state == "ours installed" else f"Installed perceptron-course {setup_cell.book_version()} from {ours}"
    assert said == expected, f"{state}: the cell said {said!r}"
    fresh = json.loads(_run([python, "-c", AFTER], env=env, cwd=tmp_path).stdout)
    for seen in (json.loads(report), fresh):
        assert seen["version"] == setup_cell.book_version() and seen["datasets"], f"{state}: {seen}"
        assert seen["owners"] == {"perceptron-course": setup_cell.book_version()}, f"{state}: {seen}"
