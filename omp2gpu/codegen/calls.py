"""Function calls (C99 6.5.2.2): builtins first, then arguments converted as to the
prototype's parameters or by default argument promotion, and calls the active OpenMP
scheme inlines.
Mixed into FunctionEmitter through ExpressionEmitter (expressions.py).
"""

from __future__ import annotations

from dataclasses import replace

from llvmlite import ir
from pycparser import c_ast

from omp2gpu.codegen import complex_values
from omp2gpu.codegen.conversions import convert, default_argument_promotion
from omp2gpu.codegen.values import RValue
from omp2gpu.diagnostics import CompileError
from omp2gpu.sema import ctypes as ct


class CallEmitter:
    """The FuncCall expression."""

    def _expr_FuncCall(self, node):
        if isinstance(node.name, c_ast.ID) and self.builtins.handles(node.name.name, self):
            return self.builtins.emit(node, self)
        name = node.name
        appended = 0                            # append_args' interop arguments (dispatch.py)
        if isinstance(name, c_ast.ID):          # OpenMP 5.x declare variant: this device's choice
            variant = self.openmp.call_variant(self, node)
            if variant is not None:
                name = c_ast.ID(variant, name.coord)
                appended = len(self.openmp.declared_variant(self, node).appended)
        callee = self.expr(name)
        if not (callee.ctype.is_pointer and callee.ctype.pointee.is_function):
            raise CompileError("called object is not a function or function pointer", node.coord)
        full_type = callee.ctype.pointee
        ftype = full_type           # the base function's parameters: append_args' come after them
        if appended:
            ftype = replace(full_type, params=full_type.params[:len(full_type.params) - appended])
        if ftype.result.is_struct and not ftype.result.is_complete:
            raise CompileError(f"invalid use of undefined type '{ftype.result}'", node.coord)
        args = node.args.exprs if node.args else []
        if not ftype.unprototyped:
            if len(args) < len(ftype.params) or (len(args) > len(ftype.params) and not ftype.variadic):
                raise CompileError(f"too {'few' if len(args) < len(ftype.params) else 'many'} "
                                   f"arguments to function call, expected {len(ftype.params)}, "
                                   f"have {len(args)}", node.coord)
        values = []
        for position, arg in enumerate(args):
            if position < len(ftype.params):
                values.append(self.expr_as(arg, ftype.params[position]))
            else:
                value = self.expr(arg)
                if value.ctype.is_void:
                    raise CompileError("invalid use of void expression", arg.coord)
                if value.ctype.is_complex:
                    raise CompileError("a complex argument to a variadic function's '...' is not "
                                       "supported (pass its parts)", arg.coord)
                promoted = default_argument_promotion(value.ctype, arg.coord)
                values.append(convert(self.builder, value.value, value.ctype, promoted, arg.coord))
        finish = None
        if name is not node.name:               # a variant: its adjust_args and append_args (dispatch.py)
            values, finish = self.openmp.variant_arguments(self, node, values)
            ftype = full_type
        definition = self.openmp.inline_definition(self, name.name) \
            if isinstance(name, c_ast.ID) else None
        if definition is not None:
            inlined = self.inline_call(definition, ftype, values)
            if finish is not None:
                finish()
            return inlined
        function = callee.value
        split = ftype.split_complex_parameter() if isinstance(function, ir.Function) else None
        if split is not None and self.module.has_x86_fp80 and not self._defined_here(function.name):
            raise CompileError(f"argument {split + 1} (double complex) of a call to the external function "
                               f"'{function.name}' comes after 7 floating-point registers' worth of "
                               "arguments: the x86-64 ABI then passes it in memory, which is not "
                               "supported here", args[split].coord)
        if ftype.unprototyped and isinstance(function, ir.Function) and len(values) != len(ftype.params):
            fn_type = ir.FunctionType(ct.abi_ir_type(ftype.result), [v.type for v in values])
            function = self.builder.bitcast(function, fn_type.as_pointer())
        values = [complex_values.to_abi(self.builder, value, param)
                  for value, param in zip(values, ftype.params)] + values[len(ftype.params):]
        result = self.builder.call(function, values)
        if finish is not None:
            finish()
        if ftype.result.is_void:
            return RValue(ftype.result, None)
        return RValue(ftype.result, complex_values.from_abi(self.builder, result, ftype.result))

    def _defined_here(self, name: str) -> bool:
        """Whether this translation unit defines function `name` (the x86-64 ABI then
        does not matter: both sides of the call are compiled here)."""
        return self.module.definition_of(name) is not None
