"""The sandbox every submission runs in: Debian's bubblewrap, without Docker, or a user of its own.

Inside: no network (a new network namespace with only a loopback of its own), a new PID
namespace (the grading process and the rest of the machine are invisible and cannot be
signalled), the whole filesystem read-only and reduced to what Python needs (``/usr``, the
Python installation, the virtual environment and the project's sources), a private ``/scratch``
and ``/tmp`` in memory with a size limit, and an empty ``/root`` and ``/home``: nothing of the
instructor's home, the class's submissions or the answer key is there. The kernel leaves root
for a user id of its own before the student's first line, with limits on address space, CPU
time, processes, file size and open files (:func:`perceptron_homework.runner.confine`).

bubblewrap 0.4 and later (Debian 11's, Ubuntu 20.04's) works: below 0.8 (Ubuntu 22.04 has 0.6.1)
the options are 0.4.1's (no ``--perms``, ``--size``, ``--clearenv``: the environment is bwrap's
own, and the kernel opens its memory folders to its user itself). Where bubblewrap cannot create its namespaces (a container without
CAP_SYS_ADMIN, as Gradescope's; a seccomp profile refusing them) and the grader is root, the
isolation needs no namespace (:data:`USER`): the kernel starts as root, opens its files, then
becomes a user id of its own, with ``no_new_privs``, the same limits, a seccomp filter refusing
every socket but Unix ones, and a private scratch folder; the files of the grader (the key, the
secret, the hidden tests' data, the other jobs and results) are root's alone, so that user reads
none of them. It sees what any user of the machine sees (world-readable files) and may write in
``/tmp``, whose files of its user id are deleted after the job, with every process of that user.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

GIB = 1024**3
MIB = 1024**2


BWRAP = "bwrap"  # bubblewrap's namespaces
USER = "user"    # no namespace: a user id of the job's own (root only)


class SandboxUnavailable(RuntimeError):
    """No isolation is possible here: bubblewrap cannot start and the grader is not root."""


def default_limits(timeout: float) -> dict[str, int]:
    """The kernel's resource limits (``resource.RLIMIT_*``), per process."""
    return {
        "as": GIB,  # address space: grading homework 3 peaks at 0.6 GiB (numpy, scipy, numba, IPython)
        "cpu": int(timeout) + 5,  # CPU seconds: the wall-clock limit's, spent busy
        "nproc": 16,  # processes and threads of the job's own user id
        "fsize": 64 * MIB,  # bytes in one written file
        "nofile": 256,
        "core": 0,
    }


def bwrap() -> str:
    """The path of bwrap, or SandboxUnavailable saying how to install it."""
    path = shutil.which("bwrap")
    if path is None:
        raise SandboxUnavailable(
            "bubblewrap (bwrap) is not installed; install it with `make sandbox` (Debian's package `bubblewrap`)")
    return path


def check() -> str:
    """The isolation grading uses here, :data:`BWRAP` or :data:`USER`; SandboxUnavailable if none.

    bubblewrap first (an empty sandbox with the namespaces grading uses); where it cannot start,
    a user id of the job's own, if this process is root and such a user can run the kernel.
    """
    try:
        bwrap_check()
        return BWRAP
    except SandboxUnavailable as exc:
        problem = str(exc)
    why_not = user_isolation_problem()
    if why_not is None:
        return USER
    error = SandboxUnavailable(
        f"{problem}; and submissions cannot run as a user of their own either: {why_not}. Grading refuses to "
        "run submissions unprotected. Run it where bwrap works (as root, or with unprivileged user namespaces "
        "enabled), or as root with a Python every user can read, or pass --unsafe-no-sandbox if you trust "
        "every submission")
    error.reason = f"{problem}; and submissions cannot run as a user of their own: {why_not}"  # no advice
    raise error


