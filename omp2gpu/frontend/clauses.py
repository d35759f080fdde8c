"""OpenMP 4.5 clause syntax: pragma tokens, C expressions inside clauses,
list items with array sections, and one dataclass per clause kind.

`directives.py` decides which clauses a directive accepts and checks the
rules that involve several clauses; this module only reads one clause's
arguments.  Every syntax problem is a `CompileError` located in the pragma
line (offset 0 of the pragma text is the "o" of "omp").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, ClassVar

from pycparser import c_ast, c_parser

from ..diagnostics import CompileError, SourceLocation

try:                                    # pycparser >= 3
    from pycparser.c_parser import Coord
except ImportError:                     # pragma: no cover - pycparser 2.x
    from pycparser.plyparser import Coord


# --------------------------------------------------------------------------
# Tokens
# --------------------------------------------------------------------------

_PUNCTUATORS = ["...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
                "&&", "||", "*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=",
                *"[](){}.,:;?~!+-*/%&|^<>=#"]
_TOKEN_RE = re.compile("|".join([
    r"(?P<space>\s+)",
    r"(?P<id>[A-Za-z_][A-Za-z0-9_]*)",
    r"(?P<num>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)",
    r"""(?P<str>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')""",
    "(?P<punct>" + "|".join(re.escape(p) for p in _PUNCTUATORS) + ")",
]))

_OPENERS = {"(": ")", "[": "]", "{": "}"}
_CLOSERS = {")", "]", "}"}


@dataclass(frozen=True)
class Token:
    kind: str       # "id", "num", "str" or "punct"
    text: str
    offset: int     # offset in the pragma text

    @property
    def end(self) -> int:
        return self.offset + len(self.text)

    def is_punct(self, text: str) -> bool:
        return self.kind == "punct" and self.text == text


@dataclass
class Group:
    """A run of tokens; `start`/`end` locate it even when it is empty."""

    tokens: list[Token]
    start: int
    end: int
    sep: Token | None = None        # the separator that preceded it in split_top
    limit: int = 0                  # offset of what follows: its closing bracket or separator

    @classmethod
    def of(cls, tokens: list[Token], limit: int, sep: Token | None = None) -> "Group":
        """An empty group is placed at `limit`, so errors point at the ')' or ',' there."""
        if tokens:
            return cls(tokens, tokens[0].offset, tokens[-1].end, sep, limit)
        return cls([], limit, limit, sep, limit)


class PragmaContext:
    """The pragma being parsed: its text, where it is, and the typedef names in scope."""

    def __init__(self, text: str, coord, typedef_names=frozenset()):
        self.text = text
        self.origin = SourceLocation.of(coord) or SourceLocation("", 0, 0)
        self.typedef_names = frozenset(typedef_names)

    def loc(self, offset: int) -> SourceLocation:
        return self.origin.shifted(offset)

    def c_coord(self, offset: int) -> Coord:
        loc = self.loc(offset)
        return Coord(loc.file, loc.line, loc.column)

    def error(self, message: str, offset: int) -> CompileError:
        return CompileError(message, self.loc(offset))

    def spelling(self, group: Group) -> str:
        return self.text[group.start:group.end]

    def tokenize(self) -> list[Token]:
        tokens, pos = [], 0
        while pos < len(self.text):
            match = _TOKEN_RE.match(self.text, pos)
            if match is None:
                raise self.error(f"unexpected character '{self.text[pos]}' in OpenMP directive",
                                 pos)
            if match.lastgroup != "space":
                tokens.append(Token(match.lastgroup, match.group(), pos))
            pos = match.end()
        return tokens


