"""Generic C -> LLVM IR code generation (llvmlite.ir).

This package knows nothing of OpenMP: at an OmpConstruct it calls the scheme
object it was given (codegen.openmp), as Clang's CodeGen calls its OpenMPRuntime.
"""
