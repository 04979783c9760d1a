"""Hand-in codes: a learner's results on one page as one line of text (made by the page's handin.js), and
`zadachnik gradebook`, which turns a CSV file of them (a form's export, say) into a table per learner and
question. tests/vectors/handin.json holds cases the page's encoder and this decoder both run.

A code is "ZDK1." + base64url of the results' JSON + "." + the CRC-32 of that base64 text in hex. The checksum
tells a code that was cut or changed on its way from one that arrived whole; it is no seal: a learner who wants
to can make a code of any results, as they could type any answer into the page."""

from __future__ import annotations

import base64
import binascii
import csv
import io
import json
import re
import unicodedata
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import chain, pairwise
from typing import Any

PREFIX = "ZDK1"
# What is no part of a code wherever it stands: Unicode white space (a no-break space a form or a mail program put
# in) and the invisible characters copying adds (zero-width spaces and joiners, byte-order marks). A code is ASCII.
# Other invisible format characters (a soft hyphen, a direction mark) go too: see without_spacing.
SPACING = re.compile(r"[\s\u200b-\u200d\u2060\ufeff]+")
# Where a code, or what is left of one, starts in a cell's text without spacing: the prefix and a character of a
# code ("ZDK1.…" in a form's question is no code).
CODE_START = re.compile(rf"{PREFIX}\.[A-Za-z0-9_-]")
# A code as far as it goes, from its prefix: the payload however changed, and the checksum's eight digits; what
# follows them (a full stop, the learner's words) is no part of it.
CODE_EXTENT = re.compile(rf"{PREFIX}\.[^.]*\.[0-9a-f]{{8}}")
STATUSES = ("correct", "wrong", "partial", "unanswered", "unreadable")
COLUMNS = ("course", "module", "question", "variant", "status", "score", "answer", "handed_in")
# The longest code read (a form's cell is rarely larger): a bigger one is refused, not decoded into memory.
LONGEST_CODE = 1_000_000
# Times are Unix seconds: this is the year 2500, past any page's clock.
LATEST_TIME = 16_725_225_600
# The separators spreadsheets write: a comma; a semicolon where the comma is the decimal mark (Excel in a Russian or
# German locale); a tab (rows copied out of a sheet).
DELIMITERS = ",;\t"
# The separator is told from a file's first lines: enough to see it repeat, few enough to be quick with long codes.
SNIFFED_LINES, SNIFFED_CHARACTERS = 20, 65_536
# What Excel's "CSV" is in a Russian locale, and in a Western European one; its "CSV UTF-8" is UTF-8.
WINDOWS_1251, WINDOWS_1252 = "cp1251", "cp1252"
CODE_PAGES = {WINDOWS_1251: "Windows-1251 (Cyrillic)", WINDOWS_1252: "Windows-1252 (Western European)"}
# Bytes outside ASCII in a row, and those of them that are letters in both code pages (А-я; À-ÿ).
NOT_ASCII, LETTER = re.compile(rb"[\x80-\xff]+"), re.compile(rb"[\xc0-\xff]")
# Half of a character: a UTF-16 surrogate alone, which JSON.stringify writes as an escape (\ud83d) when a text holds
# an emoji cut in two. No output encoding can hold one; Python's JSON reader joins the halves of a whole character.
HALF_CHARACTER = re.compile("[\ud800-\udfff]")
# What form tools name their column of times (Google Forms, Microsoft Forms; in English, Russian, German, French and
# Spanish), spacing and case aside: a time differs in each row of one learner, so it says nothing of who.
TIME_HEADERS = frozenset({
    "timestamp", "time", "date", "date and time", "submitted", "submitted at", "start time", "completion time",
    "last modified time", "отметка времени", "время", "дата", "дата и время", "время начала", "время завершения",
    "zeitstempel", "zeit", "datum", "startzeit", "fertigstellungszeit", "horodateur", "heure de début",
    "heure de fin", "marca temporal", "hora de inicio", "hora de finalización"})
