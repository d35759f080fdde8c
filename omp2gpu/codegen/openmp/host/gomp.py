"""The GOMP ABI: the entry points of GCC's OpenMP runtime that host code calls.

Host OpenMP runs on a production runtime (targets/openmp_runtime.py loads it):
libgomp, GCC's own, or Intel's/LLVM's libiomp5, which implements the same entry
points for GCC-compiled code. One table lists every entry point used, with its C
signature, so a call site names the function and passes its arguments.
(libgomp's own sources document the ABI: libgomp/libgomp_g.h.)
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.ir_types import I8, I8P, I32, I64, I64P, VOID

BOOL = I8                    # C's bool as libgomp's entry points take and return it
FN = ir.FunctionType(VOID, [I8P]).as_pointer()             # void (*)(void *data)
COPY_FN = ir.FunctionType(VOID, [I8P, I8P]).as_pointer()   # void (*)(void *to, void *from)

# name -> (result, parameters)
ENTRY_POINTS = {
    # parallel
    "GOMP_parallel": (VOID, [FN, I8P, I32, I32]),           # fn, data, num_threads, flags
    # worksharing loops over [start, end) by incr, unsigned long long iterations
    "GOMP_loop_ull_static_start": (BOOL, [BOOL, I64, I64, I64, I64, I64P, I64P]),
    "GOMP_loop_ull_dynamic_start": (BOOL, [BOOL, I64, I64, I64, I64, I64P, I64P]),
    "GOMP_loop_ull_guided_start": (BOOL, [BOOL, I64, I64, I64, I64, I64P, I64P]),
    "GOMP_loop_ull_runtime_start": (BOOL, [BOOL, I64, I64, I64, I64P, I64P]),
    "GOMP_loop_ull_ordered_static_start": (BOOL, [BOOL, I64, I64, I64, I64, I64P, I64P]),
    "GOMP_loop_ull_ordered_dynamic_start": (BOOL, [BOOL, I64, I64, I64, I64, I64P, I64P]),
    "GOMP_loop_ull_ordered_guided_start": (BOOL, [BOOL, I64, I64, I64, I64, I64P, I64P]),
    "GOMP_loop_ull_ordered_runtime_start": (BOOL, [BOOL, I64, I64, I64, I64P, I64P]),
    "GOMP_loop_ull_static_next": (BOOL, [I64P, I64P]),
    "GOMP_loop_ull_dynamic_next": (BOOL, [I64P, I64P]),
    "GOMP_loop_ull_guided_next": (BOOL, [I64P, I64P]),
    "GOMP_loop_ull_runtime_next": (BOOL, [I64P, I64P]),
    "GOMP_loop_ull_ordered_static_next": (BOOL, [I64P, I64P]),
    "GOMP_loop_ull_ordered_dynamic_next": (BOOL, [I64P, I64P]),
    "GOMP_loop_ull_ordered_guided_next": (BOOL, [I64P, I64P]),
    "GOMP_loop_ull_ordered_runtime_next": (BOOL, [I64P, I64P]),
    # doacross loops (doacross.py): ncounts, counts, [chunk,] istart, iend; the next
    # chunk through the plain GOMP_loop_<kind>_next, in longs, as gcc calls them
    "GOMP_loop_doacross_static_start": (BOOL, [I32, I64P, I64, I64P, I64P]),
    "GOMP_loop_doacross_dynamic_start": (BOOL, [I32, I64P, I64, I64P, I64P]),
    "GOMP_loop_doacross_guided_start": (BOOL, [I32, I64P, I64, I64P, I64P]),
    "GOMP_loop_doacross_runtime_start": (BOOL, [I32, I64P, I64P, I64P]),
    "GOMP_loop_static_next": (BOOL, [I64P, I64P]),
    "GOMP_loop_dynamic_next": (BOOL, [I64P, I64P]),
    "GOMP_loop_guided_next": (BOOL, [I64P, I64P]),
    "GOMP_loop_runtime_next": (BOOL, [I64P, I64P]),
    "GOMP_doacross_post": (VOID, [I64P]),                   # the iteration's logical numbers
    "GOMP_doacross_wait": (VOID, [I64], True),              # the sink's, one long each (varargs)
    "GOMP_loop_end": (VOID, []),
    "GOMP_loop_end_nowait": (VOID, []),
    "GOMP_loop_end_cancel": (BOOL, []),
    "GOMP_ordered_start": (VOID, []),
    "GOMP_ordered_end": (VOID, []),
    # sections
    "GOMP_sections_start": (I32, [I32]),
    "GOMP_sections_next": (I32, []),
    "GOMP_sections_end": (VOID, []),
    "GOMP_sections_end_nowait": (VOID, []),
    "GOMP_sections_end_cancel": (BOOL, []),
    # single, critical, barrier
    "GOMP_single_start": (BOOL, []),
    "GOMP_single_copy_start": (I8P, []),
    "GOMP_single_copy_end": (VOID, [I8P]),
    "GOMP_critical_start": (VOID, []),
    "GOMP_critical_end": (VOID, []),
    "GOMP_critical_name_start": (VOID, [I8P.as_pointer()]),
    "GOMP_critical_name_end": (VOID, [I8P.as_pointer()]),
    "GOMP_barrier": (VOID, []),
    # teams on the host: num_teams, thread_limit (sets the thread-limit-var ICV)
    "GOMP_teams": (VOID, [I32, I32]),
    # a league on the host (OpenMP 5.0 teams outside target): fn, data, num_teams, thread_limit, flags
    "GOMP_teams_reg": (VOID, [FN, I8P, I32, I32, I32]),
    "omp_get_team_num": (I32, []),
    "omp_get_num_teams": (I32, []),
    "omp_get_thread_limit": (I32, []),
    "GOMP_barrier_cancel": (BOOL, []),
    # cancellation: which = 1 parallel, 2 loop, 4 sections, 8 taskgroup
    "GOMP_cancel": (BOOL, [I32, BOOL]),
    "GOMP_cancellation_point": (BOOL, [I32]),
    # tasks
    # fn, data, cpyfn, arg_size, arg_align, if, flags, depend, priority, detach
    "GOMP_task": (VOID, [FN, I8P, COPY_FN, I64, I64, BOOL, I32, I8P.as_pointer(), I32, I8P]),
    "omp_fulfill_event": (VOID, [I64]),        # a detached task's event (OpenMP 5.0; omp.h's uintptr_t-sized handle)
    "GOMP_taskwait": (VOID, []),
    "GOMP_taskwait_depend": (VOID, [I8P.as_pointer()]),     # OpenMP 5.0: taskwait depend(...)
    "GOMP_taskyield": (VOID, []),
    "GOMP_taskgroup_start": (VOID, []),
    "GOMP_taskgroup_end": (VOID, []),
    # fn, data, cpyfn, arg_size, arg_align, flags, num_tasks, priority, start, end, step
    "GOMP_taskloop": (VOID, [FN, I8P, COPY_FN, I64, I64, I32, I64, I32, I64, I64, I64]),
    "GOMP_taskloop_ull": (VOID, [FN, I8P, COPY_FN, I64, I64, I32, I64, I32, I64, I64, I64]),
    # queries the generated code makes itself
    "omp_get_thread_num": (I32, []),
    "omp_get_num_threads": (I32, []),
}

# GOMP_parallel's flags: the proc_bind clause's policy in the low bits.
PROC_BIND = {"master": 2, "close": 3, "spread": 4}
# GOMP_task's and GOMP_taskloop's flags (libgomp's gomp-constants.h).
TASK_UNTIED, TASK_FINAL, TASK_MERGEABLE, TASK_DEPEND, TASK_PRIORITY = 1, 2, 4, 8, 16
TASKLOOP_UP, TASKLOOP_GRAINSIZE, TASKLOOP_IF, TASKLOOP_NOGROUP = 1 << 8, 1 << 9, 1 << 10, 1 << 11
TASKLOOP_STRICT = 1 << 14           # OpenMP 5.1's grainsize(strict: n) (num_tasks(strict:) is libgomp's count anyway)
TASK_DETACH = 1 << 13               # OpenMP 5.0's detach clause: the task completes when its event is fulfilled
# GOMP_cancel's and GOMP_cancellation_point's construct kinds.
CANCEL_KINDS = {"parallel": 1, "for": 2, "sections": 4, "taskgroup": 8}


def entry_point(module: ir.Module, name: str) -> ir.Function:
    """The declaration of one entry point in `module` (made on first use)."""
    existing = module.globals.get(name)
    if existing is not None:
        return existing
    result, params, *var_arg = ENTRY_POINTS[name]
    return ir.Function(module, ir.FunctionType(result, params, var_arg=bool(var_arg)), name=name)


def call(cg, name: str, *arguments) -> ir.Value:
    """cg's builder calls entry point `name`; integer constants may be given as ints."""
    function = entry_point(cg.module.module, name)
    params = function.function_type.args
    values = [ir.Constant(param, argument) if isinstance(argument, int) else argument
              for param, argument in zip(params, arguments)]
    values += arguments[len(params):]       # a varargs entry point's further arguments
    return cg.builder.call(function, values)


def true(cg, value: ir.Value) -> ir.Value:
    """A C bool the runtime returned, as an i1."""
    return cg.builder.icmp_unsigned("!=", value, ir.Constant(value.type, 0))
