"""OpenMP 4.5 region nesting (Section 2.17), checked lexically in each function.

What may be closely nested inside what: inside `teams` only `distribute` and
`parallel`; `distribute` inside `teams`; `teams` inside `target`; no worksharing
construct or `barrier` inside a worksharing, `critical`, `ordered`,
`master`, `task` or `taskloop` region, no `master` inside a worksharing, `task` or
`taskloop` one (5.0: `loop` inside `teams` too; sema/loop_construct.py checks
where a `loop` may bind); no `critical` inside one of the same name; `section`
only as a statement of a `sections` block (which must be a compound statement of
statements, no declarations);
no `return` inside a construct's structured block (it would leave it), and no `goto` into
or out of one, nor a `break` or `continue` out of one (the jump checks below);
`ordered` (without `depend`) closely nested in a loop region with an `ordered`
clause; `cancel` and `cancellation point` closely nested in a region of the kind they
name (parallel, for, sections or a section, task or taskloop for taskgroup: the
innermost leaf, so not `cancel parallel` directly inside `parallel for`, as gcc reads
it); inside a `simd` region only `simd`, `loop`, `atomic` and `ordered simd` (and the
`scan` directive); inside a region with `order(concurrent)` only `loop`, `parallel`, `simd`
and combined constructs that begin with `parallel` (5.1 2.11.3; 5.2 adds `atomic`).
gcc and clang reject these programs too. A construct with no enclosing construct in
its function is orphaned: the region it binds to is only known at run time, so it is
not checked.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError, LoweringError
from omp2gpu.frontend.openmp.clause_types import NogroupClause, OrderClause, OrderedClause, SimdClause
from omp2gpu.frontend.openmp.directive_free import holds_directives
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpMetadirective
from omp2gpu.sema.openmp_constructs import file_functions

WORKSHARING = ("for", "sections", "single")
NO_WORKSHARING_INSIDE = WORKSHARING + ("critical", "ordered", "master", "task",
                                       "masked",        # OpenMP 5.1
                                       "taskloop")
# master and masked may be inside critical, ordered, master and masked regions (gcc agrees).
NO_MASTER_INSIDE = WORKSHARING + ("task", "taskloop")


def check_nesting(ast) -> None:
    """Raise a CompileError at the first construct nested where OpenMP forbids it, or the
    first jump that enters or leaves a construct's structured block."""
    _walk(ast, [], set())
    for function in file_functions(ast):
        if holds_directives(function):      # else no jump can cross a construct
            _check_jumps(function)


def _check_jumps(function: c_ast.FuncDef) -> None:
    """A structured block has one entry and one exit (OpenMP 4.5 1.2.2): a `goto` and its
    label must be inside the same constructs, and so must a `break` or `continue` and the
    loop or switch it leaves. Errors as gcc words them, at the jump."""
    labels, gotos = {}, []
    _collect_jumps(function.body, (), labels, gotos, None, None)
    for goto, constructs in gotos:
        target = labels.get(goto.name)
        if target is None or target == constructs:
            continue                        # an undeclared label is codegen's error
        leaves = target[:len(constructs)] != constructs
        raise CompileError("invalid branch to/from OpenMP structured block" if leaves else
                           "invalid entry to OpenMP structured block", goto.coord)


_LOOPS = (c_ast.For, c_ast.While, c_ast.DoWhile)


def _collect_jumps(node, constructs: tuple, labels: dict, gotos: list, loop, breakable) -> None:
    """constructs: ids of the constructs around `node`; labels: name -> their constructs
    around each label; gotos: (goto, its constructs); loop, breakable: the constructs
    around the innermost loop (`continue`'s target), loop or switch (`break`'s), None
    outside any (codegen's error)."""
    if isinstance(node, (OmpConstruct, OmpMetadirective)):
        constructs = constructs + (id(node),)
    if isinstance(node, c_ast.Label):
        labels.setdefault(node.name, constructs)
    elif isinstance(node, c_ast.Goto) and isinstance(node.name, str):
        gotos.append((node, constructs))
    elif isinstance(node, (c_ast.Break, c_ast.Continue)):
        target = breakable if isinstance(node, c_ast.Break) else loop
        if target is not None and target != constructs:
            raise CompileError("invalid branch to/from OpenMP structured block", node.coord)
    if isinstance(node, _LOOPS):
        loop = breakable = constructs
    elif isinstance(node, c_ast.Switch):
        breakable = constructs
    for child in node:
        _collect_jumps(child, constructs, labels, gotos, loop, breakable)


