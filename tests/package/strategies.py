"""Hypothesis strategies of the package tests.

Random datasets are drawn by numpy from a hypothesis-chosen seed rather than built from
hypothesis floats: continuous random coordinates make exact score ties (w.x + b == 0 after a
few updates) a probability-zero event, which the properties about learning rates and sklearn
need. Integer grids, where ties are common, get their own tests.
"""

from __future__ import annotations

from hypothesis import strategies as st

from perceptron import datasets


@st.composite
def separable_data(
    draw, *, bias: bool | None = None, max_samples: int = 40, max_features: int = 5,
    scales: tuple[float, ...] = (0.01, 1.0, 7.5, 300.0),
):
    """A seeded ``make_separable`` dataset with random size, dimension, margin and scale.

    ``bias=None`` lets hypothesis choose whether the true hyperplane may miss the origin. Small
    scales make the offset large relative to the points, which bias "one" needs many updates for.
    """
    seed = draw(st.integers(0, 2**32 - 1))
    n = draw(st.integers(2, max_samples))
    d = draw(st.integers(1, max_features))
    offset = draw(st.booleans()) if bias is None else bias
    margin = draw(st.floats(0.02, 0.3))
    scale = draw(st.sampled_from(scales))
    X, y = datasets.make_separable(n, d, margin=margin, bias="one" if offset else "none", seed=seed)
    return X * scale, y
