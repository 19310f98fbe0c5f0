"""Build the homework: student notebooks and autograder zips, with ``otter assign`` (no Docker).

For every master of ``notebooks/homework/`` the build writes, under the output folder,
``<name>/student/<name>.ipynb`` (solutions and hidden tests stripped),
``<name>/autograder/<name>-autograder.zip`` and ``<name>/manifest.json``. The zip is otter's,
plus what :mod:`perceptron_homework` grades with: the assignment's tests and points and the
instructor's *secret* (``perceptron_homework.json``), made self-contained for Gradescope by
:func:`perceptron_homework.gradescope.package` (this checkout's wheel, the lock as constraints, a
``setup.sh`` that makes its own virtual environment and a ``run_autograder`` that grades in the
sandbox).

The secret also picks the assignment's *variant* (:func:`perceptron_homework.checks.variant`):
the build renders the master's ``{{ name }}`` placeholders (its rules, data, solutions and the
public tests' expected values) from it before ``otter assign`` sees the notebook, so the student
notebook states the variant's task and the answer key in ``autograder/`` solves it. The masters
are read from ``notebooks/homework`` or from any folder (``--masters``, ``$HOMEWORK_MASTERS``):
an instructor can keep theirs in a private repository.

The student notebook is also made ready to hand out: the setup cell (which installs otter and
the package where they are missing) comes before otter's ``import otter``, and otter's cell
finds the notebook's own file whatever its name (:mod:`perceptron_homework.student`).
"""

from __future__ import annotations

import atexit
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import zipfile
from pathlib import Path

from . import checks, gradescope
from .grading import CONFIG, Assignment, natural_key

_WHEEL_LOCK = threading.Lock()
_WHEELS: list[Path] = []


# A wheel of this checkout already built, used instead of building one (the tests' builds in
# subprocesses share one wheel of the session this way).
WHEEL_ENV = "PERCEPTRON_HOMEWORK_WHEEL"


def project_wheel() -> Path:
    """This checkout's wheel, built once per process (``pip wheel``, about 9 s) for every autograder zip,
    or the one that ``$PERCEPTRON_HOMEWORK_WHEEL`` names."""
    given = os.environ.get(WHEEL_ENV)
    if given:
        wheel = Path(given)
        if not (wheel.is_file() and wheel.name.startswith("perceptron_course-") and wheel.suffix == ".whl"):
            raise ValueError(f"{WHEEL_ENV}={given} is not a perceptron_course wheel")
        return wheel
    with _WHEEL_LOCK:
        if not _WHEELS:
            folder = Path(tempfile.mkdtemp(prefix="perceptron-wheel-"))
            atexit.register(shutil.rmtree, folder, True)
            _WHEELS.append(gradescope.build_wheel(folder))
        return _WHEELS[0]


PLACEHOLDER = re.compile(r"\{\{\s*(\w+)\s*\}\}")
MASTERS_ENV = "HOMEWORK_MASTERS"  # a folder of master notebooks, read instead of notebooks/homework
SETUP_FIRST_LINE = "# Setup:"  # the first line of the notebooks' setup cell (coursebook.setup_cell)
INIT_CELL = """\
# Initialize Otter (it finds this notebook's file and tests even if you rename it)
import otter
from perceptron_homework.student import notebook_file
grader = otter.Notebook(notebook_file("{name}"))"""


# The licence notice of every student notebook (CITATION.cff and LICENSE-TEXT name the title and the
# holder; tests/homework/test_hw_variants.py checks that they agree).
TITLE = "The Perceptron: linear classifiers, executed"
HOLDER = "The Perceptron module contributors"
LICENCE_NOTICE = (
    f"*From {TITLE}, © 2026 {HOLDER}. The text of this homework is licensed under the "
    "[Creative Commons Attribution 4.0 International licence (CC BY 4.0)]"
    "(https://creativecommons.org/licenses/by/4.0/), its code cells under the MIT License: you may share and "
    "adapt it, with credit to the source and a note of what you changed.*"
)


