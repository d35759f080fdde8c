"""The C type of every name, read from the parsed tree without generating code: a walk
that declares each declaration's type in a scope as codegen would, so that a pass
before codegen (codegen/openmp/plan/region_facts.py) can ask what type an identifier has
where it is used.

It reports nothing: a declaration it cannot type (codegen reports the error, in its
order) is declared with type None, and readers treat it as unknown.
"""

from __future__ import annotations

import copy

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema.declarators import TypeResolver, declared_volatile
from omp2gpu.sema.scopes import Scope, Symbol


class TypedScopes:
    """One translation unit's declarations: `file_scope`, and `walk` for code in it."""

    def __init__(self, file_ast: c_ast.FileAST):
        # Struct types make their LLVM types in a context of their own: no module exists.
        self.resolver = TypeResolver(ir.Context())
        self.file_scope = Scope()
        self.definitions: dict[str, c_ast.FuncDef] = {}
        for node in file_ast.ext:
            self._declare_external(node)

    def _declare_external(self, node) -> None:
        if isinstance(node, c_ast.FuncDef):
            self.declare(node.decl, self.file_scope, storage="global")
            self.definitions.setdefault(node.decl.name, node)      # as codegen defines it
        elif isinstance(node, (c_ast.Decl, c_ast.Typedef)):
            self.declare(node, self.file_scope, storage="global")
        elif isinstance(node, c_ast.DeclList) or hasattr(node, "decls") and isinstance(node.decls, list):
            for decl in node.decls:
                self._declare_external(decl)

    def type_of(self, node, scope: Scope):
        """The type a type name or declarator means in `scope`, None if it has none."""
        if _identifier_list(node):
            # K&R `f(a, b) int a; ...`: codegen reads the parameters (sema/kr_definitions.py);
            # a caller sees `int f()`, as C99 6.7.5.3p14 has it
            node = _without_identifier_list(node)
        try:
            return self.resolver.resolve(node, scope)
        except (CompileError, RecursionError):
            return None

    def declare(self, decl, scope: Scope, storage: str = "auto") -> None:
        ctype = self.type_of(decl.type, scope)
        if not decl.name:
            return                                 # `struct s {...};`: its tag is declared
        if isinstance(decl, c_ast.Typedef):
            kind = "typedef"
        elif isinstance(decl.type, c_ast.FuncDecl):
            kind = "function"
        else:
            kind = "object"
        if decl.storage and "static" in decl.storage:
            storage = "static" if storage == "auto" else storage
        elif decl.storage and "extern" in decl.storage:
            storage = "extern" if storage == "auto" else storage
        scope.names[decl.name] = Symbol(decl.name, ctype, kind, storage=storage, coord=decl.coord,
                                        volatile=kind == "object" and declared_volatile(decl))

    def function_scope(self, definition: c_ast.FuncDef) -> Scope:
        """The scope of a function's body: its parameters."""
        scope = self.file_scope.child()
        args = getattr(definition.decl.type, "args", None)
        for param in getattr(args, "params", None) or ():
            if isinstance(param, c_ast.Decl):
                self.declare(param, scope)
        return scope

    def walk(self, root, scope: Scope):
        """Every node under `root` (root first, in source order) with the scope in effect
        there; a declaration is declared when it is met, so later siblings see it."""
        stack = [(root, scope)]
        while stack:
            node, scope = stack.pop()
            if node is None:
                continue
            if isinstance(node, (c_ast.Decl, c_ast.Typedef)):
                self.declare(node, scope)
            yield node, scope
            inner = scope.child() if isinstance(node, (c_ast.Compound, c_ast.For)) else scope
            if isinstance(node, c_ast.FuncDef):
                inner = self.function_scope(node)
                children = [node.body]
            elif isinstance(node, c_ast.Decl):
                children = [node.init, node.bitsize]        # its type was read above
            elif isinstance(node, (c_ast.Typedef, c_ast.Typename)):
                children = []
            else:
                children = [child for _, child in node.children()]
            stack.extend((child, inner) for child in reversed(children))


def visible_names(scope: Scope) -> Scope:
    """A copy of what `scope` sees now (declarations made later in its blocks stay out)."""
    names: dict[str, Symbol] = {}
    tags: dict = {}
    chain = []
    while scope is not None:
        chain.append(scope)
        scope = scope.parent
    for level in reversed(chain):
        names.update(level.names)
        tags.update(level.tags)
    return Scope(names=names, tags=tags)


_DECLARATORS = (c_ast.PtrDecl, c_ast.TypeDecl, c_ast.ArrayDecl, c_ast.FuncDecl)


def _without_identifier_list(node):
    """A copy of declarator `node` whose function declarator has no parameter list."""
    node = copy.copy(node)
    if _is_identifier_list(node):
        node.args = None
    elif isinstance(node, _DECLARATORS):
        node.type = _without_identifier_list(node.type)
    return node


def _identifier_list(node) -> bool:
    while isinstance(node, _DECLARATORS):
        if _is_identifier_list(node):
            return True
        node = node.type
    return False


def _is_identifier_list(node) -> bool:
    """A K&R function declarator: `f(a, b)`, its parameters named, not declared."""
    return isinstance(node, c_ast.FuncDecl) and node.args is not None and any(
        isinstance(param, c_ast.ID) for param in node.args.params)
