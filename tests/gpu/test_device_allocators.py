"""OpenMP allocators inside GPU kernels (docs/allocators.md), both schemes: omp_alloc takes
from the CUDA device heap, whose size LIBOMPTARGET_HEAP_SIZE sets (runtime/offload/
cuda_device.c): 32 MiB is refused (NULL) from the driver's default 8 MiB heap and given
from a 256 MiB one; an allocator made in the region from traits aligns its blocks and
honours its pool. GPU only."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.gpu

PROGRAM = r"""
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
int main(void) {
  int big = -1, aligned = -1, pooled = -1;
  omp_alloctrait_t traits[3] = {{omp_atk_alignment, 512}, {omp_atk_pool_size, 4096},
                                {omp_atk_fallback, omp_atv_null_fb}};
  omp_allocator_handle_t mine = omp_null_allocator;
  #pragma omp target map(tofrom: big, aligned, pooled) uses_allocators(mine(traits))
  {
    char *p = (char *)omp_alloc(32 << 20, omp_default_mem_alloc);
    big = p != 0;
    if (p) { p[(32 << 20) - 1] = 1; omp_free(p, omp_default_mem_alloc); }
    long *q = (long *)omp_alloc(1024, mine);
    aligned = q != 0 && (uintptr_t)q % 512 == 0;
    pooled = omp_alloc(8192, mine) == 0;
    omp_free(q, mine);
  }
  printf("32 MiB %d, aligned %d, past the pool refused %d\n", big, aligned, pooled);
  return 0;
}
"""


@pytest.mark.parametrize("scheme", ["auto", "control-loop"])
@pytest.mark.parametrize("heap,given", [(None, 0), ("268435456", 1)])
def test_device_heap_and_allocator_traits(tmp_path, scheme, heap, given):
    source = tmp_path / "heap.c"
    source.write_text(PROGRAM)
    env = dict(os.environ, OMP_TARGET_OFFLOAD="MANDATORY",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    env.pop("LIBOMPTARGET_HEAP_SIZE", None)
    if heap is not None:
        env["LIBOMPTARGET_HEAP_SIZE"] = heap
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "gpu", "--scheme", scheme,
                           str(source)], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == f"32 MiB {given}, aligned 1, past the pool refused 1\n"
