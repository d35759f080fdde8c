"""PTX as text: each kernel's section, and the records the device build writes as comment
lines at the top of the PTX (effects.py, fusion.py, relocatable.py), which the cache keeps
without the optimised IR. Only `re`: every module that reads PTX may import it."""

from __future__ import annotations

import re

ENTRY_START = re.compile(r"^(?:\.visible\s+|\.weak\s+)?\.entry\s+([\w$.]+)", re.MULTILINE)


def entry_sections(ptx: str) -> dict[str, str]:
    """Each kernel's part of a module's PTX: its `.entry` from the directive to the brace
    closing its body (column 0, as LLVM writes it), by kernel name; the `.func`s they call
    and the module's globals stay the module's."""
    sections = {}
    for match in ENTRY_START.finditer(ptx):
        end = ptx.find("\n}\n", match.start())
        sections[match.group(1)] = ptx[match.start():len(ptx) if end < 0 else end + 3]
    return sections


def header_records(ptx: str, tag: str) -> list[list[str]]:
    """The words after `tag` of the comment lines at the top of `ptx` that begin with it:
    what the device build found and wrote beside its PTX (effects.py, fusion.py, relocatable.py), which is
    cached on disk without the optimised IR."""
    records = []
    for line in ptx.splitlines():
        if not line.startswith("//"):
            break
        if line.startswith(tag + " "):
            records.append(line[len(tag) + 1:].split(" "))
    return records