def take_parenthesized(ctx: PragmaContext, tokens: list[Token], i: int, what: str
                       ) -> tuple[Group, int]:
    """tokens[i] is '('; return the group inside the balanced parentheses and the index
    after the matching ')'."""
    stack = []
    for j in range(i, len(tokens)):
        tok = tokens[j]
        if tok.kind != "punct":
            continue
        if tok.text in _OPENERS:
            stack.append(_OPENERS[tok.text])
        elif tok.text in _CLOSERS:
            if tok.text != stack[-1]:
                raise ctx.error(f"expected '{stack[-1]}' before '{tok.text}'", tok.offset)
            stack.pop()
            if not stack:
                return Group.of(tokens[i + 1:j], tok.offset), j + 1
    raise ctx.error(f"expected ')' after {what}", len(ctx.text.rstrip()))


def split_top(group: Group, sep: str) -> list[Group]:
    """Split at `sep` outside brackets.  For ':' a colon that closes a '?' is not a separator."""
    pieces, current, depth, open_ternaries, separator = [], [], 0, 0, None
    for tok in group.tokens:
        text = tok.text if tok.kind == "punct" else ""
        if text in _OPENERS:
            depth += 1
        elif text in _CLOSERS:
            depth -= 1
        elif depth == 0 and text == "?":
            open_ternaries += 1
        elif depth == 0 and text == sep:
            if sep == ":" and open_ternaries:
                open_ternaries -= 1
            else:
                pieces.append(Group.of(current, tok.offset, separator))
                current, separator = [], tok
                continue
        current.append(tok)
    pieces.append(Group.of(current, group.limit, separator))
    return pieces


def split_once(ctx: PragmaContext, group: Group, sep: str, what: str) -> tuple[Group, Group | None]:
    """`head sep tail` or just `head`; a second separator is an error."""
    pieces = split_top(group, sep)
    if len(pieces) > 2:
        raise ctx.error(f"unexpected '{sep}' in {what}", pieces[2].sep.offset)
    return pieces[0], (pieces[1] if len(pieces) == 2 else None)


# --------------------------------------------------------------------------
# C expressions (parsed by pycparser, relocated into the pragma line)
# --------------------------------------------------------------------------

_PARSER = c_parser.CParser()
_EXPR_LINE, _EXPR_COLUMN = 3, 2          # where the expression lands in the wrapper source
_ERROR_AT = re.compile(r":(\d+):(\d+):")


def parse_expression(ctx: PragmaContext, group: Group, what: str) -> c_ast.Node:
    if not group.tokens:
        raise ctx.error(f"expected an expression in {what}", group.start)
    for tok in group.tokens:
        if tok.is_punct(";"):
            raise ctx.error(f"unexpected ';' in {what}", tok.offset)
    # Declare only the typedef names the expression mentions, so casts parse.
    typedefs = sorted({t.text for t in group.tokens if t.kind == "id"} & ctx.typedef_names)
    source = (" ".join(f"typedef int {name};" for name in typedefs)
              + "\nvoid __omp_clause(void) {\n(" + ctx.spelling(group) + "\n);\n}\n")
    try:
        tree = _PARSER.parse(source, "<omp clause>")
    except c_parser.ParseError as exc:
        raise ctx.error(f"invalid expression in {what}", _error_offset(group, str(exc))) from None
    except Exception:   # pycparser should not raise anything else; never let it escape
        raise ctx.error(f"invalid expression in {what}", group.start) from None
    items = tree.ext[-1].body.block_items or []
    if len(items) != 1:
        raise ctx.error(f"invalid expression in {what}", group.start)
    _relocate(ctx, items[0], group.start)
    return items[0]


def _error_offset(group: Group, message: str) -> int:
    match = _ERROR_AT.search(message)
    if match is None:
        return group.start
    line, column = int(match.group(1)), int(match.group(2))
    if line < _EXPR_LINE:
        return group.start
    if line > _EXPR_LINE:
        return group.end
    return min(max(group.start + column - _EXPR_COLUMN, group.start), group.end)


def _relocate(ctx: PragmaContext, node: c_ast.Node, base: int) -> None:
    """Point the coords of `node` and its descendants into the pragma line."""
    stack = [node]
    while stack:
        current = stack.pop()
        coord = getattr(current, "coord", None)
        if coord is not None:
            inside = coord.line == _EXPR_LINE and coord.column
            current.coord = ctx.c_coord(base + coord.column - _EXPR_COLUMN if inside else base)
        stack.extend(child for _, child in current.children())


