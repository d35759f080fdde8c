"""Attach each `#pragma omp` to the statement it governs.

pycparser leaves pragmas as `Pragma` items in block item lists (and, for the
body of an if/for/while/label, in a Compound it synthesises around the pragmas
and the statement). This pass replaces them with `OmpConstruct(directive,
statement)` -- or `OmpConstruct(directive, None)` for stand-alone directives --
and, at file scope, wraps `declare target` ... `end declare target` in one
`OmpDeclareTarget`. Other pragmas are dropped: nothing after this pass sees a
`Pragma` node.

The pass follows C scopes (a `_Scope`: what each visible name declares), for
typedef names in clause expressions and for the rules that involve
declarations:
- `threadprivate(list)` names file-scope variables (the directive at file
  scope) or static block-scope variables of the same block, declared before
  it; such a variable may then appear only in `copyin` and `copyprivate`
  clauses, and `copyin` items must be threadprivate;
- `declare simd` must precede a function declaration or definition, and its
  `uniform`, `linear` and `aligned` items must be that function's parameters.
  It has no effect here (functions are not vectorised), so the pass checks it
  and drops it.
"""

from __future__ import annotations

import linecache
import re

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.directives import parse_directive
from omp2gpu.frontend.omp_nodes import OmpConstruct, OmpDeclareTarget

try:
    from pycparser.c_parser import Coord
except ImportError:                                   # pycparser 2.x
    from pycparser.plyparser import Coord

# A directive whose last leaf is one of these governs a `for` loop.
_LOOP_LEAVES = frozenset({"for", "distribute", "simd", "taskloop"})
_FILE_SCOPE_ONLY = frozenset({"declare target", "end declare target", "declare simd"})
_DECLARATIONS = tuple(getattr(c_ast, name) for name in ("Decl", "Typedef", "DeclList", "StaticAssert")
                      if hasattr(c_ast, name))


def attach_pragmas(ast: c_ast.FileAST, check_construct=None) -> c_ast.FileAST:
    """Rewrite `ast` in place (and return it). `check_construct(construct, kind_of)`, if
    given, is called on each construct as it is built, with the scope's lookup of what a
    name declares (pipeline.parse_file passes sema's default(none) check: the front end
    imports no sema)."""
    linecache.checkcache()          # sources may have changed since an earlier compilation
    ast.ext, _ = _file_items(ast.ext or [], 0, _Scope(check_construct=check_construct), None)
    _drop_stray_pragmas(ast)
    return ast


# ------------------------------------------------------------------ file scope

def _file_items(items, i, scope, opener):
    """File-scope items from index i to the `end declare target` that closes
    `opener` (a (directive, coord) pair), or to the end when opener is None.
    Returns the processed items and the index after the closing pragma."""
    out = []
    while i < len(items):
        item = items[i]
        i += 1
        if not isinstance(item, c_ast.Pragma):
            _declare(item.decl if isinstance(item, c_ast.FuncDef) else item, scope)
            if isinstance(item, c_ast.FuncDef):
                _function(item, scope)
            out.append(item)
            continue
        parsed = _directive(item, scope)
        if parsed is None:
            continue
        directive, coord = parsed
        if directive.kind == "threadprivate":
            _check_threadprivate(directive, scope)
            out.append(OmpConstruct(directive, None, coord))
        elif directive.kind == "declare simd":
            _check_declare_simd(directive, coord, items, i)
        elif directive.is_declare_target_begin:
            decls, i = _file_items(items, i, scope, parsed)
            out.append(OmpDeclareTarget(directive, decls, coord))
        elif directive.kind == "end declare target":
            if opener is None:
                raise CompileError("'#pragma omp end declare target' without a matching "
                                   "'#pragma omp declare target'", coord)
            return out, i
        elif directive.kind == "declare target":          # declare target (list) / to(list)
            out.append(OmpConstruct(directive, None, coord))
        else:
            raise CompileError(f"{_named(directive)} is not allowed at file scope", coord)
    if opener is not None:
        raise CompileError("'#pragma omp declare target' without a matching "
                           "'#pragma omp end declare target'", opener[1])
    return out, i


def _function(funcdef: c_ast.FuncDef, file_scope) -> None:
    scope = file_scope.child()
    params = getattr(funcdef.decl.type, "args", None)
    for param in (params.params if params is not None else []):
        _declare(param, scope)
    funcdef.body = _statement(funcdef.body, scope)


