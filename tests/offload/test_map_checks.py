"""offload/map_checks.py: bad map entries are reported with the construct's location
before anything is copied (a negative length, a section off the host's memory)."""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
from pathlib import Path

import pytest

from omp2gpu.offload.abi import MapType as M
from omp2gpu.offload.data_environment import MapEntry, MappingError
from omp2gpu.offload.map_checks import HostMemory, check_entries

REPO_ROOT = Path(__file__).resolve().parents[2]


def _memory(tmp_path, *ranges):
    maps = tmp_path / "maps"
    maps.write_text("".join(f"{low:x}-{high:x} rw-p 00000000 00:00 0\n" for low, high in ranges))
    return HostMemory(str(maps))


def test_a_negative_length_names_the_construct(tmp_path):
    memory = _memory(tmp_path, (0x1000, 0x9000))
    with pytest.raises(MappingError, match=r"^prog.c:12:13: map entry 2 has a negative length \(-8 bytes\)"):
        check_entries([MapEntry(0x1000, 0x1000, 8, M.TO), MapEntry(0x2000, 0x2000, -8, M.FROM)],
                      "prog.c:12:13", memory)


def test_a_section_off_the_host_memory(tmp_path):
    memory = _memory(tmp_path, (0x1000, 0x3000), (0x3000, 0x4000), (0x8000, 0x9000))
    check_entries([MapEntry(0x1000, 0x1000, 0x3000, M.TO)], "p.c:1:1", memory)   # adjacent ranges merge
    with pytest.raises(MappingError, match="runs past the host memory"):
        check_entries([MapEntry(0x3800, 0x3800, 0x1000, M.TO)], "p.c:1:1", memory)


@pytest.mark.parametrize("bits, what", [(M.TO | M.MAPPER, "a declare mapper over an array of structs"),
                                        (M.FROM | M.NON_CONTIG, "a strided or discontiguous target update")])
def test_the_native_runtimes_entries_are_refused_by_name(tmp_path, bits, what):
    """The JIT path's launcher does not build them (runtime/offload/mappers.c, strided_copies.c do)."""
    with pytest.raises(MappingError, match=f"^p.c:3:1: {what} needs the native runtime"):
        check_entries([MapEntry(0x1000, 0x1000, 8, bits)], "p.c:3:1", _memory(tmp_path, (0x1000, 0x2000)))


def test_entries_that_are_not_host_memory_are_not_checked(tmp_path):
    memory = _memory(tmp_path, (0x1000, 0x2000))
    check_entries([MapEntry(0, 0x7fff0000, 8, M.LITERAL | M.TARGET_PARAM),
                   MapEntry(0x50000000, 0x50000000, 8, M.IS_DEVICE_PTR),
                   MapEntry(0x1000, 0x1000, 0, M.TO)], "p.c:1:1", memory)


def test_the_mappings_are_read_again_when_a_range_is_not_in_the_cache(tmp_path):
    memory = _memory(tmp_path, (0x1000, 0x2000))
    assert memory.contains(0x1000, 0x800)
    (tmp_path / "maps").write_text("1000-2000 rw-p 0 0:0 0\n5000-6000 rw-p 0 0:0 0\n")
    assert memory.contains(0x5000, 0x100)


def test_the_real_process_memory_holds_a_python_buffer():
    buffer = ctypes.create_string_buffer(4096)
    check_entries([MapEntry(ctypes.addressof(buffer), ctypes.addressof(buffer), 4096, M.TO)], "")
    with pytest.raises(MappingError):
        check_entries([MapEntry(ctypes.addressof(buffer), ctypes.addressof(buffer), 1 << 50, M.TO)], "")


PROGRAM = """#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc - 6;
    double *a = malloc(100 * sizeof(double));
    int i;
    for (i = 0; i < 100; i++) a[i] = i;
    printf("before\\n");
#pragma omp target map(tofrom: a[0:n])
    for (i = 0; i < 3; i++)
        a[i] += 1.0;
    printf("after %f\\n", a[0]);
    free(a);
    return 0;
}
"""


@pytest.mark.parametrize("policy", ["DEFAULT", "MANDATORY"])
def test_a_program_with_a_negative_section_length_stops_with_the_location(tmp_path, policy):
    """A device in use: fatal, exit status 1, as libomptarget's failed mapping is."""
    program = tmp_path / "negative_length.c"
    program.write_text(PROGRAM)
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), OMP_TARGET_OFFLOAD=policy)
    result = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "cpu", str(program)],
                            capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 1, result.stderr
    assert result.stdout == "before\n"
    assert f"omp2gpu: error: {program}:10:13: map entry 1 has a negative length (-40 bytes)" \
        in result.stderr


def test_the_present_modifier_is_refused_by_name(tmp_path):
    """`present` (OpenMP 5.1) is built in the C runtime only: this launcher says so."""
    with pytest.raises(MappingError, match="p.c:4:9: the 'present' map-type modifier .* needs the native runtime"):
        check_entries([MapEntry(0x1000, 0x1000, 8, M.TO | M.PRESENT)], "p.c:4:9", _memory(tmp_path, (0x1000, 0x2000)))
