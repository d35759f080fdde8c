"""How many teams and threads a target region is launched with, computed by the host
at the launch from the region's clauses and shape (offload_host.py passes them to the
launcher, which fills in what they leave open: offload/policy.launch_configuration).

- Teams: `num_teams` (capped by the trip count when it is known); exactly one when the
  region has no teams construct (OpenMP 4.5 2.10: without `teams` a target region runs
  as one team: a grid of several would run its parallel regions once per team); else 0,
  the launcher's choice from the trip count.
- Threads per team: `thread_limit`, narrowed to what the region's one parallel region
  asks for (`num_threads(n)`, `if([parallel:] false)`) when that region starts the
  team's work: every scheme then runs it with the team's threads as they are (the
  combined schemes have no other way to hear of num_threads). A num_threads the team's
  code must evaluate (an array element, a call) still narrows the launch when the host
  can read it harmlessly (region_shape.hintable_at_launch): num_threads(tested[t]) = 1
  over 1,024 iterations was 8 teams of 128 threads, one thread of each running 128
  iterations; now 1,024 teams of one thread, as Clang launches them.
- The trip count of the loop the teams share, for the launcher's default number of
  teams (a team per block of iterations, or per iteration when the team's threads do not
  share them), found through the split spellings too (region_shape.CombinedShape).
"""

from __future__ import annotations

from typing import NamedTuple

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I32, I64
from omp2gpu.codegen.openmp.data.data_sharing import clauses_named, loop_nest
from omp2gpu.codegen.openmp.data.target_regions import evaluate_clause, integer_operand
from omp2gpu.codegen.openmp.loops import affine_nest, canonical_loop
from omp2gpu.codegen.openmp.plan.region_shape import (
    combined_shape,
    evaluable_at_launch,
    hintable_at_launch,
    nested_constructs,
    sole_statement,
    teams_child,
)
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.tree_walks import nodes_of
from omp2gpu.offload import abi
from omp2gpu.sema import ctypes as ct


def launch_construct(construct):
    """The construct whose clauses shape the launch: the target construct itself, or the
    teams construct that is its whole body."""
    return teams_child(construct) or construct


def runs_as_one_team(construct) -> bool:
    """A target region with no teams construct is one team, whatever a launch asks."""
    return not launch_construct(construct).directive.has("teams")


class TeamCount(NamedTuple):
    """num_teams([lower:] upper) as the host evaluates it."""
    upper: ir.Value                 # 0: no clause, the launcher's choice
    fewest: ir.Value | None         # OpenMP 5.1's lower bound, where the clause gives one


def team_count(cg, construct) -> TeamCount:
    shaping = launch_construct(construct)
    if runs_as_one_team(construct):
        return TeamCount(ir.Constant(I32, 1), None)
    return team_bounds(cg, shaping.directive)


def team_bounds(cg, directive) -> TeamCount:
    """A directive's num_teams, its bounds evaluated in the order written."""
    clause = next(iter(clauses_named(directive, "num_teams")), None)
    fewest = None
    if clause is not None and clause.lower is not None:
        fewest = integer_operand(cg, clause.lower, "num_teams", clause.coord)
    return TeamCount(evaluate_clause(cg, directive, "num_teams"), fewest)


TEAM_QUERIES = frozenset({"omp_get_num_teams", "omp_get_team_num"})
EXACT_LEAGUE_MOST = 65536     # more teams than any GPU runs at once (an H200: 132 x 32 blocks)


