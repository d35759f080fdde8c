"""C library math on the device: math.h (and abs/labs/llabs) names -> the
libdevice functions implementing them, with their signatures.

Signatures are written as "ret(param,...)" over f64, f32, i32, i64, ptr and
void. The C prototypes in runtime/include/math.h have the same IR types
(long and long long are i64 on the device as on the host), so a call site
can declare a libdevice function with the C function's type.
"""

from __future__ import annotations

from llvmlite import ir

# Double-precision functions by signature, one name per C function; each has
# a float twin named with an "f" suffix (acos -> acosf) on both sides and
# f32 in place of f64.
_BY_SIGNATURE = {
    "f64(f64)": "acos asin atan cos sin tan acosh asinh atanh cosh sinh tanh "
                "exp exp2 expm1 exp10 log log10 log1p log2 logb cbrt fabs sqrt "
                "erf erfc lgamma tgamma ceil floor nearbyint rint round trunc",
    "f64(f64,f64)": "atan2 fmod remainder copysign nextafter fdim fmax fmin hypot pow",
    "f64(f64,f64,f64)": "fma",
    "f64(f64,i32)": "ldexp scalbn",
    "f64(f64,ptr)": "frexp modf",
    "f64(f64,f64,ptr)": "remquo",
    "f64(ptr)": "nan",
    "i32(f64)": "ilogb",
    "i64(f64)": "llrint llround",
    "void(f64,ptr,ptr)": "sincos",
}

# C functions whose libdevice name is not __nv_<name>: long is 64-bit, so
# lrint/lround are llrint/llround; the classification functions <math.h>'s
# macros call; abs and friends from <stdlib.h>.
_RENAMED = {
    "lrint": ("__nv_llrint", "i64(f64)"), "lrintf": ("__nv_llrintf", "i64(f32)"),
    "lround": ("__nv_llround", "i64(f64)"), "lroundf": ("__nv_llroundf", "i64(f32)"),
    "__isnan": ("__nv_isnand", "i32(f64)"), "__isnanf": ("__nv_isnanf", "i32(f32)"),
    "__isinf": ("__nv_isinfd", "i32(f64)"), "__isinff": ("__nv_isinff", "i32(f32)"),
    "__finite": ("__nv_isfinited", "i32(f64)"), "__finitef": ("__nv_finitef", "i32(f32)"),
    "__signbit": ("__nv_signbitd", "i32(f64)"), "__signbitf": ("__nv_signbitf", "i32(f32)"),
    "abs": ("__nv_abs", "i32(i32)"), "labs": ("__nv_llabs", "i64(i64)"), "llabs": ("__nv_llabs", "i64(i64)"),
}
# Not on the device: scalbln (libdevice's scalbn takes an int exponent) and
# __fpclassify (libdevice has none).


def _build_tables() -> tuple[dict[str, str], dict[str, str]]:
    math, signatures = {}, {}
    for signature, names in _BY_SIGNATURE.items():
        for name in names.split():
            for c_name, sig in ((name, signature), (name + "f", signature.replace("f64", "f32"))):
                math[c_name] = f"__nv_{c_name}"
                signatures[f"__nv_{c_name}"] = sig
    for c_name, (nv_name, signature) in _RENAMED.items():
        math[c_name] = nv_name
        signatures[nv_name] = signature
    return math, signatures


# C name -> libdevice name ("sqrt" -> "__nv_sqrt").
# libdevice name -> signature ("__nv_sqrt" -> "f64(f64)").
LIBDEVICE_MATH, LIBDEVICE_SIGNATURES = _build_tables()

_IR_TYPES = {"f64": ir.DoubleType(), "f32": ir.FloatType(), "i32": ir.IntType(32),
             "i64": ir.IntType(64), "ptr": ir.PointerType(), "void": ir.VoidType()}


def libdevice_function_type(nv_name: str) -> ir.FunctionType:
    """The IR type of libdevice function `nv_name`."""
    signature = LIBDEVICE_SIGNATURES[nv_name]
    result, params = signature[:-1].split("(")
    return ir.FunctionType(_IR_TYPES[result], [_IR_TYPES[p] for p in params.split(",") if p])


def declare_math_function(module: ir.Module, c_name: str) -> ir.Function:
    """The declaration of the libdevice function implementing C's `c_name`."""
    nv_name = LIBDEVICE_MATH[c_name]
    existing = module.globals.get(nv_name)
    if existing is not None:
        return existing
    return ir.Function(module, libdevice_function_type(nv_name), name=nv_name)
