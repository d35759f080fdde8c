"""lib.kernels (omp2gpu/api/kernels.py): a loaded file's GPU kernels as objects, the
same figures as `omp2gpu report`, looked up by position, name and source location,
measured only when asked; without ptxas the figures are None and say why. No GPU:
ptxas and the occupancy calculator give the figures."""

from __future__ import annotations

import json
import re
import shutil
import textwrap

import pytest
from api_harness import load_once

import omp2gpu
from omp2gpu.targets import nvptx
from omp2gpu.targets.nvptx import toolkit
from omp2gpu.tools import cli

requires_ptxas = pytest.mark.skipif(nvptx.find_ptxas() is None, reason="ptxas not found (no CUDA toolkit)")

# A kernel of each scheme the GPU runs (lines 5, 8, 10), and a region only the host runs (line 16).
THREE_SCHEMES = """
    #define N 1000
    void three(double *a, double *b, double *c, int *flag) {
        int i;
        #pragma omp target teams distribute parallel for map(to: a[0:N], b[0:N]) map(from: c[0:N]) thread_limit(256)
        for (i = 0; i < N; i++)
            c[i] = a[i] + b[i];
        #pragma omp target map(tofrom: flag[0:1])
        flag[0] = 42;
        #pragma omp target map(tofrom: c[0:N])
        {
            #pragma omp parallel for schedule(dynamic, 64)
            for (i = 0; i < N; i++)
                c[i] = c[i] * 2;
        }
        #pragma omp target map(tofrom: flag[0:1])
        { long double wide = flag[0]; flag[0] = (int)(wide * 2); }
    }
"""


@pytest.fixture
def three(monkeypatch):
    return load_once(THREE_SCHEMES)


@pytest.fixture
def source_file(tmp_path, monkeypatch):
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "three.c"
    path.write_text(textwrap.dedent(THREE_SCHEMES))
    return path


def test_one_kernel_per_region_the_gpu_runs_with_its_scheme_and_why(three):
    kernels = three.kernels
    assert [k.scheme for k in kernels] == ["combined", "serial", "spmdized"]   # the third: SPMDized control loop
    assert [k.location.rsplit(":", 2)[1] for k in kernels] == ["5", "8", "10"]
    assert kernels[0].reason.startswith("combined construct") and "control loop" in kernels[2].reason
    assert kernels[0].construct.startswith("#pragma omp target teams distribute parallel for map(to: a[0:1000]")
    assert kernels[0].block_size == 256 and kernels[0].block_size_from == "thread_limit clause"
    assert [remark for remark in kernels.remarks if "runs on the host" in remark][0].split(":")[1] == "16"
    assert three.kernels is kernels                          # made once


def test_lookup_by_position_name_and_location(three):
    kernels = three.kernels
    serial = kernels[1]
    assert kernels[serial.name] is serial
    assert kernels["source.c:8"] is serial and kernels[serial.location] is serial
    assert kernels[f"source.c:8:{serial.location.rsplit(':', 1)[1]}"] is serial
    assert kernels[-1].scheme == "spmdized" and [k.scheme for k in kernels[:1]] == ["combined"]
    assert "source.c:10" in kernels and "source.c:9" not in kernels and serial in kernels
    assert kernels.keys() == [k.name for k in kernels]
    with pytest.raises(KeyError, match=r"no kernel 'source.c:16' \(the kernels: __omp_offloading_py\d+_three_l5 at"):
        kernels["source.c:16"]
    with pytest.raises(KeyError, match="no kernel 'other.c:5'"):
        kernels["other.c:5"]


