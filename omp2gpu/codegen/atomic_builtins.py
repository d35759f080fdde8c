"""GCC's `__atomic_*` and `__sync_*` builtins (user code and the runtime's own C, on
the host, the CPU device and the GPU) and the x86 pause hint.

    T    __atomic_load_n(T *p, int order)           void __atomic_load(T *p, T *ret, int order)
    void __atomic_store_n(T *p, T v, int order)     void __atomic_store(T *p, T *v, int order)
    T    __atomic_exchange_n(T *p, T v, int order)  void __atomic_exchange(T *p, T *v, T *ret, int order)
    bool __atomic_compare_exchange_n(T *p, T *expected, T desired, bool weak, int success, int failure)
    bool __atomic_compare_exchange(T *p, T *expected, T *desired, bool weak, int success, int failure)
    T    __atomic_fetch_OP(T *p, T v, int order)    T __atomic_OP_fetch(T *p, T v, int order)
         OP: add sub and or xor nand
    bool __atomic_test_and_set(void *p, int order)  void __atomic_clear(bool *p, int order)
    void __atomic_thread_fence(int order)           void __atomic_signal_fence(int order)
    bool __atomic_always_lock_free(size_t size, void *p), __atomic_is_lock_free(...)
    T    __sync_fetch_and_OP(T *p, T v)             T __sync_OP_and_fetch(T *p, T v)
    T    __sync_val_compare_and_swap(T *p, T old, T new)
    bool __sync_bool_compare_and_swap(T *p, T old, T new)
    T    __sync_lock_test_and_set(T *p, T v)        void __sync_lock_release(T *p)
    void __sync_synchronize(void)
    void __builtin_ia32_pause(void)

As GCC defines them: T of the `_n` and `__sync` forms is an integer or pointer type of
1, 2, 4 or 8 bytes (arithmetic on a pointer is on its address, not scaled by the
pointee); the generic forms take any object of those sizes. Every access works on the
object's bits as an integer of its size. `order` is one of the __ATOMIC_* values the
preprocessor predefines; one that is not a constant, or that the operation cannot take
(a load that releases), is seq_cst, as GCC makes it. The `__sync` forms are full
barriers (seq_cst) but for lock_test_and_set (acquire) and lock_release (release).
Instructions go through codegen/atomic_instructions.py, so on the GPU they are
device-scoped (syncscope("device")) with its fences around ordered read-modify-writes.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen import atomic_instructions
from omp2gpu.codegen.conversions import convert
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct
from omp2gpu.sema.constant_eval import ATOMIC_LOCK_FREE_SIZES

# __ATOMIC_RELAXED, CONSUME, ACQUIRE, RELEASE, ACQ_REL, SEQ_CST -> LLVM orderings
ORDERINGS = {0: "monotonic", 1: "acquire", 2: "acquire", 3: "release", 4: "acq_rel", 5: "seq_cst"}
# What each kind of access may take; anything else is seq_cst (GCC's "invalid memory model").
_ALLOWED = {"load": {"monotonic", "acquire", "seq_cst"}, "store": {"monotonic", "release", "seq_cst"},
            "rmw": set(ORDERINGS.values()), "failure": {"monotonic", "acquire", "seq_cst"}}
_VOID = RValue(ct.VOID, None)


def _args(node, count: int, name: str):
    args = node.args.exprs if node.args else []
    if len(args) != count:
        raise CompileError(f"too {'few' if len(args) < count else 'many'} arguments to function '{name}'",
                           node.coord)
    return args


def _ordering(emitter, node, access: str) -> str:
    try:
        value, ctype = emitter.constant_value(node)
    except CompileError:                 # a run-time order: GCC takes seq_cst
        emitter.expr(node)
        return "seq_cst"
    ordering = ORDERINGS.get(int(value)) if ctype.is_integer else None
    return ordering if ordering in _ALLOWED[access] else "seq_cst"


class _Object:
    """The object an atomic builtin works on: its address as a pointer to the integer of
    its size, and conversions between its C values and those bits."""

    def __init__(self, emitter, call, name: str, generic: bool = False):
        node = call.args.exprs[0]
        pointer = emitter.expr(node)
        ctype = pointer.ctype.pointee.unqualified() if pointer.ctype.is_pointer else None
        valid = ctype is not None and (ctype.is_integer or ctype.is_pointer or generic and ctype.is_complete
                                       and not (ctype.is_void or ctype.is_array or ctype.is_function))
        if not valid:         # GCC's words, at the call
            raise CompileError(f"operand type '{pointer.ctype}' is incompatible with argument 1 of "
                               f"'{name}'", call.coord)
        if ctype.size not in ATOMIC_LOCK_FREE_SIZES:
            raise CompileError(f"'{name}' on an object of {ctype.size} bytes is not supported "
                               "(1, 2, 4 or 8 bytes)", call.coord)
        self.emitter, self.ctype, self.name = emitter, ctype, name
        self.bits = ir.IntType(ctype.size * 8)
        self.align = max(ctype.align, ctype.size)
        self.address = emitter.builder.bitcast(pointer.value, self.bits.as_pointer())

    def bits_of(self, value: ir.Value) -> ir.Value:
        b = self.emitter.builder
        if self.ctype.is_pointer:
            return b.ptrtoint(value, self.bits)
        if value.type == self.bits:
            return value
        return b.bitcast(value, self.bits)        # float, double, a small struct's value

    def value_of(self, bits: ir.Value) -> ir.Value:
        b = self.emitter.builder
        if self.ctype.is_pointer:
            return b.inttoptr(bits, self.ctype.ir_type())
        value_type = self.ctype.ir_type()
        return bits if value_type == self.bits else b.bitcast(bits, value_type)

    def operand(self, node) -> ir.Value:
        """A value argument as T's bits; for a pointer T's arithmetic an integer is
        taken as the address difference it is (GCC does not scale it)."""
        value = self.emitter.expr(node)
        if self.ctype.is_pointer and value.ctype.is_integer:
            return convert(self.emitter.builder, value.value, value.ctype, ct.LONG, node.coord)
        return self.bits_of(convert(self.emitter.builder, value.value, value.ctype, self.ctype, node.coord))

    def pointed(self, node) -> ir.Value:
        """A `T *` argument of the generic forms, as a pointer to T's bits."""
        pointer = self.emitter.expr(node)
        if not pointer.ctype.is_pointer:
            raise CompileError(f"argument of '{self.name}' must be a pointer", node.coord)
        return self.emitter.builder.bitcast(pointer.value, self.bits.as_pointer())

    def result(self, bits: ir.Value) -> RValue:
        return RValue(self.ctype, self.value_of(bits))


