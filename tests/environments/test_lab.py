"""Live JupyterLab (from .venv, with jupyterlab-myst) in Debian's Chromium, driven by Playwright.

JupyterLab serves copies of two slider chapters (so nothing writes to the repository) on 127.0.0.1
at a free port. Each chapter is opened and run with Run > Run All Cells: no cell may show an error,
the rendered Markdown must show no raw MyST (``{prf:``, ``{cite}``, ``{doc}``, ``{ref}``, ``:label:``)
and theorem blocks must be rendered as blocks; then a live ipywidgets slider is moved with the
keyboard and its figure must change. The median keypress-to-new-image latency is printed (not
asserted: it depends on the machine's load).
"""

from __future__ import annotations

import json
import os
import re
import secrets
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.browser import CHROMIUM

ROOT = Path(__file__).resolve().parents[2]
CHAPTERS = ["01_geometry", "03_sgd"]
RAW_MYST = ["{prf:", "{cite}", "{cite:", "{doc}", "{ref}", ":label:", "```{"]
PRESSES = 5

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="unreachable: make test installs chromium first")


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    root = tmp_path_factory.mktemp("lab")
    (root / "notebooks").mkdir()
    for name in CHAPTERS:
        # Without the committed outputs and counts: every prompt then reads [ ] until this kernel runs
        # the cell, and every widget on the page is a live one of this kernel.
        nb = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text())
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
                # Solutions fold their code (jupyter.source_hidden), which hides the prompt this test reads
                # the execution count from; folding is test_gated_solutions_stay_folded's concern.
                cell["metadata"].pop("jupyter", None)
        nb["metadata"].pop("widgets", None)
        (root / "notebooks" / f"{name}.ipynb").write_text(json.dumps(nb))
    yield from serve(root)


def serve(root: Path):
    """JupyterLab on ``root`` at a free port of 127.0.0.1: yields (base URL, token)."""
    settings = root / ".settings"
    # Render every cell (no windowing, so off-screen outputs are in the DOM) and never autosave.
    overrides = {
        "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none", "autoStartDefaultKernel": True},
        "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
        "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
    }
    for plugin, values in overrides.items():
        path = settings / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    token = secrets.token_hex(16)
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(settings), "JUPYTERLAB_WORKSPACES_DIR": str(root / ".ws"),
           "JUPYTER_RUNTIME_DIR": str(root / ".runtime")}
    log = (root / "lab.log").open("w+")
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1", "--ServerApp.port=0",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root}", "--allow-root"]
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=root)
    try:
        deadline, port = time.monotonic() + 120, None
        while port is None and time.monotonic() < deadline and server.poll() is None:
            time.sleep(0.5)
            found = re.search(r"http://127\.0\.0\.1:(\d+)/", (root / "lab.log").read_text())
            port = found and int(found[1])
        assert port, f"JupyterLab did not start:\n{(root / 'lab.log').read_text()[-3000:]}"
        yield f"http://127.0.0.1:{port}", token
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()


WATCH_JS = """
box => {
  const img = box.querySelector('img'), before = img.src;
  window.__newImage = new Promise((resolve, reject) => {
    let start = null;
    document.addEventListener('keydown', () => { start = start ?? performance.now(); }, {capture: true, once: true});
    const timer = setTimeout(() => reject(new Error('no new image 20 s after the keypress')), 20000);
    const poll = () => {
      if (start !== null && img.src !== before && img.complete) {
        clearTimeout(timer); resolve(performance.now() - start);
      } else requestAnimationFrame(poll);
    };
    requestAnimationFrame(poll);
  });
}
"""


def keypress_latencies(page, box, presses: int) -> list[float]:
    """Milliseconds from a real arrow-key keydown on the focused slider to a new, loaded image
    (ArrowRight, or ArrowLeft when the slider starts at its last position)."""
    handle = box.locator(".noUi-handle").first
    handle.focus()
    times = []
    for _ in range(presses):
        at_end = handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax")
        box.evaluate(WATCH_JS)
        page.keyboard.press("ArrowLeft" if at_end else "ArrowRight")
        times.append(page.evaluate("window.__newImage"))
    return times


