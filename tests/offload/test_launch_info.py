"""LIBOMPTARGET_INFO (offload/launch_info.py): the mask as libomptarget reads it, and the
lines bits 0x10 (kernel launches) and 0x20 (copies) print for a program on the CPU device."""

from __future__ import annotations

import textwrap

import pytest

from omp2gpu import driver
from omp2gpu.offload import launch_info, runtime
from omp2gpu.offload.devices import cpu_pool


@pytest.fixture(autouse=True)
def _mask_off_afterwards():
    yield
    launch_info.configure({})


def test_the_mask_reads_decimal_hex_and_minus_one():
    assert launch_info.parse_mask("16") == 0x10
    assert launch_info.parse_mask(" 0x30 ") == 0x30
    assert launch_info.parse_mask("-1") == 0xFFFFFFFF
    assert launch_info.parse_mask("") == 0 and launch_info.parse_mask(None) == 0


def test_a_mask_that_is_not_a_number_is_ignored_with_a_warning(capsys):
    assert launch_info.parse_mask("kernels") == 0
    assert "LIBOMPTARGET_INFO=kernels is not a number" in capsys.readouterr().err


PROGRAM = """
    #include <stdio.h>
    int main(void) {
        int a[64];
        for (int i = 0; i < 64; i++) a[i] = i;
        #pragma omp target teams distribute parallel for map(tofrom: a[0:64])
        for (int i = 0; i < 64; i++) a[i] *= 2;
        #pragma omp target teams distribute parallel for map(tofrom: a[0:64])
        for (int i = 0; i < 64; i++) a[i] += 1;
        printf("%d\\n", a[63]);
        return 0;
    }
"""


def _run(tmp_path, monkeypatch, capfd, mask: str):
    monkeypatch.setenv("OMP2GPU_DEVICES", "cpu")
    monkeypatch.setenv("OMP_TARGET_OFFLOAD", "MANDATORY")
    monkeypatch.setenv("LIBOMPTARGET_INFO", mask)
    runtime.reset()
    path = tmp_path / "prog.c"
    path.write_text(textwrap.dedent(PROGRAM))
    status = driver.run_program(str(path))
    out, err = capfd.readouterr()
    info = [line for line in err.splitlines() if " info: " in line]
    return status, out, info


def test_bit_0x10_prints_every_launch_even_those_the_native_path_would_take(tmp_path, monkeypatch, capfd):
    before = cpu_pool.pool().native.launches() if cpu_pool.started() else 0
    status, out, info = _run(tmp_path, monkeypatch, capfd, "16")
    assert (status, out) == (0, "127\n")
    assert len(info) == 2 and all(line.startswith("omp2gpu: CPU device") for line in info)
    assert all("launching kernel __omp_offloading_main_l" in line and "threads (cpu-" in line for line in info)
    assert cpu_pool.pool().native.launches() == before


def test_bit_0x20_prints_each_copy_with_its_addresses(tmp_path, monkeypatch, capfd):
    status, out, info = _run(tmp_path, monkeypatch, capfd, "0x20")
    assert (status, out) == (0, "127\n")
    directions = ["host to device" if "host to device" in line else "device to host" for line in info]
    assert directions == ["host to device", "device to host"] * 2
    assert all("Size=256" in line and "HstPtr=0x" in line and "TgtPtr=0x" in line for line in info)


def test_bits_not_honoured_print_nothing(tmp_path, monkeypatch, capfd):
    status, out, info = _run(tmp_path, monkeypatch, capfd, "0x4f")
    assert (status, out, info) == (0, "127\n", [])
