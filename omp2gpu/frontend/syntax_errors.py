"""pycparser's parser with its syntax errors where gcc reports them, in gcc's words,
and the declaration rules pycparser lets through checked as gcc checks them.

pycparser locates some errors only by file name (the token it could not use is then
the place) and says "before: X" where gcc names what it expected; gcc puts a missing
`;` ending a statement, `)`, `]` or `:` just after the token before it when the next
token is on a later line. Declarations: one storage class each (`register` alone on
a parameter), no function defined in a block; an empty declaration (`int;`) and a
struct's last member without its `;` are warnings; a pragma where a declaration
goes on is reported at the pragma.

parse.py builds its parser (GNU C's spellings) on this one.
"""

from __future__ import annotations

import linecache
import re

from pycparser import c_ast, c_parser

from omp2gpu.diagnostics import warn

# A token gcc asks for by itself ("expected ')' before ':'"): where the token after the
# gap is on a later line, gcc points just after the token before (a statement's ';'
# only: a declaration's is one of "',' or ';'", at the next token).
_PUT_AFTER_THE_TOKEN_BEFORE = {"SEMI": ";", "RPAREN": ")", "RBRACKET": "]", "COLON": ":"}
_TRAILING_COMMENT = re.compile(r"\s*(?://.*|/\*(?:(?!\*/).)*\*/)$")
_NOT_A_STATEMENT_START = {
    "RBRACKET": "expected statement before '{token}'",
    "RPAREN": "expected statement before '{token}'",
    "ELSE": "'else' without a previous 'if'",
}