def find_masters(where: Path | str | None = None) -> list[Path]:
    """The master notebooks ``hw*.ipynb`` of a folder: ``where``, ``$HOMEWORK_MASTERS`` or the repository's.

    ``where`` may be a repository whose masters are in ``notebooks/homework``.
    """
    folder = Path(where or os.environ.get(MASTERS_ENV) or "notebooks/homework").expanduser()
    if (folder / "notebooks" / "homework").is_dir():
        folder = folder / "notebooks" / "homework"
    found = sorted(folder.glob("hw*.ipynb"))
    if not found:
        raise ValueError(f"no master notebooks hw*.ipynb in {folder}")
    return found


def render(text: str, values: dict, where: str = "") -> str:
    """Replace every ``{{ name }}`` of ``text`` by ``values[name]``; an unknown name is an error."""

    def one(match: re.Match) -> str:
        if match.group(1) not in values:
            raise ValueError(f"{where}: no value for the placeholder {{{{ {match.group(1)} }}}}")
        return str(values[match.group(1)])

    return PLACEHOLDER.sub(one, text)


def render_master(master: Path, values: dict) -> str:
    """The master notebook's JSON with its placeholders rendered from ``values``."""
    nb = json.loads(Path(master).read_text(encoding="utf-8"))
    for i, cell in enumerate(nb["cells"]):
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        cell["source"] = render(source, values, f"{master.name}, cell {i}")
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def build(master: Path, out: Path, *, secret: str = checks.PUBLIC_SECRET, run_tests: bool = True) -> Path:
    """Run ``otter assign`` on ``master`` and install its outputs in ``out/<name>``; return that.

    The master's placeholders are rendered from the variant that ``secret`` picks. With
    ``run_tests`` (otter's default) otter also grades the solutions against every public and
    hidden test, with the hidden tests' data drawn from ``secret``, and fails if one does not pass.
    """
    if not secret:
        raise ValueError("the secret must not be empty")
    master = Path(master)
    name = master.stem
    values = checks.variant(name, secret)
    with tempfile.TemporaryDirectory(prefix=f"{name}-") as tmp:
        # Assign from a rendered copy so that nothing otter writes lands in the repository.
        src = Path(tmp, "src")
        src.mkdir()
        (src / master.name).write_text(render_master(master, values), encoding="utf-8")
        (src / checks.SECRET_FILE).write_text(json.dumps({"secret": secret}) + "\n")
        dist = Path(tmp, "dist")
        cmd = [sys.executable, "-m", "otter", "assign", "--no-pdfs", str(src / master.name), str(dist)]
        run = subprocess.run(cmd + ([] if run_tests else ["--no-run-tests"]), capture_output=True, text=True, check=False,
                             cwd=src)
        if run.returncode != 0:
            raise RuntimeError(f"otter assign failed on {master}:\n{run.stdout}\n{run.stderr}")
        # otter stamps the zip's name with the time; a fixed name is what instructors link to.
        (zip_path,) = (dist / "autograder").glob("*.zip")
        zip_path = zip_path.rename(dist / "autograder" / f"{name}-autograder.zip")
        ready_to_hand_out(dist / "student" / master.name, name)
        for view in ("student", "autograder"):
            stable_cell_ids(dist / view / master.name)
        tests = autograder_tests(zip_path)
        known = set(checks.checks(name))
        named = {t["name"] for cases in tests.values() for t in cases}
        if named != known:
            raise RuntimeError(f"{master}: the tests in the notebook and in perceptron_homework.checks differ: "
                               f"{sorted(named ^ known)}")
        assignment = Assignment(name, secret, tests)
        add_grading_files(zip_path, assignment)
        # Self-contained for Gradescope: the wheel, the lock as constraints, setup.sh, run_autograder.
        gradescope.package(zip_path, wheels=[project_wheel()])
        manifest = {
            "assignment": name,
            "student_notebook": f"student/{name}.ipynb",
            "autograder_zip": f"autograder/{name}-autograder.zip",
            "points": assignment.points,
            "manual_points": manual_points(master),
            "secret_sha256": hashlib.sha256(secret.encode()).hexdigest()[:12],
        }
        (dist / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
        dest = out / name
        if dest.exists():
            shutil.rmtree(dest)
        out.mkdir(parents=True, exist_ok=True)
        shutil.move(str(dist), str(dest))
    return dest


def add_grading_files(zip_path: Path, assignment: Assignment) -> None:
    """Put the grading config (the secret, the tests' names and points) in the autograder zip."""
    replaced = {CONFIG: assignment.to_json()}
    tmp = zip_path.with_suffix(".tmp")
    with zipfile.ZipFile(zip_path) as old, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as new:
        for item in old.infolist():
            if item.filename not in replaced:
                new.writestr(item, old.read(item))
        for filename, text in replaced.items():
            info = zipfile.ZipInfo(filename, date_time=(2024, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            new.writestr(info, text)
    tmp.replace(zip_path)


def student_setup_cell(source: str) -> str:
    """The setup cell of a notebook students get: it installs the package from the student repository
    (``repository.student_url`` in _config.yml or ``$STUDENT_URL``, else ``repository.url``; see
    coursebook.edition), never from a private course's own repository, which students cannot read.
    Outside the book's checkout (no ``coursebook`` to import) the master's cell is kept."""
    try:
        from coursebook import edition, setup_cell
    except ModuleNotFoundError as error:
        if error.name != "coursebook":   # a module of the book's checkout is missing: a bug, not a context
            raise
        return source
    return setup_cell.cell_source("GRADER = " in source, url=edition.student_links()["url"])


def ready_to_hand_out(notebook: Path, name: str) -> None:
    """The setup cell first (installing from the student repository, :func:`student_setup_cell`), then
    otter's cell, which finds the notebook's file by its content; and the CC BY 4.0 notice of the text
    after the first Markdown cell.

    otter puts ``import otter`` in the notebook's first cell; where otter is not installed yet
    (Colab, a hub, a fresh environment) that cell failed before the setup cell could install it.
    """
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    init = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and "otter.Notebook(" in c.source]
    setup = [i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.source.startswith(SETUP_FIRST_LINE)]
    if len(init) != 1 or len(setup) != 1:
        raise RuntimeError(f"{notebook.name}: expected one otter cell and one setup cell, found {len(init)} and "
                           f"{len(setup)}")
    nb.cells[setup[0]].source = student_setup_cell(nb.cells[setup[0]].source)
    cell = nb.cells.pop(init[0])
    cell.source = INIT_CELL.format(name=name)
    setup_at = next(i for i, c in enumerate(nb.cells) if c.cell_type == "code" and c.source.startswith(SETUP_FIRST_LINE))
    nb.cells.insert(setup_at + 1, cell)
    # The licence notice, after the title and the instructions (the first Markdown cell).
    first = next(i for i, c in enumerate(nb.cells) if c.cell_type == "markdown")
    nb.cells.insert(first + 1, nbformat.v4.new_markdown_cell(LICENCE_NOTICE))
    nbformat.write(nb, notebook)


def stable_cell_ids(notebook: Path) -> None:
    """Number the cells: otter gives the cells it adds random ids, so rebuilds would differ."""
    import nbformat

    nb = nbformat.read(notebook, as_version=4)
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:03d}"
    nbformat.write(nb, notebook)


def manual_points(master: Path) -> dict[str, float]:
    """Points of the questions graded by hand, read from the master's question configs."""
    import nbformat
    import yaml

    found = {}
    for cell in nbformat.read(master, as_version=4).cells:
        if cell.cell_type == "raw" and cell.source.lstrip().startswith("# BEGIN QUESTION"):
            config = yaml.safe_load(cell.source.split("\n", 1)[1]) or {}
            if config.get("manual"):
                found[config["name"]] = config.get("points", 0)
    return found


def autograder_tests(autograder_zip: Path) -> dict[str, list[dict]]:
    """The test cases of every question in otter's zip, in order: name, points, hidden."""
    from otter.test_files.exception_test import ExceptionTestFile

    found = {}
    with zipfile.ZipFile(autograder_zip) as zf:
        for entry in sorted(n for n in zf.namelist() if re.fullmatch(r"tests/[^/]+\.py", n)):
            tf = ExceptionTestFile.from_string(zf.read(entry).decode(), path=entry)
            found[tf.name] = [{"name": tc.body.test_func.__name__, "points": tc.points, "hidden": tc.hidden}
                              for tc in tf.test_cases]
    return dict(sorted(found.items(), key=lambda kv: natural_key(kv[0])))