def wait_for_kernel(page, url: str, token: str, chapter: str) -> None:
    """Until the server has an idle kernel session for the chapter (accepting a kernel dialog if any)."""
    from urllib.request import urlopen

    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page.locator(".jp-Dialog .jp-mod-accept").count():
            page.locator(".jp-Dialog .jp-mod-accept").click()
        with urlopen(f"{url}/api/sessions?token={token}") as answer:
            sessions = json.load(answer)
        if any(s["path"].endswith(f"{chapter}.ipynb") and s["kernel"]["execution_state"] == "idle" for s in sessions):
            page.wait_for_timeout(1000)
            return
        page.wait_for_timeout(500)
    raise AssertionError(f"{chapter}: no kernel became idle in 120 s")


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_chapter_runs_renders_and_slides_in_jupyterlab(lab, browser, chapter):
    from playwright.sync_api import Error as PlaywrightError

    url, token = lab
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        # ?reset: a fresh workspace, so only this chapter is open (not the previous test's too).
        page.goto(f"{url}/lab/tree/notebooks/{chapter}.ipynb?reset&token={token}", wait_until="domcontentloaded")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
        # The kernel starts by itself (autoStartDefaultKernel); should JupyterLab still ask, accept.
        wait_for_kernel(page, url, token, chapter)
        # Run > Run All Cells; a click that lands before the notebook is wired to its kernel is
        # dropped silently, so it is repeated until some cell is queued or running.
        for _ in range(4):
            page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
            page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
            try:
                page.wait_for_function(r"""() => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
                    .some(p => !/^\[ \]:$/.test(p.textContent.trim()))""", timeout=20_000, polling=250)
                break
            except PlaywrightError:  # a timeout (TimeoutError is one) or a page not ready: click again
                continue
        else:
            raise AssertionError(f"{chapter}: Run All Cells started no cell")
        # Wait until every code cell has an execution count: no "[ ]" or "[*]" prompt left.
        page.wait_for_function(r"""() => {
            const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')];
            return prompts.length > 0 && prompts.every(p => /^\[\d+\]:$/.test(p.textContent.trim()));
        }""", timeout=300_000, polling=500)
        failed = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.error']")
        assert failed.count() == 0, f"{chapter}: error output: {failed.first.inner_text()[:1500]}"
        rendered = page.locator(".jp-MarkdownCell .myst, .jp-MarkdownCell .jp-RenderedMarkdown")
        texts = rendered.all_inner_texts()
        assert texts, f"{chapter}: no rendered Markdown"
        raw = sorted({marker for text in texts for marker in RAW_MYST if marker in text})
        assert not raw, f"{chapter}: raw MyST in rendered Markdown: {raw}"
        blocks = page.locator(".jp-MarkdownCell aside, .jp-MarkdownCell .admonition, .jp-MarkdownCell [class*='proof']")
        assert blocks.count() > 0, f"{chapter}: no theorem/exercise block rendered by jupyterlab-myst"
        # A live slider: an ipywidgets slider and its Image in one box.
        box = page.locator(".widget-vbox:has(.widget-slider):has(img)").first
        box.wait_for(timeout=60_000)
        box.scroll_into_view_if_needed()
        before = box.locator("img").get_attribute("src")
        latencies = keypress_latencies(page, box, PRESSES)
        assert box.locator("img").get_attribute("src") != before, f"{chapter}: the figure did not change"
        median = statistics.median(latencies)
        print(f"\njupyterlab {chapter}: keypress-to-new-image latency median {median:.0f} ms "
              f"over {len(latencies)} presses ({', '.join(f'{t:.0f}' for t in latencies)} ms)")
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
        page.close()


# -- gated solutions --------------------------------------------------------------------------------------
# jupyterlab-myst renders each cell alone: a gated solution ({solution-start} ... {solution-end} around
# executed code cells) is folded only through the chapters' own metadata (coursebook.solutions folds it).
# Every chapter with one is opened with each code cell reduced to one line printing "cell output <i>"
# (what is checked is what the page shows of the solution cells, folded, input and output, and of the
# gates, never as source; running the chapters' real code is test_chapter_runs_renders_and_slides_in_jupyterlab's),
# then run with Run All.
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
    yield from serve(root)


