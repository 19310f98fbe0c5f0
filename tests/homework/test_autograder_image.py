"""The Gradescope autograder installs and grades in a clean Debian 12 root, as Gradescope runs it.

``make autograder-root`` makes the root once (debootstrap, minbase, with python3 but neither its
venv module nor bubblewrap, whose packages wait in its apt cache) and a wheelhouse of the grader's
dependencies. Each run mounts a fresh overlay of that root, so nothing of a run stays, unpacks the
self-contained zip in ``/autograder/source`` and, chrooted in it as root with an empty
environment and no package index (pip installs from the wheelhouse, offline): runs ``setup.sh``,
then ``run_autograder`` on submissions laid out as Gradescope lays them out
(``/autograder/submission/<notebook>.ipynb``, results in ``/autograder/results/results.json``):
the answer key, a truncated notebook, the key again where bubblewrap cannot create its namespaces
(the capability it needs removed, as in a default Docker container), and the key with the
opt-in ``--unsafe-no-sandbox`` zip there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import zipfile
from pathlib import Path

import pytest

from perceptron_homework import gradescope

ROOT = Path(__file__).resolve().parents[2]
DEBIAN = ROOT / "_build" / "debian-bookworm"
WHEELHOUSE = ROOT / "_build" / "autograder-wheelhouse"
ASSIGNMENT = "hw1_perceptron"

pytestmark = [
    pytest.mark.filterwarnings("ignore:Traits should be given as instances:DeprecationWarning"),
    pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("setpriv"),
                       reason="mounting the Debian root and chrooting into it needs root, unshare and setpriv"),
]

# Runs inside `unshare --mount`: every mount below disappears with the process.
SCRIPT = r"""
set -euo pipefail
M="$SCRATCH/merged"
mkdir -p "$SCRATCH/upper" "$SCRATCH/work" "$M"
mount -t overlay overlay -o "lowerdir=$DEBIAN,upperdir=$SCRATCH/upper,workdir=$SCRATCH/work" "$M"
mount -t proc proc "$M/proc"
mount --rbind /dev "$M/dev"
mkdir -p "$M/wheelhouse" "$M/autograder/source"
mount --bind -o ro "$WHEELHOUSE" "$M/wheelhouse"
cp -r "$SOURCE/." "$M/autograder/source/"
IN_ROOT=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
         PIP_NO_INDEX=1 PIP_FIND_LINKS=/wheelhouse)
stamp() { date +%s.%N > "$OUT/$1"; }

stamp setup.start
set +e
chroot "$M" "${IN_ROOT[@]}" bash -c 'cd /autograder/source && ./setup.sh' > "$OUT/setup.log" 2>&1
echo $? > "$OUT/setup.rc"
set -e
stamp setup.end
chroot "$M" "${IN_ROOT[@]}" python3 -c 'import perceptron' > /dev/null 2>&1 && echo yes > "$OUT/system_python_has_it" || echo no > "$OUT/system_python_has_it"
cp "$M/autograder/source/run_autograder" "$M/autograder/run_autograder"

grade() {  # name notebook [prefix...]: one submission, as Gradescope grades it
    local name=$1 notebook=$2; shift 2
    rm -rf "$M/autograder/submission" "$M/autograder/results"
    mkdir -p "$M/autograder/submission"
    cp "$notebook" "$M/autograder/submission/$ASSIGNMENT.ipynb"
    stamp "$name.start"
    set +e
    "$@" chroot "$M" "${IN_ROOT[@]}" /autograder/run_autograder > "$OUT/$name.log" 2>&1
    echo $? > "$OUT/$name.rc"
    set -e
    stamp "$name.end"
    cp "$M/autograder/results/results.json" "$OUT/$name.json" 2>/dev/null || true
}
grade key "$KEY"
grade truncated "$TRUNCATED"
# No CAP_SYS_ADMIN in the bounding set: bubblewrap, run as root, cannot create its namespaces.
NO_NAMESPACES=(setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin)
grade no_namespaces "$KEY" "${NO_NAMESPACES[@]}"
cp "$UNSAFE_RUN" "$M/autograder/run_autograder"
grade unsafe_opt_in "$KEY" "${NO_NAMESPACES[@]}"
# Last (it replaces the venv): setup.sh where pip finds nothing to install stops with the reason.
stamp setup_fails.start
set +e
chroot "$M" "${IN_ROOT[@]}" PIP_FIND_LINKS=/nowhere bash -c 'cd /autograder/source && ./setup.sh' \
    > "$OUT/setup_fails.log" 2>&1
