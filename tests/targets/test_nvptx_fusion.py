"""nvptx/fusion.py: which regions' launches the fused kernel may run (a `target nowait`
with no `depend`, whose code cannot read the grid), the fused kernel itself, and the
kernels' own code unchanged by being fusable. No GPU needed: the runtime's side is
tests/native/test_fused_launches.py."""

from __future__ import annotations

import re
import textwrap

import llvmlite.binding as llvm
import pytest

from omp2gpu import device_driver, driver
from omp2gpu.pipeline import CompileOptions
from omp2gpu.targets import nvptx
from omp2gpu.targets.nvptx import fusion

PROGRAM = """
#include <omp.h>
#define N 4096
double a[N], b[N], c[N];
int teams[N];
struct scale { double factor; int offset; };

static int which_team(void) { return omp_get_team_num(); }

int main(void) {
    int i, lo = 0, hi = N / 2;
    float s = 2.0f;
    char shift = 3;
    struct scale by = { 0.5, 1 };
    #pragma omp target data map(tofrom: a, b, c, teams)
    {
        #pragma omp target teams distribute parallel for nowait             /* plain: fused */
        for (i = lo; i < hi; i++) b[i] = s * a[i] + shift;
        #pragma omp target teams distribute parallel for                    /* synchronous */
        for (i = lo; i < hi; i++) b[i] = s * a[i] + shift;
        #pragma omp target teams distribute parallel for nowait             /* asks its team */
        for (i = 0; i < N; i++) teams[i] = omp_get_team_num();
        #pragma omp target teams distribute parallel for nowait             /* through a call */
        for (i = 0; i < N; i++) teams[i] = which_team();
        #pragma omp target teams distribute parallel for nowait depend(out: c) /* never runs ahead */
        for (i = 0; i < N; i++) c[i] = 1.0;
        #pragma omp target teams distribute parallel for nowait firstprivate(by)   /* a struct: fused */
        for (i = 0; i < N; i++) c[i] = by.factor * i + by.offset;
        #pragma omp target nowait                                           /* one thread: fused */
        { a[0] = 1.0; }
        #pragma omp taskwait
    }
    return 0;
}
"""


def _line_of(marker: str) -> int:
    return next(n for n, line in enumerate(textwrap.dedent(PROGRAM).splitlines(), 1) if marker in line) + 1


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    """(the device code's kernel table, its PTX) for PROGRAM."""
    path = tmp_path_factory.mktemp("fusion") / "prog.c"
    path.write_text(textwrap.dedent(PROGRAM))
    program = driver.compile_program(str(path), CompileOptions(), whole_program=True)
    return program.device.kernels, device_driver.compile_ptx(program.device, "sm_90")


def kernel_at(kernels, line: int) -> str:
    """The name of the kernel of the construct on `line` (its pragma's line: _lN)."""
    return next(name for name in kernels if name.endswith(f"_l{line - 1}"))


def test_only_running_ahead_regions_that_cannot_read_the_grid_are_fused(compiled):
    """A small firstprivate struct is a parameter of its bytes in words, which the fused
    kernel passes on as any other parameter: that region is fused too."""
    kernels, ptx = compiled
    fused = fusion.from_ptx(ptx)
    markers = ("/* plain: fused */", "/* a struct: fused */", "/* one thread: fused */")
    expected = {kernel_at(kernels, _line_of(marker)) for marker in markers}
    assert set(fused) == expected, fused
    assert sorted(fused.values()) == [0, 1, 2]
    assert f".visible .entry {fusion.FUSED_KERNEL}(" in ptx
    for marker in ("/* synchronous */", "/* never runs ahead */"):       # no body made for them
        assert kernel_at(kernels, _line_of(marker)) + fusion.BODY_SUFFIX not in ptx


def test_the_kernel_table_gets_each_fused_kernels_slot(compiled):
    kernels, ptx = compiled
    table = device_driver.with_effects(kernels, ptx)
    slots = {name: info.fused_slot for name, info in table.items() if info.fused_slot >= 0}
    assert slots == fusion.from_ptx(ptx)
    assert all(info.fused_slot == -1 for name, info in table.items() if name not in slots)


def test_a_fusable_kernel_is_the_same_code_as_its_synchronous_twin(compiled):
    """Being fusable changes nothing in the kernel itself: the region's body is inlined
    back, each grid register read where the region reads it."""
    kernels, ptx = compiled
    sections = nvptx.entry_sections(ptx)
    plain = kernel_at(kernels, _line_of("/* plain: fused */"))
    synchronous = kernel_at(kernels, _line_of("/* synchronous */"))

    def normalised(name):
        return re.sub(r"\$L__BB\d+_", "$L__BB_", sections[name].replace(name, "KERNEL"))
    assert normalised(plain) == normalised(synchronous)


def test_the_fused_kernel_assembles(compiled):
    _, ptx = compiled
    if nvptx.find_ptxas() is None:
        pytest.skip("no ptxas")
    resources = nvptx.resource_usage(ptx, "sm_90")
    assert resources[fusion.FUSED_KERNEL].spill_store_bytes == 0


def test_arguments_are_packed_in_words():
    assert fusion.argument_offsets((8, 4, 1, 16, 8)) == [0, 8, 16, 24, 40]


def test_the_fused_kernel_calls_each_body_from_its_slot():
    """Two bodies: the descriptor's parts table picks one per block, the arguments loaded
    from the part's words; the IR verifies."""
    module = llvm.parse_assembly(textwrap.dedent(f"""
        target triple = "nvptx64-nvidia-cuda"
        define void @k0{fusion.BODY_SUFFIX}(ptr %p, double %d, i1 %real, i32 %block, i32 %blocks) {{
          ret void
        }}
        define void @k1{fusion.BODY_SUFFIX}(float %f, i1 %real, i32 %block, i32 %blocks) {{
          ret void
        }}
        """))
    nvptx.configure_device_module(module)
    slots = fusion.fuse(module, {"k0": (8, 8), "k1": (4,), "k2": (8,)})
    assert slots == {"k0": 0, "k1": 1}
    fused = module.get_function(fusion.FUSED_KERNEL)
    text = str(fused)
    assert "switch i32 %slot" in text and "i32 0, label %part0" in text and "i32 1, label %part1" in text
    assert "call void @k1__fusable(float %p1.0, i1 false, i32 %part.block, i32 %part.blocks)" in text
    module.verify()


def test_a_body_whose_parameters_differ_from_what_the_launch_passes_is_left_out():
    module = llvm.parse_assembly(textwrap.dedent(f"""
        target triple = "nvptx64-nvidia-cuda"
        define void @k0{fusion.BODY_SUFFIX}(double %d, i1 %real, i32 %block, i32 %blocks) {{
          ret void
        }}
        """))
    nvptx.configure_device_module(module)
    assert fusion.fuse(module, {"k0": (4,)}) == {}
    assert fusion.FUSED_KERNEL not in {f.name for f in module.functions}


def test_explain_says_which_regions_launches_may_be_fused(tmp_path):
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(PROGRAM))
    remarks = driver.translate(path, CompileOptions()).device.remarks
    by_line = {int(remark.split(":")[1]): remark for remark in remarks if "-> kernel" in remark}
    assert "may run fused" in by_line[_line_of("/* plain: fused */") - 1]
    assert "not fused with others': it asks omp_get_team_num" in by_line[_line_of("/* asks its team */") - 1]
    for marker in ("/* synchronous */", "/* never runs ahead */"):
        assert "fused" not in by_line[_line_of(marker) - 1]
