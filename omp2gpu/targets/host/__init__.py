"""The host target: optimise, emit object files and assembly.

    machine              native target, target machines, triple and data layout
    inlining_limits      GCC's large-function caps, as `noinline` marks
    optimisation         find `main`, internalise a whole program, -O pipelines, .o and .s
    static_data          the code model for large static objects, and room for them before a program runs

Everything works on `llvmlite.binding.ModuleRef`s. `as_module_ref` accepts an
`llvmlite.ir.Module` too, so callers can hand over codegen's output directly.
LLVM state (target initialisation, target machines) is created once per process.
"""

from omp2gpu.targets.host.inlining_limits import (
    LARGE_FUNCTION_GROWTH,
    LARGE_FUNCTION_INSTRUCTIONS,
    SMALL_FUNCTION_INSTRUCTIONS,
    limit_inlining_growth,
)
from omp2gpu.targets.host.machine import (
    NATIVE,
    as_module_ref,
    initialise,
    instruction_sets,
    prepare,
    processor,
    target_machine,
    validate_march,
    verify,
)
from omp2gpu.targets.host.optimisation import emit_assembly, find_main, internalise, object_code, optimise
from omp2gpu.targets.host.static_data import LARGE_OBJECT_BYTES, StaticObject, check_room, module_objects