def constant_int(node: c_ast.Node) -> int | None:
    """Value of an integer constant expression made of literals and + - * / % << >>."""
    if isinstance(node, c_ast.Constant) and "int" in node.type:
        digits = node.value.rstrip("uUlL")
        if digits[:2].lower() in ("0x", "0b"):
            return int(digits, 0)
        return int(digits, 8 if len(digits) > 1 and digits[0] == "0" else 10)
    if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
        value = constant_int(node.expr)
        return None if value is None else (-value if node.op == "-" else value)
    if isinstance(node, c_ast.BinaryOp) and node.op in _CONSTANT_OPS:
        left, right = constant_int(node.left), constant_int(node.right)
        if left is None or right is None:
            return None
        try:
            return _CONSTANT_OPS[node.op](left, right)
        except (ZeroDivisionError, ValueError):
            return None
    return None


_CONSTANT_OPS: dict[str, Callable[[int, int], int]] = {
    "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
    "/": lambda a, b: int(a / b), "%": lambda a, b: a - b * int(a / b),
    "<<": lambda a, b: a << b, ">>": lambda a, b: a >> b,
}


def positive_constant(ctx: PragmaContext, group: Group, clause: str) -> int:
    value = constant_int(parse_expression(ctx, group, f"'{clause}' clause"))
    if value is None or value <= 0:
        raise ctx.error(f"argument of '{clause}' must be a positive integer constant", group.start)
    return value


def single_expression(ctx: PragmaContext, group: Group, clause: str) -> c_ast.Node:
    pieces = split_top(group, ",")
    if len(pieces) > 1:
        raise ctx.error(f"unexpected ',' in '{clause}' clause", pieces[1].sep.offset)
    return parse_expression(ctx, group, f"'{clause}' clause")


def single_word(ctx: PragmaContext, group: Group, choices, what: str) -> Token:
    """The group must be one identifier from `choices`."""
    tokens = group.tokens
    if len(tokens) == 1 and tokens[0].kind == "id" and tokens[0].text in choices:
        return tokens[0]
    if not tokens:
        where = group.start
    elif tokens[0].kind == "id" and tokens[0].text in choices:
        where = tokens[1].offset            # a good word followed by more tokens
    else:
        where = tokens[0].offset
    expected = " or ".join(f"'{c}'" for c in choices)
    raise ctx.error(f"expected {expected} in {what}", where)


# --------------------------------------------------------------------------
# List items and array sections
# --------------------------------------------------------------------------

@dataclass
class ArraySection:
    """`[lower:length]`; lower None means 0, length None means "to the end of the array".
    `[i]` is the element i: lower i, length the constant 1, is_element True."""

    lower: c_ast.Node | None
    length: c_ast.Node | None
    is_element: bool = False
    coord: SourceLocation | None = None


@dataclass
class ListItem:
    """A variable, a struct member (`s.x`, `p->a`), optionally followed by array sections.
    `name` is the root variable; `expr` the base expression (c_ast.ID or c_ast.StructRef)."""

    name: str
    expr: c_ast.Node
    sections: list[ArraySection]
    coord: SourceLocation
    spelling: str = ""

    @property
    def is_variable(self) -> bool:
        return not self.sections and isinstance(self.expr, c_ast.ID)


def parse_list(ctx: PragmaContext, group: Group, clause: str, plain: bool,
               what: str | None = None) -> list[ListItem]:
    """A comma-separated list; with `plain` every item must be a bare variable name.
    `what` names the list in messages (default: "'<clause>' clause")."""
    what = what or f"'{clause}' clause"
    if not group.tokens:
        raise ctx.error(f"expected a variable name in {what}", group.start)
    return [parse_list_item(ctx, piece, clause, plain, what) for piece in split_top(group, ",")]


