"""printf on the device: CUDA's `int vprintf(const char *format, void *arguments)`,
with the arguments packed into a buffer after the default argument promotions,
each at its natural alignment (the layout CUDA's printf expects).

fprintf to stdout or stderr is the same printf: the GPU has one output stream, which
the driver copies to the program's stdout (an error message printed to stderr in a
kernel shows there). A region with an fprintf to any other FILE runs on the host
(region_facts host_file_output): a GPU cannot write a host file (it was an unresolved
`fprintf` when the driver loaded the code)."""

from __future__ import annotations

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen.conversions import convert, default_argument_promotion
from omp2gpu.codegen.ir_types import I8P
from omp2gpu.codegen.openmp.plan.region_facts import writes_a_host_file
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


def emit_printf(emitter, node) -> RValue:
    args = node.args.exprs if node.args else []
    if not args:
        raise CompileError("printf needs a format string", node.coord)
    builder = emitter.builder
    format_value = emitter.expr_as(args[0], ct.CHAR_PTR)
    values = []
    for arg in args[1:]:
        value = emitter.expr(arg)
        promoted = default_argument_promotion(value.ctype)
        if not promoted.is_scalar:
            raise CompileError("only scalar arguments can be printed on the device", arg.coord)
        values.append(convert(builder, value.value, value.ctype, promoted, arg.coord))
    if values:
        layout = ir.LiteralStructType([v.type for v in values])
        buffer = emitter.alloca_ir(layout, "printf.args")
        for index, value in enumerate(values):
            slot = builder.gep(buffer, [ir.Constant(ir.IntType(32), 0), ir.Constant(ir.IntType(32), index)])
            builder.store(value, slot)
        packed = builder.bitcast(buffer, I8P)
    else:
        packed = ir.Constant(I8P, None)
    module = emitter.module.module
    vprintf = module.globals.get("vprintf") or ir.Function(
        module, ir.FunctionType(ir.IntType(32), [I8P, I8P]), name="vprintf")
    return RValue(ct.INT, builder.call(vprintf, [builder.bitcast(format_value, I8P), packed]))


def emit_fprintf(emitter, node) -> RValue:
    if writes_a_host_file(node):            # region_facts kept such a region on the host
        raise CompileError("fprintf on the GPU writes to stdout or stderr only (through CUDA's printf, "
                           "to the program's stdout)", node.coord)
    rest = node.args.exprs[1:]
    return emit_printf(emitter, c_ast.FuncCall(node.name, c_ast.ExprList(list(rest), node.coord), node.coord))
