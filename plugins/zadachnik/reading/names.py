"""Names authors give folders and files that end up on learners' computers and in addresses: what Windows, or a
page address, cannot carry. Module folders (their pages' addresses, exported files' names) and course files
(unzipped by learners) are judged by these same rules."""

from __future__ import annotations

import unicodedata

# Windows keeps these for devices, with or without an extension ("con.txt", "aux.tar.gz").
RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(1, 10)), *(f"LPT{n}" for n in range(1, 10))}
NOT_ON_WINDOWS = '<>:"|?*'
# What a link's address reads as its own: the start of an anchor, of a query, of an escape.
ADDRESS_READS = {
    "#": "where a link's address ends and an anchor begins",
    "?": "where a link's address ends and a query begins",
    "%": "which a link's address reads as the start of an escape such as %20",
}
# What the hints list as safe, for a module folder and for a course file.
SAFE = "letters of any script, digits, spaces, '-', '_', '.', '&' and \"'\""


def windows_problem(name: str) -> str | None:
    """Why Windows cannot create a file or folder named `name`, as the end of "the name 'x' …"; None if it can."""
    for char in name:
        if char == "\\":
            return "has '\\', which Windows reads as a folder separator"
        if char in NOT_ON_WINDOWS:
            return f"has '{char}', which Windows does not allow in a name"
        if unicodedata.category(char) == "Cc":
            return f"has a control character (U+{ord(char):04X})"
    if name.endswith((".", " ")):
        return f"ends with a {'dot' if name.endswith('.') else 'space'}, which Windows drops"
    stem = name.split(".")[0].rstrip(" ").upper()
    if stem in RESERVED:
        return f"is kept by Windows for a device ({stem}, whatever follows the dot)"
    return None


def address_problem(name: str) -> str | None:
    """Why `name` cannot be a folder in a page's address, as the end of "the name 'x' …"; None if it can."""
    for char in name:
        if char in ADDRESS_READS:
            return f"has '{char}', {ADDRESS_READS[char]}"
    return windows_problem(name)
