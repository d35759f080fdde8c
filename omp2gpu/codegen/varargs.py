"""<stdarg.h> for the host (x86-64 System V): va_start/va_end/va_copy are LLVM
intrinsics; va_arg reads the register save area or the overflow area itself,
because llvmlite has no va_arg instruction.

The bundled stdarg.h spells va_arg(ap, T) as `*__omp2gpu_va_arg(ap, (T *)0)`:
the second argument only carries T.
"""

from __future__ import annotations

from llvmlite import ir

from omp2gpu.codegen.ir_types import I8P, I32
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct

GP_REGISTERS_END = 48      # 6 integer registers * 8 bytes
FP_REGISTERS_END = 176     # + 8 vector registers * 16 bytes


def _va_list_pointer(emitter, node):
    """A va_list argument, as the `struct __va_list_tag *` it decays to (any other
    pointer is an error: its record is not one to read)."""
    value = emitter.expr(node)
    pointee = value.ctype.pointee if value.ctype.is_pointer else None
    if getattr(pointee, "tag", None) != "__va_list_tag":
        raise CompileError("expected a va_list", node.coord)
    return value.value


def _intrinsic_call(name, arguments):
    def emit(emitter, node):
        args = node.args.exprs if node.args else []
        if len(args) < arguments:          # `va_end();`: the macro passes what it was given
            raise CompileError(f"too few arguments to function '{node.name.name}'", node.coord)
        pointers = [emitter.builder.bitcast(_va_list_pointer(emitter, a), I8P) for a in args[:arguments]]
        function = emitter.module.module.globals.get(name) or ir.Function(
            emitter.module.module, ir.FunctionType(ir.VoidType(), [I8P] * arguments), name=name)
        emitter.builder.call(function, pointers)
        return RValue(ct.VOID, None)
    return emit


def _va_arg(emitter, node):
    ap_node, type_carrier = node.args.exprs
    target = emitter.expr(type_carrier).ctype.pointee
    b = emitter.builder
    tag = _va_list_pointer(emitter, ap_node)             # struct __va_list_tag *
    floating = target.is_floating
    if target == ct.LONG_DOUBLE:
        return RValue(ct.PointerType(target), _from_overflow_area(b, tag, target))
    if not (target.is_scalar and target.size <= 8):
        raise CompileError(f"va_arg of type '{target}' is not supported", node.coord)
    index, limit, step = (1, FP_REGISTERS_END, 16) if floating else (0, GP_REGISTERS_END, 8)
    offset_slot = b.gep(tag, [ir.Constant(I32, 0), ir.Constant(I32, index)])
    offset = b.load(offset_slot)
    in_registers = b.icmp_unsigned("<=", offset, ir.Constant(I32, limit - step))
    register_block, memory_block = emitter.new_block("va.reg"), emitter.new_block("va.mem")
    done = emitter.new_block("va.done")
    b.cbranch(in_registers, register_block, memory_block)
    b.position_at_end(register_block)
    save_area = b.load(b.gep(tag, [ir.Constant(I32, 0), ir.Constant(I32, 3)]))
    from_register = b.gep(save_area, [b.zext(offset, ir.IntType(64))])
    b.store(b.add(offset, ir.Constant(I32, step)), offset_slot)
    b.branch(done)
    b.position_at_end(memory_block)
    overflow_slot = b.gep(tag, [ir.Constant(I32, 0), ir.Constant(I32, 2)])
    from_memory = b.load(overflow_slot)
    b.store(b.gep(from_memory, [ir.Constant(ir.IntType(64), 8)]), overflow_slot)
    b.branch(done)
    b.position_at_end(done)
    address = b.phi(I8P)
    address.add_incoming(from_register, register_block)
    address.add_incoming(from_memory, memory_block)
    return RValue(ct.PointerType(target), b.bitcast(address, target.ir_type().as_pointer()))


def _from_overflow_area(b, tag, target):
    """An argument of class MEMORY (long double): always on the stack, at its own
    alignment (System V ABI 3.5.7, va_arg step 7)."""
    overflow_slot = b.gep(tag, [ir.Constant(I32, 0), ir.Constant(I32, 2)])
    address = b.ptrtoint(b.load(overflow_slot), ir.IntType(64))
    aligned = b.and_(b.add(address, ir.Constant(ir.IntType(64), target.align - 1)),
                     ir.Constant(ir.IntType(64), -target.align))
    following = b.add(aligned, ir.Constant(ir.IntType(64), target.size))
    b.store(b.inttoptr(following, I8P), overflow_slot)
    return b.inttoptr(aligned, target.ir_type().as_pointer())


VARARG_BUILTINS = {
    "__builtin_va_start": _intrinsic_call("llvm.va_start", 1),
    "__builtin_va_end": _intrinsic_call("llvm.va_end", 1),
    "__builtin_va_copy": _intrinsic_call("llvm.va_copy", 2),
    "__omp2gpu_va_arg": _va_arg,
}
