"""The function a Python call of a loaded C function makes (omp2gpu.load): one per external
function, `__omp2gpu_py.<name>`, added to the library's host module, so that a call crosses
from Python to C once, with one argument. A ctypes call costs about half a microsecond
and each argument ctypes converts a tenth more; a call with arrays made three calls (the
runtime's begin, the function, the runtime's end), the arrays' records packed in Python:

    i32 @"__omp2gpu_py.f"(ptr %frame, ptr %result)

The frame holds f's arguments, then one extent per pointer parameter, packed without
padding (Python's struct module, "=": frame_field_bytes gives each its bytes): an extent
is the bytes of the array passed for its parameter, negative for device memory (lent to
the present table for the call), 0 for none. The wrapper writes the records
runtime/offload/python_calls.c takes (address, bytes, the C parameter's name, device or
not) for the nonzero extents, then:

    records     __omp2gpu_call_begin(count, records): its refusal (< 0) returned, f not
                called; else f, then __omp2gpu_call_end, whose answer (nonzero: an error is
                pending) is returned
    none        f, then whether an error is pending (__omp2gpu_error_pending)

f's result, unless void, is stored at %result."""

from __future__ import annotations

import llvmlite.binding as llvm

_PREFIX = "__omp2gpu_py."
# Parameters passed in a way a wrapper could not pass on as it received them.
_UNFORWARDABLE = {b"byval", b"sret", b"inalloca", b"preallocated", b"inreg", b"byref", b"swiftself",
                  b"swifterror", b"swiftasync", b"nest"}
_EXTENSIONS = (b"signext", b"zeroext")


def wrapper_name(function: str) -> str:
    return _PREFIX + function


def add_wrappers(module: llvm.ModuleRef, prototypes: dict) -> list[str]:
    """Link a wrapper for each function of `prototypes` (name -> codegen Prototype: its C
    parameters' types and names; defined in `module`) into `module`; the names of the
    functions wrapped (one whose parameters cannot be forwarded has no wrapper)."""
    definitions, wrapped = [], []
    for name, prototype in prototypes.items():
        text = _wrapper(module.get_function(name), prototype)
        if text is not None:
            definitions.append(text)
            wrapped.append(name)
    if definitions:
        ir = "\n".join([f"{RECORD} = type {{ i64, i64, ptr, i64 }}",
                        "declare i32 @__omp2gpu_call_begin(i32, ptr)", "declare i32 @__omp2gpu_call_end(i32, ptr)",
                        "@__omp2gpu_error_pending = external global i32", *definitions])
        wrappers = llvm.parse_assembly(ir)
        wrappers.triple, wrappers.data_layout = module.triple, module.data_layout
        module.link_in(wrappers)
    return wrapped


RECORD = "%__omp2gpu_call_array"        # python_calls.c's struct call_array


def _quoted(name: str) -> str:
    return '@"' + name.replace("\\", "\\5C").replace('"', "\\22") + '"'


def _spelled(ir_type) -> bool:
    """Whether the type's text names it in IR (a named struct's is its definition): Python
    passes no struct by value anyway."""
    return "=" not in str(ir_type)


def _parameters(function: llvm.ValueRef) -> list[str] | None:
    """Each parameter's type with its extension attribute; None where one cannot be forwarded."""
    parameters = []
    for argument in function.arguments:
        attributes = set(argument.attributes)
        if attributes & _UNFORWARDABLE or not _spelled(argument.type):
            return None
        extension = next((a.decode() + " " for a in _EXTENSIONS if a in attributes), "")
        parameters.append(f"{argument.type} {extension}".rstrip())
    return parameters


def frame_field_bytes(ctype) -> int:
    """The bytes of a parameter of C type `ctype` in a call's frame: its size (a long double
    is its 16 bytes, as ctypes gives them; a complex its two parts)."""
    return ctype.size


