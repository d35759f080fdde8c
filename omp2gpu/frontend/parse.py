"""Parse preprocessed C with pycparser; syntax errors become located CompileErrors."""

from __future__ import annotations

import linecache
import re

from pycparser import c_ast, c_parser

from omp2gpu.diagnostics import CompileError, SourceLocation, warn

_parser: c_parser.CParser | None = None


_AFTER_IMPLICIT_INT_NAME = frozenset({"EQUALS", "COMMA", "SEMI", "LBRACKET"})


if hasattr(c_parser.CParser, "_parse_unary_expression"):         # pycparser 3.x
    from omp2gpu.frontend.gnu_extensions import GnuLexer
    from omp2gpu.frontend.gnu_nodes import ConditionalWithOmittedOperand, StatementExpression
    from omp2gpu.frontend.openmp.omp_nodes import PragmaLine
    from omp2gpu.frontend.operator_locations import OperatorLocations
    from omp2gpu.frontend.syntax_errors import GccSyntaxErrors

    class _Parser(OperatorLocations, GccSyntaxErrors):
        """pycparser with GNU C's spellings understood (gnu_extensions), operator
        expressions located at the operator (operator_locations.py), where C compilers
        point, each pragma knowing where the next token is, and syntax errors where
        gcc puts them (syntax_errors.py)."""

        def __init__(self):
            super().__init__(lexer=GnuLexer)

        def _parse_pppragma_directive(self):
            pragma = super()._parse_pppragma_directive()
            following = self._peek()
            if following is not None and following.type == "PPPRAGMA":
                following = self._peek(2) or following      # the next pragma's text, at `omp`
            return PragmaLine(pragma.string, pragma.coord,
                              following and self._tok_coord(following))

        def _parse_external_declaration(self):
            # `count = 7;` at file scope: an int with no specifier at all (C89's implicit
            # int), which gcc defines with a warning.
            tok = self._peek()
            if tok is not None and tok.type == "ID" and self._peek_type(2) in _AFTER_IMPLICIT_INT_NAME:
                warn("data definition has no type or storage class", self._tok_coord(tok))
                spec = {"qual": [], "alignment": [], "storage": [], "function": [], "type_attributes": [],
                        "type": [c_ast.IdentifierType(["int"], coord=self._tok_coord(tok))]}
                return self._parse_declaration_end(self._parse_decl_body_with_spec(spec, True))
            return super()._parse_external_declaration()

        def _fix_decl_name_type(self, decl, typename):
            # `static count = 7;`: specifiers but no type, an int with gcc's warning.
            if not typename and not isinstance(decl.type, c_ast.FuncDecl) and isinstance(decl, c_ast.Decl):
                name = decl.type
                while not isinstance(name, c_ast.TypeDecl):
                    name = name.type
                warn(f"type defaults to 'int' in declaration of '{name.declname}'", decl.coord)
                typename = [c_ast.IdentifierType(["int"], coord=decl.coord)]
            return super()._fix_decl_name_type(decl, typename)

        def asm_labels(self) -> dict[str, str]:
            return self.clex.asm_labels

        def _parse_primary_expression(self):
            expression = super()._parse_primary_expression()
            if type(expression) is c_ast.Compound:        # `({ ... })`
                return StatementExpression(expression.block_items, expression.coord)
            return expression

        def _parse_conditional_expression(self):
            # pycparser's, with GNU `x ?: y` (the middle operand omitted) understood.
            expr = self._parse_binary_expression()
            if self._peek_type() == "CONDOP" and self._peek_type(2) == "COLON":
                self._advance(), self._advance()
                iffalse = self._parse_conditional_expression()
                return ConditionalWithOmittedOperand(expr, iffalse, expr.coord)
            if self._accept("CONDOP"):
                iftrue = self._parse_expression()
                self._expect("COLON")
                iffalse = self._parse_conditional_expression()
                return c_ast.TernaryOp(expr, iftrue, iffalse, expr.coord)
            return expr
else:                                                            # pycparser 2.x
    _Parser = c_parser.CParser


def _the_parser() -> c_parser.CParser:
    # Building a CParser is the expensive part; parse() resets its state.
    global _parser
    if _parser is None:
        _parser = _Parser()
    return _parser


def parse(text: str, filename: str) -> c_ast.FileAST:
    """Parse preprocessed `text`; `filename` names it until a line marker does."""
    parser = _the_parser()
    try:
        ast = parser.parse(text, filename)
    except c_parser.ParseError as error:
        raise _syntax_error(str(error), text, filename) from None
    finally:
        _forget_tokens(parser)
    labels = parser.asm_labels() if hasattr(parser, "asm_labels") else {}
    if labels:
        apply_asm_labels(ast, labels)
    return ast


