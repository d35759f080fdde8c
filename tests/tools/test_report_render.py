"""report_render.py: the per-kernel table, one column per scheme, in each format."""

from __future__ import annotations

import json

from kernel_testing import GivenFigures

from omp2gpu.targets.nvptx import KernelResources
from omp2gpu.tools.gpu_kernels import Kernel
from omp2gpu.tools.report import SchemeReport
from omp2gpu.tools.report_render import render


def _figures(scheme: str, registers: int) -> Kernel:
    return Kernel("k", "p.c:3:1", "#pragma omp target", scheme, f"{scheme} because", GivenFigures(registers),
                  block_size=128, block_size_from="scheme default")


REPORTS = [SchemeReport("combined", {"k": _figures("combined", 20)}, []),
           SchemeReport("control-loop", {"k": _figures("control-loop", 32)}, ["p.c:9:1: remark: x"])]


def test_table_has_a_column_per_scheme_and_the_reasons_below():
    text = render(REPORTS, "table", "p.c", run=False)
    assert text.splitlines()[0] == "p.c:3:1: kernel k (sm_90)"
    assert "--scheme combined" in text and "--scheme control-loop" in text
    registers = next(line for line in text.splitlines() if "registers per thread" in line)
    assert registers.split()[-2:] == ["20", "32"]
    assert "why (--scheme control-loop): control-loop because" in text
    assert text.rstrip().endswith("p.c:9:1: remark: x")


def test_markdown_and_json():
    markdown = render(REPORTS, "markdown", "p.c", run=False)
    assert "| registers per thread | 20 | 32 |" in markdown
    data = json.loads(render(REPORTS, "json", "p.c", run=False, notes=["n"]))
    assert [s["kernels"][0]["registers"] for s in data["schemes"]] == [20, 32] and data["notes"] == ["n"]


def test_a_kernel_missing_under_one_scheme_reads_runs_on_the_host():
    reports = [REPORTS[0], SchemeReport("host", {}, [])]
    assert "runs on the host" in render(reports, "table", "p.c", run=False)


class WithTwin(GivenFigures):
    """A kernel whose wide-register twin ptxas gave `twin` registers."""

    def __init__(self, registers: int, twin: int):
        super().__init__(registers)
        self.twin = twin

    def wide_twin(self, name: str) -> KernelResources:
        return KernelResources(name + "__wide", registers=self.twin)


def _row(module, metric: str) -> str:
    """The table's line for `metric` of a 512-thread kernel whose figures `module` gives."""
    kernel = Kernel("k", "p.c:3:1", "#pragma omp target", "combined", "", module, block_size=512,
                    block_size_from="scheme default")
    text = render([SchemeReport("combined", {"k": kernel}, [])], "table", "p.c", run=False)
    return next(line for line in text.splitlines() if metric in line)


def _twin_row(module) -> str:
    return _row(module, "wide-register twin")


def test_the_wide_twin_row_says_which_launches_run_it():
    # 80 registers: one 512-thread block a multiprocessor (16 warps x 2,560 of its 65,536 registers)
    assert _twin_row(WithTwin(28, 80)).endswith("80 registers, launched where a multiprocessor's share of "
                                                 "the grid is at most 1 block of 512 threads")
    assert _twin_row(WithTwin(32, 32)).endswith("32 registers: never launched (no more than the kernel's)")
    assert _twin_row(GivenFigures(28)).endswith("none (no loop inside a thread's iteration)")
    data = json.loads(render([SchemeReport("combined", {"k": Kernel("k", "p.c:3:1", "", "combined", "",
                                                                  WithTwin(28, 80), block_size=512)}, [])],
                             "json", "p.c", run=False))
    assert data["schemes"][0]["kernels"][0]["wide_twin_registers"] == 80


class Fused(GivenFigures):
    """A kernel whose run-ahead launches the image's fused kernel runs, at `fused` registers."""

    def __init__(self, registers: int, fused: int):
        super().__init__(registers)
        self.fused_at = fused

    def fused(self, name: str) -> KernelResources:
        return KernelResources("__omp_offloading_fused_launch", registers=self.fused_at)


def _fused_row(module) -> str:
    return _row(module, "fused launches")


def test_the_fused_launches_row_compares_the_fused_kernels_occupancy_with_the_kernels():
    # 38 and 40 registers: three 512-thread blocks a multiprocessor either way (75%)
    assert _fused_row(Fused(38, 40)).endswith("40 registers, occupancy 75.0% at 512 threads, as alone")
    # session 27's speculated LULESH body: 47 registers alone (2 blocks), 102 fused (1 block)
    assert _fused_row(Fused(47, 102)).endswith("102 registers, occupancy 25.0% at 512 threads: below the "
                                               "kernel's own 50.0%, so the runtime launches it unfused where its "
                                               "grid is more than one wave of the fused kernel")
    assert _fused_row(GivenFigures(28)).endswith("none (not a `nowait` target task that may run ahead)")
    data = json.loads(render([SchemeReport("combined", {"k": Kernel("k", "p.c:3:1", "", "combined", "",
                                                                  Fused(47, 102), block_size=512)}, [])],
                             "json", "p.c", run=False))
    assert data["schemes"][0]["kernels"][0]["fused_registers"] == 102


class LinkedRecursion(GivenFigures):
    """A kernel of a module compiled relocatable and linked for its recursion."""
    linked_recursion = ["fib", "walk"]


def test_the_device_code_build_row_says_how_the_module_was_linked():
    def row(module) -> str:
        kernel = Kernel("k", "p.c:3:1", "#pragma omp target", "serial", "", module, block_size=1,
                        block_size_from="scheme")
        text = render([SchemeReport("serial", {"k": kernel}, [])], "table", "p.c", run=False)
        return next(line for line in text.splitlines() if "device code build" in line)

    assert row(LinkedRecursion(26)).endswith("relocatable, linked (recursion: fib, walk)")
    assert row(GivenFigures(26)).endswith("whole program")


class LinkedByNvlink(LinkedRecursion):
    """nvlink's figures: 1,040 B of shared memory (the driver's 1 KB reserve counted in), a
    stack it cannot bound."""

    def resources(self, name: str) -> KernelResources:
        return KernelResources(name, registers=self.registers, linked_shared_bytes=1040, stack_unbounded=True)


def test_a_linked_kernels_shared_memory_leaves_out_the_drivers_reserve_and_its_stack_says_it_recurses():
    kernel = Kernel("k", "p.c:3:1", "#pragma omp target", "serial", "", LinkedByNvlink(26), block_size=1,
                    block_size_from="scheme")
    lines = render([SchemeReport("serial", {"k": kernel}, [])], "table", "p.c", run=False).splitlines()
    assert next(line for line in lines if "shared memory (static)" in line).endswith(" 16 B")
    stack = next(line for line in lines if "local memory (stack frame)" in line)
    assert "0 B + recursion: no static bound" in stack and "LIBOMPTARGET_STACK_SIZE" in stack
    unlinked = Kernel("k", "p.c:3:1", "", "serial", "", GivenFigures(26), block_size=1)
    text = render([SchemeReport("serial", {"k": unlinked}, [])], "table", "p.c", run=False)
    assert next(line for line in text.splitlines() if "local memory" in line).endswith(" 0 B")