echo $? > "$OUT/setup_fails.rc"
set -e
stamp setup_fails.end
"""


@pytest.fixture(scope="module")
def image(hw1, tmp_path_factory) -> dict:
    """setup.sh and four runs of run_autograder in a fresh overlay of the Debian root."""
    assert (DEBIAN / ".ready").is_file() and (WHEELHOUSE / ".ready").is_file(), \
        "the clean Debian root is not prepared: run `make autograder-root` (make test does it first)"
    tmp = tmp_path_factory.mktemp("image")
    zip_path = hw1 / "autograder" / f"{ASSIGNMENT}-autograder.zip"
    started = time.monotonic()
    wheel = gradescope.build_wheel(tmp / "wheels")
    safe = gradescope.package(zip_path, tmp / "gradescope.zip", wheels=[wheel])
    unsafe = gradescope.package(zip_path, tmp / "gradescope-unsafe.zip", wheels=[wheel], unsafe_no_sandbox=True)
    packaging = time.monotonic() - started
    source, out = tmp / "source", tmp / "out"
    out.mkdir()
    with zipfile.ZipFile(safe) as zf:
        zf.extractall(source)
    for name in ("setup.sh", "run_autograder"):
        (source / name).chmod(0o755)
    with zipfile.ZipFile(unsafe) as zf:
        (tmp / "run_autograder.unsafe").write_bytes(zf.read("run_autograder"))
    (tmp / "run_autograder.unsafe").chmod(0o755)
    key = (hw1 / "autograder" / f"{ASSIGNMENT}.ipynb").read_bytes()
    (tmp / "key.ipynb").write_bytes(key)
    (tmp / "truncated.ipynb").write_bytes(key[: len(key) // 3])
    env = {"PATH": os.environ["PATH"], "SCRATCH": str(tmp / "scratch"), "DEBIAN": str(DEBIAN),
           "WHEELHOUSE": str(WHEELHOUSE), "SOURCE": str(source), "OUT": str(out), "ASSIGNMENT": ASSIGNMENT,
           "KEY": str(tmp / "key.ipynb"), "TRUNCATED": str(tmp / "truncated.ipynb"),
           "UNSAFE_RUN": str(tmp / "run_autograder.unsafe")}
    done = subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c", SCRIPT], env=env,
                          capture_output=True, text=True, timeout=1200, check=False)
    assert done.returncode == 0, done.stderr
    runs = {}
    for name in ("setup", "key", "truncated", "no_namespaces", "unsafe_opt_in", "setup_fails"):
        runs[name] = {
            "rc": int((out / f"{name}.rc").read_text()), "log": (out / f"{name}.log").read_text(),
            "seconds": float((out / f"{name}.end").read_text()) - float((out / f"{name}.start").read_text()),
            "results": json.loads((out / f"{name}.json").read_text()) if (out / f"{name}.json").exists() else None,
        }
    runs["packaging_seconds"] = packaging
    runs["system_python_has_it"] = (out / "system_python_has_it").read_text().strip()
    runs["zip"] = safe
    print("autograder image times (s):", {k: round(v["seconds"], 1) for k, v in runs.items() if isinstance(v, dict)},
          "packaging", round(packaging, 1))
    return runs


def test_the_zip_carries_the_wheel_and_installs_nothing_from_git(image):
    with zipfile.ZipFile(image["zip"]) as zf:
        names = zf.namelist()
        text = "".join(zf.read(n).decode() for n in ("setup.sh", "requirements.txt", "run_autograder"))
        constraints = zf.read("constraints.txt").decode()
    assert [n for n in names if n.startswith("wheels/")] == ["wheels/perceptron_course-0.1.0-py3-none-any.whl"]
    assert "git+" not in text and "github" not in text
    assert "numpy==" in constraints and "scipy==" in constraints


def test_setup_makes_its_own_venv_with_bubblewrap_in_a_clean_debian_root(image):
    setup = image["setup"]
    assert setup["rc"] == 0, setup["log"]
    log = setup["log"]
    assert "Python 3.11: /usr/bin/python3" in log
    assert "installing python3.11-venv" in log and "installing bubblewrap" in log
    assert "done: the grader is in /autograder/venv and its sandbox starts" in log
    assert image["system_python_has_it"] == "no", "setup.sh installed into the system's Python"


def test_run_autograder_grades_the_key_in_the_sandbox(image):
    key = image["key"]
    assert key["rc"] == 0, key["log"]
    results = key["results"]
    assert results["score"] == 15 and results["output"] == "status: ok"
    assert sum(t["max_score"] for t in results["tests"]) == 15 and all(t["score"] == t["max_score"]
                                                                        for t in results["tests"])


def test_a_truncated_notebook_gets_zero_and_the_reason(image):
    run = image["truncated"]
    assert run["rc"] == 0, run["log"]
    assert run["results"]["score"] == 0
    assert "not graded: not a notebook: invalid JSON" in run["results"]["output"]


def test_without_namespaces_run_autograder_refuses_and_names_the_fix(image):
    run = image["no_namespaces"]
    assert run["rc"] == 2
    assert "bubblewrap cannot create a sandbox" in run["log"] and "Operation not permitted" in run["log"]
    output = run["results"]["output"]
    assert run["results"]["score"] == 0 and "your notebook was not run" in output
    assert "perceptron-homework grade" in output and "gradescope-zip --unsafe-no-sandbox" in output


def test_the_unsafe_opt_in_grades_without_the_sandbox_and_says_so(image):
    run = image["unsafe_opt_in"]
    assert run["rc"] == 0, run["log"]
    assert run["results"]["score"] == 15
    assert run["results"]["output"].startswith("WARNING: graded WITHOUT the sandbox")


def test_setup_stops_with_the_reason_when_a_step_fails(image):
    run = image["setup_fails"]
    assert run["rc"] == 1
    assert run["log"].strip().splitlines()[-1] == (
        "setup.sh: FAILED: pip could not install the grader into /autograder/venv (is PyPI reachable from the image?)")
