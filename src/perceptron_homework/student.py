"""What a student notebook's otter cell calls: find the notebook's own file, whatever its name.

``grader.check("q1")`` runs the public tests that ``otter assign`` stored in the notebook's
metadata, and otter reads them from the notebook's *file*, by the name given to
``otter.Notebook``. A student notebook is often renamed (``hw1_perceptron (1).ipynb`` after a
second download, ``hw1_alice.ipynb`` before handing in); with the name fixed in the cell, every
check of the renamed copy then stopped with ``FileNotFoundError``. The build writes instead
``otter.Notebook(notebook_file("hw1_perceptron"))``, and :func:`notebook_file` finds the file
that holds that assignment's tests.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def _assignment_of(path: Path) -> str | None:
    try:
        with open(path, encoding="utf-8") as fh:
            metadata = json.load(fh).get("metadata", {})
    except (OSError, ValueError, AttributeError):
        return None
    otter = metadata.get("otter") if isinstance(metadata, dict) else None
    return otter.get("assignment_name") if isinstance(otter, dict) else None


def notebook_file(assignment: str, folder: str | os.PathLike = ".") -> str:
    """The path of the notebook file that holds ``assignment``'s public tests.

    Looked for in this order: the notebook the Jupyter server says the kernel runs
    (``JPY_SESSION_NAME``), ``<assignment>.ipynb`` in ``folder``, then every ``.ipynb`` in
    ``folder``, the most recently saved first. The first whose metadata names ``assignment``
    wins.

    Raises
    ------
    FileNotFoundError
        When no notebook file of ``assignment`` is in ``folder``, with what to do about it.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> nb = {"cells": [], "metadata": {"otter": {"assignment_name": "hw1_perceptron"}}}
    >>> _ = (folder / "hw1 (1).ipynb").write_text(json.dumps(nb))
    >>> pathlib.Path(notebook_file("hw1_perceptron", folder)).name
    'hw1 (1).ipynb'
    """
    folder = Path(folder)
    candidates = []
    session = os.environ.get("JPY_SESSION_NAME")
    if session:
        candidates += [Path(session), folder / Path(session).name]
    candidates.append(folder / f"{assignment}.ipynb")
    others = []
    for path in folder.glob("*.ipynb"):
        try:
            others.append((-path.stat().st_mtime, path.name, path))
        except OSError:
            continue
    candidates += [path for _, _, path in sorted(others)]
    for path in candidates:
        if path.suffix == ".ipynb" and path.is_file() and _assignment_of(path) == assignment:
            return str(path)
    raise FileNotFoundError(
        f"no notebook file of {assignment} in {folder.resolve()}: grader.check reads this notebook's "
        "public tests from its .ipynb file, so save the notebook (File > Save) in the folder the "
        "kernel runs in, then run this cell again"
    )


# The library functions a "write it yourself" question must not call (the public tests' watch;
# grading forbids ``perceptron_homework.checks.NOTHING_OF_THE_PACKAGE`` in the student's process).
LIBRARY = ("perceptron", "sklearn")


def library_calls(function, *args, library: tuple[str, ...] = LIBRARY, **kwargs):
    """Call ``function(*args, **kwargs)``; return its result and the library functions it called.

    ``library`` names the watched modules (a name watches its submodules too): a question that
    allows ``perceptron.max_margin`` but not ``perceptron.mistake_bound`` watches ``perceptron.bounds``.

    A public test uses it to tell a student, while they work, that their function hands the
    question to the package (``perceptron.prototype``, ``perceptron.pocket``...) instead of
    implementing it. The watch is a profile hook: a deterrent, as the grader's own.

    Examples
    --------
    >>> import perceptron
    >>> library_calls(perceptron.radius, [[3.0, 4.0]])[1][:1]
    ['perceptron.margins.radius']
    >>> library_calls(perceptron.radius, [[3.0, 4.0]], library=("perceptron.bounds",))
    (5.0, [])
    >>> library_calls(max, [1, 2])
    (2, [])
    """
    import sys

    called: list[str] = []
    below = tuple(f"{name}." for name in library)

    def watch(frame, event, arg):
        module = frame.f_globals.get("__name__", "")
        if event == "call" and isinstance(module, str) and (module in library or module.startswith(below)):
            called.append(f"{module}.{frame.f_code.co_name}")

    previous = sys.getprofile()
    sys.setprofile(watch)
    try:
        result = function(*args, **kwargs)
    finally:
        sys.setprofile(previous)
    return result, called
