"""control_loop_loops.py: the control-loop scheme's distribute and worksharing loops and
their data environments, checked on the device IR (the corpus runs them on a GPU)."""

from __future__ import annotations

import re

from omp2gpu import driver
from omp2gpu.targets import nvptx


def _kernel_ir(tmp_path, source: str) -> tuple[str, list[str]]:
    """The one control-loop kernel's IR text and the names of the module's shared-memory globals."""
    path = tmp_path / "prog.c"
    path.write_text(source)
    translation = driver.translate(path, driver.CompileOptions(scheme="control-loop"))
    (region,) = translation.device.kernels
    assert region.scheme.name == "control-loop"
    module = translation.device.module
    shared = [g.name for g in module.global_values if getattr(g, "addrspace", 0) == nvptx.SHARED_ADDRESS_SPACE]
    return str(module.get_global(region.kernel_name)), shared


DISTRIBUTE_WITH_PARALLEL = """
void scale_rows(int rows, int cols, double scale, double *a) {
  int r, count = 0;
  double offset;
  #pragma omp target teams distribute firstprivate(scale) private(offset) reduction(+: count) \\
          map(tofrom: a[0:rows*cols])
  for (r = 0; r < rows; r++) {
    double unused_by_threads = 0;
    offset = r * 0.5;
    #pragma omp parallel for reduction(+: count)
    for (int c = 0; c < cols; c++) { a[r * cols + c] = a[r * cols + c] * scale + offset; count++; }
    unused_by_threads += offset;
  }
}
"""


def test_distribute_copies_a_parallel_region_reads_are_team_shared(tmp_path):
    """The team master makes the distribute's private copies; threads of the nested parallel
    region cannot read its stack, so the copies they name live in shared memory (beside
    the teams construct's own copies, which are team-shared anyway)."""
    kernel, shared = _kernel_ir(tmp_path, DISTRIBUTE_WITH_PARALLEL)
    for name in ("scale", "offset", "count"):
        assert sum(each.endswith(f"_{name}") for each in shared) >= 2, name
    assert '%"scale.private" = alloca' not in kernel and '%"offset.private" = alloca' not in kernel
    # the one count.private on a stack: each thread's copy for the parallel for's reduction
    assert len(re.findall(r'%"count\.private[.\d]*" = alloca', kernel)) == 1


SEQUENTIAL_LOOP_PRIVATE = """
void fill(int n, double *a) {
  int i;
  double t;
  #pragma omp target teams distribute private(t) map(tofrom: a[0:n])
  for (i = 0; i < n; i++) { t = i * 2.0; a[i] = t; }
}
"""


def test_distribute_copies_no_parallel_region_reads_stay_on_the_stack(tmp_path):
    kernel, shared = _kernel_ir(tmp_path, SEQUENTIAL_LOOP_PRIVATE)
    assert '%"t.private" = alloca' in kernel
    assert sum(each.endswith("_t") for each in shared) == 1          # the teams construct's copy


PARALLEL_FOR_LASTPRIVATE_LOOP_VARIABLE = """
int last(int n, double *a) {
  int i = -1;
  #pragma omp target parallel for lastprivate(i) map(tofrom: i, a[0:n])
  for (i = 3; i < n; i += 5) a[i] += 1.0;
  return i;
}
"""


def test_parallel_for_iteration_variable_is_its_lastprivate_copy(tmp_path):
    """`parallel for lastprivate(i)` over i: the loop sets the copy the clause copies out,
    and the last iteration's thread stores i's value after the loop (lb + trips * step)
    before copying it out; no second, unrelated slot for i."""
    kernel, _ = _kernel_ir(tmp_path, PARALLEL_FOR_LASTPRIVATE_LOOP_VARIABLE)
    assert not re.search(r'%"i\.\d+" = alloca', kernel)
    copy = kernel[kernel.index("lastprivate.copy:"):]
    copy = copy[:copy.index("lastprivate.done:")]
    store, load = copy.index('store i32'), copy.index('load i32, i32* %"i.private"')
    assert store < load and 'i32* %"i.private"' in copy[store:load]


SIMD_IN_PARALLEL_FOR = """
void row_sums(int n, const double *a, double *sums) {
  #pragma omp target teams distribute parallel for map(to: a[0:n*n]) map(from: sums[0:n])
  for (int i = 0; i < n; i++) {
    double sum = 0.0;
    #pragma omp simd reduction(+: sum)
    for (int j = 0; j < n; j++) sum += a[i * n + j];
    sums[i] = sum;
  }
}
"""


def test_a_simd_loop_in_a_parallel_for_is_not_shared_among_the_threads(tmp_path):
    """A `simd` loop inside a worksharing loop's iteration runs every one of its iterations
    in the thread that met it: only the `for` is dealt out (one static-init call), not the
    simd loop too (it was, each thread then summing a share of another thread's row)."""
    kernel, _ = _kernel_ir(tmp_path, SIMD_IN_PARALLEL_FOR)
    assert len(re.findall(r"call void @\"?__kmpc_for_static_init_[48]", kernel)) == 1


SIMD_IN_DISTRIBUTE_PARALLEL_FOR = """
void histogram(int n, const int *cell, int *population) {
  #pragma omp target teams distribute parallel for map(to: cell[0:n]) map(from: population[0:256])
  for (int c = 0; c < 256; c++) {
    int count = 0;
    #pragma omp simd reduction(+: count)
    for (int k = 0; k < n; k++) count += cell[k] == c;
    population[c] = count;
  }
}
"""


def test_a_loop_in_a_distribute_parallel_for_body_runs_its_own_whole_space(tmp_path):
    """The team's chunk [dist_start, dist_hi) bounds the distributed loop only: a simd loop
    in its body counts from 0 to its own trip count (it took the team's chunk as its range,
    so each row counted a slice of the cells: wrong histograms on the H200)."""
    kernel, _ = _kernel_ir(tmp_path, SIMD_IN_DISTRIBUTE_PARALLEL_FOR)
    assert len(_loads_through(kernel, "_dist_hi")) == 1


def _loads_through(kernel: str, global_suffix: str) -> list[str]:
    """The kernel's loads from the shared global whose name ends so (through its GEPs/casts)."""
    pointers, loads = set(), []
    for line in kernel.splitlines():
        defined = re.match(r'\s*(%"[^"]+")\s*=', line)
        if f'{global_suffix}"' in line or any(p in line for p in pointers):
            if " = load " in line:
                loads.append(line)
            elif defined:
                pointers.add(defined.group(1))
    return loads
