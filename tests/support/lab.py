"""JupyterLab from .venv served on 127.0.0.1 for Playwright: start it, run a chapter, time a slider.

Used by tests/environments/test_lab.py and benchmarks/lab_sliders.py. Only the
standard library is imported here; Playwright's page is passed in.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.request import urlopen

ROOT = Path(__file__).resolve().parents[2]
# The project's own JupyterLab extensions, which `make lab` and Binder's postBuild add too.
LABEXTENSIONS = ROOT / "labextensions"

# Render every cell (no windowing, so off-screen outputs are in the DOM) and never autosave.
SETTINGS = {
    "@jupyterlab/notebook-extension/tracker": {"windowingMode": "none", "autoStartDefaultKernel": True},
    "@jupyterlab/docmanager-extension/plugin": {"autosave": False},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false", "checkForUpdates": False},
}


def copy_chapters(folder: Path, chapters: list[str]) -> None:
    """The chapters into ``folder``/notebooks without outputs, counts or saved widget state: every
    widget on the page is then a live one of the kernel that runs them."""
    (folder / "notebooks").mkdir(parents=True, exist_ok=True)
    for name in chapters:
        nb = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code":
                cell["outputs"], cell["execution_count"] = [], None
                # Solutions fold their code (jupyter.source_hidden), which hides the prompt this test reads
                # the execution count from; folding is test_gated_solutions_stay_folded's concern.
                cell["metadata"].pop("jupyter", None)
        nb["metadata"].pop("widgets", None)
        (folder / "notebooks" / f"{name}.ipynb").write_text(json.dumps(nb), encoding="utf-8")


@contextlib.contextmanager
def serve_lab(folder: Path, env: dict[str, str] | None = None) -> Iterator[tuple[str, str]]:
    """JupyterLab on ``folder`` at a free port of 127.0.0.1; yield (base URL, token). ``env`` is added
    to the server's (and so the kernels') environment, e.g. a PYTHONPATH."""
    settings = folder / ".settings"
    for plugin, values in SETTINGS.items():
        path = settings / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values))
    token = secrets.token_hex(16)
    full_env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(settings), "JUPYTERLAB_WORKSPACES_DIR": str(folder / ".ws"),
                "JUPYTER_RUNTIME_DIR": str(folder / ".runtime"), **(env or {})}
    log_path = folder / "lab.log"
    cmd = [sys.executable, "-m", "jupyter", "lab", "--no-browser", "--ServerApp.ip=127.0.0.1", "--ServerApp.port=0",
           f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={folder}", "--allow-root",
           f"--LabApp.extra_labextensions_path={LABEXTENSIONS}", "--LabApp.expose_app_in_browser=True"]  # window.jupyterapp, for open_in_app
    with log_path.open("w+") as log:
        server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, env=full_env, cwd=folder)
        try:
            deadline, port = time.monotonic() + 120, None
            while port is None and time.monotonic() < deadline and server.poll() is None:
                time.sleep(0.5)
                found = re.search(r"http://127\.0\.0\.1:(\d+)/", log_path.read_text())
                port = found and int(found[1])
            assert port, f"JupyterLab did not start:\n{log_path.read_text()[-3000:]}"
            while True:  # the URL is logged a moment before the server answers
                try:
                    with urlopen(f"http://127.0.0.1:{port}/api/status?token={token}"):
                        break
                except OSError:
                    assert time.monotonic() < deadline and server.poll() is None, \
                        f"JupyterLab does not answer:\n{log_path.read_text()[-3000:]}"
                    time.sleep(0.2)
            yield f"http://127.0.0.1:{port}", token
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()


# The open notebook is connected to its kernel and the page has the kernel idle (window.jupyterapp:
# serve_lab exposes it). Without it a Run All clicked too early is dropped.
PAGE_KERNEL_IDLE = """path => {
  const widget = window.jupyterapp && window.jupyterapp.shell.currentWidget;
  const context = widget && widget.sessionContext;
  return !!context && widget.context.path === path && context.session?.kernel?.status === 'idle'
         && context.session.kernel.connectionStatus === 'connected';
}"""


def wait_for_kernel(page, url: str, token: str, chapter: str) -> None:
    """Until the server has an idle kernel session for the chapter and the page is connected to it,
    idle (accepting a kernel dialog if any)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if page.locator(".jp-Dialog .jp-mod-accept").count():
            page.locator(".jp-Dialog .jp-mod-accept").click()
        with urlopen(f"{url}/api/sessions?token={token}") as answer:
            sessions = json.load(answer)
        if any(s["path"].endswith(f"{chapter}.ipynb") and s["kernel"]["execution_state"] == "idle" for s in sessions) \
                and page.evaluate(PAGE_KERNEL_IDLE, f"notebooks/{chapter}.ipynb"):
            return
        page.wait_for_timeout(200)
    raise AssertionError(f"{chapter}: no kernel became idle in 120 s")


# The prompts that show a count: a folded cell's (jupyter.source_hidden) prompt is empty.
SHOWN_PROMPTS = """[...document.querySelectorAll('.jp-CodeCell .jp-InputPrompt')]
    .map(p => p.textContent.trim()).filter(Boolean)"""
