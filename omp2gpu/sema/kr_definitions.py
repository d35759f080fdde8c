"""K&R function definitions (C11 6.9.1p6, 6.9.1p13's identifier list), and implicit int.

    int scale(v, k) double v; int k; { ... }        copy(dst, src) char *dst, *src; { ... }

gcc compiles them with a warning, old codes still hold them, so they are rewritten
here, before the definition's type is resolved, into the prototyped definition with
the declared types (`int scale(double v, int k)`); a parameter with no declaration is
an int (a warning, as gcc). Callers then convert arguments to the parameters' types,
which for any call with the right argument types gives what the default argument
promotions of an unprototyped call give.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError, warn


def prototype_definition(node: c_ast.FuncDef) -> None:
    """Rewrite `node` in place if it is a K&R definition; warn where a type defaults to int."""
    declarator = node.decl.type
    if not isinstance(declarator, c_ast.FuncDecl):
        return
    _warn_implicit_int_result(node.decl, declarator)
    names = declarator.args.params if declarator.args else []
    if not node.param_decls and not any(isinstance(name, c_ast.ID) for name in names):
        return
    declarations = _declarations_by_name(node.param_decls or [], names)
    params = []
    for name in names:
        if not isinstance(name, c_ast.ID):
            raise CompileError("a K&R definition's parameter list holds only names",
                               getattr(name, "coord", None) or node.decl.coord)
        declaration = declarations.get(name.name)
        if declaration is None:
            warn(f"type of '{name.name}' defaults to 'int'", name.coord)
            declaration = c_ast.Decl(name.name, [], [], [], [], c_ast.TypeDecl(
                name.name, [], None, c_ast.IdentifierType(["int"], name.coord), name.coord),
                None, None, name.coord)
        params.append(declaration)
    declarator.args = c_ast.ParamList(params, declarator.args.coord)
    node.param_decls = None


def _declarations_by_name(declarations, names) -> dict[str, c_ast.Decl]:
    listed = {name.name for name in names if isinstance(name, c_ast.ID)}
    found = {}
    for declaration in declarations:
        if declaration.name not in listed:
            raise CompileError(f"declaration for parameter '{declaration.name}' but no such parameter",
                               declaration.coord)
        if declaration.name in found:
            raise CompileError(f"redefinition of parameter '{declaration.name}'", declaration.coord)
        if declaration.init is not None:
            raise CompileError(f"parameter '{declaration.name}' is initialized", declaration.coord)
        if any(storage != "register" for storage in declaration.storage):
            raise CompileError(f"storage class specified for parameter '{declaration.name}'",
                               declaration.coord)
        found[declaration.name] = declaration
    return found


def _warn_implicit_int_result(decl: c_ast.Decl, declarator: c_ast.FuncDecl) -> None:
    """pycparser supplies `int` for `f(x) {...}` at the declaration's own position,
    where a written `int` lies before the name."""
    result = declarator.type
    while not isinstance(result, c_ast.TypeDecl) and hasattr(result, "type"):
        result = result.type
    base = getattr(result, "type", None)
    if isinstance(base, c_ast.IdentifierType) and base.names == ["int"] and base.coord is not None \
            and decl.coord is not None and (base.coord.line, base.coord.column) == \
            (decl.coord.line, decl.coord.column) and not decl.storage and not decl.funcspec:
        warn(f"return type of '{decl.name}' defaults to 'int'", decl.coord)

