"""Live JupyterLab (from .venv, with jupyterlab-myst) in Debian's Chromium, driven by Playwright.

JupyterLab serves copies of two slider chapters (so nothing writes to the repository) on 127.0.0.1
at a free port. Each chapter is opened and run with Run > Run All Cells: no cell may show an error,
the rendered Markdown must show no raw MyST (``{prf:``, ``{cite}``, ``{doc}``, ``{ref}``, ``:label:``)
and theorem blocks must be rendered as blocks; then every live ipywidgets slider is moved with the
keyboard and its figure must change, and on a screen of 2 device pixels per CSS pixel its image must
be sharp at its shown size. The median keypress-to-new-image latency is printed (not asserted: it
depends on the machine's load; its target, under 100 ms, is measured over every slider chapter by
benchmarks/lab_sliders.py). Every chapter with a gated solution is run too (its code
cells reduced to prints): its solutions must stay folded, code and outputs, through Run All. The server
is started, the chapters opened and run by tests/support/lab.py, with the project's JupyterLab
extension (labextensions/perceptron-folds) as `make lab` and Binder add it.
"""

from __future__ import annotations

import json
import os
import re
import statistics
import subprocess
import time
import venv
from pathlib import Path

import pytest

from coursebook.setup_cell import is_setup_cell
from tests.support.browser import CHROMIUM
from tests.support.lab import (
    LABEXTENSIONS,
    SLIDER_BOXES,
    copy_chapters,
    keypress_latencies,
    open_and_run_all,
    open_chapter,
    run_all,
    serve_lab,
    share_one_kernel,
    sharpness,
)

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ["01_geometry", "03_sgd"]
RAW_MYST = ["{prf:", "{cite}", "{cite:", "{doc}", "{ref}", ":label:", "```{"]
PRESSES = 5

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="unreachable: make test installs chromium first")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    copy_chapters(root, CHAPTERS)
    with serve_lab(root) as served:
        yield served


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_runs_renders_and_slides_in_jupyterlab(lab, browser, chapter):
    url, token = lab
    # A screen of 2 device pixels per CSS pixel: every live slider's image must be sharp at its shown size
    # (this was tests/environments/test_lab_sliders.py, which ran chapter 1 a second time for it).
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, device_scale_factor=2)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        open_and_run_all(page, url, token, chapter, timeout_ms=300_000)
        failed = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']")
        assert failed.count() == 0, f"{chapter}: error output: {failed.first.inner_text()[:1500]}"
        rendered = page.locator(".jp-MarkdownCell .myst, .jp-MarkdownCell .jp-RenderedMarkdown")
        texts = rendered.all_inner_texts()
        assert texts, f"{chapter}: no rendered Markdown"
        raw = sorted({marker for text in texts for marker in RAW_MYST if marker in text})
        assert not raw, f"{chapter}: raw MyST in rendered Markdown: {raw}"
        blocks = page.locator(".jp-MarkdownCell aside, .jp-MarkdownCell .admonition, .jp-MarkdownCell [class*='proof']")
        assert blocks.count() > 0, f"{chapter}: no theorem/exercise block rendered by jupyterlab-myst"
        # Every live slider (an ipywidgets slider and its Image in one box) changes its figure when moved
        # with the keyboard, and its image has at least 2 image pixels per CSS pixel it is shown at (the
        # 80-dpi frame stretched to the output's width had about 0.5), no wider than its output.
        boxes = page.locator(SLIDER_BOXES)
        boxes.first.wait_for(timeout=60_000)
        for k in range(boxes.count()):
            box = boxes.nth(k)
            box.scroll_into_view_if_needed()
            before = box.locator("img").get_attribute("src")
            latencies = keypress_latencies(page, box, PRESSES if k == 0 else 3)
            assert box.locator("img").get_attribute("src") != before, f"{chapter}: slider {k}: the figure did not change"
            shown = sharpness(box)
            median = statistics.median(latencies)
            print(f"\njupyterlab {chapter} slider {k}: keypress-to-new-image latency median {median:.0f} ms "
                  f"over {len(latencies)} presses ({', '.join(f'{t:.0f}' for t in latencies)} ms); "
                  f"{shown['natural']} image pixels shown at {shown['css']:.0f} CSS px")
            assert shown["dpr"] == 2
            assert shown["natural"] >= shown["dpr"] * shown["css"] - 1, f"{chapter}: slider {k}: blurry, {shown}"
            assert 200 <= shown["css"] <= shown["output"] + 1, f"{chapter}: slider {k}: shown at an odd size, {shown}"
            if k == 0:
                out = ROOT / "_build" / "lab_latency.json"
                data = json.loads(out.read_text()) if out.exists() else {}
                data[chapter] = {"median_ms": round(median, 1), "all_ms": [round(t, 1) for t in latencies]}
                out.write_text(json.dumps(data, indent=1))
        assert not errors, f"{chapter}: page errors {errors[:3]}"
    except Exception:
        shots = ROOT / "_build" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"lab-{chapter}.png"))
        raise
    finally:
        context.close()