def _walk(node, enclosing: list, sections: set) -> None:
    """`sections`: ids of the `section` constructs that are statements of a sections block."""
    if isinstance(node, c_ast.FuncDef):
        if not holds_directives(node):
            return                          # nothing in it to check
        enclosing = []                      # a new function: its constructs may be orphaned
    elif isinstance(node, c_ast.Return) and enclosing:
        raise CompileError("invalid branch to/from OpenMP structured block ('return' inside "
                           f"'#pragma omp {enclosing[-1].kind}')", node.coord)
    if isinstance(node, c_ast.FuncCall) and enclosing and enclosing[-1].constructs[-1] == "teams":
        _check_call_in_teams(node)
    if isinstance(node, OmpConstruct):
        if node.directive.constructs[-1] == "sections":
            sections = sections | _section_ids(node)     # its block first, as gcc reads it
        _check(node, enclosing)
        if node.directive.kind == "section" and id(node) not in sections:
            raise CompileError("'#pragma omp section' may only be used in '#pragma omp sections' "
                               "construct", node.coord)
        enclosing = enclosing + [node.directive]
    if isinstance(node, OmpMetadirective):
        _walk_metadirective(node, enclosing, sections)
        return
    for _, child in node.children():
        _walk(child, enclosing, sections)


# OpenMP 5.1 2.7: the only regions strictly nested inside `teams` are distribute,
# parallel and loop regions and these two routines' (gcc rejects any other call).
ROUTINES_IN_TEAMS = ("omp_get_num_teams", "omp_get_team_num")


def _check_call_in_teams(call: c_ast.FuncCall) -> None:
    name = call.name.name if isinstance(call.name, c_ast.ID) else ""
    if name.startswith("omp_") and name not in ROUTINES_IN_TEAMS:
        raise LoweringError(f"OpenMP runtime API call '{name}' strictly nested in a 'teams' region "
                            "(only 'omp_get_num_teams' and 'omp_get_team_num' may be)", call.name.coord)


def _walk_metadirective(node: OmpMetadirective, enclosing: list, sections: set) -> None:
    """Each directive the metadirective may be (on some device) must nest where it is,
    and its statement inside each of them."""
    variants = {id(d): d for d in node.directive.metadirective_variants}
    for directive in variants.values():
        if directive is None:
            _walk(node.body, enclosing, sections) if node.body is not None else None
            continue
        construct = OmpConstruct(directive, node.body, directive.coord)
        _walk(construct, enclosing, sections)


def _section_ids(construct: OmpConstruct) -> set:
    body = construct.body
    if not isinstance(body, c_ast.Compound):
        raise CompileError(f"expected '{{' after '#pragma omp {construct.directive.kind}'",
                           body.coord)
    for item in body.block_items or ():
        if isinstance(item, c_ast.Decl):       # each item is a section: a structured block
            raise CompileError(f"a declaration cannot be a section of '#pragma omp "
                               f"{construct.directive.kind}' (expected a statement)", item.coord)
    return {id(item) for item in body.block_items or ()
            if isinstance(item, OmpConstruct) and item.directive.kind == "section"}


def _closely_enclosing_leaf(enclosing: list, forbidden) -> str | None:
    """The innermost region of `forbidden` kinds around, with no parallel region between
    (a critical inside a `for` still binds to the `for`'s team, as gcc reads it)."""
    for outer in reversed(enclosing):
        if outer.constructs[-1] in forbidden:
            return outer.constructs[-1]
        if any(leaf in ("parallel", "teams", "target") for leaf in outer.constructs):
            return None
    return None


# cancel / cancellation point KIND: the leaves that may closely enclose it (4.5 2.14.1)
CANCEL_REGIONS = {"parallel": ("parallel",), "for": ("for",), "sections": ("sections", "section"),
                  "taskgroup": ("task", "taskloop")}


