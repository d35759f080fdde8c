"""The language rules gcc's code-changing -f flags choose (-fwrapv, -ffast-math,
-fno-math-errno, -fno-strict-aliasing), as one record each module emitter carries;
codegen asks it how to emit an operation.
"""

from __future__ import annotations

from dataclasses import dataclass

# The C library's math functions that set errno and nothing else a program sees: under
# -fno-math-errno (and -ffast-math) their declarations read and write no memory, so
# LLVM may hoist, vectorise and fold them, and turn sqrt into the instruction.
MATH_FUNCTIONS = frozenset(
    name + suffix
    for name in ("sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "hypot",
                 "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh",
                 "acosh", "atanh", "erf", "erfc", "fmod", "remainder", "fabs", "floor", "ceil", "trunc",
                 "round", "rint", "nearbyint", "fmin", "fmax", "fma", "copysign", "ldexp")
    for suffix in ("", "f", "l"))


@dataclass(frozen=True)
class CodeRules:
    wrapv: bool = False          # -fwrapv: signed + - * wrap (no nsw), as gcc defines them then
    fast_math: bool = False      # -ffast-math: LLVM's `fast` flags on floating-point operations
    math_errno: bool = True      # -fno-math-errno: the math functions set no errno
    # C99 6.5p7: an object is accessed only through its own type's lvalues (alias_types.py:
    # TBAA tags); gcc's default at -O2 and above, -fno-strict-aliasing turns it off. The
    # runtime's own C files are compiled without it.
    strict_aliasing: bool = True
    # A target region's loads of mapped sections under a branch made before it, each
    # arm into copies (sema/speculation/); from -O1, -fno-speculate-mapped-loads
    # turns it off.
    speculate_loads: bool = True

    def signed_flags(self) -> tuple[str, ...]:
        """Flags of a signed integer + - * of int's rank or more: nsw, its overflow being
        undefined (C99 6.5p5), unless -fwrapv defines it to wrap."""
        return () if self.wrapv else ("nsw",)

    def float_flags(self) -> tuple[str, ...]:
        return ("fast",) if self.fast_math else ()

    def math_is_pure(self) -> bool:
        return self.fast_math or not self.math_errno


DEFAULT = CodeRules()
# The runtime's own C files (runtime/host, runtime/device, the CPU device's): compiled
# without strict aliasing, as code that keeps words and pointers in shared storage.
RUNTIME = CodeRules(strict_aliasing=False)


def mark_math_functions(module, rules: CodeRules) -> None:
    """Under -fno-math-errno: the module's declarations of the math functions read and
    write no memory (Clang's attribute for them then)."""
    if not rules.math_is_pure():
        return
    for function in module.functions:
        if function.is_declaration and function.name in MATH_FUNCTIONS:
            function.attributes.add("readnone")
            function.attributes.add("nounwind")
