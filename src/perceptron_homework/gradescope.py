"""Gradescope's side: a self-contained autograder zip, and the grading of one submission.

Gradescope unpacks the autograder zip in ``/autograder/source``, runs its ``setup.sh`` once when
it builds the image (as root, on Ubuntu), then for each submission puts the student's files in
``/autograder/submission``, runs ``/autograder/run_autograder`` and reads
``/autograder/results/results.json``.

:func:`package` makes that zip self-contained: it carries this project's wheel (built from the
checkout, :func:`build_wheel`), the versions of its dependencies (``constraints.txt``, the
project's lock), and a ``setup.sh`` (:data:`SETUP_SH`) that finds or installs a Python >= 3.11 and
bubblewrap with ``apt-get``, makes a virtual environment of its own in ``/autograder/venv`` (never
``pip`` into the system's Python, which Debian 12 and Ubuntu 24.04 refuse) and stops with the
reason when a step fails. :func:`run` grades the notebook exactly as ``grade`` does, in the
sandbox; each test becomes one entry, hidden tests shown to the student only after publication.
Gradescope's containers refuse bubblewrap's namespaces (no CAP_SYS_ADMIN): there the notebook
runs as a user id of its own (:data:`.sandbox.USER`), after :func:`run` has made the autograder's
source (key, secret), the submission and the results root's alone. Only where neither works (not
root) does :func:`run` grade nothing, saying so to the student without naming any way around it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from . import sandbox
from .grading import CONFIG, Assignment, grade_one
from .submissions import notebook_problem

NO_ISOLATION_FOR_STUDENTS = (
    "The autograder could not isolate your notebook, so it was not run and this score is not a grade; your "
    "instructor has been told why and will grade it again.")
NO_ISOLATION_FOR_INSTRUCTORS = (
    "run_autograder: the notebook was not run: {reason}. On Gradescope run_autograder runs as root, where each "
    "notebook runs as a user of its own when bubblewrap cannot start: see book/homework.md, 'Gradescope'.")

SETUP_SH = r"""#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image (Ubuntu).
# It needs a Python >= 3.11 with its venv module, and bubblewrap: it installs whichever is
# missing with apt-get, makes its own virtual environment (never pip into the system's Python),
# installs the wheels this zip carries at the versions of constraints.txt, and stops with the
# reason when a step fails. AUTOGRADER_ROOT (default /autograder) moves everything elsewhere.
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
SOURCE="$ROOT/source"
VENV="$ROOT/venv"
fail() { echo "setup.sh: FAILED: $*" >&2; exit 1; }
log() { echo "setup.sh: $*"; }
export DEBIAN_FRONTEND=noninteractive

APT=(apt-get -o DPkg::Lock::Timeout=600)  # waits up to 10 minutes for another process's dpkg lock
apt_install() {  # the image's package lists first, then fresh ones
    command -v apt-get >/dev/null || return 1
    "${APT[@]}" install -y -qq --no-install-recommends "$@" >/dev/null 2>&1         || { "${APT[@]}" update -qq && "${APT[@]}" install -y -qq --no-install-recommends "$@"; }
}
find_python() {
    for py in python3 python3.13 python3.12 python3.11; do
        if command -v "$py" >/dev/null 2>&1             && "$py" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            command -v "$py"
            return 0
        fi
    done
    return 1
}

PY="$(find_python || true)"
if [ -z "$PY" ]; then
    log "no Python >= 3.11 here ($(python3 -V 2>&1 || echo 'no python3')); installing one with apt-get"
    apt_install python3 python3-venv || true
    PY="$(find_python || true)"
fi
if [ -z "$PY" ]; then
    apt_install python3.11 python3.11-venv || true  # Ubuntu 22.04 has it in universe
    PY="$(find_python || true)"
fi
[ -n "$PY" ] || fail "the grader needs Python >= 3.11 and apt-get could not install one. Choose Gradescope's Ubuntu 24.04 base image (Python 3.12), or install python3.11 and python3.11-venv from the deadsnakes PPA in this script before this line."
VERSION="$("$PY" -c 'import sys; print("%d.%d" % sys.version_info[:2])')"
log "Python $VERSION: $PY"
if ! "$PY" -c 'import ensurepip, venv' 2>/dev/null; then
    log "Python $VERSION has no venv module; installing python$VERSION-venv"
    apt_install "python$VERSION-venv" || apt_install python3-venv         || fail "cannot install python$VERSION-venv with apt-get: the virtual environment cannot be made"
fi

if ! command -v bwrap >/dev/null 2>&1; then
    log "installing bubblewrap, the sandbox every submission runs in"
    apt_install bubblewrap || fail "cannot install bubblewrap (Debian/Ubuntu package bubblewrap) with apt-get; without it no submission is graded"
fi

