"""codegen/openmp/data/region_allocators.py: a target construct's `uses_allocators(a(traits))`
allocator is made on the host where the construct is met, before its launch (so every
combined construct has it before its leaves start), passed with MapType.ALLOCATOR (its
record mapped, the device copy's address by value) and destroyed after; the program's own
variable is left alone. Run on the host and the CPU device with pool and alignment traits."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from host_programs import REPO_ROOT

from omp2gpu import driver
from omp2gpu.offload.abi import MapType

PROGRAM = """#include <omp.h>
#include <stdint.h>
#include <stdio.h>
int main(void) {
  omp_alloctrait_t traits[3] = {{omp_atk_pool_size, 2048}, {omp_atk_alignment, 256},
                                {omp_atk_fallback, omp_atv_null_fb}};
  omp_allocator_handle_t pool = omp_null_allocator;
  int got = 0, aligned = 0;
  #pragma omp CONSTRUCT map(tofrom: got, aligned) CLAUSE
  for (int i = 0; i < 1; i++) {
    void *blocks[3];
    for (int k = 0; k < 3; k++) {
      blocks[k] = omp_alloc(1000, pool);
      got += blocks[k] != NULL;
      aligned += blocks[k] != NULL && (uintptr_t)blocks[k] % 256 == 0;
    }
    for (int k = 0; k < 3; k++) omp_free(blocks[k], pool);
  }
  printf("%d %d %d\\n", got, aligned, pool == omp_null_allocator);
  return 0;
}
"""
FORMS = {"5.0": "uses_allocators(omp_default_mem_alloc, pool(traits))",
         "5.2": "uses_allocators(memspace(omp_large_cap_mem_space), traits(traits): pool; omp_default_mem_alloc)"}
CONSTRUCTS = ["target teams distribute parallel for", "target parallel for simd", "target teams distribute"]


def _source(construct: str, form: str) -> str:
    return PROGRAM.replace("CONSTRUCT", construct).replace("CLAUSE", FORMS[form])


@pytest.mark.parametrize("form", sorted(FORMS))
def test_made_before_the_launch_and_destroyed_after(tmp_path, form):
    path = tmp_path / "prog.c"
    path.write_text(_source(CONSTRUCTS[0], form))
    ir = str(driver.translate(path, driver.CompileOptions()).host)
    main = ir[ir.index('define i32 @"main"'):]
    order = [name for name in re.findall(r"call \S+ @\"?(omp_init_allocator|__omp2gpu_target|omp_destroy_allocator)\b",
                                          main)]
    assert order[:3] == ["omp_init_allocator", "__omp2gpu_target", "omp_destroy_allocator"]
    assert "__omp2gpu_allocator_record_bytes" in main
    assert f"i64 {int(MapType.ALLOCATOR | MapType.TO | MapType.TARGET_PARAM)}" in main


@pytest.mark.parametrize("device", ["host", "cpu"])
@pytest.mark.parametrize("construct", CONSTRUCTS)
def test_pool_and_alignment_hold_in_every_combined_construct(tmp_path, construct, device):
    path = tmp_path / "prog.c"
    path.write_text(_source(construct, "5.2" if "simd" in construct else "5.0"))
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", device, str(path)],
                          capture_output=True, text=True, cwd=tmp_path, timeout=300,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(REPO_ROOT)})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "2 2 1\n"          # 2048 bytes of pool: two blocks of 1000, then NULL
