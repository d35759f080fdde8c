"""`#pragma omp ...` text -> `Directive`: the directive name, its leaf constructs and
its clauses, checked against the OpenMP 4.5 rules.

    parse_directive("omp target teams distribute parallel for map(tofrom: a[0:n])", coord)

Clause syntax lives in `pragma_syntax.py` (tokens, C expressions, list items),
`clause_types.py` (the clause classes) and `clause_parsers.py` (one parser per
clause, the `CLAUSES` table); the directive names and the clauses each accepts in
`directive_table.py`; the rules involving the directive or several clauses
(duplicates, map types, `if` modifiers, required clauses) in `directive_rules.py`.
This module reads the directive name and its argument and dispatches each clause to
its parser.
"""

from __future__ import annotations

from omp2gpu.frontend.openmp.allocate_clauses import check_uses_allocators, link_allocate_items
from omp2gpu.frontend.openmp.clause_parsers import CLAUSES, OTHER_OPENMP_CLAUSES
from omp2gpu.frontend.openmp.clause_types import InitializerClause, ToClause
from omp2gpu.frontend.openmp.declare_mapper import read_mapper_declaration
from omp2gpu.frontend.openmp.declare_reduction import read_declaration
from omp2gpu.frontend.openmp.directive_node import Directive
from omp2gpu.frontend.openmp.directive_rules import check_directive, check_not_repeated
from omp2gpu.frontend.openmp.directive_table import (
    CONSTRUCT_WORDS,
    DIRECTIVE_PREFIXES,
    DIRECTIVES,
    UNSUPPORTED_DIRECTIVES,
    allowed_clauses,
)
from omp2gpu.frontend.openmp.pragma_syntax import PragmaContext, Token, parse_list, take_parenthesized
from omp2gpu.frontend.openmp.variant_clauses import read_variant_clause, reads


def parse_directive(text: str, coord, typedef_names: frozenset[str] = frozenset()) -> Directive:
    """Parse the text of `#pragma omp ...` (starting at "omp"); raise CompileError if invalid."""
    ctx = PragmaContext(text, coord, typedef_names)
    tokens = ctx.tokenize()
    if not tokens or tokens[0].text != "omp":
        raise ctx.error("expected 'omp' after '#pragma'", tokens[0].offset if tokens else 0)
    kind, i = _read_name(ctx, tokens, 1)
    directive = Directive(kind, DIRECTIVES[kind], [], ctx.loc(tokens[1].offset), text=" ".join(text.split()))
    if kind in CANCEL_DIRECTIVES:
        directive.cancel_kind, i = tokens[i].text, i + 1
    i = _read_flush_order(ctx, tokens, i, directive)
    i = _read_directive_argument(ctx, tokens, i, directive)
    directive.clauses += _read_clauses(ctx, tokens, i, directive)
    if directive.declared_reduction is not None:
        initializer = directive.first(InitializerClause)
        directive.declared_reduction.initializer = initializer.expr if initializer else None
    check_directive(directive)
    link_allocate_items(directive)
    check_uses_allocators(directive)
    return directive


def _read_name(ctx: PragmaContext, tokens: list[Token], i: int) -> tuple[str, int]:
    """Longest run of words that spells a directive; returns it and the index after it."""
    if i == len(tokens) or tokens[i].kind != "id":
        where = tokens[i].offset if i < len(tokens) else tokens[0].end
        raise ctx.error("expected an OpenMP directive name after 'omp'", where)
    words, j = [], i
    while j < len(tokens) and tokens[j].kind == "id" \
            and " ".join(words + [tokens[j].text]) in DIRECTIVE_PREFIXES:
        words.append(tokens[j].text)
        j += 1
    name = " ".join(words)
    if name not in DIRECTIVES:
        _reject_name(ctx, tokens, i, j, words)
    if name in CANCEL_DIRECTIVES:               # `cancel for`: the construct type is no combination
        return name, _read_cancel_kind(ctx, tokens, j, name)
    _reject_combination(ctx, tokens, j, name)
    return name, j


