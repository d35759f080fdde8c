"""Attach each `#pragma omp` to the statement it governs.

pycparser leaves pragmas as `Pragma` items in block item lists (and, for the
body of an if/for/while/label, in a Compound it synthesises around the pragmas
and the statement). This pass replaces them with `OmpConstruct(directive,
statement)` -- or `OmpConstruct(directive, None)` for stand-alone directives --
and, at file scope, wraps `declare target` ... `end declare target` in one
`OmpDeclareTarget`. Other pragmas are dropped: nothing after this pass sees a
`Pragma` node.

The pass follows C scopes (a `PragmaScope`: what each visible name declares), for
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

from omp2gpu.diagnostics import CompileError, EndOfScopeError
from omp2gpu.frontend.openmp.allocate_clauses import check_allocate_directive
from omp2gpu.frontend.openmp.directive_free import mark_directive_free
from omp2gpu.frontend.openmp.directive_table import LOOP_TRANSFORMATIONS
from omp2gpu.frontend.openmp.directives import parse_directive
from omp2gpu.frontend.openmp.masked_combined import nest_masked_combination
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct, OmpDeclareTarget, OmpMetadirective
from omp2gpu.frontend.openmp.pragma_scope import (
    PragmaScope,
    check_declare_simd,
    check_threadprivate,
    check_threadprivate_uses,
    declare,
)
from omp2gpu.frontend.openmp.pragma_text import is_omp, named, omp_coord, pragma_text
from omp2gpu.frontend.openmp.utility_directives import ASSUMES, assume_block, compile_time, runs_at_execution
from omp2gpu.frontend.openmp.variant_declarations import (
    begin_declare_variant,
    check_dispatch,
    declare_variant,
    finish_variants,
)
from omp2gpu.frontend.tree_walks import nodes

try:
    from pycparser.c_parser import Coord
except ImportError:                                   # pycparser 2.x
    from pycparser.plyparser import Coord

# A directive whose last leaf is one of these governs a `for` loop.
_LOOP_LEAVES = frozenset({"for", "distribute", "simd", "taskloop", "loop", "tile", "unroll"})
_FILE_SCOPE_ONLY = frozenset({"declare target", "end declare target", "declare simd",
                              "requires",
                              "begin declare target", "declare variant", "begin declare variant",
                              "end declare variant"})
_WORD = re.compile(r"[A-Za-z_]\w*")
_COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_DECLARATIONS = tuple(getattr(c_ast, name) for name in ("Decl", "Typedef", "DeclList", "StaticAssert")
                      if hasattr(c_ast, name))


def attach_pragmas(ast: c_ast.FileAST, check_construct=None, directive_words: set | None = None) -> c_ast.FileAST:
    """Rewrite `ast` in place (and return it). `check_construct(construct, kind_of)`, if
    given, is called on each construct as it is built, with the scope's lookup of what a
    name declares (pipeline.parse_file passes sema's default(none) check: the front end
    imports no sema). `directive_words`: a set to which every word of the file's omp
    pragmas is added (their directive and clause names among them)."""
    linecache.checkcache()          # sources may have changed since an earlier compilation
    scope = PragmaScope(check_construct=check_construct)
    ast.ext, _ = _file_items(ast.ext or [], 0, scope, None)
    _drop_stray_pragmas(ast)
    finish_variants(ast, scope.declared_variants, scope.metadirectives)
    if directive_words is not None:
        directive_words |= scope.directive_words
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
            declare(item.decl if isinstance(item, c_ast.FuncDef) else item, scope)
            if isinstance(item, c_ast.FuncDef):
                _function(item, scope)
            out.append(item)
            continue
        parsed = _directive(item, scope)
        if parsed is None:
            continue
        directive, coord = parsed
        if _settled_at_file_scope(directive, coord, scope):
            continue
        if directive.kind == "threadprivate":
            check_threadprivate(directive, scope)
            out.append(OmpConstruct(directive, None, coord))
        elif directive.kind == "declare simd":
            check_declare_simd(directive, coord, items, i)
        elif directive.kind == "declare variant":
            declare_variant(directive, coord, items, i, scope)
        elif directive.kind == "begin declare variant":
            inside, i = _file_items(items, i, scope, parsed)
            out += begin_declare_variant(directive, inside, scope)
        elif directive.kind == "end declare variant":
            if opener is None or opener[0].kind != "begin declare variant":
                raise CompileError("'#pragma omp end declare variant' without a matching "
                                   "'#pragma omp begin declare variant'", coord)
            return out, i
        elif directive.is_declare_target_begin:
            decls, i = _file_items(items, i, scope, parsed)
            out.append(OmpDeclareTarget(directive, decls, coord))
        elif directive.kind == "end declare target":
            if opener is None or not opener[0].is_declare_target_begin:
                raise CompileError("'#pragma omp end declare target' without a matching "
                                   "'#pragma omp declare target'", coord)
            return out, i
        elif directive.kind in ("declare target", "declare reduction", "declare mapper"):   # declarative
            out.append(OmpConstruct(directive, None, coord))
        elif directive.kind == "requires":          # sema.requires reads it
            out.append(OmpConstruct(directive, None, coord))
        elif directive.kind == "allocate":          # 5.0: codegen/openmp/data/allocate_storage.py
            check_allocate_directive(directive, scope)
            out.append(OmpConstruct(directive, None, coord))
        else:
            raise CompileError(f"{named(directive)} is not allowed at file scope", coord)
    if opener is None and scope.open_assumes:
        raise CompileError("'#pragma omp begin assumes' without a matching '#pragma omp end assumes'",
                           scope.open_assumes[-1])
    if opener is not None:
        closer = "end declare variant" if opener[0].kind == "begin declare variant" else "end declare target"
        raise EndOfScopeError(f"'#pragma omp {opener[0].kind}' without a matching "
                              f"'#pragma omp {closer}'", _end_of_file(opener[1], out))
    return out, i


def _settled_at_file_scope(directive, coord, scope) -> bool:
    """OpenMP 5.1's utility and assumption directives at file scope (utility_directives.py)."""
    if directive.kind == "begin assumes":
        scope.open_assumes.append(coord)
    elif directive.kind == "end assumes":
        if not scope.open_assumes:
            raise CompileError("'#pragma omp end assumes' without a matching '#pragma omp begin assumes'",
                               coord)
        scope.open_assumes.pop()
    elif runs_at_execution(directive):
        raise CompileError("'#pragma omp error' with 'at(execution)' clause may only be used in compound "
                           "statements", coord)
    return compile_time(directive, coord)


