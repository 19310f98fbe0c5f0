"""ruff over the whole repository, with its one configuration (the root pyproject.toml's [tool.ruff]).

The package, the homework grader, the book's machinery, the benchmarks, the tests and the notebooks
(chapters and homework masters) are all held to ruff's default rules; the few exceptions are in that
configuration or on the line they excuse, each with its reason.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_ruff_finds_nothing_in_the_repository():
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "--no-cache", "--output-format", "concise", "."],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, f"`ruff check .` at {ROOT}:\n{done.stdout}{done.stderr}"