# ----------------------------------------------------------------- statements

def _statement(node, scope):
    """Process the pragmas inside statement `node`; returns what replaces it."""
    if isinstance(node, c_ast.Compound):
        if _synthesised(node):
            return _pragma_substatement(node, scope)
        node.block_items = _block(node.block_items or [], scope.child()) or None
    elif isinstance(node, c_ast.If):
        node.iftrue = _substatement(node.iftrue, scope)
        node.iffalse = _substatement(node.iffalse, scope)
    elif isinstance(node, c_ast.For):
        inner = scope.child()
        if isinstance(node.init, c_ast.DeclList):
            for decl in node.init.decls:
                _declare(decl, inner)
        node.stmt = _substatement(node.stmt, inner)
    elif isinstance(node, (c_ast.While, c_ast.DoWhile, c_ast.Switch, c_ast.Label)):
        node.stmt = _substatement(node.stmt, scope)
    elif isinstance(node, (c_ast.Case, c_ast.Default)):
        # A case's statements belong to the enclosing switch block.
        node.stmts = _block(node.stmts or [], scope)
    return node


def _substatement(node, scope):
    # The body of a selection or iteration statement is a block of its own (C99 6.8.4, 6.8.5).
    return None if node is None else _statement(node, scope.child())


def _synthesised(compound: c_ast.Compound) -> bool:
    """pycparser wraps `pragma... statement` used as a body in a Compound placed
    at the first pragma; a written `{` can never share that line."""
    items = compound.block_items or []
    if not items or not isinstance(items[0], c_ast.Pragma):
        return False
    ours, first = compound.coord, items[0].coord
    return ours is first or (ours is not None and first is not None and
                             (ours.file, ours.line) == (first.file, first.line))


def _pragma_substatement(compound, scope):
    items = _block(compound.block_items, scope)
    for item in items:
        if isinstance(item, OmpConstruct) and item.body is None:
            raise CompileError(f"{_named(item.directive)} may only be used in compound "
                               "statements", item.coord)
    if len(items) == 1:
        return items[0]
    compound.block_items = items
    return compound


def _block(items, scope):
    out, i = [], 0
    while i < len(items):
        node, i = _block_item(items, i, scope)
        if node is not None:
            out.append(node)
    return out


def _block_item(items, i, scope):
    """Process items[i] (with the statement it governs, for a pragma); returns
    the resulting node (None for a dropped pragma) and the next index."""
    item = items[i]
    if not isinstance(item, c_ast.Pragma):
        _declare(item, scope)
        return _statement(item, scope), i + 1
    parsed = _directive(item, scope)
    if parsed is None:
        return None, i + 1
    directive, coord = parsed
    if directive.kind in _FILE_SCOPE_ONLY:
        raise CompileError(f"{_named(directive)} is only allowed at file scope", coord)
    if directive.kind == "threadprivate":
        _check_threadprivate(directive, scope)
    else:
        _check_threadprivate_uses(directive, scope)
    if directive.is_standalone:
        return OmpConstruct(directive, None, coord), i + 1

    loop = directive.kind.split()[-1] in _LOOP_LEAVES
    wanted = "a for loop" if loop else "a statement"
    j = i + 1
    while j < len(items) and isinstance(items[j], c_ast.Pragma) and not _is_omp(_text(items[j])):
        j += 1                                  # e.g. `#pragma GCC ivdep` between directive and loop
    if j == len(items):
        raise CompileError(f"{_named(directive)} must be followed by {wanted}", coord)
    body, after = _block_item(items, j, scope)
    if isinstance(body, _DECLARATIONS):
        raise CompileError(f"{_named(directive)} must be followed by {wanted}, "
                           "not a declaration", coord)
    if (isinstance(body, OmpConstruct) and body.body is None) or (loop and not isinstance(body, c_ast.For)):
        raise CompileError(f"{_named(directive)} must be followed by {wanted}", coord)
    construct = OmpConstruct(directive, body, coord)
    if scope.check_construct is not None:
        scope.check_construct(construct, scope.get)
    return construct, after


# -------------------------------------------------------------------- scopes