rm -rf "$VENV"
"$PY" -m venv "$VENV" || fail "python$VERSION -m venv $VENV failed"
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check --no-input     -c "$SOURCE/constraints.txt" "$SOURCE"/wheels/*.whl -r "$SOURCE/requirements.txt"     || fail "pip could not install the grader into $VENV (is PyPI reachable from the image?)"
"$VENV/bin/python" -m perceptron_homework --help >/dev/null || fail "the grader does not start in $VENV"
# The key, the secret and the hidden tests' data are root's alone: a notebook run as another user reads none.
chmod -R go-rwx "$SOURCE"
chmod -R go-w,a+rX "$VENV"
if "$VENV/bin/python" -m perceptron_homework check-sandbox; then
    log "done: the grader is in $VENV and its sandbox starts"
else
    log "WARNING: no sandbox starts while the image is built; run_autograder checks again for each submission"
fi
"""

RUN_AUTOGRADER = r"""#!/usr/bin/env bash
# Gradescope runs this for every submission. It grades the notebook in /autograder/submission in
# a bubblewrap sandbox (no network, read-only files, limits), or where bubblewrap cannot start as a
# user id of its own (no network, root's files unreadable, limits), with the virtual environment
# setup.sh made, and writes /autograder/results/results.json. AUTOGRADER_ROOT moves /autograder; PYTHON names
# another interpreter that has the grader installed (the project's tests use their own .venv).
set -euo pipefail
ROOT="${AUTOGRADER_ROOT:-/autograder}"
PY="${PYTHON:-$ROOT/venv/bin/python}"
[ -x "$PY" ] || { echo "run_autograder: $PY is missing: setup.sh did not finish (see the image's build log)" >&2; exit 1; }
exec "$PY" -m perceptron_homework gradescope --root "$ROOT" __OPTIONS__
"""

# What grading needs besides the wheel's own dependencies (the kernel runs cells in IPython).
REQUIREMENTS = "ipython\npyyaml\n"


def project_root() -> Path:
    """The checkout this package runs from (the folder of its ``pyproject.toml``)."""
    root = Path(__file__).resolve().parents[2]
    if not (root / "pyproject.toml").is_file():
        raise ValueError(f"{root} is not the project's checkout: pass the wheel to package with --wheel")
    return root


@contextlib.contextmanager
def locked(path: Path):
    """An exclusive ``flock`` on ``path``: one holder at a time, across processes and threads (each
    call opens the file anew, and Linux's flock locks belong to the open file)."""
    import fcntl  # POSIX, as the sandbox is: imported here so that importing this module needs none

    with open(path, "a") as fh:
        fcntl.flock(fh, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


def build_wheel(dest: Path, root: Path | None = None) -> Path:
    """Build this project's wheel (``pip wheel --no-deps``) into ``dest``; return its path.

    pip builds in the checkout (setuptools' ``build/``), so two builds at once there would collide
    (``make -j homework``, two test processes): they take turns, under a lock file of the checkout's.
    """
    root = Path(root or project_root()).resolve()
    dest.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "wheel", "--quiet", "--disable-pip-version-check", "--no-deps",
           "--no-build-isolation", "--wheel-dir", str(dest), str(root)]
    key = hashlib.sha256(str(root).encode()).hexdigest()[:16]
    with locked(Path(tempfile.gettempdir()) / f"perceptron-wheel-{key}.lock"):
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"pip wheel failed:\n{done.stdout}\n{done.stderr}")
    wheels = sorted(dest.glob("perceptron_course-*.whl"))
    if not wheels:
        raise RuntimeError(f"pip wheel wrote no perceptron_course wheel in {dest}")
    return wheels[-1]


def package(autograder_zip: Path, out: Path | None = None, *, wheels: list[Path] | None = None,
            constraints: Path | None = None, unsafe_no_sandbox: bool = False) -> Path:
    """Make ``autograder_zip`` (or a copy at ``out``) a self-contained Gradescope autograder.

    It gets ``wheels/`` (``wheels``, or this checkout's wheel built now), ``constraints.txt`` (the
    project's ``requirements.lock`` unless given), ``requirements.txt``, :data:`SETUP_SH` and
    :data:`RUN_AUTOGRADER`; an older ``requirements.txt`` that installed from git is replaced.
    ``unsafe_no_sandbox`` writes a ``run_autograder`` that grades without the sandbox: only where
    bubblewrap cannot start and every student is trusted (see book/homework.md).
    """
    out = out or autograder_zip
    with tempfile.TemporaryDirectory(prefix="autograder-") as tmp:
        if wheels is None:
            wheels = [build_wheel(Path(tmp))]
        for wheel in wheels:
            if Path(wheel).suffix != ".whl" or not Path(wheel).is_file():
                raise ValueError(f"{wheel}: not a wheel file")
        constraints = constraints or project_root() / "requirements.lock"
        options = "--unsafe-no-sandbox" if unsafe_no_sandbox else ""
        files = {"setup.sh": SETUP_SH, "run_autograder": RUN_AUTOGRADER.replace(" __OPTIONS__", " " + options
                                                                                  if options else ""),
                 "requirements.txt": REQUIREMENTS, "constraints.txt": Path(constraints).read_text()}
        replaced = set(files) | {f"wheels/{Path(w).name}" for w in wheels}
        new_zip = Path(tmp, "new.zip")
        with zipfile.ZipFile(autograder_zip) as old, zipfile.ZipFile(new_zip, "w", zipfile.ZIP_DEFLATED) as new:
            if CONFIG not in old.namelist():
                raise ValueError(f"{autograder_zip}: no {CONFIG}; rebuild the homework with `make homework`")
            for item in old.infolist():
                if item.filename not in replaced and not item.filename.startswith("wheels/"):
                    new.writestr(item, old.read(item))
            for filename, text in files.items():
                info = zipfile.ZipInfo(filename, date_time=(2024, 1, 1, 0, 0, 0))
                info.external_attr = (0o755 if filename in ("run_autograder", "setup.sh") else 0o644) << 16
                new.writestr(info, text)
            for wheel in wheels:
                info = zipfile.ZipInfo(f"wheels/{Path(wheel).name}", date_time=(2024, 1, 1, 0, 0, 0))
                info.external_attr = 0o644 << 16
                new.writestr(info, Path(wheel).read_bytes())
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(new_zip, out)
    return out


def run(root: Path, *, cell_seconds: float = 60, test_seconds: float = 30, timeout: float = 900,
        unsafe_no_sandbox: bool = False) -> dict:
    """Grade the one notebook in ``root/submission``; write and return Gradescope's results."""
    assignment = Assignment.from_json((root / "source" / CONFIG).read_text())
    results_dir = root / "results"
    results_dir.mkdir(parents=True, exist_ok=True)
    notebooks = sorted((root / "submission").rglob("*.ipynb"))
    preferred = [p for p in notebooks if p.name == f"{assignment.name}.ipynb"]
    notebook = (preferred or notebooks)[0] if notebooks else None
    problem = "no .ipynb notebook was submitted" if notebook is None else notebook_problem(notebook)
    if problem:
        results = {"score": 0, "tests": [], "output": f"Your submission was not graded: {problem}. Submit the "
                                                      f"notebook's .ipynb file, saved from Jupyter."}
    else:
        isolation = None
        if unsafe_no_sandbox:
            warning = ("WARNING: graded WITHOUT the sandbox (--unsafe-no-sandbox): the notebook ran with the "
                       "autograder's rights.\n")
        else:
            warning = ""
            try:
                isolation = sandbox.check()
            except sandbox.SandboxUnavailable as exc:
                reason = getattr(exc, "reason", str(exc))
                results = {"score": 0, "tests": [], "output": NO_ISOLATION_FOR_STUDENTS}
                (results_dir / "results.json").write_text(json.dumps(results, indent=1) + "\n")
                raise sandbox.SandboxUnavailable(NO_ISOLATION_FOR_INSTRUCTORS.format(reason=reason)) from exc
            if isolation == sandbox.USER:
                protect(root)
                print(f"run_autograder: bubblewrap cannot start here; the notebook runs as a user id of its own "
                      f"(no network, limits; {root / 'source'}, the submission and the results root's alone)")
        report = grade_one(notebook, assignment, cell_seconds=cell_seconds, test_seconds=test_seconds,
                           timeout=timeout, unsafe_no_sandbox=unsafe_no_sandbox, isolation=isolation)
        entries = []
        for question, cases in assignment.tests.items():
            for case in cases:
                passed = report["tests"][question][case["name"]]
                entries.append({
                    "name": f"{question}: {case['name']}",
                    "score": case["points"] if passed else 0,
                    "max_score": case["points"],
                    "visibility": "after_published" if case["hidden"] else "visible",
                    "output": "passed" if passed else report["failures"].get(case["name"], "failed"),
                })
        results = {"score": sum(report["questions"].values()), "output": f"{warning}status: {report['status']}",
                   "tests": entries}
    (results_dir / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    return results


def protect(root: Path) -> None:
    """Make the autograder's source (the key, the secret), the submission and the results root's
    alone, the folders 0700 and the files 0600 (what Gradescope unpacks may be readable by all)."""
    for name in ("source", "submission", "results"):
        top = root / name
        if not top.exists():
            continue
        for folder, dirs, files in os.walk(top):
            os.chmod(folder, 0o700)
            for f in files:
                path = Path(folder, f)
                if not path.is_symlink():
                    path.chmod(path.stat().st_mode & 0o700)
        os.chown(top, 0, 0)


def grading_requirements() -> list[str]:
    """What the grader installs: the package's own dependencies and :data:`REQUIREMENTS`."""
    from importlib.metadata import requires

    own = [r for r in requires("perceptron-course") or [] if "extra ==" not in r]
    return [*own, *REQUIREMENTS.split()]


if __name__ == "__main__":  # `python -m perceptron_homework.gradescope --requirements`, for the Makefile
    if sys.argv[1:] != ["--requirements"]:
        sys.exit("usage: python -m perceptron_homework.gradescope --requirements")
    print(" ".join(r.replace(" ", "") for r in grading_requirements()))