def _in_taskgroup(enclosing: list) -> bool:
    """Whether a task whose constructs around are `enclosing` may be in a taskgroup region:
    a taskgroup (or a taskloop's implicit one) around it before a parallel, teams or target
    region, or none of those in the function (an orphaned task's caller may hold one), as
    gcc reads it (OpenMP 5.0 2.20.1: `cancel taskgroup` needs a taskgroup region)."""
    for outer in reversed(enclosing):
        if outer.constructs[-1] == "taskgroup" or (
                outer.constructs[-1] == "taskloop" and outer.first(NogroupClause) is None):
            return True
        if any(leaf in ("parallel", "teams", "target") for leaf in outer.constructs):
            return False
    return True


IN_SIMD = ("simd", "loop", "atomic", "scan")          # and `ordered simd`
IN_ORDER_CONCURRENT = ("loop", "parallel", "simd")


def _check_simd_and_concurrent(directive, enclosing: list, where) -> None:
    """What a simd region, and a region with order(concurrent), may encounter (any depth)."""
    first = directive.constructs[0]
    in_simd = directive.kind in IN_SIMD or (first == "ordered" and directive.first(SimdClause) is not None)
    if not in_simd and any("simd" in around.constructs for around in enclosing):
        raise LoweringError("OpenMP constructs other than 'ordered simd', 'simd', 'loop', 'atomic' or 'scan' may not "
                            f"be nested inside a 'simd' region ('{directive.kind}' is)", where)
    concurrent = next((around for around in enclosing
                       if (order := around.first(OrderClause)) is not None and order.kind == "concurrent"), None)
    if concurrent is not None and first not in IN_ORDER_CONCURRENT:
        raise LoweringError(f"'{directive.kind}' may not be nested inside a region with the 'order(concurrent)' "
                            f"clause ('#pragma omp {concurrent.kind}': only 'loop', 'parallel' and 'simd' "
                            "constructs may)", where)


def _check(construct: OmpConstruct, enclosing: list) -> None:
    if not enclosing or construct.directive.kind == "allocate":    # declarative: no region
        return
    directive, outer = construct.directive, enclosing[-1]
    first, outer_leaf = directive.constructs[0], outer.constructs[-1]
    where = construct.coord
    _check_simd_and_concurrent(directive, enclosing, where)
    if outer_leaf == "teams" and first not in ("distribute", "parallel", "loop"):
        raise LoweringError(f"'{directive.kind}' region may not be closely nested inside a 'teams' "
                           "region (only 'distribute', 'parallel' and 'loop' may)", where)
    if first == "distribute" and outer_leaf != "teams":
        raise LoweringError(f"'distribute' region must be closely nested inside a 'teams' region, "
                           f"not '{outer.kind}'", where)
    if first == "teams" and outer_leaf != "target":
        raise LoweringError(f"'teams' construct must be closely nested inside a 'target' construct, "
                           f"not '{outer.kind}'", where)
    # scope (5.1) is a worksharing region: not inside one; gcc lets it hold a worksharing loop.
    forbidden = NO_MASTER_INSIDE if first in ("master", "masked") else \
        NO_WORKSHARING_INSIDE if first in WORKSHARING + ("scope", "barrier") else ()
    around = _closely_enclosing_leaf(enclosing, forbidden)
    if around is not None:
        raise LoweringError(f"'{first}' region may not be closely nested inside a '{around}' region", where)
    if first == "ordered" and not directive.is_standalone and "simd" not in outer.constructs \
            and ("for" not in outer.constructs or outer.first(OrderedClause) is None):
        raise LoweringError("'ordered' region must be closely nested inside a loop region with "
                           "an 'ordered' clause", where)
    if directive.kind in ("cancel", "cancellation point") and directive.cancel_kind in CANCEL_REGIONS:
        allowed = CANCEL_REGIONS[directive.cancel_kind]
        if outer_leaf not in allowed:
            raise LoweringError(f"'{directive.kind} {directive.cancel_kind}' construct not closely nested inside "
                                f"of '{allowed[0]}' (it is inside '{outer.kind}')", where)
        if directive.kind == "cancel" and directive.cancel_kind == "taskgroup" and outer_leaf == "task" \
                and not _in_taskgroup(enclosing[:-1]):
            raise LoweringError("'cancel taskgroup' construct not closely nested inside of 'taskgroup' region", where)
    if first == "critical":
        for around in enclosing:
            if around.constructs[-1] == "critical" and around.critical_name == directive.critical_name:
                name = f" '{directive.critical_name}'" if directive.critical_name else ""
                raise LoweringError(f"cannot nest 'critical{name}' inside a critical region of the "
                                   "same name (it would deadlock)", where)
