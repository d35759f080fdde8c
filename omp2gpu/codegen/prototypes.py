"""The external functions a translation unit defines, as a caller from outside C sees
them: name, C type (as sema resolved it: parameters adjusted, `const` on pointees) and
the parameters' names, for messages. The Python API (omp2gpu/api/) calls them."""

from __future__ import annotations

from dataclasses import dataclass

from pycparser import c_ast

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.sema import ctypes as ct


@dataclass(frozen=True)
class Prototype:
    name: str
    ctype: ct.FunctionType
    parameter_names: tuple[str, ...]    # one per ctype.params (a definition names them all)
    location: SourceLocation | None = None


def external_prototypes(emitter) -> dict[str, Prototype]:
    """Every function `emitter` (a codegen.module.ModuleEmitter, after the translation
    unit) defined with external linkage, by name, in the order of their definitions."""
    prototypes = {}
    for name, definition in emitter.function_definitions.items():
        symbol = emitter.file_scope.lookup(name)
        if symbol is None or symbol.kind != "function" or symbol.storage == "static" or not symbol.defined:
            continue
        prototypes[name] = Prototype(name, symbol.ctype, _parameter_names(definition, symbol.ctype),
                                     SourceLocation.of(definition.decl.coord))
    return prototypes


def _parameter_names(definition: c_ast.FuncDef, ctype: ct.FunctionType) -> tuple[str, ...]:
    if not ctype.params:                       # `f(void)`, or `f()` defined with none
        return ()
    declared = [param for param in definition.decl.type.args.params
                if not isinstance(param, c_ast.EllipsisParam)]
    return tuple(param.name for param in declared)