def capped_by_trip_count(cg, num_teams: ir.Value, trip_count: ir.Value, construct=None,
                         fewest: ir.Value | None = None) -> ir.Value:
    """num_teams, but no more teams than the loop the teams share has iterations (when
    that is known: trip_count > 0): a team beyond them has no iteration to run, and
    num_teams(INT_MAX) on a short loop would launch two billion idle teams. Where the
    region asks how many teams it has or which it is (`construct`'s code calls
    omp_get_num_teams or omp_get_team_num), only a league of more than EXACT_LEAGUE_MOST
    teams is capped: OpenMP 5.1 makes num_teams(n) exactly n teams (its lower bound is n
    too), and such a region sees the difference, as gcc's and Clang's leagues of n show.
    Never fewer than `fewest`, num_teams(lower: upper)'s lower bound."""
    b = cg.builder
    wide = b.sext(num_teams, I64)
    fewer = b.and_(b.icmp_signed(">", trip_count, ir.Constant(I64, 0)), b.icmp_signed(">", wide, trip_count))
    if construct is not None and any(isinstance(call.name, c_ast.ID) and call.name.name in TEAM_QUERIES
                                     for call in nodes_of(construct.body, c_ast.FuncCall)):
        fewer = b.and_(fewer, b.icmp_signed(">", wide, ir.Constant(I64, EXACT_LEAGUE_MOST)))
    capped = b.select(fewer, b.trunc(trip_count, I32), num_teams)
    if fewest is None:
        return capped
    return b.select(b.icmp_signed("<", capped, fewest), fewest, capped)


def team_size(cg, construct, facts=None) -> ir.Value:
    """thread_limit (0: the launcher's default), narrowed by the leading parallel region.
    `facts`: the region's (a num_threads they say the host reads is read here, as the
    combined scheme they chose it for needs)."""
    b = cg.builder
    size = evaluate_clause(cg, _thread_limit_directive(construct), "thread_limit")
    parallel = _leading_parallel(construct)
    if parallel is None:
        return size
    clause = next(iter(clauses_named(parallel, "num_threads")), None)
    if clause is not None and (hintable_at_launch(clause.expr, construct, cg)    # evaluable_at_launch's too
                               or facts is not None and facts.host_reads_num_threads(parallel)):
        requested = evaluate_clause(cg, parallel, "num_threads")
        narrower = b.and_(b.icmp_signed(">", requested, ir.Constant(I32, 0)),
                          b.or_(b.icmp_signed("==", size, ir.Constant(I32, 0)),
                                b.icmp_signed("<", requested, size)))
        size = b.select(narrower, requested, size)
    for clause in clauses_named(parallel, "if"):
        if clause.modifier in (None, "parallel") and evaluable_at_launch(clause.expr, construct):
            size = b.select(cg.condition(clause.expr), size, ir.Constant(I32, 1))
    return size


def _thread_limit_directive(construct):
    """The teams construct's thread_limit, else the target construct's (OpenMP 5.1)."""
    shaping = launch_construct(construct)
    return shaping.directive if clauses_named(shaping.directive, "thread_limit") else construct.directive


def _leading_parallel(construct):
    """The directive of the region's only parallel region when the region starts with it
    (the target directive, or reached through constructs that are each the whole body of
    the one before, or the loop of a combined shape); else None."""
    parallels = [c.directive for c in nested_constructs(construct.body) if c.directive.has("parallel")]
    if construct.directive.has("parallel"):
        parallels.append(construct.directive)
    if len(parallels) != 1:
        return None
    shape = combined_shape(construct)
    chain = list(shape.directives) if shape is not None else []
    node = construct
    while isinstance(node, OmpConstruct):
        chain.append(node.directive)
        node = sole_statement(node.body)
    return parallels[0] if any(d is parallels[0] for d in chain) else None


class SharedLoop(NamedTuple):
    """The loop nest the teams share: its directive (the collapse clause), its loop, the
    read-only declarations its bounds may use, and whether each iteration is a team's (a
    distribute whose iterations the team's threads do not share)."""
    directive: object
    loop: object
    prelude: tuple
    team_per_iteration: bool


def _shared_loop(construct) -> SharedLoop | None:
    """The combined shape's loop nest, else the teams construct's own distribute (or that
    of the distribute construct that is its whole body, split); None when there is none."""
    shaping = launch_construct(construct)
    if not shaping.directive.has("teams"):
        return None
    shape = combined_shape(construct)
    if shape is not None:
        return SharedLoop(shape.clauses, shape.loop, shape.prelude, False)
    node = shaping
    if not any(node.directive.has(leaf) for leaf in ("distribute", "for")):
        node = sole_statement(shaping.body)
        if not (isinstance(node, OmpConstruct) and node.directive.has("distribute")):
            return None
    return SharedLoop(node.directive, node.body, (),
                      node.directive.has("distribute") and not node.directive.has("for"))


