"""The value of a clause whose argument OpenMP defines as an integer expression
(num_threads, ...), as an int: a floating-point or pointer argument is gcc's error,
not a silent conversion."""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


def integer_operand(cg, clause) -> ir.Value:
    """`clause`'s expression as an i32 (C's int), or gcc's error where it is not an integer."""
    value = cg.expr(clause.expr)
    if not value.ctype.is_integer:      # gcc: "expected integer expression"
        raise CompileError(f"'{clause.name}' needs an integer expression", clause.expr.coord or clause.coord)
    return convert(cg.builder, value.value, value.ctype, ct.INT, clause.expr.coord)
