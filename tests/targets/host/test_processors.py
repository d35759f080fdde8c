"""targets/host/machine.py's -march: the processor host and CPU-device code is made for."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from omp2gpu.targets import host

LOOP = r"""
#include <stdio.h>
#define N 4096
static double a[N], b[N];
int main(void)
{
    for (int i = 0; i < N; i++) b[i] = i * 0.5;
#pragma omp target teams distribute parallel for map(tofrom: a) map(to: b)
    for (int i = 0; i < N; i++) a[i] = a[i] * 0.5 + b[i] * 2.0;
    for (int i = 0; i < N; i++) a[i] = a[i] * 0.5 + b[i] * 2.0;
    printf("%.3f\n", a[N - 1]);
    return 0;
}
"""


def _compile(tmp_path, *flags) -> subprocess.CompletedProcess:
    (tmp_path / "loop.c").write_text(LOOP)
    return subprocess.run([sys.executable, "-m", "omp2gpu", "compile", *flags, "loop.c", "-o", "loop"],
                          cwd=tmp_path, capture_output=True, text=True)


def _vector_registers(binary) -> set[str]:
    text = subprocess.run(["objdump", "-d", str(binary)], capture_output=True, text=True, check=True).stdout
    return {kind for kind in ("xmm", "ymm", "zmm") if f"%{kind}" in text}


@pytest.mark.skipif(shutil.which("objdump") is None or shutil.which("cc") is None, reason="needs binutils and cc")
@pytest.mark.parametrize("march, widest", [("x86-64", "xmm"), ("x86-64-v3", "ymm")])
def test_the_processor_named_sets_the_vector_registers_of_host_and_cpu_device_code(tmp_path, march, widest):
    done = _compile(tmp_path, f"-march={march}")
    assert done.returncode == 0, done.stderr
    registers = _vector_registers(tmp_path / "loop")
    wider = {"xmm": {"ymm", "zmm"}, "ymm": {"zmm"}}[widest]
    assert widest in registers and not registers & wider, registers


def test_names_llvm_does_not_know_or_32_bit_processors_are_errors(tmp_path):
    for march in ("nonexistentcpu", "pentium4", "Bad!"):
        done = _compile(tmp_path, f"-march={march}")
        assert done.returncode == 1 and f"error: -march={march}: not a processor" in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and "LLVM ERROR" not in done.stderr


def test_native_is_this_machine_and_levels_name_themselves():
    assert host.processor("native")[0] == host.processor()[0] != ""
    assert host.processor("x86-64-v2") == ("x86-64-v2", "")
    assert host.validate_march("znver3") == "znver3"
