"""Write environment.yml (Binder) from requirements.lock so the two always pin the same versions."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = """\
# Binder environment. The pip pins are exactly requirements.lock (tests/test_environment.py checks it);
# postBuild installs the perceptron package itself. Regenerate with `make lock`.
name: perceptron
channels:
  - conda-forge
dependencies:
  - python=3.11
  - pip
  - pip:
"""

pins = [line.strip() for line in (ROOT / "requirements.lock").read_text().splitlines()
        if line.strip() and not line.startswith("#")]
(ROOT / "environment.yml").write_text(HEADER + "".join(f"      - {p}\n" for p in pins))
