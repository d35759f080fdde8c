"""gcc errors that are gcc 12's own limits, not errors in the input.

gcc 12 rejects a variable named in two `map` clauses of one construct ("'x' appears
more than once in map clauses", or "... in data clauses" for array sections), an
OpenMP 4.5 rule that OpenMP 5.0 dropped (5.0 allows several map clauses of one
variable; gcc 13 accepts them: its commit "OpenMP 5.0: Allow multiple clauses mapping
same variable"). omp2gpu follows OpenMP 5.x and accepts them, so a mutant that only
repeats a map clause (or an item in one: gcc makes a clause of each item) is not
accepted-invalid; the campaign counts these apart.
A variable in a map clause and also in a data-sharing clause (`map(x) private(x)`)
stays invalid and is not counted here.
"""

from __future__ import annotations

import re

_DUPLICATE = re.compile(r"^[^:]*:(?P<line>\d+):(?P<column>\d+): error: .(?P<name>\w+). appears more than "
                        r"once in (?:map|data) clauses$")
_CLAUSE = re.compile(r"\b(?P<clause>[a-z_]+)\s*\(")


def _directive(lines: list[str], line: int) -> str:
    """The `#pragma` around 1-based `line`, its backslash-continued lines joined."""
    start = line - 1
    while start > 0 and lines[start - 1].rstrip().endswith("\\"):
        start -= 1
    end = start
    while end < len(lines) - 1 and lines[end].rstrip().endswith("\\"):
        end += 1
    return " ".join(text.rstrip().rstrip("\\") for text in lines[start:end + 1])


def _clauses_naming(directive: str, name: str) -> list[str]:
    """The names of the directive's clauses whose parenthesised list names `name`, once
    per time it names it (`map(i, i)` twice: gcc splits a clause into one per item)."""
    found = []
    for match in _CLAUSE.finditer(directive):
        depth, index = 1, match.end()
        while index < len(directive) and depth:
            depth += {"(": 1, ")": -1}.get(directive[index], 0)
            index += 1
        found += [match["clause"]] * len(re.findall(rf"\b{re.escape(name)}\b", directive[match.end():index - 1]))
    return found


def older_openmp(source: bytes, gccs_error: str | None) -> bool:
    """Whether gcc's first error is gcc 12 refusing a variable in several map clauses of
    one construct, which OpenMP 5.0 allows (and nothing else names the variable there)."""
    match = _DUPLICATE.match(gccs_error or "")
    if match is None:
        return False
    lines = source.decode(errors="replace").splitlines()
    line = int(match["line"])
    if not 0 < line <= len(lines) or "#pragma" not in _directive(lines, line):
        return False
    clauses = _clauses_naming(_directive(lines, line), match["name"])
    return len(clauses) >= 2 and set(clauses) == {"map"}
