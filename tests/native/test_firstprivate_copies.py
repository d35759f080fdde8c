"""firstprivate and private arrays and structs too large to be kernel parameters
(MAP_PRIVATE, runtime/offload/present_table.c's private copies): each construct copies a
firstprivate one's host bytes to device storage of its own, even where the variable is
mapped and its device copy is stale, and never copies them back; a private one is copied
neither way. tests/native/programs/firstprivate_copies.c prints gcc's output on the CPU
device and a GPU; on the stand-in CUDA driver, whose kernels compute nothing, the copy log
is what is checked."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_native_executables import ONE_GPU, PROGRAMS, build, gcc_reference, run_bare

SOURCE = "firstprivate_copies.c"
ARRAY_BYTES, STRUCT_BYTES, GLOBAL_BYTES = 72, 88, 80


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    return build(tmp_path_factory.mktemp("firstprivate"), SOURCE)


@pytest.fixture(scope="module")
def gcc_output(tmp_path_factory) -> str:
    return gcc_reference(tmp_path_factory.mktemp("firstprivate_gcc"), PROGRAMS / SOURCE)


def copies(log: Path) -> list[tuple[str, int]]:
    return [(line.split()[0], int(line.split()[1].removeprefix("bytes="))) for line in log.read_text().splitlines()]


def test_the_cpu_device_reads_the_hosts_bytes(program, gcc_output, tmp_path):
    log = tmp_path / "copies"
    done = run_bare(program, env={"OMP2GPU_DEVICES": "cpu", "OMP_TARGET_OFFLOAD": "MANDATORY",
                                  "OMP2GPU_COPY_LOG": str(log)})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == gcc_output == ("limits: seen 280.0; host limits[7] 70.0, level 4\n"
                                         "seen 313.0 1838.0 215.0; host weights[4] 204.0, s.calls 2\n"
                                         "total 22176.0, host scratch[11] 0.0\n")
    assert_private_copies(copies(log), device_globals=True)


def assert_private_copies(logged: list[tuple[str, int]], device_globals: bool) -> None:
    """With `device_globals` (a device whose image holds the declare target variables), their
    first values, copied where the device loads the image, and the array's `target update`.
    Then the target data's two copies, each of the three regions' two private copies, the
    declare target array's private copy (its scalar: a parameter), then the reduction's 8
    bytes (the private array: nothing); the only copies back are the regions' `seen`
    elements, `bound` and the reduction's result (8 bytes each)."""
    loaded, updated = ([GLOBAL_BYTES, 4], [GLOBAL_BYTES]) if device_globals else ([], [])
    to_device = [size for direction, size in logged if direction == "to-device"]
    assert to_device == loaded + [ARRAY_BYTES, STRUCT_BYTES] * 4 + updated + [GLOBAL_BYTES, 8]
    assert [size for direction, size in logged if direction == "to-host"] == [8] * 5


def test_the_cuda_launch_path_copies_each_construct(program, fake_driver, tmp_path):
    log = tmp_path / "copies"
    done = run_bare(program, env={"LD_LIBRARY_PATH": str(fake_driver), "OMP_TARGET_OFFLOAD": "MANDATORY",
                                  "FAKE_CUDA_KERNEL_MS": "1", "OMP2GPU_COPY_LOG": str(log)})
    assert done.returncode == 0, done.stderr[-2000:]
    # the stand-in driver's modules have no globals: the update finds no device copy
    assert_private_copies(copies(log), device_globals=False)


@pytest.mark.gpu
def test_on_the_gpu_the_program_prints_gccs_output(program, gcc_output):
    done = run_bare(program, env=ONE_GPU)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == gcc_output
