"""The Gradescope autograder installs and grades in clean Debian roots, as Gradescope runs it.

``make autograder-root`` makes two roots once (debootstrap, minbase): Debian 12 with python3 (3.11)
but neither its venv module nor bubblewrap (0.8.0), whose packages wait in its apt cache; Debian
11, whose python3 is 3.9 and whose apt cache holds bubblewrap 0.4.1; and a wheelhouse of the
grader's dependencies. Each run mounts fresh overlays of those roots, so nothing of a run stays,
unpacks the self-contained zip (of homework 1 under a private secret) in ``/autograder/source``
and, chrooted as root with an empty environment and no package index (pip installs from the
wheelhouse, offline), runs ``setup.sh``, then ``run_autograder`` on submissions laid out as
Gradescope lays them out (``/autograder/submission/<notebook>.ipynb``, results in
``/autograder/results/results.json``), one at a time:

- Debian 12, bubblewrap 0.8.0, all capabilities: the key, a truncated notebook;
- Debian 12 with CAP_SYS_ADMIN dropped from the bounding set (``setpriv``, as in a default Docker
  container, Gradescope's): bubblewrap cannot create its namespaces, so each notebook runs as a
  user id of its own. A notebook that tries to read every file and process it can (the key, the
  secret, the hidden tests, the results, /proc of the grader) and to send out what it finds, and
  the grader tests' fakes that attack the isolation (an exit, a fork bomb, a memory hog, side
  effects); the snooping notebook again with the opt-in ``--unsafe-no-sandbox`` zip, where it
  must find the key (so the snooping can fail the test);
- the same Debian 12 root with Debian 11's bubblewrap 0.4.1 in place of its own (Debian 11 has no
  Python >= 3.11 for the grader), all capabilities: the snooping notebook in bwrap 0.4's sandbox;
- Debian 11: setup.sh stops with the reason (no Python >= 3.11).

The snooping notebook is the key with one cell more, which breaks its answers if it reads
anything: its full score says that the key grades in full in that sandbox too, so the key is not
graded again there (issue 35: the key without namespaces and in bwrap 0.4 were two runs more). The
empty notebook is not graded here either: its zero comes from the verdicts, drawn outside the
kernel by the same code in every isolation, and test_homework.py grades it in bubblewrap.

Nothing is skipped: without root, or without the roots, the tests fail with the reason.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import zipfile
from pathlib import Path

import nbformat
import pytest

from perceptron_homework import gradescope
from perceptron_homework.grading import Assignment
from tests.homework.test_homework import FAKES, SIDE_EFFECTS, Listener, plant
from tests.support.homework_builds import PRIVATE_SECRET

ROOT = Path(__file__).resolve().parents[2]
DEBIAN = ROOT / "_build" / "debian-bookworm"
DEBIAN_OLD = ROOT / "_build" / "debian-bullseye"
WHEELHOUSE = ROOT / "_build" / "autograder-wheelhouse"
ASSIGNMENT = "hw1_perceptron"
# A private variant (the snooping notebook must never see its secret): the one test_publishing.py and
# test_homework.py build too, one otter assign for all three. Its quote is escaped in the zip's JSON, so
# a leak is looked for by its first letters, which every form of it holds.
SECRET = PRIVATE_SECRET
LEAK = SECRET.split("&")[0]
VENV_CHECKS = "/autograder/venv/lib/python3.11/site-packages/perceptron_homework/checks/__init__.py"
SHORT = ["--cell-timeout", "10", "--test-timeout", "5", "--timeout", "120"]  # for the notebooks that hang

pytestmark = pytest.mark.filterwarnings("ignore:Traits should be given as instances:DeprecationWarning")

# Reads every file under /autograder but the venv and run_autograder (which every image holds),
# the world-writable folders, root's home and every other process's /proc entries; whatever it
# gets it writes into /tmp and into its own answers' namespace (its only ways out), then breaks
# its answers. A positive control first: a notebook that cannot read /usr/lib/os-release tried nothing.
SNOOP = r"""
import glob, os, socket, stat
escaped, seen = [], []
def grab(path):  # None unless something was read (a kernel thread's /proc/N/environ opens, empty)
    try:  # regular files only, never waiting: a pipe of another process would block
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except Exception:
        return None
    try:
        return os.read(fd, 1 << 16) or None if stat.S_ISREG(os.fstat(fd).st_mode) else None
    except Exception:
        return None
    finally:
        os.close(fd)
