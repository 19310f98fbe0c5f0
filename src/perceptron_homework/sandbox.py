"""The sandbox every submission runs in: Debian's bubblewrap, without Docker.

Inside: no network (a new network namespace with only a loopback of its own), a new PID
namespace (the grading process and the rest of the machine are invisible and cannot be
signalled), the whole filesystem read-only and reduced to what Python needs (``/usr``, the
Python installation, the virtual environment and the project's sources), a private ``/scratch``
and ``/tmp`` in memory with a size limit, and an empty ``/root`` and ``/home``: nothing of the
instructor's home, the class's submissions or the answer key is there. The kernel leaves root
for a user id of its own before the student's first line, with limits on address space, CPU
time, processes, file size and open files (:func:`perceptron_homework.kernel.confine`).
"""

from __future__ import annotations

import functools
import json
import os
import secrets
import shutil
import subprocess
import sys
import time
from pathlib import Path

GIB = 1024**3
MIB = 1024**2


class SandboxUnavailable(RuntimeError):
    """bubblewrap is missing or cannot create its namespaces here."""


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
            "bubblewrap (bwrap) is not installed, so submissions cannot be sandboxed; install it with "
            "`make sandbox` (Debian's package `bubblewrap`), or grade with --unsafe-no-sandbox only if you "
            "trust every submission"
        )
    return path


def check() -> None:
    """Start an empty sandbox with the namespaces grading uses; raise SandboxUnavailable if it fails."""
    cmd = [bwrap(), *_namespaces(), "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "true"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=60, check=False)
    if run.returncode != 0:
        raise SandboxUnavailable(
            f"bubblewrap cannot create a sandbox on this machine ({run.stderr.strip() or run.returncode}); "
            "grading refuses to run submissions unprotected. Run it where bwrap works (as root, or with "
            "unprivileged user namespaces enabled), or pass --unsafe-no-sandbox if you trust every submission"
        )


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
    """The bwrap command that runs ``python -m perceptron_homework.kernel`` on the job folder."""
    cmd = [bwrap(), *_namespaces(), "--ro-bind", "/usr", "/usr"]
    for top in ("/bin", "/sbin", "/lib", "/lib32", "/lib64"):
        if os.path.islink(top):
            cmd += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            cmd += ["--ro-bind", top, top]
    for name in ("ld.so.cache", "ld.so.conf", "localtime", "nsswitch.conf"):
        if os.path.exists(f"/etc/{name}"):
            cmd += ["--ro-bind", f"/etc/{name}", f"/etc/{name}"]
    cmd += ["--proc", "/proc", "--dev", "/dev",
            "--perms", "1777", "--size", str(scratch_bytes), "--tmpfs", "/tmp",
            "--perms", "0777", "--size", str(scratch_bytes), "--tmpfs", "/scratch",
            "--tmpfs", "/root", "--tmpfs", "/home"]
    made: set[Path] = set()
    for path in python_paths():
        cmd += _parents(path, made) + ["--ro-bind", str(path), str(path)]
    cmd += _parents(Path("/grading/spec.json"), made)
    for name in ("spec.json", "submission.ipynb"):
        cmd += ["--ro-bind", str(job / name), f"/grading/{name}"]
    cmd += ["--bind", str(job / "out.json"), "/grading/out.json", "--chdir", "/scratch", "--clearenv"]
    for key, val in kernel_environment("/scratch", "/tmp").items():
        cmd += ["--setenv", key, val]
    return cmd + [sys.executable, "-I", "-m", "perceptron_homework.kernel", *kernel_args]


def _parents(path: Path, made: set[Path]) -> list[str]:
    """Create the folders above a mount point readable by all (bwrap would make them 0700)."""
    args = []
    for parent in reversed(path.parents):
        if parent != Path("/") and parent not in made:
            made.add(parent)
            args += ["--perms", "0755", "--dir", str(parent)]
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
