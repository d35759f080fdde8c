"""A module's one global of a given name, made on first use: locks of named critical
sections, a team's state. Every later request gets the same variable."""

from __future__ import annotations

from llvmlite import ir


def named_global(module: ir.Module, name: str, ir_type: ir.Type, linkage: str, initializer: ir.Constant,
                 align: int | None = None, addrspace: int = 0) -> ir.GlobalVariable:
    variable = module.globals.get(name)
    if variable is None:
        variable = ir.GlobalVariable(module, ir_type, name=name, addrspace=addrspace)
        variable.linkage = linkage
        variable.initializer = initializer
        if align is not None:
            variable.align = align
    return variable
