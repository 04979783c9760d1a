"""What a value kept between builds must be, exactly, so that an entry of any other shape is a miss (and made
again) rather than a traceback, or gigabytes, later in the build.

A shape is a type annotation, as the code that makes the values writes it: `str`, `bytes`, `bool`, `int`, `float`,
`None`, `Path`, `list[X]`, `tuple[X, Y]`, `tuple[X, ...]`, `dict[K, V]`, `X | Y`, `Annotated[X, test]` (X, and
`test(value)` true), `Any` (what YAML gives), a dataclass (exactly that class, holding exactly its fields, each
of its field's annotation), or another class (exactly that class, holding nothing). `Shape` adds what the
annotations do not say: a field's shape in one kind of entry (a stored page has no HTML), and tests across a
class's fields. Every value is exact: no subclass, no bool for an int, ints within 64 bits, floats finite (but
in YAML's values).
"""

from __future__ import annotations

import dataclasses
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Any

_PATH = type(Path())
INT_BITS = 63
# A value holds at most this many parts (each element, key, field and text counts one) besides one per byte of
# its entry. What a build writes holds far fewer (a module about one per ten bytes): an entry whose values share
# parts to stand for more (a list of one list many times, many times over) is refused, in as many steps.
SPARE_PARTS = 4096
# What YAML gives as a key, or a value that holds nothing more.
_SCALARS = (type(None), bool, int, float, str)

Check = Callable[[Any, list[int]], bool]


class _TooLarge(Exception):
    pass


@dataclass(frozen=True, eq=False)
class Shape:
    """What one kind of entry holds: `root`, with `fields[cls][name]` where a class's field holds less than its
    annotation says, and `rules[cls]` true of each value of a class."""

    root: Any
    fields: Mapping[type, Mapping[str, Any]] = field(default_factory=dict)
    rules: Mapping[type, Callable[[Any], bool]] = field(default_factory=dict)
    # The classes a value of the shape is made of, by module and name: all an unpickler may build for it.
    classes: dict[tuple[str, str], type] = field(init=False, repr=False)
    _check: Check = field(init=False, repr=False)

    def __post_init__(self) -> None:
        # Made once, here: an annotation this module cannot check fails where the shape is written.
        compiled = _Compiler(self)
        object.__setattr__(self, "_check", compiled.check(self.root))
        object.__setattr__(self, "classes", compiled.classes)

    def holds(self, value: Any, size: int = 0) -> bool:
        """Whether `value` is exactly of this shape, in at most `size` + SPARE_PARTS parts."""
        try:
            return self._check(value, [size + SPARE_PARTS])
        except (_TooLarge, RecursionError):
            return False
        except Exception:  # noqa: BLE001 - a value of another shape may fail a test in any way: it is not this one
            return False


@cache
def plain_shape(annotation: Any) -> Shape:
    return Shape(annotation)


def conforms(value: Any, annotation: Any) -> bool:
    """Whether a part of a value already read (and held to its entry's shape) is of `annotation`."""
    return plain_shape(annotation).holds(value, size=1 << 20)


def _spend(budget: list[int], parts: int) -> None:
    """A container's parts are counted as it is entered: the scalars in it cost no call of their own."""
    budget[0] -= parts
    if budget[0] < 0:
        raise _TooLarge


