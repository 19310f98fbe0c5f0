"""Run a notebook's code cells in order in one namespace, as a kernel would (no Jupyter needed).

``python run_cells.py NOTEBOOK`` prints one line per code cell (``ok <index>`` or ``error
<index>: <exception>``) and the plain text of what each ``grader.check`` cell returns; it stops at
the first error. The test of the student notebooks runs it with a fresh virtual environment's
Python, where nothing but the standard library is installed before the setup cell runs.
"""

import json
import sys
import traceback


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as fh:
        notebook = json.load(fh)
    namespace = {"__name__": "__main__"}
    for index, cell in enumerate(notebook["cells"]):
        if cell["cell_type"] != "code":
            continue
        source = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
        try:
            lines = source.rstrip().splitlines()
            last = lines[-1] if lines else ""
            if last.startswith("grader.check("):
                exec(compile("\n".join(lines[:-1]), f"<cell {index}>", "exec"), namespace)  # noqa: S102 - a cell
                print(f"check {index}: {eval(last, namespace)!r}".replace("\n", " "))
            else:
                exec(compile(source, f"<cell {index}>", "exec"), namespace)  # noqa: S102 - a cell
        except BaseException as exc:  # noqa: BLE001 - reported, then stop
            print(f"error {index}: {type(exc).__name__}: {exc}")
            traceback.print_exc()
            sys.exit(1)
        print(f"ok {index}", flush=True)


if __name__ == "__main__":  # a script: pytest's doctest collection imports it too
    main()