# Microsoft Forms numbers each response in a column "ID" beside these (in each of its languages): a number per row,
# not per learner. Elsewhere an "ID" is the teacher's own, a student's number, and says who.
RESPONSE_NUMBER_HEADER = "id"
COMPLETION_TIME_HEADERS = frozenset({"completion time", "время завершения", "fertigstellungszeit", "heure de fin",
                                     "hora de finalización"})
# A cell that is a moment as form tools and spreadsheets write one: a time of day, after a date (day, month and year
# in any order) or not, then AM or PM and a zone (capitals: UTC, GMT+3, CEST), or not. A date alone is no moment: a
# birthday tells learners apart, and so does a word after a time ("10:30 lab", a lesson).
MOMENT = re.compile(r"(\d{1,4}[./-]\d{1,2}[./-]\d{1,4}(,?\s+|T))?\d{1,2}:\d{2}(:\d{2}([.,]\d+)?)?"
                    r"(\s*(?i:[ap]\.?\s?m\.?))?(\s*(Z|[A-Z]{3,5})?([+-]\d{1,2}(:?\d{2})?)?)?")


class DamagedCode(ValueError):
    """A code that cannot be read back, with what is wrong in words for the teacher."""


@dataclass(frozen=True)
class Results:
    course: str
    module: str
    time: int
    # (id, variant or None, status or None for not checked, score or None, the learner's own text)
    questions: tuple[tuple[str, int | None, str | None, float | None, str], ...]
    # Whether a text held half of a character (HALF_CHARACTER), now U+FFFD: the results are whole, a text is not.
    mended: bool = False


def _base64url(text: str) -> str:
    return base64.urlsafe_b64encode(text.encode("utf-8")).decode("ascii").rstrip("=")


def hand_in_code(results: dict[str, Any]) -> str:
    """The code the page makes of `results` ({course, module, time, questions}), byte for byte as handin.js."""
    text = json.dumps({"v": 1, "c": results["course"], "m": results["module"], "t": results["time"],
                       "q": results["questions"]}, ensure_ascii=False, separators=(",", ":"))
    payload = _base64url(text)
    return f"{PREFIX}.{payload}.{zlib.crc32(payload.encode('ascii')):08x}"


def without_spacing(text: str) -> str:
    """The text without spacing (SPACING) or any invisible format character (Unicode's Cf, such as a soft hyphen a
    word processor put in, or a direction mark from a right-to-left page), none of which is part of a code."""
    text = SPACING.sub("", text)
    # Every format character is outside ASCII: a cell of ASCII, as a code is, has none to look for.
    return text if text.isascii() else "".join(char for char in text if unicodedata.category(char) != "Cf")


def code_text(text: str) -> str:
    """The code in a cell's text without spacing (without_spacing), without what is around it: words and quotes
    before it, and whatever follows its checksum (CODE_EXTENT). What cannot be told apart from a damaged code's end
    (words after a code that lost its checksum) stays, and reads as damaged."""
    start = CODE_START.search(text)
    if start is None:
        return text
    text = text[start.start():]
    whole = CODE_EXTENT.match(text)
    # A full stop or a quote after a code without its checksum is not taken for a checksum left empty.
    return whole[0] if whole else re.sub(r"[^A-Za-z0-9_-]+$", "", text)


def codes_in(text: str) -> list[str]:
    """The codes in a text without spacing, whole or not (code_text), each once: one code pasted twice is one."""
    starts = [found.start() for found in CODE_START.finditer(text)]
    return list(dict.fromkeys(code_text(text[start:end]) for start, end in pairwise([*starts, len(text)])))


