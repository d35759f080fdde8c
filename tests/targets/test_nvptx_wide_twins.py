"""nvptx/wide_twins.py: a kernel with a loop in each thread's iteration gets a twin with a
register budget in the PTX; a plain grid-stride kernel, the fused kernel and PTX with
debug sections get none. ptxas assembles the twins, and the twin of a row-sum kernel
keeps more loads in flight (more registers) than the kernel. No GPU needed."""

from __future__ import annotations

import re
import textwrap

import pytest

from omp2gpu import device_driver, driver
from omp2gpu.offload.abi import WIDE_TWIN_SUFFIX
from omp2gpu.pipeline import CompileOptions
from omp2gpu.targets import nvptx
from omp2gpu.targets.nvptx import wide_twins

PROGRAM = """
#include <stdio.h>
double w[17 * 1025], x[1025], y[17], a[1000];

/* backprop's layerforward: a few rows, each a long strided sum */
void layer(const double *l1, double *l2, const double *weights, int n1, int n2) {
    int j, k;
    #pragma omp target teams distribute parallel for map(to: l1[0:n1 + 1]) \\
        map(to: weights[0:(n1 + 1) * (n2 + 1)]) map(from: l2[1:n2])
    for (j = 1; j <= n2; j++) {
        double s = 0;
        for (k = 0; k <= n1; k++) s += weights[k * (n2 + 1) + j] * l1[k];
        l2[j] = s;
    }
}

int main(void) {
    int k;
    layer(x, y, w, 1024, 16);
    #pragma omp target teams distribute parallel for map(tofrom: a)
    for (k = 0; k < 1000; k++) a[k] = 2 * a[k] + 1;
    printf("%f %f\\n", y[1], a[1]);
    return 0;
}
"""


def ptx_of(tmp_path, source: str = PROGRAM, **options) -> str:
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(source))
    program = driver.compile_program(str(path), CompileOptions(**options), whole_program=True)
    return device_driver.compile_ptx(program.device, "sm_90")


def test_only_the_kernel_with_nested_loops_has_a_twin(tmp_path):
    entries = nvptx.entry_sections(ptx_of(tmp_path))
    assert set(entries) == {"__omp_offloading_layer_l8", "__omp_offloading_layer_l8" + WIDE_TWIN_SUFFIX,
                            "__omp_offloading_main_l20"}
    twin = entries["__omp_offloading_layer_l8" + WIDE_TWIN_SUFFIX]
    assert f".maxnreg {wide_twins.TWIN_REGISTERS}\n{{" in twin
    assert f"__omp_offloading_layer_l8{WIDE_TWIN_SUFFIX}_param_0" in twin
    assert "__omp_offloading_layer_l8_param" not in twin


def test_nested_loops_are_spans_of_backward_branches_inside_others():
    def kernel(body: str) -> str:
        return f".visible .entry k()\n{{\n{body}\n}}\n"
    one_loop = kernel("$L__BB0_1:\n\tadd.s32 %r1, %r1, 1;\n\t@%p1 bra $L__BB0_1;\n\tret;")
    forward_only = kernel("\t@%p1 bra $L__BB0_2;\n$L__BB0_2:\n\tret;")
    nested = kernel("$L__BB0_1:\n$L__BB0_2:\n\t@%p2 bra $L__BB0_2;\n\t@%p1 bra $L__BB0_1;\n\tret;")
    assert not wide_twins.has_nested_loops(one_loop) and not wide_twins.has_nested_loops(forward_only)
    assert wide_twins.has_nested_loops(nested)


def test_ptx_with_debug_sections_has_no_twins(tmp_path):
    assert WIDE_TWIN_SUFFIX not in ptx_of(tmp_path, debug_info=True)


def test_the_fused_kernel_has_no_twin():
    nested = "$L__BB0_1:\n$L__BB0_2:\n\t@%p2 bra $L__BB0_2;\n\t@%p1 bra $L__BB0_1;\n\tret;"
    ptx = f".visible .entry {nvptx.fusion.FUSED_KERNEL}()\n{{\n{nested}\n}}\n"
    assert wide_twins.with_wide_twins(ptx) == ptx


@pytest.mark.skipif(nvptx.find_ptxas() is None, reason="needs ptxas")
def test_ptxas_gives_the_twin_more_registers(tmp_path):
    usage = nvptx.resource_usage(ptx_of(tmp_path), "sm_90")
    kernel, twin = usage["__omp_offloading_layer_l8"], usage["__omp_offloading_layer_l8" + WIDE_TWIN_SUFFIX]
    assert kernel.registers <= 32 < twin.registers <= wide_twins.TWIN_REGISTERS


@pytest.mark.skipif(nvptx.find_ptxas() is None, reason="needs ptxas")
def test_control_loop_twins_keep_the_module_globals_named_after_the_kernel(tmp_path):
    """The control loop's team-frame size is a module global named after its kernel: the
    twin reads the same one, and ptxas finds it."""
    ptx = ptx_of(tmp_path, scheme="control-loop")
    twin = nvptx.entry_sections(ptx)["__omp_offloading_layer_l8" + WIDE_TWIN_SUFFIX]
    assert not re.search(r"__omp_offloading_layer_l8__wide_(?!param)", twin)
    nvptx.resource_usage(ptx, "sm_90")          # assembles
