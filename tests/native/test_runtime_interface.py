"""The C offload runtime (runtime/offload/) and the compiler agree on their interface:
every entry point offload/abi.py lists is defined by libomp2gpu, and the map-type bits,
the schemes' codes and the image table's version that offload.h writes down are the ones
the compiler emits (offload/abi.py, native_image.py). A copy that drifts fails here."""

from __future__ import annotations

import re
import shutil
import subprocess

import llvmlite.binding as llvm
import pytest

from omp2gpu import native_image
from omp2gpu.offload import abi
from omp2gpu.sema.requires import USM_HEAP_FUNCTIONS
from omp2gpu.targets import host, native_runtime

pytestmark = pytest.mark.skipif(shutil.which("cc") is None and shutil.which("gcc") is None,
                                reason="libomp2gpu is built by the system's C compiler")


def header_defines() -> dict[str, int]:
    text = (native_runtime.build().header_dir / "offload.h").read_text()
    defines = {name: int(value, 0) for name, value in re.findall(r"#define (\w+) (0x[0-9a-fA-F]+|\d+)\b", text)}
    enums = {name: int(value) for name, value in re.findall(r"\b(SCHEME_\w+) = (\d+)", text)}
    return {**defines, **enums}


def test_every_entry_point_is_defined_by_the_runtime():
    names = {value for name, value in vars(abi).items() if name.startswith("ENTRY_")}
    exported = subprocess.run(["nm", "-D", "--defined-only", str(native_runtime.build().shared)],
                              capture_output=True, text=True, check=True).stdout.split()
    assert names and not names - set(exported), names - set(exported)
    assert native_image.REGISTER in exported
    python_api = {"__omp2gpu_raise_errors", "__omp2gpu_take_error", "__omp2gpu_error_pending",
                  "__omp2gpu_call_begin", "__omp2gpu_call_end", "__omp2gpu_call_why", "__omp2gpu_wait_stream",
                  "__omp2gpu_default_device_name", "__omp2gpu_profile_json"}     # native_link.py's ctypes calls
    assert python_api <= set(exported), python_api - set(exported)
    assert abi.STAGING_DEVICE_MEMORY in exported          # runtime/mpi/device_buffers.c's call
    wrappers = {f"__wrap_{name}" for name in abi.RUN_AHEAD_WAITS}   # the waits linked with --wrap
    assert wrappers <= set(exported), wrappers - set(exported)


def test_map_bits_match_the_abi():
    defines = header_defines()
    for member in abi.MapType:
        if member.value:
            assert defines[f"MAP_{member.name}"] == member.value, member
    assert defines["MAP_MEMBER_OF_SHIFT"] == abi.MEMBER_OF_SHIFT
    assert defines["CPU_MAX_TEAM"] == abi.CPU_MAX_TEAM
    assert defines["TASK_MAY_RUN_AHEAD"] == abi.TASK_MAY_RUN_AHEAD
    assert (defines["DEVICE_CODE_HOST"], defines["DEVICE_CODE_CPU"], defines["DEVICE_CODE_GPU"]) == (
        abi.DEVICE_CODE_HOST, abi.DEVICE_CODE_CPU, abi.DEVICE_CODE_GPU)


def test_requires_bits_match_the_abi():
    defines = header_defines()
    assert (defines["REQUIRES_UNIFIED_ADDRESS"], defines["REQUIRES_UNIFIED_SHARED_MEMORY"]) == (
        abi.REQUIRES_UNIFIED_ADDRESS, abi.REQUIRES_UNIFIED_SHARED_MEMORY)


def test_the_usm_heap_functions_are_defined_by_the_runtime():
    """sema/requires.py renames a unified_shared_memory file's heap calls to these."""
    exported = subprocess.run(["nm", "-D", "--defined-only", str(native_runtime.build().shared)],
                              capture_output=True, text=True, check=True).stdout.split()
    names = {abi.USM_HEAP_PREFIX + name for name in USM_HEAP_FUNCTIONS}
    assert names <= set(exported), names - set(exported)


