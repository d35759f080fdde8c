"""`#pragma omp interop` (OpenMP 5.1 2.15.1) on the host: each `init`, `use` and
`destroy` clause, in order, is a call into the offload runtime (offload/abi.py
ENTRY_INTEROP_*; runtime/offload/interop.c holds the objects and the omp_get_interop_*
routines). `depend` waits for the sibling tasks it names first (as `taskwait depend`);
the operations finish before the construct ends, which `nowait` allows (the interop task
may run at once)."""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.ir_types import I8P, I32, I64
from omp2gpu.codegen.openmp.data import task_depend
from omp2gpu.codegen.openmp.host import gomp
from omp2gpu.codegen.openmp.runtime_entries import OffloadRuntime
from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.openmp.clause_types import DestroyClause
from omp2gpu.frontend.openmp.interop_clauses import InitClause, UseClause


def emit(cg, directive, device: ir.Value, where: ir.Value) -> None:
    """The construct: its dependences waited for, then each clause's operation. `device`:
    the device clause's value, or -1 (the default device); `where`: "file:line:col"."""
    depend = task_depend.depend_array(cg, directive)
    if depend.all_memory:
        gomp.call(cg, "GOMP_taskwait")
    elif depend.pointer is not None:
        gomp.call(cg, "GOMP_taskwait_depend", depend.pointer)
    depend.release(cg)
    module = cg.module.module
    for clause in directive.clauses:
        if isinstance(clause, InitClause):
            init = OffloadRuntime.interop_init.declare(module)
            for item in clause.items:
                cg.builder.call(init, [_object(cg, item), cg.builder.sext(device, I64) if device.type.width < 64
                                       else device, ir.Constant(I32, int(clause.targetsync)), where])
        elif isinstance(clause, (UseClause, DestroyClause)):
            entry = OffloadRuntime.interop_use if isinstance(clause, UseClause) else OffloadRuntime.interop_destroy
            operation = entry.declare(module)
            for item in clause.items:
                cg.builder.call(operation, [_object(cg, item), where])


def _object(cg, item) -> ir.Value:
    """The address of the interop variable `item` (an omp_interop_t: a void pointer)."""
    symbol = cg.scope.lookup(item.name)
    if symbol is None:
        raise CompileError(f"use of undeclared identifier '{item.name}'", item.coord)
    target = cg.lvalue(item.expr)
    if not (target.ctype.is_pointer and target.ctype.pointee.is_void):
        raise CompileError(f"'{item.name}' in an 'interop' clause is not an 'omp_interop_t'", item.coord)
    return cg.builder.bitcast(target.address, I8P.as_pointer())

