"""The per-clause parsers and the `CLAUSES` table that dispatches a clause name
to its parser (`ClauseSpec`): each reads one clause's arguments (map types,
reduction operators, schedule kinds, ...) into its typed clause. The loop constructs'
clauses are loop_clauses.py's; maps, tasks, allocators and interop have modules of
their own too.

`directive_table.py` decides which clauses a directive accepts and
`directive_rules.py` checks the rules that involve several clauses; this module
only reads one clause's arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from omp2gpu.frontend.openmp import allocate_clauses, interop_clauses, loop_clauses, map_clauses, task_clauses
from omp2gpu.frontend.openmp.clause_types import (  # OpenMP 5.0/5.1 atomics and requires
    AbsentClause,
    AcqRelClause,
    AcquireClause,
    AtClause,
    AtomicClause,
    AtomicDefaultMemOrderClause,
    CompareClause,
    ContainsClause,
    CopyinClause,
    CopyprivateClause,
    DefaultClause,
    DeviceClause,
    DynamicAllocatorsClause,
    ExclusiveClause,
    FailClause,
    FilterClause,
    FinalClause,
    FirstprivateClause,
    FullClause,
    GrainsizeClause,
    HasDeviceAddrClause,
    HintClause,
    HoldsClause,
    IfClause,
    InbranchClause,
    InclusiveClause,
    InitializerClause,
    InReductionClause,
    IsDevicePtrClause,
    LastprivateClause,
    LinkClause,
    MergeableClause,
    MessageClause,
    NogroupClause,
    NontemporalClause,
    NoOpenmpClause,
    NoOpenmpRoutinesClause,
    NoParallelismClause,
    NotinbranchClause,
    NowaitClause,
    NumTasksClause,
    NumTeamsClause,
    NumThreadsClause,
    PriorityClause,
    PrivateClause,
    ProcBindClause,
    ReductionClause,
    RelaxedClause,
    ReleaseClause,
    ReverseOffloadClause,
    SeqCstClause,
    SeverityClause,
    SharedClause,
    SimdClause,
    TaskReductionClause,
    ThreadLimitClause,
    ThreadsClause,
    UnifiedAddressClause,
    UnifiedSharedMemoryClause,
    UniformClause,
    UntiedClause,
    UseDeviceAddrClause,
    UseDevicePtrClause,
    WeakClause,
)
from omp2gpu.frontend.openmp.declare_reduction import check_initializer
from omp2gpu.frontend.openmp.directive_table import DIRECTIVES as DIRECTIVE_NAMES
from omp2gpu.frontend.openmp.pragma_syntax import (
    Group,
    constant_int,
    parse_list,
    single_expression,
    single_word,
    split_once,
    split_top,
)

# --------------------------------------------------------------------------
# Clause parsers: (ctx, clause-name token, arguments or None) -> Clause
# --------------------------------------------------------------------------

REDUCTION_OPS = ("+", "*", "-", "&", "|", "^", "&&", "||", "max", "min")
DEFAULT_KINDS = ("shared", "none", "firstprivate", "private")    # the last two: OpenMP 5.0/5.1
# OpenMP 5.0 reduction modifiers (`reduction(task, +: x)`).
REDUCTION_MODIFIERS = ("default", "task", "inscan")
# All directive-name-modifiers of OpenMP 4.5; directives.py checks which apply where.
IF_MODIFIERS = ("parallel", "task", "taskloop", "target", "target data", "target enter data",
                "target exit data", "target update", "cancel",
                "simd")     # OpenMP 5.0


def _list_clause(cls, plain: bool):
    def parse(ctx, tok, args):
        return cls(coord=ctx.loc(tok.offset), items=parse_list(ctx, args, tok.text, plain))
    return parse


def _parse_lastprivate(ctx, tok, args):
    """lastprivate([conditional:] list) (the modifier is OpenMP 5.0's)."""
    if args is not None and len(args.tokens) > 1 and args.tokens[0].kind == "id" \
            and args.tokens[1].is_punct(":"):
        modifier = args.tokens[0]
        if modifier.text != "conditional":
            raise ctx.error(f"expected 'conditional' as the 'lastprivate' modifier, found '{modifier.text}'",
                            modifier.offset)
        _, items = split_once(ctx, args, ":", "'lastprivate' clause")
        return LastprivateClause(coord=ctx.loc(tok.offset), items=parse_list(ctx, items, tok.text, True),
                                 conditional=True)
    return LastprivateClause(coord=ctx.loc(tok.offset), items=parse_list(ctx, args, tok.text, True))


def _expr_clause(cls):
    def parse(ctx, tok, args):
        return cls(coord=ctx.loc(tok.offset), expr=single_expression(ctx, args, tok.text))
    return parse


def _parse_device(ctx, tok, args):
    """`device(n)`, `device(device_num: n)`, `device(ancestor: n)` (OpenMP 5.0)."""
    head, tail = split_once(ctx, args, ":", "'device' clause")
    if tail is None:
        return DeviceClause(coord=ctx.loc(tok.offset), expr=single_expression(ctx, args, "device"))
    word = single_word(ctx, head, ("device_num", "ancestor"), "'device' clause modifier")
    return DeviceClause(coord=ctx.loc(tok.offset), expr=single_expression(ctx, tail, "device"),
                        ancestor=word.text == "ancestor")


def _parse_initializer(ctx, tok, args):
    expression = single_expression(ctx, args, tok.text)
    return InitializerClause(coord=ctx.loc(tok.offset), expr=check_initializer(ctx, expression, args.start))


def _flag_clause(cls):
    return lambda ctx, tok, args: cls(coord=ctx.loc(tok.offset))


def _parse_reduction(ctx, tok, args):
    modifier, args = _reduction_modifier(ctx, args)
    op, items = parse_reduction_parts(ctx, args, "reduction")
    return ReductionClause(coord=ctx.loc(tok.offset), op=op, items=items, modifier=modifier)


def _reduction_modifier(ctx, args: Group) -> tuple[str | None, Group]:
    """`modifier, op: list` (OpenMP 5.0) -> the modifier and `op: list`."""
    tokens = args.tokens
    if len(tokens) > 2 and tokens[0].kind == "id" and tokens[1].is_punct(","):
        if tokens[0].text not in REDUCTION_MODIFIERS:
            raise ctx.error(f"unknown reduction modifier '{tokens[0].text}'", tokens[0].offset)
        return tokens[0].text, Group.of(tokens[2:], args.limit or args.end)
    return None, args


def parse_reduction_parts(ctx, args: Group, clause: str):
    """`op: list` of a reduction, in_reduction or task_reduction clause."""
    head, tail = split_once(ctx, args, ":", f"'{clause}' clause")
    if tail is None:
        raise ctx.error("expected ':' after the reduction operator", head.end)
    op = "".join(t.text for t in head.tokens)
    if not head.tokens:
        raise ctx.error("expected a reduction operator before ':'", head.start)
    # An identifier other than max/min names a `declare reduction` (found by codegen).
    if len(head.tokens) != 1 or (op not in REDUCTION_OPS and head.tokens[0].kind != "id"):
        where = head.tokens[0].offset if head.tokens else head.start
        raise ctx.error(f"invalid reduction operator '{op}'", where)
    return op, parse_list(ctx, tail, clause, plain=False)


def _in_reduction_clause(cls):
    def parse(ctx, tok, args):
        op, items = parse_reduction_parts(ctx, args, tok.text)
        return cls(coord=ctx.loc(tok.offset), op=op, items=items)
    return parse


def _parse_default(ctx, tok, args):
    word = single_word(ctx, args, DEFAULT_KINDS, "'default' clause")
    return DefaultClause(coord=ctx.loc(tok.offset), kind=word.text)


def _parse_proc_bind(ctx, tok, args):
    word = single_word(ctx, args, ("master", "close", "spread", "primary"), "'proc_bind' clause")
    # OpenMP 5.1 renamed `master` to `primary` (gcc 12 takes both): one policy
    return ProcBindClause(coord=ctx.loc(tok.offset), kind="master" if word.text == "primary" else word.text)




















def _parse_priority(ctx, tok, args):
    expr = single_expression(ctx, args, "priority")
    value = constant_int(expr)
    if value is not None and value < 0:
        raise ctx.error("argument of 'priority' must be a non-negative integer", args.start)
    return PriorityClause(coord=ctx.loc(tok.offset), expr=expr)


def _parse_if(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'if' clause")
    clause = IfClause(coord=ctx.loc(tok.offset), expr=None)
    if tail is not None:
        words = head.tokens
        modifier = " ".join(t.text for t in words)
        if not words:
            raise ctx.error("expected a directive-name-modifier before ':' in 'if' clause",
                            head.start)
        if any(t.kind != "id" for t in words) or modifier not in IF_MODIFIERS:
            raise ctx.error(f"unknown directive-name-modifier '{ctx.spelling(head)}' "
                            "in 'if' clause", head.start)
        clause.modifier, clause.modifier_coord = modifier, ctx.loc(head.start)
    clause.expr = single_expression(ctx, tail if tail is not None else head, "if")
    return clause














def _parse_fail(ctx, tok, args):
    word = single_word(ctx, args, ("seq_cst", "acquire", "relaxed"), "'fail' clause")
    return FailClause(coord=ctx.loc(tok.offset), order=word.text)


def _parse_default_mem_order(ctx, tok, args):
    word = single_word(ctx, args, ("seq_cst", "acq_rel", "relaxed"),
                       "'atomic_default_mem_order' clause")
    return AtomicDefaultMemOrderClause(coord=ctx.loc(tok.offset), order=word.text)








@dataclass(frozen=True)
class ClauseSpec:
    parse: Callable
    arguments: str          # "none", "required" or "optional"


def _atomic(kind: str) -> ClauseSpec:
    return ClauseSpec(lambda ctx, tok, args: AtomicClause(coord=ctx.loc(tok.offset), kind=kind),
                      "none")


CLAUSES: dict[str, ClauseSpec] = {
    "private": ClauseSpec(_list_clause(PrivateClause, plain=True), "required"),
    "firstprivate": ClauseSpec(_list_clause(FirstprivateClause, plain=True), "required"),
    "lastprivate": ClauseSpec(_parse_lastprivate, "required"),
    "shared": ClauseSpec(_list_clause(SharedClause, plain=True), "required"),
    "copyin": ClauseSpec(_list_clause(CopyinClause, plain=True), "required"),
    "copyprivate": ClauseSpec(_list_clause(CopyprivateClause, plain=True), "required"),
    "is_device_ptr": ClauseSpec(_list_clause(IsDevicePtrClause, plain=True), "required"),
    "use_device_ptr": ClauseSpec(_list_clause(UseDevicePtrClause, plain=True), "required"),
    "to": ClauseSpec(map_clauses.parse_to, "required"),
    "from": ClauseSpec(map_clauses.parse_from, "required"),
    "use_device_addr": ClauseSpec(_list_clause(UseDeviceAddrClause, plain=True), "required"),
    "has_device_addr": ClauseSpec(_list_clause(HasDeviceAddrClause, plain=True), "required"),
    "link": ClauseSpec(_list_clause(LinkClause, plain=True), "required"),
    "uniform": ClauseSpec(_list_clause(UniformClause, plain=True), "required"),
    "map": ClauseSpec(map_clauses.parse_map, "required"),
    "reduction": ClauseSpec(_parse_reduction, "required"),
    "aligned": ClauseSpec(loop_clauses.parse_aligned, "required"),
    "linear": ClauseSpec(loop_clauses.parse_linear, "required"),
    "depend": ClauseSpec(task_clauses.parse_depend, "required"),
    "doacross": ClauseSpec(task_clauses.parse_doacross, "required"),      # OpenMP 5.2's depend(source|sink)
    "num_teams": ClauseSpec(_expr_clause(NumTeamsClause), "required"),
    "thread_limit": ClauseSpec(_expr_clause(ThreadLimitClause), "required"),
    "num_threads": ClauseSpec(_expr_clause(NumThreadsClause), "required"),
    "device": ClauseSpec(_parse_device, "required"),
    "hint": ClauseSpec(_expr_clause(HintClause), "required"),
    "final": ClauseSpec(_expr_clause(FinalClause), "required"),
    "priority": ClauseSpec(_parse_priority, "required"),
    "grainsize": ClauseSpec(task_clauses.task_count_clause(GrainsizeClause), "required"),
    "num_tasks": ClauseSpec(task_clauses.task_count_clause(NumTasksClause), "required"),
    "nogroup": ClauseSpec(_flag_clause(NogroupClause), "none"),
    "initializer": ClauseSpec(_parse_initializer, "required"),
    "if": ClauseSpec(_parse_if, "required"),
    "default": ClauseSpec(_parse_default, "required"),
    "defaultmap": ClauseSpec(map_clauses.parse_defaultmap, "required"),
    "proc_bind": ClauseSpec(_parse_proc_bind, "required"),
    "collapse": ClauseSpec(loop_clauses.parse_collapse, "required"),
    "ordered": ClauseSpec(loop_clauses.parse_ordered, "optional"),
    "safelen": ClauseSpec(loop_clauses.parse_safelen, "required"),
    "simdlen": ClauseSpec(loop_clauses.parse_simdlen, "required"),
    "schedule": ClauseSpec(loop_clauses.parse_schedule, "required"),
    "dist_schedule": ClauseSpec(loop_clauses.parse_dist_schedule, "required"),
    "nowait": ClauseSpec(_flag_clause(NowaitClause), "none"),
    "seq_cst": ClauseSpec(_flag_clause(SeqCstClause), "none"),
    "acq_rel": ClauseSpec(_flag_clause(AcqRelClause), "none"),
    "release": ClauseSpec(_flag_clause(ReleaseClause), "none"),
    "acquire": ClauseSpec(_flag_clause(AcquireClause), "none"),
    "relaxed": ClauseSpec(_flag_clause(RelaxedClause), "none"),
    "compare": ClauseSpec(_flag_clause(CompareClause), "none"),
    "weak": ClauseSpec(_flag_clause(WeakClause), "none"),
    "fail": ClauseSpec(_parse_fail, "required"),
    "reverse_offload": ClauseSpec(_flag_clause(ReverseOffloadClause), "none"),
    "unified_address": ClauseSpec(_flag_clause(UnifiedAddressClause), "none"),
    "unified_shared_memory": ClauseSpec(_flag_clause(UnifiedSharedMemoryClause), "none"),
    "dynamic_allocators": ClauseSpec(_flag_clause(DynamicAllocatorsClause), "none"),
    "atomic_default_mem_order": ClauseSpec(_parse_default_mem_order, "required"),
    "inclusive": ClauseSpec(_list_clause(InclusiveClause, plain=True), "required"),
    "exclusive": ClauseSpec(_list_clause(ExclusiveClause, plain=True), "required"),
    "threads": ClauseSpec(_flag_clause(ThreadsClause), "none"),
    "simd": ClauseSpec(_flag_clause(SimdClause), "none"),
    "untied": ClauseSpec(_flag_clause(UntiedClause), "none"),
    "mergeable": ClauseSpec(_flag_clause(MergeableClause), "none"),
    "inbranch": ClauseSpec(_flag_clause(InbranchClause), "none"),
    "notinbranch": ClauseSpec(_flag_clause(NotinbranchClause), "none"),
    "read": _atomic("read"),
    "write": _atomic("write"),
    "update": ClauseSpec(task_clauses.parse_update, "optional"),     # atomic update; depobj update(type)
    # OpenMP 5.x tasking (task_clauses.py)
    "in_reduction": ClauseSpec(_in_reduction_clause(InReductionClause), "required"),
    "task_reduction": ClauseSpec(_in_reduction_clause(TaskReductionClause), "required"),
    "affinity": ClauseSpec(task_clauses.parse_affinity, "required"),
    "detach": ClauseSpec(task_clauses.parse_detach, "required"),
    "destroy": ClauseSpec(task_clauses.parse_destroy, "optional"),
    "capture": _atomic("capture"),
    "bind": ClauseSpec(loop_clauses.parse_bind, "required"),
    "order": ClauseSpec(loop_clauses.parse_order, "required"),
}

# ---------------------------------------------------- OpenMP 5.0/5.1: masked, error, assume, simd
def _parse_at(ctx, tok, args):
    word = single_word(ctx, args, ("compilation", "execution"), "'at' clause")
    return AtClause(coord=ctx.loc(tok.offset), kind=word.text)


def _parse_severity(ctx, tok, args):
    word = single_word(ctx, args, ("fatal", "warning"), "'severity' clause")
    return SeverityClause(coord=ctx.loc(tok.offset), kind=word.text)


def _parse_message(ctx, tok, args):
    return MessageClause(coord=ctx.loc(tok.offset), expr=single_expression(ctx, args, "message"))


def _directive_list_clause(cls):
    """absent(name, ...) / contains(name, ...): OpenMP directive names (one word or more)."""
    def parse(ctx, tok, args):
        names, coords = [], []
        for piece in split_top(args, ","):
            words = piece.tokens
            name = " ".join(t.text for t in words)
            if not words or any(t.kind != "id" for t in words) or name not in DIRECTIVE_NAMES:
                raise ctx.error(f"expected an OpenMP directive name in '{tok.text}' clause",
                                words[0].offset if words else piece.start)
            names.append(name)
            coords.append(ctx.loc(words[0].offset))
        return cls(coord=ctx.loc(tok.offset), names=names, name_coords=coords)
    return parse


def _parse_num_teams(ctx, tok, args):
    """`num_teams(upper)` or OpenMP 5.1's `num_teams(lower: upper)`."""
    lower, upper = split_once(ctx, args, ":", "'num_teams' clause")
    if upper is None:
        return NumTeamsClause(coord=ctx.loc(tok.offset), expr=single_expression(ctx, args, "num_teams"))
    return NumTeamsClause(coord=ctx.loc(tok.offset), expr=single_expression(ctx, upper, "num_teams"),
                          lower=single_expression(ctx, lower, "num_teams"))


CLAUSES.update({
    "num_teams": ClauseSpec(_parse_num_teams, "required"),
    "filter": ClauseSpec(_expr_clause(FilterClause), "required"),
    "at": ClauseSpec(_parse_at, "required"),
    "severity": ClauseSpec(_parse_severity, "required"),
    "message": ClauseSpec(_parse_message, "required"),
    "holds": ClauseSpec(_expr_clause(HoldsClause), "required"),
    "absent": ClauseSpec(_directive_list_clause(AbsentClause), "required"),
    "contains": ClauseSpec(_directive_list_clause(ContainsClause), "required"),
    "no_openmp": ClauseSpec(_flag_clause(NoOpenmpClause), "none"),
    "no_openmp_routines": ClauseSpec(_flag_clause(NoOpenmpRoutinesClause), "none"),
    "no_parallelism": ClauseSpec(_flag_clause(NoParallelismClause), "none"),
    "nontemporal": ClauseSpec(_list_clause(NontemporalClause, plain=True), "required"),
})

# OpenMP clauses of constructs this compiler does not support: reported as "not valid
# here" rather than "unknown".
OTHER_OPENMP_CLAUSES = frozenset()


CLAUSES.update({                                # OpenMP 5.0/5.1 memory management
    "allocator": ClauseSpec(allocate_clauses.parse_allocator, "required"),
    "align": ClauseSpec(allocate_clauses.parse_align, "required"),
    "allocate": ClauseSpec(allocate_clauses.parse_allocate, "required"),
    "uses_allocators": ClauseSpec(allocate_clauses.parse_uses_allocators, "required"),
})

CLAUSES.update({                                # OpenMP 5.1 loop transformations: tile, unroll
    "sizes": ClauseSpec(loop_clauses.parse_sizes, "required"),
    "full": ClauseSpec(_flag_clause(FullClause), "none"),
    "partial": ClauseSpec(loop_clauses.parse_partial, "optional"),
})

# ---------------------------------------------------- OpenMP 5.1 interop (interop_clauses.py)
CLAUSES.update({
    "init": ClauseSpec(interop_clauses.parse_init, "required"),
    "use": ClauseSpec(interop_clauses.parse_use, "required"),
})
