"""Where the course runs: the pinned environment and Binder's, a Colab-like venv, JupyterLab, the
notebooks' setup cell, the release metadata, the oldest versions of the dependencies."""