def parse_list_item(ctx: PragmaContext, group: Group, clause: str, plain: bool,
                    what: str | None = None) -> ListItem:
    what = what or f"'{clause}' clause"
    tokens = group.tokens
    if not tokens or tokens[0].kind != "id":
        raise ctx.error(f"expected a variable name in {what}",
                        tokens[0].offset if tokens else group.start)
    if plain and len(tokens) > 1:
        raise ctx.error(f"expected a variable name in {what}", tokens[1].offset)
    root = tokens[0]
    expr: c_ast.Node = c_ast.ID(root.text, coord=ctx.c_coord(root.offset))
    i = 1
    while i < len(tokens) and tokens[i].kind == "punct" and tokens[i].text in (".", "->"):
        if i + 1 == len(tokens) or tokens[i + 1].kind != "id":
            raise ctx.error(f"expected a member name after '{tokens[i].text}'", tokens[i].end)
        member = c_ast.ID(tokens[i + 1].text, coord=ctx.c_coord(tokens[i + 1].offset))
        expr = c_ast.StructRef(expr, tokens[i].text, member, coord=ctx.c_coord(root.offset))
        i += 2
    sections = []
    while i < len(tokens) and tokens[i].is_punct("["):
        bracket = tokens[i].offset
        inner, i = _take_brackets(tokens, i)
        sections.append(_parse_section(ctx, inner, bracket, f"array section in {what}"))
    if i < len(tokens):
        raise ctx.error(f"unexpected '{tokens[i].text}' in {what}", tokens[i].offset)
    return ListItem(root.text, expr, sections, ctx.loc(root.offset), ctx.spelling(group))


def _take_brackets(tokens: list[Token], i: int) -> tuple[Group, int]:
    """tokens[i] is '['; the tokens are already known to be balanced."""
    depth = 0
    for j in range(i, len(tokens)):
        text = tokens[j].text if tokens[j].kind == "punct" else ""
        depth += text in _OPENERS
        depth -= text in _CLOSERS
        if depth == 0:
            return Group.of(tokens[i + 1:j], tokens[j].offset), j + 1
    raise AssertionError("unbalanced brackets reached parse_list_item")


def _parse_section(ctx: PragmaContext, inner: Group, bracket: int, what: str) -> ArraySection:
    coord = ctx.loc(bracket)
    pieces = split_top(inner, ":")
    if len(pieces) > 2:
        raise ctx.error(f"unexpected ':' in {what}", pieces[2].sep.offset)
    if len(pieces) == 1:        # a[i]: one element
        index = parse_expression(ctx, inner, what)
        one = c_ast.Constant("int", "1", coord=ctx.c_coord(inner.start))
        return ArraySection(index, one, is_element=True, coord=coord)
    lower, length = pieces
    return ArraySection(parse_expression(ctx, lower, what) if lower.tokens else None,
                        parse_expression(ctx, length, what) if length.tokens else None,
                        coord=coord)


# --------------------------------------------------------------------------
# Clause classes
# --------------------------------------------------------------------------

@dataclass(kw_only=True)
class Clause:
    coord: SourceLocation
    name: ClassVar[str] = ""


@dataclass(kw_only=True)
class ListClause(Clause):
    items: list[ListItem]


class PrivateClause(ListClause): name = "private"
class FirstprivateClause(ListClause): name = "firstprivate"
class LastprivateClause(ListClause): name = "lastprivate"
class SharedClause(ListClause): name = "shared"
class CopyinClause(ListClause): name = "copyin"
class CopyprivateClause(ListClause): name = "copyprivate"
class IsDevicePtrClause(ListClause): name = "is_device_ptr"
class UseDevicePtrClause(ListClause): name = "use_device_ptr"
class ToClause(ListClause): name = "to"          # target update; declare target
class FromClause(ListClause): name = "from"      # target update
class LinkClause(ListClause): name = "link"      # declare target
class UniformClause(ListClause): name = "uniform"  # declare simd


