"""GNU C spellings that headers and real programs use, turned into what
pycparser parses (a lexer in front of its parser).

- Keyword aliases: `__inline__`, `__restrict__`, `__const`, `__volatile__`,
  `__signed__`, `__typeof__` (and plain `typeof`) become the C keywords they
  spell; `__alignof__(x)` becomes `_Alignof(typeof(x))` (GNU's takes
  expressions too); `__extension__` is dropped.
- `__attribute__((...))` anywhere: attributes that change no layout and no
  result (noinline, unused, format, ...) are dropped; `aligned` is dropped
  where it only asks more alignment of an object, and refused where it would
  change a type's size or layout (on a struct, member or typedef), as are the
  other layout-changing attributes (packed, vector_size, mode, ...): a located
  error naming the attribute, never a silent wrong layout.
- Asm labels, `int f(void) __asm__("g");`: the label is recorded (the parser
  returns it in `asm_labels`) and the declaration is renamed after parsing.
- Inline assembly statements are a located error.
- Imaginary constants (`2.5i`, `1.0iF`, `1.0fi`, GNU C): the number and its
  suffix, which pycparser reads as two tokens, become one constant spelled
  `<number>i<real suffix>` (sema/literals.py gives it its complex type);
  `__real__`/`__imag__` become the REALPART/IMAGPART prefix operators.
"""

from __future__ import annotations

import re
from dataclasses import replace

from pycparser.c_lexer import CLexer

_KEYWORD_ALIASES = {
    "__inline": "INLINE", "__inline__": "INLINE",
    "__restrict": "RESTRICT", "__restrict__": "RESTRICT",
    "__const": "CONST", "__const__": "CONST",
    "__volatile": "VOLATILE", "__volatile__": "VOLATILE",
    "__signed": "SIGNED", "__signed__": "SIGNED",
    "__typeof": "TYPEOF", "__typeof__": "TYPEOF", "typeof": "TYPEOF",
    "__noreturn__": "_NORETURN",
}
# The standard spelling of each, which the AST then carries (UnaryOp's op, funcspec).
_SPELLING = {"INLINE": "inline", "RESTRICT": "restrict", "CONST": "const",
             "VOLATILE": "volatile", "SIGNED": "signed", "_ALIGNOF": "_Alignof",
             "TYPEOF": "typeof", "_NORETURN": "_Noreturn"}
_DROPPED = frozenset({"__extension__"})
_ALIGNOF = frozenset({"__alignof", "__alignof__"})
_ATTRIBUTE = frozenset({"__attribute__", "__attribute"})
_ASM = frozenset({"__asm__", "__asm", "asm"})
_PART_OPERATORS = {"__real__": "REALPART", "__real": "REALPART",
                   "__imag__": "IMAGPART", "__imag": "IMAGPART"}
_NUMBERS = frozenset({"INT_CONST_DEC", "INT_CONST_OCT", "INT_CONST_HEX", "INT_CONST_BIN",
                      "FLOAT_CONST", "HEX_FLOAT_CONST"})
# What may follow a number, adjacent, to make it imaginary: i or j, before or after
# the real suffix (f, l), in either case.
_IMAGINARY_SUFFIX = re.compile(r"(?P<before>[fFlL]?)[iIjJ](?P<after>[fFlL]?)$")

# Attributes with no effect on layout or results: optimisation hints,
# diagnostics, linkage details that change no result.
_HARMLESS = frozenset("""
    always_inline noinline inline gnu_inline artificial flatten hot cold unused used
    maybe_unused const pure malloc noreturn nothrow leaf nonnull returns_nonnull
    warn_unused_result format format_arg sentinel deprecated unavailable visibility
    may_alias noclone no_instrument_function optimize target no_sanitize
    no_sanitize_address no_stack_protector access alloc_size alloc_align assume_aligned
    fallthrough nonstring externally_visible weak error warning noipa copy
    no_reorder returns_twice designated_init tls_model nodiscard zero_call_used_regs
""".split())
# Attributes whose meaning (layout, calls at start-up, cleanups) omp2gpu does
# not implement: refused with their name.
_ALIGNED = "aligned"