# -- gated solutions --------------------------------------------------------------------------------------
# jupyterlab-myst renders each cell alone: a gated solution ({solution-start} ... {solution-end} around
# executed code cells) is folded only through the chapters' own metadata (coursebook.solutions folds it),
# and JupyterLab unfolds every cell it runs (a code cell's new output, a Markdown cell's text) whatever
# that metadata says: the project's extension labextensions/perceptron-folds, which `make lab`, Binder's
# postBuild and serve_lab add, folds them again. Every chapter with a gated solution is opened with each
# code cell reduced to one line printing "cell output <i>" (what is checked is what the page shows of the
# solution cells, folded, input and output, and of the gates, never as source; running the chapters' real
# code is test_chapter_runs_renders_and_slides_in_jupyterlab's), then run with Run All.
GATED = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb") if "{solution-start}" in p.read_text())
GATE_SOURCE = ["{solution-start}", "{solution-end}", "```{", ":class: dropdown"]


@pytest.fixture(scope="module")
def solution_lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab-solutions")
    (root / "notebooks").mkdir()
    for name in GATED:
        nb = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())
        for i, cell in enumerate(nb["cells"]):
            if cell["cell_type"] == "code":
                cell["source"], cell["execution_count"] = f'print("cell", "output", {i})', None
                cell["outputs"] = [{"output_type": "stream", "name": "stdout", "text": f"saved output {i}\n"}]
        nb["metadata"].pop("widgets", None)
        (root / "notebooks" / f"{name}.ipynb").write_text(json.dumps(nb))
    with serve_lab(root) as (url, token):
        # The cells only print: one kernel serves every chapter (starting the chapters' own kernels is
        # test_chapter_runs_renders_and_slides_in_jupyterlab's), and one page, where JupyterLab loads once.
        share_one_kernel(url, token, [f"notebooks/{name}.ipynb" for name in GATED])
        yield url, token, root


@pytest.fixture(scope="module")
def solution_page(browser):
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    yield page
    page.close()


def saved_after_run(page, path: Path, code: list[int], chapter: str) -> dict:
    """Save the open notebook until the saved file holds every code cell's new output (a folded cell's
    prompt and output are not on the page to tell it has run); return the saved notebook."""
    deadline = time.monotonic() + 120
    while True:
        saved = path.stat().st_mtime_ns
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^File$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Save( Notebook)?$")).click()
        wait = time.monotonic() + 5  # until the file is written (then read it), at most 5 s before saving again
        while path.stat().st_mtime_ns == saved and time.monotonic() < wait:
            time.sleep(0.05)
        try:
            nb = json.loads(path.read_text())
        except json.JSONDecodeError:  # read half-written: save again
            nb = {"cells": []}
        texts = ["".join(o.get("text", "")) for c in nb["cells"] for o in c.get("outputs", [])]
        if nb["cells"] and all(f"cell output {i}\n" in texts for i in code):
            return nb
        assert time.monotonic() < deadline, f"{chapter}: not every code cell has run 120 s after Run All"


# Per cell: its input area shown or not, the text shown (innerText leaves out what is folded), and
# whether each of its dropdowns is open.
CELL_STATE_JS = """
() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map(cell => {
  const input = cell.querySelector('.jp-Cell-inputWrapper .jp-InputArea');
  const shown = el => !!el && el.offsetParent !== null && getComputedStyle(el).display !== 'none';
  return {
    kind: cell.classList.contains('jp-CodeCell') ? 'code' : 'markdown',
    inputShown: shown(input),
    text: cell.innerText,
    dropdowns: [...cell.querySelectorAll('details')].map(d => d.open),
  };
})
"""


