"""The Jupyter-native chapters in _build/jupyter (book/_ext/coursebook/notebooks.py, written by `make book`).

They are what Colab, a JupyterHub and the download button open, where MyST is not rendered: no
MyST-only markup may be left, every link into the book must land on a page (and anchor) of the built
_build/html, every theorem/exercise number must be the book's, solutions are folded, citations are
text with a reference list, and the outputs are the committed ones (but a solution's: Colab would
show them under the folded code).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from coursebook.setup_cell import is_setup_cell

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
JUPYTER = ROOT / "_build" / "jupyter"
MYST_ONLY = {
    "role": re.compile(r"\{[\w:-]+\}`"),
    "directive fence": re.compile(r"^\s*(`{3,}|:{3,})\{", re.MULTILINE),
    "colon fence": re.compile(r"^\s*:{3,}", re.MULTILINE),
    "label line": re.compile(r"^\s*\([\w:.-]+\)=\s*$", re.MULTILINE),
    "directive option": re.compile(r"^\s*:(label|class|nonumber|pyobject|language):", re.MULTILINE),
}
NUMBERED = re.compile(r'<a id="(?P<label>[^"]+)"></a>\s*\*\*(?P<kind>[A-Z][a-z]+) (?P<number>\d+(?:\.\d+)*)')
RUN_TO_MOVE = "Run the cell to move the slider"
CHECK_TITLE = "#@title Check of the claim above (holds for the book's settings)"
LINK = re.compile(r"\]\((?P<url>https?://[^)\s]+)\)")


def chapters() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [c["file"] for part in toc["parts"] for c in part["chapters"] if c["file"].startswith("notebooks/")]


def book_base() -> str:
    url = yaml.safe_load((ROOT / "_config.yml").read_text())["repository"]["url"].rstrip("/")
    owner, repo = url.split("/")[-2:]
    return f"https://{owner}.github.io/{repo}/"


def markdown(nb: dict) -> list[str]:
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "markdown"]


@pytest.fixture(scope="module")
def soups():
    from bs4 import BeautifulSoup

    assert (HTML / "index.html").exists(), "run `make book` first"
    cache: dict[str, BeautifulSoup] = {}

    def get(page: str):
        if page not in cache:
            cache[page] = BeautifulSoup((HTML / page).read_text(encoding="utf-8"), "html.parser")
        return cache[page]

    return get


def load(doc: str) -> dict:
    path = JUPYTER / f"{doc}.ipynb"
    assert path.exists(), f"{path} missing: `make book` writes the Jupyter-native chapters"
    return json.loads(path.read_text(encoding="utf-8"))


def myst_left(text: str) -> list[str]:
    return [f"{kind}: {m.group(0)!r}" for kind, rx in MYST_ONLY.items() for m in rx.finditer(text)]


@pytest.mark.parametrize("doc", chapters())
def test_no_myst_only_markup_is_left(doc):
    problems = [p for text in markdown(load(doc)) for p in myst_left(text)]
    assert not problems, f"{doc}: {problems[:5]}"


def test_homework_masters_hold_plain_jupyter_markdown():
    """The homework student notebooks are copied as they are, so their masters must be MyST-free."""
    for path in sorted((ROOT / "notebooks" / "homework").glob("hw*.ipynb")):
        problems = [p for text in markdown(json.loads(path.read_text())) for p in myst_left(text)]
        assert not problems, f"{path.name}: {problems[:5]}"


def test_the_checks_catch_myst():
    assert myst_left("see {prf:ref}`lem-x`") and myst_left("```{prf:theorem}\n:label: t\nA\n```")
    assert myst_left(":::{note}\nx\n:::") and myst_left("(sec-a)=\n# A")
    assert not myst_left("$\\{x\\}$ and `code` and ```python\nx = {1}\n```")


@pytest.mark.parametrize("doc", chapters())
def test_every_book_link_resolves_to_a_built_page_and_anchor(doc, soups):
    base = book_base()
    links = [m["url"] for text in markdown(load(doc)) for m in LINK.finditer(text)]
    inside = [u for u in links if u.startswith(base)]
    assert inside, f"{doc}: no link into the book (its cross-references should become links)"
    for url in inside:
        page, _, anchor = url[len(base):].partition("#")
        assert (HTML / page).is_file(), f"{doc}: {url} is not a page of _build/html"
        if anchor:
            assert soups(page).find(id=anchor), f"{doc}: {url}: no id={anchor!r} on {page}"


@pytest.mark.parametrize("doc", chapters())
def test_theorem_and_exercise_numbers_are_the_books(doc, soups):
    nb = load(doc)
    page = soups(f"{doc}.html")
    numbered = [m for text in markdown(nb) for m in NUMBERED.finditer(text)]
    in_book = page.select("div.proof[id], div.exercise[id]")
    assert numbered, f"{doc}: no numbered theorem or exercise block"
    labels = {m["label"] for m in numbered}
    book_labels = {d["id"] for d in in_book if re.match(r"[A-Z][a-z]+ \d", d.get_text(" ", strip=True))}
    assert labels == book_labels, f"{doc}: numbered blocks differ: only notebook {labels - book_labels}, " \
                                  f"only book {book_labels - labels}"
    for m in numbered:
        title = page.find(id=m["label"]).get_text(" ", strip=True)
        assert title.startswith(f"{m['kind']} {m['number']}"), f"{doc}: {m['label']} is {title[:40]!r} in the book"


@pytest.mark.parametrize("doc", chapters())
def test_references_to_numbered_blocks_use_the_books_numbers(doc, soups):
    base = book_base()
    for text in markdown(load(doc)):
        for m in re.finditer(r"\[(?P<kind>[A-Z][a-z]+) (?P<number>\d+(?:\.\d+)*)\]\((?P<url>[^)]+)\)", text):
            page, _, anchor = m["url"][len(base):].partition("#")
            if not anchor:  # e.g. {doc}`Chapter 6 <06_nonseparable>`: a page, not a block
                continue
            title = soups(page).find(id=anchor).get_text(" ", strip=True)
            assert title.startswith(f"{m['kind']} {m['number']}"), f"{doc}: link {m.group(0)} but book says {title[:30]!r}"


@pytest.mark.parametrize("doc", chapters())
def test_solutions_are_folded_and_citations_are_text(doc, soups):
    nb = load(doc)
    text = "\n".join(markdown(nb))
    solutions = len(soups(f"{doc}.html").select("div.solution"))
    assert text.count("<details>") == text.count("</details>") >= solutions, f"{doc}: {solutions} solutions in the book"
    assert text.count("<summary>Solution to Exercise ") == solutions
    source = json.loads((ROOT / f"{doc}.ipynb").read_text())
    if "{cite" in "\n".join(markdown(source)):
        assert markdown(nb)[-1].startswith("## References\n"), f"{doc}: cited but no reference list at the end"
        for key in re.findall(r"\(#cite-([\w-]+)\)", text):
            assert f'<a id="cite-{key}"></a>' in markdown(nb)[-1], f"{doc}: {key} not in the reference list"


def untitled(cell: dict) -> str:
    """A code cell's source without the ``#@title`` line a solution's form cell starts with."""
    text = "".join(cell["source"])
    return text.split("\n", 1)[1] if cell["metadata"].get("cellView") == "form" else text


def is_slider(output: dict) -> bool:
    return 'class="perceptron-slider"' in "".join(output.get("data", {}).get("text/html", ""))


def own_cells(nb: dict) -> list[dict]:
    """The cells of the source chapter, without the figure descriptions and the reference list the export adds."""
    return [c for c in nb["cells"] if "describes" not in c["metadata"].get("perceptron_book", {})
            and c.get("id") != "book-references"]


def in_solutions(source: dict) -> set[str]:
    """The ids of the source chapter's code cells between a {solution-start} and its {solution-end}."""
    inside, found = False, set()
    for cell in source["cells"]:
        if cell["cell_type"] == "markdown":
            for mark in re.findall(r"\{solution-(start|end)\}", "".join(cell["source"])):
                inside = mark == "start"
        elif inside:
            found.add(cell["id"])
    return found


