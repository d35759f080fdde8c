"""C11 `_Static_assert(constant-expression, "message");` (6.7.10), at file
and block scope: a false assertion is a located error with its message."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError
from omp2gpu.sema.constant_eval import evaluate_integer
from omp2gpu.sema.literals import string_literal


def check_static_assertion(node: c_ast.StaticAssert, scope, resolver) -> None:
    if evaluate_integer(node.cond, scope, resolver):
        return
    message = node.message
    if message is None:
        raise CompileError("static assertion failed", node.coord)
    text = string_literal(message.value, message.coord).decode("utf-8", "replace")
    raise CompileError(f'static assertion failed: "{text}"', node.coord)
