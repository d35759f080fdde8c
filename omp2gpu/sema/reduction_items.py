"""Whole arrays as reduction list items: OpenMP 4.5 (2.15.3.6) lets a C array be a
reduction list item, and gcc accepts `int s[2]; ... reduction(+: s)`. Such an item is
the array section of the array's full length, `s[0:2]`; giving it that section lets
every scheme take its array-section path (and the scheme chooser, which sees no
types, tell it from a scalar reduction).
"""

from __future__ import annotations

from omp2gpu.frontend.openmp.clause_types import ArraySection

# reduction(op: z) over a complex z for the operators that do not split into its real and
# imaginary parts: op -> its identity (OpenMP 4.5 2.15.3.6). Codegen builds each as the
# declared reduction it amounts to, so the schemes take it as a user-defined one.
COMPLEX_DECLARED_IDENTITIES = {"*": "1", "&&": "1", "||": "0"}


def whole_array_section(item) -> ArraySection:
    """`[:]`: from 0 to the end of the array."""
    return ArraySection(None, None, coord=item.coord)


def array_scalars(ctype) -> tuple[int, object]:
    """(how many scalars, their type) of a fixed-length array of any rank, which a
    reduction over it reduces one by one (double[2][3]: 6 doubles); (1, ctype) for a
    scalar."""
    count = 1
    while ctype.is_array:
        count, ctype = count * ctype.length, ctype.element
    return count, ctype


def is_whole_array_section(sections) -> bool:
    return len(sections) == 1 and sections[0].lower is None and sections[0].length is None


def arrays_as_sections(scope, directive) -> None:
    """Give each reduction item of `directive` that names an array variable in `scope`
    with no section written the section of its full length."""
    for clause in directive.clauses:
        if clause.name != "reduction":
            continue
        for item in clause.items:
            if item.sections or not item.is_variable:
                continue
            symbol = scope.lookup(item.name)
            if symbol is not None and symbol.kind == "object" and symbol.ctype.is_array:
                item.sections = [whole_array_section(item)]
