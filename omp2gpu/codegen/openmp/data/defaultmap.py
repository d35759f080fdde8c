"""`defaultmap` (OpenMP 5.0 2.19.7.2, 5.1's `present`) made explicit: each variable a
target construct references without a data-sharing or map clause gets the clause its
category's implicit behaviour names, so every scheme (the launch, the kernels, the host
fallback) compiles clauses it already knows.

    behaviour                        becomes
    alloc, to, from, tofrom          map(<behaviour>: x)   (implicit: present in a larger mapping)
    present                          map(present, alloc: x)  (5.1)
    firstprivate                     firstprivate(x)   (scalars are already)
    default                          nothing: the 4.5 rules (scalars firstprivate, pointers
                                     looked up, aggregates tofrom)
    none                             an error at the first such reference

The categories: scalar (arithmetic, not pointers), pointer, aggregate (arrays,
structs, unions); a clause with no category covers all three. A const object is
only copied to the device (`from`/`tofrom` would write back into read-only storage).
The construct's defaultmap clauses are dropped once applied, so applying it twice
changes nothing.
"""

from __future__ import annotations

from dataclasses import replace

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import FirstprivateClause, ListItem, MapClause
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema.default_none import _References, loop_iteration_variables

# Clauses after which the target construct's implicit rules no longer apply to a name.
_DECIDED = frozenset({"map", "is_device_ptr", "has_device_addr", "private", "firstprivate",
                      "lastprivate", "reduction", "linear", "in_reduction"})
# Under defaultmap(none) a data-sharing clause of a combined construct's leaf lists it too.
_LISTED_FOR_NONE = _DECIDED | {"shared"}


def category(ctype) -> str | None:
    """A variable's defaultmap category; None: none applies (a function pointer is a pointer)."""
    if ctype.is_pointer:
        return "pointer"
    if ctype.is_arithmetic or ctype.is_complex:
        return "scalar"
    if ctype.is_array or ctype.is_struct:                # structs and unions
        return "aggregate"
    return None


def with_defaultmap(cg, construct: OmpConstruct, exempt=frozenset()) -> OmpConstruct:
    """The construct with its defaultmap clauses made explicit; `exempt`: names the device
    has its own copies of (declare target globals)."""
    directive = construct.directive
    defaultmaps = [c for c in directive.clauses if c.name == "defaultmap"]
    if not defaultmaps or not directive.has("target"):
        return construct
    behaviour = {}
    for clause in defaultmaps:
        for name in [clause.category] if clause.category else ["scalar", "pointer", "aggregate"]:
            behaviour[name] = clause
    listed = {item.name for c in directive.clauses if c.name in _DECIDED for item in c.items}
    listed_for_none = {item.name for c in directive.clauses if c.name in _LISTED_FOR_NONE for item in c.items}
    walker = _References()
    walker.scopes[-1].update(loop_iteration_variables(construct))
    walker.walk(construct.body)
    added: dict[tuple, list] = {}               # (kind, map type, present) -> items
    for name, node in walker.first_use.items():
        symbol = cg.scope.lookup(name)
        if symbol is None or symbol.kind != "object" or name in exempt or symbol.storage == "threadprivate":
            continue
        kind = category(symbol.ctype)
        clause = behaviour.get(kind)
        if clause is None or clause.behavior == "default":
            continue
        if clause.behavior == "none":
            if name not in listed_for_none:
                raise _not_specified(name, node)
            continue
        if name in listed:
            continue
        key = _explicit(clause.behavior, kind, symbol)
        if key is not None:
            added.setdefault(key, []).append(ListItem(name, c_ast.ID(name, node.coord), [], node.coord, name))
    clauses = [c for c in directive.clauses if c.name != "defaultmap"]
    for (kind, map_type, present), items in added.items():
        if kind == "firstprivate":
            clauses.append(FirstprivateClause(coord=directive.coord, items=items))
        else:
            clauses.append(MapClause(coord=directive.coord, items=items, map_type=map_type, map_type_explicit=True,
                                     present=present, implicit=True))
    return OmpConstruct(replace(directive, clauses=clauses), construct.body, construct.coord)


def _explicit(behaviour: str, kind: str, symbol) -> tuple | None:
    """The clause a variable gets: ("firstprivate", None, False), ("map", type, present), or
    None where the default already is the behaviour (a firstprivate scalar)."""
    if behaviour == "firstprivate":
        return None if kind == "scalar" else ("firstprivate", None, False)
    if behaviour == "present":
        return ("map", "alloc", True)
    if symbol.const and behaviour in ("from", "tofrom"):
        return ("map", "to", False)
    return ("map", behaviour, False)


def _not_specified(name: str, node) -> CompileError:
    return CompileError(f"'{name}' not specified in enclosing 'target' (it has 'defaultmap(none)' for its "
                        "category: list it in a map or data-sharing clause)", node.coord)
