"""The host target: optimise, JIT-run `main`, emit object files and assembly.

Everything works on `llvmlite.binding.ModuleRef`s. `as_module_ref` accepts an
`llvmlite.ir.Module` too, so callers can hand over codegen's output directly.
LLVM state (target initialisation, target machines) is created once per process.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import re
import sys
from dataclasses import dataclass
from functools import lru_cache

import llvmlite.binding as llvm
from llvmlite import ir

from omp2gpu.deep_stack import waiting_threads

# Machine-code generation level for `run`. Level 0 (fast instruction selection and
# register allocation) starts bench/startup's 2,000-line program about 0.2 s sooner
# (its machine code made in two processes) but runs hot loops 1.3x to 6x slower
# (a 400x400 matmul 1.34x, a histogram 3.5x, a loop calling a small function 6x),
# so the default keeps full code quality.
JIT_CODEGEN_LEVEL = 2

# Engines stay alive for the whole process: a program may register atexit()
# handlers or hand out pointers into JIT memory that outlive main's return.
_live_engines: list = []


@lru_cache(maxsize=None)
def initialise() -> None:
    """Initialise the native target once. llvmlite >= 0.45 initialises the LLVM
    core itself and `llvm.initialize()` raises, so it is not called."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    # JIT'd programs call libm (sqrt, pow...); the Python binary may not link it.
    libm = ctypes.util.find_library("m") or "libm.so.6"
    try:
        llvm.load_library_permanently(libm)
    except RuntimeError:
        pass  # static libm in the interpreter, or none at all: symbols resolve or fail at JIT time


@lru_cache(maxsize=None)
def target_machine(opt_level: int = 2, jit: bool = False) -> llvm.TargetMachine:
    """The host target machine; `jit` selects the JIT code model, otherwise
    position-independent code that links into a default (PIE) executable."""
    initialise()
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        cpu=llvm.get_host_cpu_name(),
        features=llvm.get_host_cpu_features().flatten(),
        opt=opt_level,
        reloc="default" if jit else "pic",
        codemodel="jitdefault" if jit else "small",
        jit=jit,
    )


def as_module_ref(module) -> llvm.ModuleRef:
    """A ModuleRef for `module` (a ModuleRef is returned as is)."""
    if isinstance(module, llvm.ModuleRef):
        return module
    return llvm.parse_assembly(str(module))


def prepare(module) -> llvm.ModuleRef:
    """Give the module the host triple and data layout (needed before linking
    modules together, and before any optimisation)."""
    ref = as_module_ref(module)
    tm = target_machine()
    ref.triple = tm.triple
    ref.data_layout = str(tm.target_data)
    return ref


def verify(module: llvm.ModuleRef) -> None:
    """Raise RuntimeError with LLVM's message if the IR is malformed (a
    compiler bug, never a user error)."""
    try:
        module.verify()
    except RuntimeError as err:
        raise RuntimeError(f"LLVM IR verification failed: {err}") from None


# Inlining growth (see limit_inlining_growth), in unoptimised IR instructions.
LARGE_FUNCTION_INSTRUCTIONS = 3000   # a caller may grow by inlining up to this size...
LARGE_FUNCTION_GROWTH = 1.0          # ...or to (1 + this) times its own size, if more
SMALL_FUNCTION_INSTRUCTIONS = 100    # callees this small are left to LLVM's own cost model


def _holds_pointers(ir_type: ir.Type) -> bool:
    if isinstance(ir_type, ir.PointerType):
        return True
    if isinstance(ir_type, ir.ArrayType):
        return _holds_pointers(ir_type.element)
    if isinstance(ir_type, ir.BaseStructType):
        return any(_holds_pointers(element) for element in ir_type.elements or ())
    return False


def _successors(block: ir.Block) -> list:
    terminator = block.terminator
    if terminator is None:
        return []
    targets = [op for op in terminator.operands if isinstance(op, ir.Block)]
    if isinstance(terminator, ir.SwitchInstr):
        targets += [terminator.default, *(target for _, target in terminator.cases)]
    elif isinstance(terminator, ir.IndirectBranch):
        targets += terminator.destinations
    return targets