@requires_ptxas
def test_figures_agree_with_omp2gpu_report(three, source_file, capsys):
    assert cli.main(["report", str(source_file), "--format", "json"]) == 0
    reported = json.loads(capsys.readouterr().out)["schemes"][0]["kernels"]
    assert len(reported) == len(three.kernels) == 3
    for kernel, row in zip(three.kernels, reported):
        assert re.sub(r"_py\d+_", "_", kernel.name) == row["kernel"]   # a loaded file's names carry py<N>
        assert (kernel.scheme, kernel.reason, kernel.arch) == (row["scheme"], row["reason"], row["arch"])
        for figure in ("registers", "spill_store_bytes", "spill_load_bytes", "shared_bytes", "stack_frame_bytes",
                       "barriers", "max_threads_per_block", "block_size"):
            assert getattr(kernel, figure) == row[figure], figure
        assert kernel.occupancy.occupancy == row["occupancy"]["occupancy"]
        assert kernel.limiter == row["occupancy"]["limiters"][0]
        if kernel.fixed_launch:                    # a serial kernel: one thread, no best block size
            assert kernel.best is None and row["best"] is None
        else:
            assert kernel.best.block_size == row["best"]["block_size"]


@requires_ptxas
def test_ptx_has_the_entry_and_the_ir_defines_the_kernel(three):
    for kernel in three.kernels:
        assert f".entry {kernel.name}(" in kernel.ptx
        assert f"define ptx_kernel void @{kernel.name}(" in kernel.llvm_ir
        assert kernel.llvm_ir.count("define ") == 1                 # that function alone


@requires_ptxas
def test_printed_as_reports_tables_and_summaries(three):
    kernel = three.kernels[0]
    table = str(kernel)
    assert table.startswith(f"{kernel.location}: kernel {kernel.name} (") and "registers per thread" in table
    assert repr(kernel).startswith(f"<omp2gpu.Kernel {kernel.name} ({kernel.location}, combined): "
                                   f"{kernel.registers} registers")
    assert repr(three.kernels).splitlines()[0] == "<omp2gpu.Kernels: 3 kernels>"
    assert "runs on the host" in repr(three.kernels).splitlines()[-1]
    assert "| registers per thread |" in three.kernels._repr_markdown_()


def test_nothing_is_measured_until_asked(monkeypatch):
    calls = []
    measure = nvptx.resource_usage
    monkeypatch.setattr(nvptx, "resource_usage", lambda *a, **k: calls.append(1) or measure(*a, **k))
    library = omp2gpu.load(source=textwrap.dedent(THREE_SCHEMES))
    assert library.kernels[0].scheme == "combined" and calls == []
    if nvptx.find_ptxas() is not None:
        assert library.kernels[0].registers > 0 and library.kernels[2].registers > 0
        assert calls == [1]                                  # once for the module, kept


def test_a_file_without_target_regions_has_no_kernels(monkeypatch):
    library = load_once("double twice(double v) { return 2 * v; }\n")
    assert len(library.kernels) == 0 and list(library.kernels) == []
    assert repr(library.kernels) == "<omp2gpu.Kernels: 0 kernels>" and str(library.kernels) == "no kernels\n"


def test_without_ptxas_the_figures_are_none_and_say_why(monkeypatch, tmp_path):
    tools = tmp_path / "bin"                                   # no ptxas on PATH, no toolkit, no wheel:
    tools.mkdir()                                              # only the C compiler the native link needs
    for tool in ("cc", "objcopy", "ld", "as"):
        if shutil.which(tool):
            (tools / tool).symlink_to(shutil.which(tool))
    monkeypatch.setenv("PATH", str(tools))
    monkeypatch.delenv("CC", raising=False)
    monkeypatch.setattr(toolkit, "toolkit_roots", lambda: [tmp_path])
    monkeypatch.setattr(toolkit, "wheel_files", lambda suffix: ())
    assert nvptx.find_ptxas() is None
    kernel = omp2gpu.load(source=textwrap.dedent(THREE_SCHEMES)).kernels[0]
    assert kernel.scheme == "combined" and kernel.block_size == 256          # the plan's facts stand
    assert kernel.registers is None and kernel.occupancy is None and kernel.best is None
    assert kernel.limiter is None and kernel.max_threads_per_block is None
    assert kernel.unavailable.startswith("ptxas not found (PATH, CUDA_HOME")
    assert repr(kernel).endswith(f"no figures: {kernel.unavailable}>")
    assert "registers per thread           n/a" in str(kernel)
    assert f"occupancy                      n/a ({kernel.unavailable})" in str(kernel)
