"""The grading kernel: what runs inside the sandbox, in the student's process.

``python -m perceptron_homework.runner SPEC OUT`` reads the job ``SPEC`` (JSON), drops root and
sets the resource limits it names, runs every code cell of the submission in an IPython shell
with a time limit per cell, then makes the calls of every test (:mod:`.checks`) with a time
limit per test, and writes the outputs to ``OUT`` as plain data. It decides nothing: the
verdicts are reached outside, by the grading process. Everything here runs before or after the
student's code in the same process, so the student's code can change what this module does;
all it can gain that way is to change its own outputs.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any

from . import plain
from .patches import PATCHES

# Cells that only set up otter or call its checks: the grader skips them (the public tests run
# outside, with the hidden ones).
OTTER_LINE = re.compile(r"(#.*|import otter|from perceptron_homework\.student import notebook_file|"
                        r"grader\s*=\s*otter\.Notebook\(.*\)|grader\.\w+\(.*\))?")


class GraderTimeout(BaseException):
    """Raised by the alarm: a BaseException, so ``except Exception`` in student code lets it by."""


def perform(call: dict, ns: dict) -> dict:
    """Make one call of a test in the namespace ``ns``; return its outcome as plain data."""
    name = call["name"]
    if name not in ns or (call["kind"] == "call" and not callable(ns[name])):
        return {"missing": True}
    if call["kind"] == "value":
        return _encoded({}, ns[name])
    trace: list = []
    saved = {}
    try:
        args, kwargs = plain.decode(call["args"]), plain.decode(call["kwargs"])
        for target, patch in call.get("patch", {}).items():
            impl = PATCHES[patch]
            if target in call.get("trace", ()):
                impl = _recording(impl, target, trace)
            saved[target] = ns.get(target, _MISSING)
            ns[target] = impl
        watch = _Watch(call.get("forbid", ()))
        previous = sys.getprofile()
        sys.setprofile(watch if watch.active else previous)
        try:
            result = ns[name](*args, **kwargs)
        finally:
            sys.setprofile(previous)
    except GraderTimeout:
        raise
    except BaseException as exc:  # noqa: BLE001 - SystemExit, KeyboardInterrupt: the student's error
        return {"error": f"{type(exc).__name__}: {exc}"[:1000]}
    finally:
        for target, old in saved.items():
            if old is _MISSING:
                ns.pop(target, None)
            else:
                ns[target] = old
    out = _encoded({"called": watch.called[0]} if watch.called else {}, result)
    if trace:
        out["trace"] = plain.encode(trace)
    if call.get("inputs_after"):  # a test of a function that must not change its inputs in place
        try:
            out["inputs_after"] = plain.encode(tuple(args))
        except Exception:  # noqa: BLE001 - an input turned into something unreadable: not sent
            out["inputs_after"] = None
    return out


_MISSING = object()


def _encoded(out: dict, result: Any) -> dict:
    try:
        out["value"] = plain.encode(result)
    except GraderTimeout:
        raise
    except BaseException as exc:  # noqa: BLE001
        out["error"] = f"the result cannot be read ({type(exc).__name__}: {exc})"[:1000]
    return out


def _recording(impl, target: str, trace: list):
    def recorded(*args, **kwargs):
        trace.append([target, list(args), kwargs])
        return impl(*args, **kwargs)

    return recorded


class _Watch:
    """A profile hook that notes the first call into a forbidden function or module."""

    def __init__(self, forbid):
        self.prefixes = tuple(f[:-2] for f in forbid if f.endswith(".*"))
        self.codes = {}
        for entry in forbid:
            if entry.endswith(".*"):
                continue
            module, _, attr = entry.rpartition(".")
            target = getattr(sys.modules.get(module), attr, None)
            code = getattr(target, "__code__", None)
            if code is not None:
                self.codes[code] = entry
        self.active = bool(self.prefixes or self.codes)
        self.called: list[str] = []

    def __call__(self, frame, event, arg):
        if event != "call" or self.called:
            return
        code = frame.f_code
        if code in self.codes:
            self.called.append(self.codes[code])
            return
        module = frame.f_globals.get("__name__", "")
        if isinstance(module, str):
            for prefix in self.prefixes:
                if module == prefix or module.startswith(prefix + "."):
                    self.called.append(f"{module}.{code.co_name}")
                    return


# ------------------------------------------------------------------------------------- the run
def _expire(signum, frame):
    raise GraderTimeout()


def _arm(seconds: float) -> None:
    signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)


def _disarm() -> None:
    signal.setitimer(signal.ITIMER_REAL, 0)


def confine(spec: dict | None) -> None:
    """Leave root for the job's own user id and set the resource limits of the spec.

    Before: the folders of ``spec["writable"]`` are opened to all (old bubblewrap makes its
    memory file systems root's), ``no_new_privs`` is set (no set-user-id program gives root back),
    and with ``spec["no_network"]`` a seccomp filter refuses every socket but Unix ones
    (:func:`deny_network`): where the job has no network namespace of its own.
    """
    if not spec:
        return
    import resource

    for folder in spec.get("writable", ()):
        with contextlib.suppress(OSError):
            os.chmod(folder, 0o1777)
    _prctl(PR_SET_NO_NEW_PRIVS, 1)
    if spec.get("no_network"):
        deny_network()
    if os.getuid() == 0:
        os.setgroups([])
        os.setgid(spec["uid"])
        os.setuid(spec["uid"])
    if os.getuid() == 0 or os.geteuid() == 0 or os.getgid() == 0 or os.getegid() == 0:
        raise SystemExit("the grading kernel could not leave root")
    for name, limit in spec.get("limits", {}).items():
        resource.setrlimit(getattr(resource, f"RLIMIT_{name.upper()}"), (limit, limit))


PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP, SECCOMP_MODE_FILTER = 38, 22, 2
# seccomp's view of a system call (struct seccomp_data): nr at 0, arch at 4, args[0] at 16.
_ARCH = {"x86_64": (0xC000003E, 41, 425), "aarch64": (0xC00000B7, 198, 425)}  # audit arch, socket, io_uring_setup
AF_UNIX = 1


def _prctl(*args: int) -> None:
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(*[ctypes.c_ulong(a) if isinstance(a, int) else a for a in args], ctypes.c_ulong(0),
                  ctypes.c_ulong(0), ctypes.c_ulong(0)) != 0:
        raise OSError(ctypes.get_errno(), f"prctl{args[:2]} failed")


def deny_network() -> None:
    """Install a seccomp filter (classic BPF, written here by hand): ``socket()`` of any family
    but AF_UNIX and ``io_uring_setup`` fail with EACCES; a call through another ABI (x32, 32-bit)
    fails with EPERM. Needs no privilege after ``no_new_privs``. x86_64 and aarch64 only:
    elsewhere it raises OSError rather than pass in silence."""
    import ctypes
    import errno
    import platform
    import struct

    machine = platform.machine()
    if machine not in _ARCH:
        raise OSError(f"no seccomp network filter for {machine}")
    arch, socket_nr, uring_nr = _ARCH[machine]
    ld_w, jeq, jge, ret = 0x20, 0x15, 0x35, 0x06  # BPF_LD|W|ABS, BPF_JMP|JEQ|K, BPF_JMP|JGE|K, BPF_RET|K
    allow, eacces, eperm = 0x7FFF0000, 0x00050000 | errno.EACCES, 0x00050000 | errno.EPERM
    program = [
        (ld_w, 0, 0, 4),             # 0: A = arch
        (jeq, 1, 0, arch),           # 1: native ABI: go on at 3
        (ret, 0, 0, eperm),          # 2
        (ld_w, 0, 0, 0),             # 3: A = nr
        (jge, 6, 0, 0x40000000),     # 4: x32's numbers: refuse (11)
        (jeq, 3, 0, socket_nr),      # 5: socket: check its family (9)
        (jeq, 1, 0, uring_nr),       # 6: io_uring (its own sockets): refuse (8)
        (ret, 0, 0, allow),          # 7
        (ret, 0, 0, eacces),         # 8
        (ld_w, 0, 0, 16),            # 9: A = family (args[0], low word)
        (jeq, 2, 1, AF_UNIX),        # 10: AF_UNIX: allow (13), else refuse (12)
        (ret, 0, 0, eperm),          # 11
        (ret, 0, 0, eacces),         # 12
        (ret, 0, 0, allow),          # 13
    ]
    raw = b"".join(struct.pack("HBBI", *ins) for ins in program)
    buffer = ctypes.create_string_buffer(raw, len(raw))

    class Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    prog = Prog(len(program), ctypes.addressof(buffer))
    _prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, ctypes.pointer(prog))


def code_cells(notebook: dict) -> list[str]:
    """The sources of the notebook's code cells, without otter's setup and check cells."""
    cells = []
    for cell in notebook.get("cells", []):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = cell.get("source", "")
        source = "".join(source) if isinstance(source, list) else str(source)
        if all(OTTER_LINE.fullmatch(line.strip()) for line in source.splitlines()):
            continue
        cells.append(source)
    return cells


def run_cells(sources: list[str], cell_seconds: float) -> tuple[dict, list[dict]]:
    """Run the cells in a fresh IPython shell; return its namespace and the cells that failed."""
    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    config = Config()
    config.HistoryManager.enabled = False
    shell = InteractiveShell.instance(config=config)
    # IPython 9 keeps everything a cell prints in its output history (InteractiveShell._tee):
    # an endless print would fill memory rather than just burn time. Nothing is kept here.
    shell._tee = lambda channel: contextlib.nullcontext()
    failures = []
    for index, source in enumerate(sources):
        try:
            _arm(cell_seconds)
            result = shell.run_cell(source, store_history=False)
            _disarm()
            error = result.error_before_exec or result.error_in_exec
            if isinstance(error, GraderTimeout):  # IPython catches every exception of the cell
                raise error
            if error is not None:
                failures.append({"cell": index, "error": f"{type(error).__name__}: {error}"[:500]})
        except GraderTimeout:
            _disarm()
            failures.append({"cell": index, "error": f"the cell ran longer than {cell_seconds:g} s and was stopped"})
        except BaseException as exc:  # noqa: BLE001 - an error that escaped IPython
            _disarm()
            failures.append({"cell": index, "error": f"{type(exc).__name__}: {exc}"[:500]})
    return shell.user_ns, failures


def harvest(ns: dict, calls: dict[str, list[dict]], test_seconds: float) -> dict[str, list[dict]]:
    """Make every test's calls, each test within ``test_seconds``."""
    results = {}
    for test, test_calls in calls.items():
        outs: list[dict] = []
        try:
            _arm(test_seconds)
            for c in test_calls:
                outs.append(perform(c, ns))
        except GraderTimeout:
            outs.append({"timeout": True})
        finally:
            _disarm()
        results[test] = outs
    return results


def main(argv: list[str] | None = None) -> int:
    spec_path, out_path = argv if argv is not None else sys.argv[1:]
    spec = json.loads(Path(spec_path).read_text())
    notebook = json.loads(Path(spec["notebook"]).read_text())
    # Opened before the kernel leaves root: the output file may be root's alone (no namespace).
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
    confine(spec.get("confine"))
    # The student's prints go nowhere: a flood costs CPU time, never disk or the grader's pipe.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.dup2(devnull, 2)
    try:
        ns, failures = run_cells(code_cells(notebook), spec["cell_seconds"])
        results = harvest(ns, spec["calls"], spec["test_seconds"])
        text = json.dumps({"cells": failures, "tests": results}, allow_nan=False)
        status = 0
    except BaseException:  # noqa: BLE001 - the grader's own failure, reported in the output
        import traceback

        text = json.dumps({"kernel_error": traceback.format_exc()[-3000:]})
        status = 3
    with contextlib.suppress(OSError):  # what the student's code wrote there is gone
        os.ftruncate(out, 0)
        os.lseek(out, 0, os.SEEK_SET)
    with open(out, "w", closefd=False) as fh:
        fh.write(text)
    os._exit(status)  # no atexit handler of the student's runs after the outputs are written


if __name__ == "__main__":
    sys.exit(main())