CANCEL_DIRECTIVES = ("cancel", "cancellation point")
CANCEL_KINDS = ("parallel", "sections", "for", "taskgroup")


def _read_cancel_kind(ctx: PragmaContext, tokens: list[Token], j: int, name: str) -> int:
    if j == len(tokens) or tokens[j].text not in CANCEL_KINDS:
        where = tokens[j].offset if j < len(tokens) else tokens[j - 1].end
        raise ctx.error(f"expected 'parallel', 'sections', 'for' or 'taskgroup' after '{name}'", where)
    return j


def _reject_name(ctx: PragmaContext, tokens: list[Token], i: int, j: int, words: list[str]):
    following = tokens[j].text if j < len(tokens) and tokens[j].kind == "id" else None
    for candidate in (" ".join(words + [following or ""]).strip(), tokens[i].text):
        if candidate in UNSUPPORTED_DIRECTIVES:
            raise ctx.error(f"unsupported OpenMP directive '{candidate}'", tokens[i].offset)
    if not words:
        raise ctx.error(f"unknown OpenMP directive '{tokens[i].text}'", tokens[i].offset)
    name = " ".join(words)
    continuations = sorted({kind.split()[len(words)] for kind in DIRECTIVES
                            if kind.startswith(name + " ")})
    expected = " or ".join(f"'{word}'" for word in continuations)
    where = tokens[j].offset if j < len(tokens) else tokens[j - 1].end
    raise ctx.error(f"expected {expected} after '{name}'", where)


def _reject_combination(ctx: PragmaContext, tokens: list[Token], j: int, name: str):
    """`target for`, `parallel teams`, ...: construct words that do not combine with `name`."""
    allowed = allowed_clauses(DIRECTIVES[name])
    extra = []
    for tok in tokens[j:]:
        if tok.kind != "id" or tok.text not in CONSTRUCT_WORDS or tok.text in allowed:
            break
        extra.append(tok.text)
    if extra:
        raise ctx.error(f"invalid combination '{name} {' '.join(extra)}'", tokens[j].offset)


def _read_flush_order(ctx: PragmaContext, tokens: list[Token], i: int, directive: Directive) -> int:
    """OpenMP 5.0's `flush [memory-order-clause] [(list)]`: the clause comes before the list."""
    if directive.kind != "flush" or i + 1 >= len(tokens) or not tokens[i + 1].is_punct("(") \
            or tokens[i].kind != "id" or tokens[i].text not in CLAUSES:
        return i
    if tokens[i].text not in allowed_clauses(directive.constructs):
        raise ctx.error(f"clause '{tokens[i].text}' is not valid on '#pragma omp flush'", tokens[i].offset)
    directive.clauses.append(CLAUSES[tokens[i].text].parse(ctx, tokens[i], None))
    return i + 1


