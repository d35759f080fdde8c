"""What shape a target region has, read from its OpenMP tree: the facts the schemes'
eligibility (scheme_interface.RegionScheme.ineligibility) and the launch shape
(launch_shape.py) are made of.

- The combined construct, however it is spelt (CombinedShape): the one directive
  `target teams distribute parallel for [simd]`, or `target teams` holding only
  `distribute parallel for` after read-only scalar declarations that every thread can
  make itself, or either split further (`target` holding `teams distribute parallel
  for`, or `teams` holding the loop), in the shape of the paper's Section 4;
- whether a region has parallelism of its own (a serial kernel needs none);
- which clause expressions the host may evaluate at the launch.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from types import SimpleNamespace

from pycparser import c_ast

from omp2gpu.codegen.openmp.data.data_sharing import clauses_named
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes_of
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.captures import assigned_names, free_identifiers

COMBINED_KINDS = ("target teams distribute parallel for", "target teams distribute parallel for simd")
IN_THREAD_CONSTRUCTS = ("atomic", "simd")    # what the combined scheme's threads may meet
PARALLEL_LEAVES = ("teams", "distribute", "parallel", "for", "simd", "sections")


def nested_constructs(node) -> list[OmpConstruct]:
    """The OpenMP constructs at or below `node`, in source order."""
    return list(nodes_of(node, OmpConstruct))


@dataclass(frozen=True)
class CombinedShape:
    """A region in the combined construct's shape, however it is spelled: the one
    directive `target teams distribute parallel for`, or `target teams` holding
    `distribute parallel for`, or `target` holding `teams distribute parallel for`, or
    `target` holding `teams` holding `distribute parallel for` (the split spellings mean
    the same, OpenMP 4.5 2.11)."""
    directives: tuple           # outermost first; the loop's own directive last
    loop: c_ast.Node            # the (outermost) loop statement
    prelude: tuple = ()         # read-only declarations before the loop (_spmd_prelude)
    per_team: bool = False      # a teams region's `parallel for`: each team runs the whole loop

    @property
    def loop_directive(self):
        return self.directives[-1]

    @property
    def clauses(self) -> SimpleNamespace:
        """Every directive's clauses as one list; a reduction the teams and the loop both
        name (spelt split, a program must name it on each) is one reduction."""
        merged, reduced = [], set()
        for directive in self.directives:
            for clause in directive.clauses:
                if clause.name == "reduction":
                    items = [item for item in clause.items if (clause.op, item.name) not in reduced]
                    reduced |= {(clause.op, item.name) for item in items}
                    if not items:
                        continue
                    clause = replace(clause, items=items)
                merged.append(clause)
        return SimpleNamespace(clauses=merged)


_LOOP_KINDS = ("distribute parallel for", "distribute parallel for simd")
_TEAMS_LOOP_KINDS = tuple(f"teams {kind}" for kind in _LOOP_KINDS)
# One team's worksharing loop as the whole target region (a `gpu` shape).
_PARALLEL_LOOP_KINDS = ("parallel for", "parallel for simd")
_ONE_TEAM_KINDS = tuple(f"target {kind}" for kind in _PARALLEL_LOOP_KINDS)
_WORKSHARING_LOOP_KINDS = ("for", "for simd")


def sole_statement(node):
    """The statement a compound of one statement (at any depth) holds, else node."""
    while isinstance(node, c_ast.Compound) and len(node.block_items or ()) == 1:
        node = node.block_items[0]
    return node


def teams_child(construct):
    """The teams construct that is the whole body of a `target` construct, or None."""
    body = sole_statement(construct.body)
    if construct.directive.kind == "target" and isinstance(body, OmpConstruct) and body.directive.has("teams"):
        return body
    return None


def combined_shape(construct, gpu: bool = False) -> CombinedShape | None:
    """The region as a combined construct, or None when it is not one. `gpu`: also the
    shapes the GPU's combined scheme takes, as Clang emits them SPMD (the CPU device's
    work-group schemes spread a team over its workers otherwise): a parallel worksharing
    loop that is the whole region (`target parallel for`, `target` holding `parallel for`,
    `target parallel` holding `for` after declarations), the combined construct of a
    league of one team; and a teams region holding only a `parallel for`, which each team
    runs whole (`per_team`)."""
    directive = construct.directive
    if directive.kind in COMBINED_KINDS:
        return CombinedShape((directive,), construct.body)
    if gpu:
        shape = _one_team_shape(construct)
        if shape is not None:
            return shape
    teams, outer = construct, (directive,)
    if directive.kind == "target":
        teams = teams_child(construct)
        if teams is None:
            return None
        if teams.directive.kind in _TEAMS_LOOP_KINDS:
            return CombinedShape((directive, teams.directive), teams.body)
        outer = (directive, teams.directive)
    if teams.directive.kind not in ("teams", "target teams"):
        return None
    split = _teams_prelude_and_loop(teams)
    if split is None and gpu:
        # the teams region's whole body (no declarations before it: the launch then sees
        # the loop's num_threads, launch_shape._leading_parallel)
        loop = sole_statement(teams.body)
        if isinstance(loop, OmpConstruct) and loop.directive.kind in _PARALLEL_LOOP_KINDS:
            return CombinedShape(outer + (loop.directive,), loop.body, per_team=True)
    if split is None:
        return None
    prelude, loop = split
    return CombinedShape(outer + (loop.directive,), loop.body, tuple(prelude))


def _one_team_shape(construct) -> CombinedShape | None:
    directive = construct.directive
    if directive.kind in _ONE_TEAM_KINDS:
        return CombinedShape((directive,), construct.body)
    body = sole_statement(construct.body)
    if directive.kind == "target" and isinstance(body, OmpConstruct):
        if body.directive.kind in _PARALLEL_LOOP_KINDS:
            return CombinedShape((directive, body.directive), body.body)
        if body.directive.kind != "parallel":
            return None
        construct, outer = body, (directive, body.directive)
    elif directive.kind == "target parallel":
        outer = (directive,)
    else:
        return None
    split = _prelude_and_loop(construct, _WORKSHARING_LOOP_KINDS)
    if split is None:
        return None
    prelude, loop = split
    return CombinedShape(outer + (loop.directive,), loop.body, tuple(prelude))


def _teams_prelude_and_loop(construct):
    """([declarations], loop construct) of `teams { decls; distribute parallel for }`."""
    return _prelude_and_loop(construct, _LOOP_KINDS)


def _prelude_and_loop(construct, loop_kinds):
    """([declarations], loop construct) of `construct { decls; LOOP }`, LOOP of `loop_kinds`."""
    body = sole_statement(construct.body)
    if isinstance(body, OmpConstruct):
        return ([], body) if body.directive.kind in loop_kinds else None
    if not isinstance(body, c_ast.Compound) or not body.block_items:
        return None
    *prelude, last = body.block_items
    if isinstance(last, OmpConstruct) and last.directive.kind in loop_kinds and _spmd_prelude(prelude, last):
        return prelude, last
    return None


# What an initialiser may hold: values of variables, not memory through pointers (the
# loop may write that memory while a slower thread still runs its prelude).
_PURE_EXPRESSIONS = (c_ast.Constant, c_ast.ID, c_ast.BinaryOp, c_ast.TernaryOp, c_ast.Cast,
                     c_ast.Typename, c_ast.TypeDecl, c_ast.IdentifierType, c_ast.PtrDecl)
_WRITING_OPERATORS = ("++", "--", "p++", "p--", "&")


def _spmd_prelude(prelude: list, loop: OmpConstruct) -> bool:
    """Whether each thread may run the declarations itself with the same effect as the team
    master running them once: scalar locals with initialisers that only read (no calls,
    no assignments, no address taken), which the loop only reads and its clauses and
    header do not name."""
    names, read = set(), set()
    for item in prelude:
        decls = item.decls if isinstance(item, c_ast.DeclList) else [item]
        for decl in decls:
            if not (isinstance(decl, c_ast.Decl) and decl.name and not decl.storage and decl.init is not None
                    and "volatile" not in decl.quals
                    and isinstance(decl.type, (c_ast.TypeDecl, c_ast.PtrDecl)) and reads_only(decl.init)):
                return False
            names.add(decl.name)
            read |= set(free_identifiers(decl.init))
    header = [part for loop_node in _outer_loops(loop.body) for part in (loop_node.init, loop_node.cond,
                                                                            loop_node.next)]
    clause_names = {getattr(item, "name", None) for clause in loop.directive.clauses
                    for item in getattr(clause, "items", ())}
    written = assigned_names(loop.body)
    return not (names & clause_names or (names | read) & written or
                any(names & set(free_identifiers(part)) for part in header))


def reads_only(node) -> bool:
    """Whether `node` only reads variables: no memory through pointers or arrays, no call."""
    return _host_readable(node, lambda name: True, lambda name: False, lambda name: False, {}, depth=0)


def evaluable_at_launch(expression, construct) -> bool:
    """Whether the host may evaluate a clause expression of the region at its launch with
    the value the region's code would give it (launch_shape.py): it only reads variables,
    and none the region declares (a prelude's)."""
    if not reads_only(expression):
        return False
    declared = {declaration.name for declaration in nodes_of(construct.body, c_ast.Decl)}
    return not set(free_identifiers(expression)) & declared


def hintable_at_launch(expression, construct, cg) -> bool:
    """Whether the host may evaluate a clause expression at the launch to shape the launch
    only, the team's code still evaluating it (launch_shape.team_size): besides what
    evaluable_at_launch takes, elements of the enclosing function's own arrays (automatic
    ones: no pointer, whose target may be a device address, no `declare target` global) and
    calls to this file's functions that only return such an expression of their parameters.
    Nothing is written and no memory but the host's own arrays is read. The host's value
    may differ from the region's (its copy of an array); that at most leaves the team
    fewer threads than num_threads asks, which OpenMP allows."""
    return host_readable_at_launch(expression, construct, cg.scope.lookup, cg.module.function_definitions)


def host_readable_at_launch(expression, construct, lookup, definitions: dict) -> bool:
    """hintable_at_launch's test, on a scope's `lookup` and the file's function
    `definitions` (region_facts reads it before codegen, on sema's typed scopes)."""
    declared = {declaration.name for declaration in nodes_of(construct.body, c_ast.Decl)}

    def outer_symbol(name: str):
        return None if name in declared else lookup(name)

    def host_array(name: str) -> bool:
        symbol = outer_symbol(name)
        return (symbol is not None and symbol.kind == "object" and symbol.storage == "auto"
                and not symbol.volatile and isinstance(symbol.ctype, (ct.ArrayType, ct.VariableArrayType)))

    def file_function(name: str) -> bool:
        symbol = outer_symbol(name)
        return symbol is not None and symbol.kind == "function"

    return _host_readable(expression, lambda name: name not in declared, host_array, file_function,
                          definitions, depth=0)


def _host_readable(node, readable_name, host_array, file_function, functions: dict, depth: int) -> bool:
    """`node` reads only names `readable_name` accepts, elements of `host_array`s, and what
    the single `return` of a called function of `functions` (a name `file_function` says
    is one, not a pointer's) reads of its parameters."""
    def inner(child) -> bool:
        return _host_readable(child, readable_name, host_array, file_function, functions, depth)

    if node is None:
        return True
    if isinstance(node, c_ast.ID):
        return readable_name(node.name)
    if isinstance(node, c_ast.ArrayRef):
        return isinstance(node.name, c_ast.ID) and host_array(node.name.name) and inner(node.subscript)
    if isinstance(node, c_ast.FuncCall):
        named = isinstance(node.name, c_ast.ID) and file_function(node.name.name)
        definition = functions.get(node.name.name) if named else None
        items = (definition.body.block_items or []) if definition is not None else []
        if depth > 8 or len(items) != 1 or not isinstance(items[0], c_ast.Return):
            return False
        parameters = {getattr(p, "name", None) for p in (getattr(definition.decl.type.args, "params", None) or [])}
        arguments = node.args.exprs if node.args is not None else []
        return all(inner(argument) for argument in arguments) and _host_readable(
            items[0].expr, parameters.__contains__, lambda name: False, lambda name: name not in parameters,
            functions, depth + 1)
    if isinstance(node, c_ast.StructRef):
        return node.type == "." and inner(node.name)        # not p->x; the field is no variable
    if not isinstance(node, _PURE_EXPRESSIONS + (c_ast.UnaryOp,)):
        return False
    if isinstance(node, c_ast.UnaryOp) and (node.op in _WRITING_OPERATORS or node.op == "*"):
        return False
    return all(inner(child) for _, child in node.children())


def _parallel_size_clauses(directive):
    """The clauses that narrow a parallel region: num_threads, if([parallel:] ...)."""
    return [clause for clause in directive.clauses if clause.name == "num_threads" or (
        clause.name == "if" and clause.modifier in (None, "parallel"))]


def _outer_loops(node) -> list:
    node = sole_statement(node)
    return [node] if isinstance(node, c_ast.For) else []


def num_threads_read_at_launch(directive, facts) -> bool:
    """Whether a combined kernel's launch takes `directive`'s num_threads from the host
    (`facts`, region_facts.RegionFacts: an expression the host reads harmlessly)."""
    return facts is not None and bool(clauses_named(directive, "num_threads")) \
        and facts.host_reads_num_threads(directive)


def team_size_ineligibility(construct, shape, facts=None) -> str | None:
    """Why a combined kernel (GPU or CPU), whose team size is fixed at the launch, cannot
    honour the region's num_threads/if clauses (None: the host evaluates them there).
    `facts` (region_facts.RegionFacts): a num_threads the host can read harmlessly (an
    element of its own array, a call of a function returning such an expression) is
    evaluated at the launch too, as Clang evaluates a combined construct's num_threads on
    the host and passes its value (the team's code never reads it again)."""
    for directive in shape.directives:
        for clause in _parallel_size_clauses(directive):
            if clause.name == "num_threads" and num_threads_read_at_launch(directive, facts):
                continue
            if not evaluable_at_launch(clause.expr, construct):
                return (f"its '{clause.name}' clause calls or writes: the team's code must evaluate it "
                        "(the combined scheme's team size is fixed at the launch)")
    return None


def combined_ineligibility(construct, facts=None, gpu: bool = False) -> str | None:
    """Why the combined scheme cannot run this region (None: it can). `facts`
    (region_facts.RegionFacts) say which reduction items name whole arrays, which
    codegen reduces as sections of their full length; `gpu`: combined_shape's."""
    shape = combined_shape(construct, gpu)
    if shape is None:
        return (f"'{construct.directive.kind}' is not 'target teams distribute parallel for' "
                "(or 'target teams' around only 'distribute parallel for' or only 'parallel for', or these split)")
    for clause in clauses_named(shape.loop_directive, "schedule"):
        chunk = getattr(clause.chunk, "value", None)
        if clause.kind != "static" or (clause.chunk is not None and chunk != "1"):
            return "schedule must be absent or static,1 for the grid-stride loop"
    if any(clauses_named(c.directive, "linear") for c in nested_constructs(shape.loop)):
        return "'linear' on a loop in the combined construct's body needs the control-loop scheme"
    for directive in shape.directives:
        for clause in clauses_named(directive, "reduction"):
            for item in clause.items:
                if item.sections or facts is not None and facts.reduces_whole_array(directive, item.name):
                    reason = _array_reduction_ineligibility(directive, item, facts)
                    if reason:
                        return reason
    reason = team_size_ineligibility(construct, shape, facts if gpu else None)
    if reason:
        return reason
    loop = shape.loop
    # Atomics are single instructions for each thread, and a `simd` loop (what a nested
    # thread-bound `loop` becomes) runs in the thread that meets it; anything else needs
    # coordination.
    inner = [c for c in nested_constructs(loop) if c.directive.kind not in IN_THREAD_CONSTRUCTS]
    if inner:
        return f"the loop body holds '#pragma omp {inner[0].directive.kind}'"
    return None


# The longest array a combined kernel reduces: each thread keeps a copy of the whole array,
# and the team folds it element by element (a barrier each).
MAX_REDUCED_ARRAY = 32


def _array_reduction_ineligibility(directive, item, facts) -> str | None:
    """Why the combined scheme cannot reduce an array section (or whole array) item."""
    array = facts.reduced_array(directive, item.name) if facts is not None else None
    if array is None or len(item.sections) > 1:
        return "reductions over array sections need the control-loop scheme (unless of a one-dimensional array " \
               f"variable of at most {MAX_REDUCED_ARRAY} elements)"
    scalars, scalar = array
    if scalars > MAX_REDUCED_ARRAY:
        return (f"a reduction over an array of {scalars} elements needs the control-loop scheme (the combined "
                f"kernel's threads each keep a copy of at most {MAX_REDUCED_ARRAY})")
    if not scalar.is_arithmetic or scalar.is_integer and scalar.bits < 32:
        return f"a reduction over an array of '{scalar}' needs the control-loop scheme"
    return None


def has_parallelism(construct) -> bool:
    """Whether a region forks threads or teams or shares work (it or a construct inside)."""
    own = any(construct.directive.has(leaf) for leaf in PARALLEL_LEAVES)
    return own or any(any(c.directive.has(leaf) for leaf in PARALLEL_LEAVES)
                      for c in nested_constructs(construct.body))
