"""codegen/openmp/data/allocate_storage.py: where the allocate directive and the allocate
clause put variables. On the host: aligned stack storage (a run-time alignment for an
allocator the program made), private copies from such an allocator through
omp_aligned_alloc / omp_free; on the GPU's control loop: an omp_pteam_mem_alloc or
omp_cgroup_mem_alloc team variable in shared memory, aligned as asked (ptxas checks)."""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest
from host_programs import host_ir, run

from omp2gpu import device_driver, driver
from omp2gpu.diagnostics import CompileError

DIRECTIVE = """#include <omp.h>
#include <stdint.h>
#include <stdio.h>
int main(void) {
  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 1024}};
  omp_allocator_handle_t wide = omp_init_allocator(omp_default_mem_space, 1, traits);
  double fixed[10] = {1, 2, 3};
  #pragma omp allocate(fixed) allocator(omp_low_lat_mem_alloc) align(256)
  int n = 5;
  {
    double vla[n];
    #pragma omp allocate(vla) allocator(wide)
    vla[0] = fixed[2];
    printf("%d %d %.0f %.0f\\n", (int)((uintptr_t)fixed % 256), (int)((uintptr_t)vla % 1024), fixed[1], vla[0]);
  }
  omp_destroy_allocator(wide);
  return 0;
}
"""


def test_directive_aligns_the_stack_and_keeps_the_initializer(tmp_path):
    ir = host_ir(tmp_path, DIRECTIVE)
    assert re.search(r"%\"?fixed\.allocated\"? = alloca \[10 x double\].*align 256", ir)
    assert "__omp2gpu_allocator_alignment" in ir           # the VLA's allocator: known at run time
    assert run(tmp_path, DIRECTIVE, 1) == "0 0 2 3\n"


CLAUSE = """#include <omp.h>
int main(void) {
  omp_alloctrait_t traits[1] = {{omp_atk_alignment, 64}};
  omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 1, traits);
  double w[4];
  long s = 0;
  #pragma omp parallel for private(w) allocate(a: w) reduction(+: s)
  for (int i = 0; i < 100; i++) { w[i % 4] = i; s += (long)w[i % 4] + ((long)w % 64 != 0); }
  omp_destroy_allocator(a);
  return s == 4950 ? 0 : 1;
}
"""


def test_clause_copies_come_from_the_program_s_allocator(tmp_path):
    ir = host_ir(tmp_path, CLAUSE)
    assert 'call i8* @"omp_aligned_alloc"(i64 8, i64 32' in ir    # the allocator adds its 64
    assert 'call void @"omp_free"(' in ir
    assert run(tmp_path, CLAUSE, 3) == ""


PTEAM = """#include <omp.h>
int main(int argc, char **argv) {
  long out[4] = {0};
  int pick[4] = {3, argc, 7, 1};
  #pragma omp target teams num_teams(4) map(tofrom: out) map(to: pick)
  {
    long tile[32];
    #pragma omp allocate(tile) allocator(ALLOCATOR) align(128)
    int t = omp_get_team_num();
    for (int i = 0; i < 32; i++) tile[i] = i * t;
    out[t] = tile[pick[t]];
  }
  return (int)(out[0] + out[1] + out[2] + out[3]);
}
"""


@pytest.mark.parametrize("allocator,shared", [("omp_pteam_mem_alloc", True), ("omp_cgroup_mem_alloc", True),
                                              ("omp_high_bw_mem_alloc", False)])
def test_team_variable_in_shared_memory(tmp_path, allocator, shared):
    path = tmp_path / "prog.c"
    path.write_text(PTEAM.replace("ALLOCATOR", allocator))
    options = driver.CompileOptions(scheme="control-loop")
    translation = driver.translate(path, options)
    ptx = device_driver.device_ptx(translation.device, options)
    found = re.search(r"\.shared \.align 128 \.b8 \S*_shared_\d+_tile\[256\]", ptx)
    assert bool(found) == shared
    if shutil.which("ptxas"):
        (tmp_path / "k.ptx").write_text(ptx)
        subprocess.run(["ptxas", "-arch=sm_90", str(tmp_path / "k.ptx"), "-o", "/dev/null"], check=True)


def test_static_variable_needs_a_predefined_allocator(tmp_path):
    source = ("#include <omp.h>\nint main(void) {\n  omp_allocator_handle_t a = omp_null_allocator;\n"
              "  static int x;\n  #pragma omp allocate(x) allocator(a)\n  return x;\n}\n")
    path = tmp_path / "prog.c"
    path.write_text(source)
    with pytest.raises(CompileError) as info:
        driver.emit_ir(path, driver.CompileOptions())
    assert info.value.location.line == 5