def attribute_name(word: str) -> str:
    """`__noinline__` and `noinline` are the same attribute."""
    if word.startswith("__") and word.endswith("__") and len(word) > 4:
        return word[2:-2]
    return word


class GnuLexer(CLexer):
    """pycparser's lexer with the GNU spellings above understood."""

    def input(self, text: str, filename: str = "") -> None:
        super().input(text, filename)
        self._end_of_raw = 0             # where the last token the lexer made ended
        self.asm_labels: dict[str, str] = {}
        self._pending: list = []
        self._previous = None            # the last token handed to the parser
        self._last_name = None           # the last identifier at declaration level
        self._depth = 0                  # parenthesis depth
        self._struct_bodies: list[int] = []   # brace depths of open struct/union bodies
        self._braces = 0
        self._expect_struct_body = False
        self._in_typedef = False

    def _raw(self):
        if self._pending:
            return self._pending.pop()
        tok = super().token()
        if tok is not None and tok.type == "PPPRAGMA":
            self._check_own_line(tok)
        # a pragma's line is read whole, its end of line too: what follows starts a line
        self._end_of_raw = 0 if tok is not None and tok.type.startswith("PPPRAGMA") else self._pos
        return tok

    def _check_own_line(self, tok) -> None:
        """A `#pragma` is a directive only as the first token of its line; after code on
        the same line its `#` is a stray character, as gcc says (the lexer takes it as a
        pragma wherever it stands). The lexer's own position says where the last token
        ended (a private field of pycparser's lexer, the version installed with omp2gpu)."""
        text, end = self._lexdata, self._end_of_raw
        hash_at = text.find("#", end)
        if end and hash_at >= 0 and "\n" not in text[end:hash_at]:
            column = hash_at - text.rfind("\n", 0, hash_at)
            self._fail("stray '#' in program", replace(tok, column=column))

    def token(self):
        while True:
            tok = self._raw()
            if tok is None:
                return None
            if tok.type == "ID":
                if tok.value in _DROPPED:
                    continue
                if tok.value in _ATTRIBUTE:
                    self._attribute(tok)
                    continue
                if tok.value in _ALIGNOF:
                    tok = self._alignof(tok)
                elif tok.value in _ASM and self._is_asm(tok):
                    self._asm(tok)
                    continue
                part = _PART_OPERATORS.get(tok.value)
                if part is not None:
                    tok = replace(tok, type=part, value=tok.value.strip("_").join(("__", "__")))
                alias = _KEYWORD_ALIASES.get(tok.value)
                if alias is not None:
                    tok = replace(tok, type=alias, value=_SPELLING[alias])
            elif tok.type in _NUMBERS:
                tok = self._maybe_imaginary(tok)
            self._track(tok)
            return tok

    def _maybe_imaginary(self, number):
        """`2.5i`: the number and its adjacent suffix as one constant (see the module doc)."""
        following = self._raw()
        if following is not None and following.type in ("ID", "IF") and following.lineno == number.lineno \
                and following.column == number.column + len(number.value):
            suffix = _IMAGINARY_SUFFIX.match(following.value)
            if suffix is not None and not (suffix["before"] and number.value[-1] in "fFlL"):
                real = number.value
                if real[-1] in "fFlL" and not number.type.startswith("INT"):
                    real, before = real[:-1], real[-1]
                else:
                    before = suffix["before"]
                return replace(number, value=f"{real}i{before or suffix['after']}")
        self._pending.append(following)
        return number

    # ------------------------------------------------------------- context

    def _track(self, tok) -> None:
        """Just enough context to tell where an attribute or label stands."""
        kind = tok.type
        if kind == "LPAREN":
            self._depth += 1
        elif kind == "RPAREN":
            self._depth = max(0, self._depth - 1)
        elif kind in ("STRUCT", "UNION"):
            self._expect_struct_body = True
        elif kind == "LBRACE":
            self._braces += 1
            if self._expect_struct_body:
                self._struct_bodies.append(self._braces)
            self._expect_struct_body = False
            self._in_typedef = False
        elif kind == "RBRACE":
            if self._struct_bodies and self._struct_bodies[-1] == self._braces:
                self._struct_bodies.pop()
            self._braces = max(0, self._braces - 1)
        elif kind == "SEMI":
            self._expect_struct_body = False
            self._in_typedef = False
            self._last_name = None
        elif kind == "TYPEDEF":
            self._in_typedef = True
        elif kind == "ID" and self._depth == 0:
            self._last_name = tok.value
        if kind not in ("STRUCT", "UNION", "ID", "LBRACE"):
            self._expect_struct_body = self._expect_struct_body and kind == "TYPEID"
        self._previous = tok

    # ---------------------------------------------------------- attributes

    def _balanced(self, start):
        """The tokens of a parenthesised group that starts after `start`,
        parentheses included; a located error when it is not one."""
        opening = self._raw()
        if opening is None or opening.type != "LPAREN":
            self._fail(f"expected '(' after '{start.value}'", start)
        tokens, depth = [opening], 1
        while depth:
            tok = self._raw()
            if tok is None:
                self._fail(f"unterminated '{start.value}'", start)
            tokens.append(tok)
            depth += {"LPAREN": 1, "RPAREN": -1}.get(tok.type, 0)
        return tokens

    def _attribute(self, start) -> None:
        tokens = self._balanced(start)
        inner = tokens[1:-1]
        if not inner or inner[0].type != "LPAREN" or inner[-1].type != "RPAREN":
            self._fail("expected '((' after '__attribute__'", start)
        for name, where in _attribute_names(inner[1:-1]):
            self._check_attribute(name, where)

    def _check_attribute(self, name: str, where) -> None:
        if name in _HARMLESS:
            return
        if name == _ALIGNED:
            # More alignment for an object changes no value the program
            # computes; on a type it changes sizeof and layouts.
            on_type = (self._struct_bodies or self._in_typedef or self._expect_struct_body
                       or (self._previous is not None and self._previous.type
                           in ("RBRACE", "STRUCT", "UNION")))
            if not on_type:
                return
            self._fail("the 'aligned' attribute on a type or struct member is not supported",
                       where)
        self._fail(f"the '{name}' attribute is not supported", where)

    def _alignof(self, start):
        """GNU `__alignof__(x)` takes a type or an expression; C11 `_Alignof`
        only a type: it becomes `_Alignof(typeof(x))`."""
        group = self._balanced(start)
        spelled = [replace(start, type="LPAREN", value="("), replace(start, type="TYPEOF", value="typeof"),
                   *group, replace(group[-1], type="RPAREN", value=")")]
        self._pending.extend(reversed(spelled))
        return replace(start, type="_ALIGNOF", value="_Alignof")

    def _is_asm(self, tok) -> bool:
        # Plain `asm` is a keyword in GNU C only; elsewhere it may name a variable.
        if tok.value != "asm":
            return True
        following = self._raw()
        self._pending.append(following)
        return following is not None and (following.type in ("LPAREN", "VOLATILE")
                                          or following.value in _KEYWORD_ALIASES)

    def _asm(self, start) -> None:
        # `__asm__ volatile (...)` or `asm (...)` where a statement starts is
        # inline assembly; after a declarator it is the symbol's label.
        following = self._raw()
        self._pending.append(following)
        if following is None or following.type != "LPAREN" or self._depth != 0 \
                or self._last_name is None or self._previous is None \
                or self._previous.type not in ("ID", "RPAREN", "RBRACKET"):
            self._fail("inline assembly is not supported", start)
        tokens = self._balanced(start)
        strings = [t for t in tokens[1:-1]]
        if not strings or any(t.type != "STRING_LITERAL" for t in strings):
            self._fail("an asm label must be a string literal", start)
        self.asm_labels[self._last_name] = "".join(t.value[1:-1] for t in strings)

    def _fail(self, message: str, tok) -> None:
        self.error_func(message, tok.lineno, tok.column)
        raise AssertionError("the parser's error function returns")   # pragma: no cover


def _attribute_names(tokens):
    """(name, token) for each attribute of a comma-separated list, their
    argument lists skipped."""
    depth, expecting = 0, True
    for tok in tokens:
        if tok.type == "LPAREN":
            depth += 1
        elif tok.type == "RPAREN":
            depth -= 1
        elif depth == 0 and tok.type == "COMMA":
            expecting = True
        elif depth == 0 and expecting:
            expecting = False
            yield attribute_name(tok.value), tok