def _forget_tokens(parser) -> None:
    """pycparser 3's token stream keeps every token of the last parse (for backtracking)
    until the next parse: a file's worth of objects held through the rest of the compile."""
    if hasattr(parser, "_tokens"):
        parser._tokens = type(parser._tokens)(parser.clex.token)


def apply_asm_labels(ast: c_ast.FileAST, labels: dict[str, str]) -> None:
    """`int f(void) __asm__("g");`: f's symbol is g. Every use of the name f
    is renamed g (a program's own f and g then agree, as in the object file)."""
    stack = [ast]
    while stack:
        node = stack.pop()
        if isinstance(node, (c_ast.Decl, c_ast.ID)) and node.name in labels:
            node.name = labels[node.name]
        elif isinstance(node, c_ast.TypeDecl) and node.declname in labels:
            node.declname = labels[node.declname]
        if isinstance(node, (c_ast.Struct, c_ast.Union)):
            continue                        # member names are not the label's symbol
        for name, child in node.children():
            if not (isinstance(node, c_ast.StructRef) and name == "field"):
                stack.append(child)


# pycparser reports "<coord>: <message>"; the coord is file:line:col, file:line,
# a bare file name (at end of input) or None.
_WITH_LINE = re.compile(r"^(?P<file>.*?):(?P<line>\d+)(?::(?P<col>\d+))?: (?P<msg>.*)$", re.S)


def _syntax_error(raw: str, text: str, filename: str) -> CompileError:
    match = _WITH_LINE.match(raw)
    if match:
        location = SourceLocation(match["file"], int(match["line"]), int(match["col"] or 0))
        message = match["msg"]
        unknown = _unknown_type_name(message, location)
        if unknown is not None:
            return unknown
    else:
        message = raw.split(": ", 1)[1] if ": " in raw else raw
        location = end_of_input(text, filename)
    return CompileError(_friendlier(message), location)


_C_KEYWORDS = frozenset("""auto break case char const continue default do double else enum extern
    float for goto if inline int long register restrict return short signed sizeof static struct
    switch typedef union unsigned void volatile while _Bool _Complex""".split())
# `name declarator` where a declaration can start: after `{ ; } ( ,`, a storage
# class or a qualifier, or at the start of the line.
_TYPE_POSITION = re.compile(r"(?:^|[{;}(,]|\b(?:static|extern|register|auto|const|volatile|typedef))"
                            r"\s*(?P<name>[A-Za-z_]\w*)\s*$")


def _unknown_type_name(message: str, location: SourceLocation) -> CompileError | None:
    """`matrix m;` with no typedef for matrix: pycparser stops at `m`; gcc and
    clang report the unknown type name, at the name."""
    before = re.match(r"before: ([A-Za-z_]\w*|\*)$", message)
    if before is None or not location.file or location.column <= 1:
        return None
    linecache.checkcache(location.file)
    line = linecache.getline(location.file, location.line)
    found = _TYPE_POSITION.search(line[:location.column - 1])
    if found is None or found["name"] in _C_KEYWORDS:
        return None
    return CompileError(f"unknown type name '{found['name']}'",
                        SourceLocation(location.file, location.line, found.start("name") + 1))


def _friendlier(message: str) -> str:
    """Reword pycparser's messages the way C compilers put them."""
    if message.startswith("before: "):
        return f"syntax error before '{message[len('before: '):]}'"
    if message == "At end of input":
        return "syntax error at end of input"
    if message == "Invalid multiple types specified":
        return "two or more data types in declaration specifiers"
    if message in ("Illegal character '\"'", "Unmatched '"):
        quote = message[-2] if message.endswith("'\"'") else "'"
        return f"missing terminating {quote} character"
    illegal = re.match(r"Illegal character (.*)$", message)
    if illegal:
        return f"stray {illegal[1]} in program"
    return message[:1].lower() + message[1:]


_MARKER = re.compile(r'^\s*#\s*(?:line\s+)?(\d+)(?:\s+"((?:\\.|[^"\\])*)")?')


def end_of_input(text: str, filename: str) -> SourceLocation:
    """The original file and line of the last non-blank line of `text`."""
    line, file = 1, filename
    last = SourceLocation(filename, 1)
    for raw in text.split("\n"):
        marker = _MARKER.match(raw)
        if marker:
            line, file = int(marker[1]), marker[2] if marker[2] is not None else file
            continue
        if raw.strip():
            last = SourceLocation(file, line, len(raw.rstrip()) + 1)
        line += 1
    return last
