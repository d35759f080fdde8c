"""static_data: a program whose static objects its process cannot map is a located error
from `run` naming the largest object and its size, not a process the kernel kills at exec;
objects that fit run as before, past the small code model's 2 GiB too (the medium model)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from omp2gpu.diagnostics import CompileError
from omp2gpu.targets.host import static_data

REPO_ROOT = Path(__file__).resolve().parents[3]
LIMIT = 8 << 30           # an address-space limit well below the 32 GiB array, above what omp2gpu needs

HUGE = """#include <stdio.h>
#include <stdlib.h>
static double small[1 << 22];
static double big[4L << 30];      /* 32 GiB */
int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  for (long i = 0; i < n; i++) big[i * 4096] = small[i] = i;
  double s = 0;
  for (long i = 0; i < n; i++) s += big[i * 4096] + small[i];
  printf("%f\\n", s);
  return 0;
}
"""


def _limited():
    resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))


def test_a_32_gib_array_under_an_address_space_limit_is_a_located_error(tmp_path):
    source = tmp_path / "huge.c"
    source.write_text(HUGE)
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), OMP2GPU_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "host", str(source)],
                          capture_output=True, text=True, env=env, preexec_fn=_limited, timeout=300)
    assert done.returncode == 1, done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith(f"{source}:4:15: error: static object 'big' of 34359738368 bytes (32.0 GiB)")
    assert "(ulimit -v)" in first and "LLVM ERROR" not in done.stderr and "Traceback" not in done.stderr


def test_objects_that_fit_pass():
    static_data.check_room([static_data.StaticObject("a", 64 << 20, None), static_data.StaticObject("b", 1, None)])
    static_data.check_room([])


def test_the_largest_object_is_named_with_the_total(monkeypatch):
    def refuse(*args, **kwargs):
        raise OSError(12, "Cannot allocate memory")
    monkeypatch.setattr(static_data.mmap, "mmap", refuse)
    with pytest.raises(CompileError) as raised:
        static_data.check_room([static_data.StaticObject("grid", 3 << 30, None),
                                static_data.StaticObject("halo", 1 << 30, None)])
    assert "'grid' of 3221225472 bytes (3.0 GiB) (with the other large static objects, " \
        "4294967296 bytes (4.0 GiB))" in str(raised.value)


DECLARE_TARGET = """#include <stdio.h>
#pragma omp declare target
static double big[1L << 30];      /* 8 GiB, and as much again for the CPU device's copy */
#pragma omp end declare target
int main(void) {
  #pragma omp target
  for (long i = 0; i < 1000; i++) big[i * 4096] = i;
  #pragma omp target update from(big[0:1])
  printf("%f\\n", big[0]);
  return 0;
}
"""


def test_a_cpu_device_copy_that_does_not_fit_is_a_clean_offload_error(tmp_path):
    source = tmp_path / "copy.c"
    source.write_text(DECLARE_TARGET)
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), OMP2GPU_CACHE_DIR=str(tmp_path / "cache"),
               OMP_TARGET_OFFLOAD="MANDATORY")

    def limited():
        resource.setrlimit(resource.RLIMIT_AS, (14 << 30, 14 << 30))
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "cpu", str(source)],
                          capture_output=True, text=True, env=env, preexec_fn=limited, timeout=300)
    assert done.returncode == 1, done.stderr
    assert "static object 'big' of 8589934592 bytes (8.0 GiB) cannot be allocated" in done.stderr
    assert "LLVM ERROR" not in done.stderr and "Traceback" not in done.stderr


def test_module_objects_lists_a_module_s_large_definitions():
    import llvmlite.binding as llvm
    module = llvm.parse_assembly('@big = internal global [4194304 x double] zeroinitializer\n'
                                 '@small = global [4 x i32] zeroinitializer\n'
                                 '@outside = external global [4194304 x double]\n')
    assert static_data.module_objects(module) == [static_data.StaticObject("big", 32 << 20, None)]


def test_the_code_model_is_medium_from_512_mib_of_static_data():
    import llvmlite.binding as llvm
    small = llvm.parse_assembly('@a = global [67108864 x double] zeroinitializer\n')   # 512 MiB
    assert static_data.code_model(llvm.parse_assembly('@a = global [4 x i32] zeroinitializer\n')) == "small"
    assert static_data.code_model(small) == "medium"


THREE_GIB = """#include <stdio.h>
#pragma omp declare target
static double grid[3L << 27];     /* 3 GiB: past the small code model's 2 GiB */
#pragma omp end declare target
static char flags[1 << 26];
int main(void) {
  double sum = 0;
  #pragma omp target map(tofrom: sum)
  for (long i = 0; i < 3L << 27; i += 1 << 20) { grid[i] = i / (1 << 20); sum += grid[i]; }
  for (long i = 0; i < 3L << 27; i += 1 << 20) sum += flags[i >> 6];
  printf("%.1f\\n", sum);
  return 0;
}
"""


@pytest.mark.parametrize("device", ["host", "cpu"])
def test_a_program_with_more_than_2_gib_of_static_data_links_and_runs(tmp_path, device):
    source = tmp_path / "three.c"
    source.write_text(THREE_GIB)
    env = dict(os.environ, PYTHONPATH=str(REPO_ROOT), OMP2GPU_CACHE_DIR=str(tmp_path / "cache"))
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", device, str(source)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert (done.returncode, done.stdout) == (0, "73536.0\n"), done.stderr