def read_code(code: str) -> Results:
    """The results a code holds; raises DamagedCode. Spaces, line breaks and invisible characters a form or a mail
    program put in are ignored (without_spacing), and so are words, quotes or a full stop around it (code_text), and
    the code's copy when it was pasted twice (codes_in)."""
    if len(code) > LONGEST_CODE:
        raise DamagedCode(f"the code is {len(code):,} characters long, more than any page makes")
    text = without_spacing(code)
    found = codes_in(text)
    if len(found) > 1:
        raise DamagedCode("this is more than one hand-in code")
    joined = found[0] if found else text
    parts = joined.split(".")
    if len(parts) != 3 or parts[0] != PREFIX:
        raise DamagedCode(f"this is not a whole hand-in code (it should read {PREFIX}.…….xxxxxxxx)")
    _, payload, checksum = parts
    if not re.fullmatch(r"[0-9a-f]{8}", checksum) or not re.fullmatch(r"[A-Za-z0-9_-]*", payload):
        raise DamagedCode("the code has characters no hand-in code has: it was changed on its way")
    if f"{zlib.crc32(payload.encode('ascii')):08x}" != checksum:
        raise DamagedCode("the code's checksum does not match: part of it was lost or changed on its way")
    try:
        data = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)).decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError, ValueError):
        raise DamagedCode("the code's checksum matches but its contents cannot be read") from None
    return _results(data)


def _results(data: Any) -> Results:
    problem = DamagedCode("the code's contents are not a page's results")
    if not isinstance(data, dict) or data.get("v") != 1:
        raise problem
    course, module, time, questions = data.get("c"), data.get("m"), data.get("t"), data.get("q")
    if not (isinstance(course, str) and isinstance(module, str) and type(time) is int and isinstance(questions, list)):
        raise problem
    if not 0 <= time < LATEST_TIME:
        raise problem
    read = []
    for entry in questions:
        if not isinstance(entry, list) or len(entry) != 5:
            raise problem
        qid, variant, status, score, text = entry
        if not isinstance(qid, str) or not isinstance(text, str):
            raise problem
        if variant is not None and type(variant) is not int:
            raise problem
        if status is not None and status not in STATUSES:
            raise problem
        if score is not None and (type(score) not in (int, float) or not 0 <= score <= 1):
            raise problem
        read.append((qid, variant, status, score, text))
    mended = any(HALF_CHARACTER.search(text) for text in [course, module, *(entry[0] for entry in read),
                                                          *(entry[4] for entry in read)])
    return Results(whole(course), whole(module), time, tuple(
        (whole(qid), variant, status, score, whole(text)) for qid, variant, status, score, text in read), mended)


def whole(text: str) -> str:
    """The text with each half of a character (HALF_CHARACTER) replaced by U+FFFD, which UTF-8 can hold."""
    return HALF_CHARACTER.sub("\ufffd", text)


@dataclass
class Gradebook:
    table: str
    # "row N: what is wrong", for each row left out
    problems: list[str]
    codes: int
    # What the reading decided that the teacher should know: which row it took for the header, and the codes
    # handed in more than once (repeated_hand_ins).
    notes: list[str] = field(default_factory=list)
    # The input's separator, which the table keeps: the spreadsheet that wrote the file reads it back.
    delimiter: str = ","


def file_text(data: bytes) -> tuple[str, str]:
    """A CSV file's text and what it was read as: UTF-8 (after a byte-order mark or not), else the Windows code page
    its letters show (code_page), else the other when the bytes are only that; raises ValueError saying to save the
    file as UTF-8."""
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        pass
    for encoding in dict.fromkeys((code_page(data), WINDOWS_1251, WINDOWS_1252)):
        try:
            text = data.decode(encoding)
        except UnicodeDecodeError:
            continue
        # No text file holds a NUL: UTF-16 (Excel's "Unicode text") or a binary file decodes so, as nonsense.
        if "\0" in text:
            break
        return text, encoding
    raise ValueError("it is neither UTF-8 nor Windows-1251 nor Windows-1252 text; save it as a UTF-8 CSV file "
                     "(Excel: 'CSV UTF-8')")


