"""targets/python_call_wrappers: the one function a Python call of a loaded C function
makes: the function's parameters as they are, then an extent per pointer parameter, then
where its result goes; the arrays' records written for the nonzero extents only."""

from __future__ import annotations

import re
from types import SimpleNamespace

import llvmlite.binding as llvm

from omp2gpu.sema import ctypes as ct
from omp2gpu.targets import python_call_wrappers

MODULE = """
%struct.pair = type { i32, double }
define void @scale(i32 signext %n, ptr %x, double %a, ptr %y) { ret void }
define double @first(ptr %x) { %v = load double, ptr %x
  ret double %v }
define i32 @by_value(%struct.pair %p) { ret i32 0 }
"""


POINTER = ct.PointerType(ct.DOUBLE)
PROTOTYPES = {"scale": (["n", "x", "a", "y"], [ct.INT, POINTER, ct.DOUBLE, POINTER]),
              "first": (["x"], [POINTER]), "by_value": (["p"], [ct.INT])}


def _wrapped(*names):
    module = llvm.parse_assembly(MODULE)
    prototypes = {name: SimpleNamespace(parameter_names=PROTOTYPES[name][0],
                                        ctype=SimpleNamespace(params=PROTOTYPES[name][1])) for name in names}
    return module, python_call_wrappers.add_wrappers(module, prototypes)


def test_a_wrapper_reads_the_arguments_then_the_extents_from_the_frame():
    module, added = _wrapped("scale", "first")
    assert added == ["scale", "first"]
    module.verify()
    scale = str(module.get_function("__omp2gpu_py.scale"))
    assert [str(a.type) for a in module.get_function("__omp2gpu_py.scale").arguments] == ["ptr", "ptr"]
    # n at 0 (4 bytes), x at 4, a at 12, y at 20, the extents of x and y at 28 and 36: no padding
    offsets = [int(o) for o in re.findall(r"getelementptr i8, ptr %frame, i64 (\d+)", scale)]
    assert offsets == [0, 4, 12, 20, 28, 36], scale
    assert "call void @scale(i32 signext %p0, ptr %p1, double %p2, ptr %p3)" in scale   # passed on as f takes them
    text = str(module)
    assert 'c"x\\00"' in text and 'c"y\\00"' in text                # the records name the parameters
    assert "store double %value, ptr %result" in str(module.get_function("__omp2gpu_py.first"))


def test_a_struct_by_value_has_no_wrapper():
    _, added = _wrapped("by_value")
    assert added == []