@dataclass(kw_only=True)
class MapClause(ListClause):
    name = "map"
    map_type: str = "tofrom"
    always: bool = False
    map_type_explicit: bool = False
    map_type_coord: SourceLocation | None = None


@dataclass(kw_only=True)
class ReductionClause(ListClause):
    name = "reduction"
    op: str


@dataclass(kw_only=True)
class AlignedClause(ListClause):
    name = "aligned"
    alignment: int | None = None


@dataclass(kw_only=True)
class LinearClause(ListClause):
    name = "linear"
    step: c_ast.Node | None = None      # None means 1
    modifier: str | None = None         # "val" or None


@dataclass(kw_only=True)
class DependClause(ListClause):
    name = "depend"
    dep_type: str                       # in, out, inout, source, sink
    sink: list[c_ast.Node] = field(default_factory=list)


@dataclass(kw_only=True)
class ExprClause(Clause):
    expr: c_ast.Node


class NumTeamsClause(ExprClause): name = "num_teams"
class ThreadLimitClause(ExprClause): name = "thread_limit"
class NumThreadsClause(ExprClause): name = "num_threads"
class DeviceClause(ExprClause): name = "device"
class HintClause(ExprClause): name = "hint"
class FinalClause(ExprClause): name = "final"            # task
class PriorityClause(ExprClause): name = "priority"      # task


@dataclass(kw_only=True)
class IfClause(ExprClause):
    name = "if"
    modifier: str | None = None         # directive-name-modifier, e.g. "target enter data"
    modifier_coord: SourceLocation | None = None


@dataclass(kw_only=True)
class DefaultClause(Clause):
    name = "default"
    kind: str                           # shared or none


@dataclass(kw_only=True)
class DefaultmapClause(Clause):
    name = "defaultmap"
    behavior: str = "tofrom"
    category: str = "scalar"


@dataclass(kw_only=True)
class ProcBindClause(Clause):
    name = "proc_bind"
    kind: str                           # master, close or spread


@dataclass(kw_only=True)
class CollapseClause(Clause):
    name = "collapse"
    count: int


@dataclass(kw_only=True)
class OrderedClause(Clause):
    name = "ordered"
    count: int | None = None


@dataclass(kw_only=True)
class SafelenClause(Clause):
    name = "safelen"
    length: int


@dataclass(kw_only=True)
class SimdlenClause(Clause):
    name = "simdlen"
    length: int


@dataclass(kw_only=True)
class ScheduleClause(Clause):
    name = "schedule"
    kind: str                           # static, dynamic, guided, auto, runtime
    chunk: c_ast.Node | None = None
    modifiers: tuple[str, ...] = ()     # monotonic, nonmonotonic, simd


@dataclass(kw_only=True)
class DistScheduleClause(Clause):
    name = "dist_schedule"
    kind: str = "static"
    chunk: c_ast.Node | None = None


@dataclass(kw_only=True)
class AtomicClause(Clause):
    """read, write, update or capture on `#pragma omp atomic`."""
    name = "atomic"
    kind: str


class NowaitClause(Clause): name = "nowait"
class SeqCstClause(Clause): name = "seq_cst"
class ThreadsClause(Clause): name = "threads"     # ordered threads
class SimdClause(Clause): name = "simd"           # ordered simd
class UntiedClause(Clause): name = "untied"       # task
class MergeableClause(Clause): name = "mergeable"  # task
class InbranchClause(Clause): name = "inbranch"    # declare simd
class NotinbranchClause(Clause): name = "notinbranch"  # declare simd


# --------------------------------------------------------------------------
# Clause parsers: (ctx, clause-name token, arguments or None) -> Clause
# --------------------------------------------------------------------------

MAP_TYPES = ("to", "from", "tofrom", "alloc", "release", "delete")
REDUCTION_OPS = ("+", "*", "-", "&", "|", "^", "&&", "||", "max", "min")
SCHEDULE_KINDS = ("static", "dynamic", "guided", "auto", "runtime")
SCHEDULE_MODIFIERS = ("monotonic", "nonmonotonic", "simd")
DEPEND_TYPES = ("in", "out", "inout", "source", "sink")
# All directive-name-modifiers of OpenMP 4.5; directives.py checks which apply where.
IF_MODIFIERS = ("parallel", "task", "taskloop", "target", "target data", "target enter data",
                "target exit data", "target update", "cancel")


