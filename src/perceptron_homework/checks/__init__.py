"""The homework's tests, split so that no verdict depends on the student's process.

Every test of an assignment (public or hidden) is a function of a random generator that
returns two things: the *calls* to make in the student's notebook (call this function on these
inputs, read that variable) and a *verdict*, a function of the outputs of those calls that
raises ``AssertionError`` with a message for the student when they are wrong. The calls run in
the sandboxed kernel (:mod:`perceptron_homework.runner`); their outputs come back as plain data;
the verdict runs in the grading process, with its own numpy and its own reference
implementation. So nothing the student's code does to numpy, to builtins or to the grader's
objects in its own process can change a verdict: it can only change its own outputs.

The generator of a test is seeded from the instructor's *secret*, the assignment and the test's
name (:func:`rng_for`): with a private secret, the hidden inputs are not the ones the public
masters use.

The masters' hidden test cells call :func:`run_here`, which runs the same test in one process
(what ``otter assign`` does to check the solutions, and what ``otter run`` would do).

The secret also picks the assignment's *variant* (:func:`variant`): an assignment module that
defines ``variant(secret)`` returns the parameters of the task a student implements (for
homework 1 the mistake rule, how the bias is learned and the datasets), derived
deterministically from the secret, and the values its master's ``{{ name }}`` placeholders are
rendered with (:mod:`perceptron_homework.build`). That dictionary is the one place the
assignment's data and rules live: the notebook handed out and the tests both read it. A test
that takes a second argument gets the variant.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import plain

PUBLIC_SECRET = "public"  # the secret of a build without SECRET=...: data anyone can reproduce
SECRET_FILE = "homework_secret.json"  # shipped in the autograder zip next to the tests

# What a "write it yourself" function must not call: the whole reference package and
# scikit-learn. Detected with a profile hook in the student's own process, so this is a
# deterrent, not a guarantee (see the threat model on the homework page); the questions whose
# point is the algorithm are checked by their sequence of updates instead.
NOTHING_OF_THE_PACKAGE = ("perceptron.*", "sklearn.*")
TRAINERS = (
    "perceptron.train", "perceptron.train_sgd", "perceptron.pocket", "perceptron.averaged",
    "perceptron.voted", "perceptron.kernel_train", "perceptron.mistake_bound", "perceptron.training.*",
    "perceptron.fast_training.*", "perceptron.estimator.*", "sklearn.linear_model.*", "sklearn.svm.*",
)


@dataclass(frozen=True)
class Call:
    """One thing to ask of the notebook: call function ``name`` (kind "call") or read a variable."""

    kind: str
    name: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    forbid: tuple[str, ...] = ()
    patch: dict = field(default_factory=dict)  # notebook name -> patch in perceptron_homework.patches
    trace: tuple[str, ...] = ()  # patched names whose calls are recorded
    inputs_after: bool = False  # also send back the arguments as they are after the call

    def to_plain(self) -> dict:
        out = {"kind": self.kind, "name": self.name, "args": plain.encode(tuple(self.args)),
               "kwargs": plain.encode(dict(self.kwargs)), "forbid": list(self.forbid),
               "patch": dict(self.patch), "trace": list(self.trace)}
        if self.inputs_after:
            out["inputs_after"] = True
        return out


def call(name: str, *args: Any, forbid: tuple[str, ...] = (), patch: dict | None = None,
         trace: tuple[str, ...] = (), inputs_after: bool = False, **kwargs: Any) -> Call:
    """Ask the notebook for ``name(*args, **kwargs)``.

    With ``inputs_after``, the outputs also hold the positional arguments as the call left them
    (:meth:`Outputs.inputs_after`): a function that must not change its inputs in place is
    checked on them.
    """
    return Call("call", name, args, kwargs, tuple(forbid), dict(patch or {}), tuple(trace), inputs_after)


def value(name: str) -> Call:
    """Ask the notebook for the value of its variable ``name``."""
    return Call("value", name)


Verdict = Callable[["Outputs"], None]


@dataclass(frozen=True)
class Check:
    assignment: str
    question: str
    name: str
    hidden: bool
    build: Callable[..., tuple[list[Call], Verdict]]

    def make(self, secret: str) -> tuple[list[Call], Verdict]:
        """The test's calls and verdict under ``secret`` (its data, and the variant if it takes one)."""
        rng = rng_for(secret, self.assignment, self.name)
        if len(inspect.signature(self.build).parameters) > 1:
            return self.build(rng, variant(self.assignment, secret))
        return self.build(rng)


REGISTRY: dict[str, dict[str, Check]] = {}
ASSIGNMENTS = ("hw1_perceptron", "hw2_linear_classifiers", "hw3_convergence", "hw4_multiclass_networks")


def check(question: str, *, hidden: bool = False):
    """Register a test of the assignment named like the module that defines it."""

    def register(build):
        assignment = build.__module__.rsplit(".", 1)[-1]
        REGISTRY.setdefault(assignment, {})[build.__name__] = Check(assignment, question, build.__name__,
                                                                     hidden, build)
        return build

    return register


def checks(assignment: str) -> dict[str, Check]:
    """Every test of ``assignment``, by name."""
    if assignment not in ASSIGNMENTS:
        raise ValueError(f"unknown assignment {assignment!r}; expected one of {ASSIGNMENTS}")
    importlib.import_module(f"{__name__}.{assignment}")
    return REGISTRY[assignment]


