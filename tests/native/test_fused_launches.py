"""Fused launches (docs/async.md, "Fused launches"; runtime/offload/fused_launches.c):
consecutive target tasks that run ahead, with no `depend`, on disjoint data, become one
launch of the image's fused kernel; a region that asks its team number, a `depend`
chain, a taskwait, a synchronous launch or copy in between, and OMP2GPU_FUSE_LAUNCHES=0
keep launches apart.

The program is the corpus's tests/programs/target_nowait_fused_phases.c (its results
against gcc's on every device: tests/test_programs.py). Here its offload log on the
stand-in CUDA driver (fake_cuda/libcuda.c: kernels compute nothing and take
FAKE_CUDA_KERNEL_MS), and on a real GPU its results and log."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from test_native_executables import build, gcc_reference, omp2gpu

HERE = Path(__file__).resolve().parent
SOURCE = HERE.parent / "programs" / "target_nowait_fused_phases.c"
REGIONS = 6
TIMEOUT_S = 120
FUSED = "__omp_offloading_fused_launch"
H200_MULTIPROCESSORS = "132"  # the stand-in GPU's: a wave (device_wave_blocks) far above the programs' grids
KERNEL_MS = "200"              # a fake kernel: far longer than the host takes to make a phase's launches
LOG_LINE = re.compile(r"^(\S+) device='[^']*' grid=(\d+) block=(\d+)(?: (fused)| stream=(\d+)(?: parts=(\d+))?)?$")

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc (the C toolchain and reference)")


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("fused")
    done = omp2gpu("compile", "--native", str(SOURCE), "-o", "prog", cwd=folder)
    assert done.returncode == 0, done.stderr
    return folder / "prog"


@pytest.fixture(scope="module")
def gcc_output(tmp_path_factory) -> str:
    return gcc_reference(tmp_path_factory.mktemp("fused_gcc"), SOURCE, "-s", "2",
                         flags=("-std=c99", "-foffload=disable"))


def launches(program: Path, tmp_path: Path, env: dict) -> tuple[str, list[tuple]]:
    """The program's stdout over two steps, and its launches as (kernel, grid, block, how,
    parts): how is "fused" (joined the thread's batch), a stream number, or "" (waited for)."""
    log = tmp_path / "launches"
    log.unlink(missing_ok=True)
    done = subprocess.run([str(program), "-s", "2"], capture_output=True, text=True, timeout=TIMEOUT_S,
                          env={"PATH": os.environ.get("PATH", ""), "OMP_NUM_THREADS": "2",
                               "FAKE_CUDA_MULTIPROCESSORS": H200_MULTIPROCESSORS,
                               "OMP_TARGET_OFFLOAD": "MANDATORY", "OMP2GPU_OFFLOAD_LOG": str(log), **env})
    assert done.returncode == 0, done.stderr
    rows = []
    for line in log.read_text().splitlines():
        match = LOG_LINE.match(line)
        assert match, line
        kernel, grid, block, fused, stream, parts = match.groups()
        rows.append((kernel.removeprefix("__omp_offloading_"), int(grid), int(block),
                     "fused" if fused else stream or "", int(parts) if parts else None))
    return done.stdout, rows


def line_of(marker: str) -> int:
    """The line of the target pragma nearest above the line holding `marker` (its kernel's _lN)."""
    lines = SOURCE.read_text().splitlines()
    at = next(n for n, text in enumerate(lines, 1) if marker in text)
    return next(n for n in range(at, 0, -1) if lines[n - 1].strip().startswith("#pragma omp target"))


def kernel(rows, marker: str) -> list[tuple]:
    return [row for row in rows if row[0].endswith(f"_l{line_of(marker)}")]


def check_fusion(rows, first_alone: bool) -> None:
    """Each step: the forces' REGIONS launches and the energies' run as one (`first_alone`:
    the first at once, nothing of the thread's running then, and the rest as one; the
    energies' firstprivate struct is a parameter, which the fused kernel passes as any
    other), the velocities' likewise; the rest launched as they would be."""
    forces, velocities = kernel(rows, "f[i] = -(double)stiffness"), kernel(rows, "v[i] = 0.5 * v[i]")
    joined = [row for row in forces + velocities if row[3] == "fused"]
    assert len(joined) == 4 * (REGIONS - first_alone), rows
    fused = [row for row in rows if row[0] == FUSED.removeprefix("__omp_offloading_")]
    assert [row[4] for row in fused] == [REGIONS + 1 - first_alone, REGIONS - first_alone] * 2, rows
    energies = kernel(rows, "energy[i] = weights.half")
    assert len(energies) == 2 and all(row[3] == "fused" for row in energies), energies
    alone = [row for row in forces + velocities if row[3] not in ("fused", "")]      # on a stream at once
    assert len(alone) == (4 if first_alone else 0), rows
    for marker in ("teams_seen[omp_get_team_num()", "x[i] = x[i] + 0.125", "x[i] > 64.0 ?"):
        assert all(row[3] not in ("fused", "") for row in kernel(rows, marker)), (marker, rows)   # own streams
    # a lone nowait launch before a synchronous one: launched by itself, first (adaptive:
    # at once, nothing of the thread's running after the taskwait)
    lone = kernel(rows, "for (i = 0; i < n / 2; i++)")
    positions = [i for i, row in enumerate(rows) if row[0] == lone[0][0] and row[3] != "fused"]
    assert all(rows[i][3] and rows[i][4] in (1, None) for i in positions), lone
    assert len(lone) == (2 if first_alone else 4), lone
    synchronous_kernel = kernel(rows, "for (i = n / 2; i < n; i++)")[0][0]
    synchronous = [i for i, row in enumerate(rows) if row[0] == synchronous_kernel]
    assert len(positions) == 2 and all(p < s for p, s in zip(positions, synchronous)), rows


def test_launches_made_while_a_kernel_runs_run_as_one(program, fake_driver, tmp_path):
    """Adaptive (the default): the first launch of a phase finds the device idle and goes at
    once; its fake kernel (long: KERNEL_MS) still runs while the next ones come."""
    _, rows = launches(program, tmp_path, {"LD_LIBRARY_PATH": str(fake_driver), "FAKE_CUDA_KERNEL_MS": KERNEL_MS})
    check_fusion(rows, first_alone=True)


def test_held_until_the_wait_they_all_run_as_one(program, fake_driver, tmp_path):
    _, rows = launches(program, tmp_path, {"LD_LIBRARY_PATH": str(fake_driver), "FAKE_CUDA_KERNEL_MS": "1",
                                           "OMP2GPU_FUSE_LAUNCHES": "wait"})
    check_fusion(rows, first_alone=False)


def test_a_batch_that_fills_the_device_goes_before_the_wait(program, fake_driver, tmp_path):
    """A device of 5 multiprocessors holds 20 blocks of 512 threads at once (a wave,
    device_wave_blocks): two of the program's slices (10 blocks each) fill it, so even
    held until the wait their batch goes as soon as its second part joins, and the host
    goes on making the next while the device runs it."""
    _, rows = launches(program, tmp_path, {"LD_LIBRARY_PATH": str(fake_driver), "FAKE_CUDA_KERNEL_MS": "1",
                                           "OMP2GPU_FUSE_LAUNCHES": "wait", "FAKE_CUDA_MULTIPROCESSORS": "5"})
    forces, fused = kernel(rows, "f[i] = -(double)stiffness")[0][0], FUSED.removeprefix("__omp_offloading_")
    slice_joins, batch_goes = (forces, 10, 512, "fused", None), (fused, 20, 512)
    # a part's line follows its launch: the second slice's comes after the batch it completed
    first_slices = [row if row[0] == forces else row[:3] for row in rows[:9]]
    assert first_slices == [slice_joins, batch_goes, slice_joins] * 3, rows


def test_the_switch_turns_fusion_off(program, fake_driver, tmp_path):
    _, rows = launches(program, tmp_path, {"LD_LIBRARY_PATH": str(fake_driver), "FAKE_CUDA_KERNEL_MS": "1",
                                           "OMP2GPU_FUSE_LAUNCHES": "0"})
    assert not any(row[3] == "fused" or row[4] is not None for row in rows), rows
    assert len(kernel(rows, "f[i] = -(double)stiffness")) == 2 * REGIONS


def resident_blocks(block: int, registers: int, threads_per_multiprocessor: int = 2048) -> int:
    """Blocks a multiprocessor holds (policy.c resident_blocks): at most 32, and a warp's
    registers are taken 256 at a time from one of four sub-partitions' 16,384."""
    warps, warp_registers = -(-block // 32), -(-registers * 32 // 256) * 256
    return min(threads_per_multiprocessor // block, 32, 16384 // warp_registers * 4 // warps)


@pytest.mark.parametrize("registers, multiprocessors", [("40,40,40", "2"), ("40,40,33", "2"), ("40,40,48", "2"),
                                                        ("40,40,102", "2"), ("40,40,102", H200_MULTIPROCESSORS)])
def test_a_launch_the_fused_kernel_would_slow_is_not_fused(program, fake_driver, tmp_path, registers,
                                                          multiprocessors):
    """FAKE_CUDA_REGISTERS: the kernels' registers, their twins', the fused kernel's, which
    its compilation with a register budget does not lower (FAKE_CUDA_IGNORE_MAXNREG: as for a
    cubin; the next test). A launch is fused unless the fused kernel's registers let a
    multiprocessor hold fewer of its blocks than its own and its grid is more than the
    device holds at once at the fused kernel's (on two multiprocessors the program's slices
    are; on an H200's 132 none is). Unfused, every launch goes on a stream, as with fusion
    off."""
    _, rows = launches(program, tmp_path, {"LD_LIBRARY_PATH": str(fake_driver), "FAKE_CUDA_KERNEL_MS": "1",
                                           "OMP2GPU_FUSE_LAUNCHES": "wait", "FAKE_CUDA_REGISTERS": registers,
                                           "FAKE_CUDA_MULTIPROCESSORS": multiprocessors,
                                           "FAKE_CUDA_IGNORE_MAXNREG": "1"})
    forces = kernel(rows, "f[i] = -(double)stiffness")
    own, fused = (int(count) for count in registers.split(",")[::2])
    _, grid, block, _, _ = forces[0]
    slows = resident_blocks(block, fused) < resident_blocks(block, own) and grid > resident_blocks(block, fused) * int(
        multiprocessors)
    assert slows == (registers in ("40,40,48", "40,40,102") and multiprocessors == "2"), (grid, block)
    if slows:
        assert not any(row[3] == "fused" or row[4] is not None for row in rows), rows
        assert len(forces) == 2 * REGIONS and all(row[3] not in ("fused", "") for row in forces), forces
    else:
        assert len([row for row in forces if row[3] == "fused"]) == 2 * REGIONS, rows


@pytest.mark.parametrize("registers, budget", [("40,40,102", 40), ("33,33,102", 40), ("40,40,40", 0),
                                              ("37,37,40", 0)])
def test_a_fused_kernel_with_more_registers_than_its_parts_is_compiled_again_with_theirs(
        program, fake_driver, tmp_path, registers, budget):
    """The runtime loads the image's PTX, asks the fused kernel's registers and its parts',
    and where the fused kernel takes more than their most rounded up to 8, loads the PTX
    again with that as its `.maxnreg` (cuda_device.c fused_register_budget): the fused
    launches then keep their parts' occupancy and stay fused on two multiprocessors, where
    the previous test's 102 registers unfuse them."""
    log = tmp_path / "driver.log"
    _, rows = launches(program, tmp_path, {"LD_LIBRARY_PATH": str(fake_driver), "FAKE_CUDA_KERNEL_MS": "1",
                                           "OMP2GPU_FUSE_LAUNCHES": "wait", "FAKE_CUDA_REGISTERS": registers,
                                           "FAKE_CUDA_MULTIPROCESSORS": "2", "FAKE_CUDA_LOG": str(log)})
    loads = [line for line in log.read_text().splitlines() if line.endswith("-module") or "-module " in line]
    assert loads == (["load-module 0", f"load-module {budget}", "unload-module"] if budget else ["load-module 0"])
    assert len([row for row in kernel(rows, "f[i] = -(double)stiffness") if row[3] == "fused"]) == 2 * REGIONS, rows


def test_the_cpu_device_runs_them_one_by_one_with_gcc_results(program, gcc_output, tmp_path):
    stdout, rows = launches(program, tmp_path, {"OMP2GPU_DEVICES": "cpu"})
    assert stdout == gcc_output
    assert not any(row[3] == "fused" for row in rows), rows


def held_until_the_wait(source: str, fake_driver: Path, tmp_path: Path, kernel_ms: str, **env: str):
    """A native test program built and run on the stand-in driver, every launch held until
    a wait (OMP2GPU_FUSE_LAUNCHES=wait): (the program, the run, its fused launches' log lines)."""
    program = build(tmp_path, source)
    log = tmp_path / "launches"
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=TIMEOUT_S,
                          env={"PATH": os.environ.get("PATH", ""), "LD_LIBRARY_PATH": str(fake_driver),
                               "FAKE_CUDA_KERNEL_MS": kernel_ms, "OMP_TARGET_OFFLOAD": "MANDATORY",
                               "FAKE_CUDA_MULTIPROCESSORS": H200_MULTIPROCESSORS,
                               "OMP2GPU_OFFLOAD_LOG": str(log), "OMP2GPU_FUSE_LAUNCHES": "wait", **env})
    assert done.returncode == 0, done.stderr
    return program, done, [line for line in log.read_text().splitlines() if line.startswith(FUSED)]


def test_a_batch_takes_32_parts_of_one_block_size(fake_driver, tmp_path):
    """tests/native/programs/fused_batch_limits.c: 36 launches of 128 threads, then 4 of 256."""
    program, _, lines = held_until_the_wait("fused_batch_limits.c", fake_driver, tmp_path, "1")
    fused = [LOG_LINE.match(line).groups() for line in lines]
    assert [(int(block), int(parts)) for _, _, block, _, _, parts in fused] == [(128, 32), (128, 4), (256, 4)], fused
    reference = subprocess.run([str(program)], capture_output=True, text=True, timeout=TIMEOUT_S,
                               env={"OMP_TARGET_OFFLOAD": "DISABLED"}).stdout
    assert reference.split()[1] == reference.split()[3].strip("()") == "3276800.0", reference


def test_short_loops_of_different_lengths_run_as_one(fake_driver, tmp_path):
    """tests/native/programs/fused_short_loops.c: six loops of 40-2,000 iterations on a
    device of 8 multiprocessors, each of which alone would get its own narrower block size
    (spread over the device); fused, they all take the default block: one launch."""
    program, done, lines = held_until_the_wait("fused_short_loops.c", fake_driver, tmp_path, "1",
                                               FAKE_CUDA_MULTIPROCESSORS="8")
    fused = [LOG_LINE.match(line).groups() for line in lines]
    assert [(int(block), int(parts)) for _, _, block, _, _, parts in fused] == [(512, 6)], fused
    reference = subprocess.run([str(program)], capture_output=True, text=True, timeout=TIMEOUT_S,
                               env={"OMP_TARGET_OFFLOAD": "DISABLED"}).stdout
    assert reference.split()[1] == reference.split()[3].strip("()"), reference


def test_a_thread_that_ends_launches_what_it_held(fake_driver, tmp_path):
    """tests/native/programs/fused_from_a_thread.c: a pthread's four launches, no wait."""
    program, done, lines = held_until_the_wait("fused_from_a_thread.c", fake_driver, tmp_path, "100")
    assert [line.rsplit(" ", 1)[1] for line in lines] == ["parts=4"]
    assert f"FAKE-CUDA: end {FUSED}" in done.stderr and "free while a kernel runs" not in done.stderr
    for env in ({"OMP_TARGET_OFFLOAD": "DISABLED"}, {"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY"}):
        assert subprocess.run([str(program)], capture_output=True, text=True, timeout=TIMEOUT_S,
                              env=env).stdout == "sum 10240.0\n", env


@pytest.mark.gpu
def test_on_the_gpu_a_batch_of_32_parts_computes_what_the_host_does(tmp_path):
    program = build(tmp_path, "fused_batch_limits.c")
    for policy in ("wait", "0"):
        done = subprocess.run([str(program)], capture_output=True, text=True, timeout=TIMEOUT_S,
                              env={"PATH": os.environ.get("PATH", ""), "OMP_TARGET_OFFLOAD": "MANDATORY",
                                   "OMP2GPU_DEVICES": "gpu", "OMP2GPU_FUSE_LAUNCHES": policy})
        assert done.returncode == 0 and done.stdout.split()[1] == "3276800.0", (policy, done.stdout, done.stderr)


@pytest.mark.gpu
def test_on_the_gpu_fused_launches_give_gcc_results(program, gcc_output, tmp_path):
    for policy in ("1", "wait"):
        stdout, rows = launches(program, tmp_path, {"OMP2GPU_DEVICES": "gpu", "CUDA_VISIBLE_DEVICES": "0",
                                                    "OMP2GPU_FUSE_LAUNCHES": policy})
        assert stdout == gcc_output, policy
        if policy == "wait":
            check_fusion(rows, first_alone=False)
        # adaptive: how many run as one depends on whether the GPU finished the last before
        # the host made the next (this program's kernels are short): its results are what count