def _blocks_in_loops(function: ir.Function) -> set:
    """The blocks on a cycle of `function`'s control-flow graph (Tarjan's strongly
    connected components, iteratively)."""
    index: dict = {}
    low: dict = {}
    stack: list = []
    on_stack: set = set()
    looping: set = set()
    counter = 0
    for root in function.blocks:
        if root in index:
            continue
        work = [(root, iter(_successors(root)))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            block, successors = work[-1]
            advanced = False
            for successor in successors:
                if successor not in index:
                    index[successor] = low[successor] = counter
                    counter += 1
                    stack.append(successor)
                    on_stack.add(successor)
                    work.append((successor, iter(_successors(successor))))
                    advanced = True
                    break
                if successor in on_stack:
                    low[block] = min(low[block], index[successor])
                    if successor is block:
                        looping.add(block)              # a self-loop
            if advanced:
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[block])
            if low[block] == index[block]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member is block:
                        break
                if len(component) > 1:
                    looping.update(component)
    return looping


# A global's name in LLVM assembly: @"quoted" or @plain.
_GLOBAL_REFERENCE = re.compile(r'@(?:"((?:[^"\\]|\\.)*)"|([-\w.$]+))')


def limit_inlining_growth(module: ir.Module, whole_program: bool = False) -> list[str]:
    """Cap how large inlining makes a function, as GCC does (its large-function-insns
    and large-function-growth parameters), by marking `noinline` the functions with a
    single call site that would take their caller past the cap.

    LLVM inlines a static function called once whatever its size (a bonus that makes
    it all but certain), so a `main` that calls a hundred such functions once each
    becomes one function of tens of thousands of instructions, and several passes
    (loop vectorisation above all) take time that grows faster than linearly with a
    function's size: on the start-up benchmark's generated program, -O2 takes 0.95 s
    at 2,000 lines and 2.5 s at 4,000 without the cap, 0.7 s and 1.3 s with it. What
    the cap gives up is one call's overhead per call of a function that LLVM's own
    measure would not inline without the bonus. Sizes are counted in `module`'s
    unoptimised instructions, bottom-up in the call graph (a callee's size includes
    what is inlined into it). A call inside a loop is never marked: its callee is
    inlined as LLVM decides, and counts towards the cap. Nor is a function holding a
    loop inlined into a caller already past LARGE_FUNCTION_INSTRUCTIONS, however
    small: scalar evolution's work per loop grows with the blocks above it, so loops
    inlined into a huge main made -O2 quadratic (a 50,000-line file: 82 s, 28 s with
    its loops left in their functions). `whole_program`: every
    function but main is to become internal (host.internalise), so external ones
    count as static. Returns the names marked."""
    functions = [f for f in module.functions if f.blocks]
    defined = set(functions)
    own: dict[ir.Function, int] = {}
    calls: dict[ir.Function, list] = {}     # caller -> (direct callee, in a loop), in order
    call_sites: dict[ir.Function, int] = {}
    address_taken: set[ir.Function] = set()
    has_loops: dict[ir.Function, bool] = {}     # itself or what is inlined into it
    for function in functions:
        size, callees = 0, []
        looping = _blocks_in_loops(function)
        has_loops[function] = bool(looping)
        for block in function.blocks:
            size += len(block.instructions)
            for instruction in block.instructions:
                callee = getattr(instruction, "callee", None) \
                    if isinstance(instruction, ir.CallInstr) else None
                if callee in defined:
                    callees.append((callee, block in looping))
                    call_sites[callee] = call_sites.get(callee, 0) + 1
                for operand in instruction.operands:
                    if isinstance(operand, ir.Function) and operand is not callee:
                        address_taken.add(operand)
        own[function], calls[function] = size, callees
    by_name = {f.name: f for f in functions}
    for variable in module.global_values:
        if isinstance(variable, ir.GlobalVariable) and variable.initializer is not None \
                and _holds_pointers(variable.value_type):
            # The names the initializer's text refers to, looked up: linear in the module
            # (testing every function's name against every initializer was not).
            for quoted, plain in _GLOBAL_REFERENCE.findall(str(variable.initializer)):
                function = by_name.get(quoted or plain)
                if function is not None:
                    address_taken.add(function)

    def bonus_inlined(callee: ir.Function) -> bool:
        """Whether LLVM would inline `callee` whatever its size."""
        local = callee.linkage in ("internal", "private") or (whole_program
                                                               and callee.name != "main")
        return (local and call_sites.get(callee) == 1
                and callee not in address_taken and "noinline" not in callee.attributes)

    grown: dict[ir.Function, int] = {}
    marked: list[str] = []

    def visit(function: ir.Function, active: set) -> int:
        if function in grown:
            return grown[function]
        active.add(function)
        size = own[function]
        limit = max(LARGE_FUNCTION_INSTRUCTIONS, int(own[function] * (1 + LARGE_FUNCTION_GROWTH)))
        for callee, in_loop in calls[function]:
            if callee in active or not bonus_inlined(callee):
                continue
            callee_size = visit(callee, active)
            # A loop inlined at a call made once gains one call's overhead, but LLVM's loop
            # passes (scalar evolution walking the blocks above each loop) take time that
            # grows with the caller's size per loop: past LARGE_FUNCTION_INSTRUCTIONS,
            # loops stay in their own functions.
            loop_into_large = has_loops[callee] and size > LARGE_FUNCTION_INSTRUCTIONS
            if in_loop or "alwaysinline" in callee.attributes or not loop_into_large and (
                    callee_size <= SMALL_FUNCTION_INSTRUCTIONS or size + callee_size <= limit):
                size += callee_size
                has_loops[function] = has_loops[function] or has_loops[callee]
            else:
                callee.attributes.add("noinline")
                marked.append(callee.name)
        active.discard(function)
        grown[function] = size
        return size

    for function in functions:
        visit(function, set())
    return marked


