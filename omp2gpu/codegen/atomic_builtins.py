"""GCC's `__atomic_*` builtins and the x86 pause hint, for C that synchronises
threads itself: the CPU device's worker pool (runtime/cpu_device/) is written
in C and compiled by omp2gpu with these in its builtin table.

    T    __atomic_load_n(T *p, int order)
    void __atomic_store_n(T *p, T value, int order)
    T    __atomic_exchange_n(T *p, T value, int order)
    T    __atomic_fetch_add / _sub / _and / _or / _xor(T *p, T value, int order)
    int  __atomic_compare_exchange_n(T *p, T *expected, T desired, int weak,
                                     int success_order, int failure_order)
    void __atomic_thread_fence(int order)
    void __builtin_ia32_pause(void)

`order` is one of GCC's __ATOMIC_* values (cpu_atomics.h defines them, as
`gcc -E -undef` does not), a constant expression.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.conversions import I32
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct

# __ATOMIC_RELAXED, CONSUME, ACQUIRE, RELEASE, ACQ_REL, SEQ_CST -> LLVM orderings
ORDERINGS = {0: "monotonic", 1: "acquire", 2: "acquire", 3: "release", 4: "acq_rel", 5: "seq_cst"}


def _args(node, count: int, name: str):
    args = node.args.exprs if node.args else []
    if len(args) != count:
        raise CompileError(f"'{name}' takes {count} arguments", node.coord)
    return args


def _ordering(emitter, node, allowed=None) -> str:
    value, _ = emitter.constant_value(node)
    ordering = ORDERINGS.get(int(value))
    if ordering is None:
        raise CompileError("invalid memory order for an atomic builtin", node.coord)
    if allowed is not None and ordering not in allowed:
        ordering = "seq_cst" if ordering == "seq_cst" else allowed[0]
    return ordering


def _target(emitter, node, name: str):
    pointer = emitter.expr(node)
    if not pointer.ctype.is_pointer or not pointer.ctype.pointee.is_scalar:
        raise CompileError(f"the first argument of '{name}' must point to an integer or pointer",
                           node.coord)
    return pointer.value, pointer.ctype.pointee


def _load(emitter, node):
    pointer, ctype = _target(emitter, _args(node, 2, "__atomic_load_n")[0], "__atomic_load_n")
    order = _ordering(emitter, node.args.exprs[1], ("monotonic", "acquire", "seq_cst"))
    return RValue(ctype, emitter.builder.load_atomic(pointer, order, max(ctype.align, 1)))


def _store(emitter, node):
    args = _args(node, 3, "__atomic_store_n")
    pointer, ctype = _target(emitter, args[0], "__atomic_store_n")
    value = emitter.expr_as(args[1], ctype)
    order = _ordering(emitter, args[2], ("monotonic", "release", "seq_cst"))
    emitter.builder.store_atomic(value, pointer, order, max(ctype.align, 1))
    return RValue(ct.VOID, None)


def _read_modify_write(operation: str, name: str):
    def emit(emitter, node):
        args = _args(node, 3, name)
        pointer, ctype = _target(emitter, args[0], name)
        value = emitter.expr_as(args[1], ctype)
        if ctype.is_pointer:
            raise CompileError(f"'{name}' on a pointer is not supported", node.coord)
        order = _ordering(emitter, args[2])
        return RValue(ctype, emitter.builder.atomic_rmw(operation, pointer, value, order))
    return emit


def _compare_exchange(emitter, node):
    name = "__atomic_compare_exchange_n"
    args = _args(node, 6, name)
    pointer, ctype = _target(emitter, args[0], name)
    expected_pointer = emitter.expr_as(args[1], ct.PointerType(ctype))
    desired = emitter.expr_as(args[2], ctype)
    success = _ordering(emitter, args[4])
    failure = _ordering(emitter, args[5], ("monotonic", "acquire", "seq_cst"))
    b = emitter.builder
    expected = b.load(expected_pointer)
    pair = b.cmpxchg(pointer, expected, desired, success, failure)
    swapped = b.extract_value(pair, 1)
    # On failure *expected receives what was there (a store of the old value is harmless
    # on success, where it equals *expected already).
    b.store(b.extract_value(pair, 0), expected_pointer)
    return RValue(ct.INT, b.zext(swapped, I32))


def _fence(emitter, node):
    order = _ordering(emitter, _args(node, 1, "__atomic_thread_fence")[0])
    if order != "monotonic":
        emitter.builder.fence(order)
    return RValue(ct.VOID, None)


def _pause(emitter, node):
    module = emitter.builder.module
    pause = module.globals.get("llvm.x86.sse2.pause") or ir.Function(
        module, ir.FunctionType(ir.VoidType(), []), name="llvm.x86.sse2.pause")
    emitter.builder.call(pause, [])
    return RValue(ct.VOID, None)


ATOMIC_BUILTINS = {
    "__atomic_load_n": _load,
    "__atomic_store_n": _store,
    "__atomic_exchange_n": _read_modify_write("xchg", "__atomic_exchange_n"),
    "__atomic_fetch_add": _read_modify_write("add", "__atomic_fetch_add"),
    "__atomic_fetch_sub": _read_modify_write("sub", "__atomic_fetch_sub"),
    "__atomic_fetch_and": _read_modify_write("and", "__atomic_fetch_and"),
    "__atomic_fetch_or": _read_modify_write("or", "__atomic_fetch_or"),
    "__atomic_fetch_xor": _read_modify_write("xor", "__atomic_fetch_xor"),
    "__atomic_compare_exchange_n": _compare_exchange,
    "__atomic_thread_fence": _fence,
    "__builtin_ia32_pause": _pause,
}
