"""The OpenMP 5.x tasking clauses' parsers: `depend` with its 5.x types (mutexinoutset,
inoutset, depobj) and `iterator(...)` modifier, `affinity`, `in_reduction`,
`task_reduction`, `detach`, and the `depobj` construct's `update(...)`/`destroy`.
(The 4.5 clauses are clause_parsers.py's; its CLAUSES table dispatches here.)
"""

from __future__ import annotations

from omp2gpu.frontend.openmp.clause_types import (
    AffinityClause,
    AtomicClause,
    DependClause,
    DestroyClause,
    DetachClause,
    Iterator,
    UpdateClause,
)
from omp2gpu.frontend.openmp.pragma_syntax import (
    Group,
    constant_int,
    parse_expression,
    parse_list,
    parse_type_name,
    single_expression,
    single_word,
    split_once,
    split_top,
    take_parenthesized,
)

DEPEND_TYPES = ("in", "out", "inout", "mutexinoutset", "inoutset", "depobj", "source", "sink")
# The dependence types a depobj object may hold (`depobj(o) depend(...)`, `update(...)`).
DEPOBJ_TYPES = ("in", "out", "inout", "mutexinoutset", "inoutset")


def parse_iterator_modifier(ctx, head: Group, what: str) -> tuple[list[Iterator], Group]:
    """`iterator(defs), rest` -> the iterators and `rest`; no modifier: ([], head)."""
    iterators, after = take_iterators(ctx, head.tokens)
    if not iterators:
        return [], head
    tokens = head.tokens
    if after == len(tokens) or not tokens[after].is_punct(","):
        where = tokens[after].offset if after < len(tokens) else head.end
        raise ctx.error(f"expected ',' after the 'iterator' modifier in {what}", where)
    return iterators, Group.of(tokens[after + 1:], head.limit or head.end)


def take_iterators(ctx, tokens) -> tuple[list[Iterator], int]:
    """`iterator(defs)` at the start of `tokens`: its iterators and the index after it."""
    if len(tokens) < 2 or tokens[0].text != "iterator" or not tokens[1].is_punct("("):
        return [], 0
    inner, after = take_parenthesized(ctx, tokens, 1, "'iterator' modifier")
    return [_iterator(ctx, piece) for piece in split_top(inner, ",")], after


def _iterator(ctx, piece: Group) -> Iterator:
    """`[type] name = begin : end [: step]` (the type defaults to int)."""
    equals = next((k for k, tok in enumerate(piece.tokens) if tok.is_punct("=")), None)
    if equals is None or equals == 0 or piece.tokens[equals - 1].kind != "id":
        raise ctx.error("expected 'name = begin : end' in 'iterator' modifier", piece.start)
    name_token = piece.tokens[equals - 1]
    type_tokens = piece.tokens[:equals - 1]
    ctype = parse_type_name(ctx, Group.of(type_tokens, name_token.offset), "'iterator' modifier") \
        if type_tokens else None
    ranges = split_top(Group.of(piece.tokens[equals + 1:], piece.end), ":")
    if len(ranges) not in (2, 3):
        raise ctx.error("expected 'begin : end [: step]' in 'iterator' modifier", piece.tokens[equals].offset)
    begin, end, *step = (parse_expression(ctx, r, "'iterator' range") for r in ranges)
    if step and constant_int(step[0]) == 0:         # the iterator would never reach its end
        raise ctx.error(f"iterator '{name_token.text}' has zero step", name_token.offset)
    return Iterator(name=name_token.text, type_name=ctype, begin=begin, end=end, step=step[0] if step else None,
                    coord=ctx.loc(name_token.offset))