def launch_trip_counts(cg, construct) -> tuple[ir.Value, ir.Value]:
    """(trip_count, the same as the launcher reads it): negated when the teams take the
    loop's iterations one each (`teams distribute` around serial code and a parallel
    region, the control loop's shape), where the launcher makes a team per iteration
    instead of one per block of them: 24 distribute steps were one team of 96 threads
    running them in turn. A loop the host cannot count (_countable_on_host) is 0 for the
    teams' cap and abi.TRIP_COUNT_UNKNOWN for the launcher, which gives it its most teams."""
    shared, count = _host_count(cg, construct)
    if count is None:
        return ir.Constant(I64, 0), ir.Constant(I64, abi.TRIP_COUNT_UNKNOWN)
    if shared is not None and shared.team_per_iteration:
        return count, cg.builder.sub(ir.Constant(I64, 0), count)
    return count, count


def trip_count(cg, construct) -> ir.Value:
    """Iterations of the (collapsed) loop nest the teams share, for the launch
    configuration; 0 if none (or the region has no teams: it is one team), or if the host
    cannot count them (_countable_on_host)."""
    count = _host_count(cg, construct)[1]
    return ir.Constant(I64, 0) if count is None else count


def _host_count(cg, construct) -> tuple[SharedLoop | None, ir.Value | None]:
    """The loop nest the teams share and its iterations as the host counts them at the
    launch (0 when there is none); None for the count where the host cannot."""
    shared = _shared_loop(construct)
    if shared is not None and not _countable_on_host(cg, construct, shared):
        return shared, None
    return shared, _iterations(cg, shared)


def _countable_on_host(cg, construct, shared: SharedLoop) -> bool:
    """Whether the host may evaluate the shared loop nest's bounds (and the declarations
    they read) at the launch to count it: not when they call an OpenMP routine, whose
    answer is the device's, its team's or its thread's where the region's code evaluates
    the bounds (`j < omp_get_num_teams()` under num_teams(2) counts two iterations on the
    device, one on the host). Other calls are evaluated as they always were: OpenMP leaves
    unspecified how many times the side effects of a loop's bounds happen."""
    directive, body, prelude, _ = shared
    depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
    try:
        loops = [canonical_loop.analyze(loop) for loop in loop_nest(body, depth)]
    except CompileError:
        return True                         # _iterations reports the loop as it always has
    parts = [*prelude, *(part for loop in loops for part in (loop.lower, loop.upper, loop.step))]
    return not any(isinstance(call.name, c_ast.ID) and call.name.name.startswith("omp_")
                   for part in parts for call in nodes_of(part, c_ast.FuncCall))


def _iterations(cg, shared: SharedLoop | None) -> ir.Value:
    if shared is None:
        return ir.Constant(I64, 0)
    directive, body, prelude, _ = shared
    depth = max([c.count for c in clauses_named(directive, "collapse")] or [1])
    total = ir.Constant(I64, 1)
    with cg.block_scope():
        for declaration in prelude:         # read-only declarations the bounds may use
            cg.stmt(declaration)
        nest = loop_nest(body, depth)
        if depth > 1 and affine_nest.dependence([canonical_loop.analyze(loop) for loop in nest]) is not None:
            bounds = canonical_loop.nest_bounds(cg, [canonical_loop.analyze(loop) for loop in nest])
            trips = [convert(cg.builder, x.trip_count, x.iv_type, ct.LONG) for x in bounds]
            return canonical_loop.nest_total(cg, bounds, trips)
        for loop in nest:
            canonical = canonical_loop.analyze(loop)
            if canonical.declared_in_loop:
                cg._stmt_DeclList(loop.init)   # bounds of inner loops may use outer variables
            bounds = canonical_loop.LoopBounds(cg, canonical)
            count = cg.builder.zext(bounds.trip_count, I64) if bounds.iv_type.bits < 64 \
                else bounds.trip_count
            total = cg.builder.mul(total, count)
    return total
