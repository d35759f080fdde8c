"""The OpenMP 5.1 `interop` construct's clauses (2.15.1): `init([prefer_type(...),]
target|targetsync[, ...]: obj)`, `use(obj)`; `destroy(obj)` is the depobj construct's
clause class with its list (task_clauses.parse_destroy). Codegen: codegen/openmp/host/interop.py."""

from __future__ import annotations

from dataclasses import dataclass, field

from omp2gpu.frontend.openmp.clause_types import ListClause
from omp2gpu.frontend.openmp.pragma_syntax import parse_list, split_once, split_top

INTEROP_TYPES = ("target", "targetsync")


@dataclass(kw_only=True)
class InitClause(ListClause):
    """`init(...)`: the interop types asked for (`target`, `targetsync`); prefer_type's
    preferences are read and not used (the device's foreign runtime is the only one)."""
    name = "init"
    types: tuple[str, ...] = ()
    preferences: list = field(default_factory=list)

    @property
    def targetsync(self) -> bool:
        return "targetsync" in self.types


class UseClause(ListClause): name = "use"


def parse_init(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'init' clause")
    if tail is None:
        raise ctx.error("expected ':' and an interop object after the interop types in 'init' clause", head.limit)
    types, preferences = [], []
    for piece in split_top(head, ","):
        words = piece.tokens
        if words and words[0].kind == "id" and words[0].text == "prefer_type" and len(words) > 1 \
                and words[1].is_punct("(") and not preferences and not types:
            preferences = [token.text for token in words[2:-1] if not token.is_punct(",")]
            continue
        if len(words) != 1 or words[0].kind != "id" or words[0].text not in INTEROP_TYPES:
            raise ctx.error("expected 'target' or 'targetsync' (after an optional 'prefer_type(...)') in "
                            "'init' clause", words[0].offset if words else piece.start)
        if words[0].text in types:
            raise ctx.error(f"interop type '{words[0].text}' given twice in 'init' clause", words[0].offset)
        types.append(words[0].text)
    if not types:
        raise ctx.error("expected 'target' or 'targetsync' in 'init' clause", head.start)
    return InitClause(coord=ctx.loc(tok.offset), items=parse_list(ctx, tail, "init", plain=True),
                      types=tuple(types), preferences=preferences)


def parse_use(ctx, tok, args):
    return UseClause(coord=ctx.loc(tok.offset), items=parse_list(ctx, args, "use", plain=True))
