"""OpenMP 5.0/5.1 constructs every scheme compiles the same way, given where it is:
`masked` (which thread runs the block), the `error` directive at(execution) (a message at
run time, runtime/host/error_directive.c) and `flush` with a memory order.

`master` is `masked` with no filter: thread 0.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.ir_types import I8P, I32
from omp2gpu.codegen.openmp.runtime_entries import HostRuntime
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import FilterClause, MessageClause, SeverityClause
from omp2gpu.sema import ctypes as ct

# flush's memory-order clause -> the fence's LLVM ordering (OpenMP 5.0 2.17.8: a flush
# without one is a sequentially consistent fence).
_FENCES = {"seq_cst": "seq_cst", "acq_rel": "acq_rel", "release": "release", "acquire": "acquire"}


def runs_masked(cg, directive, thread_num: ir.Value) -> ir.Value:
    """i1: whether the thread numbered `thread_num` runs the masked (or master) block."""
    clause = directive.first(FilterClause)
    wanted = ir.Constant(I32, 0)
    if clause is not None:
        value = cg.expr(clause.expr)
        if not value.ctype.is_integer:         # gcc: "expected integer expression"
            raise CompileError("'filter' needs an integer expression", clause.expr.coord or clause.coord)
        wanted = convert(cg.builder, value.value, value.ctype, ct.INT)
    return cg.builder.icmp_signed("==", thread_num, wanted)


def emit_error_directive(cg, construct) -> None:
    """`#pragma omp error at(execution)`: the message on stderr; severity(fatal), the
    default, ends the program."""
    directive = construct.directive
    function = HostRuntime.error_directive.declare(cg.module.module)
    message = directive.first(MessageClause)
    text = ir.Constant(I8P, None)
    if message is not None:
        value = cg.expr(message.expr)
        if not (value.ctype.is_pointer or value.ctype.is_array):
            raise CompileError("the 'message' of '#pragma omp error' must be a string", message.coord)
        text = cg.builder.bitcast(value.value, I8P)
    severity = directive.first(SeverityClause)
    fatal = severity is None or severity.kind == "fatal"
    cg.builder.call(function, [text, ir.Constant(I32, int(fatal))])


def flush_ordering(directive) -> str:
    """The LLVM fence ordering of a flush directive."""
    return next((_FENCES[c.name] for c in directive.clauses if c.name in _FENCES), "seq_cst")
