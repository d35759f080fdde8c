"""OpenMP context selectors (OpenMP 5.0 2.3.2, 5.1 2.3.2): the argument of `match(...)`
on `declare variant` and the selector before the ':' of a metadirective's `when(...)`.

    construct={target, parallel}, device={kind(gpu), arch("nvptx")},
    implementation={vendor(score(5): llvm)}, user={condition(n > 100)}

Parsed into a `ContextSelector`: its trait-set selectors, each with its trait selectors,
each with its properties (names, string literals or, for `condition` and `device_num`, a C
expression) and its score. Which properties the compiled-for device has, and the score of a
compatible selector, are sema's (sema/openmp_context.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.openmp.pragma_syntax import Group, PragmaContext, constant_int, parse_expression, split_top

# The trait selectors of each trait-set selector (5.1 2.3.2), and what their properties are:
# "names" (identifiers or string literals), "expression" (one C expression), "none".
TRAIT_SELECTORS: dict[str, dict[str, str]] = {
    "construct": {name: "none" for name in ("target", "teams", "parallel", "for", "simd", "dispatch")},
    "device": {"kind": "names", "isa": "names", "arch": "names"},
    "target_device": {"kind": "names", "isa": "names", "arch": "names", "device_num": "expression"},
    "implementation": {"vendor": "names", "extension": "names", "unified_address": "none",
                       "unified_shared_memory": "none", "reverse_offload": "none",
                       "dynamic_allocators": "none", "atomic_default_mem_order": "names"},
    "user": {"condition": "expression"},
}
# The kinds of device the spec's additional definitions name (a `kind` property must be one).
DEVICE_KINDS = ("host", "nohost", "any", "cpu", "gpu", "fpga")
MEMORY_ORDERS = ("seq_cst", "acq_rel", "relaxed")


@dataclass(frozen=True)
class TraitSelector:
    name: str                         # kind, arch, vendor, condition, parallel, ...
    properties: tuple                 # names (str), or one C expression node
    score: int | None                 # score(n), where given
    coord: SourceLocation


@dataclass(frozen=True)
class TraitSet:
    name: str                         # construct, device, target_device, implementation, user
    traits: tuple[TraitSelector, ...]
    coord: SourceLocation

    def trait(self, name: str) -> TraitSelector | None:
        return next((trait for trait in self.traits if trait.name == name), None)


@dataclass(frozen=True)
class ContextSelector:
    sets: tuple[TraitSet, ...]
    coord: SourceLocation

    def set(self, name: str) -> TraitSet | None:
        return next((s for s in self.sets if s.name == name), None)

    @property
    def constructs(self) -> tuple[str, ...]:
        found = self.set("construct")
        return tuple(trait.name for trait in found.traits) if found else ()

    def expressions(self) -> list:
        """The C expressions it holds (user conditions, device numbers, for captures)."""
        return [p for s in self.sets for t in s.traits for p in t.properties if isinstance(p, c_ast.Node)]


def parse_context_selector(ctx: PragmaContext, group: Group, what: str) -> ContextSelector:
    """`set={trait(...), ...}, set={...}` (the tokens of `group`)."""
    if not group.tokens:
        raise ctx.error(f"expected a context selector in {what}", group.start)
    sets: list[TraitSet] = []
    for piece in split_top(group, ","):
        trait_set = _trait_set(ctx, piece, what)
        if any(s.name == trait_set.name for s in sets):
            raise ctx.error(f"selector set '{trait_set.name}' specified more than once", piece.start)
        sets.append(trait_set)
    return ContextSelector(tuple(sets), ctx.loc(group.start))


def _trait_set(ctx: PragmaContext, group: Group, what: str) -> TraitSet:
    tokens = group.tokens
    if not tokens or tokens[0].kind != "id":
        raise ctx.error(f"expected 'construct', 'device', 'target_device', 'implementation' or "
                        f"'user' in {what}", group.start)
    name = tokens[0].text
    if name not in TRAIT_SELECTORS:
        raise ctx.error(f"unknown context selector set '{name}' (expected 'construct', 'device', "
                        "'target_device', 'implementation' or 'user')", tokens[0].offset)
    if len(tokens) < 2 or not tokens[1].is_punct("="):
        raise ctx.error(f"expected '=' after '{name}'", tokens[1].offset if len(tokens) > 1 else tokens[0].end)
    if len(tokens) < 3 or not tokens[2].is_punct("{") or not tokens[-1].is_punct("}"):
        raise ctx.error(f"expected '{{' trait selectors '}}' after '{name}='",
                        tokens[2].offset if len(tokens) > 2 else tokens[1].end)
    inner = Group.of(tokens[3:-1], tokens[-1].offset)
    if not inner.tokens:
        raise ctx.error(f"expected a trait selector in '{name}={{}}'", inner.start)
    traits: list[TraitSelector] = []
    for piece in split_top(inner, ","):
        trait = _trait_selector(ctx, piece, name)
        if any(t.name == trait.name for t in traits):
            raise ctx.error(f"trait selector '{trait.name}' specified more than once in '{name}'",
                            piece.start)
        traits.append(trait)
    return TraitSet(name, tuple(traits), ctx.loc(tokens[0].offset))


def _trait_selector(ctx: PragmaContext, group: Group, set_name: str) -> TraitSelector:
    tokens = group.tokens
    if not tokens or tokens[0].kind != "id":
        raise ctx.error(f"expected a trait selector in '{set_name}'", group.start)
    name, where = tokens[0].text, ctx.loc(tokens[0].offset)
    kind = TRAIT_SELECTORS[set_name].get(name)
    if kind is None:
        known = ", ".join(f"'{n}'" for n in TRAIT_SELECTORS[set_name])
        raise ctx.error(f"unknown trait selector '{name}' in selector set '{set_name}' (expected {known})",
                        tokens[0].offset)
    if len(tokens) == 1:
        if kind != "none":
            raise ctx.error(f"expected '(' after '{name}'", tokens[0].end)
        return TraitSelector(name, (), None, where)
    if not tokens[1].is_punct("(") or not tokens[-1].is_punct(")"):
        raise ctx.error(f"expected '(' after '{name}'", tokens[1].offset)
    inner = Group.of(tokens[2:-1], tokens[-1].offset)
    score, inner = _score(ctx, inner, set_name, name)
    if kind == "none":
        if set_name == "construct" and name == "simd" and inner.tokens:
            raise ctx.error("properties of the 'simd' construct selector are not supported",
                            inner.start)
        if inner.tokens:
            raise ctx.error(f"trait selector '{name}' takes no properties", inner.start)
        return TraitSelector(name, (), score, where)
    if kind == "expression":
        return TraitSelector(name, (parse_expression(ctx, inner, f"'{name}'"),), score, where)
    return TraitSelector(name, _names(ctx, inner, name), score, where)


def _score(ctx: PragmaContext, group: Group, set_name: str, name: str) -> tuple[int | None, Group]:
    """`score(n):` before the properties: (n, the rest), or (None, group)."""
    tokens = group.tokens
    if len(tokens) < 2 or tokens[0].text != "score" or not tokens[1].is_punct("("):
        return None, group
    depth, close = 0, None
    for j, tok in enumerate(tokens[1:], 1):
        depth += tok.is_punct("(") - tok.is_punct(")")
        if depth == 0:
            close = j
            break
    if close is None or close + 1 >= len(tokens) or not tokens[close + 1].is_punct(":"):
        raise ctx.error("expected 'score(expression):' before the properties", tokens[0].offset)
    if set_name == "construct":
        raise ctx.error(f"a construct selector ('{name}') cannot have a score", tokens[0].offset)
    expression = parse_expression(ctx, Group.of(tokens[2:close], tokens[close].offset), "'score'")
    value = constant_int(expression)
    if value is None or value < 0:
        raise ctx.error("the score must be a non-negative integer constant", tokens[2].offset)
    return value, Group.of(tokens[close + 2:], group.limit)


def _names(ctx: PragmaContext, group: Group, selector: str) -> tuple[str, ...]:
    names = []
    for piece in split_top(group, ","):
        if len(piece.tokens) != 1 or piece.tokens[0].kind not in ("id", "str"):
            raise ctx.error(f"expected a name or a string literal in '{selector}'", piece.start)
        token = piece.tokens[0]
        value = token.text[1:-1] if token.kind == "str" else token.text
        if selector == "kind" and value not in DEVICE_KINDS:
            raise ctx.error(f"unknown device kind '{value}' (expected "
                            f"{', '.join(repr(k) for k in DEVICE_KINDS)})", token.offset)
        if selector == "atomic_default_mem_order" and value not in MEMORY_ORDERS:
            raise ctx.error(f"unknown memory order '{value}' in 'atomic_default_mem_order'", token.offset)
        names.append(value)
    return tuple(names)