control = grab('/usr/lib/os-release') is not None and grab(os.__file__) is not None  # in every sandbox
for folder, dirs, files in os.walk('/autograder'):
    if folder.startswith('/autograder/venv'):
        continue
    for name in files:
        path = os.path.join(folder, name)
        if path != '/autograder/run_autograder':
            data = grab(path)
            if data is not None:
                escaped.append(path)
                seen.append(data)
for pattern in ['/tmp/**', '/var/tmp/**', '/root/**', '/root/.*', '/grading/out.json']:
    for path in glob.glob(pattern, recursive=True):
        # its own files (IPython's, matplotlib's in its /tmp) are no leak
        if os.path.isfile(path) and os.stat(path).st_uid != os.getuid() and grab(path) is not None:
            escaped.append(path)
me = os.getpid()
for pid in [p for p in os.listdir('/proc') if p.isdigit() and int(p) != me]:
    for name in ('environ', 'maps', 'mem', 'root/autograder/source/perceptron_homework.json'):
        if grab(f'/proc/{pid}/{name}') is not None:
            escaped.append(f'/proc/{pid}/{name}')
    try:
        for fd in os.listdir(f'/proc/{pid}/fd'):
            if grab(f'/proc/{pid}/fd/{fd}') is not None:
                escaped.append(f'/proc/{pid}/fd/{fd}')
    except OSError:
        pass
try:
    socket.create_connection(('127.0.0.1', {port}), timeout=2).close()
    escaped.append('network')
except OSError:
    pass
try:
    with open('/tmp/exfiltrated', 'wb') as fh:
        fh.write(b'\n'.join(seen) + repr(escaped).encode())
except OSError:
    pass
loot = seen  # in the namespace the grader's calls see
if not control:
    escaped.append('no control')
if escaped:
    for _name in [n for n, v in list(globals().items()) if callable(v) and not n.startswith('_')]:
        del globals()[_name]
"""

# Runs inside `unshare --mount`: every mount disappears with the process. PLAN holds one step a
# line: `root NAME LOWER` (a fresh overlay of LOWER), `deb FILE` (installed with dpkg before setup),
# `setup NAME [VAR=VALUE]`, `check NAME` (check-sandbox), `grade NAME NOTEBOOK CAPS RUNNER` (CAPS: all, or
# nosysadmin).
SCRIPT = r"""
set -euo pipefail
IN_ROOT=(env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
         PIP_NO_INDEX=1 PIP_FIND_LINKS=/wheelhouse)
