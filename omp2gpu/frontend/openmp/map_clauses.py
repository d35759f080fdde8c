"""The parsers of the OpenMP 5.x data-mapping clauses (clause_parsers.CLAUSES dispatches
here): `map` with its modifiers, the motion clauses `to`/`from` of `target update`,
`defaultmap` with every 5.0/5.1 behaviour and category.

    map([modifier[,] ...] map-type : list)       modifiers: always, close, present,
                                                 iterator(defs), mapper(id)
    to([present | iterator(defs) | mapper(id) [,] ...] : list)     (target update; 5.1)
    defaultmap(behaviour [: category])

Modifiers may come in any order, separated by commas or not (5.1). `mapper(id)` is
taken out first (declare_mapper.take_mapper_modifier); another modifier with arguments
(`iterator(...)`) is read by its entry in PARENTHESIZED_MODIFIERS.
"""

from __future__ import annotations

from typing import Callable

from omp2gpu.frontend.openmp.clause_types import DefaultmapClause, FromClause, MapClause, ToClause
from omp2gpu.frontend.openmp.declare_mapper import take_mapper_modifier
from omp2gpu.frontend.openmp.pragma_syntax import Group, parse_list, single_word, split_once
from omp2gpu.frontend.openmp.task_clauses import take_iterators

MAP_TYPES = ("to", "from", "tofrom", "alloc", "release", "delete")
# Modifiers that are one word: the MapClause field each sets.
MAP_MODIFIERS = {"always": "always", "close": "close", "present": "present"}
MOTION_MODIFIERS = {"present": "present"}
# 5.0 behaviours and 5.1's `present`; categories (5.2's `all` too: the same as none given).
DEFAULTMAP_BEHAVIOURS = ("alloc", "to", "from", "tofrom", "firstprivate", "none", "default", "present")
DEFAULTMAP_CATEGORIES = ("scalar", "aggregate", "pointer", "all")


def _iterator_modifier(ctx, tokens, index: int, clause) -> int:
    if clause.iterators:
        raise ctx.error("the 'iterator' modifier is given twice", tokens[index].offset)
    clause.iterators, after = take_iterators(ctx, tokens[index:])
    return index + after


# name -> reader(ctx, tokens, index of the name, clause) -> index after the modifier
PARENTHESIZED_MODIFIERS: dict[str, Callable] = {"iterator": _iterator_modifier}


def _read_modifiers(ctx, head: Group, clause, words: dict, what: str, map_types=()) -> None:
    """The modifiers (and, for map, the map type) before a clause's ':' into `clause`."""
    tokens, i, previous = head.tokens, 0, None
    while i < len(tokens):
        tok = tokens[i]
        if tok.is_punct(","):
            if previous is None or previous.is_punct(",") or (map_types and clause.map_type_explicit):
                raise ctx.error(f"unexpected ',' in {what}", tok.offset)
            previous, i = tok, i + 1
            continue
        if tok.kind != "id":
            raise ctx.error(f"unexpected '{tok.text}' in {what}", tok.offset)
        if map_types and clause.map_type_explicit:
            raise ctx.error("expected ':' after the map type", tok.offset)
        if tok.text in PARENTHESIZED_MODIFIERS and i + 1 < len(tokens) and tokens[i + 1].is_punct("("):
            i = PARENTHESIZED_MODIFIERS[tok.text](ctx, tokens, i, clause)
        elif tok.text in words:
            if getattr(clause, words[tok.text]):
                raise ctx.error(f"the '{tok.text}' modifier is given twice", tok.offset)
            setattr(clause, words[tok.text], True)
            i += 1
        elif tok.text in map_types:
            clause.map_type, clause.map_type_explicit = tok.text, True
            clause.map_type_coord = ctx.loc(tok.offset)
            i += 1
        elif map_types:
            raise ctx.error(f"unknown map type or modifier '{tok.text}' in {what}", tok.offset)
        else:
            raise ctx.error(f"unknown modifier '{tok.text}' in {what}", tok.offset)
        previous = tokens[i - 1]
    if previous is not None and previous.is_punct(","):
        raise ctx.error(f"expected a map type or modifier after ',' in {what}", previous.end)
    if map_types and not clause.map_type_explicit:      # 5.1: modifiers come with a map type
        raise ctx.error(f"expected a map type before ':' in {what}", head.end)
    if not tokens:
        raise ctx.error(f"expected a modifier before ':' in {what}", head.start)


def parse_map(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'map' clause")
    clause = MapClause(coord=ctx.loc(tok.offset), items=[])
    if tail is not None:
        head, clause.mapper = take_mapper_modifier(ctx, head, "map")
    if tail is not None and (head.tokens or clause.mapper is None):     # `map(mapper(id): x)`: tofrom
        _read_modifiers(ctx, head, clause, MAP_MODIFIERS, "'map' clause", MAP_TYPES)
    clause.items = parse_list(ctx, tail if tail is not None else head, "map", plain=False)
    return clause


def motion_clause(cls):
    """`to`/`from`: target update's motion clauses with their 5.1 modifiers (on `declare
    target`, `to` is a plain list: directive_rules refuses modifiers there)."""
    def parse(ctx, tok, args):
        head, tail = split_once(ctx, args, ":", f"'{tok.text}' clause")
        clause = cls(coord=ctx.loc(tok.offset), items=[])
        if tail is not None:
            head, clause.mapper = take_mapper_modifier(ctx, head, tok.text)
        if tail is not None and (head.tokens or clause.mapper is None):
            _read_modifiers(ctx, head, clause, MOTION_MODIFIERS, f"'{tok.text}' clause")
        clause.items = parse_list(ctx, tail if tail is not None else head, tok.text, plain=False)
        return clause
    return parse


parse_to, parse_from = motion_clause(ToClause), motion_clause(FromClause)


def parse_defaultmap(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'defaultmap' clause")
    behaviour = single_word(ctx, head, DEFAULTMAP_BEHAVIOURS, "'defaultmap' clause").text
    category = None
    if tail is not None:
        category = single_word(ctx, tail, DEFAULTMAP_CATEGORIES, "'defaultmap' category").text
    return DefaultmapClause(coord=ctx.loc(tok.offset), behavior=behaviour,
                            category=None if category == "all" else category)

