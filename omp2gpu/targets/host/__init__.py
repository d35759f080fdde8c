"""The host target: optimise, JIT-run `main`, emit object files and assembly.

    machine              native target, target machines, triple and data layout
    inlining_limits      GCC's large-function caps, as `noinline` marks
    optimisation         internalise a whole program, -O pipelines, .o and .s
    two_process_codegen  `run`'s machine code made in this process and a fork
    machine_code_cache   machine code kept on disk for a program run again
    execution            MCJIT engines, calling `main` with argv
    static_data          room for large static objects, checked before the JIT allocates

Everything works on `llvmlite.binding.ModuleRef`s. `as_module_ref` accepts an
`llvmlite.ir.Module` too, so callers can hand over codegen's output directly.
LLVM state (target initialisation, target machines) is created once per process.
"""

from omp2gpu.targets.host.execution import find_main, flush_stdio, jit, run_main
from omp2gpu.targets.host.inlining_limits import (
    LARGE_FUNCTION_GROWTH,
    LARGE_FUNCTION_INSTRUCTIONS,
    SMALL_FUNCTION_INSTRUCTIONS,
    limit_inlining_growth,
)
from omp2gpu.targets.host.machine import (
    JIT_CODEGEN_LEVEL,
    as_module_ref,
    initialise,
    instruction_sets,
    prepare,
    target_machine,
    verify,
)
from omp2gpu.targets.host.machine_code_cache import cached_program, keep_program, program_key
from omp2gpu.targets.host.optimisation import emit_assembly, internalise, object_code, optimise
from omp2gpu.targets.host.static_data import LARGE_OBJECT_BYTES, StaticObject, check_room, module_objects
from omp2gpu.targets.host.two_process_codegen import MachineCode, imported_symbols, precompile
