"""Tests of perceptron.widgets.SliderFigure: the frames, the static HTML view and the live slider."""

from __future__ import annotations

import base64
import json
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
import pytest

from perceptron.widgets import LIVE_SCALE, SliderFigure, figure_to_png, png_width


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


class CountingDraw:
    """A draw function (a line of slope ``value``) that counts its calls."""

    def __init__(self) -> None:
        self.calls: list[float] = []

    def __call__(self, value: float):
        self.calls.append(value)
        fig, ax = plt.subplots(figsize=(2, 2))
        ax.plot([0, 1], [0, value])
        ax.set_ylim(-3, 3)
        return fig


def test_frames_draw_every_position_once_and_are_kept():
    draw = CountingDraw()
    slider = SliderFigure(draw, [-1, 0, 2], name="slope")
    frames = slider.frames()
    assert slider.frames() is frames and draw.calls == [-1, 0, 2]
    assert len(set(frames)) == 3 and all(png.startswith(b"\x89PNG") for png in frames)


def test_a_frame_is_the_png_a_fresh_draw_gives():
    draw = CountingDraw()
    slider = SliderFigure(draw, [1, 2], name="slope", dpi=50)
    assert slider.frames()[1] == figure_to_png(draw(2), dpi=50)


def test_live_slider_shows_each_position_drawn_once_sharper_than_the_book():
    # Each position is drawn once for both views; a move only swaps the picture (no draw while the
    # reader waits). The live picture is the book's figure with LIVE_SCALE times its pixels, shown at
    # the book's frame size.
    draw = CountingDraw()
    slider = SliderFigure(draw, [-2, -1, 0, 1], name="slope", initial=1, dpi=40)
    control, image = slider.live_widget().children
    assert draw.calls == [-2, -1, 0, 1]
    assert image.value == slider.live_frames()[1]
    for k in [3, 0, 2]:
        control.value = k
        assert image.value == slider.live_frames()[k]
    assert draw.calls == [-2, -1, 0, 1] and len(slider.frames()) == 4
    book, live = slider.frames()[2], slider.live_frames()[2]
    assert png_width(live) == LIVE_SCALE * png_width(book) == LIVE_SCALE * 80  # 2 inches at 40 dpi
    assert image.layout.width == f"{png_width(book)}px" and image.layout.max_width == "100%"
    fig = draw(0)
    assert live == figure_to_png(fig, dpi=40 * LIVE_SCALE)


def test_live_frames_leave_the_books_frames_unchanged():
    # Saving the same figure a second time, sharper, must not change the static frame's bytes:
    # the chapters' committed outputs hold them.
    alone = SliderFigure(CountingDraw(), [1, 2], name="slope").frames()
    both = SliderFigure(CountingDraw(), [1, 2], name="slope")
    both.live_frames()
    assert both.frames() == alone
    assert not plt.get_fignums(), "a figure was left open"


def test_png_width_rejects_what_is_not_a_png():
    with pytest.raises(ValueError, match="not a PNG"):
        png_width(b"GIF89a")


def test_live_slider_labels_positions_with_the_format():
    slider = SliderFigure(CountingDraw(), [0.5, 1.25], name="η", fmt="{:.2f}")
    control, _ = slider.live_widget().children
    assert [label for label, _ in control.options] == ["0.50", "1.25"] and control.value == 0


def test_static_html_is_a_range_input_over_every_frame():
    slider = SliderFigure(CountingDraw(), [1, 2, 3], name="slope <k>", initial=2)
    page = slider.static_html()
    assert page.startswith('<div class="perceptron-slider">') and page.endswith("</div>")
    assert re.search(r'<input type="range" min="0" max="2" step="1" value="2"', page)
    assert "<output>3</output>" in page and "slope &lt;k&gt;" in page and "slope <k>" not in page
    payload = json.loads(re.search(r'<script type="application/json">(.*?)</script>', page).group(1))
    assert payload["labels"] == ["1", "2", "3"]
    assert [base64.b64decode(f.split(",", 1)[1]) for f in payload["frames"]] == slider.frames()
    assert re.search(r'<img src="([^"]+)"', page).group(1) == payload["frames"][2]


