"""gcc errors that are gcc 12's own limits, not errors in the input.

gcc 12 rejects a variable named in two `map` clauses of one construct ("'x' appears
more than once in map clauses", or "... in data clauses" for array sections), an
OpenMP 4.5 rule that OpenMP 5.0 dropped (5.0 allows several map clauses of one
variable; gcc 13 accepts them: its commit "OpenMP 5.0: Allow multiple clauses mapping
same variable"). omp2gpu follows OpenMP 5.x and accepts them, so a mutant that only
repeats a map clause (or an item in one: gcc makes a clause of each item) is not
accepted-invalid; the campaign counts these apart.
A variable in a map clause and also in a data-sharing clause (`map(x) private(x)`)
stays invalid and is not counted here, but on a combined construct (`target teams
distribute parallel for map(tofrom: s) map(tofrom: s) reduction(+: s)`), where OpenMP 5.0
allows a list item in both (its map clause's restrictions: "unless the construct is a
combined construct"; Clang 19 accepts these), gcc's error is still only the repeated map.
A `depend` clause naming the variable beside its maps takes nothing from them (it orders
tasks). gcc 12 and 13 also refuse a pointer mapped both as itself and as a section of
what it points to (`map(tofrom: x[0:n]) map(x)`, "'x' appears both in data and map
clauses"), which OpenMP 5.0 allows and Clang 19 accepts: the two list items have no
storage in common.
"""

from __future__ import annotations

import re

_DUPLICATE = re.compile(r"^[^:]*:(?P<line>\d+):(?P<column>\d+): error: .(?P<name>\w+). appears more than "
                        r"once in (?:map|data) clauses$"
                        r"|^[^:]*:(?P<line2>\d+):\d+: error: .(?P<name2>\w+). appears both in data and map clauses$")
_CLAUSE = re.compile(r"\b(?P<clause>[a-z_]+)\s*\(")
# `#pragma omp target` and a construct after it: a combined construct
_COMBINED_TARGET = re.compile(r"#\s*pragma\s+omp\s+target\s+(?:teams|parallel|simd|loop)\b")
_DATA_SHARING = {"private", "firstprivate", "lastprivate", "shared", "reduction", "linear"}
_ORDERING = {"depend"}        # names a variable beside its maps without a data-sharing attribute


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
    one construct, which OpenMP 5.0 allows (and nothing else names the variable there but,
    on a combined construct, data-sharing clauses)."""
    match = _DUPLICATE.match(gccs_error or "")
    if match is None:
        return False
    lines = source.decode(errors="replace").splitlines()
    line = int(match["line"] or match["line2"])
    if not 0 < line <= len(lines) or "#pragma" not in _directive(lines, line):
        return False
    directive = _directive(lines, line)
    clauses = _clauses_naming(directive, match["name"] or match["name2"])
    allowed = {"map"} | _ORDERING | (_DATA_SHARING if _COMBINED_TARGET.search(directive) else set())
    return clauses.count("map") >= 2 and set(clauses) <= allowed