def _read_directive_argument(ctx: PragmaContext, tokens: list[Token], i: int,
                             directive: Directive) -> int:
    """critical (name), flush (list), declare target (list), threadprivate (list),
    declare reduction (identifier : types : combiner)."""
    kind = directive.kind
    if i == len(tokens) or not tokens[i].is_punct("("):
        if kind in ("threadprivate", "declare reduction", "depobj", "declare variant", "declare mapper",
                    "allocate"):
            raise ctx.error(f"expected '(' after '{kind}'",
                            tokens[i].offset if i < len(tokens) else tokens[i - 1].end)
        return i
    if kind not in ("critical", "flush", "declare target", "threadprivate", "declare reduction", "depobj",
                    "declare variant", "declare mapper", "allocate"):
        raise ctx.error(f"unexpected '(' after '#pragma omp {kind}'", tokens[i].offset)
    args, after = take_parenthesized(ctx, tokens, i, f"the argument of '#pragma omp {kind}'")
    if kind == "declare variant":
        if len(args.tokens) != 1 or args.tokens[0].kind != "id":
            raise ctx.error("expected a function name in '#pragma omp declare variant (name)'", args.start)
        directive.variant_name = args.tokens[0].text
        return after
    if kind == "critical":
        if len(args.tokens) != 1 or args.tokens[0].kind != "id":
            where = args.tokens[1].offset if len(args.tokens) > 1 else args.start
            raise ctx.error("expected a name in '#pragma omp critical (name)'", where)
        directive.critical_name = args.tokens[0].text
    elif kind == "flush":
        directive.flush_list = parse_list(ctx, args, "flush", plain=True,
                                          what="'#pragma omp flush' list")
    elif kind == "depobj":
        items = parse_list(ctx, args, "depobj", plain=False, what="'#pragma omp depobj' argument")
        if len(items) != 1:
            raise ctx.error("expected one depend object in '#pragma omp depobj (object)'", args.start)
        directive.depobj = items[0]
    elif kind == "declare reduction":
        directive.declared_reduction = read_declaration(ctx, args)
    elif kind == "declare mapper":
        directive.declared_mapper = read_mapper_declaration(ctx, args)
    elif kind == "threadprivate":
        directive.threadprivate_list = parse_list(ctx, args, "threadprivate", plain=True,
                                                  what="'#pragma omp threadprivate' list")
    elif kind == "allocate":
        directive.allocate_list = parse_list(ctx, args, "allocate", plain=True,
                                             what="'#pragma omp allocate' list")
    else:
        items = parse_list(ctx, args, "to", plain=True,
                           what="'#pragma omp declare target' list")
        directive.clauses.append(ToClause(coord=ctx.loc(tokens[i].offset), items=items))
        directive.has_extended_list = True
    return after


def _read_clauses(ctx: PragmaContext, tokens: list[Token], i: int, directive: Directive) -> list:
    clauses = []
    while i < len(tokens):
        if tokens[i].is_punct(",") and (clauses or directive.clauses):    # optional separator
            i += 1
            if i == len(tokens):
                raise ctx.error("expected a clause after ','", tokens[i - 1].end)
        if directive.has_extended_list:
            raise ctx.error("no clauses may follow the list of '#pragma omp declare target'",
                            tokens[i].offset)
        clause, i = _read_clause(ctx, tokens, i, directive)
        check_not_repeated(directive, directive.clauses + clauses, clause)
        clauses.append(clause)
    return clauses


def _read_clause(ctx: PragmaContext, tokens: list[Token], i: int, directive: Directive):
    tok, where = tokens[i], f"'#pragma omp {directive.kind}'"
    if tok.kind != "id":
        raise ctx.error(f"expected a clause on {where}, found '{tok.text}'", tok.offset)
    if reads(directive.kind, tok.text):         # 5.x clauses that choose code by context
        args, i = None, i + 1
        if i < len(tokens) and tokens[i].is_punct("("):
            args, i = take_parenthesized(ctx, tokens, i, f"'{tok.text}' clause arguments")
        return read_variant_clause(ctx, tok, args, parse_directive), i
    spec = CLAUSES.get(tok.text)
    if spec is None and tok.text not in OTHER_OPENMP_CLAUSES:
        raise ctx.error(f"unknown clause '{tok.text}' on {where}", tok.offset)
    if spec is None or tok.text not in allowed_clauses(directive.constructs):
        raise ctx.error(f"clause '{tok.text}' is not valid on {where}", tok.offset)
    args, i = None, i + 1
    if i < len(tokens) and tokens[i].is_punct("("):
        if spec.arguments == "none":
            raise ctx.error(f"clause '{tok.text}' takes no arguments", tokens[i].offset)
        args, i = take_parenthesized(ctx, tokens, i, f"'{tok.text}' clause arguments")
    elif spec.arguments == "required":
        raise ctx.error(f"expected '(' after '{tok.text}'", tok.end)
    return spec.parse(ctx, tok, args), i
