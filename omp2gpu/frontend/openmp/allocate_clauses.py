"""OpenMP 5.0/5.1 memory-management syntax: the `allocate` directive's list and its
`allocator` and `align` clauses, the `allocate([allocator:] list)` clause (5.1:
`allocate(allocator(a), align(n): list)`) and `uses_allocators(a, b(traits))` on
`target` and its combinations (5.2: `uses_allocators(memspace(m), traits(t): b; a)`);
the rules that need no types (an allocate-clause item must be privatised on the same
directive; an align is a power of two). Each privatised item of an allocate clause
is linked to it (`ListItem.allocate`), so the clause follows its item wherever a scheme
routes the item's data-sharing clause. Types are checked by codegen
(codegen/openmp/data/allocate_storage.py)."""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.frontend.openmp.clause_types import Clause, ListClause
from omp2gpu.frontend.openmp.pragma_syntax import parse_expression, parse_list, positive_constant, split_once, split_top

# Clauses that make the private copies an allocate clause's allocator provides.
PRIVATISING = frozenset({"private", "firstprivate", "lastprivate", "reduction", "linear",
                         "in_reduction", "task_reduction"})


@dataclass(kw_only=True)
class AllocatorClause(Clause):
    name = "allocator"                  # allocate directive: allocator(expr)
    expr: c_ast.Node


@dataclass(kw_only=True)
class AlignClause(Clause):
    name = "align"                      # allocate directive (5.1): align(n)
    alignment: int


@dataclass(kw_only=True)
class AllocateClause(ListClause):
    name = "allocate"
    allocator: c_ast.Node | None = None     # None: the default allocator (def-allocator-var)
    alignment: int | None = None


@dataclass
class UsedAllocator:
    """One uses_allocators item: an allocator, and the traits array and memory space it is
    made with for the region (None for a predefined allocator)."""
    name: str
    coord: SourceLocation
    traits: str | None = None
    traits_coord: SourceLocation | None = None
    memspace: str | None = None             # 5.2's memspace(m); None: omp_default_mem_space
    memspace_coord: SourceLocation | None = None

    @property
    def made(self) -> bool:
        """The region makes it (codegen/openmp/data/region_allocators.py); else a predefined one."""
        return self.traits is not None or self.memspace is not None


@dataclass(kw_only=True)
class UsesAllocatorsClause(Clause):
    name = "uses_allocators"
    allocators: list[UsedAllocator]


def _power_of_two(ctx, group, clause: str) -> int:
    value = positive_constant(ctx, group, clause)
    if value & (value - 1):
        raise ctx.error(f"'{clause}' must be a power of two, not {value}", group.start)
    return value


def parse_allocator(ctx, tok, args):
    return AllocatorClause(coord=ctx.loc(tok.offset), expr=parse_expression(ctx, args, "'allocator' clause"))


def parse_align(ctx, tok, args):
    return AlignClause(coord=ctx.loc(tok.offset), alignment=_power_of_two(ctx, args, "align"))


def parse_allocate(ctx, tok, args):
    """allocate([allocator:] list); 5.1's modifiers allocator(expr) and align(n)."""
    head, tail = split_once(ctx, args, ":", "'allocate' clause")
    clause = AllocateClause(coord=ctx.loc(tok.offset), items=[])
    if tail is not None:
        first = head.tokens[0] if head.tokens else None
        modifiers = first is not None and first.text in ("allocator", "align") and len(head.tokens) > 1 \
            and head.tokens[1].is_punct("(")
        if modifiers:
            for piece in split_top(head, ","):
                _read_modifier(ctx, piece, clause)
        else:
            clause.allocator = parse_expression(ctx, head, "'allocate' clause's allocator")
    clause.items = parse_list(ctx, tail if tail is not None else head, "allocate", plain=True)
    return clause


def _read_modifier(ctx, piece, clause: AllocateClause) -> None:
    tokens = piece.tokens
    if len(tokens) < 3 or tokens[0].text not in ("allocator", "align") or not tokens[1].is_punct("(") \
            or not tokens[-1].is_punct(")"):
        where = tokens[0].offset if tokens else piece.start
        raise ctx.error("expected 'allocator(...)' or 'align(...)' before ':' in 'allocate' clause", where)
    inner = type(piece).of(tokens[2:-1], tokens[-1].offset)
    if tokens[0].text == "allocator":
        clause.allocator = parse_expression(ctx, inner, "'allocate' clause's allocator")
    else:
        clause.alignment = _power_of_two(ctx, inner, "align")


