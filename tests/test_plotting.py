"""Tests of the figure functions in perceptron.plotting that the chapters rely on."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import numpy as np
import pytest
from matplotlib.colors import to_rgba

from perceptron.plotting import CLASS_COLORS, plot_weight_image


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def test_weight_image_shows_the_weights_in_row_major_pixel_order():
    w = np.arange(64.0) - 20.0
    image = plot_weight_image(w).images[0]
    assert np.array_equal(np.asarray(image.get_array()), w.reshape(8, 8))


def test_weight_image_scale_is_symmetric_so_zero_is_white():
    w = np.array([-0.5, 0.0, 2.0, 1.0])
    image = plot_weight_image(w, shape=(2, 2), colorbar=False).images[0]
    assert tuple(float(v) for v in image.get_clim()) == (-2.0, 2.0)
    assert image.to_rgba(0.0) == pytest.approx(to_rgba("white"))


def test_weight_image_colours_positive_weights_like_the_positive_class():
    image = plot_weight_image(np.array([-3.0, 3.0]), shape=(1, 2), colorbar=False).images[0]
    assert image.to_rgba(3.0) == pytest.approx(to_rgba(CLASS_COLORS[1]))
    assert image.to_rgba(-3.0) == pytest.approx(to_rgba(CLASS_COLORS[-1]))


def test_weight_image_of_zero_weights_is_blank_not_an_error():
    image = plot_weight_image(np.zeros(4), shape=(2, 2), colorbar=False).images[0]
    assert tuple(float(v) for v in image.get_clim()) == (-1.0, 1.0)


def test_weight_image_draws_into_given_axes_and_adds_a_labelled_colorbar():
    fig, ax = plt.subplots()
    assert plot_weight_image(np.ones(64), ax=ax, title="w") is ax
    assert ax.get_title() == "w"
    assert [a.get_ylabel() for a in fig.axes if a is not ax] == ["weight"]


@pytest.mark.parametrize("w", [np.ones(63), np.ones((8, 8)), np.r_[np.ones(63), np.nan]])
def test_weight_image_rejects_weights_that_do_not_fill_the_image(w):
    with pytest.raises(ValueError, match="64 finite weights for a 8x8 image"):
        plot_weight_image(w)