class GccSyntaxErrors(c_parser.CParser):
    """The error-reporting overrides (pycparser 3.x's recursive-descent parser)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._ends_statement = False
        self._parameter_storage: list | None = None     # storage classes of the parameter read
        self._in_member = False                         # reading a struct's member declaration
        self._closing_parameters = False                # reading a function declarator's parameters

    def _parse_error(self, msg, coord):
        if coord is None or isinstance(coord, str):
            tok = self._peek()
            if tok is not None:
                coord = self._tok_coord(tok)
                if msg == "Invalid expression":
                    msg = f"expected expression before '{tok.value}'"
        super()._parse_error(msg, coord)

    def _expect(self, token_type):
        tok = self._peek()
        missing = _PUT_AFTER_THE_TOKEN_BEFORE.get(token_type)
        if missing and tok is not None and tok.type != token_type \
                and (token_type != "SEMI" or self._ends_statement) \
                and (token_type != "RPAREN" or not self._closing_parameters):
            previous = self._previous_token()
            if previous is not None and tok.lineno > previous.lineno and _insertion_point(previous):
                super()._parse_error(f"expected '{missing}' before '{tok.value}'", _insertion_point(previous))
        return super()._expect(token_type)

    def _parse_function_decl(self, base_decl):
        # gcc expects one of "';', ',' or ')'" after a parameter: at the next token
        saved, self._closing_parameters = self._closing_parameters, True
        try:
            return super()._parse_function_decl(base_decl)
        finally:
            self._closing_parameters = saved

    def _previous_token(self):
        index = self._tokens.mark()
        return self._tokens._buffer[index - 1] if index > 0 else None

    def _missing_semicolon(self, tok, previous):
        where = (previous is not None and _insertion_point(previous)) or self._tok_coord(tok)
        super()._parse_error(f"expected ';' before '{tok.value}'", where)

    def _statement_ending_in_semicolon(self, parse):
        saved, self._ends_statement = self._ends_statement, True
        try:
            return parse()
        finally:
            self._ends_statement = saved

    def _parse_expression_statement(self):
        tok = self._peek()
        if tok is not None and tok.type != "SEMI" and not self._starts_expression():
            # gcc's words, at the token no statement can start with
            what = _NOT_A_STATEMENT_START.get(tok.type, "expected expression before '{token}'")
            super()._parse_error(what.format(token=tok.value), self._tok_coord(tok))
        return self._statement_ending_in_semicolon(super()._parse_expression_statement)

    def _parse_jump_statement(self):
        return self._statement_ending_in_semicolon(super()._parse_jump_statement)

    def _add_declaration_specifier(self, declspec, newspec, kind):
        if kind == "storage" and declspec is not None:
            clash = _storage_class_clash(declspec["storage"], newspec)
            if clash:
                super()._parse_error(clash, self._tok_coord(self._previous_token()))
        if kind == "storage" and newspec != "register" and self._parameter_storage is not None:
            self._parameter_storage.append(self._tok_coord(self._previous_token()))
        return super()._add_declaration_specifier(declspec, newspec, kind)

    def _parse_parameter_declaration(self):
        # C11 6.7.6.3p2: `register` is the one storage class a parameter may have.
        saved, self._parameter_storage = self._parameter_storage, []
        try:
            param = super()._parse_parameter_declaration()
            if self._parameter_storage:
                if isinstance(param, c_ast.Decl) and param.name:
                    name = param.type
                    while not isinstance(name, c_ast.TypeDecl) and hasattr(name, "type"):
                        name = name.type                # down the declarator to its name
                    super()._parse_error(f"storage class specified for parameter '{param.name}'",
                                         getattr(name, "coord", None) or param.coord)
                super()._parse_error("storage class specified for unnamed parameter",
                                     self._parameter_storage[0])
            return param
        finally:
            self._parameter_storage = saved

    def _parse_decl_body_with_spec(self, spec, saw_type):
        tags = [t for t in spec["type"] if isinstance(t, (c_ast.Struct, c_ast.Union, c_ast.Enum))]
        if tags and len(spec["type"]) > 1:      # `int struct s {...};` (pycparser checks declarators only)
            second = spec["type"][1]
            super()._parse_error("two or more data types in declaration specifiers", second.coord)
        # `int;`, `static double;`, `T;`: gcc warns and declares nothing.
        if saw_type and self._peek_type() == "SEMI" and not tags:
            warn("useless type name in empty declaration", spec["type"][0].coord)
            return []
        return super()._parse_decl_body_with_spec(spec, saw_type)

    def _parse_iteration_statement(self):
        # C99 6.8.5p3: a `for` loop's declaration declares only auto or register objects
        statement = super()._parse_iteration_statement()
        if isinstance(statement, c_ast.For) and isinstance(statement.init, c_ast.DeclList):
            for decl in statement.init.decls:
                storage = next((s for s in decl.storage if s in ("static", "extern", "typedef")), None)
                if storage is not None and decl.name:
                    kind = "type" if storage == "typedef" else f"{storage} variable"
                    super()._parse_error(f"declaration of {kind} '{decl.name}' in 'for' loop initial declaration",
                                         decl.coord)
        return statement

    def _parse_function_definition(self, spec, decl):
        # pycparser takes any declarator followed by a declaration for a K&R
        # definition; only a function's can be one: the ';' is missing.
        tok, previous = self._peek(), self._previous_token()
        if not isinstance(decl, c_ast.FuncDecl) and tok is not None and previous is not None:
            if tok.type == "LBRACE":
                super()._parse_error("expected '=', ',', ';', 'asm' or '__attribute__' before '{'",
                                     self._tok_coord(tok))
            self._missing_semicolon(tok, previous)
        return super()._parse_function_definition(spec, decl)

    def _parse_struct_declaration(self):
        saved, self._in_member = self._in_member, True
        try:
            return super()._parse_struct_declaration()
        finally:
            self._in_member = saved

    def _parse_declaration_end(self, decls):
        if self._in_member and self._peek_type() == "RBRACE":     # `struct s { int a, b };`
            warn("no semicolon at end of struct or union", self._tok_coord(self._peek()))
            return decls
        tok = self._peek()
        if not self._in_member and tok is not None and self._starts_declaration(tok):
            self._missing_semicolon(tok, self._previous_token())     # `int a[4]` then `double d;`
        function = bool(decls) and isinstance(getattr(decls[-1], "type", None), c_ast.FuncDecl)
        if function and self._peek_type() == "LBRACE":     # only in a block: file scope is not here
            what = (f"invalid storage class for function '{decls[-1].name}'"
                    if "static" in (decls[-1].storage or ()) else "function definition is not allowed here")
            super()._parse_error(what, decls[-1].coord)
        # pycparser reads pragmas before a declaration's ';'; anything else after
        # them is a pragma where the declaration goes on: gcc reports it there.
        index = 1
        while self._peek_type(index) in ("PPPRAGMA", "PPPRAGMASTR"):
            index += 1
        if index > 1 and self._peek_type(index) != "SEMI":
            expected = ("declaration specifiers" if function
                        else "'=', ',', ';', 'asm' or '__attribute__'")
            pragma = self._peek(2) if self._peek_type(2) == "PPPRAGMASTR" else self._peek()
            super()._parse_error(f"expected {expected} before '#pragma'", self._tok_coord(pragma))
        return super()._parse_declaration_end(decls)


def _storage_class_clash(earlier: list[str], new: str) -> str | None:
    """C11 6.7.1p2: one storage class per declaration, `_Thread_local` beside `static`
    or `extern` excepted."""
    if new in earlier:
        return f"duplicate '{new}'"
    thread_local = {"_Thread_local", "__thread"}
    if earlier and not all({new, other} & thread_local and {new, other} & {"static", "extern"}
                           for other in earlier):
        return "multiple storage classes in declaration specifiers"
    return None


def _insertion_point(token) -> c_parser.Coord | None:
    """Just after `token`, where gcc puts a missing token: where the token is spelt at
    its place, or, the last of a line a macro's expansion shifted, at the line's end.
    None where the line does not end with it (it came out of a macro's expansion):
    gcc then points at the next token. (A line ending in a function-like macro's call
    passes for the token's own: the preprocessed text does not tell them apart.)"""
    code = _TRAILING_COMMENT.sub("", linecache.getline(token.filename, token.lineno).rstrip())
    spelled, start = str(token.value), token.column - 1
    if code[start:start + len(spelled)] == spelled:
        return c_parser.Coord(token.filename, token.lineno, token.column + len(spelled))
    if code.endswith(spelled):
        return c_parser.Coord(token.filename, token.lineno, len(code) + 1)
    return None