class _Scope:
    """One C scope: name -> what it declares there: "typedef", "function", "constant" (an
    enumerator), "auto" (an object with automatic storage, parameters included), "static"
    (a file-scope or static block-scope object), "extern" (a block-scope extern object)
    or "threadprivate"."""

    def __init__(self, parent: "_Scope | None" = None, check_construct=None):
        self.parent = parent
        self.own: dict[str, str] = {}
        self.file_scope = parent.file_scope if parent is not None else self
        self.check_construct = parent.check_construct if parent is not None else check_construct

    def child(self) -> "_Scope":
        return _Scope(self)

    def get(self, name: str) -> str | None:
        scope = self
        while scope is not None:
            kind = scope.own.get(name)
            if kind is not None:
                return kind
            scope = scope.parent
        return None

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


def _declare(node, scope: _Scope) -> None:
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
    found = []
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, c_ast.Enumerator):
            found.append(current.name)
        elif current is not None and not isinstance(current, (c_ast.FuncDecl, c_ast.ParamList)):
            stack.extend(child for _, child in current.children())
    return found


# -------------------------------------------------------- threadprivate, declare simd

# Clauses a threadprivate variable may appear in (OpenMP 4.5 2.15.2).
_THREADPRIVATE_CLAUSES = frozenset({"copyin", "copyprivate"})
_DECLARE_SIMD = re.compile(r"omp\s+declare\s+simd\b")


def _check_threadprivate(directive, scope: _Scope) -> None:
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


def _check_threadprivate_uses(directive, scope: _Scope) -> None:
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


def _check_declare_simd(directive, coord, items, i) -> None:
    """`declare simd` must be followed (after any further `declare simd`) by a function
    declaration or definition; uniform, linear and aligned name its parameters."""
    while i < len(items) and isinstance(items[i], c_ast.Pragma) and (
            not _is_omp(_text(items[i])) or _DECLARE_SIMD.match(_text(items[i]))):
        i += 1
    item = items[i] if i < len(items) else None
    decl = item.decl if isinstance(item, c_ast.FuncDef) else item
    if not isinstance(decl, c_ast.Decl) or not isinstance(decl.type, c_ast.FuncDecl):
        raise CompileError(f"{_named(directive)} must be followed by a function declaration "
                           "or definition", coord)
    params = decl.type.args.params if decl.type.args is not None else []
    names = {getattr(param, "name", None) for param in params} - {None}
    for clause in directive.clauses:
        for listed in getattr(clause, "items", ()):
            if listed.name not in names:
                raise CompileError(f"'{listed.name}' in '{clause.name}' clause is not a "
                                   f"parameter of '{decl.name}'", listed.coord)


# -------------------------------------------------------------------- helpers


def _named(directive) -> str:
    return f"'#pragma omp {directive.kind}'"


def _text(pragma: c_ast.Pragma) -> str:
    text = pragma.string
    if isinstance(text, c_ast.Constant):          # pycparser's own _Pragma("...") node
        text = text.value[text.value.index('"') + 1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return (text or "").strip()


def _is_omp(text: str) -> bool:
    return text == "omp" or text.startswith(("omp ", "omp\t"))


def _directive(pragma: c_ast.Pragma, scope):
    """(Directive, coord) for an omp pragma, None for any other pragma."""
    text = _text(pragma)
    if not _is_omp(text):
        return None
    coord = _omp_coord(pragma.coord)
    return parse_directive(text, coord, scope.typedef_names), coord


_OMP_IN_SOURCE = re.compile(r'(?:#\s*pragma\s+|_Pragma\s*\(\s*L?"\s*)(omp)\b')


def _omp_coord(coord):
    """Where the word `omp` is in the original line: the preprocessor may have
    moved the pragma (gcc writes it from column 1), and directive offsets count
    from this point."""
    if coord is None or not coord.file or not coord.line:
        return coord
    match = _OMP_IN_SOURCE.search(linecache.getline(coord.file, coord.line))
    column = match.start(1) + 1 if match else coord.column
    return Coord(coord.file, coord.line, column)


def _drop_stray_pragmas(node) -> None:
    """Remove the pragmas left where no statement can follow (struct members,
    enumerators, K&R parameter declarations); an omp one there is an error."""
    for name in getattr(node, "__slots__", ()):
        value = getattr(node, name, None)
        if isinstance(value, list):
            for item in value:
                if isinstance(item, c_ast.Pragma) and _is_omp(_text(item)):
                    raise CompileError(f"'#pragma {_text(item)}' is not allowed here",
                                       _omp_coord(item.coord))
            value[:] = [item for item in value if not isinstance(item, c_ast.Pragma)]
    for _, child in node.children():
        _drop_stray_pragmas(child)
