"""The chapters' committed outputs do not depend on the CPU that runs them.

numpy and SciPy call OpenBLAS, which picks its kernels for the CPU it finds: AVX-512 kernels on one
machine, AVX2 on the next. They add in different orders, so the last bits of a BLAS result (a
maximum-margin solve, ``X @ w``) differ between machines; a chapter that prints those bits passes
nbval on the machine that executed it and fails on a student's laptop or the next CI machine (as it
once did: 5 cells, e.g. ``0.651920240520264`` against ``0.6519202405202613``). The chapters print
what the mathematics determines, rounded, and compute a score that decides a tie as ``pc.train``
does, left to right.

The committed outputs come from the maintainer's native kernels (``python -m coursebook.execute``).
tests/conftest.py forces, for every process a test session starts, the kernel family most different
from the native one (Prescott's SSE3 kernels where the CPU has AVX2 or AVX-512), so the strict nbval
run of ``make test`` executes every chapter on it: one execution of the chapters checks both the
outputs and their portability. When the chapters printed BLAS's last bits, every other kernel tried
(Prescott, Sandybridge, SkylakeX, Cooperlake against the AVX2 outputs) failed the same five cells.
This test checks that the forcing happened, so that a passing nbval run means what it says.
"""

from __future__ import annotations

import os

import pytest

from tests.support.blas import blas_architectures, other_kernel

ROOT_NOTEBOOKS = "notebooks"


def test_kernel_choice_prefers_the_most_different_family():
    assert other_kernel(["Haswell"], {"avx", "avx2", "fma"}) == "Prescott"
    assert other_kernel(["Zen"], {"avx", "avx2", "fma"}) == "Prescott"
    assert other_kernel(["Prescott"], {"avx", "avx2", "fma"}) == "Haswell"
    assert other_kernel(["Prescott"], set()) is None


def test_this_session_runs_the_chapters_on_another_blas_kernel(request):
    chapters = [item for item in request.session.items
                if item.path.suffix == ".ipynb" and item.path.parent.name == ROOT_NOTEBOOKS]
    if not chapters:
        pytest.skip("no chapter is collected in this run: their strict nbval is what this test vouches for")
    native = blas_architectures({k: v for k, v in os.environ.items() if k != "OPENBLAS_CORETYPE"})
    forced = blas_architectures(dict(os.environ))
    assert os.environ.get("OPENBLAS_CORETYPE"), "tests/conftest.py forced no OpenBLAS kernel for this session"
    assert forced != native, (
        f"the chapters' nbval run uses OpenBLAS's {forced}, the same as this CPU's own {native}")
