"""Support for the homework's hidden tests (shipped in the autograder zip only, never to students).

A hidden test calls the student's function on data the student never saw and compares the answer
with the reference implementation in :mod:`perceptron`. :func:`call_own` makes that call and
fails the test when the function is missing or hands the work to the very reference it is being
compared with, which would make the comparison meaningless.
"""

from __future__ import annotations

import sys
from typing import Any, Callable


def call_own(func: Any, *args: Any, forbid: tuple[Callable[..., Any], ...] = (), **kwargs: Any) -> Any:
    """Return ``func(*args, **kwargs)``, failing if ``func`` is undefined or calls a forbidden function.

    Parameters
    ----------
    func : callable or None
        The student's function, as the test received it from the notebook (None when the
        notebook never defined it).
    *args, **kwargs
        Passed on to ``func``.
    forbid : tuple of callables
        Reference functions that ``func`` must not call, directly or through helpers.

    Raises
    ------
    AssertionError
        With a message meant for the student.
    """
    if not callable(func):
        raise AssertionError("the function is not defined: run the cell where you define it")
    # Calls are recognised by code object, so every way of importing the reference is caught
    # (``perceptron.train``, ``from perceptron import train``, an alias...).
    codes = {f.__code__: f"{f.__module__.split('.')[0]}.{f.__name__}" for f in forbid}
    called: list[str] = []

    def watch(frame: Any, event: str, arg: Any) -> None:
        if event == "call" and frame.f_code in codes:
            called.append(codes[frame.f_code])

    previous = sys.getprofile()
    sys.setprofile(watch)
    try:
        result = func(*args, **kwargs)
    finally:
        sys.setprofile(previous)
    if called:
        raise AssertionError(f"your function calls {called[0]}: implement it yourself")
    return result