def _end_of_file(coord, items):
    """Where gcc reports a region still open when the file ends: the first column of the
    line of the file's last token (the last declaration's, where the file cannot be read)."""
    text = "".join(linecache.getlines(coord.file))
    code = _COMMENTS.sub(lambda comment: "\n" * comment[0].count("\n"), text).rstrip()
    if code:
        return Coord(coord.file, code.count("\n") + 1, 1)
    last = items[-1].coord if items and items[-1].coord is not None else coord
    return Coord(coord.file, last.line, 1)


def _function(funcdef: c_ast.FuncDef, file_scope) -> None:
    scope = file_scope.child()
    params = getattr(funcdef.decl.type, "args", None)
    for param in (params.params if params is not None else []):
        declare(param, scope)
    directives_before = file_scope.directives_met
    funcdef.body = _statement(funcdef.body, scope)
    if file_scope.directives_met == directives_before:
        mark_directive_free(funcdef)


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
                declare(decl, inner)
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
            raise CompileError(f"{named(item.directive)} may only be used in compound "
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
        declare(item, scope)
        return _statement(item, scope), i + 1
    parsed = _directive(item, scope)
    if parsed is None:
        return None, i + 1
    directive, coord = parsed
    if directive.kind == "declare target" and directive.clauses:
        return OmpConstruct(directive, None, coord), i + 1      # 5.0: a list in a function
    if directive.kind in _FILE_SCOPE_ONLY or directive.kind in ASSUMES:
        raise CompileError(f"{named(directive)} is only allowed at file scope", coord)
    if directive.kind == "threadprivate":
        check_threadprivate(directive, scope)
    elif directive.kind == "allocate":
        check_allocate_directive(directive, scope)
    else:
        check_threadprivate_uses(directive, scope)
    if compile_time(directive, coord):          # nothing, error at(compilation)
        return None, i + 1
    if directive.is_standalone:
        if directive.kind == "metadirective":
            scope.metadirectives.append(OmpMetadirective(directive, None, coord))
            return scope.metadirectives[-1], i + 1
        return OmpConstruct(directive, None, coord), i + 1

    variants = directive.metadirective_variants if directive.kind == "metadirective" else [directive]
    loop = any(d is not None and d.kind.split()[-1] in _LOOP_LEAVES for d in variants)
    wanted = "a for loop" if loop else "a statement"
    j = i + 1
    while j < len(items) and isinstance(items[j], c_ast.Pragma) and not is_omp(pragma_text(items[j])):
        j += 1                                  # e.g. `#pragma GCC ivdep` between directive and loop
    # gcc reports a missing statement at the token that came instead ("for statement
    # expected before 'x'"), after the last pragma.
    instead = omp_coord(getattr(items[j - 1], "next_token_coord", None)) or coord
    if j == len(items):
        raise CompileError(f"{named(directive)} must be followed by {wanted}", instead)
    body, after = _block_item(items, j, scope)
    if isinstance(body, _DECLARATIONS):
        raise CompileError(f"{named(directive)} must be followed by {wanted}, "
                           "not a declaration", instead)
    if (isinstance(body, OmpConstruct) and body.body is None) or \
            (loop and not isinstance(body, c_ast.For) and not _generates_loops(body, directive)):
        raise CompileError(f"{named(directive)} must be followed by {wanted}", instead)
    if directive.kind == "metadirective":
        scope.metadirectives.append(OmpMetadirective(directive, body, coord))
        return scope.metadirectives[-1], after
    if directive.kind == "dispatch":
        check_dispatch(directive, body, instead)
    construct = OmpConstruct(directive, body, coord)
    if scope.check_construct is not None:
        scope.check_construct(construct, scope.data_sharing_kind)
    if directive.kind == "assume":
        return assume_block(construct), after
    return nest_masked_combination(construct), after


def _generates_loops(body, directive) -> bool:
    """A 5.1 loop transformation (tile, unroll) stands for the loops it generates
    (sema/loop_transformations.py); `unroll full` generates none."""
    if not (isinstance(body, OmpConstruct) and body.directive.kind in LOOP_TRANSFORMATIONS):
        return False
    if body.directive.kind == "unroll" and any(c.name == "full" for c in body.directive.clauses):
        raise CompileError(f"{named(directive)} must be followed by a loop: 'unroll full' leaves none "
                           "to associate with it", body.coord)
    return True


def _directive(pragma: c_ast.Pragma, scope):
    """(Directive, coord) for an omp pragma, None for any other pragma."""
    text = pragma_text(pragma)
    if not is_omp(text):
        return None
    coord = omp_coord(pragma.coord)
    scope.file_scope.directives_met += 1
    scope.directive_words.update(_WORD.findall(text))
    return parse_directive(text, coord, scope.typedef_names), coord


def _drop_stray_pragmas(root) -> None:
    """Remove the pragmas left where no statement can follow (struct members,
    enumerators, K&R parameter declarations); an omp one there is an error. One
    walk with a stack of its own (no recursion limit), which rewrites only the
    nodes with a pragma among their children."""
    for node in nodes(root):                    # in source order: the first error is the first
        if any(isinstance(child, c_ast.Pragma) for child in node):   # no (name, child) pairs
            _drop_pragma_items(node)            # before the walk reads its children


def _drop_pragma_items(node) -> None:
    for name in getattr(node, "__slots__", ()):
        value = getattr(node, name, None)
        if isinstance(value, list):
            for item in value:
                if isinstance(item, c_ast.Pragma) and is_omp(pragma_text(item)):
                    raise CompileError(f"'#pragma {pragma_text(item)}' is not allowed here",
                                       omp_coord(item.coord))
            value[:] = [item for item in value if not isinstance(item, c_ast.Pragma)]
