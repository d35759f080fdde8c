"""`break` and `continue` of a target region's team loops, rewritten into flags the
loop tests, right after the directives are checked.

A loop of the team master's code that holds a parallel region is a team statement
of the SPMDized control loop (codegen/openmp/plan/spmdization.py): the master
decides each test, the team takes the branch it took. A `break` or `continue` in the
master's code that leaves or restarts such a loop would be the master's jump alone,
so the region kept the control loop's state machine (cl_iterative_convergence: a
relaxation loop `while (1) { ... if (change < tol) break; }`). Each becomes a flag:

    while (c) { A; if (x) break; B; }
 -> { int brk = 0, cont = 0;
      while (!brk && (c)) { cont = 0; A; if (x) brk = 1; if (!(brk || cont)) { B; } } }

The statements after a jump, in each block around it up to the loop's body, run
only while neither flag is set. `for (init; c; next)` takes its step only without a
break: `for (init; !brk && (c); ) { cont = 0; body; if (!brk) next; }`; `do body
while (c)` tests `!brk && (c)`. gcc's and Clang's SPMD forms of such regions are
their own; this is the OpenMP program's meaning, in every scheme (the host fallback
and the CPU device run the same tree).

Left as written (the region keeps the control loop): a `continue` inside a `switch`
of the loop (the rest of its case would have to be skipped inside the switch), a
jump inside a GNU statement expression (no flag can skip the rest of the expression),
and a loop whose body has labels or `goto` (a jump could enter a block the rewrite
wraps). Jumps inside an OpenMP construct of the master's code cannot leave it.
"""

from __future__ import annotations

import itertools

from pycparser import c_ast

from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpMetadirective
from omp2gpu.frontend.tree_walks import holds, nodes

LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


def structure_team_loop_jumps(ast: c_ast.FileAST) -> None:
    """Rewrite the jumps of every target region's team loops in place (the flags numbered
    in the file's order)."""
    numbers = itertools.count()
    for node in nodes(ast):
        if isinstance(node, OmpConstruct) and node.directive.has("target") and not node.directive.has("parallel"):
            node.body = _visit(node.body, numbers)


def team_level(node) -> bool:
    """A node that puts the team's threads to work: a parallel region, or a metadirective,
    which may become one (what makes a loop of the master's code a team loop here, and a
    team statement in codegen/openmp/plan/spmdization.py)."""
    return (isinstance(node, OmpConstruct) and node.directive.has("parallel")) or isinstance(node, OmpMetadirective)


def _visit(node, numbers):
    """`node` of the team master's code, its team loops' jumps rewritten (a replacement
    node where `node` itself is such a loop)."""
    if isinstance(node, c_ast.Compound):
        node.block_items = [_visit(item, numbers) for item in node.block_items or []]
    elif isinstance(node, OmpConstruct) and node.directive.constructs \
            and set(node.directive.constructs) <= {"teams", "distribute"}:
        if node.directive.has("distribute") and isinstance(node.body, LOOPS):
            node.body.stmt = _visit(node.body.stmt, numbers)    # no jump may leave a distribute loop
        else:
            node.body = _visit(node.body, numbers)
    elif isinstance(node, c_ast.If) and holds(node, team_level):
        node.iftrue = _visit(node.iftrue, numbers) if node.iftrue is not None else None
        node.iffalse = _visit(node.iffalse, numbers) if node.iffalse is not None else None
    elif isinstance(node, LOOPS) and holds(node, team_level):
        node.stmt = _visit(node.stmt, numbers)
        jumps = _own_jumps(node)
        if jumps and all(through_blocks for _, through_blocks in jumps) \
                and not holds(node.stmt, (c_ast.Label, c_ast.Goto)):
            return _flagged(node, [jump for jump, _ in jumps], next(numbers))
    return node


