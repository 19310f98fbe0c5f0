"""The setup cell (coursebook.setup_cell) at the top of every chapter and homework master.

Its install path (Colab-like, with and without PyPI's unrelated `perceptron`) is exercised by
tests/environments/test_colab_like.py; here: every notebook carries the current cell, it names the version of
src/perceptron/_version.py and the repository of _config.yml, the book hides it, and in .venv it
does nothing and prints nothing.
"""

from __future__ import annotations

import json
import subprocess
import sys

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
def test_setup_cell_is_the_first_code_cell_and_hidden_from_the_book(path):
    cells = json.loads(path.read_text())["cells"]
    first = next(c for c in cells if c["cell_type"] == "code")
    assert "".join(first["source"]).startswith(setup_cell.FIRST_LINE)
    assert first["metadata"].get("tags") == ["remove-cell"] and first["outputs"] == []


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
