"""The C scopes the pragma pass follows (`PragmaScope`: what each visible name
declares), and the directive rules that involve declarations: `threadprivate`
lists and the clauses their variables may appear in, and `declare simd`, which
must precede a function whose parameters its clauses name."""

from __future__ import annotations

import re

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.pragma_text import is_omp, named, pragma_text
from omp2gpu.frontend.tree_walks import nodes_of


class PragmaScope:
    """One C scope: name -> what it declares there: "typedef", "function", "constant" (an
    enumerator), "auto" (an object with automatic storage, parameters included), "static"
    (a file-scope or static block-scope object), "extern" (a block-scope extern object)
    or "threadprivate"."""

    def __init__(self, parent: "PragmaScope | None" = None, check_construct=None):
        self.parent = parent
        self.own: dict[str, str] = {}
        self.file_scope = parent.file_scope if parent is not None else self
        self.check_construct = parent.check_construct if parent is not None else check_construct
        self.open_assumes: list = []        # file scope: `begin assumes` not yet ended
        # `declare variant`s met so far (variant_sites.DeclaredVariant), the file's one list.
        self.declared_variants = parent.declared_variants if parent is not None else []
        self.metadirectives = parent.metadirectives if parent is not None else []
        # Every word of the file's omp pragmas (directive and clause names among them),
        # the file's one set: later steps skip a walk for what no pragma names.
        self.directive_words: set[str] = parent.directive_words if parent is not None else set()
        self.directives_met = 0             # file scope: the omp pragmas read so far

    def child(self) -> "PragmaScope":
        return PragmaScope(self)

    def get(self, name: str) -> str | None:
        scope = self
        while scope is not None:
            kind = scope.own.get(name)
            if kind is not None:
                return kind
            scope = scope.parent
        return None

    def data_sharing_kind(self, name: str) -> str | None:
        """What `get` says, but "local static" for a static object declared in a block: a
        file-scope variable's data-sharing must be listed under default(firstprivate) or
        default(private), a block-scope static one's need not (OpenMP 5.1 2.21.4.1)."""
        kind = self.get(name)
        if kind != "static":
            return kind
        scope = self
        while name not in scope.own:            # the scope that declares it
            scope = scope.parent
        return kind if scope is self.file_scope else "local static"

    def declare(self, name: str, kind: str) -> None:
        self.own[name] = kind

    @property
    def typedef_names(self) -> frozenset[str]:
        chain, scope = [], self
        while scope is not None:
            chain.append(scope.own)
            scope = scope.parent
        visible = {}
        for names in reversed(chain):
            visible.update(names)
        return frozenset(name for name, kind in visible.items() if kind == "typedef")


def declare(node, scope: PragmaScope) -> None:
    """Record what a declaration declares (a later declaration of a name hides the earlier)."""
    if isinstance(node, c_ast.Typedef):
        scope.declare(node.name, "typedef")
    if not isinstance(node, (c_ast.Decl, c_ast.Typedef)):
        return
    for enumerator in _enumerators(node.type):
        scope.declare(enumerator, "constant")
    if not isinstance(node, c_ast.Decl) or not node.name:
        return
    storage = node.storage or []
    if isinstance(node.type, c_ast.FuncDecl):
        kind = "function"
    elif scope.file_scope is scope:
        kind = "threadprivate" if scope.get(node.name) == "threadprivate" else "static"
    elif "extern" in storage:           # the file-scope variable
        kind = "threadprivate" if scope.file_scope.get(node.name) == "threadprivate" else "extern"
    else:
        kind = "static" if "static" in storage else "auto"
    scope.declare(node.name, kind)


def _enumerators(node) -> list[str]:
    """Enumeration constants a declaration's type declares."""
    # not the enumerators of a parameter's or a function's type (those are the prototype's)
    inside = lambda n: isinstance(n, (c_ast.Enumerator, c_ast.FuncDecl, c_ast.ParamList))  # noqa: E731
    return [enumerator.name for enumerator in nodes_of(node, c_ast.Enumerator, prune=inside)]


# -------------------------------------------------------- threadprivate, declare simd

# Clauses a threadprivate variable may appear in (OpenMP 4.5 2.15.2).
_THREADPRIVATE_CLAUSES = frozenset({"copyin", "copyprivate"})
_DECLARE_SIMD = re.compile(r"omp\s+declare\s+simd\b")


def check_threadprivate(directive, scope: PragmaScope) -> None:
    """OpenMP 4.5 2.15.2: file-scope variables at file scope, static block-scope variables
    in their own block, each declared before the directive."""
    at_file_scope = scope.file_scope is scope
    for item in directive.threadprivate_list:
        kind = scope.get(item.name)
        if kind is None:
            raise CompileError(f"use of undeclared identifier '{item.name}'", item.coord)
        if kind not in ("auto", "static", "extern", "threadprivate"):
            raise CompileError(f"'{item.name}' in '#pragma omp threadprivate' is not a variable",
                               item.coord)
        if not at_file_scope and (kind not in ("static", "threadprivate")
                                  or item.name not in scope.own):
            raise CompileError(f"'{item.name}' in '#pragma omp threadprivate' must be a static "
                               "variable declared in the same block (or a file-scope variable, "
                               "with the directive at file scope)", item.coord)
        scope.declare(item.name, "threadprivate")


def check_threadprivate_uses(directive, scope: PragmaScope) -> None:
    for clause in directive.clauses:
        for item in getattr(clause, "items", ()):
            kind = scope.get(item.name)
            if clause.name == "copyin" and kind != "threadprivate":
                if kind is None:
                    raise CompileError(f"use of undeclared identifier '{item.name}'", item.coord)
                raise CompileError(f"'{item.name}' in 'copyin' clause is not threadprivate",
                                   item.coord)
            if kind == "threadprivate" and clause.name not in _THREADPRIVATE_CLAUSES:
                raise CompileError(f"threadprivate variable '{item.name}' cannot appear in "
                                   f"'{clause.name}' clause", item.coord)


def check_declare_simd(directive, coord, items, i) -> None:
    """`declare simd` must be followed (after any further `declare simd`) by a function
    declaration or definition; uniform, linear and aligned name its parameters."""
    while i < len(items) and isinstance(items[i], c_ast.Pragma) and (
            not is_omp(pragma_text(items[i])) or _DECLARE_SIMD.match(pragma_text(items[i]))):
        i += 1
    item = items[i] if i < len(items) else None
    decl = item.decl if isinstance(item, c_ast.FuncDef) else item
    if not isinstance(decl, c_ast.Decl) or not isinstance(decl.type, c_ast.FuncDecl):
        raise CompileError(f"{named(directive)} must be followed by a function declaration "
                           "or definition", coord)
    params = decl.type.args.params if decl.type.args is not None else []
    names = {getattr(param, "name", None) for param in params} - {None}
    for clause in directive.clauses:
        for listed in getattr(clause, "items", ()):
            if listed.name not in names:
                raise CompileError(f"'{listed.name}' in '{clause.name}' clause is not a "
                                   f"parameter of '{decl.name}'", listed.coord)
