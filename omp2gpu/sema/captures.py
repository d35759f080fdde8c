"""Free variables of a region: the names a target or parallel region uses from
outside itself, in first-use order. Clause expressions of nested directives count."""

from __future__ import annotations

import dataclasses

from pycparser import c_ast

from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpMetadirective


def free_identifiers(node) -> list[str]:
    """Identifiers referenced in `node` and not declared inside it."""
    walker = _FreeIdentifiers()
    walker.walk(node)
    return list(walker.free)


class _FreeIdentifiers:
    def __init__(self):
        self.scopes: list[set[str]] = [set()]
        self.free: dict[str, None] = {}

    def declared(self, name: str) -> bool:
        return any(name in scope for scope in self.scopes)

    def walk(self, node) -> None:
        if node is None:
            return
        if isinstance(node, c_ast.ID):
            if not self.declared(node.name):
                self.free.setdefault(node.name)
            return
        if isinstance(node, c_ast.StructRef):
            self.walk(node.name)                 # the field name is not a variable
            return
        if isinstance(node, c_ast.NamedInitializer):
            for designator in node.name:
                if not isinstance(designator, c_ast.ID):
                    self.walk(getattr(designator, "expr", designator))
            self.walk(node.expr)
            return
        if isinstance(node, c_ast.Decl):
            self._walk_type(node.type)
            self.walk(node.init)
            if node.name:
                self.scopes[-1].add(node.name)
            return
        if isinstance(node, c_ast.Typedef):
            self.scopes[-1].add(node.name)
            return
        if isinstance(node, (c_ast.Typename,)):
            self._walk_type(node.type)
            return
        if isinstance(node, OmpConstruct):
            for expression in directive_expressions(node.directive):
                self.walk(expression)
            self.walk(node.body)
            return
        if isinstance(node, OmpMetadirective):     # whichever variant a device takes
            for directive in node.directive.metadirective_variants:
                for expression in directive_expressions(directive) if directive is not None else ():
                    self.walk(expression)
            for clause in node.directive.clauses:
                for expression in clause.selector.expressions() if hasattr(clause, "selector") else ():
                    self.walk(expression)
            self.walk(node.body)
            return
        if isinstance(node, (c_ast.Compound, c_ast.For)):
            self.scopes.append(set())
            for _, child in node.children():
                self.walk(child)
            self.scopes.pop()
            return
        for _, child in node.children():
            self.walk(child)

    def _walk_type(self, node) -> None:
        """Array dimensions inside declarators may use variables."""
        while node is not None and not isinstance(node, (c_ast.IdentifierType, c_ast.Struct,
                                                         c_ast.Union, c_ast.Enum)):
            if isinstance(node, c_ast.ArrayDecl):
                self.walk(node.dim)
            node = getattr(node, "type", None)


def type_names(node) -> set[str]:
    """The words of every type specifier in `node`: typedef names among them (a
    region using a block-scope `typedef double row[n]` needs that typedef's length)."""
    names: set[str] = set()
    pending = [node]
    while pending:                   # iterative: bodies may nest deeply
        current = pending.pop()
        if isinstance(current, c_ast.IdentifierType):
            names.update(current.names)
        elif current is not None:
            pending.extend(child for _, child in current.children())
    return names


def assigned_names(node, pointers: frozenset[str] = frozenset()) -> set[str]:
    """Variables the code may change: assigned, incremented, or whose address is taken.
    Through `p->m`, and `p[i]` with p one of `pointers`, the pointee changes, not p."""
    names: set[str] = set()

    def target(expression):
        while isinstance(expression, (c_ast.ArrayRef, c_ast.StructRef)):
            through_pointer = (expression.type == "->" if isinstance(expression, c_ast.StructRef)
                               else isinstance(expression.name, c_ast.ID) and expression.name.name in pointers)
            if through_pointer:
                return
            expression = expression.name
        if isinstance(expression, c_ast.ID):
            names.add(expression.name)

    def walk(n):
        if n is None:
            return
        if isinstance(n, c_ast.Assignment):
            target(n.lvalue)
        elif isinstance(n, c_ast.UnaryOp) and n.op in ("++", "--", "p++", "p--", "&"):
            target(n.expr)
        for _, child in n.children():
            walk(child)
    walk(node)
    return names


def directive_expressions(directive) -> list:
    """Every C expression node held by a directive's clauses (found generically)."""
    return clause_expressions(getattr(directive, "clauses", ()))


def clause_expressions(clauses) -> list:
    """Every C expression node held by these clauses."""
    found: list = []
    for clause in clauses:
        _collect_nodes(clause, found)
    return found


def _collect_nodes(value, found: list) -> None:
    if isinstance(value, c_ast.Node):
        found.append(value)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            if field.name != "coord":
                _collect_nodes(getattr(value, field.name), found)
    elif isinstance(value, (list, tuple)):
        for item in value:
            _collect_nodes(item, found)
