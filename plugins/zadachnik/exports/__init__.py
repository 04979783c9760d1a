"""`zadachnik export`: a course's questions for an LMS, one file or package per module and language.

The formats are listed once, in `formats()`: a new one is a module with a FORMAT and one line there. What all of
them share (which questions travel, their text as HTML with TeX, absolute tolerances) is in `common`."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from zadachnik.exports.common import ModuleExport, Skipped, TextRenderer, module_export
from zadachnik.reading.model import Course, Module, Question


@dataclass(frozen=True)
class ExportFormat:
    name: str
    summary: str
    # The file one module's export is written to, in the output folder.
    file_name: Callable[[ModuleExport], str]
    write: Callable[[ModuleExport], bytes]
    # Why the format cannot carry a question (None: it can), and lines about what it carries with less.
    refuses: Callable[[Question], str | None] = lambda question: None
    notes: Callable[[ModuleExport, Question], list[str]] = lambda export, question: []


def formats() -> dict[str, ExportFormat]:
    from zadachnik.exports import gift, moodle, qti
    from zadachnik.exports.common import moodle_refuses

    listed = [
        ExportFormat("moodle", "Moodle XML", moodle.file_name, moodle.moodle_xml, refuses=moodle_refuses,
                     notes=moodle.notes),
        ExportFormat("gift", "GIFT text for pasting into Moodle", gift.file_name, gift.gift_text,
                     refuses=gift.refuses, notes=gift.notes),
        ExportFormat("qti", "an IMS QTI 2.1 content package (zip)", qti.file_name, qti.qti_package,
                     refuses=qti.refuses, notes=qti.notes),
    ]
    return {listed_format.name: listed_format for listed_format in listed}


class SelectionError(ValueError):
    """A course or module the sources do not have: one line for the author."""


def select_modules(courses: list[Course], selection: str | None) -> list[tuple[Course, Module]]:
    """COURSE or COURSE/MODULE (a module's folder name or its number); none: every module of every course."""
    if not selection:
        return [(course, module) for course in courses for module in course.modules]
    course_id, _, module_name = selection.partition("/")
    by_id = {course.id: course for course in courses} | {course.path.name: course for course in courses}
    course = by_id.get(course_id)
    if course is None:
        known = ", ".join(course.id for course in courses) or "none"
        raise SelectionError(f"no course '{course_id}' in the sources: the courses are {known}")
    if not module_name:
        return [(course, module) for module in course.modules]
    for module in course.modules:
        if module_name in (module.slug, str(module.number)):
            return [(course, module)]
    known = ", ".join(f"{module.slug} ({module.number})" for module in course.modules) or "none"
    raise SelectionError(f"no module '{module_name}' in the course '{course.id}': its modules are {known}")


@dataclass
class Written:
    path: Path
    export: ModuleExport


def export_modules(modules: list[tuple[Course, Module]], export_format: ExportFormat, lang: str,
                   out: Path, footnotes: dict[str, Any] | None = None) -> tuple[list[Written], list[str]]:
    """Every file made in memory first, then each written whole: no file is ever left half-written. Returns the
    files written and the lines to print (questions left out, modules with nothing to export). `footnotes`: the
    options of the site's Markdown footnotes, when it has them."""
    text = TextRenderer(footnotes)
    exports = [module_export(course, module, lang, text) for course, module in modules]
    for export in exports:
        for question in list(export.questions):
            reason = export_format.refuses(question)
            if reason is not None:
                export.questions.remove(question)
                export.skipped.append(Skipped(question, reason))
            else:
                export.notes.extend(export_format.notes(export, question))
    lines: list[str] = []
    payloads: list[tuple[Path, bytes, ModuleExport]] = []
    for export in exports:
        place = f"{export.course.id}/{export.module.slug}"
        lines.extend(f"{place}: {line}" for line in [*map(str, export.skipped), *export.notes])
        if not export.questions:
            lines.append(f"{place}: no questions to export" + (" (it has no quiz)" if export.module.quiz is None
                                                               else ""))
            continue
        payloads.append((out / export_format.file_name(export), export_format.write(export), export))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for path, payload, export in payloads:
        write_whole(path, payload)
        written.append(Written(path, export))
    return written, lines


def write_whole(path: Path, payload: bytes) -> None:
    """Into a temporary file beside the target, then renamed over it: a reader sees the old file or the new one."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as output:
            output.write(payload)
        # mkstemp's file is private; an export is an ordinary file.
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
