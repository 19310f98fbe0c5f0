"""The setup cell at the top of every chapter and homework notebook, written from one template.

The cell must run before the package is installed, so it cannot import it: it is a few lines of
standard-library Python that the notebooks carry verbatim. Where the book's own ``perceptron``
(distribution ``perceptron-course`` at the book's version, alone, importing whole: ``perceptron.datasets``
there) it does nothing and prints nothing (the project's .venv, Binder after postBuild, a lab that
installed it); anywhere else (Colab, a JupyterHub, Kaggle, a bare Jupyter) it removes the unrelated PyPI
project ``perceptron`` if present (it imports as ``perceptron`` too), installs ours and says so in one
line. Then it imports the package again: where the other project had overwritten our files (``pip
install perceptron`` writes its own ``perceptron/__init__.py`` over ours, and uninstalling it deletes
that file), pip finds ours "already satisfied", so the cell reinstalls it (``--force-reinstall
--no-deps``) and fails loudly if even that does not import. ``PERCEPTRON_INSTALL_FROM``
(anything ``pip install`` accepts) overrides where from; the default is the book's release, the
repository named once in ``_config.yml`` (``repository.url``) at the tag ``v<version>``.

    python -m coursebook.setup_cell          # insert or refresh the cell in every notebook
    python -m coursebook.setup_cell --check  # exit 1 if a notebook's cell is missing or stale
    python -m coursebook.setup_cell NB ...   # only these notebooks (a homework master's name starts with hw)
    python -m coursebook.setup_cell --digest # a digest of the cells' text (the Makefile's homework stamp)

`make book`, `make student` and `make homework` run it first: a fork that changes ``repository.url``
gets every setup cell installing from the fork at its next build (the changed notebooks are then
the fork's to commit).

tests/environments/test_setup_cell.py runs the check and executes the cell in clean and polluted environments.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
from pathlib import Path

import nbformat
import yaml

from . import CHAPTERS, ROOT, book_version, content

HOMEWORK = sorted((ROOT / "notebooks" / "homework").glob("hw*.ipynb"))
DISTRIBUTION = "perceptron-course"
FIRST_LINE = "# Setup: the book's `perceptron` package"
TAGS = ["remove-cell"]  # hidden in the HTML book; nbval and every Jupyter still run it
JUPYTER = {"source_hidden": True}  # folded in JupyterLab and Notebook 7 (a click shows it): nobody need read it
# Colab ignores jupyter.source_hidden: it folds a form cell (cellView "form"), showing this first line's
# title in place of the code. The Jupyter-native copies Colab opens get it (coursebook.notebooks.colab_form).
COLAB_TITLE = "# @title Setup: run this cell first (you need not read it)"

TEMPLATE = '''\
# Setup: the book's `perceptron` package; you need not read this cell.
# It does nothing where {dist} {version} works; elsewhere (Colab,
# JupyterHub, Kaggle) installs it, from $PERCEPTRON_INSTALL_FROM if set,
# replacing PyPI's unrelated one, and reinstalls it where that one
# overwrote or removed its files.
import importlib
import importlib.metadata as md
import os
import subprocess
import sys

BOOK = "{dist}", "{version}"
SOURCE = "git+{url}@v{version}"{extra_def}

def installed(dist):
    try:
        return md.version(dist)
    except md.PackageNotFoundError:
        return None

def pip(*args):
    done = subprocess.run([sys.executable, "-m", "pip", "-q", *args],
                          capture_output=True, text=True, check=False)
    if done.returncode:
        raise RuntimeError(f"pip {{' '.join(args)}} failed:\\n{{done.stderr}}")

def forget():
    for name in [m for m in sys.modules if m.split(".")[0] == "perceptron"]:
        del sys.modules[name]
    importlib.invalidate_caches()

def works():  # ours alone, at the book's version, and it imports whole
    if installed(BOOK[0]) != BOOK[1] or installed("perceptron"):
        return False
    try:
        import perceptron
    except ImportError:
        forget()
        return False
    version = getattr(perceptron, "__version__", None)
    return version == BOOK[1] and hasattr(perceptron, "datasets")

wrong = not works(){extra_test}
if wrong:
    source = os.environ.get("PERCEPTRON_INSTALL_FROM") or SOURCE
    if installed("perceptron"):  # someone else's package, same import name
        pip("uninstall", "-y", "perceptron")
    forget()
    pip("install", source{extra_args})
    forget()
    if not works():  # our files overwritten or deleted by the other one
        pip("install", "--force-reinstall", "--no-deps", source)
        forget()
    if not works():
        raise RuntimeError(f"{{BOOK[0]}} from {{source}} does not import")
    print(f"Installed {{BOOK[0]}} {{installed(BOOK[0])}} from {{source}}")'''

HOMEWORK_EXTRA = {
    "extra_def": '\nGRADER = "otter-grader", "{otter}"  # the homework\'s grader',
    "extra_test": "\nwrong = wrong or installed(GRADER[0]) is None",
    "extra_args": ', "==".join(GRADER)',
}


def repository_url() -> str:
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    return config["repository"]["url"].rstrip("/")


def lock_version(package: str) -> str:
    for line in (ROOT / "requirements.lock").read_text().splitlines():
        name, _, pinned = line.partition("==")
        if re.sub(r"[-_.]+", "-", name.strip()).lower() == package:
            return pinned.strip()
    raise ValueError(f"{package} is not pinned in requirements.lock")


def cell_source(homework: bool = False, url: str | None = None) -> str:
    """The cell, installing from ``url`` (default: ``repository.url``; the student edition's: the student repository)."""
    fields = {"dist": DISTRIBUTION, "version": book_version(), "url": (url or repository_url()).rstrip("/"),
              "extra_def": "", "extra_test": "", "extra_args": ""}
    if homework:
        fields.update({k: v.format(otter=lock_version("otter-grader")) for k, v in HOMEWORK_EXTRA.items()})
    return TEMPLATE.format(**fields)


def _untitled(text: str) -> tuple[bool, str]:
    """Whether ``text`` starts with the Colab title of a Jupyter-native copy, and the text after it."""
    titled = text.startswith(COLAB_TITLE + "\n")
    return titled, text[len(COLAB_TITLE) + 1:] if titled else text


def is_setup_cell(cell) -> bool:
    """The setup cell, in a committed notebook or in a Jupyter-native copy (after its Colab title)."""
    return cell["cell_type"] == "code" and _untitled(content.source(cell))[1].startswith(FIRST_LINE)


def write_source(cell, source: str) -> None:
    """Give a setup cell the template's ``source``, keeping the Colab title of a Jupyter-native copy."""
    cell["source"] = f"{COLAB_TITLE}\n{source}" if _untitled(content.source(cell))[0] else source


def update(path: Path, homework: bool, check: bool) -> bool:
    """Insert or refresh the cell before the first code cell; True when the file is (or would be) changed."""
    nb = nbformat.read(path, as_version=4)
    source = cell_source(homework)
    existing = [i for i, cell in enumerate(nb.cells) if is_setup_cell(cell)]
    if existing:
        cell = nb.cells[existing[0]]
        folded = all(cell.metadata.get("jupyter", {}).get(k) is v for k, v in JUPYTER.items())
        if cell.source == source and cell.metadata.get("tags") == TAGS and folded and not cell.outputs:
            return False
        if check:
            return True
        cell.source, cell.outputs = source, []   # its execution_count stays: the run it records is the chapter's
        cell.metadata["tags"] = TAGS
        cell.metadata.setdefault("jupyter", {}).update(JUPYTER)
    else:
        if check:
            return True
        first_code = next(i for i, cell in enumerate(nb.cells) if cell.cell_type == "code")
        cell = nbformat.v4.new_code_cell(source, metadata={"tags": TAGS, "jupyter": dict(JUPYTER)})
        cell.id = f"setup-{path.stem[:20]}"
        nb.cells.insert(first_code, cell)
    text = nbformat.writes(nb) + "\n"  # nbformat's own layout (indent=1), as the repository keeps it
    path.write_text(text, encoding="utf-8")
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="only these notebooks (default: every chapter and "
                                                                "homework master)")
    parser.add_argument("--check", action="store_true", help="report stale notebooks, change nothing")
    parser.add_argument("--digest", action="store_true", help="print a digest of the cells' text and stop")
    args = parser.parse_args(argv)
    if args.digest:
        from .edition import student_links  # the homework's student notebooks install from there

        text = cell_source(False) + "\0" + cell_source(True) + "\0" + student_links()["url"]
        print(hashlib.sha256(text.encode()).hexdigest())
        return 0
    if args.notebooks:
        missing = [p for p in args.notebooks if not p.is_file()]
        if missing:
            raise SystemExit(f"error: no notebook {missing[0]}")
        chosen = [(p.resolve(), p.name.startswith("hw")) for p in args.notebooks]
    else:
        chosen = [(p, False) for p in CHAPTERS] + [(p, True) for p in HOMEWORK]
    stale = [p for p, homework in chosen if update(p, homework, args.check)]
    for path in stale:
        shown = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
        print(f"{'stale' if args.check else 'updated'}: {shown}")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
