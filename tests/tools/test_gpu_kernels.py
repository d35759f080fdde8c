"""gpu_kernels.py: a region's kernel as an object -- its plan's facts at once, ptxas's
figures and occupancy when first asked, None and the reason when ptxas fails or the
architecture has no occupancy data. (report's tests check the figures themselves.)"""

from __future__ import annotations

import pytest

from omp2gpu import driver
from omp2gpu.device_driver import device_code
from omp2gpu.pipeline import CompileOptions
from omp2gpu.targets import nvptx
from omp2gpu.tools.gpu_kernels import DeviceModule, kernels_of

SOURCE = """
void scale(int n, float *x) {
    #pragma omp target teams distribute parallel for map(tofrom: x[0:n])
    for (int i = 0; i < n; i++)
        x[i] *= 2;
    #pragma omp target teams num_teams(4) thread_limit(2000) map(tofrom: x[0:64])
    #pragma omp distribute parallel for
    for (int i = 0; i < 64; i++)
        x[i] += 1;
}
"""


@pytest.fixture
def kernels(tmp_path, monkeypatch):
    """The file's kernels for `arch`, as report and lib.kernels make them."""
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "scale.c"
    path.write_text(SOURCE)

    def made(arch: str = "sm_90", block_size: int | None = None):
        options = CompileOptions(offload_arch=arch)
        build = driver.translate(str(path), options).device
        return kernels_of(build.kernels, DeviceModule(device_code(build), options), block_size)
    return made


def test_the_plan_gives_place_construct_and_launch(kernels):
    first, second = kernels()
    assert first.location.endswith("scale.c:3:13") and first.scheme == "combined"
    assert first.construct == "#pragma omp target teams distribute parallel for map(tofrom: x[0:n])"
    assert (first.block_size_from, first.bytes, first.bytes_from) == (
        "scheme default", None, "the section of 'x' has no constant length")
    assert (second.block_size, second.block_size_from) == (1024, "thread_limit clause")   # the teams's clause
    assert second.bytes == 2 * 64 * 4 and second.bytes_from == "map clauses"
    assert [k.block_size_from for k in kernels(block_size=96)] == ["--block-size"] * 2


def test_a_failing_ptxas_leaves_the_figures_none_with_its_first_line(kernels, monkeypatch):
    def refuse(*args, **kwargs):
        raise nvptx.PtxasError("\nptxas fatal   : Value 'sm_90' is not defined\nmore\n")
    monkeypatch.setattr(nvptx, "resource_usage", refuse)
    monkeypatch.setattr(nvptx, "find_ptxas", lambda: "/bin/ptxas")
    kernel = kernels()[0]
    assert kernel.unavailable == "ptxas failed for sm_90: ptxas fatal   : Value 'sm_90' is not defined"
    assert (kernel.registers, kernel.resources, kernel.occupancy, kernel.note) == (None, None, None, "")


@pytest.mark.skipif(nvptx.find_ptxas() is None, reason="ptxas not found (no CUDA toolkit)")
def test_an_architecture_without_occupancy_data_has_figures_and_a_note(kernels):
    kernel = kernels("sm_110")[0]
    assert kernel.arch == "sm_110" and kernel.registers > 0 and kernel.unavailable is None
    assert kernel.occupancy is None and kernel.best is None and kernel.limiter is None
    assert kernel.note.startswith("no occupancy data for sm_110")
    assert "occupancy n/a (no occupancy data for sm_110" in repr(kernel)


def test_a_serial_kernel_has_no_best_block_size(tmp_path, monkeypatch):
    """A serial region launches one thread whatever the occupancy: report names no best
    block size for it, but why (issue 33)."""
    from omp2gpu.tools.report_render import _best

    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "serial.c"
    path.write_text("void f(int *x) {\n    #pragma omp target map(tofrom: x[0:1])\n    x[0] += 1;\n}\n")
    options = CompileOptions(offload_arch="sm_90", scheme="serial")
    build = driver.translate(str(path), options).device
    (kernel,) = kernels_of(build.kernels, DeviceModule(device_code(build), options))
    assert kernel.fixed_launch and kernel.best is None
    assert _best(kernel) == "n/a (serial: one thread)"


def test_each_kernels_ptx_is_its_entry_alone(kernels):
    """--dump=kernel-ptx and Kernel.entry_ptx: one kernel's .entry of the module's PTX."""
    first, second = kernels()
    assert first.entry_ptx.startswith(f".visible .entry {first.name}(") and first.entry_ptx.rstrip().endswith("}")
    assert second.name not in first.entry_ptx and second.entry_ptx in first.ptx
    assert nvptx.entry_sections(first.module.ptx).keys() >= {first.name, second.name}


NOWAIT_SOURCE = """
void smooth(int n, double *a, double *b) {
    #pragma omp target teams distribute parallel for nowait map(to: a[0:n]) map(from: b[0:n])
    for (int i = 1; i < n - 1; i++)
        b[i] = (a[i - 1] + a[i] + a[i + 1]) / 3;
    #pragma omp target teams distribute parallel for map(tofrom: a[0:n])
    for (int i = 0; i < n; i++)
        a[i] *= 2;
    #pragma omp taskwait
}
"""


@pytest.mark.skipif(nvptx.find_ptxas() is None, reason="needs ptxas")
def test_a_nowait_kernel_has_the_fused_kernels_figures_and_a_waited_one_none(tmp_path, monkeypatch):
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "smooth.c"
    path.write_text(NOWAIT_SOURCE)
    options = CompileOptions(offload_arch="sm_90")
    build = driver.translate(str(path), options).device
    nowait, waited = kernels_of(build.kernels, DeviceModule(device_code(build), options))
    assert nowait.fused_registers >= nowait.registers > 0
    assert nowait.fused_occupancy is not None and nowait.fused_occupancy.block_size == nowait.block_size
    assert waited.fused_registers is None and waited.fused_occupancy is None