def _bool(emitter, flag: ir.Value) -> RValue:
    return RValue(ct.BOOL, emitter.builder.zext(flag, ct.BOOL.ir_type()))


# --------------------------------------------------------------------------- loads, stores

def _load_bits(target: _Object, ordering: str) -> ir.Value:
    return atomic_instructions.load(target.emitter, target.address, ordering, target.align)


def _load_n(emitter, node):
    args = _args(node, 2, "__atomic_load_n")
    target = _Object(emitter, node, "__atomic_load_n")
    return target.result(_load_bits(target, _ordering(emitter, args[1], "load")))


def _load(emitter, node):
    args = _args(node, 3, "__atomic_load")
    target = _Object(emitter, node, "__atomic_load", generic=True)
    result = target.pointed(args[1])
    emitter.builder.store(_load_bits(target, _ordering(emitter, args[2], "load")), result)
    return _VOID


def _store_n(emitter, node):
    args = _args(node, 3, "__atomic_store_n")
    target = _Object(emitter, node, "__atomic_store_n")
    value = target.operand(args[1])
    atomic_instructions.store(emitter, value, target.address, _ordering(emitter, args[2], "store"), target.align)
    return _VOID


def _store(emitter, node):
    args = _args(node, 3, "__atomic_store")
    target = _Object(emitter, node, "__atomic_store", generic=True)
    value = emitter.builder.load(target.pointed(args[1]))
    atomic_instructions.store(emitter, value, target.address, _ordering(emitter, args[2], "store"), target.align)
    return _VOID


# ---------------------------------------------------------------- read-modify-writes

def _exchange_n(emitter, node):
    args = _args(node, 3, "__atomic_exchange_n")
    target = _Object(emitter, node, "__atomic_exchange_n")
    value = target.operand(args[1])
    return target.result(atomic_instructions.rmw(emitter, "xchg", target.address, value,
                                          _ordering(emitter, args[2], "rmw")))


