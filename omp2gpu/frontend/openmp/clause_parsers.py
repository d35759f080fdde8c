"""The per-clause parsers and the `CLAUSES` table that dispatches a clause name
to its parser (`ClauseSpec`): each reads one clause's arguments (map types,
reduction operators, schedule kinds, ...) into its typed clause.

`directive_table.py` decides which clauses a directive accepts and
`directive_rules.py` checks the rules that involve several clauses; this module
only reads one clause's arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from pycparser import c_ast

from omp2gpu.frontend.openmp import allocate_clauses, interop_clauses, map_clauses, task_clauses
from omp2gpu.frontend.openmp.clause_types import (  # OpenMP 5.0/5.1 atomics and requires
    AbsentClause,
    AcqRelClause,
    AcquireClause,
    AlignedClause,
    AtClause,
    AtomicClause,
    AtomicDefaultMemOrderClause,
    BindClause,
    CollapseClause,
    CompareClause,
    ContainsClause,
    CopyinClause,
    CopyprivateClause,
    DefaultClause,
    DeviceClause,
    DistScheduleClause,
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
    LinearClause,
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
    OrderClause,
    OrderedClause,
    PartialClause,
    PriorityClause,
    PrivateClause,
    ProcBindClause,
    ReductionClause,
    RelaxedClause,
    ReleaseClause,
    ReverseOffloadClause,
    SafelenClause,
    ScheduleClause,
    SeqCstClause,
    SeverityClause,
    SharedClause,
    SimdClause,
    SimdlenClause,
    SizesClause,
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
    parse_expression,
    parse_list,
    positive_constant,
    single_expression,
    single_word,
    split_once,
    split_top,
    take_parenthesized,
)

# --------------------------------------------------------------------------
# Clause parsers: (ctx, clause-name token, arguments or None) -> Clause
# --------------------------------------------------------------------------

REDUCTION_OPS = ("+", "*", "-", "&", "|", "^", "&&", "||", "max", "min")
SCHEDULE_KINDS = ("static", "dynamic", "guided", "auto", "runtime")
SCHEDULE_MODIFIERS = ("monotonic", "nonmonotonic", "simd")
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
    """lastprivate(list); OpenMP 5.0's `conditional:` modifier is refused by name (not read
    as a variable followed by a stray ':')."""
    if args is not None and len(args.tokens) > 1 and args.tokens[0].kind == "id" \
            and args.tokens[1].is_punct(":"):
        modifier = args.tokens[0]
        if modifier.text == "conditional":
            raise ctx.error("the 'conditional' modifier of 'lastprivate' (OpenMP 5.0) is not supported",
                            modifier.offset)
        raise ctx.error(f"expected 'conditional' as the 'lastprivate' modifier, found '{modifier.text}'",
                        modifier.offset)
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


def _parse_collapse(ctx, tok, args):
    return CollapseClause(coord=ctx.loc(tok.offset), count=positive_constant(ctx, args, "collapse"))


def _parse_ordered(ctx, tok, args):
    count = positive_constant(ctx, args, "ordered") if args is not None else None
    return OrderedClause(coord=ctx.loc(tok.offset), count=count)


def _parse_safelen(ctx, tok, args):
    return SafelenClause(coord=ctx.loc(tok.offset), length=positive_constant(ctx, args, "safelen"))


def _parse_simdlen(ctx, tok, args):
    return SimdlenClause(coord=ctx.loc(tok.offset), length=positive_constant(ctx, args, "simdlen"))


def _parse_schedule(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'schedule' clause")
    modifiers = _parse_schedule_modifiers(ctx, head) if tail is not None else ()
    kind_group, chunk_group = _kind_and_chunk(ctx, tail if tail is not None else head, "schedule")
    kind = single_word(ctx, kind_group, SCHEDULE_KINDS, "'schedule' clause").text
    if chunk_group is not None and kind in ("auto", "runtime"):
        raise ctx.error(f"schedule kind '{kind}' takes no chunk size", chunk_group.sep.offset)
    if "nonmonotonic" in modifiers and kind not in ("dynamic", "guided"):
        raise ctx.error("'nonmonotonic' requires schedule kind 'dynamic' or 'guided'",
                        kind_group.start)
    return ScheduleClause(coord=ctx.loc(tok.offset), kind=kind, modifiers=modifiers,
                          chunk=_chunk(ctx, chunk_group, "schedule"))


def _parse_schedule_modifiers(ctx, head: Group) -> tuple[str, ...]:
    pieces = split_top(head, ",")
    if len(pieces) > 2:
        raise ctx.error("at most two schedule modifiers are allowed", pieces[2].sep.offset)
    words = [single_word(ctx, piece, SCHEDULE_MODIFIERS, "'schedule' modifier") for piece in pieces]
    names = [w.text for w in words]
    if len(set(names)) < len(names) or {"monotonic", "nonmonotonic"} <= set(names):
        raise ctx.error(f"conflicting schedule modifier '{names[-1]}'", words[-1].offset)
    return tuple(names)


def _kind_and_chunk(ctx, group: Group, clause: str) -> tuple[Group, Group | None]:
    """`kind [, chunk]`."""
    pieces = split_top(group, ",")
    if len(pieces) > 2:
        raise ctx.error(f"unexpected ',' in '{clause}' clause", pieces[2].sep.offset)
    return pieces[0], (pieces[1] if len(pieces) == 2 else None)


def _chunk(ctx, group: Group | None, clause: str) -> c_ast.Node | None:
    if group is None:
        return None
    return parse_expression(ctx, group, f"chunk size of '{clause}' clause")


def _parse_dist_schedule(ctx, tok, args):
    kind_group, chunk_group = _kind_and_chunk(ctx, args, "dist_schedule")
    single_word(ctx, kind_group, ("static",), "'dist_schedule' clause")
    return DistScheduleClause(coord=ctx.loc(tok.offset),
                              chunk=_chunk(ctx, chunk_group, "dist_schedule"))


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


def _parse_aligned(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'aligned' clause")
    alignment = positive_constant(ctx, tail, "aligned") if tail is not None else None
    return AlignedClause(coord=ctx.loc(tok.offset), alignment=alignment,
                         items=parse_list(ctx, head, "aligned", plain=True))


def _parse_linear(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'linear' clause")
    modifier, tokens = None, head.tokens
    if len(tokens) >= 3 and tokens[0].text in ("val", "ref", "uval") and tokens[1].is_punct("("):
        inner, after = take_parenthesized(ctx, tokens, 1, "linear modifier list")
        if after == len(tokens):
            if tokens[0].text != "val":
                raise ctx.error(f"linear modifier '{tokens[0].text}' is not allowed in C",
                                tokens[0].offset)
            modifier, head = "val", inner
    elif len(tokens) >= 3 and tokens[0].kind == "id" and tokens[1].is_punct("(") and tokens[-1].is_punct(")"):
        raise ctx.error(f"expected 'val', 'ref' or 'uval' as the 'linear' modifier, found "
                        f"'{tokens[0].text}'", tokens[0].offset)
    step = None
    if tail is not None and _is_52_linear_tail(tail):
        step, written = _linear_52_modifiers(ctx, tail)
        if written is not None:
            if modifier is not None:
                raise ctx.error("a 'linear' clause takes its modifier once", tail.start)
            modifier = written
    elif tail is not None:
        step = parse_expression(ctx, tail, "step of 'linear' clause")
    return LinearClause(coord=ctx.loc(tok.offset), modifier=modifier, step=step,
                        items=parse_list(ctx, head, "linear", plain=True))


_LINEAR_MODIFIERS = ("val", "ref", "uval")


def _is_step_modifier(piece) -> bool:
    tokens = piece.tokens
    return len(tokens) >= 3 and tokens[0].text == "step" and tokens[1].is_punct("(") and tokens[-1].is_punct(")")


def _is_52_linear_tail(tail) -> bool:
    """OpenMP 5.2's `linear(list: step(s), val)`: modifiers after the colon."""
    pieces = split_top(tail, ",")
    return len(pieces) > 1 or _is_step_modifier(pieces[0]) or (
        len(pieces[0].tokens) == 1 and pieces[0].tokens[0].text in _LINEAR_MODIFIERS)


