"""The isolation's parts that need no built homework: bubblewrap's options by version, the
seccomp filter, the end of a job's user, what Gradescope's students are told.

The grading itself in every isolation, on real submissions, is in test_homework.py (bubblewrap on
this machine) and test_autograder_image.py (bubblewrap 0.8 and 0.4.1, and a user id of its own
where CAP_SYS_ADMIN is dropped, in clean Debian roots).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from perceptron_homework import gradescope, sandbox
from perceptron_homework import runner as kernel


def _options(monkeypatch, version) -> list[str]:
    monkeypatch.setattr(sandbox, "bwrap_version", lambda: version)
    monkeypatch.setattr(sandbox, "bwrap", lambda: "/usr/bin/bwrap")
    return sandbox.command(Path("/job"), ["spec", "out"])


@pytest.mark.parametrize("version", [(0, 4, 1), (0, 6, 1), (0, 7, 0)])
def test_bubblewrap_before_0_8_gets_only_the_options_of_0_4(monkeypatch, version):
    # Ubuntu 22.04's 0.6.1 refused `--perms 1777 --size N --tmpfs /tmp` ("--perms must be followed by
    # an option that creates a file"), and 0.4.1 knows neither --perms, --size nor --clearenv.
    cmd = _options(monkeypatch, version)
    assert not {"--perms", "--size", "--clearenv", "--setenv"} & set(cmd)
    assert "--tmpfs" in cmd and cmd[cmd.index("--tmpfs") + 1] == "/tmp"


def test_bubblewrap_0_8_gets_sized_memory_folders(monkeypatch):
    cmd = _options(monkeypatch, (0, 8, 0))
    at = cmd.index("/tmp")
    assert cmd[at - 5:at + 1] == ["--perms", "1777", "--size", str(256 * 1024**2), "--tmpfs", "/tmp"]


def test_the_version_is_read_from_bwrap(monkeypatch, tmp_path):
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bubblewrap 0.4.1'\n")
    fake.chmod(0o755)
    monkeypatch.setattr(sandbox, "bwrap", lambda: str(fake))
    sandbox.bwrap_version.cache_clear()
    try:
        assert sandbox.bwrap_version() == (0, 4, 1)
    finally:
        sandbox.bwrap_version.cache_clear()


NETWORK = """
import socket, subprocess, sys
from perceptron_homework import runner as kernel
kernel._prctl(kernel.PR_SET_NO_NEW_PRIVS, 1)
kernel.deny_network()
a, b = socket.socketpair()  # Unix sockets stay (multiprocessing uses them)
refused = []
for family, kind in [(socket.AF_INET, socket.SOCK_STREAM), (socket.AF_INET6, socket.SOCK_DGRAM),
                     (socket.AF_PACKET, socket.SOCK_RAW), (socket.AF_NETLINK, socket.SOCK_RAW)]:
    try:
        socket.socket(family, kind).close()
    except PermissionError:
        refused.append(family)