def code_page(data: bytes) -> str:
    """Windows-1252 or Windows-1251, whichever a file's letters outside ASCII show it is. A Western accented letter
    stands in a word of Latin letters, alone or beside one more (Jörg, Lefèvre, Größe); Cyrillic letters come in
    runs of words (Иван), also when a Latin look-alike typed in a name cuts it (Пeтров: П, then трович beside the
    Latin e); a letter standing alone (the Russian 'в', the French 'à') tells neither. Windows-1251, as before,
    unless more letters say Windows-1252."""
    western = cyrillic = 0
    for run in NOT_ASCII.finditer(data):
        letters = len(LETTER.findall(run[0]))
        beside = data[max(run.start() - 1, 0):run.start()] + data[run.end():run.end() + 1]
        if letters > 2 or letters == 2 and not re.search(rb"[A-Za-z]", beside):
            cyrillic += letters
        elif letters and re.search(rb"[A-Za-z]", beside):
            western += letters
    return WINDOWS_1252 if western > cyrillic else WINDOWS_1251


def delimiter_of(text: str) -> str:
    """The separator of a CSV text, told by its first lines; a comma when they do not tell (a column of codes)."""
    lines = io.StringIO(text)
    sample = "".join(lines.readline() for _ in range(SNIFFED_LINES))[:SNIFFED_CHARACTERS]
    try:
        return csv.Sniffer().sniff(sample, delimiters=DELIMITERS).delimiter
    except csv.Error:
        return ","


def gradebook(text: str) -> Gradebook:
    """A CSV of hand-in codes (one per row, in any column; the row's other cells say who) as a table with one row
    per learner and question, separated as the input is (delimiter_of). The first row is the header when it names
    the columns (header_row), and a line says so; rows whose code is damaged, or that have none, are left out and
    named; codes handed in more than once are noted (repeated_hand_ins)."""
    csv.field_size_limit(max(csv.field_size_limit(), LONGEST_CODE + 1))
    delimiter = delimiter_of(text)
    try:
        rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    except csv.Error as error:
        raise ValueError(f"this is not a CSV file ({error})") from None
    code_column = codes_column(rows)
    header: list[str] | None = None
    notes: list[str] = []
    first = 1
    if rows and header_row(rows[0], code_column):
        header, rows, first = rows[0], rows[1:], 2
        notes.append(f"row 1 is read as the header, since it holds no code: {', '.join(header)}")
    problems: list[str] = []
    # Per code read: who handed it in (the row's other cells) and its table rows after them.
    read: list[tuple[list[str], list[list[str]]]] = []
    hand_ins: list[HandIn] = []
    for number, row in enumerate(rows, start=first):
        if not any(cell.strip() for cell in row):
            continue
        found = code_cells(row)
        if len(found) != 1:
            problems.append(f"row {number}: " + ("no hand-in code in this row" if not found
                                                 else "more than one hand-in code in this row: give each its row")
                            + (NOT_THE_HEADER if number == 1 and not found else ""))
            continue
        try:
            results = read_code(row[found[0]])
        except DamagedCode as error:
            problems.append(f"row {number}: {error}; ask for the code again")
            continue
        if results.mended:
            # Asking again would not help: the page makes the same code of the same saved text.
            notes.append(f"row {number}: the code holds half of a character (an emoji cut in two), shown as \ufffd in "
                         "the table; its results are read whole")
        who = tuple(cell for index, cell in enumerate(row) if index != found[0])
        hand_ins.append(HandIn(number, who, code_text(without_spacing(row[found[0]])), results.course, results.module,
                               tuple(question[0] for question in results.questions)))
        handed_in = datetime.fromtimestamp(results.time, UTC).isoformat(timespec="seconds")
        # All but the status, score and time come from the file or the code, which a learner can make of any text.
        read.append(([inert(cell) for cell in who], [
            [inert(results.course), inert(results.module), inert(qid), "" if variant is None else inert(str(variant)),
             status or "not checked", "" if score is None else score_text(score, delimiter), inert(answer), handed_in]
            for qid, variant, status, score, answer in results.questions]))
    # The columns that say who: the header's names for them, "column N" where it has none.
    others = max((len(who) for who, lines in read if lines), default=0)
    named = [cell for index, cell in enumerate(header or []) if index != code_column]
    # A header read from a learner's row (a file without one) is the learner's text.
    header_cells = [inert(cell) for cell in named]
    names = [header_cells[index] if index < len(header_cells) else f"column {index + 1}" for index in range(others)]
    out = io.StringIO()
    writer = csv.writer(out, delimiter=delimiter, lineterminator="\n")
    writer.writerow([*names, *COLUMNS])
    for who, lines in read:
        writer.writerows([*who, *[""] * (others - len(who)), *line] for line in lines)
    times = time_columns(named, [hand_in.who for hand_in in hand_ins])
    return Gradebook(out.getvalue(), problems, len(read), [*notes, *repeated_hand_ins(hand_ins, times)], delimiter)


