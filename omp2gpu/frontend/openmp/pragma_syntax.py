"""OpenMP 4.5 pragma syntax shared by directives and clauses: pragma tokens,
C expressions inside clauses (parsed by pycparser, relocated into the pragma
line), integer constants, and list items with array sections.

Every syntax problem is a `CompileError` located in the pragma line (offset 0
of the pragma text is the "o" of "omp").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from pycparser import c_ast, c_parser

from omp2gpu.diagnostics import CompileError, SourceLocation
from omp2gpu.frontend.openmp.clause_types import ArraySection, ListItem
from omp2gpu.frontend.openmp.pragma_lines import source_positions
from omp2gpu.frontend.tree_walks import nodes

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
        self._positions: list[tuple[int, int]] | None | bool = False     # False: not looked up

    def loc(self, offset: int) -> SourceLocation:
        """Where offset `offset` of the text is in the source (on a continuation line,
        say); counted along the first line where the source spells the text otherwise."""
        if self._positions is False:
            self._positions = source_positions(self.text, self.origin) if self.origin.file else None
        if self._positions is None:
            return self.origin.shifted(offset)
        line, column = self._positions[min(max(offset, 0), len(self._positions) - 1)]
        return SourceLocation(self.origin.file, line, column)

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
_ERROR_AT = re.compile(r":(\d+):(\d+):")
_EXPR_LINE = 3                           # the wrapper source's line the pragma's text lands on


def parse_expression(ctx: PragmaContext, group: Group, what: str) -> c_ast.Node:
    return _parse_wrapped(ctx, group, what, "(", "expression")


def parse_type_name(ctx: PragmaContext, group: Group, what: str) -> c_ast.Typename:
    """A type name (`int`, `struct point`, `double *`), parsed as the type of a cast."""
    return _parse_wrapped(ctx, group, what, "((", "type name", ")0").to_type


def _parse_wrapped(ctx: PragmaContext, group: Group, what: str, opening: str, noun: str,
                   closing: str = "") -> c_ast.Node:
    """The tokens of `group` parsed by pycparser as the expression `opening text closing`
    inside a function, with coords relocated into the pragma line."""
    if not group.tokens:
        raise ctx.error(f"expected {'an' if noun[0] in 'aeiou' else 'a'} {noun} in {what}", group.start)
    for tok in group.tokens:
        if tok.is_punct(";"):
            raise ctx.error(f"unexpected ';' in {what}", tok.offset)
    # Declare only the typedef names the expression mentions, so casts parse.
    typedefs = sorted({t.text for t in group.tokens if t.kind == "id"} & ctx.typedef_names)
    source = (" ".join(f"typedef int {name};" for name in typedefs)
              + "\nvoid __omp_clause(void) {\n" + opening + ctx.spelling(group) + closing + "\n);\n}\n")
    column = len(opening) + 1                # where the text starts on its line
    try:
        tree = _PARSER.parse(source, "<omp clause>")
    except c_parser.ParseError as exc:
        raise ctx.error(f"invalid {noun} in {what}", _error_offset(group, str(exc), column)) from None
    except Exception:   # pycparser should not raise anything else; never let it escape
        raise ctx.error(f"invalid {noun} in {what}", group.start) from None
    items = tree.ext[-1].body.block_items or []
    if len(items) != 1 or (closing and not isinstance(items[0], c_ast.Cast)):
        raise ctx.error(f"invalid {noun} in {what}", group.start)
    _relocate(ctx, items[0], group.start, column)
    return items[0]


def _error_offset(group: Group, message: str, text_column: int) -> int:
    match = _ERROR_AT.search(message)
    if match is None:
        return group.start
    line, column = int(match.group(1)), int(match.group(2))
    if line < _EXPR_LINE:
        return group.start
    if line > _EXPR_LINE:
        return group.end
    return min(max(group.start + column - text_column, group.start), group.end)


def _relocate(ctx: PragmaContext, node: c_ast.Node, base: int, text_column: int) -> None:
    """Point the coords of `node` and its descendants into the pragma line."""
    for current in nodes(node):
        coord = getattr(current, "coord", None)
        if coord is not None:
            inside = coord.line == _EXPR_LINE and coord.column
            current.coord = ctx.c_coord(base + coord.column - text_column if inside else base)


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
    shape, start = [], 0
    if not plain and len(tokens) > 2 and tokens[0].is_punct("(") and tokens[1].is_punct("["):
        if clause not in _SHAPED_CLAUSES:
            raise ctx.error(f"an array shaping operator ('([n][m])p') in {what}: allowed only in map, to and "
                            "from clauses", tokens[0].offset)
        shape, start = _read_shape(ctx, tokens, what)
    if start == len(tokens) or tokens[start].kind != "id":
        raise ctx.error(f"expected a variable name in {what}",
                        tokens[start].offset if start < len(tokens) else group.start)
    if plain and len(tokens) > 1:
        raise ctx.error(f"expected a variable name in {what}", tokens[1].offset)
    root = tokens[start]
    expr: c_ast.Node = c_ast.ID(root.text, coord=ctx.c_coord(root.offset))
    i = start + 1
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
        sections.append(_parse_section(ctx, inner, bracket, f"array section in {what}",
                                       strided=clause in _STRIDED_CLAUSES))
    if i < len(tokens):
        raise ctx.error(f"unexpected '{tokens[i].text}' in {what}", tokens[i].offset)
    if shape and not isinstance(expr, c_ast.ID):
        raise ctx.error(f"an array shaping operator applies to a pointer variable, not to a member, in {what}",
                        tokens[start + 1].offset)
    return ListItem(root.text, expr, sections, ctx.loc(root.offset), ctx.spelling(group), shape)


# OpenMP 5.0: strided sections and array shaping, in target update's motion clauses (and
# shaping in map clauses too)
_STRIDED_CLAUSES = ("to", "from")
_SHAPED_CLAUSES = ("to", "from", "map")


def _read_shape(ctx: PragmaContext, tokens: list[Token], what: str) -> tuple[list[c_ast.Node], int]:
    """`([e1][e2]...)` before a pointer: the extents and the index after the ')'."""
    inner, after = take_parenthesized(ctx, tokens, 0, "an array shaping operator")
    extents, i = [], 0
    while i < len(inner.tokens):
        if not inner.tokens[i].is_punct("["):
            raise ctx.error(f"expected '[' in the array shaping operator in {what}", inner.tokens[i].offset)
        bracket = inner.tokens[i].offset
        extent, i = _take_brackets(inner.tokens, i)
        if not extent.tokens:
            raise ctx.error(f"expected an extent in the array shaping operator in {what}", bracket)
        extents.append(parse_expression(ctx, extent, f"the array shaping operator in {what}"))
    return extents, after


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


def _parse_section(ctx: PragmaContext, inner: Group, bracket: int, what: str,
                   strided: bool = False) -> ArraySection:
    coord = ctx.loc(bracket)
    pieces = split_top(inner, ":")
    if len(pieces) > 3 or (len(pieces) == 3 and not strided):
        if len(pieces) == 3:
            raise ctx.error(f"a stride ('[lower:length:stride]') in {what}: strided sections are allowed only "
                            "in the 'to' and 'from' clauses of 'target update'", pieces[2].sep.offset)
        raise ctx.error(f"unexpected ':' in {what}", pieces[3].sep.offset)
    if len(pieces) == 1:        # a[i]: one element
        index = parse_expression(ctx, inner, what)
        one = c_ast.Constant("int", "1", coord=ctx.c_coord(inner.start))
        return ArraySection(index, one, is_element=True, coord=coord)
    lower, length = pieces[:2]
    stride = None
    if len(pieces) == 3:
        if not pieces[2].tokens:
            raise ctx.error(f"expected a stride after ':' in {what}", pieces[2].start)
        stride = parse_expression(ctx, pieces[2], what)
        value = constant_int(stride)
        if value is not None and value <= 0:
            raise ctx.error(f"the stride of an array section must be positive, not {value}", pieces[2].start)
    return ArraySection(parse_expression(ctx, lower, what) if lower.tokens else None,
                        parse_expression(ctx, length, what) if length.tokens else None,
                        coord=coord, stride=stride)