def test_image_table_version_and_scheme_codes_match():
    defines = header_defines()
    assert defines["IMAGE_VERSION"] == native_image.IMAGE_VERSION
    names = {abi.GPU_COMBINED: "SCHEME_GPU_COMBINED", abi.GPU_CONTROL_LOOP: "SCHEME_GPU_CONTROL_LOOP",
             abi.GPU_SERIAL: "SCHEME_GPU_SERIAL", abi.GPU_SPMDIZED: "SCHEME_GPU_SPMDIZED",
             abi.CPU_COMBINED: "SCHEME_CPU_COMBINED",
             abi.CPU_SEQUENTIAL: "SCHEME_CPU_SEQUENTIAL", abi.CPU_TEAMS: "SCHEME_CPU_TEAMS"}
    assert {scheme: defines[name] for scheme, name in names.items()} == native_image.SCHEME_CODES


def test_the_runtime_is_rebuilt_when_a_source_changes(tmp_path, monkeypatch):
    root = native_runtime.runtime_root()
    copy = tmp_path / "runtime"
    shutil.copytree(root / "offload", copy / "offload")
    shutil.copytree(root / "cpu_device", copy / "cpu_device")
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(native_runtime, "runtime_root", lambda: copy)
    native_runtime.build.cache_clear()
    try:
        first = native_runtime.build()
        assert first.static.is_file() and first.shared.is_file()
        native_runtime.build.cache_clear()
        assert native_runtime.build() == first                 # the cache's copy
        with open(copy / "offload" / "policy.c", "a") as source:
            source.write("\n/* edited */\n")
        native_runtime.build.cache_clear()
        assert native_runtime.build().static != first.static
    finally:
        native_runtime.build.cache_clear()


def _ir_layouts() -> dict[str, list[int]]:
    """Each image table struct's size and field offsets as native_image.py's IR lays them out."""
    module = host.prepare(llvm.parse_assembly(native_image._TYPES + "".join(
        f"@{name} = external global %{name}\n" for name in ("kernel_desc", "global_desc", "image_desc"))))
    data = llvm.create_target_data(module.data_layout)
    return {variable.name: [data.get_abi_size(variable.global_value_type)] + [
        data.get_element_offset(variable.global_value_type, i)
        for i in range(len(list(variable.global_value_type.elements)))] for variable in module.global_variables}


FIELDS = {
    "kernel_desc": ("name", "params", "default_block", "team_stack_bytes", "scheme", "one_team", "gpu",
                    "cpu_scheme", "cpu_function", "cpu_default_block", "cpu_one_team", "writes", "param_bytes",
                    "fused_slot", "spreads"),
    "global_desc": ("name", "cpu_address", "size"),
    "image_desc": ("version", "kernel_count", "kernels", "cpu_global_count", "cpu_globals", "ptx", "cubin",
                   "cubin_size", "cubin_arch"),
}


def test_image_table_layout_matches_the_c_structs(tmp_path):
    """The structs as `cc` lays out offload.h's and as the IR the compiler writes does."""
    lines = ['#include <stddef.h>', '#include <stdio.h>', '#include "offload.h"', "int main(void) {"]
    for struct, fields in FIELDS.items():
        offsets = ", ".join(f"(long)offsetof(struct {struct}, {field})" for field in fields)
        lines.append(f'    long {struct}[] = {{(long)sizeof(struct {struct}), {offsets}}};')
        lines.append(f'    for (size_t i = 0; i < sizeof {struct} / sizeof(long); i++) '
                     f'printf("%ld ", {struct}[i]);\n    printf("\\n");')
    lines.append("    return 0;\n}")
    (tmp_path / "layout.c").write_text("\n".join(lines) + "\n")
    compiler = native_runtime.c_compiler().split()
    subprocess.run([*compiler, f"-I{native_runtime.build().header_dir}", str(tmp_path / "layout.c"), "-o",
                    str(tmp_path / "layout")], check=True)
    printed = subprocess.run([str(tmp_path / "layout")], capture_output=True, text=True, check=True).stdout
    c_layouts = [[int(x) for x in line.split()] for line in printed.splitlines()]
    ir = _ir_layouts()
    assert c_layouts == [ir[name] for name in FIELDS]