def _linear_52_modifiers(ctx, tail):
    """(step expression or None, modifier or None) of a 5.2 modifier list."""
    step, modifier = None, None
    for piece in split_top(tail, ","):
        tokens = piece.tokens
        if _is_step_modifier(piece):
            if step is not None:
                raise ctx.error("'step' given twice in 'linear' clause", tokens[0].offset)
            inner, _ = take_parenthesized(ctx, tokens, 1, "linear step")
            step = parse_expression(ctx, inner, "step of 'linear' clause")
        elif len(tokens) == 1 and tokens[0].text in _LINEAR_MODIFIERS:
            if tokens[0].text != "val":
                raise ctx.error(f"linear modifier '{tokens[0].text}' is not allowed in C", tokens[0].offset)
            if modifier is not None:
                raise ctx.error("a 'linear' clause takes its modifier once", tokens[0].offset)
            modifier = "val"
        else:
            raise ctx.error("expected 'step(...)' or a linear modifier ('val') after ',' in 'linear' clause",
                            tokens[0].offset if tokens else piece.start)
    return step, modifier


def _parse_fail(ctx, tok, args):
    word = single_word(ctx, args, ("seq_cst", "acquire", "relaxed"), "'fail' clause")
    return FailClause(coord=ctx.loc(tok.offset), order=word.text)


