"""Run by tests/environments/test_colab_like.py with the Python of a Colab-like virtual environment
(not .venv).

    python colab_like.py RESULT.json SCENARIO NOTEBOOK...

Puts the environment in the scenario's starting state once, then executes each notebook in order
from its first cell with nbclient, a kernel of its own, in an empty working directory (no repository
around it, as in Colab), ``PERCEPTRON_INSTALL_FROM`` being inherited from the caller: the first
notebook's setup cell installs the package, and the later ones' (the same cell in every chapter:
tests/environments/test_setup_cell.py) find it working and do nothing, as in a JupyterHub where it is
installed, without a reinstall of the same wheel per chapter. Scenarios:

- ``clean``: no ``perceptron`` of any kind installed (perceptron-course is uninstalled first), and
  the chapter as a curious learner has edited it (tinker.py: other seeds, rates and sizes): every
  teaching cell must run, and a check that fails must say it holds for the book's settings;
- ``decoy``: PyPI's unrelated ``perceptron`` (the wheel named by ``DECOY_WHEEL``) installed instead.

Writes, per notebook: wall time, the setup cell's output, the first error (if any; under tinkering,
what tinker.problems finds), the messages of the checks that failed under tinkering, and which
distributions own the ``perceptron`` import name afterwards.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

# tests/environments/tinker.py: beside this script when it runs in the Colab-like environment (no `tests`
# package there), a sibling module when pytest's --doctest-modules imports this file.
if __package__:
    from . import tinker
else:
    import tinker

KERNEL = "colab-like"


def pip(*args: str) -> None:
    subprocess.run([sys.executable, "-m", "pip", "-q", "--disable-pip-version-check", *args], check=True,
                   stdout=subprocess.DEVNULL)


def installed() -> dict[str, str]:
    out = {}
    for name in ("perceptron", "perceptron-course"):
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return out


def installed_in_subprocess() -> dict[str, str]:
    # importlib.metadata caches nothing across processes; ask a fresh interpreter.
    code = ("import json; from importlib import metadata\nout = {}\n"
            "for name in ('perceptron', 'perceptron-course'):\n"
            "    try:\n        out[name] = metadata.version(name)\n"
            "    except metadata.PackageNotFoundError:\n        pass\nprint(json.dumps(out))")
    return json.loads(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def prepare(scenario: str) -> None:
    pip("uninstall", "-y", "perceptron-course", "perceptron")
    if scenario == "decoy":
        pip("install", "--no-deps", os.environ["DECOY_WHEEL"])
    assert installed_in_subprocess() == ({"perceptron": "0.4.0"} if scenario == "decoy" else {}), \
        installed_in_subprocess()


def run(path: Path, scenario: str) -> dict:
    nb = nbformat.read(path, as_version=4)
    record = {"notebook": path.name, "scenario": scenario, "error": None, "checks_naming_settings": []}
    tinkering = scenario == "clean"
    if tinkering:  # a learner's edits (tinker.py): teaching cells must run, failing checks must say why
        nb = tinker.tinker(nb, path.stem)
    with tempfile.TemporaryDirectory() as cwd:
        client = NotebookClient(nb, kernel_name=KERNEL, timeout=600, allow_errors=tinkering,
                                resources={"metadata": {"path": cwd}})
        start = time.perf_counter()
        try:
            client.execute()
        except CellExecutionError as error:
            record["error"] = str(error)[-3000:]
        record["seconds"] = round(time.perf_counter() - start, 2)
    if tinkering:
        record["error"] = "\n".join(tinker.problems(nb)) or None
        record["checks_naming_settings"] = tinker.failed_checks(nb)
    setup = next(c for c in nb.cells if c.cell_type == "code")
    record["setup_output"] = "".join(o.get("text", "") for o in setup.get("outputs", []))
    record["installed_after"] = installed_in_subprocess()
    return record


def main() -> int:
    result, scenario, *notebooks = sys.argv[1:]
    subprocess.run([sys.executable, "-m", "ipykernel", "install", "--sys-prefix", "--name", KERNEL],
                   check=True, capture_output=True)
    prepare(scenario)
    records = [run(Path(p), scenario) for p in notebooks]
    Path(result).write_text(json.dumps(records, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
