"""Gradescope's side: grade ``<root>/submission`` with ``<root>/source`` and write the results.

Gradescope unpacks the autograder zip in ``/autograder/source``, the student's files in
``/autograder/submission``, runs ``/autograder/run_autograder`` and reads
``/autograder/results/results.json``. The notebook is graded exactly as ``grade`` does, in the
sandbox; each test becomes one entry, hidden tests shown to the student only after publication.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import sandbox
from .grading import CONFIG, Assignment, grade_one


def run(root: Path, *, cell_seconds: float = 60, test_seconds: float = 30, timeout: float = 900,
        unsafe_no_sandbox: bool = False) -> dict:
    """Grade the one notebook in ``root/submission``; write and return Gradescope's results."""
    assignment = Assignment.from_json((root / "source" / CONFIG).read_text())
    results_dir = root / "results"
    results_dir.mkdir(parents=True, exist_ok=True)
    notebooks = sorted((root / "submission").rglob("*.ipynb"))
    preferred = [p for p in notebooks if p.name == f"{assignment.name}.ipynb"]
    if not notebooks:
        results = {"score": 0, "output": "no .ipynb notebook was submitted", "tests": []}
    else:
        if not unsafe_no_sandbox:
            sandbox.check()
        report = grade_one((preferred or notebooks)[0], assignment, cell_seconds=cell_seconds,
                           test_seconds=test_seconds, timeout=timeout, unsafe_no_sandbox=unsafe_no_sandbox)
        entries = []
        for question, cases in assignment.tests.items():
            for case in cases:
                passed = report["tests"][question][case["name"]]
                entries.append({
                    "name": f"{question}: {case['name']}",
                    "score": case["points"] if passed else 0,
                    "max_score": case["points"],
                    "visibility": "after_published" if case["hidden"] else "visible",
                    "output": "passed" if passed else report["failures"].get(case["name"], "failed"),
                })
        results = {"score": sum(report["questions"].values()), "output": f"status: {report['status']}",
                   "tests": entries}
    (results_dir / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    return results
