"""Build the homework and grade submitted notebooks: a thin shim over ``perceptron-homework``.

    python tools/homework.py build [MASTER ...] [--out _build/homework] [--secret S]
    python tools/homework.py grade AUTOGRADER_ZIP SUBMISSION_OR_FOLDER ... [--out scores.csv]

The tool is the package ``perceptron_homework`` (src/perceptron_homework); see its ``cli``.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from perceptron_homework.cli import main

if __name__ == "__main__":
    sys.exit(main())