def _list_clause(cls, plain: bool):
    def parse(ctx, tok, args):
        return cls(coord=ctx.loc(tok.offset), items=parse_list(ctx, args, tok.text, plain))
    return parse


def _expr_clause(cls):
    def parse(ctx, tok, args):
        return cls(coord=ctx.loc(tok.offset), expr=single_expression(ctx, args, tok.text))
    return parse


def _flag_clause(cls):
    return lambda ctx, tok, args: cls(coord=ctx.loc(tok.offset))


def _parse_map(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'map' clause")
    clause = MapClause(coord=ctx.loc(tok.offset), items=[])
    if tail is not None:
        _parse_map_prefix(ctx, head, clause)
    clause.items = parse_list(ctx, tail if tail is not None else head, "map", plain=False)
    return clause


def _parse_map_prefix(ctx, head: Group, clause: MapClause) -> None:
    """`[always [,]] map-type` before the colon."""
    previous = None
    for tok in head.tokens:
        if tok.is_punct(",") and previous is not None and previous.text == "always":
            previous = tok
            continue
        if tok.kind != "id":
            raise ctx.error(f"unexpected '{tok.text}' in 'map' clause", tok.offset)
        if tok.text == "always":
            if clause.always or clause.map_type_explicit:
                raise ctx.error("'always' must appear once, before the map type", tok.offset)
            clause.always = True
        elif tok.text in MAP_TYPES:
            if clause.map_type_explicit:
                raise ctx.error("expected ':' after the map type", tok.offset)
            clause.map_type, clause.map_type_explicit = tok.text, True
            clause.map_type_coord = ctx.loc(tok.offset)
        else:
            raise ctx.error(f"unknown map type '{tok.text}'", tok.offset)
        previous = tok
    if not clause.map_type_explicit:
        raise ctx.error("expected a map type before ':' in 'map' clause", head.end)


def _parse_reduction(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'reduction' clause")
    if tail is None:
        raise ctx.error("expected ':' after the reduction operator", head.end)
    op = "".join(t.text for t in head.tokens)
    if not head.tokens:
        raise ctx.error("expected a reduction operator before ':'", head.start)
    if len(head.tokens) != 1 or op not in REDUCTION_OPS:
        where = head.tokens[0].offset if head.tokens else head.start
        if len(head.tokens) == 1 and head.tokens[0].kind == "id":
            raise ctx.error(f"user-defined reduction '{op}' is not supported", where)
        raise ctx.error(f"invalid reduction operator '{op}'", where)
    return ReductionClause(coord=ctx.loc(tok.offset), op=op,
                           items=parse_list(ctx, tail, "reduction", plain=False))


def _parse_default(ctx, tok, args):
    word = single_word(ctx, args, ("shared", "none"), "'default' clause")
    return DefaultClause(coord=ctx.loc(tok.offset), kind=word.text)


def _parse_defaultmap(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'defaultmap' clause")
    single_word(ctx, head, ("tofrom",), "'defaultmap' clause")
    if tail is None:
        raise ctx.error("expected ':scalar' after 'tofrom' in 'defaultmap' clause", head.end)
    single_word(ctx, tail, ("scalar",), "'defaultmap' clause")
    return DefaultmapClause(coord=ctx.loc(tok.offset))


def _parse_proc_bind(ctx, tok, args):
    word = single_word(ctx, args, ("master", "close", "spread"), "'proc_bind' clause")
    return ProcBindClause(coord=ctx.loc(tok.offset), kind=word.text)


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


def _parse_depend(ctx, tok, args):
    head, tail = split_once(ctx, args, ":", "'depend' clause")
    dep_type = single_word(ctx, head, DEPEND_TYPES, "'depend' clause").text
    clause = DependClause(coord=ctx.loc(tok.offset), dep_type=dep_type, items=[])
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
    step = parse_expression(ctx, tail, "step of 'linear' clause") if tail is not None else None
    return LinearClause(coord=ctx.loc(tok.offset), modifier=modifier, step=step,
                        items=parse_list(ctx, head, "linear", plain=True))


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
    "lastprivate": ClauseSpec(_list_clause(LastprivateClause, plain=True), "required"),
    "shared": ClauseSpec(_list_clause(SharedClause, plain=True), "required"),
    "copyin": ClauseSpec(_list_clause(CopyinClause, plain=True), "required"),
    "copyprivate": ClauseSpec(_list_clause(CopyprivateClause, plain=True), "required"),
    "is_device_ptr": ClauseSpec(_list_clause(IsDevicePtrClause, plain=True), "required"),
    "use_device_ptr": ClauseSpec(_list_clause(UseDevicePtrClause, plain=True), "required"),
    "to": ClauseSpec(_list_clause(ToClause, plain=False), "required"),
    "from": ClauseSpec(_list_clause(FromClause, plain=False), "required"),
    "link": ClauseSpec(_list_clause(LinkClause, plain=True), "required"),
    "uniform": ClauseSpec(_list_clause(UniformClause, plain=True), "required"),
    "map": ClauseSpec(_parse_map, "required"),
    "reduction": ClauseSpec(_parse_reduction, "required"),
    "aligned": ClauseSpec(_parse_aligned, "required"),
    "linear": ClauseSpec(_parse_linear, "required"),
    "depend": ClauseSpec(_parse_depend, "required"),
    "num_teams": ClauseSpec(_expr_clause(NumTeamsClause), "required"),
    "thread_limit": ClauseSpec(_expr_clause(ThreadLimitClause), "required"),
    "num_threads": ClauseSpec(_expr_clause(NumThreadsClause), "required"),
    "device": ClauseSpec(_expr_clause(DeviceClause), "required"),
    "hint": ClauseSpec(_expr_clause(HintClause), "required"),
    "final": ClauseSpec(_expr_clause(FinalClause), "required"),
    "priority": ClauseSpec(_parse_priority, "required"),
    "if": ClauseSpec(_parse_if, "required"),
    "default": ClauseSpec(_parse_default, "required"),
    "defaultmap": ClauseSpec(_parse_defaultmap, "required"),
    "proc_bind": ClauseSpec(_parse_proc_bind, "required"),
    "collapse": ClauseSpec(_parse_collapse, "required"),
    "ordered": ClauseSpec(_parse_ordered, "optional"),
    "safelen": ClauseSpec(_parse_safelen, "required"),
    "simdlen": ClauseSpec(_parse_simdlen, "required"),
    "schedule": ClauseSpec(_parse_schedule, "required"),
    "dist_schedule": ClauseSpec(_parse_dist_schedule, "required"),
    "nowait": ClauseSpec(_flag_clause(NowaitClause), "none"),
    "seq_cst": ClauseSpec(_flag_clause(SeqCstClause), "none"),
    "threads": ClauseSpec(_flag_clause(ThreadsClause), "none"),
    "simd": ClauseSpec(_flag_clause(SimdClause), "none"),
    "untied": ClauseSpec(_flag_clause(UntiedClause), "none"),
    "mergeable": ClauseSpec(_flag_clause(MergeableClause), "none"),
    "inbranch": ClauseSpec(_flag_clause(InbranchClause), "none"),
    "notinbranch": ClauseSpec(_flag_clause(NotinbranchClause), "none"),
    "read": _atomic("read"),
    "write": _atomic("write"),
    "update": _atomic("update"),
    "capture": _atomic("capture"),
}

# OpenMP clauses of constructs this compiler does not support (taskloop, declare
# reduction): reported as "not valid here" rather than "unknown".
OTHER_OPENMP_CLAUSES = frozenset({"grainsize", "num_tasks", "nogroup", "initializer"})