def _exchange(emitter, node):
    args = _args(node, 4, "__atomic_exchange")
    target = _Object(emitter, node, "__atomic_exchange", generic=True)
    value = emitter.builder.load(target.pointed(args[1]))
    result = target.pointed(args[2])
    old = atomic_instructions.rmw(emitter, "xchg", target.address, value, _ordering(emitter, args[3], "rmw"))
    emitter.builder.store(old, result)
    return _VOID


# OP -> (atomicrmw operation, the new value from the old and the operand)
_OPERATIONS = {
    "add": ("add", lambda b, old, v: b.add(old, v)),
    "sub": ("sub", lambda b, old, v: b.sub(old, v)),
    "and": ("and", lambda b, old, v: b.and_(old, v)),
    "or": ("or", lambda b, old, v: b.or_(old, v)),
    "xor": ("xor", lambda b, old, v: b.xor(old, v)),
    "nand": ("nand", lambda b, old, v: b.not_(b.and_(old, v))),
}


def _fetch(op: str, name: str, gives_new: bool, sync: bool):
    """__atomic_fetch_OP / __atomic_OP_fetch, and the __sync forms (no order: seq_cst)."""
    operation, combine = _OPERATIONS[op]

    def emit(emitter, node):
        args = _args(node, 2 if sync else 3, name)
        target = _Object(emitter, node, name)
        value = target.operand(args[1])
        ordering = "seq_cst" if sync else _ordering(emitter, args[2], "rmw")
        old = atomic_instructions.rmw(emitter, operation, target.address, value, ordering)
        return target.result(combine(emitter.builder, old, value) if gives_new else old)
    return emit


def _compare_exchange(name: str, generic: bool):
    def emit(emitter, node):
        args = _args(node, 6, name)
        target = _Object(emitter, node, name, generic)
        expected_pointer = target.pointed(args[1])
        desired = emitter.builder.load(target.pointed(args[2])) if generic else target.operand(args[2])
        emitter.expr(args[3])                      # weak: a strong exchange serves both
        swapped = _cmpxchg(target, expected_pointer, desired, _ordering(emitter, args[4], "rmw"),
                           _ordering(emitter, args[5], "failure"))
        return _bool(emitter, swapped)
    return emit


def _cmpxchg(target: _Object, expected_pointer, desired, success: str, failure: str) -> ir.Value:
    """cmpxchg against *expected_pointer; on failure *expected_pointer receives what was
    there (storing it on success too is harmless: it equals *expected then)."""
    b = target.emitter.builder
    pair = atomic_instructions.cmpxchg(target.emitter, target.address, b.load(expected_pointer), desired,
                                success, failure)
    b.store(b.extract_value(pair, 0), expected_pointer)
    return b.extract_value(pair, 1)


def _sync_compare_and_swap(name: str, gives_bool: bool):
    def emit(emitter, node):
        args = _args(node, 3, name)
        target = _Object(emitter, node, name)
        expected, desired = target.operand(args[1]), target.operand(args[2])
        pair = atomic_instructions.cmpxchg(emitter, target.address, expected, desired, "seq_cst", "seq_cst")
        if gives_bool:
            return _bool(emitter, emitter.builder.extract_value(pair, 1))
        return target.result(emitter.builder.extract_value(pair, 0))
    return emit


def _sync_lock_test_and_set(emitter, node):
    args = _args(node, 2, "__sync_lock_test_and_set")
    target = _Object(emitter, node, "__sync_lock_test_and_set")
    value = target.operand(args[1])
    return target.result(atomic_instructions.rmw(emitter, "xchg", target.address, value, "acquire"))


def _sync_lock_release(emitter, node):
    _args(node, 1, "__sync_lock_release")
    target = _Object(emitter, node, "__sync_lock_release")
    atomic_instructions.store(emitter, ir.Constant(target.bits, 0), target.address, "release", target.align)
    return _VOID


def _test_and_set(emitter, node):
    args = _args(node, 2, "__atomic_test_and_set")
    pointer = emitter.expr(args[0])
    if not pointer.ctype.is_pointer:
        raise CompileError("the first argument of '__atomic_test_and_set' must be a pointer", args[0].coord)
    byte = emitter.builder.bitcast(pointer.value, ir.IntType(8).as_pointer())
    old = atomic_instructions.rmw(emitter, "xchg", byte, ir.Constant(ir.IntType(8), 1),
                           _ordering(emitter, args[1], "rmw"))
    return _bool(emitter, emitter.builder.icmp_unsigned("!=", old, ir.Constant(ir.IntType(8), 0)))


