"""Sphinx extension: difficulty stars on every exercise and "optional" on the proofs a course may skip.

The table of stars and of optional proofs lives in tools/exercise_levels.py. Until the chapters
carry them in their own source (``tools/exercise_levels.py --write``, which also orders the exercises
by difficulty and waits for the chapter rewrite of issue 11), this extension shows them in the built
book: an exercise without a title gets its stars as title ("Exercise 2.3 (★★)"), and the proof that
follows each listed statement is marked with the class ``optional`` and opens with a line
saying that an introductory course can skip it. Exercises and proofs already marked in the source
are left alone, so the extension and the source edit never double up.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from docutils import nodes
from sphinx.application import Sphinx

ROOT = Path(__file__).resolve().parents[2]


def table():
    if "_exercise_levels_table" not in sys.modules:
        spec = importlib.util.spec_from_file_location("_exercise_levels_table", ROOT / "tools" / "exercise_levels.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules["_exercise_levels_table"] = module
        spec.loader.exec_module(module)
    return sys.modules["_exercise_levels_table"]


def mark(app: Sphinx, doctree: nodes.document) -> None:
    from sphinx_exercise.nodes import exercise_enumerable_node, exercise_node, exercise_subtitle, exercise_title
    from sphinx_proof.nodes import proof_node

    levels = table()
    chapter = app.env.docname.split("/")[-1]
    stars = levels.LEVELS.get(chapter, {})
    optional = set(levels.OPTIONAL_PROOFS.get(chapter, []))
    pending = None
    for node in doctree.findall(nodes.Element):
        if isinstance(node, (exercise_node, exercise_enumerable_node)):
            label = node.get("label")
            titles = [t for t in node.children if isinstance(t, exercise_title)]
            if label in stars and titles and not list(titles[0].findall(exercise_subtitle)):
                subtitle = exercise_subtitle()
                subtitle += nodes.Text(levels.STAR * stars[label])
                titles[0] += subtitle
        elif isinstance(node, proof_node):
            if pending is not None:
                box = node.children[0] if node.children else None
                if isinstance(box, nodes.Element) and "optional" not in box["classes"]:
                    box["classes"] += ["optional"]
                    note = nodes.paragraph(classes=["optional-note"])
                    note += nodes.emphasis(text=levels.OPTIONAL_LINE.strip("*"))
                    box.insert(0, note)
                pending = None
        elif node.get("label") in optional and node.get("label") not in stars:
            pending = node.get("label")


def setup(app: Sphinx) -> dict[str, bool]:
    app.connect("doctree-read", mark)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
