"""codegen/openmp/runtime_entries.py: every entry point the table names is one its runtime's
C sources define (a misspelt name would otherwise be a link error in some program), and
an entry is declared once per module and called with its signature."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from llvmlite import ir

from omp2gpu.codegen.ir_types import I8P, I32
from omp2gpu.codegen.openmp.runtime_entries import (
    CpuDeviceRuntime,
    DeviceRuntime,
    HostRuntime,
    OffloadRuntime,
    OmpApi,
    RuntimeFunction,
)

RUNTIME = Path(__file__).resolve().parents[2] / "runtime"
# runtime class -> the folders whose C files define its entry points
SOURCES = {DeviceRuntime: ["device"], CpuDeviceRuntime: ["cpu_device"], HostRuntime: ["host"],
           OffloadRuntime: ["offload"], OmpApi: ["host", "device"]}


def entries(runtime) -> list[RuntimeFunction]:
    return [value for value in vars(runtime).values() if isinstance(value, RuntimeFunction)]


def defined_names(folder: str) -> set[str]:
    """Names a C file of the folder defines: at the start of a line, a type, the name, `(`;
    or made by a macro call at the start of a line (`STATIC_INIT(name, T)`)."""
    names = set()
    for source in (RUNTIME / folder).glob("*.c"):
        text = source.read_text()
        names |= set(re.findall(r"^[A-Za-z_][\w \*]*?\b(\w+)\s*\([^;]*?\)\s*\{", text, re.M | re.S))
        names |= set(re.findall(r"^[A-Z_]+\((\w+),", text, re.M))
    return names


@pytest.mark.parametrize("runtime", list(SOURCES), ids=lambda runtime: runtime.__name__)
def test_every_entry_is_defined_by_its_runtime(runtime):
    defined = set().union(*(defined_names(folder) for folder in SOURCES[runtime]))
    names = {entry.name for entry in entries(runtime)}
    assert names and not names - defined, names - defined


def test_an_entry_is_declared_once_and_called_with_its_signature():
    module = ir.Module("m")
    function = ir.Function(module, ir.FunctionType(ir.VoidType(), []), name="f")
    builder = ir.IRBuilder(function.append_basic_block())
    HostRuntime.error_directive.call(builder, [ir.Constant(I8P, None), ir.Constant(I32, 1)])
    HostRuntime.error_directive.call(builder, [ir.Constant(I8P, None), ir.Constant(I32, 0)])
    declared = module.globals[HostRuntime.error_directive.name]
    assert HostRuntime.error_directive.declare(module) is declared
    assert str(declared.function_type) == "void (i8*, i32)"
    with pytest.raises(TypeError):      # a wrong argument is a compile-time error, not bad IR
        HostRuntime.error_directive.call(builder, [ir.Constant(I32, 0), ir.Constant(I32, 0)])
