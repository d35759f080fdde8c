"""Where an operator expression's operator is, for the errors gcc reports there.

pycparser gives `a = b`, `a[i]`, `x++` and `*p` the location of their first operand;
gcc reports an error about such an expression (not an lvalue, not subscriptable, a
read-only object) at the operator (`=`, `[`, `++`, `*`), and where the operands
span lines, the operator's line is the one it names. This mixin re-reads those rules
of pycparser 3.x's recursive-descent grammar keeping the operator token's place:
a prefix operator's node is located at it (the operand follows it); an assignment,
a subscript and a postfix `++`/`--` keep the start of the expression, which checks
of whole statements point at, in an OperatorCoord that also holds the operator's.
"""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast, c_parser
from pycparser.c_parser import Coord

_PREFIX_OPERATORS = frozenset({"PLUSPLUS", "MINUSMINUS", "AND", "TIMES", "PLUS", "MINUS", "NOT", "LNOT",
                               "REALPART", "IMAGPART"})      # GNU __real__ and __imag__
_PART_OPERATORS = frozenset({"REALPART", "IMAGPART"})
_INCREMENTS = frozenset({"PLUSPLUS", "MINUSMINUS"})


@dataclass(slots=True)
class OperatorCoord(Coord):
    """The start of an operator expression, and its operator token's place."""
    operator: Coord | None = None


def operator_coord(node):
    """Where gcc reports an error about the operator of `node` (its coord if unknown)."""
    return getattr(node.coord, "operator", None) or node.coord


class OperatorLocations(c_parser.CParser):
    """Prefix and postfix operators, subscripts and assignments with their operator's place."""

    def _parse_assignment_expression(self):
        target = self._parse_conditional_expression()
        if not self._is_assignment_op():
            return target
        operator = self._advance()
        value = self._parse_assignment_expression()
        return c_ast.Assignment(operator.value, target, value, self._located(target, operator))

    def _starts_expression(self, tok=None):
        tok = tok or self._peek()
        return super()._starts_expression(tok) or (tok is not None and tok.type in _PART_OPERATORS)

    def _parse_unary_expression(self):
        if self._peek_type() not in _PREFIX_OPERATORS:
            return super()._parse_unary_expression()
        operator = self._advance()
        if operator.type in _INCREMENTS:
            operand = self._parse_unary_expression()
        else:
            operand = self._parse_cast_expression()
        return c_ast.UnaryOp(operator.value, operand, self._tok_coord(operator))

    def _parse_postfix_expression(self):
        # The head (a primary expression or a compound literal) is pycparser's; the
        # suffixes that are not calls or member accesses are read here, at their token.
        expression = self._postfix_head()
        while True:
            kind = self._peek_type()
            if kind == "LBRACKET":
                bracket = self._advance()
                subscript = self._parse_expression()
                self._expect("RBRACKET")
                expression = c_ast.ArrayRef(expression, subscript, self._located(expression, bracket))
            elif kind in _INCREMENTS:
                operator = self._advance()
                expression = c_ast.UnaryOp("p" + operator.value, expression,
                                           self._located(expression, operator))
            elif kind in ("LPAREN", "PERIOD", "ARROW"):
                expression = self._call_or_member(expression)
            else:
                return expression

    def _located(self, first_operand, operator) -> Coord:
        start = first_operand.coord
        if start is None:
            return self._tok_coord(operator)
        return OperatorCoord(start.file, start.line, start.column, self._tok_coord(operator))

    def _postfix_head(self):
        """A primary expression or `(type){...}`: pycparser's postfix rule stopped
        before its first suffix."""
        typed = self._try_parse_paren_type_name()
        if typed is not None:
            type_name, mark, parenthesis, storage = typed
            if self._peek_type() == "LBRACE":
                return c_ast.CompoundLiteral(type_name, self._parse_initializer(), storage,
                                             self._tok_coord(parenthesis))
            self._reset(mark)
        return self._parse_primary_expression()

    def _call_or_member(self, callee_or_owner):
        """`f(...)`, `s.m`, `p->m`: at the start of the whole expression, as pycparser puts them."""
        if self._accept("LPAREN"):
            arguments = None
            if not self._accept("RPAREN"):
                arguments = self._parse_argument_expression_list()
                self._expect("RPAREN")
            return c_ast.FuncCall(callee_or_owner, arguments, callee_or_owner.coord)
        operator = self._advance()
        name = self._advance()
        if name.type not in ("ID", "TYPEID"):
            self._parse_error("Invalid struct reference", self._tok_coord(name))
        member = c_ast.ID(name.value, self._tok_coord(name))
        return c_ast.StructRef(callee_or_owner, operator.value, member, callee_or_owner.coord)
