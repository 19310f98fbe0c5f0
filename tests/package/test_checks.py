"""perceptron.holds_for: a chapter's check that fails says which settings its claim holds for.

PYTEST_DONT_REWRITE: the assertions here must fail as they do in a notebook, without pytest's messages.
"""

from __future__ import annotations

import pytest

import perceptron as pc


def test_a_passing_check_is_silent():
    with pc.holds_for("seed=3"):
        assert 1 + 1 == 2


def test_a_bare_assertion_names_the_settings_and_quotes_itself():
    first_clean = 9
    with pytest.raises(AssertionError) as caught, pc.holds_for("seed=2, n_hidden=3"):
        assert first_clean == 7
    assert str(caught.value) == ("This check holds for the book's settings (seed=2, n_hidden=3), not for yours: "
                                 "assert first_clean == 7")


def test_an_assertions_own_message_is_kept():
    with pytest.raises(AssertionError, match=r"^This check holds for the book's data and settings, not for yours: "
                                             r"assert reason is None, \"the reason\" \(the reason\)$"):
        reason = "x"
        with pc.holds_for():
            assert reason is None, "the reason"


def test_an_error_computing_the_check_is_a_failed_check_too():
    """A check may look up what the book's run produced, e.g. the epochs of a cycle a changed run never has."""
    epoch_end = {1: 0}
    claim = r"holds for the book's settings \(max_epochs=100\).*KeyError: 41 in"
    with pytest.raises(AssertionError, match=claim), pc.holds_for("max_epochs=100"):
        assert epoch_end[41] == 0


def test_settings_must_be_text():
    with pytest.raises(TypeError, match="settings must be a string"), pc.holds_for(3):
        pass