def _clear(emitter, node):
    args = _args(node, 2, "__atomic_clear")
    pointer = emitter.expr(args[0])
    if not pointer.ctype.is_pointer:
        raise CompileError("the first argument of '__atomic_clear' must be a pointer", args[0].coord)
    byte = emitter.builder.bitcast(pointer.value, ir.IntType(8).as_pointer())
    atomic_instructions.store(emitter, ir.Constant(ir.IntType(8), 0), byte, _ordering(emitter, args[1], "store"), 1)
    return _VOID


# -------------------------------------------------------------------- fences, queries

def _fence(scope: str | None, name: str):
    """A thread fence orders memory for other threads (on the GPU: the device's); a signal
    fence only stops the compiler moving accesses across it (singlethread scope)."""
    def emit(emitter, node):
        ordering = _ordering(emitter, _args(node, 1, name)[0], "rmw")
        if ordering != "monotonic":
            emitter.builder.fence(ordering, scope or emitter.openmp.atomic_syncscope)
        return _VOID
    return emit


def _sync_synchronize(emitter, node):
    _args(node, 0, "__sync_synchronize")
    emitter.builder.fence("seq_cst", emitter.openmp.atomic_syncscope)
    return _VOID


def _lock_free(name: str):
    """A constant, as GCC folds both queries (sema/constant_eval.py: usable in constant
    expressions too)."""
    def emit(emitter, node):
        args = _args(node, 2, name)
        try:
            value, _ = emitter.constant_value(node)
        except CompileError:
            raise CompileError(f"the size given to '{name}' must be a constant", args[0].coord) from None
        emitter.expr(args[1])
        return RValue(ct.BOOL, ir.Constant(ct.BOOL.ir_type(), value))
    return emit


def _pause(emitter, node):
    module = emitter.builder.module
    pause = module.globals.get("llvm.x86.sse2.pause") or ir.Function(
        module, ir.FunctionType(ir.VoidType(), []), name="llvm.x86.sse2.pause")
    emitter.builder.call(pause, [])
    return _VOID


ATOMIC_BUILTINS = {
    "__atomic_load_n": _load_n,
    "__atomic_load": _load,
    "__atomic_store_n": _store_n,
    "__atomic_store": _store,
    "__atomic_exchange_n": _exchange_n,
    "__atomic_exchange": _exchange,
    "__atomic_compare_exchange_n": _compare_exchange("__atomic_compare_exchange_n", generic=False),
    "__atomic_compare_exchange": _compare_exchange("__atomic_compare_exchange", generic=True),
    **{f"__atomic_fetch_{op}": _fetch(op, f"__atomic_fetch_{op}", False, False) for op in _OPERATIONS},
    **{f"__atomic_{op}_fetch": _fetch(op, f"__atomic_{op}_fetch", True, False) for op in _OPERATIONS},
    **{f"__sync_fetch_and_{op}": _fetch(op, f"__sync_fetch_and_{op}", False, True) for op in _OPERATIONS},
    **{f"__sync_{op}_and_fetch": _fetch(op, f"__sync_{op}_and_fetch", True, True) for op in _OPERATIONS},
    "__sync_val_compare_and_swap": _sync_compare_and_swap("__sync_val_compare_and_swap", False),
    "__sync_bool_compare_and_swap": _sync_compare_and_swap("__sync_bool_compare_and_swap", True),
    "__sync_lock_test_and_set": _sync_lock_test_and_set,
    "__sync_lock_release": _sync_lock_release,
    "__sync_synchronize": _sync_synchronize,
    "__atomic_test_and_set": _test_and_set,
    "__atomic_clear": _clear,
    "__atomic_thread_fence": _fence(None, "__atomic_thread_fence"),
    "__atomic_signal_fence": _fence("singlethread", "__atomic_signal_fence"),
    "__atomic_always_lock_free": _lock_free("__atomic_always_lock_free"),
    "__atomic_is_lock_free": _lock_free("__atomic_is_lock_free"),
    "__builtin_ia32_pause": _pause,
}
