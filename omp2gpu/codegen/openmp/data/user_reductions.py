"""`#pragma omp declare reduction` in codegen (OpenMP 4.5 2.16).

A declaration is registered in the scope where it appears, one entry per type of its
list, under a name no C identifier can spell; an inner declaration hides an outer one
for the same identifier and type only. A reduction clause whose operator a declaration
defines for its item's type gets a `UserReduction` as its operator: the private copy is
initialised by the declaration's initializer (or zeroed, as an object with static
storage would be), and folded into the original by its combiner, each emitted from its
expression with omp_priv/omp_orig or omp_out/omp_in naming the two objects.
"""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.values import LValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.declare_reduction import DeclaredReduction
from omp2gpu.frontend.tree_walks import holds
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.scopes import Scope, Symbol

_KEY = "#omp declare reduction {}"      # a '#' keeps it apart from every C name
SYMBOL_KIND = "omp declare reduction"
# The predefined operators: a declaration may not redefine them for arithmetic types.
_PREDEFINED = ("+", "*", "-", "&", "|", "^", "&&", "||", "max", "min")


@dataclass(frozen=True)
class UserReduction:
    """A reduction clause's operator, as a declaration defines it for one type."""
    identifier: str
    ctype: ct.CType
    declaration: DeclaredReduction

    def __str__(self) -> str:
        return self.identifier


@dataclass(frozen=True)
class _Entry:
    ctype: ct.CType
    declaration: DeclaredReduction
    scope: Scope                        # where it was declared: a redeclaration there is an error


def declare(resolver, scope: Scope, directive) -> None:
    """Register `directive` (a `declare reduction`) in `scope`."""
    declaration: DeclaredReduction = directive.declared_reduction
    key = _KEY.format(declaration.identifier)
    visible = scope.lookup(key)
    entries = list(visible.address) if visible is not None else []
    for typename in declaration.types:
        ctype = resolver.resolve(typename, scope)
        _check_type(declaration.identifier, ctype, typename.coord)
        if any(e.scope is scope and _same(e.ctype, ctype) for e in entries):
            raise CompileError(f"redeclaration of '{declaration.identifier}' "
                               f"'#pragma omp declare reduction' for type '{ctype}'", typename.coord)
        entries = [e for e in entries if not _same(e.ctype, ctype)] + [_Entry(ctype, declaration, scope)]
    _check_names(scope, declaration.combiner, ("omp_out", "omp_in"), "combiner")
    if declaration.initializer is not None:
        _check_names(scope, declaration.initializer, ("omp_priv", "omp_orig"), "initializer")
    scope.declare(Symbol(key, ct.VOID, SYMBOL_KIND, tuple(entries), coord=directive.coord))


def find(scope: Scope, op: str, ctype: ct.CType) -> UserReduction | None:
    """The declaration of `op` for `ctype` visible in `scope`, if any."""
    symbol = scope.lookup(_KEY.format(op))
    if symbol is None or symbol.kind != SYMBOL_KIND:
        return None
    for entry in symbol.address:
        if _same(entry.ctype, ctype):
            return UserReduction(op, entry.ctype, entry.declaration)
    return None


def initialise(cg, reduction: UserReduction, private: LValue, original: LValue) -> None:
    """The private copy's initial value: the initializer's, else all zeros."""
    initializer = reduction.declaration.initializer
    if initializer is None:
        cg.builder.store(ir.Constant(private.ctype.ir_type(), None), private.address)
        return
    _evaluate(cg, initializer, {"omp_priv": private, "omp_orig": original})


def combine(cg, reduction: UserReduction, original: LValue, private: LValue) -> None:
    """original = combiner(original, private)."""
    _evaluate(cg, reduction.declaration.combiner, {"omp_out": original, "omp_in": private})


def reads_original(reduction: UserReduction) -> bool:
    """Whether the initializer reads the original (omp_orig)."""
    return holds(reduction.declaration.initializer,
                 lambda node: isinstance(node, c_ast.ID) and node.name == "omp_orig")


def _evaluate(cg, expression: c_ast.Node, objects: dict[str, LValue]) -> None:
    saved = cg.scope
    cg.scope = saved.child()
    try:
        for name, lvalue in objects.items():
            cg.scope.declare(Symbol(name, lvalue.ctype, "object", lvalue.address))
        cg.expr(expression)
    finally:
        cg.scope = saved


def _same(a: ct.CType, b: ct.CType) -> bool:
    return a.unqualified() == b.unqualified()


def _check_type(identifier: str, ctype: ct.CType, coord) -> None:
    if ctype.is_array or isinstance(ctype, ct.FunctionType) or ctype == ct.VOID:
        raise CompileError(f"'#pragma omp declare reduction' for type '{ctype}': not an object type "
                           "a reduction can combine (arrays, functions and void are not)", coord)
    if identifier in _PREDEFINED and ctype.is_arithmetic:
        raise CompileError(f"'#pragma omp declare reduction' may not redefine predefined reduction "
                           f"'{identifier}' for arithmetic type '{ctype}'", coord)


def _check_names(scope: Scope, expression: c_ast.Node, allowed: tuple[str, str], part: str) -> None:
    """Only `allowed` may be used as variables in the combiner (initializer); functions,
    enumeration constants and types are fine (OpenMP 4.5 2.16 restrictions)."""
    stack = [expression]
    while stack:
        node = stack.pop()
        if isinstance(node, c_ast.StructRef):
            stack.append(node.name)                 # node.field is a member name
            continue
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
            stack.extend(child for name, child in node.children() if name != "name")
            continue
        if isinstance(node, c_ast.ID) and node.name not in allowed:
            symbol = scope.lookup(node.name)
            if symbol is not None and symbol.kind == "object":
                raise CompileError(f"'{node.name}' may not be used in the {part} of "
                                   f"'#pragma omp declare reduction': only {allowed[0]} and "
                                   f"{allowed[1]} may", node.coord)
        stack.extend(child for _, child in node.children())