RUN_STARTED = f"() => {SHOWN_PROMPTS}.some(p => p !== '[ ]:')"
RUN_OVER = f"() => {{ const p = {SHOWN_PROMPTS}; return p.length > 0 && p.every(t => /^\\[\\d+\\]:$/.test(t)); }}"


def open_chapter(page, url: str, token: str, chapter: str, cells: int | None = None) -> None:
    """Open the chapter in a fresh workspace (only it open) and wait until its kernel is idle. A page
    where JupyterLab already runs (``window.jupyterapp``) closes every tab and opens the chapter
    without loading JupyterLab again. With ``cells``, wait until that many cells are on the page."""
    if page.url.startswith(url) and page.evaluate("() => !!window.jupyterapp"):
        page.evaluate("""async path => {
            // What a test changed (an unfolded cell) is not saved: no "Save your work?" dialog.
            for (const widget of [...window.jupyterapp.shell.widgets('main')]) {
                if (widget.context) widget.context.model.dirty = false;
                widget.dispose();
            }
            await window.jupyterapp.commands.execute('docmanager:open', {path});
        }""", f"notebooks/{chapter}.ipynb")
    else:
        page.goto(f"{url}/lab/tree/notebooks/{chapter}.ipynb?reset&token={token}", wait_until="domcontentloaded")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=90_000)
    if cells is not None:
        page.wait_for_function("n => document.querySelectorAll('.jp-Notebook .jp-Cell').length >= n", arg=cells,
                               timeout=90_000, polling=200)
    # The kernel starts by itself (autoStartDefaultKernel); should JupyterLab still ask, accept.
    wait_for_kernel(page, url, token, chapter)


def open_and_run_all(page, url: str, token: str, chapter: str, timeout_ms: int = 600_000) -> None:
    """Open the chapter (:func:`open_chapter`) and :func:`run_all`."""
    open_chapter(page, url, token, chapter)
    run_all(page, url, token, chapter, timeout_ms)


def run_all(page, url: str, token: str, chapter: str, timeout_ms: int = 600_000) -> None:
    """Run > Run All Cells in the open chapter, then wait until every cell whose prompt shows has run and
    the kernel is idle (a folded cell's prompt is empty: a test of folded cells waits for their outputs)."""
    from playwright.sync_api import Error as PlaywrightError

    for _ in range(4):  # a click before the notebook is wired to its kernel is dropped: repeat it
        page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
        page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
        try:
            page.wait_for_function(RUN_STARTED, timeout=20_000, polling=250)
            break
        except PlaywrightError:  # a timeout (TimeoutError is one) or a page not ready: click again
            continue
    else:
        raise AssertionError(f"{chapter}: Run All Cells started no cell")
    page.wait_for_function(RUN_OVER, timeout=timeout_ms, polling=500)
    wait_for_kernel(page, url, token, chapter)


def share_one_kernel(url: str, token: str, paths: list[str]) -> None:
    """One kernel for the notebooks at ``paths``: a session of each on it, which JupyterLab finds and
    joins when it opens the notebook (one kernel start instead of one a notebook)."""
    from urllib.request import Request

    def post(path: str, body: dict) -> dict:
        request = Request(f"{url}{path}?token={token}", data=json.dumps(body).encode(), method="POST",
                          headers={"Content-Type": "application/json"})
        with urlopen(request) as answer:
            return json.load(answer)

    kernel = post("/api/kernels", {"name": "python3"})["id"]
    for path in paths:
        post("/api/sessions", {"path": path, "type": "notebook", "name": Path(path).name, "kernel": {"id": kernel}})


def shutdown_kernels(url: str, token: str) -> None:
    """Stop every kernel of the server (one chapter's kernel at a time keeps memory low)."""
    from urllib.request import Request

    with urlopen(f"{url}/api/kernels?token={token}") as answer:
        kernels = json.load(answer)
    for kernel in kernels:
        with urlopen(Request(f"{url}/api/kernels/{kernel['id']}?token={token}", method="DELETE")):
            pass


SLIDER_BOXES = ".widget-vbox:has(.widget-slider):has(img)"

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
    (ArrowRight, or ArrowLeft at the last position; at the ends it turns round)."""
    handle = box.locator(".noUi-handle").first
    handle.scroll_into_view_if_needed()
    handle.focus()
    times = []
    key = "ArrowLeft" if handle.get_attribute("aria-valuenow") == handle.get_attribute("aria-valuemax") else "ArrowRight"
    for _ in range(presses):
        now, low, high = (handle.get_attribute(a) for a in ("aria-valuenow", "aria-valuemin", "aria-valuemax"))
        if now == high:
            key = "ArrowLeft"
        elif now == low:
            key = "ArrowRight"
        box.evaluate(WATCH_JS)
        page.keyboard.press(key)
        times.append(page.evaluate("window.__newImage"))
    return times


SHARPNESS_JS = """box => {
  const img = box.querySelector('img');
  return img.decode().then(() => ({natural: img.naturalWidth, css: img.getBoundingClientRect().width,
                                   dpr: window.devicePixelRatio, output: box.parentElement.getBoundingClientRect().width}));
}"""


def sharpness(box) -> dict:
    """The slider image's pixel width, its shown CSS width, the device pixel ratio and the output's width."""
    return box.evaluate(SHARPNESS_JS)