@pytest.mark.parametrize("doc", chapters())
def test_code_and_outputs_are_the_committed_ones(doc):
    """Every code cell and output as committed, except a form cell's title, the outputs of a
    solution's cells (none: test_solution_cells_carry_no_outputs) and the sliders' saved outputs
    (test_a_sliders_saved_output_says_to_run_the_cell)."""
    nb, source = load(doc), json.loads((ROOT / f"{doc}.ipynb").read_text())
    solved = in_solutions(source)
    code = [(untitled(c), [o for o in c["outputs"] if RUN_TO_MOVE not in json.dumps(o)])
            for c in nb["cells"] if c["cell_type"] == "code"]
    assert code == [("".join(c["source"]), [] if c["id"] in solved else [o for o in c["outputs"] if not is_slider(o)])
                    for c in source["cells"] if c["cell_type"] == "code"]
    assert nb["metadata"].get("widgets") == source["metadata"].get("widgets")
    # The setup cell comes first, folded where the notebook is opened: a Colab form cell (Colab shows its
    # title line, not the code), collapsed in JupyterLab (jupyter.source_hidden); its output stays shown.
    first = next(c for c in nb["cells"] if c["cell_type"] == "code")
    title, _, code = "".join(first["source"]).partition("\n")
    assert title.startswith("# @title Setup") and first["metadata"].get("cellView") == "form", doc
    assert code.startswith("# Setup: the book's `perceptron` package")
    assert first["metadata"]["jupyter"].get("source_hidden") is True and "outputs_hidden" not in first["metadata"]["jupyter"]