class _Compiler:
    def __init__(self, shape: Shape) -> None:
        self.shape = shape
        self.made: dict[Any, Check] = {}
        self.classes: dict[tuple[str, str], type] = {}

    def check(self, hint: Any) -> Check:
        if hint not in self.made:
            self.made[hint] = self.made_check(hint)
        return self.made[hint]

    def made_check(self, hint: Any) -> Check:
        origin, arguments = typing.get_origin(hint), typing.get_args(hint)
        if hint is Any:
            return _data
        if hint is None or hint is type(None):
            return _exactly(type(None))
        if hint in (str, bytes, bool):
            return _exactly(hint)
        if hint is int:
            return _int
        if hint is float:
            return _float
        if hint is Path:
            self.classes[_PATH.__module__, _PATH.__qualname__] = _PATH
            return _path
        if origin is Annotated:
            return _passing(self.check(arguments[0]), hint.__metadata__)
        if origin in (typing.Union, types.UnionType):
            return _any_of([self.check(member) for member in arguments])
        if origin is list:
            return _sequence_of(list, self.check(arguments[0]))
        if origin is tuple:
            if len(arguments) == 2 and arguments[1] is Ellipsis:
                return _sequence_of(tuple, self.check(arguments[0]))
            return _tuple([self.check(argument) for argument in arguments])
        if origin is dict:
            return _dict_of(self.check(arguments[0]), self.check(arguments[1]))
        if isinstance(hint, type):
            self.classes[hint.__module__, hint.__qualname__] = hint
            return self.instance(hint)
        raise TypeError(f"no shape for {hint!r}")

    def instance(self, cls: type) -> Check:
        fields: dict[str, Check] = {}
        rule = self.shape.rules.get(cls)

        def check(value: Any, budget: list[int]) -> bool:
            if type(value) is not cls:
                return False
            state = vars(value)
            _spend(budget, len(state) + 1)
            if state.keys() != fields.keys():
                return False
            for name, shape in fields.items():
                if not shape(state[name], budget):
                    return False
            return rule is None or bool(rule(value))

        # After `check` is known: a class whose fields hold it (a tree's node) takes it.
        self.made[cls] = check
        if dataclasses.is_dataclass(cls):
            own = self.shape.fields.get(cls, {})
            for name, hint in _field_hints(cls).items():
                fields[name] = self.check(own.get(name, hint))
        return check


@cache
def _field_hints(cls: type) -> dict[str, Any]:
    hints = typing.get_type_hints(cls, include_extras=True)
    return {item.name: hints[item.name] for item in dataclasses.fields(cls)}


def _exactly(kind: type) -> Check:
    def check(value: Any, budget: list[int]) -> bool:
        return type(value) is kind

    return check


_LOWEST, _HIGHEST = -(1 << INT_BITS), 1 << INT_BITS


def _int(value: Any, budget: list[int]) -> bool:
    return type(value) is int and _LOWEST <= value < _HIGHEST


def _float(value: Any, budget: list[int]) -> bool:
    return _int(value, budget) if type(value) is int else type(value) is float and math.isfinite(value)


def _path(value: Any, budget: list[int]) -> bool:
    """A path that behaves as the path its text names (unpickling may set a path's inner parts apart)."""
    if type(value) is not _PATH:
        return False
    plain = _PATH(str(value))
    return (type(value.parts) is tuple and value.parts == plain.parts and plain == value and value == plain
            and hash(value) == hash(plain) and value.as_posix() == plain.as_posix())


def _data(value: Any, budget: list[int]) -> bool:
    """What YAML gives: None, bool, int, float, str, and lists and dicts of them, keyed by the plain ones."""
    kind = type(value)
    if kind in _SCALARS:
        return kind is not int or _LOWEST <= value < _HIGHEST
    if kind is list:
        _spend(budget, len(value) + 1)
        return all(_data(item, budget) for item in value)
    if kind is dict:
        _spend(budget, 2 * len(value) + 1)
        return all(type(key) in _SCALARS and _data(key, budget) and _data(item, budget) for key, item in value.items())
    return False


def _passing(base: Check, tests: tuple[Callable[[Any], bool], ...]) -> Check:
    def check(value: Any, budget: list[int]) -> bool:
        return base(value, budget) and all(test(value) for test in tests)

    return check


def _any_of(members: list[Check]) -> Check:
    def check(value: Any, budget: list[int]) -> bool:
        return any(member(value, budget) for member in members)

    return check


def _sequence_of(kind: type, item: Check) -> Check:
    """A list or a tuple (exactly `kind`) whose every element is `item`'s."""
    def check(value: Any, budget: list[int]) -> bool:
        if type(value) is not kind:
            return False
        _spend(budget, len(value) + 1)
        return all(item(element, budget) for element in value)

    return check


def _tuple(items: list[Check]) -> Check:
    def check(value: Any, budget: list[int]) -> bool:
        if type(value) is not tuple or len(value) != len(items):
            return False
        _spend(budget, len(value) + 1)
        return all(item(element, budget) for item, element in zip(items, value, strict=True))

    return check


def _dict_of(key: Check, item: Check) -> Check:
    def check(value: Any, budget: list[int]) -> bool:
        if type(value) is not dict:
            return False
        _spend(budget, 2 * len(value) + 1)
        for name, element in value.items():
            if not (key(name, budget) and item(element, budget)):
                return False
        return True

    return check
