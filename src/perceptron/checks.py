"""Checks of a chapter's claims that say, when they fail, which settings they were written for.

A chapter's check cell asserts what its prose claims about the book's run: "converges after 7
epochs" holds for the book's seed, not for every seed a student may try. Wrapped in
:func:`holds_for`, a failing ``assert`` no longer stops the notebook with a bare ``AssertionError:``
but says which claim failed and for which settings it holds.
"""

from __future__ import annotations

import linecache
import traceback
from collections.abc import Iterator
from contextlib import contextmanager


def _failing_line(error: BaseException) -> str:
    """The source line of the innermost frame of ``error``'s traceback (the ``assert`` that failed)."""
    frames = traceback.extract_tb(error.__traceback__)
    if not frames:
        return ""
    last = frames[-1]
    line = last.line or linecache.getline(last.filename, last.lineno or 0)
    return " ".join(line.split())


@contextmanager
def holds_for(settings: str = "") -> Iterator[None]:
    """Run a chapter's assertions; a failing one names the settings the claim holds for.

    Parameters
    ----------
    settings : str, optional
        The book's values the claims depend on, as the chapter's code sets them, e.g. ``"seed=3"``
        or ``"seed=2, eta=0.1, n_hidden=3"``; without them the message speaks of the book's data
        and settings in general.

    Yields
    ------
    None

    Raises
    ------
    AssertionError
        When an assertion in the block fails, or computing it fails (a check may look up what the
        book's run produced, e.g. an epoch that a changed seed never reaches): the message says the
        check holds for the book's settings, not the reader's, and quotes the failing line (or the
        assertion's own message, when it has one).
    TypeError
        When ``settings`` is not a string.

    Examples
    --------
    >>> with holds_for("seed=3"):
    ...     assert 1 + 1 == 2
    >>> try:
    ...     with holds_for("seed=3"):
    ...         assert 7 == 8
    ... except AssertionError as error:
    ...     print(error)
    This check holds for the book's settings (seed=3), not for yours: assert 7 == 8
    """
    if not isinstance(settings, str):
        raise TypeError(f"settings must be a string such as 'seed=3', got {type(settings).__name__}")
    book = f"the book's settings ({settings})" if settings.strip() else "the book's data and settings"
    try:
        yield
    except Exception as error:  # noqa: BLE001 - any failure of a claim's check becomes the claim's message
        line = _failing_line(error)
        if isinstance(error, AssertionError):
            what = f"{line} ({error})" if str(error) else line or "an assertion failed"
        else:
            what = f"{type(error).__name__}: {error} in {line}"
        raise AssertionError(f"This check holds for {book}, not for yours: {what}") from None


__all__ = ["holds_for"]
