"""The LLVM IR types every code generator names, made once here and imported.

C types make their own IR types (sema/ctypes.py's ir_type); these are the fixed ones the
generated code itself uses: flags and counters, runtime entry points' parameters, byte
addresses. (targets/nvptx/intrinsics.py, a layer below codegen, keeps its own two.)
"""

from __future__ import annotations

from llvmlite import ir

I1 = ir.IntType(1)          # a branch condition
I8 = ir.IntType(8)
I32 = ir.IntType(32)
I64 = ir.IntType(64)
VOID = ir.VoidType()
I8P = I8.as_pointer()       # void *, char *: the address of bytes
I64P = I64.as_pointer()
