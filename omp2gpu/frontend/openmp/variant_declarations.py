"""The declarations of function variants (OpenMP 5.0 2.3.5, 5.1 2.3.5-2.3.6), checked and
collected by the pragma pass:

- `declare variant(variant) match(selector)` before a function's declaration or definition
  makes `variant` (declared before, with the same type) a variant of that function;
- `begin declare variant match(selector)` ... `end declare variant`: each function defined
  in between is a variant of the function of the same name outside; it is renamed here
  (`__omp2gpu_variant<N>_<name>`), so that the base keeps its name;
- `dispatch` must govern a call (`f(...)` or `x = f(...)`).

The collected variants go to variant_sites.record_sites, which finds their call sites.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.pragma_scope import declare
from omp2gpu.frontend.openmp.pragma_text import is_omp, pragma_text
from omp2gpu.frontend.openmp.variant_clauses import AdjustArgsClause, AppendArgsClause, MatchClause
from omp2gpu.frontend.openmp.variant_sites import DeclaredVariant, record_sites

VARIANT_PREFIX = "__omp2gpu_variant"


def declare_variant(directive, coord, items, i, scope) -> None:
    """`declare variant(name) match(...)`: items[i:] must start (after other pragmas of
    its kind) with the base function's declaration or definition."""
    while i < len(items) and isinstance(items[i], c_ast.Pragma) and (
            not is_omp(pragma_text(items[i])) or "declare" in pragma_text(items[i]).split()[:2]):
        i += 1
    item = items[i] if i < len(items) else None
    decl = item.decl if isinstance(item, c_ast.FuncDef) else item
    if not isinstance(decl, c_ast.Decl) or not isinstance(decl.type, c_ast.FuncDecl):
        raise CompileError("'#pragma omp declare variant' must be followed by a function "
                           "declaration or definition", coord)
    variant = directive.variant_name
    if scope.get(variant) != "function":
        raise CompileError(f"'{variant}' in '#pragma omp declare variant' is not a function "
                           "declared before it", coord)
    if variant == decl.name:
        raise CompileError(f"function '{variant}' cannot be a variant of itself", coord)
    adjust = tuple(directive.find(AdjustArgsClause))
    params = decl.type.args.params if decl.type.args is not None else []
    names = tuple(getattr(param, "name", None) or "" for param in params)
    _check_adjust_args(adjust, decl, names, params)
    appended = tuple(sync for clause in directive.find(AppendArgsClause) for sync in clause.targetsync)
    scope.declared_variants.append(DeclaredVariant(decl.name, variant, directive.first(MatchClause).selector,
                                                   coord, adjust, names, appended))


def _check_adjust_args(clauses, decl, names, params) -> None:
    for clause in clauses:
        for item in clause.items:
            if item.name not in names:
                raise CompileError(f"'{item.name}' in 'adjust_args' is not a parameter of "
                                   f"'{decl.name}'", item.coord)
            param = params[names.index(item.name)]
            if clause.modifier == "need_device_ptr" and not isinstance(param.type, (c_ast.PtrDecl, c_ast.ArrayDecl)):
                raise CompileError(f"'{item.name}' in 'adjust_args(need_device_ptr: ...)' is not a pointer "
                                   f"parameter of '{decl.name}'", item.coord)


def begin_declare_variant(directive, inside: list, scope) -> list:
    """The items between `begin declare variant` and its end: the functions defined there
    renamed as variants of their namesakes, and recorded."""
    selector = directive.first(MatchClause).selector
    for item in inside:
        decl = item.decl if isinstance(item, c_ast.FuncDef) else item
        if not (isinstance(decl, c_ast.Decl) and isinstance(decl.type, c_ast.FuncDecl)):
            continue
        base = decl.name
        variant = f"{VARIANT_PREFIX}{len(scope.declared_variants)}_{base}"
        _rename(decl, variant)
        declare(decl, scope.file_scope)
        if isinstance(item, c_ast.FuncDef):
            scope.declared_variants.append(DeclaredVariant(base, variant, selector, directive.coord))
    return inside


def _rename(decl: c_ast.Decl, name: str) -> None:
    decl.name = name
    node = decl.type
    while not isinstance(node, c_ast.TypeDecl):
        node = node.type
    node.declname = name


def check_dispatch(directive, body, where) -> None:
    """`dispatch` governs one call, whose result may be assigned (5.1 2.3.6)."""
    call = body.rvalue if isinstance(body, c_ast.Assignment) and body.op == "=" else body
    if not (isinstance(call, c_ast.FuncCall) and isinstance(call.name, c_ast.ID)):
        raise CompileError("'#pragma omp dispatch' must be followed by a call of a function "
                           "(or an assignment of one's result)", where)


def finish_variants(ast: c_ast.FileAST, variants: list, metadirectives: list) -> None:
    """Record the call sites of the file's variants, and every metadirective's context
    (a walk of the file only where it has either)."""
    if variants or metadirectives:
        record_sites(ast, variants)
