"""The launch shape the offload runtime gives each kernel (runtime/offload/policy.c), read
from its launch log (OMP2GPU_OFFLOAD_LOG): the clauses, else the kernel's default block and
enough blocks for the loop; OMP2GPU_LAUNCH=teams,threads (`omp2gpu report --run`'s sweep)
over the clauses, 0 keeping that half, never for a serial kernel or more teams for a region
without teams; a bad value is a warning. On the CPU device and on the stand-in CUDA driver
(tests/native/fake_cuda: its kernels compute nothing, the log is the runtime's)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_native_executables import build

TOTAL = "99990000.0\n"

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain)")


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("launch_shapes"), "launch_shapes.c")


def shapes(program: Path, tmp_path: Path, device: str, launch: str | None, output: str = TOTAL, **env: str):
    """(grid, block) of the program's kernels in order, and its stderr; on the CPU device
    its output is checked too."""
    log = tmp_path / f"launches-{device}-{launch}.log"
    # OMP_NUM_THREADS: the CPU device's workers, its "multiprocessors" (the machine's cores otherwise)
    settings = {"OMP2GPU_DEVICES": device, "OMP_TARGET_OFFLOAD": "MANDATORY", "OMP2GPU_OFFLOAD_LOG": str(log),
                "OMP_NUM_THREADS": "2",
                **({"OMP2GPU_LAUNCH": launch} if launch is not None else {}), **env}
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=120,
                          env={"PATH": os.environ.get("PATH", ""), **settings})
    assert done.returncode == 0, done.stderr
    if device == "cpu":
        assert done.stdout == output
    found = [tuple(map(int, re.search(r"grid=(\d+) block=(\d+)", line).groups()))
             for line in log.read_text().splitlines()]
    return found, done.stderr


CASES = {            # OMP2GPU_LAUNCH -> (clauses 8x64, no clauses over 10000, no teams)
    None: [(8, 64), (20, 512), (1, 1)],
    "100,32": [(100, 32), (100, 32), (1, 1)],
    "0,16": [(8, 16), (256, 16), (1, 1)],      # 625 blocks capped: what fills the device (policy.c)
    "3,0": [(3, 64), (3, 512), (1, 1)],
}


@pytest.mark.parametrize("launch", list(CASES))
def test_launch_shapes_on_the_cpu_device(program, tmp_path, launch):
    assert shapes(program, tmp_path, "cpu", launch)[0] == CASES[launch]


@pytest.mark.parametrize("launch", list(CASES))
def test_launch_shapes_on_a_gpu(program, fake_driver, tmp_path, launch):
    found, _ = shapes(program, tmp_path, "gpu", launch, LD_LIBRARY_PATH=str(fake_driver), FAKE_CUDA_KERNEL_MS="1")
    assert found == CASES[launch]


@pytest.mark.parametrize("launch, expected", [
    (None, [(8, 64), (105, 96), (1, 1)]),      # 10,000 iterations over 132 SMs: 76 each, 3 warps
    ("0,512", [(8, 512), (20, 512), (1, 1)]),  # threads asked for: no spreading
    ("20,0", [(20, 64), (20, 512), (1, 1)]),   # teams asked for: no spreading
])
def test_a_short_loop_is_spread_over_every_multiprocessor(program, fake_driver, tmp_path, launch, expected):
    """A grid-stride kernel whose loop would not give each of the GPU's multiprocessors a
    default block gets narrower blocks, whole warps, enough to reach all of them (policy.c
    spread_block); clauses and OMP2GPU_LAUNCH keep their shape."""
    found, _ = shapes(program, tmp_path, "gpu", launch, LD_LIBRARY_PATH=str(fake_driver), FAKE_CUDA_KERNEL_MS="1",
                      FAKE_CUDA_MULTIPROCESSORS="132")
    assert found == expected


def test_more_threads_than_a_block_holds_are_capped(program, fake_driver, tmp_path):
    found, _ = shapes(program, tmp_path, "gpu", "0,4096", LD_LIBRARY_PATH=str(fake_driver), FAKE_CUDA_KERNEL_MS="1")
    assert found == [(8, 1024), (10, 1024), (1, 1)]


def test_a_bad_value_is_a_warning_and_ignored(program, tmp_path):
    found, err = shapes(program, tmp_path, "cpu", "64")
    assert found == CASES[None]
    assert "warning: OMP2GPU_LAUNCH=64 is not 'teams,threads' (two integers >= 0); ignored" in err


@pytest.fixture(scope="module")
def steps_program(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("team_per_iteration"), "team_per_distribute_iteration.c")


@pytest.mark.parametrize("device", ["cpu", "gpu"])
def test_a_distribute_the_threads_do_not_share_has_a_team_per_iteration(steps_program, fake_driver, tmp_path,
                                                                       device):
    """24 `teams distribute` steps, each serial code around a `parallel for` (combined, and
    split over target / teams / distribute): 24 teams, not one team of the block's threads
    taking the steps in turn; a `distribute parallel for` of 4,800 iterations in blocks of 96
    threads: 50 teams."""
    gpu = {"LD_LIBRARY_PATH": str(fake_driver), "FAKE_CUDA_KERNEL_MS": "1"} if device == "gpu" else {}
    found, _ = shapes(steps_program, tmp_path, device, None, "143.76 144.00 112.00\n", **gpu)   # gcc's output
    assert found == [(24, 96), (24, 64), (50, 96)]


def test_a_num_threads_the_team_computes_still_shapes_the_launch(tmp_path, fake_driver):
    """num_threads from an array element and from a call (the validation suite's test):
    the team's code evaluates it, and the host reads it too, harmlessly, for the launch:
    teams of that many threads, as many as the 1,024 iterations need (policy.c caps them
    at what fills the device), not 128-thread teams whose one thread runs 128 iterations."""
    program = build(tmp_path, str(Path(__file__).parents[1] / "programs" / "num_threads_runtime_expression.c"))
    log = tmp_path / "launches.log"
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=120,
                          env={"PATH": os.environ.get("PATH", ""), "OMP2GPU_DEVICES": "gpu",
                               "OMP_TARGET_OFFLOAD": "MANDATORY", "OMP2GPU_OFFLOAD_LOG": str(log),
                               "LD_LIBRARY_PATH": str(fake_driver), "FAKE_CUDA_KERNEL_MS": "1",
                               "FAKE_CUDA_MULTIPROCESSORS": "132"})
    assert "FAKE-CUDA: end" in done.stderr      # its kernels compute nothing: its checks fail
    found = [tuple(map(int, re.search(r"grid=(\d+) block=(\d+)", line).groups()))
             for line in log.read_text().splitlines()]
    asked = [1, 3, 10, 100, 1024]            # 10000 threads: the block's 1,024 at most
    assert found == [(-(-1024 // t), t) for t in asked for _ in range(2)] + [(1024, 1), (342, 3), (205, 5)]



HINTS = {   # num_threads(...) -> the block the CPU device's launch gets (64: thread_limit's)
    "asked[1]": 3,                 # an element of the function's own array
    "twice(asked[0]) + 1": 5,      # a function that only returns an expression of its parameter
    "through[1]": 64,              # through a pointer: it might hold a device address
    "noisy(asked[0])": 64,         # a function that does more than return a value
    "counter[0]": 64,              # a global array: the region's copy may be a `declare target` one
}


@pytest.mark.parametrize("expression", list(HINTS))
def test_the_host_reads_only_what_is_harmless_for_the_launch(tmp_path, expression):
    source = tmp_path / "hint.c"
    source.write_text(f"""#include <stdio.h>
int counter[2] = {{7, 7}};
static int twice(int k) {{ return 2 * k; }}
static int noisy(int k) {{ int j = k; j++; return j - 1; }}
int main(void) {{
    int asked[2] = {{2, 3}}, *through = asked, seen = 0;
#pragma omp target teams distribute parallel for thread_limit(64) map(tofrom: seen) num_threads({expression})
    for (int i = 0; i < 100; i++)
        if (i == 0) seen = 1;
    printf("%d\\n", seen);
    return 0;
}}
""")
    program = build(tmp_path, str(source))
    found, _ = shapes(program, tmp_path, "cpu", None, "1\n")
    assert found[0][1] == HINTS[expression]


def test_a_kernel_folding_a_reduction_across_teams_is_not_spread(tmp_path, fake_driver):
    """More teams are more partial results to fold: a reduction's kernel keeps the default
    block (kernel_desc.spreads); the same loop without one spreads."""
    source = tmp_path / "reduce.c"
    source.write_text("""#include <stdio.h>
int main(void) {
    static double a[10000];
    double sum = 0;
#pragma omp target teams distribute parallel for map(tofrom: a)
    for (int i = 0; i < 10000; i++)
        a[i] = i;
#pragma omp target teams distribute parallel for map(to: a) reduction(+: sum)
    for (int i = 0; i < 10000; i++)
        sum += a[i];
    printf("%.1f\\n", sum);
    return 0;
}
""")
    program = build(tmp_path, str(source))
    found, _ = shapes(program, tmp_path, "gpu", None, LD_LIBRARY_PATH=str(fake_driver), FAKE_CUDA_KERNEL_MS="1",
                      FAKE_CUDA_MULTIPROCESSORS="132")
    assert found == [(105, 96), (20, 512)]
