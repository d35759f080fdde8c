"""Whether an arm of an `if` or `switch` may run when it is not taken (speculation/__init__.py's
rules): what it assigns, declares and loads, and whether anything in it that LLVM may take
as poison reaches a branch or an index."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema.expression_types import type_of_expression
from omp2gpu.sema.speculation.tree import nodes

_PURE_UNARY = frozenset({"-", "+", "!", "~"})
_PURE_BINARY = frozenset({"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^",
                          "<", ">", "<=", ">=", "==", "!=", "&&", "||"})
_DIVIDING = frozenset({"/", "%", "/=", "%="})


class ArmChecker:
    """Whether an arm's statements may run when the arm is not taken (the docstring's
    rules), and what they assign and load."""

    def __init__(self, region, scope):          # region.Region
        self.region, self.scope = region, scope
        self.declared: set[str] = set()
        self.assigned_outer: list[str] = []
        self.loads = 0
        # Names whose value in an arm not taken may be poison to LLVM (a signed overflow, a
        # shift too far, a float out of an integer's range): fine in a copy the select drops,
        # undefined as a branch's condition or a load's index. Those take none.
        self.tainted: set[str] = set()

    def statement(self, node) -> bool:
        if isinstance(node, c_ast.Compound):
            return all(self.statement(item) for item in node.block_items or [])
        if isinstance(node, c_ast.EmptyStatement):
            return True
        if isinstance(node, c_ast.Decl):
            return self._declaration(node)
        if isinstance(node, c_ast.DeclList):
            return all(self._declaration(decl) for decl in node.decls)
        if isinstance(node, c_ast.Assignment):
            return self._assignment(node)
        if isinstance(node, c_ast.If):
            return (self.expression(node.cond) and self._never_poison(node.cond) and self.statement(node.iftrue)
                    and (node.iffalse is None or self.statement(node.iffalse)))
        return False

    def _never_poison(self, node) -> bool:
        """Whether `node` (a branch's condition, a load's index) holds no value an arm not
        taken could make poison: no risky operation, no tainted name."""
        for inner in nodes(node):
            if isinstance(inner, c_ast.ID) and inner.name in self.tainted:
                return False
            if self._risky(inner):
                return False
        return True

    def _risky(self, node) -> bool:
        """A signed + - * or negation, a shift, or a conversion of a floating value to an
        integer: each may make poison (nsw flags, LLVM's shift and fptosi rules); under
        -ffast-math also floating arithmetic and comparisons (`fast`: infinities and NaN)."""
        scope = self.region.scope_of.get(id(node))
        if isinstance(node, c_ast.BinaryOp) and node.op in ("<<", ">>"):
            return True
        if isinstance(node, c_ast.Cast):
            to, source = self._typed(node, scope), self._typed(node.expr, scope)
            return to is None or source is None or to.is_integer and not source.is_integer
        arithmetic = (isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*")
                      or isinstance(node, c_ast.UnaryOp) and node.op == "-")
        compared = isinstance(node, c_ast.BinaryOp) and node.op in ("/", "<", ">", "<=", ">=", "==", "!=")
        if not (arithmetic or compared):
            return False
        ctype = self._typed(node.left if compared else node, scope) if scope is not None else None
        if ctype is None:
            return True
        if ctype.is_floating:
            return self.region.fast_math
        return arithmetic and ctype.is_integer and ctype.signed

    def _taints(self, name: str, value) -> None:
        if value is not None and not self._never_poison(value):
            self.tainted.add(name)

    def _declaration(self, decl: c_ast.Decl) -> bool:
        scope = self.region.scope_of.get(id(decl))
        symbol = scope.names.get(decl.name) if scope is not None and decl.name else None
        if symbol is None or symbol.kind != "object" or symbol.ctype is None or not symbol.ctype.is_scalar:
            return False
        if symbol.volatile or (decl.storage and set(decl.storage) - {"register", "auto"}) or decl.bitsize:
            return False
        self.declared.add(decl.name)
        self._taints(decl.name, decl.init)
        return decl.init is None or self.expression(decl.init)

    def _assignment(self, node: c_ast.Assignment) -> bool:
        target = node.lvalue
        if not isinstance(target, c_ast.ID):
            return False
        scope = self.region.scope_of.get(id(node))
        symbol = scope.lookup(target.name) if scope is not None else None
        if (symbol is None or symbol.kind != "object" or symbol.ctype is None or not symbol.ctype.is_scalar
                or symbol.volatile or id(symbol) not in self.region.local_symbols):
            return False
        if node.op in _DIVIDING and not symbol.ctype.is_floating:
            return False
        if target.name not in self.declared and target.name not in self.assigned_outer:
            self.assigned_outer.append(target.name)
        self._taints(target.name, node.rvalue)
        if node.op != "=" and node.op[:-1] in ("+", "-", "*", "<<", ">>") and not symbol.ctype.is_floating:
            self.tainted.add(target.name)
        return self.expression(node.rvalue)

    def expression(self, node) -> bool:
        scope = self.region.scope_of.get(id(node))
        if scope is None:
            return False
        if isinstance(node, c_ast.Constant):
            return node.type != "string"
        if isinstance(node, c_ast.ID):
            symbol = scope.lookup(node.name)
            if symbol is None or symbol.kind == "enum-constant":
                return symbol is not None
            return (symbol.kind == "object" and symbol.ctype is not None and symbol.ctype.is_scalar
                    and not symbol.volatile)
        if isinstance(node, c_ast.ArrayRef):
            if self.region._section_of(node) is None or not self.expression(node.subscript):
                return False
            if not self._never_poison(node.subscript):
                return False
            if not self._integer(node.subscript, scope):
                return False
            self.loads += 1
            return True
        if isinstance(node, c_ast.UnaryOp):
            if node.op == "sizeof":
                return True
            return node.op in _PURE_UNARY and self.expression(node.expr)
        if isinstance(node, c_ast.BinaryOp):
            if node.op not in _PURE_BINARY:
                return False
            if node.op in _DIVIDING and not self._floating(node, scope):
                return False
            return self.expression(node.left) and self.expression(node.right)
        if isinstance(node, c_ast.TernaryOp):
            return (all(self.expression(part) for part in (node.cond, node.iftrue, node.iffalse))
                    and self._never_poison(node.cond))
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):       # they branch
            return (self.expression(node.left) and self.expression(node.right)
                    and self._never_poison(node.left) and self._never_poison(node.right))
        if isinstance(node, c_ast.Cast):
            try:
                to = self.region.resolver.resolve(node.to_type, scope)
            except CompileError:
                return False
            return to is not None and to.is_scalar and self.expression(node.expr)
        return False

    def _typed(self, node, scope):
        try:
            return type_of_expression(node, scope, self.region.resolver)
        except (CompileError, AttributeError, TypeError):
            return None

    def _floating(self, node, scope) -> bool:
        ctype = self._typed(node, scope)
        return ctype is not None and ctype.is_floating

    def _integer(self, node, scope) -> bool:
        ctype = self._typed(node, scope)
        return ctype is not None and ctype.is_integer


# -------------------------------------------------------------------- tree helpers
