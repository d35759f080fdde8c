"""OpenMP 5.0 `uses_allocators(a(traits))` on a target construct (2.15.6): inside the region
`a` is a new allocator made from `traits` on the device, destroyed where the region ends.

The region is rewritten before captures are found, so every device and the host fallback
compile the same code: `a` becomes private to the region and its body

    { a = omp_init_allocator(omp_default_mem_space, sizeof(traits) / sizeof(traits[0]), traits);
      <body>
      omp_destroy_allocator(a); }

(the traits array is captured as any array the region reads). Predefined allocators need
nothing: every device's runtime knows them. A combined construct would need the
allocator made before its inner leaves start, where OpenMP allows no statement (the
statements of a `target teams` region are the teams construct's): refused by name."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.allocate_clauses import UsesAllocatorsClause
from omp2gpu.frontend.clause_types import ListItem, PrivateClause
from omp2gpu.frontend.omp_nodes import OmpConstruct
from omp2gpu.sema.trait_values import check_traits_initializer


def make_allocators_in_regions(ast) -> None:
    """Rewrite every target region with `uses_allocators(a(traits))`, checking the traits
    array's constant initializer first (trait_values.py)."""
    for unit in ast.ext or ():
        declarations: dict[str, list] = {}          # name -> its declarations, in source order
        stack = [unit]
        regions = []
        while stack:
            node = stack.pop()
            if isinstance(node, c_ast.Decl) and node.name:
                declarations.setdefault(node.name, []).append(node)
            if isinstance(node, OmpConstruct) and node.body is not None:
                made = [used for clause in node.directive.find(UsesAllocatorsClause)
                        for used in clause.allocators if used.traits is not None]
                if made:
                    regions.append((node, made))
            stack.extend(reversed([child for _, child in node.children()]))
        for construct, made in regions:
            for used in made:
                check_traits_initializer(_declaration_before(declarations, file_scope(ast), used))
            _make_in_region(construct, made)


def file_scope(ast) -> dict:
    return {item.name: [item] for item in ast.ext or () if isinstance(item, c_ast.Decl) and item.name}


def _declaration_before(declarations: dict, globals_: dict, used):
    """The traits array's declaration: the last one of its name in the function before the
    clause (a region follows the arrays it names), else the file's."""
    line = used.traits_coord.line if used.traits_coord is not None else 0
    earlier = [decl for decl in declarations.get(used.traits, ())
               if decl.coord is not None and decl.coord.line <= line]
    found = earlier or globals_.get(used.traits, [])
    return found[-1] if found else None


def _make_in_region(construct: OmpConstruct, made) -> None:
    directive = construct.directive
    if directive.constructs != ("target",) or _is_teams(construct.body):
        raise CompileError(f"'uses_allocators' with a traits array ('{made[0].name}({made[0].traits})') "
                           f"on '#pragma omp {directive.kind}' is not supported: write '#pragma omp target "
                           "uses_allocators(...)' around the inner construct, without teams",
                           made[0].coord)
    where = construct.coord
    before = [_assign(used, where) for used in made]
    after = [c_ast.FuncCall(c_ast.ID("omp_destroy_allocator", coord=where),
                            c_ast.ExprList([c_ast.ID(used.name, coord=where)], coord=where), coord=where)
             for used in made]
    construct.body = c_ast.Compound(before + [construct.body] + after, coord=construct.body.coord)
    directive.clauses.append(PrivateClause(coord=made[0].coord, items=[
        ListItem(used.name, c_ast.ID(used.name, coord=used.coord), [], used.coord, used.name) for used in made]))


def _assign(used, where) -> c_ast.Node:
    traits = c_ast.ID(used.traits, coord=used.traits_coord)
    count = c_ast.BinaryOp("/", c_ast.UnaryOp("sizeof", traits, coord=where),
                           c_ast.UnaryOp("sizeof", c_ast.ArrayRef(traits, c_ast.Constant("int", "0"), coord=where),
                                         coord=where), coord=where)
    cast = c_ast.Cast(c_ast.Typename(None, [], None, c_ast.TypeDecl(None, [], None, c_ast.IdentifierType(["int"]))),
                      count, coord=where)
    call = c_ast.FuncCall(c_ast.ID("omp_init_allocator", coord=where),
                          c_ast.ExprList([c_ast.ID("omp_default_mem_space", coord=where), cast, traits],
                                         coord=where), coord=where)
    return c_ast.Assignment("=", c_ast.ID(used.name, coord=used.coord), call, coord=where)


def _is_teams(body) -> bool:
    while isinstance(body, c_ast.Compound) and body.block_items and len(body.block_items) == 1:
        body = body.block_items[0]
    return isinstance(body, OmpConstruct) and body.directive.constructs[:1] == ("teams",)