@pytest.mark.parametrize("doc", chapters())
def test_launch_and_download_buttons_open_the_jupyter_native_notebook(doc):
    html = (HTML / f"{doc}.html").read_text(encoding="utf-8")
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    branch = config["sphinx"]["config"]["jupyter_notebooks_branch"]
    main = config["repository"]["branch"]
    assert re.search(rf'colab[^"]*/blob/{branch}/(\./)?{doc}\.ipynb"', html), f"{doc}: Colab button"
    assert re.search(rf'git-pull\?[^"]*branch={branch}"', html.replace("&amp;", "&")), f"{doc}: JupyterHub button"
    assert re.search(rf'mybinder\.org/v2/gh/[^"]*/{main}\?', html), f"{doc}: Binder stays on the MyST sources"
    download = HTML / "_sources" / f"{doc}.ipynb"
    assert download.read_bytes() == (JUPYTER / f"{doc}.ipynb").read_bytes(), f"{doc}: download button"


def test_homework_student_notebooks_start_with_the_setup_cell():
    """coursebook.homework_notebooks moves the setup cell above otter's `import otter` init cell."""
    import nbformat

    from coursebook.homework_notebooks import setup_cell_first
    from coursebook.setup_cell import cell_source

    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell('# Initialize Otter\nimport otter\ngrader = otter.Notebook("hw.ipynb")'),
        nbformat.v4.new_markdown_cell("# Homework"),
        nbformat.v4.new_code_cell(cell_source(homework=True)),
        nbformat.v4.new_code_cell("import numpy as np"),
    ])
    out = setup_cell_first(nb, "hw")
    assert out.cells[0].source == cell_source(homework=True)
    assert out.cells[1].source.startswith("# Initialize Otter")
    with pytest.raises(ValueError, match="expected one setup cell"):
        setup_cell_first(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x = 1")]), "hw")


@pytest.mark.parametrize("doc", chapters())
def test_cells_of_a_gated_solution_are_folded(doc):
    """Code between {solution-start} and {solution-end} (an executed solution) is collapsed in the
    generated notebook, so a student sees the exercise, not its answer, until they expand it; in
    Colab it is a form cell, without the outputs Colab would show under its title. Check cells are
    form cells too (folded in Colab, open in JupyterLab); so is the setup cell (folded in both); no
    other code cell is folded."""
    nb, source = load(doc), json.loads((ROOT / f"{doc}.ipynb").read_text())
    inside, folded, exercise = False, 0, None
    made_cells = own_cells(nb)
    assert len(made_cells) == len(source["cells"])
    for made, cell in zip(made_cells, source["cells"]):
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            for mark in re.findall(r"\{solution-(start|end)\}", text):
                inside = mark == "start"
            opened = re.findall(r"<summary>Solution to (Exercise \d+\.\d+)", "".join(made["source"]))
            exercise = opened[-1] if opened else exercise
        elif inside:
            assert made["metadata"].get("jupyter", {}).get("source_hidden") is True, f"{doc}: {cell['id']}"
            # Colab ignores source_hidden: it folds a form cell, showing its #@title line instead of the code.
            assert made["metadata"].get("cellView") == "form", f"{doc}: {cell['id']} is no form cell"
            first = "".join(made["source"]).split("\n", 1)[0]
            assert first == f"#@title Solution to {exercise}", f"{doc}: {cell['id']} starts {first!r}"
            folded += 1
            # Colab shows a form cell's output under its title: the solution's results wait for a run.
            assert made["outputs"] == [] and made["execution_count"] is None, f"{doc}: {cell['id']} shows its output"
        elif "check" in cell["metadata"].get("tags", []):   # folded in the book: a form in Colab
            assert made["metadata"].get("cellView") == "form", f"{doc}: {cell['id']} is no form cell"
            assert "".join(made["source"]).split("\n", 1)[0] == CHECK_TITLE, f"{doc}: {cell['id']}"
        elif is_setup_cell(cell):   # removed from the book, folded where the notebook opens
            assert made["metadata"].get("cellView") == "form" and made["metadata"]["jupyter"]["source_hidden"], doc
        else:
            assert "cellView" not in made["metadata"], f"{doc}: {cell['id']} is folded in Colab"
            assert not made["metadata"].get("jupyter", {}).get("source_hidden"), f"{doc}: {cell['id']}"
    assert not inside, f"{doc}: a solution is never closed"
    if "{solution-start}" in json.dumps(source):
        assert folded, f"{doc}: gated solutions but no folded code cell"


@pytest.mark.parametrize("doc", chapters())
def test_every_figure_description_is_visible_under_its_figure(doc):
    """Jupyter and Colab show an image output without alt text: the description the HTML book gives
    as alt text (mystnb.image.alt) follows its figure as a Markdown cell."""
    nb, source = load(doc), json.loads((ROOT / f"{doc}.ipynb").read_text())
    by_id = {c.get("id"): i for i, c in enumerate(nb["cells"])}
    described, solved = 0, in_solutions(source)
    for cell in source["cells"]:
        alt = cell["metadata"].get("mystnb", {}).get("image", {}).get("alt")
        if not alt or not any("image/png" in o.get("data", {}) for o in cell.get("outputs", [])):
            continue
        if cell["id"] in solved:  # no stored figure (Colab would show it under the exercise): nothing to describe
            assert nb["cells"][by_id[cell["id"]] + 1]["cell_type"] != "markdown" or alt not in "".join(
                nb["cells"][by_id[cell["id"]] + 1]["source"]), f"{doc}: {cell['id']}"
            continue
        after = nb["cells"][by_id[cell["id"]] + 1]
        assert after["cell_type"] == "markdown" and alt in "".join(after["source"]), f"{doc}: {cell['id']}"
        described += 1
    extra = sum("describes" in c["metadata"].get("perceptron_book", {}) for c in nb["cells"])
    assert described == extra, f"{doc}: {extra} description cells for {described} described figures"


@pytest.mark.parametrize("doc", chapters())
def test_a_sliders_saved_output_says_to_run_the_cell(doc):
    """Before the kernel runs it, a slider's saved output is its first picture, described, under
    "Run the cell to move the slider": not the widget view (no state to restore) nor the static
    range control, which does nothing where the notebook is untrusted."""
    nb, source = load(doc), json.loads((ROOT / f"{doc}.ipynb").read_text())
    sliders = [o for c in source["cells"] if c["cell_type"] == "code" for o in c["outputs"] if is_slider(o)]
    saved = [o for c in nb["cells"] if c["cell_type"] == "code" for o in c["outputs"] if RUN_TO_MOVE in json.dumps(o)]
    assert len(saved) == len(sliders), f"{doc}: {len(sliders)} sliders, {len(saved)} saved outputs say to run"
    for output in saved:
        assert set(output["data"]) == {"text/html", "text/plain"}, output["data"].keys()
        page = output["data"]["text/html"]
        assert RUN_TO_MOVE in page and 'type="range"' not in page and "<script" not in page
        assert re.search(r'<img src="data:image/png;base64,[^"]+" alt="[^"]{20,}">', page), page[:300]
    text = json.dumps(nb["cells"])
    assert "perceptron-slider\\\"" not in text and "application/vnd.jupyter.widget-view+json" not in text
