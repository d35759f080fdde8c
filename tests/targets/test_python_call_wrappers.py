"""targets/python_call_wrappers: the one function a Python call of a loaded C function
makes: the function's parameters as they are, then an extent per pointer parameter, then
where its result goes; the arrays' records written for the nonzero extents only."""

from __future__ import annotations

from types import SimpleNamespace

import llvmlite.binding as llvm

from omp2gpu.targets import python_call_wrappers

MODULE = """
%struct.pair = type { i32, double }
define void @scale(i32 signext %n, ptr %x, double %a, ptr %y) { ret void }
define double @first(ptr %x) { %v = load double, ptr %x
  ret double %v }
define i32 @by_value(%struct.pair %p) { ret i32 0 }
"""


def _wrapped(*names):
    module = llvm.parse_assembly(MODULE)
    prototypes = {name: SimpleNamespace(parameter_names=parameters) for name, parameters in names}
    return module, python_call_wrappers.add_wrappers(module, prototypes)


def test_a_wrapper_takes_the_parameters_then_the_extents_then_the_result():
    module, added = _wrapped(("scale", ["n", "x", "a", "y"]), ("first", ["x"]))
    assert added == ["__omp2gpu_py.scale", "__omp2gpu_py.first"]
    module.verify()
    scale = module.get_function("__omp2gpu_py.scale")
    assert [str(a.type) for a in scale.arguments] == ["i32", "ptr", "double", "ptr", "i64", "i64", "ptr"]
    assert b"signext" in list(scale.arguments)[0].attributes      # passed on as received
    text = str(module)
    assert 'c"x\\00"' in text and 'c"y\\00"' in text                # the records name the parameters
    assert "store double %value, ptr %result" in str(module.get_function("__omp2gpu_py.first"))


def test_a_struct_by_value_has_no_wrapper():
    _, added = _wrapped(("by_value", ["p"]))
    assert added == []
