"""Writes handin.json: hand-in codes the page's encoder (handin.js) must make byte for byte, and damaged codes
the gradebook's decoder must refuse, each with the kind of reason it gives.

Run: python tests/vectors/make_handin.py (the codes come from zadachnik.exports.handin.hand_in_code)."""

from __future__ import annotations

import base64
import json
import zlib
from pathlib import Path

from zadachnik.exports.handin import hand_in_code

CASES = [
    ("a quiz page, every status", {"course": "demo", "module": "1", "time": 1764720000, "questions": [
        ["Q1", None, "correct", 1, ""], ["Q2", None, "partial", 0.5, ""], ["Q3", None, "wrong", 0, ""],
        ["Q4", None, "unanswered", None, ""], ["Q5", None, "unreadable", None, ""],
        ["Q6", None, None, None, "not checked yet"]]}),
    ("variants, and text in Russian with quotes, a new line and an emoji", {
        "course": "modern-llms", "module": "9", "time": 1764720001, "questions": [
            ["P02", 3, "correct", 1, ""], ["P05", 7, "wrong", 0, ""],
            ["9.4.2", None, None, None, "Ответ: «да»,\n\"потому что\" 😀 \\ / \u2028 конец"]]}),
    # 40,003 bytes of UTF-8: more than one slice (32,768 bytes) of the page's encoder.
    ("a long answer", {"course": "c", "module": "12", "time": 0, "questions": [
        ["E1", None, None, None, "ж" * 20000 + "end"]]}),
    ("an empty page", {"course": "c", "module": "2", "time": 2000000000, "questions": []}),
]


def sealed(payload: str) -> str:
    return f"ZDK1.{payload}.{zlib.crc32(payload.encode('ascii')):08x}"


def forged(value: object) -> str:
    """A code whose checksum is right around contents that are not a page's results."""
    return sealed(base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("="))


def main() -> None:
    codes = [{"name": name, "results": results, "code": hand_in_code(results)} for name, results in CASES]
    good = codes[0]["code"]
    prefix, payload, checksum = good.split(".")
    changed = payload[:10] + ("A" if payload[10] != "A" else "B") + payload[11:]
    one = {"v": 1, "c": "c", "m": "1", "t": 1}
    damaged = [
        ("one character changed", f"{prefix}.{changed}.{checksum}", "checksum"),
        ("cut short", f"{prefix}.{payload[:-6]}.{checksum}", "checksum"),
        ("the checksum missing", f"{prefix}.{payload}", "whole"),
        ("another version", f"ZDK2.{payload}.{checksum}", "whole"),
        ("a character no code has", f"{prefix}.{payload[:5]}+{payload[6:]}.{checksum}", "characters"),
        ("a whole code of something else", forged({"hello": "world"}), "contents"),
        ("a score above 1", forged({**one, "q": [["Q1", None, "correct", 2, ""]]}), "contents"),
        ("an unknown status", forged({**one, "q": [["Q1", None, "toString", 1, ""]]}), "contents"),
        ("a time past the year 2500", forged({**one, "t": 10**12, "q": []}), "contents"),
        ("not JSON inside", sealed(base64.urlsafe_b64encode(b"\xff\xfe not json").decode().rstrip("=")), "read"),
    ]
    vectors = {"codes": codes, "damaged": [{"name": name, "code": code, "reason": reason}
                                           for name, code, reason in damaged]}
    target = Path(__file__).with_name("handin.json")
    target.write_text(json.dumps(vectors, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
