"""Plain data for the trip into and out of the sandbox: JSON with a few tagged forms.

What comes out of a student's process is untrusted. :func:`decode` only ever builds numbers,
strings, booleans, None, lists, tuples, dicts and numpy arrays or scalars of numeric dtype,
so that comparing them with a reference in the grading process runs no code of the student's.
"""

from __future__ import annotations

import itertools
import math
from typing import Any

import numpy as np

MAX_ELEMENTS = 1_000_000  # an output with more numbers than this is refused
MAX_STRING = 10_000
MAX_ITEMS = 10_000  # items of an iterable result object
MAX_DEPTH = 20
NUMERIC_KINDS = "biuf"  # bool, int, unsigned, float


class PlainDataError(ValueError):
    """A value that cannot travel as plain data, or a malformed encoding."""


def encode(value: Any, _depth: int = 0) -> Any:
    """Return a JSON-ready form of ``value``: numbers, arrays, tuples, lists, dicts, strings."""
    if _depth > MAX_DEPTH:
        raise PlainDataError("the value is nested too deeply")
    if value is None or type(value) is bool:
        return value
    if type(value) is str:
        return value[:MAX_STRING]
    if type(value) is int:
        return value if abs(value) < 2**63 else {"float": repr(float(value))}
    if type(value) is float:
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, np.generic) and value.dtype.kind in NUMERIC_KINDS:
        return {"scalar": _number(value.item()), "dtype": value.dtype.str}
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in NUMERIC_KINDS:
            value = value.astype(object)
            if value.size > MAX_ELEMENTS:
                raise PlainDataError("the array is too large")
            return {"objects": encode(value.tolist(), _depth + 1), "shape": list(value.shape)}
        if value.size > MAX_ELEMENTS:
            raise PlainDataError("the array is too large")
        flat = [_number(v) for v in value.ravel().tolist()]
        return {"array": flat, "dtype": value.dtype.str, "shape": list(value.shape)}
    if isinstance(value, list):
        return [encode(v, _depth + 1) for v in value]
    if isinstance(value, tuple):  # named tuples too
        return {"tuple": [encode(v, _depth + 1) for v in value]}
    if isinstance(value, dict):
        return {"dict": [[encode(k, _depth + 1), encode(v, _depth + 1)] for k, v in value.items()]}
    if hasattr(type(value), "__iter__") and not isinstance(value, (str, bytes, bytearray)):
        # A result object that unpacks, like the package's (w, b) hyperplanes: its items.
        items = list(itertools.islice(iter(value), MAX_ITEMS + 1))
        if len(items) > MAX_ITEMS:
            raise PlainDataError("the value has too many items")
        return {"tuple": [encode(v, _depth + 1) for v in items]}
    # Anything else (a class instance, a number of another type) is described, not kept.
    return {"object": type(value).__name__[:200]}


def _number(x: Any) -> Any:
    if isinstance(x, float) and not math.isfinite(x):
        return {"float": repr(x)}
    if isinstance(x, complex):
        raise PlainDataError("complex numbers are not expected")
    return x


def decode(data: Any, _depth: int = 0) -> Any:
    """Rebuild a value from :func:`encode`'s form; raise :class:`PlainDataError` if malformed."""
    if _depth > MAX_DEPTH + 2:
        raise PlainDataError("the value is nested too deeply")
    if data is None or type(data) in (bool, int, float):
        return data
    if type(data) is str:
        return data[:MAX_STRING]
    if type(data) is list:
        return [decode(v, _depth + 1) for v in data]
    if type(data) is not dict or len(data) not in (1, 2, 3):
        raise PlainDataError("malformed plain data")
    if set(data) == {"float"}:
        return float(_literal(data["float"]))
    if set(data) == {"scalar", "dtype"}:
        return _dtype(data["dtype"]).type(_flat_number(data["scalar"]))
    if set(data) == {"array", "dtype", "shape"}:
        shape = _shape(data["shape"])
        flat = data["array"]
        if type(flat) is not list or len(flat) != math.prod(shape) or len(flat) > MAX_ELEMENTS:
            raise PlainDataError("malformed array")
        return np.array([_flat_number(v) for v in flat], dtype=_dtype(data["dtype"])).reshape(shape)
    if set(data) == {"objects", "shape"}:
        shape = _shape(data["shape"])
        items = decode(data["objects"], _depth + 1)
        out = np.empty(math.prod(shape), dtype=object)
        flat = list(_flatten(items, len(shape)))
        if len(flat) != out.size:
            raise PlainDataError("malformed object array")
        out[:] = flat
        return out.reshape(shape)
    if set(data) == {"tuple"} and type(data["tuple"]) is list:
        return tuple(decode(v, _depth + 1) for v in data["tuple"])
    if set(data) == {"dict"} and type(data["dict"]) is list:
        out = {}
        for pair in data["dict"]:
            if type(pair) is not list or len(pair) != 2:
                raise PlainDataError("malformed dict")
            key = decode(pair[0], _depth + 1)
            try:
                out[key] = decode(pair[1], _depth + 1)
            except TypeError as exc:  # an unhashable key
                raise PlainDataError("malformed dict") from exc
        return out
    if set(data) == {"object"} and type(data["object"]) is str:
        return Opaque(data["object"])
    raise PlainDataError("malformed plain data")


class Opaque:
    """Stands for a value that could not travel as data: equal to nothing, usable as nothing."""

    def __init__(self, type_name: str):
        self.type_name = type_name[:200]

    def __repr__(self) -> str:
        return f"<a {self.type_name} object>"


def _literal(text: Any) -> float:
    if type(text) is not str or len(text) > 40:
        raise PlainDataError("malformed float")
    try:
        return float(text)
    except ValueError as exc:
        raise PlainDataError("malformed float") from exc


def _flat_number(v: Any) -> Any:
    if type(v) in (bool, int, float):
        return v
    if type(v) is dict and set(v) == {"float"}:
        return _literal(v["float"])
    raise PlainDataError("malformed number")


def _dtype(text: Any) -> np.dtype:
    if type(text) is not str or len(text) > 8:
        raise PlainDataError("malformed dtype")
    try:
        dtype = np.dtype(text)
    except TypeError as exc:
        raise PlainDataError("malformed dtype") from exc
    if dtype.kind not in NUMERIC_KINDS:
        raise PlainDataError("unexpected dtype")
    return dtype


def _shape(shape: Any) -> tuple[int, ...]:
    if type(shape) is not list or len(shape) > 8 or any(type(n) is not int or n < 0 for n in shape):
        raise PlainDataError("malformed shape")
    if math.prod(shape) > MAX_ELEMENTS:
        raise PlainDataError("the array is too large")
    return tuple(shape)


def _flatten(items: Any, ndim: int):
    if ndim == 0:
        yield items
        return
    if type(items) is not list:
        raise PlainDataError("malformed object array")
    for item in items:
        yield from _flatten(item, ndim - 1)
