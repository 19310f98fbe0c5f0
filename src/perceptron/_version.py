"""The version of the perceptron-course distribution, in this one place.

pyproject.toml reads it (setuptools' dynamic version), ``perceptron.__version__`` re-exports it, and
book/_ext/coursebook/setup_cell.py writes it into the setup cell of every chapter and homework notebook.
"""

__version__ = "0.1.0"
