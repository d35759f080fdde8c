"""Running a program's `main` in this process: an MCJIT engine for the module (or
for machine code made ahead by two_process_codegen), argv as C wants it, and
stdio flushed so that Python's output and the program's appear in order."""

from __future__ import annotations

import ctypes
import sys

import llvmlite.binding as llvm

from omp2gpu.targets.host.machine import JIT_CODEGEN_LEVEL, prepare, target_machine
from omp2gpu.targets.host.two_process_codegen import MachineCode

# Engines stay alive for the whole process: a program may register atexit()
# handlers or hand out pointers into JIT memory that outlive main's return.
_live_engines: list = []


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