_INTERNALISABLE = (llvm.Linkage.external, llvm.Linkage.weak_any, llvm.Linkage.weak_odr,
                   llvm.Linkage.linkonce_any, llvm.Linkage.linkonce_odr, llvm.Linkage.common)


def internalise(module: llvm.ModuleRef, keep=("main",)) -> None:
    """Give every definition but those named in `keep` internal linkage, then drop
    what nothing kept reaches (a whole program about to be JIT-run has no other
    callers: the bundled runtime's unused omp_* functions, dead functions of the
    program). The optimiser then neither works on the dead code nor keeps an
    out-of-line copy of a function inlined everywhere."""
    kept = set(keep)
    for value in (*module.functions, *module.global_variables):
        if not value.is_declaration and value.name not in kept and not value.name.startswith("llvm.") \
                and value.linkage in _INTERNALISABLE:
            value.linkage = llvm.Linkage.internal
    _global_dce(module)


def optimise(module, opt_level: int = 2) -> llvm.ModuleRef:
    """Run LLVM's default per-module pipeline for -O`opt_level` (new pass
    manager), in place; -O0 still runs the O0 pipeline (always-inline)."""
    if not 0 <= opt_level <= 3:
        raise ValueError(f"optimisation level must be 0-3, not {opt_level}")
    ref = prepare(module)
    verify(ref)
    tuning = llvm.create_pipeline_tuning_options(speed_level=opt_level)
    builder = llvm.create_pass_builder(target_machine(opt_level), tuning)
    builder.getModulePassManager().run(ref, builder)
    return ref


def object_code(module, opt_level: int = 2) -> bytes:
    """An ELF relocatable object for the host (`cc prog.o -lm` links it)."""
    ref = prepare(module)
    return target_machine(opt_level).emit_object(ref)


def emit_assembly(module, opt_level: int = 2) -> str:
    """Host assembly text."""
    ref = prepare(module)
    return target_machine(opt_level).emit_assembly(ref)


def find_main(module: llvm.ModuleRef):
    """The defined `main` function, or None when there is none."""
    try:
        fn = module.get_function("main")
    except NameError:
        return None
    return None if fn.is_declaration else fn


def _c_argv(argv: list[str]):
    """A NULL-terminated char *argv[] whose strings are writable, as C allows;
    returns the array and the buffers that must outlive the call."""
    buffers = [ctypes.create_string_buffer(arg.encode(sys.getfilesystemencoding(), "surrogateescape")
                                           if isinstance(arg, str) else bytes(arg))
               for arg in argv]
    array = (ctypes.POINTER(ctypes.c_char) * (len(buffers) + 1))()
    for i, buffer in enumerate(buffers):
        array[i] = ctypes.cast(buffer, ctypes.POINTER(ctypes.c_char))
    return array, buffers


def flush_stdio() -> None:
    """Flush C stdio and Python's streams so output from both appears in order."""
    ctypes.CDLL(None).fflush(None)
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):
            pass


# Machine code for `run` is made in two processes (this one and a fork) when the
# module has at least this many basic blocks (precompile); below it a fork costs more
# than it saves. OMP2GPU_PARALLEL_JIT=0 turns this off, =always makes it split any module.
PARALLEL_JIT_MIN_BLOCKS = 300
# Share of a function's code-generation time that this process spends on one the
# other process compiles and that this process's code calls: LLVM's IR-level codegen
# passes still run over its (available_externally) body.
_FOREIGN_BODY_COST = 0.2