@dataclass(frozen=True)
class HandIn:
    """A code read from a row: what tells the same hand-in, or the same learner's, in another row."""
    row: int
    who: tuple[str, ...]
    code: str
    course: str
    module: str
    # The ids of what the code reports on: two pages of one module (its quiz, its exercises) report on others.
    questions: tuple[str, ...]

    def overlaps(self, other: HandIn) -> bool:
        return not set(self.questions).isdisjoint(other.questions)


def plain(cell: str) -> str:
    return " ".join(cell.split()).casefold()


def time_columns(header: list[str], who: list[tuple[str, ...]]) -> set[int]:
    """The columns among those saying who that the form fills in per response, not per learner: times, by their
    header's name (TIME_HEADERS) or by every row's cell there (MOMENT), as in a file without a header; and Microsoft
    Forms' response number (RESPONSE_NUMBER_HEADER, in a file with its completion time)."""
    width = max(map(len, who), default=0)
    names = [plain(name) for name in header]
    microsoft_forms = not COMPLETION_TIME_HEADERS.isdisjoint(names)
    return {index for index in range(width)
            if (index < len(names) and (names[index] in TIME_HEADERS
                                        or microsoft_forms and names[index] == RESPONSE_NUMBER_HEADER))
            or all(index < len(cells) and MOMENT.fullmatch(cells[index].strip()) for cells in who)}


def same_learner(who: tuple[str, ...], times: set[int]) -> tuple[str, ...]:
    """The cells saying who, as two rows of one learner have them: spacing and case aside, the times (time_columns)
    and empty cells at the end left out (a form's column filled in one row only)."""
    cells = [plain(cell) if index not in times else "" for index, cell in enumerate(who)]
    while cells and not cells[-1]:
        cells.pop()
    return tuple(cells)


def repeated_hand_ins(hand_ins: list[HandIn], times: set[int]) -> list[str]:
    """A note for each code in several rows, and for each learner with several codes of one module that report on
    the same questions (overlapping): the table has them all, so a sum over it would count them again. Rows that say
    nothing of who are no learner's."""
    rows_of_code: dict[str, list[int]] = defaultdict(list)
    # (who, course, module): each code of theirs, with the first row that holds it
    codes_of_learner: dict[tuple[tuple[str, ...], str, str], dict[str, HandIn]] = defaultdict(dict)
    for hand_in in hand_ins:
        rows_of_code[hand_in.code].append(hand_in.row)
        learner = same_learner(hand_in.who, times)
        if learner:
            codes_of_learner[learner, hand_in.course, hand_in.module].setdefault(hand_in.code, hand_in)
    notes = [f"rows {row_list(rows)} hold the same code: the table has its results once per row, so a "
             "sum over it counts them more than once" for rows in rows_of_code.values() if len(rows) > 1]
    for (_, course, module), codes in codes_of_learner.items():
        for repeat in overlapping(list(codes.values())):
            who = ", ".join(cell for index, cell in enumerate(repeat[0].who) if index not in times and cell.strip())
            notes.append(f"rows {row_list([hand_in.row for hand_in in repeat])} name the same learner ({who}) for "
                         f"course {course}, module {module}, with results for the same questions "
                         f"({listed(shared_questions(repeat))}): the table has each code's results, so a sum over it "
                         "counts them more than once")
    return notes


