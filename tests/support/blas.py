"""OpenBLAS kernel families: the one this CPU gets and the most different one it can also run.

numpy and SciPy call OpenBLAS, which picks its kernels for the CPU it finds (AVX-512 on one machine,
AVX2 on the next); they add in different orders, so the last bits of a BLAS result differ between
machines. tests/conftest.py forces the most different kernel (``OPENBLAS_CORETYPE``) for every process
a test session starts, so that strict nbval checks the chapters' committed outputs, executed on the
maintainer's native kernel, against another one (tests/content/test_portable_outputs.py).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

# OpenBLAS kernel families from oldest to newest and the CPU flags each needs (Zen uses Haswell's).
KERNELS = {"Prescott": set(), "Sandybridge": {"avx"}, "Haswell": {"avx2", "fma"},
           "SkylakeX": {"avx512f", "avx512bw", "avx512vl", "avx512dq", "avx512cd"}}
SAME_KERNELS = {"Zen": "Haswell"}
# The most different from each other first: SSE3 against AVX-512 or AVX2.
PREFERENCE = ["Prescott", "SkylakeX", "Haswell", "Sandybridge"]


def blas_architectures(env: dict[str, str] | None = None) -> list[str]:
    """The kernel family every OpenBLAS loaded by numpy and SciPy reports, in a fresh process."""
    code = ("import threadpoolctl, numpy, scipy.linalg\n"
            "print(' '.join(i.get('architecture') or '?' for i in threadpoolctl.threadpool_info()"
            " if i['internal_api'] == 'openblas'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return out.stdout.split()


def cpu_flags() -> set[str]:
    """The CPU's flags from Linux's /proc/cpuinfo (empty elsewhere)."""
    cpuinfo = Path("/proc/cpuinfo")
    if not cpuinfo.exists():
        return set()
    for line in cpuinfo.read_text().splitlines():
        if line.startswith("flags"):
            return set(line.split(":", 1)[1].split())
    return set()


def other_kernel(native: list[str], flags: set[str]) -> str | None:
    """The kernel family this CPU runs that is most different from ``native`` (what OpenBLAS picks)."""
    native_families = {SAME_KERNELS.get(a, a) for a in native}
    found = [k for k in PREFERENCE if KERNELS[k] <= flags and k not in native_families]
    return found[0] if found else None