@dataclass(frozen=True)
class MachineCode:
    """A module's machine code made ahead of jit(): object files, and the static
    constructors to run in order once they are loaded."""
    objects: tuple[bytes, ...]
    constructors: tuple[str, ...]


def precompile(module, parallel: bool | None = None) -> MachineCode | None:
    """Machine code for `module` made now in two processes, this one and a fork (see
    _compile_in_two_processes), or None, where jit() is to compile the module itself.
    `parallel` None: when the module has PARALLEL_JIT_MIN_BLOCKS basic blocks and this
    process can fork safely, which is why `run` calls this before the offload runtime
    starts any thread. The module is changed (its local symbols become hidden external
    ones); jit() takes it with the result."""
    ref = prepare(module)
    if parallel is None and os.environ.get("OMP2GPU_PARALLEL_JIT") == "always":
        parallel = True   # for tests: every module, however small
    if parallel is False or not (parallel or _can_fork()):
        return None
    sizes = {f: len(list(f.blocks)) for f in ref.functions if not f.is_declaration}
    if not parallel and sum(sizes.values()) < PARALLEL_JIT_MIN_BLOCKS:
        return None
    return _compile_in_two_processes(ref, target_machine(opt_level=JIT_CODEGEN_LEVEL, jit=True), sizes)


def jit(module, code: MachineCode | None = None) -> llvm.ExecutionEngine:
    """An MCJIT engine for `module` (or for its `code`, from precompile), kept alive,
    whose static constructors have run."""
    tm = target_machine(opt_level=JIT_CODEGEN_LEVEL, jit=True)
    if code is None:
        engine = llvm.create_mcjit_compiler(prepare(module), tm)
        engine.finalize_object()
        _live_engines.append(engine)
        engine.run_static_constructors()   # llvm.global_ctors: e.g. declare-target registration
        return engine
    engine = llvm.create_mcjit_compiler(prepare(llvm.parse_assembly("")), tm)
    for data in code.objects:
        engine.add_object_file(llvm.ObjectFileRef.from_data(data))
    engine.finalize_object()
    _live_engines.append(engine)
    for name in code.constructors:   # in llvm.global_ctors' order, as run_static_constructors
        ctypes.CFUNCTYPE(None)(engine.get_function_address(name))()
    return engine


def _can_fork() -> bool:
    if os.environ.get("OMP2GPU_PARALLEL_JIT", "1") == "0" or not hasattr(os, "fork"):
        return False
    try:
        cpus = len(os.sched_getaffinity(0))
        threads = len(os.listdir("/proc/self/task"))
    except (AttributeError, OSError):
        return False
    # Only a single-threaded process forks safely: another thread (the CPU device's
    # workers, a CUDA driver thread) may hold a lock the child would wait on forever.
    # The CLI's main thread, only waiting for this compile thread, holds none.
    return cpus >= 2 and threads - waiting_threads() == 1 and _runnable_now() < cpus


def _runnable_now() -> int:
    """Threads running or ready to run in the whole system now, this one included
    (/proc/loadavg). Where no processor is idle, the fork only competes with this
    process for the same time, and the split's extra work (a fifth more) makes the
    machine code later, not sooner: measured with both processors busy, 0.63 s in two
    processes against 0.55 s in one; 0.31 s against 0.50 s with one idle."""
    try:
        with open("/proc/loadavg") as handle:
            return int(handle.read().split()[3].split("/")[0])
    except (OSError, ValueError, IndexError):
        return 1


_CTOR = re.compile(r'\{ i32 -?\d+, ptr @("(?:[^"\\]|\\.)*"|[-\w.$]+), ptr [^}]*\}')