def parse_uses_allocators(ctx, tok, args):
    """5.0/5.1 uses_allocators(allocator[(traits)], ...); 5.2's lists with modifiers,
    uses_allocators(memspace(m), traits(t): a, b; c): identifiers, a traits array by name."""
    used = []
    for group in split_top(args, ";"):
        head, tail = split_once(ctx, group, ":", "'uses_allocators' clause")
        modifiers = {}
        for piece in split_top(head, ",") if tail is not None else ():
            name, value = _uses_allocators_modifier(ctx, piece)
            if name in modifiers:
                raise ctx.error(f"'{name}' appears more than once in 'uses_allocators' clause",
                                piece.tokens[0].offset)
            modifiers[name] = value
        for piece in split_top(tail if tail is not None else head, ","):
            item = _used_allocator(ctx, piece)
            if modifiers and item.traits is not None:
                raise ctx.error(f"allocator '{item.name}' has 'traits' modifiers and '({item.traits})' "
                                "in 'uses_allocators' clause", piece.tokens[2].offset)
            item.traits, item.traits_coord = modifiers.get("traits", (item.traits, item.traits_coord))
            item.memspace, item.memspace_coord = modifiers.get("memspace", (None, None))
            used.append(item)
    return UsesAllocatorsClause(coord=ctx.loc(tok.offset), allocators=used)


def _used_allocator(ctx, piece) -> UsedAllocator:
    tokens = piece.tokens
    if not tokens or tokens[0].kind != "id":
        raise ctx.error("expected an allocator name in 'uses_allocators' clause",
                        tokens[0].offset if tokens else piece.start)
    item = UsedAllocator(tokens[0].text, ctx.loc(tokens[0].offset))
    if len(tokens) > 1:
        if len(tokens) != 4 or not tokens[1].is_punct("(") or tokens[2].kind != "id" \
                or not tokens[3].is_punct(")"):
            raise ctx.error("expected 'allocator(traits-array)' in 'uses_allocators' clause",
                            tokens[1].offset)
        item.traits, item.traits_coord = tokens[2].text, ctx.loc(tokens[2].offset)
    return item


def _uses_allocators_modifier(ctx, piece) -> tuple[str, tuple]:
    """memspace(m) or traits(t) before the ':' (OpenMP 5.2): (name, (identifier, its location))."""
    tokens = piece.tokens
    if len(tokens) != 4 or tokens[0].text not in ("memspace", "traits") or not tokens[1].is_punct("(") \
            or tokens[2].kind != "id" or not tokens[3].is_punct(")"):
        raise ctx.error("expected 'memspace(memory-space)' or 'traits(traits-array)' before ':' in "
                        "'uses_allocators' clause", tokens[0].offset if tokens else piece.start)
    return tokens[0].text, (tokens[2].text, ctx.loc(tokens[2].offset))


def link_allocate_items(directive) -> None:
    """Each item of an allocate clause must be privatised by a clause of the same
    directive (OpenMP 5.0 2.11.4); that clause's item is linked to the allocate clause."""
    allocates = [clause for clause in directive.clauses if isinstance(clause, AllocateClause)]
    if not allocates:
        return
    privatised = {}
    for clause in directive.clauses:
        if clause.name in PRIVATISING:
            for item in clause.items:
                privatised.setdefault(item.name, []).append(item)
    for clause in allocates:
        for item in clause.items:
            if item.name not in privatised:
                raise CompileError(f"'{item.name}' in 'allocate' clause is not privatised on "
                                   f"'#pragma omp {directive.kind}' (it needs a private, firstprivate, "
                                   "lastprivate, linear or reduction clause)", item.coord)
            for private in privatised[item.name]:
                private.allocate = clause


def check_uses_allocators(directive) -> None:
    """A traits array only for an allocator the program makes: the predefined ones have
    theirs (OpenMP 5.0 2.15.6)."""
    for clause in directive.clauses:
        for used in getattr(clause, "allocators", ()):
            if used.made and used.name.startswith("omp_") and used.name.endswith("_mem_alloc"):
                what, where = ("traits", used.traits_coord) if used.traits else ("a memory space", used.memspace_coord)
                raise CompileError(f"predefined allocator '{used.name}' cannot have {what} in "
                                   "'uses_allocators' clause", where)


def check_allocate_directive(directive, scope) -> None:
    """OpenMP 5.0 2.11.3: the allocate directive names variables declared before it in its
    own scope (at file scope, file-scope variables), each once; the allocator of one with
    static storage duration must be predefined (codegen knows the allocator's value)."""
    seen = set()
    for item in directive.allocate_list:
        kind = scope.get(item.name)
        if kind is None:
            raise CompileError(f"use of undeclared identifier '{item.name}'", item.coord)
        if kind not in ("auto", "static", "threadprivate"):
            raise CompileError(f"'{item.name}' in '#pragma omp allocate' is not a variable", item.coord)
        if item.name not in scope.own:
            raise CompileError(f"'{item.name}' in '#pragma omp allocate' must be declared in the same scope "
                               "as the directive", item.coord)
        if item.name in seen:
            raise CompileError(f"'{item.name}' appears more than once in '#pragma omp allocate'", item.coord)
        seen.add(item.name)
