"""The chapters' committed outputs do not depend on the CPU that runs them.

numpy and SciPy call OpenBLAS, which picks its kernels for the CPU it finds: AVX-512 kernels on one
machine, AVX2 on the next. They add in different orders, so the last bits of a BLAS result (a
maximum-margin solve, ``X @ w``) differ between machines; a chapter that prints those bits passes
nbval on the machine that executed it and fails on a student's laptop or the next CI machine (as it
once did: 5 cells, e.g. ``0.651920240520264`` against ``0.6519202405202613``). The chapters print
what the mathematics determines, rounded, and compute a score that decides a tie as ``pc.train``
does, left to right.

Strict nbval (``make test``) checks the outputs on this machine's kernels; this test runs nbval
again with OpenBLAS forced (``OPENBLAS_CORETYPE``) to another kernel this CPU can run, the one most
different from the native one (Prescott's SSE3 kernels where the CPU has AVX2 or AVX-512). One is
enough: when the chapters printed BLAS's last bits, every other kernel tried (Prescott, Sandybridge,
SkylakeX, Cooperlake against the AVX2 outputs) failed the same five cells; a second kernel doubled
the test's time (about 70 s each) without catching anything the first did not.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "notebooks").glob("*.ipynb"))
# OpenBLAS kernel families from oldest to newest and the CPU flags each needs (Zen uses Haswell's).
KERNELS = {"Prescott": set(), "Sandybridge": {"avx"}, "Haswell": {"avx2", "fma"},
           "SkylakeX": {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"}}
SAME_KERNELS = {"Zen": "Haswell"}


def blas_architectures(env: dict[str, str] | None = None) -> list[str]:
    """The kernel family every OpenBLAS loaded by numpy and SciPy reports, in a fresh process."""
    code = ("import threadpoolctl, numpy, scipy.linalg\n"
            "print(' '.join(i.get('architecture') or '?' for i in threadpoolctl.threadpool_info()"
            " if i['internal_api'] == 'openblas'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return out.stdout.split()


def other_kernels(native: list[str]) -> list[str]:
    """The kernel family this CPU runs that is most different from ``native`` (what OpenBLAS picks)."""
    flags = set()
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("flags"):
            flags = set(line.split(":", 1)[1].split())
            break
    native_families = {SAME_KERNELS.get(a, a) for a in native}
    order = ["Prescott", "SkylakeX", "Haswell", "Sandybridge"]  # the most different from each other first
    return [k for k in order if KERNELS[k] <= flags and k not in native_families][:1]


@pytest.mark.skipif(not Path("/proc/cpuinfo").exists(), reason="reads the CPU flags from Linux's /proc/cpuinfo")
def test_chapter_outputs_are_the_same_with_other_blas_kernels():
    native = blas_architectures()
    kernels = other_kernels(native)
    assert len(kernels) == 1, f"found no other kernel to compare with on this CPU ({native})"
    for kernel in kernels:
        env = {**os.environ, "OPENBLAS_CORETYPE": kernel}
        forced = blas_architectures(env)
        assert forced != native, f"OPENBLAS_CORETYPE={kernel} did not change the kernels ({native})"
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-q", "--color=no", "--nbval",
             "--nbval-current-env", "--nbval-sanitize-with", "tests/nbval_sanitize.cfg", *CHAPTERS],
            check=False, cwd=ROOT, env=env, capture_output=True, text=True)
        failed = [line for line in run.stdout.splitlines() if line.startswith("FAILED")]
        assert run.returncode == 0, (
            f"with OpenBLAS's {kernel} kernels ({' '.join(forced)} instead of {' '.join(native)}) the chapters'"
            f" outputs differ from the committed ones: {failed or run.stdout[-2000:]}")