def _parse_default_mem_order(ctx, tok, args):
    word = single_word(ctx, args, ("seq_cst", "acq_rel", "relaxed"),
                       "'atomic_default_mem_order' clause")
    return AtomicDefaultMemOrderClause(coord=ctx.loc(tok.offset), order=word.text)


BINDINGS = ("teams", "parallel", "thread")
ORDER_MODIFIERS = ("reproducible", "unconstrained")


def _parse_bind(ctx, tok, args):
    word = single_word(ctx, args, BINDINGS, "'bind' clause")
    return BindClause(coord=ctx.loc(tok.offset), kind=word.text)


def _parse_order(ctx, tok, args):
    """`order([reproducible | unconstrained :] concurrent)`."""
    head, tail = split_once(ctx, args, ":", "'order' clause")
    modifier = None
    if tail is not None:
        modifier = single_word(ctx, head, ORDER_MODIFIERS, "'order' modifier").text
    single_word(ctx, tail if tail is not None else head, ("concurrent",), "'order' clause")
    return OrderClause(coord=ctx.loc(tok.offset), modifier=modifier)


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
    "aligned": ClauseSpec(_parse_aligned, "required"),
    "linear": ClauseSpec(_parse_linear, "required"),
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
    "collapse": ClauseSpec(_parse_collapse, "required"),
    "ordered": ClauseSpec(_parse_ordered, "optional"),
    "safelen": ClauseSpec(_parse_safelen, "required"),
    "simdlen": ClauseSpec(_parse_simdlen, "required"),
    "schedule": ClauseSpec(_parse_schedule, "required"),
    "dist_schedule": ClauseSpec(_parse_dist_schedule, "required"),
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
    "bind": ClauseSpec(_parse_bind, "required"),
    "order": ClauseSpec(_parse_order, "required"),
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
    """num_teams(upper); OpenMP 5.1's `lower: upper` is refused by name (a league of one team,
    as the host runs a target region's teams, would be fewer than `lower`)."""
    pieces = split_top(args, ":")
    if len(pieces) > 1:
        raise ctx.error("'num_teams' with a lower bound ('num_teams(lower: upper)', OpenMP 5.1) is not "
                        "supported", args.start)
    return NumTeamsClause(coord=ctx.loc(tok.offset), expr=single_expression(ctx, args, "num_teams"))


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


# ---------------------------------------------------- OpenMP 5.1 loop transformations: tile, unroll
def _parse_sizes(ctx, tok, args):
    return SizesClause(coord=ctx.loc(tok.offset),
                       sizes=[positive_constant(ctx, piece, "sizes") for piece in split_top(args, ",")])


def _parse_partial(ctx, tok, args):
    factor = positive_constant(ctx, args, "partial") if args is not None else None
    return PartialClause(coord=ctx.loc(tok.offset), factor=factor)


CLAUSES.update({                                # OpenMP 5.0/5.1 memory management
    "allocator": ClauseSpec(allocate_clauses.parse_allocator, "required"),
    "align": ClauseSpec(allocate_clauses.parse_align, "required"),
    "allocate": ClauseSpec(allocate_clauses.parse_allocate, "required"),
    "uses_allocators": ClauseSpec(allocate_clauses.parse_uses_allocators, "required"),
})

CLAUSES.update({
    "sizes": ClauseSpec(_parse_sizes, "required"),
    "full": ClauseSpec(_flag_clause(FullClause), "none"),
    "partial": ClauseSpec(_parse_partial, "optional"),
})

# ---------------------------------------------------- OpenMP 5.1 interop (interop_clauses.py)
CLAUSES.update({
    "init": ClauseSpec(interop_clauses.parse_init, "required"),
    "use": ClauseSpec(interop_clauses.parse_use, "required"),
})