child = subprocess.run([sys.executable, "-c", "import socket; socket.socket()"], capture_output=True, text=True)
print(len(refused), "PermissionError" in child.stderr)
"""


def test_the_seccomp_filter_refuses_every_socket_but_unix_ones_in_the_job_and_its_children():
    done = subprocess.run([sys.executable, "-c", NETWORK], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["4", "True"]


@pytest.mark.skipif(os.geteuid() != 0, reason="becoming another user needs root")
def test_the_end_of_a_job_kills_its_user_s_processes_and_deletes_its_files(tmp_path):
    uid = sandbox.job_uid()
    dropped = f"/tmp/homework-job-file-{uid}"
    # A process of the job's user that left the job's session, and a file of its in /tmp.
    proc = subprocess.Popen(["/bin/sh", "-c", f"touch {dropped}; exec sleep 300"], user=uid, group=uid,
                            extra_groups=[], start_new_session=True, cwd="/")
    for _ in range(100):
        if os.path.exists(dropped):
            break
        time.sleep(0.05)
    assert os.stat(dropped).st_uid == uid
    mine = Path(f"/tmp/homework-root-file-{uid}")
    mine.write_text("root's")
    try:
        sandbox.end_user(uid)
        assert proc.wait(timeout=10) == -9
        assert not os.path.exists(dropped) and mine.exists()
    finally:
        mine.unlink()
        if proc.poll() is None:
            proc.kill()
    with pytest.raises(ValueError, match="not a job's"):
        sandbox.end_user(1000)


def test_exposed_names_the_files_every_user_can_read():
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="homework-exposed-", dir="/tmp"))  # pytest's own is root's alone
    try:
        os.chmod(folder, 0o755)
        open_file, closed_file = folder / "open.zip", folder / "closed.zip"
        open_file.write_text("x")
        closed_file.write_text("x")
        closed_file.chmod(0o600)
        hidden = folder / "private"
        hidden.mkdir(mode=0o700)
        (hidden / "inside.zip").write_text("x")
        assert sandbox.exposed([open_file, closed_file, hidden / "inside.zip"]) == [open_file]
        os.chmod(folder, 0o700)
        assert sandbox.exposed([open_file]) == []
    finally:
        shutil.rmtree(folder)


def test_gradescope_tells_students_nothing_of_a_bypass_when_no_isolation_works(tmp_path, monkeypatch, capsys):
    root = tmp_path / "autograder"
    (root / "source").mkdir(parents=True)
    (root / "submission").mkdir()
    (root / "source" / gradescope.CONFIG).write_text(json.dumps({"assignment": "hw1_perceptron", "secret": "s",
                                                                  "tests": {}}))
    notebook = {"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (root / "submission" / "hw1_perceptron.ipynb").write_text(json.dumps(notebook))
    def missing():
        raise sandbox.SandboxUnavailable("bubblewrap (bwrap) is not installed")

    monkeypatch.setattr(sandbox, "bwrap", missing)
    monkeypatch.setattr(sandbox, "user_isolation_problem", lambda: "the grader is not root")
    from perceptron_homework import cli

    assert cli.main(["gradescope", "--root", str(root)]) == 2
    results = json.loads((root / "results" / "results.json").read_text())
    assert results["output"] == gradescope.NO_ISOLATION_FOR_STUDENTS
    err = capsys.readouterr().err
    assert "the grader is not root" in err and "book/homework.md" in err
    assert "unsafe" not in json.dumps(results) and "unsafe" not in err


@pytest.mark.skipif(os.geteuid() != 0, reason="leaving root needs root")
def test_kernel_confine_leaves_root_with_no_new_privs():
    script = ("import os\nfrom perceptron_homework import runner as kernel\n"
              f"kernel.confine({{'uid': {sandbox.job_uid()}, 'limits': {{'nproc': 16}}, 'no_network': True}})\n"
              "print(os.getuid(), [l for l in open('/proc/self/status') if l.startswith('NoNewPrivs')][0].split()[1])")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    uid, nnp = done.stdout.split()
    assert int(uid) >= 200_000 and nnp == "1"
    assert kernel.PR_SET_NO_NEW_PRIVS == 38


def test_grading_without_namespaces_refuses_while_the_key_is_readable_by_all(tmp_path, monkeypatch):
    # A submission run as a user of its own can read what every user can: not the autograder zip.
    import shutil
    import tempfile
    import zipfile

    from perceptron_homework import grading

    folder = Path(tempfile.mkdtemp(prefix="homework-class-", dir="/tmp"))  # pytest's own folder is root's alone
    os.chmod(folder, 0o755)
    autograder = folder / "hw1_perceptron-autograder.zip"
    with zipfile.ZipFile(autograder, "w") as zf:
        zf.writestr(grading.CONFIG, json.dumps({"assignment": "hw1_perceptron", "secret": "s", "tests": {}}))
    autograder.chmod(0o644)
    notebook = folder / "alice.ipynb"
    notebook.write_text("{}")
    monkeypatch.setattr(sandbox, "check", lambda: sandbox.USER)
    monkeypatch.setattr(grading, "grade_one", lambda *a, **k: pytest.fail("graded"))
    try:
        with pytest.raises(sandbox.SandboxUnavailable, match="readable by all users"):
            grading.grade([notebook], autograder)
        os.chmod(folder, 0o700)
        assert sandbox.exposed([autograder, notebook]) == []
    finally:
        shutil.rmtree(folder)
