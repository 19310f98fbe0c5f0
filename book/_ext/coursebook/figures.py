"""Write the chapters' figure descriptions (book/figure_descriptions.yml) into the notebooks.

Static figures: the cell's metadata gets ``mystnb.image.alt`` (and ``mystnb.figure.caption`` where
the data file gives a caption), which myst-nb uses when it renders the cell's image output.
Sliders: the describing function is inserted in the cell's source just before the
``pc.widgets.SliderFigure(`` call, and ``alt=<function>`` is added to the call's arguments.

Slider cells that call a package function building the slider (``package_sliders`` in the data
file) are only checked: the function describes each frame itself.

Idempotent (running it twice changes nothing). Fails loudly when a cell id of the data file is in
no chapter, when a chapter has a figure or slider cell the data file does not describe, or when a
slider cell has no SliderFigure call. After applying, re-execute the changed chapters so the
sliders' stored HTML carries the new alt texts.

    python -m coursebook.figures            # apply
    python -m coursebook.figures --check    # exit 1 if applying would change a notebook
"""

from __future__ import annotations

import argparse
import ast
import sys

import nbformat
import yaml

from . import CHAPTERS, ROOT
from .content import is_slider

DATA = ROOT / "book" / "figure_descriptions.yml"
CALL = "pc.widgets.SliderFigure("
WIDTH = 79  # the code column (tests/book/test_code_width.py)


def has_figure(cell) -> bool:
    return any("image/png" in out.get("data", {}) or "image/svg+xml" in out.get("data", {})
               for out in cell.get("outputs", []))


def matching_paren(src: str, open_at: int) -> int:
    """Index of the ``)`` closing the ``(`` at ``open_at`` (strings in the call hold no parentheses)."""
    depth = 0
    for i in range(open_at, len(src)):
        depth += {"(": 1, ")": -1}.get(src[i], 0)
        if depth == 0:
            return i
    raise ValueError(f"unbalanced parentheses after {src[open_at - 25:open_at + 1]!r}")


def add_slider_alt(src: str, alt: str, define: str, cell_id: str) -> str:
    start = src.find(CALL)
    if start < 0:
        raise ValueError(f"slider cell {cell_id}: no {CALL!r} call in its source")
    define = define.rstrip("\n") + "\n"
    if define not in src:
        if f"def {alt}(" in src:                      # there already, perhaps re-wrapped by black
            if same_function(src, define, alt):
                return add_alt_argument(src, alt, cell_id)
            raise ValueError(f"slider cell {cell_id}: its {alt} differs from the one in {DATA.name}")
        src = src[:start].rstrip("\n") + "\n\n\n" + define + "\n\n" + src[start:]
    return add_alt_argument(src, alt, cell_id)


def same_function(src: str, define: str, name: str) -> bool:
    """Whether ``src`` defines function ``name`` as ``define`` does, up to formatting."""
    def find(code: str):
        return next((ast.dump(node) for node in ast.walk(ast.parse(code))
                     if isinstance(node, ast.FunctionDef) and node.name == name), None)
    return find(src) == find(define)


def add_alt_argument(src: str, alt: str, cell_id: str) -> str:
    start = src.find(CALL)
    end = matching_paren(src, start + len(CALL) - 1)
    args = src[start + len(CALL):end]
    if "alt=" in args:
        if f"alt={alt}" not in args:
            raise ValueError(f"slider cell {cell_id}: its call already has another alt= argument")
        return src
    body = args.rstrip()
    if "\n" in body:                                  # one argument per line, as black writes it
        head, _, last = body.rstrip(",").rpartition("\n")
        if len(last) + 1 > WIDTH and ", " in last:  # a comma would overflow: new line
            cut = last.rindex(", ")
            last = last[:cut + 1] + "\n" + " " * (len(last) - len(last.lstrip())) + last[cut + 2:]
        body = head + "\n" + last + f",\n    alt={alt},\n"
    else:
        body = body.rstrip(",") + f", alt={alt}"
        line_start = src.rfind("\n", 0, start) + 1
        if len(src[line_start:start + len(CALL)] + body) + 1 > WIDTH:
            indent = " " * (start - line_start + len(CALL))
            body = body[: -len(f" alt={alt}")] + "\n" + indent + f"alt={alt}"
    out = src[:start + len(CALL)] + body + src[end:]
    try:
        ast.parse(out)
    except SyntaxError as exc:
        raise ValueError(f"slider cell {cell_id}: adding alt={alt} gave invalid Python ({exc})") from exc
    return out


def apply(check: bool = False) -> list[str]:
    data = yaml.safe_load(DATA.read_text(encoding="utf-8"))
    static = {str(k): v for k, v in (data.get("static") or {}).items()}
    sliders = {str(k): v for k, v in (data.get("sliders") or {}).items()}
    # slider cells that call a package function (which passes its own alt=): id -> the call
    package = {str(k): str(v) for k, v in (data.get("package_sliders") or {}).items()}
    both = (set(static) & set(sliders)) | (set(package) & (set(static) | set(sliders)))
    if both:
        raise ValueError(f"cell ids described twice: {sorted(both)}")
    unused, undescribed, changed = set(static) | set(sliders) | set(package), [], {}
    for path in CHAPTERS:
        nb = nbformat.read(path, as_version=4)
        before = nbformat.writes(nb)
        for cell in nb.cells:
            if cell.cell_type != "code":
                continue
            cid = cell.get("id")
            if cid in static:
                if not has_figure(cell):
                    raise ValueError(f"{path.name} cell {cid}: described as a figure but shows none")
                entry = static[cid]
                if not str(entry.get("alt", "")).strip():
                    raise ValueError(f"{path.name} cell {cid}: empty alt text")
                mystnb = cell.metadata.setdefault("mystnb", {})
                mystnb.setdefault("image", {})["alt"] = entry["alt"].strip()
                if entry.get("caption"):
                    mystnb.setdefault("figure", {})["caption"] = entry["caption"].strip()
                unused.discard(cid)
            elif cid in sliders:
                cell.source = add_slider_alt(cell.source, sliders[cid]["alt"], sliders[cid]["define"], cid)
                unused.discard(cid)
            elif cid in package:
                if f"{package[cid]}(" not in cell.source or not is_slider(cell):
                    raise ValueError(f"{path.name} cell {cid}: shows no slider made by {package[cid]}")
                unused.discard(cid)
            elif has_figure(cell) or is_slider(cell):  # is_slider covers a SliderFigure( call too
                undescribed.append(f"{path.name} cell {cid}")
        if nbformat.writes(nb) != before:
            changed[path] = nb
    if unused:
        raise ValueError(f"cell ids in {DATA.name} found in no chapter: {sorted(unused)}")
    if undescribed:
        raise ValueError(f"figure or slider cells with no description in {DATA.name}: {undescribed}")
    if not check:                                     # written only when every cell id checked out
        for path, nb in changed.items():
            nbformat.write(nb, path)
    return [path.name for path in changed]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only report notebooks that would change")
    args = parser.parse_args()
    changed = apply(check=args.check)
    print(("would change: " if args.check else "changed: ") + (", ".join(changed) or "nothing"))
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