NOSYSADMIN=(setpriv --bounding-set=-sys_admin --inh-caps=-sys_admin)
stamp() { date +%s.%N > "$OUT/$1"; }
M=""
while read -r step name a b c; do
  case "$step" in
  root)
    M="$SCRATCH/$name/merged"
    mkdir -p "$SCRATCH/$name/upper" "$SCRATCH/$name/work" "$M"
    mount -t overlay overlay -o "lowerdir=$a,upperdir=$SCRATCH/$name/upper,workdir=$SCRATCH/$name/work" "$M"
    mount -t proc proc "$M/proc"
    mount --rbind /dev "$M/dev"
    mkdir -p "$M/wheelhouse" "$M/autograder/source" "$M/debs"
    mount --bind -o ro "$WHEELHOUSE" "$M/wheelhouse"
    cp -r "$SOURCE/." "$M/autograder/source/"
    cp "$M/autograder/source/run_autograder" "$M/autograder/run_autograder" ;;
  deb)
    cp "$name" "$M/debs/"
    chroot "$M" "${IN_ROOT[@]}" bash -c "dpkg -i /var/cache/apt/archives/libcap2_*.deb /debs/$(basename "$name")" \
        > "$OUT/deb.log" 2>&1 || { cat "$OUT/deb.log" >&2; exit 1; } ;;
  setup)
    stamp "$name.start"
    set +e
    chroot "$M" "${IN_ROOT[@]}" $a bash -c 'cd /autograder/source && ./setup.sh' > "$OUT/$name.log" 2>&1
    echo $? > "$OUT/$name.rc"
    set -e
    stamp "$name.end" ;;
  check)
    stamp "$name.start"
    set +e
    chroot "$M" "${IN_ROOT[@]}" bash -c 'bwrap --version && /autograder/venv/bin/python -m perceptron_homework check-sandbox' \
        > "$OUT/$name.log" 2>&1
    echo $? > "$OUT/$name.rc"
    set -e
    stamp "$name.end" ;;
  grade)
    rm -rf "$M/autograder/submission" "$M/autograder/results" "$M/tmp/exfiltrated"
    mkdir -p "$M/autograder/submission" "$M/autograder/results"
    echo '{"score": 15, "student": "another student"}' > "$M/autograder/results/other.json"
    cp "$a" "$M/autograder/submission/$ASSIGNMENT.ipynb"
    cp "$c" "$M/autograder/run_autograder"
    PREFIX=(); [ "$b" = nosysadmin ] && PREFIX=("${NOSYSADMIN[@]}")
    stamp "$name.start"
    set +e
    "${PREFIX[@]}" chroot "$M" "${IN_ROOT[@]}" /autograder/run_autograder > "$OUT/$name.log" 2>&1
    echo $? > "$OUT/$name.rc"
    set -e
    stamp "$name.end"
    cp "$M/autograder/results/results.json" "$OUT/$name.json" 2>/dev/null || true
    [ -e "$M/tmp/exfiltrated" ] && cp "$M/tmp/exfiltrated" "$OUT/$name.exfiltrated" || true
    ls -a "$M/tmp" > "$OUT/$name.tmp" ;;
  esac