def bwrap_check() -> None:
    """Start an empty bubblewrap sandbox; raise SandboxUnavailable with bwrap's reason if it fails."""
    cmd = [bwrap(), *_namespaces(), "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    if run.returncode != 0:
        raise SandboxUnavailable(
            f"bubblewrap cannot create a sandbox on this machine ({run.stderr.strip() or run.returncode})")


PROBE = ("import os, socket, IPython, numpy, perceptron_homework.runner as k; "
         "assert os.getuid() != 0 and os.geteuid() != 0; k._prctl(k.PR_SET_NO_NEW_PRIVS, 1); k.deny_network()\n"
         "try:\n    socket.socket(socket.AF_INET, socket.SOCK_DGRAM)\nexcept PermissionError:\n    pass\n"
         "else:\n    raise SystemExit('the seccomp filter let a socket through')")


def user_isolation_problem() -> str | None:
    """None where this process is root and a user id of a job's own can run the kernel (leave root,
    read the Python installation and its packages, install the seccomp filter); else why not."""
    if os.geteuid() != 0:
        return "the grader is not root"
    uid = job_uid()
    try:
        run = subprocess.run([sys.executable, "-I", "-c", PROBE], user=uid, group=uid, extra_groups=[],
                             capture_output=True, text=True, timeout=120, check=False, cwd="/",
                             env=kernel_environment("/nonexistent", "/nonexistent"))
    except (OSError, subprocess.SubprocessError) as exc:
        return f"a process cannot become user {uid} ({exc})"
    finally:
        end_user(uid, places=())
    if run.returncode != 0:
        last = (run.stderr.strip().splitlines() or [f"exit status {run.returncode}"])[-1]
        return f"a process of another user cannot run the grader's Python ({last[:300]})"
    return None


@functools.cache
def bwrap_version() -> tuple[int, ...]:
    """bubblewrap's version, from ``bwrap --version`` ("bubblewrap 0.4.1"); (0,) if it says none."""
    out = subprocess.run([bwrap(), "--version"], capture_output=True, text=True, check=False).stdout
    for word in out.split():
        parts = word.split(".")
        if len(parts) >= 2 and all(x.isdigit() for x in parts):
            return tuple(int(x) for x in parts)
    return (0,)


def _namespaces() -> list[str]:
    ns = ["--unshare-net", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
          "--die-with-parent", "--new-session"]
    if os.getuid() == 0:
        # Root creates the namespaces; the kernel keeps only the right to change to its own uid.
        return ns + ["--cap-add", "CAP_SETUID", "--cap-add", "CAP_SETGID"]
    return ns + ["--unshare-user"]


@functools.cache
def python_paths() -> list[Path]:
    """Directories Python needs, read-only: its installation, the venv, the import path.

    The import path is that of an isolated interpreter (``-I``): never the current directory,
    which may hold the submissions.
    """
    probe = [sys.executable, "-I", "-c", "import sys, json; print(json.dumps(sys.path))"]
    path = json.loads(subprocess.run(probe, capture_output=True, text=True, check=True).stdout)
    found: list[Path] = []
    for p in (sys.base_prefix, sys.prefix, Path(sys.executable).parent, *path):
        if not p:
            continue
        for q in {Path(p).absolute(), Path(p).resolve()}:
            if q.is_dir() and not any(q == f or f in q.parents for f in found):
                found = [f for f in found if q not in f.parents] + [q]
    return sorted(f for f in found if f != Path("/") and Path("/usr") not in [f, *f.parents])


def command(job: Path, kernel_args: list[str], *, scratch_bytes: int = 256 * MIB) -> list[str]:
    """The bwrap command that runs ``python -m perceptron_homework.runner`` on the job folder.

    Its environment is the process's own: give it :func:`kernel_environment` (``--clearenv`` and
    ``--setenv`` are not in every version). ``/tmp`` and ``/scratch`` are memory file systems with
    a size limit where bwrap can set one (0.8 and later); older versions make them root's, and the
    kernel opens them to its user (:func:`perceptron_homework.runner.confine`).
    """
    cmd = [bwrap(), *_namespaces(), "--ro-bind", "/usr", "/usr"]
    modern = bwrap_version() >= (0, 8)
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64"):
        if os.path.islink(top):
            cmd += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            cmd += ["--ro-bind", top, top]
    for name in ("ld.so.cache", "ld.so.conf", "localtime", "nsswitch.conf"):
        if os.path.exists(f"/etc/{name}"):
            cmd += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    cmd += ["--proc", "/proc", "--dev", "/dev"]
    for folder, mode in (("/tmp", "1777"), ("/scratch", "0777")):
        cmd += (["--perms", mode, "--size", str(scratch_bytes)] if modern else []) + ["--tmpfs", folder]
    cmd += ["--tmpfs", "/root", "--tmpfs", "/home"]
    made: set[Path] = set()
    for path in python_paths():
        cmd += _parents(path, made) + ["--ro-bind", str(path), str(path)]
    cmd += _parents(Path("/grading/spec.json"), made)
    for name in ("spec.json", "submission.ipynb"):
        cmd += ["--ro-bind", str(job / name), f"/grading/{name}"]
    cmd += ["--bind", str(job / "out.json"), "/grading/out.json", "--chdir", "/scratch"]
    return cmd + [sys.executable, "-I", "-m", "perceptron_homework.runner", *kernel_args]


def _parents(path: Path, made: set[Path]) -> list[str]:
    """Create the folders above a mount point readable by all (``--dir`` makes them 0755; the
    ``--perms`` 0.8 takes says so too). Below 0.8 the options are exactly 0.4.1's, the version tested."""
    perms = ["--perms", "0755"] if bwrap_version() >= (0, 8) else []
    args = []
    for parent in reversed(path.parents):
        if parent != Path("/") and parent not in made:
            made.add(parent)
            args += [*perms, "--dir", str(parent)]
    return args


def kernel_environment(home: str, tmp: str) -> dict[str, str]:
    """Environment of the kernel: one thread per library, caches in its scratch space."""
    one = {k: "1" for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS")}
    return {**one, "PATH": "/usr/bin:/bin", "HOME": home, "TMPDIR": tmp, "MPLBACKEND": "Agg",
            "MPLCONFIGDIR": f"{tmp}/matplotlib", "IPYTHONDIR": f"{tmp}/ipython", "NUMBA_CACHE_DIR": f"{tmp}/numba",
            "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0", "LANG": "C.UTF-8"}


def job_uid() -> int:
    """A user id of the job's own, so that its process limit counts nobody else's processes."""
    return 200_000 + secrets.randbelow(1_000_000_000)


def exposed(paths: list[Path]) -> list[Path]:
    """The paths another user could read: the file readable by all, and every folder above it
    passable by all."""
    found = []
    for path in paths:
        path = Path(path).absolute()
        try:
            if not path.stat().st_mode & 0o004:
                continue
            if all(p.stat().st_mode & 0o001 for p in path.parents):
                found.append(path)
        except OSError:
            continue
    return found


def end_user(uid: int, places: tuple[str, ...] = ("/tmp", "/var/tmp", "/dev/shm")) -> None:
    """After a job run as ``uid`` without namespaces: kill every process of that user (one that left
    the job's session too) and delete its files in the world-writable ``places``."""
    if uid < 200_000:  # never a real account's
        raise ValueError(f"user id {uid} is not a job's")
    pid = os.fork()  # the child only makes system calls, then leaves: safe beside the grader's threads
    if pid == 0:
        code = 1
        try:
            os.setgroups([])
            os.setgid(uid)
            os.setuid(uid)
            for _ in range(100):
                try:
                    os.kill(-1, signal.SIGKILL)  # every process this user may signal: its own
                except ProcessLookupError:
                    code = 0
                    break
                time.sleep(0.02)
        finally:
            os._exit(code)
    os.waitpid(pid, 0)
    for place in places:
        _remove_owned(Path(place), uid)


def _remove_owned(top: Path, uid: int) -> None:
    try:
        entries = list(os.scandir(top))
    except OSError:
        return
    for entry in entries:
        try:
            st = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if st.st_uid == uid:
            if entry.is_dir(follow_symlinks=False):
                shutil.rmtree(entry.path, ignore_errors=True)
            else:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)
        elif entry.is_dir(follow_symlinks=False) and st.st_mode & 0o002:  # another world-writable folder
            _remove_owned(Path(entry.path), uid)


class Cgroup:
    """A ceiling on the memory and the processes of a whole sandbox, all its processes together.

    The kernel's resource limits hold per process; a notebook that forks and then fills memory
    in every child would multiply them. Where the machine lets the grader create control groups
    (cgroup v2, or v1's ``memory`` and ``pids`` hierarchies, as root), each sandbox gets one of
    its own: :meth:`create` returns it, or None where that is impossible, and the per-process
    limits stand alone.
    """

    def __init__(self, dirs: list[Path]):
        self.dirs = dirs

    @classmethod
    def create(cls, memory: int = 2 * GIB, pids: int = 64) -> Cgroup | None:
        name = f"perceptron-homework-{secrets.token_hex(8)}"
        made: list[Path] = []
        try:
            base = Path("/sys/fs/cgroup")
            if (base / "cgroup.controllers").exists():
                enabled = (base / "cgroup.subtree_control").read_text().split()
                if not {"memory", "pids"} <= set(enabled):
                    return None
                made.append(base / name)
                made[0].mkdir()
                _write(made[0] / "memory.max", memory)
                _write(made[0] / "memory.swap.max", 0, optional=True)
                _write(made[0] / "pids.max", pids)
            else:
                own = dict(line.split(":", 2)[1:] for line in Path("/proc/self/cgroup").read_text().splitlines())
                for controller, files in (("memory", {"memory.limit_in_bytes": memory,
                                                      "memory.memsw.limit_in_bytes": memory}),
                                          ("pids", {"pids.max": pids})):
                    d = base / controller / own[controller].lstrip("/") / name
                    d.mkdir()
                    made.append(d)
                    for file, value in files.items():
                        _write(d / file, value, optional=file.startswith("memory.memsw"))
        except (OSError, KeyError, ValueError):
            cls(made).remove()
            return None
        return cls(made)

    def wrap(self, cmd: list[str]) -> list[str]:
        """``cmd`` run by a shell that first moves itself into the group, then becomes ``cmd``."""
        script = "for d in \"$@\"; do [ \"$d\" = -- ] && break; echo $$ > \"$d/cgroup.procs\" || exit 97; shift; done"
        return ["/bin/sh", "-c", script + '; shift; exec "$@"', "sh", *map(str, self.dirs), "--", *cmd]

    def remove(self) -> None:
        for d in reversed(self.dirs):
            for _ in range(50):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # processes still leaving
                    time.sleep(0.1)


def _write(path: Path, value: int, optional: bool = False) -> None:
    if optional and not path.exists():
        return
    path.write_text(str(value))
