"""Runs modules' values files and their variant functions, at build time only: the figures a page shows are
computed when the site is built, never in the browser.

Kept apart from zadachnik.python.pyrunner, which the browser's worker loads too: what ships to learners is only
what their pages run. The build's runner (zadachnik.python.serve) adds HANDLERS to pyrunner's, so
`pyrunner.handle("values" | "variants", …)` runs these in the same fresh namespace, with the same snapshot put
back and the same time limits as every other call.
"""

from __future__ import annotations

import math
import os
import runpy
import sys
import traceback
from collections.abc import Callable
from numbers import Integral, Real
from pathlib import Path
from typing import Any

from zadachnik.python.pyrunner import (
    Output,
    TimeLimit,
    _BaseException,
    _bool,
    _dict,
    _float,
    _int,
    _is_bool,
    _isinstance,
    _len,
    _repr,
    _still_in_time,
    _str,
    _text_of,
    _type,
    describe_error,
    learner_process,
)


def run_values(path: str, optional: bool = False, **_: Any) -> dict[str, Any]:
    """A module's values file (its folder importable, as for its notebooks): its `values()`, checked to be a dict
    of names to finite numbers. An error carries the file and line (in the module's folder) where it happened.
    `optional`: a file that only defines variant functions gives no values."""
    file = Path(path)

    def call(namespace: dict[str, Any]) -> dict[str, Any]:
        if not callable(namespace.get("values")):
            if optional:
                return {"values": {}}
            return {"error": {"text": f"{file.name} must define a function values() returning a dict of numbers"}}
        # Called with the folder still importable: values() may import the module's other files.
        numbers = _numbers_of(namespace["values"](), f"values() in {file.name}")
        return {"values": numbers["numbers"]} if "numbers" in numbers else numbers

    return _in_values_file(file, call)


def variant_seed(question: str, seed: int) -> str:
    """What question `question`'s draw with seed k is seeded by: "P05/3". Neighbouring integer seeds gave
    variants that shared figures (random.Random(3) and random.Random(4) drew the same first choice in four
    questions of the sample course), and two questions drawing from one function drew the same figures; a text
    seeds Python's generator through SHA-512, the same in every Python since 3.2."""
    return f"{question}/{seed}"


def run_variants(path: str, function: str, seeds: list[int], question: str = "", **_: Any) -> dict[str, Any]:
    """A question's variant function in the module's values file, called once per seed with
    `random.Random(variant_seed(question, seed))`: {"variants": [{"seed", "values"} or {"seed", "error"}, ...]},
    in the seeds' order. A draw the function rejects (it raises, or returns no dict of numbers) is an error of
    that seed only."""
    # Imported by the first draw, not with the runner: each call's record of what it read lists every module
    # loaded so far (serve._opened_now).
    import random

    file = Path(path)

    def call(namespace: dict[str, Any]) -> Any:
        if not callable(namespace.get(function)):
            return {"error": {"text": f"{file.name} defines no function {function}(rng)"}}
        drawn = []
        for seed in seeds:
            try:
                returned = namespace[function](random.Random(variant_seed(question, seed)))
            except TimeLimit:
                raise
            except _BaseException as error:  # noqa: BLE001 - the author's code: reported with its place
                _still_in_time()
                drawn.append({"seed": seed, "error": {**describe_error(error, path), **_place_in(error, file.parent)}})
                continue
            numbers = _numbers_of(returned, f"{function}(rng)")
            drawn.append({"seed": seed, **({"values": numbers["numbers"]} if "numbers" in numbers else numbers)})
        return {"variants": drawn}

    return _in_values_file(file, call)


def _in_values_file(file: Path, call: Callable[[dict[str, Any]], dict[str, Any]]) -> dict[str, Any]:
    """`call(namespace)` of the values file run from its own folder (as its notebooks are: a relative path names a
    file beside it, and its folder is importable); an error of the file itself is {"error"} with its place."""
    sys.path.insert(0, str(file.parent))
    os.chdir(str(file.parent))
    output = Output()
    try:
        with learner_process(output):
            try:
                return call(runpy.run_path(str(file)))
            except TimeLimit:
                raise
            except _BaseException as error:  # noqa: BLE001 - the author's code: reported with its place
                _still_in_time()
                return {"error": {**describe_error(error, str(file)), **_place_in(error, file.parent)}}
    finally:
        _forget_modules_in(file.parent)


def _numbers_of(result: Any, what: str) -> dict[str, Any]:
    """{"numbers": {name: int or float}} of a dict an author's function returned, or {"error"} saying why not."""
    if not _isinstance(result, _dict):
        return {"error": {"text": f"{what} must return a dict of names to numbers, not {_type(result).__name__}"}}
    numbers: dict[str, float | int] = {}
    for name, value in result.items():
        # NumPy's numbers count (they register as numbers.Real); True and False do not.
        if not _isinstance(value, Real) or _isinstance(value, _bool) or _is_bool(value):
            return {"error": {"text": f"{what} gives {_text_of(value, _repr)[:60]} for '{name}': "
                                      "each value must be a number"}}
        number = _int(value) if _isinstance(value, Integral) else None
        try:
            # The page writes each figure as a float would be written.
            as_float = _float(value if number is None else number)
        except OverflowError:
            shown = f"an integer of {_digits(number)} digits" if number is not None else _text_of(value, _repr)[:60]
            return {"error": {"text": f"{what} gives {shown} for '{name}': each value must fit in a float "
                                      "(at most 1.8e308)"}}
        if not math.isfinite(as_float):
            return {"error": {"text": f"{what} gives {as_float} for '{name}': each value must be a finite number"}}
        numbers[_str(name)] = as_float if number is None else number
    return {"numbers": numbers}


def _digits(number: int) -> str:
    try:
        return _str(_len(_str(abs(number))))
    except ValueError:  # past what Python writes as digits at all
        return f"more than {sys.get_int_max_str_digits()}"


def _place_in(error: BaseException, folder: Path) -> dict[str, Any]:
    """The innermost line of the module's own files the error went through: {"file", "line"}."""
    place: dict[str, Any] = {}
    for frame in traceback.extract_tb(error.__traceback__):
        if frame.filename and Path(frame.filename).parent == folder or str(frame.filename).startswith(
                str(folder) + os.sep):
            place = {"file": frame.filename, "line": frame.lineno or 0}
    if _isinstance(error, SyntaxError) and error.filename and str(error.filename).startswith(str(folder)):
        place = {"file": error.filename, "line": error.lineno or 0}
    return place


def _forget_modules_in(folder: Path) -> None:
    """The folder's own modules are imported afresh next time: two modules may each have a helper.py."""
    prefix = str(folder) + os.sep
    for name, module in list(sys.modules.items()):
        if str(getattr(module, "__file__", None) or "").startswith(prefix):
            del sys.modules[name]


# The build-only kinds of call, added to pyrunner.HANDLERS by the build's runner.
HANDLERS: dict[str, Callable[..., dict[str, Any]]] = {"values": run_values, "variants": run_variants}
