"""The student edition's PDF (`make student-pdf`, run by `make pdf-test`) holds no solution.

The probes are those of tests/book/test_student_build.py (tests/support/solution_probes.py): per
solution, word windows and code lines that appear nowhere else in the book. The full PDF must
contain them (so the probes can find a solution in PDF text at all); the student PDF must contain none.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support import solution_probes

ROOT = Path(__file__).resolve().parents[2]
STUDENT_PDF = ROOT / "_build" / "student" / "perceptron.pdf"
FULL_PDF = ROOT / "_build" / "pdf" / "perceptron.pdf"


def pdf_text(path: Path) -> tuple[str, str]:
    assert path.exists(), f"{path} is missing: run `make pdf-test`"
    raw = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                         check=True).stdout
    return " ".join(solution_probes.words(raw)), " ".join(raw.split())


@pytest.fixture(scope="module")
def texts():
    return pdf_text(STUDENT_PDF), pdf_text(FULL_PDF)


@pytest.mark.parametrize("chapter", solution_probes.CHAPTERS, ids=lambda p: p.stem)
def test_student_pdf_has_no_solution_that_the_full_pdf_shows(chapter, texts):
    student, full = texts
    found = solution_probes.probes(chapter)
    assert solution_probes.leaks(found, full) > 0, f"{chapter.stem}: the probes find nothing in the full PDF"
    assert solution_probes.leaks(found, student) == 0, f"{chapter.stem}: a solution is in the student PDF"