def rng_for(secret: str, assignment: str, test: str) -> np.random.Generator:
    """The generator of one test's data: a function of the secret, the assignment and the test."""
    digest = hashlib.sha256(f"{secret}\0{assignment}\0{test}".encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:16], "little"))


def variant(assignment: str, secret: str) -> dict[str, Any]:
    """The task's parameters and the master's placeholder values under ``secret`` ({} if fixed).

    The public secret gives the public variant, the one the masters' solutions are written for;
    any other secret a private one (see the assignment module's ``variant``).
    """
    if not secret:
        raise ValueError("the secret must not be empty")
    module = importlib.import_module(f"{__name__}.{assignment}") if assignment in ASSIGNMENTS else None
    if module is None:
        raise ValueError(f"unknown assignment {assignment!r}; expected one of {ASSIGNMENTS}")
    key = (assignment, hashlib.sha256(secret.encode()).hexdigest())
    if key not in _variants:
        _variants[key] = dict(module.variant(secret)) if hasattr(module, "variant") else {}
    return dict(_variants[key])


_variants: dict[tuple[str, str], dict] = {}


def fingerprint(assignment: str, question: str, answer: int) -> str:
    """A short fingerprint of an integer answer, which a public test compares without showing it.

    The notebook's public test computes the same expression in plain Python:
    ``hashlib.sha256(f"{assignment} {question} {answer}".encode()).hexdigest()[:12]``. It tells a
    student that a count is wrong, not what it is (a determined student could try every count;
    the hidden tests do not rest on it).
    """
    return hashlib.sha256(f"{assignment} {question} {int(answer)}".encode()).hexdigest()[:12]


def plan(assignment: str, secret: str) -> dict[str, tuple[list[Call], Verdict]]:
    """The calls and the verdict of every test of ``assignment`` under ``secret``."""
    return {name: c.make(secret) for name, c in checks(assignment).items()}


class Outputs:
    """The outputs of a test's calls, as the verdict sees them: failed calls raise AssertionError."""

    def __init__(self, calls: list[Call], raw: Any, test_seconds: float | None = None):
        self.calls = calls
        self.raw = raw if type(raw) is list else []
        self.test_seconds = test_seconds

    def _entry(self, i: int) -> dict:
        c = self.calls[i]
        what = f"`{c.name}`"
        if i >= len(self.raw) or type(self.raw[i]) is not dict:
            raise AssertionError(f"{what} was not run")
        entry = self.raw[i]
        if entry.get("timeout"):
            limit = f" {self.test_seconds:g} s" if self.test_seconds else " its time limit"
            raise AssertionError(f"the test ran longer than{limit}: does the code ever return?")
        if "missing" in entry:
            raise AssertionError(f"{what} is not defined: run the cell where you define it")
        if "error" in entry:
            raise AssertionError(f"{what} raised {str(entry['error'])[:500]}")
        if entry.get("called"):
            raise AssertionError(f"your function calls {str(entry['called'])[:100]}: implement it yourself")
        if "value" not in entry:
            raise AssertionError(f"{what} returned nothing the grader could read")
        return entry

    def __getitem__(self, i: int) -> Any:
        try:
            return plain.decode(self._entry(i)["value"])
        except plain.PlainDataError as exc:
            raise AssertionError(f"`{self.calls[i].name}` returned something unexpected ({exc})") from None

    def inputs_after(self, i: int) -> list:
        """The positional arguments of call ``i`` as the call left them (see :func:`call`)."""
        after = self._entry(i).get("inputs_after")
        if type(after) is not dict and type(after) is not list:
            raise AssertionError(f"`{self.calls[i].name}` changed its arguments into something unreadable")
        try:
            return list(plain.decode(after))
        except plain.PlainDataError as exc:
            raise AssertionError(f"unreadable arguments ({exc})") from None

    def trace(self, i: int) -> list:
        try:
            return plain.decode(self._entry(i).get("trace", []))
        except plain.PlainDataError as exc:
            raise AssertionError(f"unreadable trace ({exc})") from None

    def __len__(self) -> int:
        return len(self.calls)

    def __iter__(self):
        return (self[i] for i in range(len(self.calls)))


def judge(calls: list[Call], verdict: Verdict, raw: Any, test_seconds: float | None = None) -> tuple[bool, str]:
    """Run ``verdict`` on the raw outputs; return (passed, message for the student)."""
    try:
        with np.errstate(all="ignore"):
            verdict(Outputs(calls, raw, test_seconds))
    except AssertionError as exc:
        return False, str(exc) or "wrong answer"
    except Exception as exc:  # noqa: BLE001 - an output of the wrong type or shape fails the test
        return False, f"the answer could not be checked: {type(exc).__name__}: {str(exc)[:300]}"
    return True, ""


def read_secret(folder: Path | str = ".") -> str:
    """The secret shipped next to the tests, or the public one."""
    path = Path(folder, SECRET_FILE)
    if not path.exists():
        return PUBLIC_SECRET
    return str(json.loads(path.read_text())["secret"])


def run_here(assignment: str, test: str, env: dict, *, secret: str | None = None) -> None:
    """Run one test in this process against the notebook namespace ``env`` (otter's hidden tests).

    Raises AssertionError with the student's message when the test fails.
    """
    from ..runner import perform

    calls, verdict = checks(assignment)[test].make(secret or read_secret())
    raw = [json.loads(json.dumps(perform(c.to_plain(), env))) for c in calls]
    passed, message = judge(calls, verdict, raw)
    if not passed:
        raise AssertionError(message)