done < "$PLAN"
"""

# The grader tests' fakes of homework 1 graded here without namespaces: those whose containment
# is the isolation's (processes, memory, files, signals, the network, the kernel's exit). Not the
# ones that differ from `full` by a bug, by code that never returns or by rebinding the checks: the
# time limits are the kernel's own alarms and the verdicts are drawn from plain data outside the
# kernel, by the same code in every isolation, so test_homework.py's grading of those fakes (in
# bubblewrap) catches what they would catch here; the key and the snooping notebook below exercise
# the user-id isolation's own path, and test_sandbox_isolation.py the end of a job's user.
IMAGE_FAKES = ["attack_fork_bomb", "attack_memory_hog", "attack_os_exit", "attack_side_effects"]
# Without a PID namespace a notebook sees that other processes exist, and may write in /tmp
# (its files are deleted after it): those two of the side effects are checked apart, below.
USER_SIDE_EFFECTS = (SIDE_EFFECTS.replace("attempt('write /tmp', lambda: pathlib.Path('{tmp_file}').write_text('pwned'))\n", "")
                     .replace("attempt('see other processes', lambda: [p for p in os.listdir('/proc') if p.isdigit() "
                              "and int(p) > 3][5])\n", ""))


def expected_score(assignment: Assignment, fails) -> float:
    return sum(c["points"] for cases in assignment.tests.values() for c in cases if c["name"] not in fails)


@pytest.fixture(scope="module")
def image(tmp_path_factory) -> dict:
    """setup.sh and run_autograder in fresh overlays of the Debian 12 and 11 roots (see the docstring)."""
    from perceptron_homework.build import project_wheel
    from tests.support.homework_builds import homework_build

    assert os.geteuid() == 0 and shutil.which("unshare") and shutil.which("setpriv"), \
        "mounting the Debian roots and chrooting into them needs root, unshare and setpriv (util-linux)"
    for folder in (DEBIAN, DEBIAN_OLD, WHEELHOUSE):
        assert (folder / ".ready").is_file(), \
            f"{folder} is not prepared: run `make autograder-root` (make test does it first)"
    old_debs = sorted((DEBIAN_OLD / "var/cache/apt/archives").glob("bubblewrap_0.4*.deb"))
    assert old_debs, f"Debian 11's bubblewrap 0.4 package is not in {DEBIAN_OLD}'s apt cache: rebuild that root"
    hw1 = homework_build(tmp_path_factory, ASSIGNMENT, secret=SECRET)
    tmp = tmp_path_factory.mktemp("image")
    zip_path = hw1 / "autograder" / f"{ASSIGNMENT}-autograder.zip"
    assignment = Assignment.from_zip(zip_path)
    assert assignment.secret == SECRET
    started = time.monotonic()
    wheel = project_wheel()  # the one homework_build packaged (built once per process)
    safe = gradescope.package(zip_path, tmp / "gradescope.zip", wheels=[wheel])
    unsafe = gradescope.package(zip_path, tmp / "gradescope-unsafe.zip", wheels=[wheel], unsafe_no_sandbox=True)
    packaging = time.monotonic() - started
    source, out, nbs = tmp / "source", tmp / "out", tmp / "notebooks"
    out.mkdir()
    nbs.mkdir()
    with zipfile.ZipFile(safe) as zf:
        zf.extractall(source)
    for name in ("setup.sh", "run_autograder"):
        (source / name).chmod(0o755)
    runners = {"safe": source / "run_autograder", "unsafe": tmp / "run_autograder.unsafe",
               "short": tmp / "run_autograder.short"}
    with zipfile.ZipFile(unsafe) as zf:
        runners["unsafe"].write_bytes(zf.read("run_autograder"))
    runners["short"].write_text(runners["safe"].read_text().replace(" --root \"$ROOT\"", " --root \"$ROOT\" "
                                                                      + " ".join(SHORT)))
    assert runners["short"].read_text() != runners["safe"].read_text()
    for runner in runners.values():
        runner.chmod(0o755)

    listener = Listener()
    key = nbformat.read(hw1 / "autograder" / f"{ASSIGNMENT}.ipynb", as_version=4)
    values = {"home_file": "/root/.homework-attack", "victim": "/autograder/source/perceptron_homework.json",
              "victim_dir": "/autograder/source", "tmp_file": "/tmp/homework-attack",
              "secret_file": "/autograder/source/perceptron_homework.json", "submissions": "/autograder/submission",
              "port": listener.port, "checks_file": VENV_CHECKS}
    fakes = {f.name: f for f in FAKES if f.assignment == ASSIGNMENT and f.name in IMAGE_FAKES}
    assert sorted(fakes) == sorted(IMAGE_FAKES)
    fakes["attack_side_effects"] = type(fakes["attack_side_effects"])(
        ASSIGNMENT, "attack_side_effects", last=USER_SIDE_EFFECTS)
    for f in fakes.values():
        nbformat.write(plant(key, f, values), nbs / f"{f.name}.ipynb")
    snoop = nbformat.from_dict(json.loads(json.dumps(key)))
    snoop.cells.append(nbformat.v4.new_code_cell(SNOOP.replace("{port}", str(listener.port))))
    nbformat.write(snoop, nbs / "snoop.ipynb")
    nbformat.write(key, nbs / "key.ipynb")
    raw = (nbs / "key.ipynb").read_bytes()
    (nbs / "truncated.ipynb").write_bytes(raw[: len(raw) // 3])

    def grade(name, notebook, caps="nosysadmin", runner="safe"):
        return f"grade {name} {nbs / notebook}.ipynb {caps} {runners[runner]}"

    plan = [
        f"root bookworm {DEBIAN}", "setup setup", grade("key", "key", "all"), grade("truncated", "truncated", "all"),
        grade("user_snoop", "snoop"),
        *(grade(f"user_{f}", f, runner="short" if fakes[f].hangs else "safe") for f in IMAGE_FAKES),
        grade("unsafe_snoop", "snoop", runner="unsafe"),
        # Debian 11's bubblewrap in place of Debian 12's, in the same root (setup.sh's venv stays).
        f"deb {old_debs[-1]}", "check check_bwrap04",
        grade("bwrap04_snoop", "snoop", "all"),
        "setup setup_fails PIP_FIND_LINKS=/nowhere",  # last: it replaces the venv
        f"root bullseye {DEBIAN_OLD}", "setup setup_bullseye",
    ]
    (tmp / "plan").write_text("\n".join(plan) + "\n")
    env = {"PATH": os.environ["PATH"], "SCRATCH": str(tmp / "scratch"), "WHEELHOUSE": str(WHEELHOUSE),
           "SOURCE": str(source), "OUT": str(out), "ASSIGNMENT": ASSIGNMENT, "PLAN": str(tmp / "plan")}
    try:
        done = subprocess.run(["unshare", "--mount", "--propagation", "private", "bash", "-c", SCRIPT], env=env,
                              capture_output=True, text=True, timeout=2400, check=False)
    finally:
        listener.close()
    assert done.returncode == 0, done.stderr
    runs = {}
    for line in plan:
        step, name = line.split()[:2]
        if step not in ("setup", "grade", "check"):
            continue
        runs[name] = {
            "rc": int((out / f"{name}.rc").read_text()), "log": (out / f"{name}.log").read_text(),
            "seconds": float((out / f"{name}.end").read_text()) - float((out / f"{name}.start").read_text()),
            "results": json.loads((out / f"{name}.json").read_text()) if (out / f"{name}.json").exists() else None,
            "exfiltrated": (out / f"{name}.exfiltrated").read_bytes() if (out / f"{name}.exfiltrated").exists() else None,
            "tmp": (out / f"{name}.tmp").read_text().split() if (out / f"{name}.tmp").exists() else None,
        }
    print("autograder image times (s):", {k: round(v["seconds"], 1) for k, v in runs.items()},
          "packaging", round(packaging, 1))
    return {"runs": runs, "zip": safe, "assignment": assignment, "fakes": fakes, "listener": listener.count,
            "key_text": raw.decode()}


def test_the_zip_carries_the_wheel_and_installs_nothing_from_git(image):
    with zipfile.ZipFile(image["zip"]) as zf:
        names = zf.namelist()
        text = "".join(zf.read(n).decode() for n in ("setup.sh", "requirements.txt", "run_autograder"))
        constraints = zf.read("constraints.txt").decode()
    assert [n for n in names if n.startswith("wheels/")] == ["wheels/perceptron_course-0.1.0-py3-none-any.whl"]
    assert "git+" not in text and "github" not in text
    assert "numpy==" in constraints and "scipy==" in constraints


def test_setup_makes_its_own_venv_with_bubblewrap_in_a_clean_debian_root(image):
    setup = image["runs"]["setup"]
    assert setup["rc"] == 0, setup["log"]
    log = setup["log"]
    assert "Python 3.11: /usr/bin/python3" in log
    assert "installing python3.11-venv" in log and "installing bubblewrap" in log
    assert "the sandbox works: bubblewrap 0.8.0" in log and "bubblewrap 0.8.0" in log
    assert "done: the grader is in /autograder/venv and its sandbox starts" in log


def test_run_autograder_grades_the_key_in_the_sandbox(image):
    """The key in bubblewrap 0.8; without namespaces and in bubblewrap 0.4 the snooping notebook (the
    key and a cell) stands for it, with the same full marks (test_a_snooping_notebook_reads_nothing...)."""
    for name in ("key", "user_snoop", "bwrap04_snoop"):
        run = image["runs"][name]
        assert run["rc"] == 0, (name, run["log"])
        results = run["results"]
        assert results["score"] == 15 and results["output"] == "status: ok", (name, results)
        assert sum(t["max_score"] for t in results["tests"]) == 15
        assert all(t["score"] == t["max_score"] for t in results["tests"]), name
    assert "runs as a user id of its own" not in image["runs"]["key"]["log"]
    assert "runs as a user id of its own" in image["runs"]["user_snoop"]["log"]


def test_bubblewrap_0_4_from_debian_11_grades_in_its_sandbox(image):
    check = image["runs"]["check_bwrap04"]
    assert check["rc"] == 0, check["log"]
    assert check["log"].splitlines() == ["bubblewrap 0.4.1", "the sandbox works: bubblewrap 0.4.1"]
    assert "runs as a user id of its own" not in image["runs"]["bwrap04_snoop"]["log"]


def test_setup_in_debian_11_stops_with_the_reason(image):
    run = image["runs"]["setup_bullseye"]
    assert run["rc"] == 1, run["log"]
    assert "setup.sh: FAILED: the grader needs Python >= 3.11" in run["log"]


def test_a_truncated_notebook_gets_zero_and_the_reason(image):
    run = image["runs"]["truncated"]
    assert run["rc"] == 0, run["log"]
    assert run["results"]["score"] == 0
    assert "not graded: not a notebook: invalid JSON" in run["results"]["output"]


@pytest.mark.parametrize("name", ["user_snoop", "bwrap04_snoop"])
def test_a_snooping_notebook_reads_nothing_and_sends_nothing_out(image, name):
    run = image["runs"][name]
    assert run["rc"] == 0, run["log"]
    assert run["results"]["score"] == 15, run["results"]  # it found nothing: it kept its answers
    everything = run["log"] + json.dumps(run["results"])
    assert LEAK not in everything and "another student" not in everything
    assert run["exfiltrated"] is None  # /tmp: gone with the job (user) or never there (bwrap)


def test_the_snooping_notebook_finds_the_key_where_nothing_stops_it(image):
    # The same notebook, graded by the opt-in zip without any isolation: it reads the secret, and so
    # loses its answers; the full scores above are the isolation's, not a snoop that tried nothing.
    run = image["runs"]["unsafe_snoop"]
    assert run["rc"] == 0, run["log"]
    assert run["results"]["output"].startswith("WARNING: graded WITHOUT the sandbox")
    assert run["results"]["score"] < 15
    assert LEAK.encode() in run["exfiltrated"] and b"'network'" in run["exfiltrated"]
    assert image["listener"] == 1  # its connection: none from the isolated runs (snoop, side effects)


def test_fakes_score_as_in_the_sandbox_without_namespaces(image):
    assignment = image["assignment"]
    for name, f in image["fakes"].items():
        run = image["runs"][f"user_{name}"]
        assert run["rc"] == 0, (name, run["log"])
        assert run["results"]["score"] == expected_score(assignment, f.fails), (name, run["results"])
        assert run["results"]["output"].startswith(f"status: {f.status}"), (name, run["results"]["output"])
        assert "homework-attack" not in run["tmp"], name  # written as the job's user, deleted after it


def test_no_student_is_told_of_a_bypass(image):
    for name, run in image["runs"].items():
        if name != "unsafe_snoop" and run["results"] is not None:
            assert "unsafe" not in json.dumps(run["results"]), name
            assert "unsafe" not in run["log"], name


def test_setup_stops_with_the_reason_when_a_step_fails(image):
    run = image["runs"]["setup_fails"]
    assert run["rc"] == 1
    assert run["log"].strip().splitlines()[-1] == (
        "setup.sh: FAILED: pip could not install the grader into /autograder/venv (is PyPI reachable from the image?)")
