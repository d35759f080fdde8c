"""bench/lulesh/sweep.py's reading of the CUPTI log (bench/peers/kernel_log.c's lines) that
needs no GPU: the GPU's span of a sweep and, with --phases, the host's time on either side."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

import pytest

LULESH = Path(__file__).resolve().parents[1] / "bench" / "lulesh"
_spec = importlib.util.spec_from_file_location("bench_lulesh_sweep", LULESH / "sweep.py")
sweep = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sweep)


def kernel_line(start: int, ns: int, name: str) -> str:
    return f"{start}\t{ns}\t40\t612\t512\t0\t{name}"


def a_sweep(at: int) -> list[str]:
    """One sweep from `at` ns: the accel-boundary kernel (ends at +2 us), the host's wait for
    it (returns at +4 us), two monotonic-Q kernels (+10 to +30 us and +15 to +40 us), the
    wait that sees them (returns at +42 us)."""
    accel = f"__omp_offloading_main{sweep.accel_kernel_suffix()}"
    return [kernel_line(at, 2000, accel), f"api\t{at + 1000}\t{at + 4000}\tcuCtxSynchronize",
            f"api\t{at + 5000}\t{at + 7000}\tcuLaunchKernel",
            kernel_line(at + 10000, 20000, "__omp_offloading_fused_launch"),
            kernel_line(at + 15000, 25000, "__omp_offloading_fused_launch"),
            f"api\t{at + 20000}\t{at + 42000}\tcuEventSynchronize"]


@pytest.fixture
def logged(monkeypatch):
    """run_program writes three sweeps' log (the first warms up) where the library would."""
    def run_program(arguments, extra_env, size, iterations):
        lines = a_sweep(0) + a_sweep(100000) + a_sweep(200000)
        Path(extra_env["PEERS_KERNEL_LOG"]).write_text("\n".join(lines) + "\n")
        return object(), None
    monkeypatch.setattr(sweep, "run_program", run_program)


def test_the_span_runs_from_the_first_kernels_start_to_the_last_ones_end(logged):
    spans = sweep.gpu_spans([], {}, 100, Path(os.devnull))
    assert spans == {"gpu_span_us": 30.0, "kernel_us": 45.0, "launches": 2}


def test_the_phases_are_the_hosts_time_either_side_of_the_span(logged):
    assert sweep.host_phases([], {}, 100, Path(os.devnull)) == {"to_first_kernel_us": 6.0,
                                                                "after_last_kernel_us": 2.0}


def test_api_lines_are_not_kernels(tmp_path):
    log = tmp_path / "log"
    log.write_text("\n".join(a_sweep(0)) + "\n")
    common = sweep.common                                     # bench/common.py, as sweep.py imports it
    assert [record["name"] for record in common.kernel_log_records(log)][1:] == ["__omp_offloading_fused_launch"] * 2
    assert [name for _, _, name in common.api_call_records(log)] == ["cuCtxSynchronize", "cuLaunchKernel",
                                                                      "cuEventSynchronize"]


def test_a_sweep_the_host_did_not_wait_around_has_no_phases(monkeypatch):
    """Automatic concurrency: no wait between the accel-boundary kernel and the sweep's."""
    def run_program(arguments, extra_env, size, iterations):
        lines = [line for at in (0, 100000, 200000) for line in a_sweep(at) if "cuCtxSynchronize" not in line]
        Path(extra_env["PEERS_KERNEL_LOG"]).write_text("\n".join(lines) + "\n")
        return object(), None
    monkeypatch.setattr(sweep, "run_program", run_program)
    assert sweep.host_phases([], {}, 100, Path(os.devnull)) == {"error": "no waits logged"}