def overlapping(hand_ins: list[HandIn]) -> list[list[HandIn]]:
    """The hand-ins that share questions with another, in groups of those that do (codes of one page; a module's
    quiz and its exercises are two pages, whose codes complete each other), in the order of their rows."""
    groups: list[list[HandIn]] = []
    for hand_in in hand_ins:
        joined = [group for group in groups if any(map(hand_in.overlaps, group))]
        groups = [group for group in groups if group not in joined] + [[*chain.from_iterable(joined), hand_in]]
    return sorted((sorted(group, key=lambda hand_in: hand_in.row) for group in groups if len(group) > 1),
                  key=lambda group: group[0].row)


def shared_questions(hand_ins: list[HandIn]) -> list[str]:
    """The questions in more than one of the hand-ins, in the order their pages give them."""
    counted = Counter(question for hand_in in hand_ins for question in set(hand_in.questions))
    return [question for question in dict.fromkeys(chain.from_iterable(hand_in.questions for hand_in in hand_ins))
            if counted[question] > 1]


# Row numbers (or questions) a note lists before it counts the rest: a file of one code copied a thousand times makes
# one short line.
LISTED_ROWS = 10


def listed(items: list[str]) -> str:
    shown = ", ".join(items[:LISTED_ROWS])
    return shown if len(items) <= LISTED_ROWS else f"{shown} and {len(items) - LISTED_ROWS:,} more"


def row_list(rows: list[int]) -> str:
    return listed([str(row) for row in rows])


def score_text(score: float, delimiter: str) -> str:
    """A score as the spreadsheet that wrote the file reads a number: with a decimal comma when its cells are
    separated by semicolons, as they are where the comma is the decimal mark."""
    text = f"{score:g}"
    return text.replace(".", ",") if delimiter == ";" else text


NOT_THE_HEADER = " (its cell in the codes' column is empty, so it is not read as the header)"


def code_count(cell: str) -> int:
    """How many codes, whole or not, a cell holds: one pasted twice counts once."""
    return len(codes_in(without_spacing(cell)))


def code_cells(row: list[str]) -> list[int]:
    """The index of the cell of each code in a row, once per code: a cell holding two is named twice."""
    return [index for index, cell in enumerate(row) for _ in range(code_count(cell))]


def codes_column(rows: list[list[str]]) -> int | None:
    """The column most rows hold their code in (None: no row holds one): the header's name for it names no one."""
    counted = Counter(found[0] for found in map(code_cells, rows) if len(found) == 1)
    return counted.most_common(1)[0][0] if counted else None


def header_row(row: list[str], code_column: int | None) -> bool:
    """Whether a first row names the columns: it holds no code, and its cell in the codes' column is not empty. A
    header names that column; a learner who left the code out, in a file without a header, leaves it empty (their
    row was taken for the header, their name for a column's, and nothing said so)."""
    if code_cells(row):
        return False
    if code_column is None:
        return True
    return code_column < len(row) and bool(without_spacing(row[code_column]))


# What a spreadsheet takes for the start of a formula: a learner's text (or a form's cell) that starts so gets a
# quote before it, which spreadsheets show as text (OWASP's advice on CSV injection).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def inert(cell: str) -> str:
    return "'" + cell if cell.startswith(FORMULA_START) else cell