def parse_depend(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'depend' clause")
    iterators, head = parse_iterator_modifier(ctx, head, "'depend' clause")
    dep_type = single_word(ctx, head, DEPEND_TYPES, "'depend' clause").text
    clause = DependClause(coord=ctx.loc(tok.offset), dep_type=dep_type, items=[], iterators=iterators)
    if iterators and dep_type in ("source", "sink", "depobj"):
        raise ctx.error(f"'iterator' modifier cannot be used with 'depend({dep_type})'", head.start)
    if dep_type == "source":
        if tail is not None:
            raise ctx.error("'depend(source)' takes no list", tail.sep.offset)
    elif tail is None:
        raise ctx.error(f"expected ':' after '{dep_type}' in 'depend' clause", head.end)
    elif dep_type == "sink":
        clause.sink = [parse_expression(ctx, piece, "'depend(sink)' vector")
                       for piece in split_top(tail, ",")]
    else:
        clause.items = parse_list(ctx, tail, "depend", plain=False)
    return clause


def parse_doacross(ctx, tok, args):
    """OpenMP 5.2's spelling of depend(source) / depend(sink: vec): `doacross(source:)`,
    `doacross(source: omp_cur_iteration)`, `doacross(sink: vec)`, made the same clause.
    `sink: omp_cur_iteration - 1` (the lexically previous iteration) is refused by name."""
    head, tail = split_once(ctx, args, ":", "'doacross' clause")
    dep_type = single_word(ctx, head, ("source", "sink"), "'doacross' clause").text
    if tail is None:
        raise ctx.error(f"expected ':' after '{dep_type}' in 'doacross' clause", head.end)
    clause = DependClause(coord=ctx.loc(tok.offset), dep_type=dep_type, items=[])
    current = [t for t in tail.tokens if t.text == "omp_cur_iteration"]
    if dep_type == "source":
        if tail.tokens and [t.text for t in tail.tokens] != ["omp_cur_iteration"]:
            raise ctx.error("'doacross(source:)' takes nothing or 'omp_cur_iteration'", tail.tokens[0].offset)
    elif current:
        raise ctx.error("'doacross(sink: omp_cur_iteration - 1)' is not supported; name the iteration by its "
                        "loop variables", current[0].offset)
    else:
        clause.sink = [parse_expression(ctx, piece, "'doacross(sink)' vector") for piece in split_top(tail, ",")]
    return clause


def parse_affinity(ctx, tok, args):
    """`affinity([iterator(defs) :] list)`: accepted, a hint this runtime does not take."""
    head, tail = split_once(ctx, args, ":", "'affinity' clause")
    iterators = []
    if tail is not None:
        iterators, after = take_iterators(ctx, head.tokens)
        if not iterators or after != len(head.tokens):
            raise ctx.error("expected an 'iterator' modifier before ':' in 'affinity' clause", head.start)
    return AffinityClause(coord=ctx.loc(tok.offset), iterators=iterators,
                          items=parse_list(ctx, tail if tail is not None else head, "affinity", plain=False))


def parse_detach(ctx, tok, args):
    return DetachClause(coord=ctx.loc(tok.offset), expr=single_expression(ctx, args, "detach"))


def parse_update(ctx, tok, args):
    """`atomic update` takes no argument; the depobj construct's `update(type)` does."""
    if args is None:
        return AtomicClause(coord=ctx.loc(tok.offset), kind="update")
    word = single_word(ctx, args, DEPOBJ_TYPES, "'update' clause")
    return UpdateClause(coord=ctx.loc(tok.offset), dep_type=word.text)


def parse_destroy(ctx, tok, args):
    """`destroy`, or 5.2's `destroy(obj)` naming the construct's own object."""
    items = parse_list(ctx, args, "destroy", plain=True) if args is not None else []
    return DestroyClause(coord=ctx.loc(tok.offset), items=items)


def task_count_clause(cls):
    """grainsize / num_tasks: `[strict:] expression` (the modifier is OpenMP 5.1's)."""
    def parse(ctx, tok, args):
        head, tail = split_once(ctx, args, ":", f"'{tok.text}' clause")
        if tail is not None:
            single_word(ctx, head, ("strict",), f"'{tok.text}' modifier")
        return cls(coord=ctx.loc(tok.offset), expr=single_expression(ctx, tail if tail is not None else head, tok.text),
                   strict=tail is not None)
    return parse
