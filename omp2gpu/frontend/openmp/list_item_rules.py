"""OpenMP 4.5 restrictions on the list items of one directive's clauses, checked on
the directive alone (no types needed) as it is parsed (directive_rules.RULES), as gcc
checks them when it reads the directive:

- a variable may appear in at most one data-sharing clause (private, firstprivate,
  lastprivate, shared, reduction, in_reduction, task_reduction, linear, copyin, copyprivate,
  is_device_ptr), except that
  one firstprivate and one lastprivate may name the same variable (2.15.3);
- a variable may appear in at most one map clause (2.15.5.1: one array section of a
  variable per construct; OpenMP 5.0 lets the same item appear in several; gcc lets a
  struct member be mapped twice, and a pointer be mapped both as itself and as a
  section, `map(p, p[:n])`), and not both in a map clause and in a data-sharing clause
  (or has_device_addr) of the same `target` construct;
- a variable may appear at most once in the use_device_ptr and use_device_addr clauses of
  `target data` (5.0 2.12.2), which may still map it;
- a whole variable may appear in at most one motion clause (`to`/`from`) of `target
  update` (sections of it may appear in several, as gcc allows);
- `declare simd`: a parameter in at most one `uniform` or `linear` clause; and, there
  and on `simd`, a variable in at most one `aligned` clause.

gcc and clang reject these programs ("'x' appears more than once in data clauses").
Struct-member list items (`s.a`, `p->x`) are compared by their member path: two
members of one struct are distinct items.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError

# Clauses that give a variable a data-sharing attribute on the construct.
DATA_SHARING_CLAUSES = frozenset({"private", "firstprivate", "lastprivate", "shared", "reduction",
                           "linear", "copyin", "copyprivate", "is_device_ptr", "uniform",
                           "has_device_addr", "in_reduction", "task_reduction"})
# A variable may be both firstprivate and lastprivate (the copy is initialised and
# its last value written back).
_MAY_PAIR = frozenset({"firstprivate", "lastprivate"})
# On a combined target construct in_reduction is the target leaf's and reduction an inner
# leaf's (teams, for): one variable may be in both (OpenMP 5.0 2.19.5.6; gcc accepts it).
_COMBINED_TARGET_PAIR = frozenset({"in_reduction", "reduction"})
# On a `target` construct alone these are the target's own data-sharing clauses, so
# they may not name a mapped variable; on a combined construct private and
# firstprivate may belong to an inner leaf and gcc accepts them beside map.
_TARGET_DATA = frozenset({"private", "firstprivate", "is_device_ptr", "has_device_addr"})
_MOTION = frozenset({"to", "from"})
_DEVICE_ADDRESSES = frozenset({"use_device_ptr", "use_device_addr"})


def check_directive_items(directive) -> None:
    data: dict[str, str] = {}               # variable -> the data-sharing clause naming it
    mapped: dict[tuple, str] = {}          # (variable, is a section) -> its spelling
    moved: set[str] = set()
    aligned: set[str] = set()
    device_addresses: set[str] = set()      # use_device_ptr and use_device_addr items
    for clause in directive.clauses:
        name = clause.name
        for item in getattr(clause, "items", ()):
            key = item_key(item)
            if name in DATA_SHARING_CLAUSES:
                earlier = data.get(key)
                if earlier is not None and {earlier, name} != _MAY_PAIR and not (
                        {earlier, name} == _COMBINED_TARGET_PAIR and directive.kind.startswith("target ")):
                    raise _twice(item, "data")
                data[key] = name
            elif name == "map" and isinstance(item.expr, c_ast.ID):
                # gcc accepts a member mapped twice (map(s.a) map(s.a)); so do we. A
                # variable may be mapped once as itself and once as a section
                # (map(p, p[:n]): a pointer and the data it points to; map_items.py).
                # OpenMP 5.0 lets the same list item appear in several map clauses
                # (their map types are combined: codegen/openmp/map_merging.py); two
                # different sections of one variable stay an error.
                form = (key, bool(item.sections))
                if form in mapped and mapped[form] != _spelled(item):
                    raise _twice(item, "map")
                mapped[form] = _spelled(item)
            elif name in _MOTION and directive.kind == "target update" and not item.sections:
                # gcc lets sections of one array be moved in several items (the two halo
                # planes of a stencil, `from(u[0:h], u[n-h:h])`); a whole variable, once.
                if key in moved:
                    raise _twice(item, "motion")
                moved.add(key)
            elif name in _DEVICE_ADDRESSES:
                if key in device_addresses:
                    raise _twice(item, "data")
                device_addresses.add(key)
            elif name == "aligned":
                if key in aligned:
                    raise _twice(item, "'aligned'")
                aligned.add(key)
    if directive.kind == "target":
        _check_map_against_data(directive, data)


def _check_map_against_data(directive, data: dict[str, str]) -> None:
    for clause in directive.clauses:
        for item in clause.items if clause.name == "map" else ():
            if data.get(item_key(item)) in _TARGET_DATA:
                raise CompileError(f"'{item.name}' appears both in data and map clauses", item.coord)


def item_key(item) -> str:
    """What names one list item: the variable, or the member path for struct members
    (sections of one variable are one item: OpenMP allows one section per construct)."""
    if isinstance(item.expr, c_ast.ID):
        return item.name
    parts, expr = [], item.expr
    while isinstance(expr, c_ast.StructRef):
        parts.append(expr.type + expr.field.name)
        expr = expr.name
    return item.name + "".join(reversed(parts))


def _spelled(item) -> str:
    return "".join(item.spelling.split())


def _twice(item, kind: str) -> CompileError:
    return CompileError(f"'{item_key(item)}' appears more than once in {kind} clauses", item.coord)
