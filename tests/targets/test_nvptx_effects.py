"""nvptx/effects.py: what each kernel may write, from LLVM's inferred attributes on the
optimised device module, carried at the top of its PTX; the launcher's kernel table
gets it (device_driver.with_effects). No GPU needed."""

from __future__ import annotations

import textwrap

import pytest

from omp2gpu import device_driver, driver
from omp2gpu.pipeline import CompileOptions
from omp2gpu.targets import nvptx
from omp2gpu.targets.nvptx import effects

PROGRAM = """
#include <stdio.h>
#define N 1000
struct field { int n; double *values; };
double a[N], b[N], c[N];
#pragma omp declare target
double total;
#pragma omp end declare target

int main(void) {
    int i;
    double *p = a;
    struct field f = { N, b };
    #pragma omp target data map(to: a, b) map(from: c)
    {
        #pragma omp target teams distribute parallel for
        for (i = 0; i < N; i++) c[i] = a[i] + b[i];                    /* plain: c written */
        #pragma omp target teams distribute parallel for map(tofrom: p[0:N])
        for (i = 0; i < N; i++) p[i] = p[i] * 2;                       /* read and written */
        #pragma omp target map(tofrom: total)
        { total = 0; for (i = 0; i < N; i++) total += a[i]; }          /* a global */
        #pragma omp target teams distribute parallel for map(to: f) map(tofrom: f.values[0:N])
        for (i = 0; i < N; i++) f.values[i] = i;                       /* through a loaded pointer */
    }
    printf("%f %f\\n", c[1], total);
    return 0;
}
"""


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """(kernel table, PTX with its effects) of PROGRAM, kernels in source order."""
    path = tmp_path_factory.mktemp("effects") / "prog.c"
    path.write_text(textwrap.dedent(PROGRAM))
    program = driver.compile_program(str(path), CompileOptions(), whole_program=True)
    ptx = device_driver.compile_ptx(program.device, "sm_90")
    kernels = sorted(program.device.kernels.values(), key=lambda info: int(info.name.rsplit("_l", 1)[1]))
    return kernels, ptx


@pytest.mark.parametrize("attributes,only_arguments", [
    ("nofree norecurse nosync nounwind memory(argmem: readwrite)", True),
    ("memory(read, argmem: readwrite)", True),                       # reads a global, writes its arguments
    ("memory(argmem: readwrite, inaccessiblemem: readwrite)", True),  # printf's buffer
    ("memory(write, argmem: readwrite, inaccessiblemem: none)", False),   # writes shared or global memory
    ("memory(readwrite)", False),
    ("nounwind", False),                                             # nothing inferred: anything
])
def test_writes_only_through_arguments(attributes, only_arguments):
    assert effects.writes_only_through_arguments(attributes) is only_arguments


def test_the_ptx_says_what_each_kernel_writes(compiled):
    kernels, ptx = compiled
    found = effects.from_ptx(ptx)
    assert set(found) == {info.name for info in kernels}
    plain, scaled, on_global, through_struct = (found[info.name] for info in kernels)
    assert plain.args_only and len(plain.writes) == len(kernels[0].params)
    # the parameters in the kernel table's order: c written, a and b only read
    assert [w for kind, w in zip(kernels[0].params, plain.writes) if kind == "pointer"] == [True, False, False]
    assert scaled.args_only and scaled.writes[kernels[1].params.index("pointer")]
    assert not on_global.args_only                  # writes `total`, a declare target global
    assert not through_struct.args_only             # writes where a pointer loaded from `f` points


def test_the_kernel_table_takes_the_effects(compiled):
    kernels, ptx = compiled
    table = device_driver.with_effects({info.name: info for info in kernels}, ptx)
    plain = table[kernels[0].name]
    assert plain.args_only and plain.read_only_params == (2, 3)       # a and b (i and c come first)
    assert kernels[0].params == ["bytes", "pointer", "pointer", "pointer"]
    assert not table[kernels[2].name].args_only
    assert device_driver.with_effects(table, "// no effects here\n.version 8.0\n") == table


@pytest.mark.skipif(nvptx.find_ptxas() is None, reason="ptxas not found (no CUDA toolkit)")
def test_ptxas_takes_the_ptx_with_its_effects(compiled):
    _, ptx = compiled
    assert ptx.startswith(effects.PTX_TAG)
    assert nvptx.assemble(ptx, "sm_90")


def test_the_effects_survive_their_text():
    made = {"k1": effects.KernelEffects(True, (False, True)), "k2": effects.KernelEffects(False, ())}
    assert effects.from_ptx(effects.as_ptx_comments(made) + "//\n.version 8.0\n") == made