def _compile_in_two_processes(ref: llvm.ModuleRef, tm: llvm.TargetMachine, sizes: dict):
    """Generate machine code for about half of `ref`'s functions (by `sizes`, their
    basic blocks) in a forked child and the rest here, at the same time: two object
    files for one MCJIT engine. None where the child failed (`ref` is then whole
    again, for MCJIT to compile here).

    The two objects reach each other's symbols through the engine's own symbol
    table, so every local definition first becomes a hidden external one under a
    name of its own (`name.omp2gpu.local`, never a libc name a libcall could find).
    A function compiled by the other process is available_externally here: not
    emitted, though referenced. Global variables are all emitted here, where main
    and the static constructors also live; the constructors are then run in the
    order of llvm.global_ctors (jit()), as ExecutionEngine.run_static_constructors does."""
    ctors_var = next((g for g in ref.global_variables if g.name == "llvm.global_ctors"), None)
    local = (llvm.Linkage.internal, llvm.Linkage.private)
    functions = list(sizes)
    for value in (*functions, *ref.global_variables):
        if not value.is_declaration and value.linkage in local:
            value.name = f"{value.name}.omp2gpu.local"
            value.linkage = llvm.Linkage.external
            value.visibility = llvm.Visibility.hidden
    ctors = [name.strip('"') for name in _CTOR.findall(str(ctors_var))] if ctors_var else []
    ours, theirs = _split_for_two(functions, sizes, {"main", *ctors})
    linkages = {function: function.linkage for function in theirs}

    read_end, write_end = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:      # the child: emit its share, send it, vanish (os._exit: no atexit, no flushing)
        status = 1
        try:
            os.close(read_end)
            for function in ours:
                function.linkage = llvm.Linkage.available_externally
            for variable in ref.global_variables:
                if not variable.is_declaration and not variable.name.startswith("llvm."):
                    variable.linkage = llvm.Linkage.available_externally
            _global_dce(ref)
            data = tm.emit_object(ref)
            with os.fdopen(write_end, "wb") as out:
                out.write(data)
            status = 0
        finally:
            os._exit(status)
    os.close(write_end)
    pipe = os.fdopen(read_end, "rb")
    try:
        for function in theirs:
            function.linkage = llvm.Linkage.available_externally
        own_object = tm.emit_object(ref)
        their_object = pipe.read()
    finally:
        pipe.close()                   # a child still writing gets EPIPE and exits
        _, status = os.waitpid(pid, 0)
    if status != 0 or not their_object:
        for function, linkage in linkages.items():   # whole again: compile it all here
            function.linkage = linkage
        return None
    return MachineCode((own_object, their_object), tuple(ctors))


def _split_for_two(functions, sizes: dict, pinned: set[str]):
    """(ours, theirs): `pinned` functions stay here; each other one, largest first,
    goes where it leaves the larger of the two loads smaller. Ours is also charged
    _FOREIGN_BODY_COST of each of theirs."""
    ours, theirs = [], []
    ours_load = their_load = 0.0
    for function in sorted(functions, key=lambda f: (f.name not in pinned, -sizes[f])):
        size = sizes[function]
        if function.name in pinned or max(ours_load + size, their_load) \
                <= max(ours_load + size * _FOREIGN_BODY_COST, their_load + size):
            ours.append(function)
            ours_load += size
        else:
            theirs.append(function)
            their_load += size
            ours_load += size * _FOREIGN_BODY_COST
    return ours, theirs


def _global_dce(module: llvm.ModuleRef) -> None:
    builder = llvm.create_pass_builder(target_machine(), llvm.create_pipeline_tuning_options(0))
    passes = llvm.create_new_module_pass_manager()
    passes.add_global_dead_code_eliminate_pass()
    passes.run(module, builder)


def run_main(module, argv: list[str], code: MachineCode | None = None,
             engine: llvm.ExecutionEngine | None = None) -> int:
    """JIT-compile `module` (or load its `code`, from precompile; or use the `engine`
    jit() made of it) and call its `main` with `argv` (argv[0] is the program's name);
    returns main's int result. The program writes to this process's own
    stdout/stderr; exit() inside it ends the process."""
    ref = prepare(module)
    fn = find_main(ref)
    if fn is None:
        raise LookupError("the module defines no 'main' function")
    fn_type = fn.global_value_type
    n_params = len(list(fn_type.get_function_parameters()))
    if n_params > 3:
        raise ValueError(f"'main' takes {n_params} parameters; at most 3 (argc, argv, envp) are supported")
    result_type = fn_type.get_function_return()
    returns_int = result_type.type_kind == llvm.TypeKind.integer

    engine = engine or jit(ref, code)
    address = engine.get_function_address("main")

    char_pp = ctypes.POINTER(ctypes.POINTER(ctypes.c_char))
    c_argv, keep_alive = _c_argv(argv)
    params = [ctypes.c_int, char_pp, ctypes.c_void_p][:n_params]
    args = [len(argv), c_argv, ctypes.c_void_p.in_dll(ctypes.CDLL(None), "environ")][:n_params]
    main = ctypes.CFUNCTYPE(ctypes.c_int if returns_int else None, *params)(address)

    flush_stdio()  # Python's buffered output first, then the program's
    try:
        result = main(*args)
    finally:
        flush_stdio()
    del keep_alive
    return int(result) if returns_int else 0
