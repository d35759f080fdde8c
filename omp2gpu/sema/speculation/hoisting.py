"""The loads of a region's rewritten statements made first: constants at the top of their
block, as early as their names and the block's stores, calls and jumps allow, index loads
before the loads through them."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema.speculation.tree import (
    TEMP_PREFIX,
    WRITING_UNARY,
    constant_decl,
    is_build_choice,
    loads_inner_first,
    names_in,
    nodes,
    set_child,
    text_of,
    written_names,
)


def hoist_loads(region, compound: c_ast.Compound) -> None:
    """The loads of the unguarded rewrites among `compound`'s statements, each made
    into a constant as early in the block as its names and the block's writes allow,
    the loads of indices before the loads through them: LLVM keeps the order of a
    block, so a rewrite's loads would wait on its index loads one statement at a time.
    The same load twice is one constant. A load may be made before the statement that
    showed its index in range (Region._note_unconditional): nothing between them stops
    (stops_hoisting), so that statement runs after it in the same iteration."""
    items = compound.block_items or []
    rewritten = [index for index, item in enumerate(items) if id(item) in region.arms_of]
    if not rewritten:
        return
    barrier, set_at = 0, {}                 # after the last write to memory; name -> its item
    made: dict[str, tuple[str, int, int]] = {}      # load text -> (constant, position, depth)
    placed: dict[int, list[tuple[int, c_ast.Decl]]] = {}
    for index, item in enumerate(items):
        if id(item) in region.arms_of:
            choice, *arms = region.arms_of[id(item)]
            loads = [load for load in loads_inner_first(choice, unconditional=True)
                     if mapped(region, load[2])] + [load for arm in arms for load in loads_inner_first(arm)]
        elif index < rewritten[-1] and isinstance(item, (c_ast.Decl, c_ast.Assignment)):
            loads = [load for load in loads_inner_first(item, unconditional=True)   # made anyway
                     if mapped(region, load[2])]
        else:
            loads = []
        for parent, attribute, ref in loads:
            names = names_in(ref)
            if not names <= region.stable | {constant for constant, _, _ in made.values()}:
                continue
            text = text_of(ref)
            if text not in made:
                earlier = [made[other] for other in made if made[other][0] in names]
                position = max([barrier, *(set_at.get(name, -1) + 1 for name in names),
                                *(at for _, at, _ in earlier)])
                depth = 1 + max((depth for _, _, depth in earlier), default=0)
                region.loads += 1
                constant = f"{TEMP_PREFIX}_load{region.loads}"
                made[text] = (constant, position, depth)
                placed.setdefault(position, []).append((depth, constant_decl(constant, ref)))
            set_child(parent, attribute, c_ast.ID(made[text][0], ref.coord))
        if stops_hoisting(item, region.private_names):
            barrier, made = index + 1, {}       # a load after it may read another value
        for name in set_names(item):
            set_at[name] = index
    ordered = []
    for index, item in enumerate(items + [None]):
        ordered += [decl for _, decl in sorted(placed.get(index, []), key=lambda entry: entry[0])]
        if item is not None:
            ordered.append(item)
    compound.block_items = ordered


def mapped(region, ref: c_ast.ArrayRef) -> bool:
    """Whether `ref` (a copy's, whose scope is not known) reads one of the construct's
    sections: its base names a section's pointer no declaration of the region hides."""
    return (isinstance(ref.name, c_ast.ID) and ref.name.name in region.sections
            and ref.name.name not in region.region_names)


def stops_hoisting(statement, private_names: set[str]) -> bool:
    """Whether no load may move above `statement`: it may write memory a load could read
    (any assignment or increment but of a name in `private_names`, the region's own
    scalars whose address it never takes, or of this module's copies), call, or jump out
    of itself (the statements after it might not run, and an index they show in range
    might not be): a `break` or `continue` of its own loop or switch does not."""
    for node in nodes(statement):
        if is_build_choice(node):
            continue                                    # a constant of the build
        if isinstance(node, (c_ast.FuncCall, OmpConstruct, c_ast.Return, c_ast.Goto, c_ast.Label)):
            return True
        target = node.lvalue if isinstance(node, c_ast.Assignment) else (
            node.expr if isinstance(node, c_ast.UnaryOp) and node.op in WRITING_UNARY else None)
        if target is None:
            continue
        if node.op == "&" or not isinstance(target, c_ast.ID):
            return True
        if target.name not in private_names and not target.name.startswith(TEMP_PREFIX):
            return True
    return _jumps_out(statement, in_loop=False, in_switch=False)


def _jumps_out(node, in_loop: bool, in_switch: bool) -> bool:
    """Whether a `break` or `continue` under `node` leaves it (none of its own loops or
    switches holds it)."""
    if isinstance(node, c_ast.Break):
        return not (in_loop or in_switch)
    if isinstance(node, c_ast.Continue):
        return not in_loop
    loop = isinstance(node, (c_ast.For, c_ast.While, c_ast.DoWhile))
    switch = isinstance(node, c_ast.Switch)
    return any(_jumps_out(child, in_loop or loop, in_switch or switch) for _, child in node.children())


def set_names(statement) -> set[str]:
    """The names `statement` declares or assigns."""
    declared = {node.name for node in nodes(statement) if isinstance(node, c_ast.Decl) and node.name}
    return declared | written_names(statement)