def test_display_carries_the_live_and_the_static_view():
    bundle = SliderFigure(CountingDraw(), [1, 2], name="slope")._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/html"].startswith('<div class="perceptron-slider">')
    assert bundle["text/plain"] == "SliderFigure: slope over 2 positions"


def test_a_label_that_does_not_fit_the_format_is_shown_as_text():
    assert SliderFigure(CountingDraw(), ["low", "high"], name="level").label("low") == "low"


@pytest.mark.parametrize(("values", "initial", "message"), [([1], 0, "at least two values"),
                                                            ([1, 2], 2, "initial must index values")])
def test_bad_slider_settings_are_refused(values, initial, message):
    with pytest.raises(ValueError, match=message):
        SliderFigure(CountingDraw(), values, name="slope", initial=initial)


def test_static_html_describes_every_frame_and_announces_the_value():
    slider = SliderFigure(CountingDraw(), [1, 2, 3], name="slope", initial=1,
                          alt=lambda v: f"a line of slope {v} through the origin")
    page = slider.static_html()
    payload = json.loads(re.search(r'<script type="application/json">(.*?)</script>', page).group(1))
    assert payload["alts"] == [f"a line of slope {v} through the origin" for v in (1, 2, 3)]
    assert 'alt="a line of slope 2 through the origin"' in page and 'aria-valuetext="2"' in page
    assert "img.alt = data.alts[k]" in page and "aria-valuetext" in page.split("<script>")[-1]


def test_alt_must_describe_each_frame():
    slider = SliderFigure(CountingDraw(), [1, 2], name="slope", alt=lambda v: "  ")
    with pytest.raises(ValueError, match="non-empty description"):
        slider.static_html()
    plain = SliderFigure(CountingDraw(), [1, 2], name="slope")
    assert plain.alt_text(2) == "figure for slope = 2"


def test_describe_classifier_counts_wrong_points_and_places_the_boundary():
    import numpy as np

    from perceptron.widgets import describe_classifier

    X, y = np.array([[1.0, 0.0], [-1.0, 0.0], [3.0, 0.0]]), np.array([1, -1, -1])
    text = describe_classifier(X, y, [1.0, 0.0], -2.0)        # boundary x1 = 2
    assert text.startswith("3 points (1 labelled +1, 2 labelled −1), 2 on the wrong side")
    assert "distance 2 from the origin" in text and "pointing at 0°" in text
    assert describe_classifier(X, y, [0.0, -2.0], 0.0).endswith(
        "distance 0 from the origin, normal w pointing at 270°")
    # w = 0 has no boundary: sgn(b) predicts every point (sgn(0) = +1), and the errors are the other label's
    # points, as chapter 2's printout counts them (not all the points, which the score test y(w.x + b) <= 0 finds).
    assert describe_classifier(X, y, [0.0, 0.0], 0.0).endswith(
        "no boundary (w = 0): every point is predicted +1, so its errors are the points labelled −1: 2")
    assert describe_classifier(X, y, [0.0, 0.0], -0.5).endswith(
        "every point is predicted −1, so its errors are the points labelled +1: 1")
    with pytest.raises(ValueError, match="must agree"):
        describe_classifier(X, y[:2], [1.0, 0.0], 0.0)


def test_describe_classifier_puts_a_point_within_rounding_of_the_line_on_it():
    from perceptron.widgets import describe_classifier

    # (1, 1) lies on 0.1 x1 + 0.2 x2 - 0.3 = 0, but its float score is +5.6e-17: on the line, not
    # on the right side (which side rounding picks depends on the BLAS kernel for longer sums).
    assert 0.1 * 1.0 + 0.2 * 1.0 - 0.3 > 0
    assert "1 on the wrong side or on the boundary" in describe_classifier([[1.0, 1.0]], [1], [0.1, 0.2], -0.3)
    # ... while a point a millionth of a unit inside its side is on its side.
    assert "0 on the wrong side" in describe_classifier([[1.0, 1.0]], [1], [0.1, 0.2], -0.3 + 1e-6)
    assert "1 on the wrong side" in describe_classifier([[1.0, 1.0]], [-1], [0.1, 0.2], -0.3 + 1e-6)
