"""Hand-built llvmlite.ir modules the host target's tests share."""

from __future__ import annotations

import llvmlite.ir as ir

I8, I32, DOUBLE = ir.IntType(8), ir.IntType(32), ir.DoubleType()
CHAR_P = I8.as_pointer()


def cstring(module: ir.Module, name: str, text: str) -> ir.GlobalVariable:
    data = bytearray(text.encode() + b"\0")
    var = ir.GlobalVariable(module, ir.ArrayType(I8, len(data)), name)
    var.initializer = ir.Constant(var.type.pointee, data)
    var.global_constant = True
    return var


def printf_declaration(module: ir.Module) -> ir.Function:
    return ir.Function(module, ir.FunctionType(I32, [CHAR_P], var_arg=True), "printf")


def argv_echo_module() -> ir.Module:
    """int main(int argc, char **argv): prints argc and every argv[i], returns argc + 40."""
    m = ir.Module("argv_echo")
    printf = printf_declaration(m)
    fmt_argc, fmt_arg = cstring(m, "fmt_argc", "argc=%d\n"), cstring(m, "fmt_arg", "argv[%d]=%s\n")
    main = ir.Function(m, ir.FunctionType(I32, [I32, CHAR_P.as_pointer()]), "main")
    argc, argv = main.args
    entry, loop, done = (main.append_basic_block(n) for n in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    b.call(printf, [b.bitcast(fmt_argc, CHAR_P), argc])
    b.branch(loop)
    b.position_at_end(loop)
    i = b.phi(I32)
    i.add_incoming(I32(0), entry)
    b.call(printf, [b.bitcast(fmt_arg, CHAR_P), i, b.load(b.gep(argv, [i]))])
    nxt = b.add(i, I32(1))
    i.add_incoming(nxt, loop)
    b.cbranch(b.icmp_signed("<", nxt, argc), loop, done)
    b.position_at_end(done)
    b.ret(b.add(argc, I32(40)))
    return m


def straight_line(m: ir.Module, name: str, size: int, linkage: str = "internal") -> ir.Function:
    """int name(int x): `size` instructions of arithmetic."""
    function = ir.Function(m, ir.FunctionType(I32, [I32]), name)
    function.linkage = linkage
    b = ir.IRBuilder(function.append_basic_block())
    value = function.args[0]
    for k in range(size - 1):
        value = b.add(value, I32(k))
    b.ret(value)
    return function


def caller(m: ir.Module, name: str, callees) -> ir.Function:
    function = ir.Function(m, ir.FunctionType(I32, []), name)
    b = ir.IRBuilder(function.append_basic_block())
    total = I32(0)
    for callee in callees:
        total = b.add(total, b.call(callee, [I32(1)]))
    b.ret(total)
    return function