def _wrapper(function: llvm.ValueRef, prototype) -> str | None:
    ftype = function.global_value_type
    parameters = _parameters(function)
    if parameters is None or ftype.is_function_vararg or not _spelled(ftype.get_function_return()):
        return None
    names, ctypes = prototype.parameter_names, prototype.ctype.params
    types = [str(argument.type) for argument in function.arguments]
    if len(ctypes) != len(types):            # a K&R definition's callers see no parameters
        return None
    pointers = [i for i, t in enumerate(types) if t == "ptr"]
    wrapper = wrapper_name(function.name)
    result = str(ftype.get_function_return())
    declaration = f"declare {result} {_quoted(function.name)}({', '.join(parameters)})"     # f, to call
    constants = [_name_constant(wrapper, j, (names[i] if i < len(names) else None) or f"#{i + 1}")
                 for j, i in enumerate(pointers)]
    lines = [f"define i32 {_quoted(wrapper)}(ptr %frame, ptr %result) {{", "entry:"]
    offset = 0
    for i, ir_type in enumerate(types):                  # f's arguments, read where Python packed them
        lines += [f"  %at{i} = getelementptr i8, ptr %frame, i64 {offset}",
                  f"  %p{i} = load {ir_type}, ptr %at{i}, align 1"]
        offset += frame_field_bytes(ctypes[i])
    for j in range(len(pointers)):
        lines += [f"  %extent_at{j} = getelementptr i8, ptr %frame, i64 {offset + 8 * j}",
                  f"  %e{j} = load i64, ptr %extent_at{j}, align 1"]
    if pointers:
        lines.append(f"  %records = alloca [{len(pointers)} x {RECORD}]")
    count = "0"
    for j, i in enumerate(pointers):
        lines += _record(j, f"%p{i}", count, _quoted(f"{wrapper}.name{j}"))
        count = f"%count{j}"
    passed = ", ".join(f"{p} %p{i}" for i, p in enumerate(parameters))
    lines += [f"  %lent = icmp ne i32 {count}, 0",
              "  br i1 %lent, label %begin, label %call",
              "begin:",
              f"  %begun = call i32 @__omp2gpu_call_begin(i32 {count}, ptr {'%records' if pointers else 'null'})",
              "  %refused = icmp ne i32 %begun, 0",
              "  br i1 %refused, label %refuse, label %call",
              "refuse:",
              "  ret i32 %begun",
              "call:"]
    if result == "void":
        lines.append(f"  call void {_quoted(function.name)}({passed})")
    else:
        lines += [f"  %value = call {result} {_quoted(function.name)}({passed})",
                  f"  store {result} %value, ptr %result"]
    lines += ["  br i1 %lent, label %end, label %unlent",
              "end:",
              f"  %ended = call i32 @__omp2gpu_call_end(i32 {count}, ptr {'%records' if pointers else 'null'})",
              "  ret i32 %ended",
              "unlent:",
              "  %pending = load i32, ptr @__omp2gpu_error_pending",
              "  ret i32 %pending",
              "}"]
    return "\n".join([declaration, *constants, *lines]) + "\n"


def _name_constant(wrapper: str, j: int, name: str) -> str:
    data = name.encode() + b"\0"
    text = "".join(chr(byte) if 32 <= byte < 127 and byte not in b'"\\' else f"\\{byte:02X}" for byte in data)
    return f'{_quoted(f"{wrapper}.name{j}")} = private unnamed_addr constant [{len(data)} x i8] c"{text}"'


def _record(j: int, pointer: str, count: str, name: str) -> list[str]:
    """The record of pointer parameter j (its extent %e{j}) written at index `count` of
    %records; %count{j}: `count`, plus one where the extent is nonzero (a record written
    for a zero extent is overwritten by the next, or lies past the count)."""
    return [f"  %slot{j} = getelementptr [0 x {RECORD}], ptr %records, i32 0, i32 {count}",
            f"  %address{j} = ptrtoint ptr {pointer} to i64",
            f"  store i64 %address{j}, ptr %slot{j}",
            f"  %device{j} = icmp slt i64 %e{j}, 0",
            f"  %negated{j} = sub i64 0, %e{j}",
            f"  %bytes{j} = select i1 %device{j}, i64 %negated{j}, i64 %e{j}",
            f"  %bytes_at{j} = getelementptr {RECORD}, ptr %slot{j}, i32 0, i32 1",
            f"  store i64 %bytes{j}, ptr %bytes_at{j}",
            f"  %name_at{j} = getelementptr {RECORD}, ptr %slot{j}, i32 0, i32 2",
            f"  store ptr {name}, ptr %name_at{j}",
            f"  %on_device{j} = zext i1 %device{j} to i64",
            f"  %device_at{j} = getelementptr {RECORD}, ptr %slot{j}, i32 0, i32 3",
            f"  store i64 %on_device{j}, ptr %device_at{j}",
            f"  %written{j} = icmp ne i64 %e{j}, 0",
            f"  %one{j} = zext i1 %written{j} to i32",
            f"  %count{j} = add i32 {count}, %one{j}"]
