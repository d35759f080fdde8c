"""The parsers of the loop constructs' clauses (worksharing, simd, distribute, `loop`, the
5.1 loop transformations): collapse, ordered, safelen, simdlen, schedule, dist_schedule,
aligned, linear (4.5 and 5.2 spellings), bind, order, sizes, partial. Each reads one
clause's arguments into its typed clause; clause_parsers.py's CLAUSES table names them.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.frontend.openmp.clause_types import (
    AlignedClause,
    BindClause,
    CollapseClause,
    DistScheduleClause,
    LinearClause,
    OrderClause,
    OrderedClause,
    PartialClause,
    SafelenClause,
    ScheduleClause,
    SimdlenClause,
    SizesClause,
)
from omp2gpu.frontend.openmp.pragma_syntax import (
    Group,
    parse_expression,
    parse_list,
    positive_constant,
    single_word,
    split_once,
    split_top,
    take_parenthesized,
)

SCHEDULE_KINDS = ("static", "dynamic", "guided", "auto", "runtime")


SCHEDULE_MODIFIERS = ("monotonic", "nonmonotonic", "simd")


def parse_collapse(ctx, tok, args):
    return CollapseClause(coord=ctx.loc(tok.offset), count=positive_constant(ctx, args, "collapse"))


def parse_ordered(ctx, tok, args):
    count = positive_constant(ctx, args, "ordered") if args is not None else None
    return OrderedClause(coord=ctx.loc(tok.offset), count=count)


def parse_safelen(ctx, tok, args):
    return SafelenClause(coord=ctx.loc(tok.offset), length=positive_constant(ctx, args, "safelen"))


def parse_simdlen(ctx, tok, args):
    return SimdlenClause(coord=ctx.loc(tok.offset), length=positive_constant(ctx, args, "simdlen"))


def parse_schedule(ctx, tok, args):
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


def parse_dist_schedule(ctx, tok, args):
    kind_group, chunk_group = _kind_and_chunk(ctx, args, "dist_schedule")
    single_word(ctx, kind_group, ("static",), "'dist_schedule' clause")
    return DistScheduleClause(coord=ctx.loc(tok.offset),
                              chunk=_chunk(ctx, chunk_group, "dist_schedule"))


def parse_aligned(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'aligned' clause")
    alignment = positive_constant(ctx, tail, "aligned") if tail is not None else None
    return AlignedClause(coord=ctx.loc(tok.offset), alignment=alignment,
                         items=parse_list(ctx, head, "aligned", plain=True))


def parse_linear(ctx, tok, args):
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
    around_list = modifier is not None
    step = None
    if tail is not None and _is_52_linear_tail(tail):
        step, written = _linear_52_modifiers(ctx, tail)
        if written is not None:
            if modifier is not None:
                raise ctx.error("a 'linear' clause takes its modifier once", tail.start)
            modifier = written
    elif tail is not None:
        step = parse_expression(ctx, tail, "step of 'linear' clause")
    return LinearClause(coord=ctx.loc(tok.offset), modifier=modifier, step=step, modifier_around_list=around_list,
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


BINDINGS = ("teams", "parallel", "thread")


ORDER_MODIFIERS = ("reproducible", "unconstrained")


def parse_bind(ctx, tok, args):
    word = single_word(ctx, args, BINDINGS, "'bind' clause")
    return BindClause(coord=ctx.loc(tok.offset), kind=word.text)


def parse_order(ctx, tok, args):
    """`order([reproducible | unconstrained :] concurrent)`."""
    head, tail = split_once(ctx, args, ":", "'order' clause")
    modifier = None
    if tail is not None:
        modifier = single_word(ctx, head, ORDER_MODIFIERS, "'order' modifier").text
    single_word(ctx, tail if tail is not None else head, ("concurrent",), "'order' clause")
    return OrderClause(coord=ctx.loc(tok.offset), modifier=modifier)


def parse_sizes(ctx, tok, args):
    return SizesClause(coord=ctx.loc(tok.offset),
                       sizes=[positive_constant(ctx, piece, "sizes") for piece in split_top(args, ",")])


def parse_partial(ctx, tok, args):
    factor = positive_constant(ctx, args, "partial") if args is not None else None
    return PartialClause(coord=ctx.loc(tok.offset), factor=factor)
