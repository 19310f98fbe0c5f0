"""The student edition's PDF (`make student-pdf`, run by `make pdf-test`) holds no solution.

The probes are those of tests/book/test_student_build.py: per solution, word windows and code lines that
appear nowhere else in the book. The full PDF must contain them (so the probes can find a solution
in PDF text at all); the student PDF must contain none.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STUDENT_PDF = ROOT / "_build" / "student" / "perceptron.pdf"
FULL_PDF = ROOT / "_build" / "pdf" / "perceptron.pdf"

_spec = importlib.util.spec_from_file_location("student_probes", ROOT / "tests" / "book" / "test_student_build.py")
student_probes = importlib.util.module_from_spec(_spec)
sys.modules["student_probes"] = student_probes
_spec.loader.exec_module(student_probes)


def pdf_text(path: Path) -> tuple[str, str]:
    assert path.exists(), f"{path} is missing: run `make pdf-test`"
    raw = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                         check=True).stdout
    return " ".join(student_probes.words(raw)), " ".join(raw.split())


@pytest.fixture(scope="module")
def texts():
    return pdf_text(STUDENT_PDF), pdf_text(FULL_PDF)


@pytest.mark.parametrize("chapter", student_probes.CHAPTERS, ids=lambda p: p.stem)
def test_student_pdf_has_no_solution_that_the_full_pdf_shows(chapter, texts):
    student, full = texts
    found = student_probes.probes(chapter)
    assert student_probes.leaks(found, full) > 0, f"{chapter.stem}: the probes find nothing in the full PDF"
    assert student_probes.leaks(found, student) == 0, f"{chapter.stem}: a solution is in the student PDF"