def _own_jumps(loop) -> list[tuple[c_ast.Node, bool]]:
    """The `break`s and `continue`s that leave or restart `loop` itself, each with whether
    only blocks and `if`s lead to it from the loop's body: the rewrite's reach. Not so a
    `continue` in a `switch` (a `break` there is the switch's) or a jump in a GNU statement
    expression."""
    found = []

    def walk(node, in_switch: bool, through_blocks: bool) -> None:
        for child in node:
            if isinstance(child, (*LOOPS, OmpConstruct, OmpMetadirective)):
                continue
            if isinstance(child, c_ast.Continue) or (isinstance(child, c_ast.Break) and not in_switch):
                found.append((child, through_blocks))
            walk(child, in_switch or isinstance(child, c_ast.Switch),
                 through_blocks and isinstance(child, (c_ast.Compound, c_ast.If)))
    walk(loop.stmt, False, isinstance(loop.stmt, (c_ast.Compound, c_ast.If)))
    return found


def _flagged(loop, jumps: list, number: int) -> c_ast.Compound:
    coord = loop.coord
    stop, again = f"__omp2gpu_break_{number}", f"__omp2gpu_continue_{number}"

    def flag(name):
        return c_ast.ID(name, coord)

    def go_on():
        return c_ast.UnaryOp("!", flag(stop), coord)

    def left():
        return c_ast.UnaryOp("!", c_ast.BinaryOp("||", flag(stop), flag(again), coord), coord)
    body = _without_jumps(loop.stmt, {id(jump): stop if isinstance(jump, c_ast.Break) else again for jump in jumps},
                          left)
    items = [_set(again, "0", coord), body]

    def test(cond):
        return go_on() if cond is None else c_ast.BinaryOp("&&", go_on(), cond, coord)
    if isinstance(loop, c_ast.For):
        if loop.next is not None:
            items.append(c_ast.If(go_on(), loop.next, None, coord))
        rewritten = c_ast.For(loop.init, test(loop.cond), None, c_ast.Compound(items, coord), coord)
    elif isinstance(loop, c_ast.While):
        rewritten = c_ast.While(test(loop.cond), c_ast.Compound(items, coord), coord)
    else:
        rewritten = c_ast.DoWhile(test(loop.cond), c_ast.Compound(items, coord), coord)
    return c_ast.Compound([_declared(stop, coord), _declared(again, coord), rewritten], coord)


def _without_jumps(node, jumps: dict, left):
    """`node` with each jump of `jumps` (id -> its flag) setting its flag, and what follows
    a statement that may jump, in each block around it, run only while no flag is set
    (the test `left()`)."""
    if id(node) in jumps:
        return _set(jumps[id(node)], "1", node.coord)
    if not any(id(n) in jumps for n in nodes(node)):
        return node
    if isinstance(node, c_ast.Compound):
        items = node.block_items or []
        index = next(i for i, item in enumerate(items) if any(id(n) in jumps for n in nodes(item)))
        head = [*items[:index], _without_jumps(items[index], jumps, left)]
        if items[index + 1:]:
            rest = _without_jumps(c_ast.Compound(items[index + 1:], node.coord), jumps, left)
            head.append(c_ast.If(left(), rest, None, node.coord))
        return c_ast.Compound(head, node.coord)
    if isinstance(node, c_ast.If):
        node.iftrue = _without_jumps(node.iftrue, jumps, left) if node.iftrue is not None else None
        node.iffalse = _without_jumps(node.iffalse, jumps, left) if node.iffalse is not None else None
        return node
    # Only blocks and ifs lead to a loop's own jump (a switch holds none: its breaks are
    # its own, and a continue in it leaves the loop as written).
    raise AssertionError(f"a loop's jump under {type(node).__name__}")


def _set(name: str, value: str, coord) -> c_ast.Assignment:
    return c_ast.Assignment("=", c_ast.ID(name, coord), c_ast.Constant("int", value, coord), coord)


def _declared(name: str, coord) -> c_ast.Decl:
    kind = c_ast.TypeDecl(name, [], None, c_ast.IdentifierType(["int"], coord), coord)
    return c_ast.Decl(name, [], [], [], [], kind, c_ast.Constant("int", "0", coord), None, coord)
