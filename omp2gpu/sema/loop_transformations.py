"""OpenMP 5.1 loop transformations (2.11.9): `tile sizes(s1, ..., sn)` and
`unroll [full | partial[(n)]]`, rewritten into plain C loops right after the directives
are attached: every later stage (the loop constructs that the generated loops become
associated with, each scheme, each device) sees only loops.

`tile sizes(s1, ..., sn)` over n perfectly nested canonical loops (variable v_k from
lb_k while `v_k REL_k ub_k`, adding st_k) makes n floor loops around n tile loops:

    for (T_1 f_1 = lb_1; f_1 REL_1 ub_1; f_1 += s_1 * st_1)          floor loops
      ...
        for (T_1 v_1 = f_1; v_1 REL_1 END_1; v_1 += st_1)           tile loops
          ...
            body

where END_k is the nearer of the tile's end and ub_k (f + s * st, one less for `<=`,
one more for `>=`, against ub). The floor loops are rectangular canonical loops: an
enclosing `for collapse(n)` associates with them, as OpenMP 5.1 says.
`unroll partial(n)` is `tile sizes(n)`: the generated loop runs blocks of n iterations,
the inner loop each block's (LLVM unrolls what it finds worth it). `unroll full` and a
plain `unroll` leave the loop as written (the same iterations in the same order); `full`
needs a constant trip count, as OpenMP requires.

The floor loops declare their variables with the original variable's type. A loop that
declares its variable (`for (int i = ...)`) gets tile loops that declare theirs; one
whose variable is declared outside gets tile loops that set it, as the original loop
did (and leave it as the original would), except where an enclosing loop construct
takes the generated loops: there each iteration's tile loops declare their own copy
(the construct privatises only the floor loops' variables). Tiling a non-rectangular
nest is a located error.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import FullClause, PartialClause, SizesClause
from omp2gpu.frontend.openmp.directive_table import LOOP_TRANSFORMATIONS
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema.canonical_form import CanonicalLoop, analyze, literal_integer
from omp2gpu.sema.captures import free_identifiers

_LOOP_LEAVES = ("for", "distribute", "simd", "taskloop", "loop")


def apply_loop_transformations(ast) -> None:
    """Replace (in place) every tile and unroll construct by the loops it generates,
    innermost first (a transformation may apply to the loops another generated)."""
    for site in reversed(_transformation_sites(ast)):
        parent, slot, index = site.parent, site.slot, site.index
        construct = getattr(parent, slot) if index is None else getattr(parent, slot)[index]
        generated = transformed(construct, site.declarations, site.associated)
        if index is None:
            setattr(parent, slot, generated)
        else:
            getattr(parent, slot)[index] = generated


@dataclass
class _Site:
    parent: c_ast.Node
    slot: str
    index: int | None
    declarations: dict          # name -> the Decl visible there
    associated: bool            # the generated loops belong to an enclosing loop construct


def _transformation_sites(root) -> list[_Site]:
    """Each tile/unroll construct, in pre-order, with the declarations in scope there."""
    sites, stack = [], [(root, {}, False)]
    while stack:
        node, scope, associated = stack.pop()
        children = []
        if isinstance(node, c_ast.FuncDef):
            scope = {**scope, **_parameters(node)}
        if isinstance(node, c_ast.For) and isinstance(node.init, c_ast.DeclList):
            scope = {**scope, **{decl.name: decl for decl in node.init.decls}}
        in_loop_construct = isinstance(node, OmpConstruct) and (
            node.directive.constructs[-1] in _LOOP_LEAVES or
            (associated and node.directive.kind in LOOP_TRANSFORMATIONS))
        for slot in getattr(node, "__slots__", ()):
            if slot in ("coord", "__weakref__", "directive"):
                continue
            value = getattr(node, slot, None)
            items = list(enumerate(value)) if isinstance(value, list) else [(None, value)]
            for index, child in items:
                if not isinstance(child, c_ast.Node):
                    continue
                if isinstance(child, OmpConstruct) and child.directive.kind in LOOP_TRANSFORMATIONS:
                    sites.append(_Site(node, slot, index, scope, in_loop_construct))
                children.append((child, scope, in_loop_construct))
                if isinstance(child, c_ast.Decl) and child.name and slot in ("block_items", "ext"):
                    scope = {**scope, child.name: child}     # visible to the later items
        stack.extend(reversed(children))
    return sites


def _parameters(function: c_ast.FuncDef) -> dict:
    params = getattr(function.decl.type, "args", None)
    return {p.name: p for p in (params.params if params is not None else ()) if isinstance(p, c_ast.Decl)}


def transformed(construct: OmpConstruct, declarations=None, associated: bool = True) -> c_ast.Node:
    """The loop nest a tile or unroll construct (whose body is already transformed)
    generates. `declarations`: what the loop variables declared outside the loops are;
    `associated`: whether an enclosing loop construct takes the generated loops."""
    directive = construct.directive
    if directive.kind == "tile":
        return tile(construct.body, directive.first(SizesClause).sizes, construct.coord, declarations, associated)
    partial = directive.first(PartialClause)
    if partial is not None:
        return tile(construct.body, [partial.factor or 1], construct.coord, declarations, associated)
    if directive.first(FullClause) is not None:
        _check_constant_trip_count(analyze(construct.body))
    return construct.body


def tile(statement, sizes: list[int], coord, declarations=None, associated: bool = True) -> c_ast.For:
    loops = _perfect_nest(statement, len(sizes), coord)
    variables = [loop.variable for loop in loops]
    templates = []
    for loop in loops:
        template = loop.node.init.decls[0] if loop.declared_in_loop else (declarations or {}).get(loop.variable)
        if template is None:
            raise CompileError(f"'{loop.variable}' undeclared (first use in a loop transformation)", loop.node.coord)
        templates.append(template)
        used = [name for bound in (loop.lower, loop.upper, loop.step)
                for name in free_identifiers(bound) if name in variables]
        if used:
            raise CompileError(f"tiling a non-rectangular loop nest (a bound uses '{used[0]}') is not supported",
                               loop.node.coord)
    body = loops[-1].body
    for loop, size, template in reversed(list(zip(loops, sizes, templates))):
        # A variable declared outside: the loop sets it as the original did, but where an
        # enclosing loop construct takes the generated loops, the tile loop's variable is
        # each iteration's own (the construct privatises only the floor loops').
        own = template if loop.declared_in_loop or associated else None
        body = _tile_loop(loop, size, body, own)
    for loop, size, template in reversed(list(zip(loops, sizes, templates))):
        body = _floor_loop(loop, size, body, template)
    return body


def _perfect_nest(statement, depth: int, coord) -> list[CanonicalLoop]:
    loops, node = [], statement
    for _ in range(depth):
        while isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
            node = node.block_items[0]
        if not isinstance(node, c_ast.For):
            raise CompileError(f"'tile' with {depth} sizes needs {depth} perfectly nested loops",
                               getattr(node, "coord", None) or coord)
        loops.append(analyze(node))
        node = node.stmt
    return loops


FLOOR_PREFIX = "__omp_tile_"      # a floor loop's variable: a name the implementation reserves


def _floor_name(loop: CanonicalLoop) -> str:
    return FLOOR_PREFIX + loop.variable


def _signed_step(loop: CanonicalLoop) -> c_ast.Node:
    step = copy.deepcopy(loop.step)
    return c_ast.UnaryOp("-", step, step.coord) if loop.step_negated else step


def _tile_span(loop: CanonicalLoop, size: int) -> c_ast.Node:
    """size * step: how far one tile reaches."""
    coord = loop.node.coord
    return c_ast.BinaryOp("*", c_ast.Constant("int", str(size), coord), _signed_step(loop), coord)


def _floor_loop(loop: CanonicalLoop, size: int, body, template) -> c_ast.For:
    """for (T f = lb; f REL ub; f += size * step) body"""
    coord = loop.node.coord
    name = _floor_name(loop)
    return c_ast.For(_declaration(template, name, copy.deepcopy(loop.lower), coord),
                     c_ast.BinaryOp(loop.relation, c_ast.ID(name, coord), copy.deepcopy(loop.upper), coord),
                     c_ast.Assignment("+=", c_ast.ID(name, coord), _tile_span(loop, size), coord),
                     body, coord)


def _tile_loop(loop: CanonicalLoop, size: int, body, template) -> c_ast.For:
    """for (T v = f; v REL END; v += step) body, END = (E REL ub) ? E : ub, E the tile's
    last value past (or at, for <= and >=) its end; `v = f` without a template."""
    coord = loop.node.coord
    name = loop.variable
    end = c_ast.BinaryOp("+", c_ast.ID(_floor_name(loop), coord), _tile_span(loop, size), coord)
    adjust = {"<=": "-", ">=": "+"}.get(loop.relation)
    if adjust is not None:
        end = c_ast.BinaryOp(adjust, end, c_ast.Constant("int", "1", coord), coord)
    bound = c_ast.TernaryOp(c_ast.BinaryOp(loop.relation, end, copy.deepcopy(loop.upper), coord),
                            copy.deepcopy(end), copy.deepcopy(loop.upper), coord)
    start = c_ast.ID(_floor_name(loop), coord)
    init = _declaration(template, name, start, coord) if template is not None else \
        c_ast.Assignment("=", c_ast.ID(name, coord), start, coord)
    return c_ast.For(init,
                     c_ast.BinaryOp(loop.relation, c_ast.ID(name, coord), bound, coord),
                     c_ast.Assignment("+=", c_ast.ID(name, coord), _signed_step(loop), coord),
                     body, coord)


def _declaration(template: c_ast.Decl, name: str, init, coord) -> c_ast.DeclList:
    """`T name = init`, T the type `template` declares (a loop variable's declaration)."""
    declaration = copy.deepcopy(template)
    declaration.name, declaration.init, declaration.storage, declaration.bitsize = name, init, [], None
    declaration.coord = coord
    declarator = declaration.type
    while not isinstance(declarator, c_ast.TypeDecl):
        declarator = declarator.type
    declarator.declname = name
    return c_ast.DeclList([declaration], coord)


def _check_constant_trip_count(loop: CanonicalLoop) -> None:
    """`unroll full` needs an iteration count known at compile time (OpenMP 5.1 2.11.9.2)."""
    if None in (literal_integer(loop.lower), literal_integer(loop.upper), literal_integer(loop.step)):
        raise CompileError("'unroll full' needs a loop whose iteration count is a compile-time constant",
                           loop.node.coord)
