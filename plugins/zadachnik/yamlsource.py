"""YAML with line numbers: authors' YAML errors and unknown keys are reported at their own line."""

from __future__ import annotations

import re
from typing import Any

import yaml

KeyPath = tuple[str, ...]


class YamlProblem(ValueError):
    def __init__(self, message: str, line_offset: int):
        super().__init__(message)
        self.line_offset = line_offset


# libyaml when PyYAML was built with it: parsing every block's YAML was a tenth of a build.
Loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def load_with_lines(text: str) -> tuple[Any, dict[KeyPath, int]]:
    """The YAML's value and, for each key path, its 0-based line within `text`."""
    control = _CONTROL.search(text)
    if control:
        raise YamlProblem(
            f"YAML cannot contain the control character {control.group()!r}: delete it (a paste from elsewhere?)",
            text.count("\n", 0, control.start()),
        )
    try:
        loader = Loader(text)
        try:
            node = loader.get_single_node()
            data = loader.construct_document(node) if node is not None else None
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        problem = error.problem or error.context or "invalid YAML"
        raise YamlProblem(f"YAML syntax error: {problem}", mark.line if mark else 0) from None
    except yaml.reader.ReaderError as error:
        line = text.count("\n", 0, error.position)
        raise YamlProblem(
            f"YAML cannot contain the control character {error.character!r}: delete it (a paste from elsewhere?)",
            line,
        ) from None
    lines: dict[KeyPath, int] = {}
    if node is not None:
        _walk(node, (), lines)
    return data, lines


def _walk(node: yaml.Node, path: KeyPath, lines: dict[KeyPath, int]) -> None:
    lines.setdefault(path, node.start_mark.line)
    if isinstance(node, yaml.MappingNode):
        seen: set[str] = set()
        for key_node, value_node in node.value:
            key = str(key_node.value)
            if key in seen:
                raise YamlProblem(
                    f"the key '{key}' is given twice (keep one of them)", key_node.start_mark.line
                )
            seen.add(key)
            lines[(*path, key)] = key_node.start_mark.line
            _walk(value_node, (*path, key), lines)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            _walk(item, (*path, str(index)), lines)
