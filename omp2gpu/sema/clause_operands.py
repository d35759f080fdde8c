"""OpenMP 4.5 restrictions on clause operands that need their C types, checked when
code generation reaches a construct (the scope then knows every name):

- every name a clause lists is declared (`check_clause_names`, first: gcc reports
  an undeclared name as it reads the clause), and is a variable (not a function);
- a const-qualified variable may appear only in `shared` and `firstprivate`
  (2.15.3.3, .5, .6; gcc: "'const' qualified 'x' may appear only in ...");
- array section bounds have integer type (2.4), and each section or subscript
  applies to an array or a pointer;
- a `linear` variable has integral or pointer type (2.15.3.7);
- a constant section length is not negative; on an array (not a pointer) a constant
  lower bound is not negative and the section ends within the array's length;
- the location `#pragma omp atomic` updates has scalar type (2.13.6);
- an atomic's `hint` is an integer constant expression (5.0 2.17.7; gcc: "expected
  constant integer expression");
- the clauses OpenMP defines over an integer expression (num_teams, thread_limit,
  num_threads, device, priority, grainsize, num_tasks, filter) have one (gcc: "expected
  integer expression"; a `num_teams(1.5)` is no silent conversion).

`cg` is the code generator: its `scope`, `module.resolver` and `type_of` give the
types without emitting code.
"""

from __future__ import annotations

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.list_item_rules import DATA_SHARING_CLAUSES
from omp2gpu.frontend.openmp.task_rules import ALL_MEMORY
from omp2gpu.sema.atomic_forms import atomic_location
from omp2gpu.sema.constant_eval import evaluate, evaluate_integer

_NOT_CONST = frozenset({"private", "lastprivate", "reduction", "linear"})
_INTEGER_EXPRESSIONS = frozenset({"num_teams", "thread_limit", "num_threads", "device", "priority", "grainsize",
                                  "num_tasks", "filter"})


def check_clause_names(scope, directive) -> None:
    """gcc: "'x' undeclared"; some clauses (`shared`, `linear`, `aligned`) would
    otherwise name nothing and be accepted."""
    listed = [item for clause in directive.clauses for item in getattr(clause, "items", ())
              if not (clause.name == "depend" and item.name == ALL_MEMORY)]     # 5.1: all of memory
    for item in listed + directive.flush_list:
        if scope.lookup(item.name) is None:
            raise CompileError(f"use of undeclared identifier '{item.name}'", item.coord)


def check_clause_operands(cg, construct) -> None:
    directive = construct.directive
    for clause in directive.clauses:
        for item in getattr(clause, "items", ()):
            _check_variable(cg, item, clause.name)
            if clause.name in _NOT_CONST:
                _check_not_const(cg, item, clause.name)
            if item.sections and not item.shape and not getattr(clause, "iterators", None):   # bounds may use iterators
                _check_sections(cg, item, clause.name)
            if clause.name == "linear":
                _check_linear(cg, item)
        if clause.name in _INTEGER_EXPRESSIONS and getattr(clause, "expr", None) is not None:
            _check_integer_expression(cg, clause)
    if directive.kind == "atomic":
        _check_atomic_type(cg, construct)
        _check_atomic_hint(cg, directive)


def _check_integer_expression(cg, clause) -> None:
    lower = getattr(clause, "lower", None)          # num_teams(lower: upper)
    for expr in filter(None, (lower, clause.expr)):
        if not cg.type_of(expr).is_integer:
            raise CompileError(f"'{clause.name}' needs an integer expression", expr.coord or clause.coord)
    if lower is not None:
        bounds = [_constant_or_none(cg, expr) for expr in (lower, clause.expr)]
        if None not in bounds and bounds[0] > bounds[1]:
            raise CompileError(f"'num_teams' lower bound {bounds[0]} is greater than its upper bound {bounds[1]}",
                               lower.coord or clause.coord)


def _constant_or_none(cg, expr) -> int | None:
    try:
        return evaluate_integer(expr, cg.scope, cg.module.resolver)
    except CompileError:
        return None


def _check_variable(cg, item, clause: str) -> None:
    symbol = cg.scope.lookup(item.name)
    if symbol is not None and symbol.kind != "object":
        what = "a data-sharing" if clause in DATA_SHARING_CLAUSES else f"a '{clause}'"
        raise CompileError(f"'{item.name}' in {what} clause is not a variable", item.coord)


def _check_linear(cg, item) -> None:
    ctype = cg.type_of(item.expr)
    if not (ctype.is_integer or ctype.is_pointer):
        raise CompileError(f"linear variable '{item.name}' must have integer or pointer type "
                           f"(it is '{ctype}')", item.coord)


def _check_not_const(cg, item, clause: str) -> None:
    symbol = cg.scope.lookup(item.name)
    if symbol is not None and symbol.kind == "object" and symbol.const:
        raise CompileError(f"'const' qualified '{item.name}' may appear only in 'shared' or "
                           f"'firstprivate' clauses, not '{clause}'", item.coord)


def _check_sections(cg, item, clause: str) -> None:
    symbol = cg.scope.lookup(item.name)
    if symbol is None or symbol.kind != "object":
        return                      # reported where the clause is lowered: "'b' is not a variable"
    ctype = cg.type_of(item.expr)
    for section in item.sections:
        lower = _integer_bound(cg, section.lower, "low bound")
        length = _integer_bound(cg, section.length, "length")
        if length is not None and length < 0:
            raise CompileError(f"negative length in array section in '{clause}' clause",
                               section.length.coord or section.coord)
        if ctype.is_array:
            if lower is not None and lower < 0:
                raise CompileError(f"negative low bound in array section in '{clause}' clause",
                                   section.lower.coord or section.coord)
            extent = getattr(ctype, "length", None) if not ctype.is_variable else None
            if extent is not None and length is not None and (lower or 0) + length > extent:
                raise CompileError(f"array section [{lower or 0}:{length}] in '{clause}' clause "
                                   f"goes past the end of '{item.name}' "
                                   f"({extent} elements)", section.coord)
            ctype = ctype.element
        elif ctype.is_pointer:
            ctype = ctype.pointee
        else:
            raise CompileError(f"array section or subscript in '{clause}' clause of a value that is "
                               f"not an array or pointer ('{ctype}')", section.coord or item.coord)


def _integer_bound(cg, node, what: str) -> int | None:
    """The bound's value when it is an integer constant; CompileError when it is not of
    integer type; None when it is absent or known only at run time."""
    if node is None:
        return None
    ctype = cg.type_of(node)
    if not ctype.is_integer:
        raise CompileError(f"{what} of array section does not have integer type ('{ctype}')",
                           node.coord)
    try:
        value, _ = evaluate(node, cg.scope, cg.module.resolver)
    except CompileError:
        return None
    return int(value)


def _check_atomic_type(cg, construct) -> None:
    x = atomic_location(construct)
    if x is None:
        return
    ctype = cg.type_of(x)
    if not ctype.is_scalar:
        raise CompileError(f"invalid expression type '{ctype}' for '#pragma omp atomic': it needs "
                           "a scalar", x.coord)


def _check_atomic_hint(cg, directive) -> None:
    """The hint only advises (atomics ignore it), but it must be a constant."""
    for clause in directive.clauses:
        if clause.name != "hint":
            continue
        try:
            evaluate_integer(clause.expr, cg.scope, cg.module.resolver)
        except CompileError:
            raise CompileError("'hint' clause needs an integer constant expression",
                               clause.expr.coord or clause.coord) from None
