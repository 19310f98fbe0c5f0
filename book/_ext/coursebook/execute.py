"""Re-execute chapter notebooks in place, keeping the stored JSON of every cell whose output is unchanged.

nbval compares the committed outputs with fresh ones, so a chapter whose code changed must be
re-executed; doing it with `jupyter nbconvert --execute --inplace` rewrites every cell (timings,
renumbered widget ids), which makes merges of parallel edits to the same notebook painful. This
runs the notebook with nbclient in its own folder, with the project's kernel, and copies back only
the outputs that differ.

    python -m coursebook.execute notebooks/02_update_rule.ipynb [...]
"""

from __future__ import annotations

import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def execute(path: str) -> str:
    path = Path(path)
    stored = nbformat.read(path, as_version=4)
    fresh = nbformat.read(path, as_version=4)
    NotebookClient(fresh, timeout=600, kernel_name="python3", record_timing=False,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    changed = 0
    for old, new in zip(stored.cells, fresh.cells):
        if old.cell_type != "code":
            continue
        if old.get("outputs") != new.get("outputs"):
            old["outputs"] = new["outputs"]
            changed += 1
        old["execution_count"] = new["execution_count"]
    if "widgets" in fresh.metadata:
        stored.metadata["widgets"] = fresh.metadata["widgets"]
    path.write_text(nbformat.writes(stored) + "\n", encoding="utf-8")
    return f"{path}: {changed} cell output(s) changed"


def main(paths: list[str]) -> int:
    with ProcessPoolExecutor(max_workers=2) as pool:
        for line in pool.map(execute, paths):
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