def run_all_cells(page, chapter: str) -> None:
    """Run > Run All Cells, repeated until a cell is queued (a click before the kernel is wired is
    dropped), then until every code cell has an execution count."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(4):
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
        try:
            page.wait_for_function(r"""() => [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
                .some(p => !/^\[ \]:$/.test(p.textContent.trim()))""", timeout=20_000, polling=250)
            break
        except PlaywrightError:
            continue
    else:
        raise AssertionError(f"{chapter}: Run All Cells started no cell")
    # A folded cell's prompt is empty: the prompts shown, then an idle kernel, tell the run is over.
    page.wait_for_function(r"""() => {
        const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
            .filter(p => p.offsetParent && p.textContent.trim());
        return prompts.length > 0 && prompts.every(p => /^\[\d+\]:$/.test(p.textContent.trim()));
    }""", timeout=300_000, polling=500)


CELL_STATE_JS = """
() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')].map(cell => {
  const input = cell.querySelector('.jp-Cell-inputWrapper .jp-InputArea');
  const shown = el => !!el && el.offsetParent !== null && getComputedStyle(el).display !== 'none';
  return {
    kind: cell.classList.contains('jp-CodeCell') ? 'code' : 'markdown',
    inputShown: shown(input),
    text: cell.innerText,
  };
})
"""


@pytest.mark.parametrize("chapter", GATED)
def test_gated_solutions_stay_folded_and_no_gate_shows_as_source(solution_lab, browser, chapter):
    url, token = solution_lab
    nb = json.loads((ROOT / "notebooks" / f"{chapter}.ipynb").read_text())
    folded = [i for i, c in enumerate(nb["cells"]) if c["metadata"].get("jupyter", {}).get("source_hidden")
              and "check" not in c["metadata"].get("tags", [])]
    assert any(nb["cells"][i]["cell_type"] == "code" for i in folded)
    assert folded, f"{chapter}: no cell of a gated solution is folded (run python -m coursebook.solutions)"
    page = browser.new_page(viewport={"width": 1400, "height": 1000})
    try:
        page.goto(f"{url}/lab/tree/notebooks/{chapter}.ipynb?reset&token={token}", wait_until="domcontentloaded")
        page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
        wait_for_kernel(page, url, token, chapter)
        before = page.evaluate(CELL_STATE_JS)
        assert len(before) == len(nb["cells"]), f"{chapter}: {len(before)} cells on the page, {len(nb['cells'])} in the file"
        run_all_cells(page, chapter)
        wait_for_kernel(page, url, token, chapter)
        after = page.evaluate(CELL_STATE_JS)
        for i in folded:
            where = f"{chapter}: cell {i} ({nb['cells'][i]['id']}) of a solution"
            assert not before[i]["inputShown"], f"{where} is open when the chapter opens"
            if before[i]["kind"] == "code":   # JupyterLab opens a Markdown cell it runs; code stays folded
                assert f"saved output {i}" not in before[i]["text"], f"{where} shows its output when the chapter opens"
                assert not after[i]["inputShown"], f"{where} is open after Run All"
        code = [i for i, c in enumerate(nb["cells"]) if c["cell_type"] == "code" and i not in folded]
        assert all(f"cell output {i}" in after[i]["text"] for i in code), f"{chapter}: outputs missing after Run All"
        for when, cells in (("on opening", before), ("after Run All", after)):
            shown = [(i, m) for i, cell in enumerate(cells) for m in GATE_SOURCE if m in cell["text"]]
            assert not shown, f"{chapter}: MyST source on the page {when}: {shown[:5]}"
        headers = [c["text"] for c in after if "Solution to" in c["text"]]
        assert headers, f"{chapter}: no solution header rendered"
        # Not asserted: JupyterLab shows the new output of a cell it runs even where outputs_hidden is set.
        reopened = sum(f"cell output {i}" in after[i]["text"] for i in folded)
        print(f"\njupyterlab {chapter}: {len(folded)} solution cells folded on opening "
              f"({sum(before[i]['kind'] == 'code' for i in folded)} code cells, their code still folded after Run All, "
              f"{reopened} showing their new output), {len(headers)} solution headers, no gate shown as source")
    except Exception:
        shots = ROOT / "_build" / "screenshots"
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"lab-solutions-{chapter}.png"), full_page=False)
        raise
    finally:
        page.close()