@pytest.mark.parametrize("chapter", GATED)
def test_gated_solutions_stay_folded_and_no_gate_shows_as_source(solution_lab, solution_page, chapter):
    url, token, root = solution_lab
    nb = json.loads((ROOT / "notebooks" / f"{chapter}.ipynb").read_text())
    # What the chapter's metadata folds: a cell's source (jupyter.source_hidden), a code cell's outputs
    # (jupyter.outputs_hidden). Every folded cell must stay folded through Run All, every other show.
    folded = [i for i, c in enumerate(nb["cells"]) if c["metadata"].get("jupyter", {}).get("source_hidden")]
    hidden = [i for i, c in enumerate(nb["cells"]) if c["metadata"].get("jupyter", {}).get("outputs_hidden")]
    setup = [i for i, c in enumerate(nb["cells"]) if is_setup_cell(c)]
    assert len(setup) == 1 and setup[0] in folded, f"{chapter}: the setup cell is not folded (python -m coursebook.setup_cell)"
    solution = [i for i in folded if "check" not in nb["cells"][i]["metadata"].get("tags", []) and i not in setup]
    assert solution, f"{chapter}: no cell of a gated solution is folded (run python -m coursebook.solutions)"
    assert any(nb["cells"][i]["cell_type"] == "code" for i in solution) and hidden
    code = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code"]
    page = solution_page
    try:
        open_chapter(page, url, token, chapter, cells=len(nb["cells"]))
        before = page.evaluate(CELL_STATE_JS)
        assert len(before) == len(nb["cells"]), f"{chapter}: {len(before)} cells on the page, {len(nb['cells'])} in the file"
        run_all(page, url, token, chapter, timeout_ms=300_000)
        # Every code cell has run, folded or not, and what JupyterLab saves keeps the chapter's folds.
        saved = saved_after_run(page, root / "notebooks" / f"{chapter}.ipynb", code, chapter)
        kept = {i: c["metadata"].get("jupyter", {}) for i, c in enumerate(saved["cells"])}
        lost = [i for i in folded if not kept[i].get("source_hidden")] + [
            i for i in hidden if not kept[i].get("outputs_hidden")]
        assert not lost, f"{chapter}: the saved notebook lost the folds of cells {lost}"
        after = page.evaluate(CELL_STATE_JS)
        unfolded = [f"cell {i} ({nb['cells'][i]['id']}) {what} {when}"
                    for when, cells, output in (("on opening", before, "saved output"), ("after Run All", after, "cell output"))
                    for i in sorted(set(folded) | set(hidden))
                    for what, shown in (("open", i in folded and cells[i]["inputShown"]),
                                        ("shows its output", i in hidden and f"{output} {i}" in cells[i]["text"]))
                    if shown]
        assert not unfolded, f"{chapter}: folded in the chapter's metadata, unfolded on the page: {unfolded}"
        missing = [i for i in code if i not in hidden and f"cell output {i}" not in after[i]["text"]]
        assert not missing, f"{chapter}: outputs not shown after Run All: cells {missing}"
        # {solution} blocks are jupyterlab-myst's dropdowns: closed on opening, closed after Run All.
        opened = [(i, when) for when, cells in (("on opening", before), ("after Run All", after))
                  for i, cell in enumerate(cells) if any(cell["dropdowns"])]
        assert not opened, f"{chapter}: dropdowns open {opened[:5]}"
        for when, cells in (("on opening", before), ("after Run All", after)):
            source = [(i, m) for i, cell in enumerate(cells) for m in GATE_SOURCE if m in cell["text"]]
            assert not source, f"{chapter}: MyST source on the page {when}: {source[:5]}"
        # jupyterlab-myst renders a Markdown cell's blocks asynchronously after Run All re-renders the
        # page: wait (up to 30 s) for a solution's header rather than reading the page once.
        deadline = time.monotonic() + 30
        headers = [c["text"] for c in after if "Solution to" in c["text"]]
        while not headers and time.monotonic() < deadline:
            page.wait_for_timeout(500)
            headers = [c["text"] for c in page.evaluate(CELL_STATE_JS) if "Solution to" in c["text"]]
        assert headers, f"{chapter}: no solution header rendered (30 s after Run All)"
        # Folded, not gone: a click on the first folded code cell shows its code, then its output.
        first = next(i for i in solution if i in hidden)
        cell = page.locator(".jp-Notebook .jp-Cell").nth(first)
        cell.locator(".jp-InputPlaceholder").click()
        cell.locator(".jp-OutputPlaceholder").click()
        assert f"cell output {first}" in cell.inner_text(), f"{chapter}: cell {first}'s output does not open"
        print(f"\njupyterlab {chapter}: {len(folded)} cells folded ({len(hidden)} of them code with their outputs) "
              f"on opening and after Run All, {len(headers)} solution headers, no gate shown as source")
    except Exception:
        shots = ROOT / "_build" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"lab-solutions-{chapter}.png"), full_page=False)
        raise


def test_make_lab_binder_and_these_tests_add_the_folding_extension(tmp_path):
    """The extension the folded-solution test runs with is the one `make lab` and Binder's postBuild add."""
    from jupyterlab_server.config import get_federated_extensions

    (ext,) = get_federated_extensions([str(LABEXTENSIONS)]).values()
    assert ext["name"] == "perceptron-folds"
    assert (Path(ext["ext_path"]) / ext["jupyterlab"]["_build"]["load"]).is_file()
    dry_run = subprocess.run(["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    assert f"--LabApp.extra_labextensions_path={LABEXTENSIONS}" in dry_run
    # postBuild in an environment of its own (pip a no-op): the extension lands where its JupyterLab looks.
    venv.create(tmp_path / "env", with_pip=False)
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "pip").write_text("#!/bin/sh\nexit 0\n")
    (tmp_path / "bin" / "pip").chmod(0o755)
    path = f"{tmp_path / 'bin'}:{tmp_path / 'env' / 'bin'}:{os.environ['PATH']}"
    subprocess.run(["bash", str(ROOT / "postBuild")], cwd=ROOT, env={**os.environ, "PATH": path}, check=True)
    installed = get_federated_extensions([str(tmp_path / "env" / "share" / "jupyter" / "labextensions")])
    assert installed.keys() == {"perceptron-folds"}
    copy = installed["perceptron-folds"]
    assert (Path(copy["ext_path"]) / copy["jupyterlab"]["_build"]["load"]).read_text() == \
        (Path(ext["ext_path"]) / ext["jupyterlab"]["_build"]["load"]).read_text()
