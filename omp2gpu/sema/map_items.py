"""A pointer mapped both as itself and as an array section on one construct,
`map(p, p[:n])` (OpenMP Examples target_ptr_map.1.c; gcc accepts it): inside the
region p points to the device copy of the section (the pointer is attached to it),
which is what the section's map item alone gives a pointer in omp2gpu (its kernel
parameter is the device address of the section). The item naming the pointer itself
adds nothing then and is dropped, whatever its map type: the host's pointer keeps its
value, as it does when libgomp detaches the pointer at the end of the region.

An array named both as itself and as a section stays an error (frontend/list_item_rules lets
the pair through because it does not know the types).
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError


def pointer_and_section_maps(scope, directive) -> None:
    """Drop `map(p)` where the same directive maps a section `p[lo:len]` of pointer p."""
    maps = [clause for clause in directive.clauses if clause.name == "map"]
    whole, section = {}, {}                 # name -> (clause, item), in clause order
    for clause in maps:
        for item in clause.items:
            if isinstance(item.expr, c_ast.ID):
                (section if item.sections else whole).setdefault(item.name, (clause, item))
    for name in [name for name in whole if name in section]:
        symbol = scope.lookup(name)
        clause, item = whole[name]
        if symbol is None or symbol.kind != "object" or not symbol.ctype.is_pointer:
            items = [i for c in maps for i in c.items]
            later = max(item, section[name][1], key=lambda i: next(k for k, o in enumerate(items) if o is i))
            raise CompileError(f"'{name}' appears more than once in map clauses", later.coord)
        clause.items = [other for other in clause.items if other is not item]
