"""doacross.py: `ordered(n)` loop nests with `ordered depend(sink)` / `depend(source)`
on the host through libgomp's doacross entry points (as gcc calls them), on the CPU
device, whose team runs the loop in iteration order, and on the GPU, whose control
loop has the team master run it in order (PTX assembled here; the `gpu` test runs it);
nests of three loops, downward and strided loops, sinks outside the iteration space,
every schedule."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from host_programs import host_ir, run
from program_runs_here import REPO_ROOT, run_on

from omp2gpu import device_driver, driver
from omp2gpu.targets import nvptx

# Each point waits for three earlier neighbours; the sweep must equal the sequential one
# bit for bit, whatever the schedule and thread count. k counts down by 2, so its
# earlier neighbour is k + 2; j's sink j - 1 leaves the space at the first column.
NEST_OF_THREE = r"""
#include <stdio.h>
#include <string.h>
#define NI 12
#define NJ 10
#define NK 16
static double a[NI][NJ][NK + 2], ref[NI][NJ][NK + 2];
static void fill(double (*x)[NJ][NK + 2]) {
  for (int i = 0; i < NI; i++) for (int j = 0; j < NJ; j++) for (int k = 0; k < NK + 2; k++)
    x[i][j][k] = (i * 7 + j * 5 + k * 3) % 17 * 0.125;
}
static double cell(double (*x)[NJ][NK + 2], int i, int j, int k) {
  return 0.3 * x[i][j][k] + 0.25 * (i ? x[i - 1][j][k] : 1) + 0.25 * (j ? x[i][j - 1][k] : 1)
         + 0.2 * x[i][j][k + 2];
}
int main(void) {
  int i, j, k;
  fill(ref);
  for (i = 0; i < NI; i++) for (j = 0; j < NJ; j++) for (k = NK - 1; k >= 0; k -= 2)
    ref[i][j][k] = cell(ref, i, j, k);
  fill(a);
  #pragma omp parallel for ordered(3) schedule(SCHEDULE) private(j, k)
  for (i = 0; i < NI; i++)
    for (j = 0; j < NJ; j++)
      for (k = NK - 1; k >= 0; k -= 2) {
        #pragma omp ordered depend(sink: i - 1, j, k) depend(sink: i, j - 1, k) depend(sink: i, j, k + 2)
        a[i][j][k] = cell(a, i, j, k);
        #pragma omp ordered depend(source)
      }
  printf("same %d\n", memcmp(a, ref, sizeof a) == 0);
  return 0;
}
"""


def test_the_host_calls_libgomp_s_doacross_entry_points(tmp_path):
    ir = host_ir(tmp_path, NEST_OF_THREE.replace("SCHEDULE", "dynamic, 2"))
    assert re.search(r"call .*@\"?GOMP_loop_doacross_dynamic_start\"?\(i32 3, ", ir)
    assert "@GOMP_loop_dynamic_next" in ir or '@"GOMP_loop_dynamic_next"' in ir
    assert len(re.findall(r"call void \(i64, \.\.\.\) @\"?GOMP_doacross_wait", ir)) == 3
    assert len(re.findall(r"call void @\"?GOMP_doacross_post", ir)) == 1


@pytest.mark.parametrize("schedule", ["static", "static, 3", "dynamic, 2", "guided", "runtime"])
@pytest.mark.parametrize("threads", [1, 4])
def test_a_three_loop_sweep_equals_the_sequential_one_on_the_host(tmp_path, schedule, threads):
    source = NEST_OF_THREE.replace("SCHEDULE", schedule)
    assert run(tmp_path, source, threads, ("OMP_SCHEDULE", "guided,2")) == "same 1\n"


def test_the_cpu_device_runs_a_doacross_loop_in_a_target_region(tmp_path):
    source = NEST_OF_THREE.replace("SCHEDULE", "static, 2").replace(
        "  fill(a);\n", "  fill(a);\n  #pragma omp target map(tofrom: a)\n  {\n").replace(
        '  printf("same', '  }\n  printf("same')
    assert "#pragma omp target" in source
    assert run_on(tmp_path, source, "cpu") == "same 1\n"


# Two target regions: `target parallel for ordered(1)` (the combined spelling) and a
# target region around `parallel for ordered(1)` with a dynamic schedule.
IN_TARGET_REGIONS = r"""
#include <stdio.h>
#define N 2000
int main(void) {
  static double x[N], y[N];
  double rx = 0, ry = 0, s = 0, t = 0;
  for (int k = 0; k < N; k++) { x[k] = (k % 7) * 0.5; y[k] = (k % 5) * 0.25; }
  #pragma omp target parallel for ordered(1) schedule(static, 4) map(tofrom: x)
  for (int k = 1; k < N; k++) {
    #pragma omp ordered depend(sink: k - 1)
    x[k] += x[k - 1] * 0.5;
    #pragma omp ordered depend(source)
  }
  #pragma omp target map(tofrom: y)
  #pragma omp parallel for ordered(1) schedule(dynamic, 3) num_threads(3)
  for (int k = 1; k < N; k++) {
    #pragma omp ordered depend(sink: k - 1)
    y[k] += y[k - 1] * 0.5;
    #pragma omp ordered depend(source)
  }
  for (int k = 0; k < N; k++) {
    double xs = (k % 7) * 0.5, ys = (k % 5) * 0.25;
    rx = k ? xs + rx * 0.5 : xs;
    ry = k ? ys + ry * 0.5 : ys;
    s += (x[k] - rx) * (x[k] - rx);
    t += (y[k] - ry) * (y[k] - ry);
  }
  printf("sequential %d %d\n", s == 0, t == 0);
  return 0;
}
"""


@pytest.mark.parametrize("device", ["host", "cpu"])
def test_doacross_loops_in_target_regions(tmp_path, device):
    assert run_on(tmp_path, IN_TARGET_REGIONS, device) == "sequential 1 1\n"


@pytest.mark.skipif(nvptx.find_ptxas() is None, reason="ptxas not found")
@pytest.mark.parametrize("scheme", ["auto", "control-loop"])
def test_the_gpu_builds_doacross_loops_and_ptxas_takes_them(tmp_path, scheme):
    path = tmp_path / "prog.c"
    path.write_text(IN_TARGET_REGIONS)
    options = driver.CompileOptions(scheme=scheme)
    translation = driver.translate(path, options)
    assert not [r for r in translation.device.remarks if "runs on the host" in r]
    assert len(translation.device.kernels) == 2
    nvptx.assemble(device_driver.device_ptx(translation.device, options), "sm_90")


@pytest.mark.gpu
@pytest.mark.parametrize("scheme", ["auto", "control-loop"])
def test_doacross_loops_run_on_the_gpu(tmp_path, scheme):
    path = tmp_path / "prog.c"
    path.write_text(IN_TARGET_REGIONS)
    # the checkout first, then whatever path the tests run with (wheels beside the image's)
    path_list = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path_list, OMP_TARGET_OFFLOAD="MANDATORY")
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "run", "--device", "gpu", "--scheme", scheme, str(path)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "sequential 1 1\n"


PLAIN_ORDERED = r"""
#include <stdio.h>
#define N 1024
int main(void) {
  int a[N], b[N];
  a[0] = b[0] = 0;
  #pragma omp parallel for ordered
  for (int i = 1; i < N; i++) {
    a[i] = i;
    #pragma omp ordered doacross(sink: i - 1)
    b[i] = a[i - 1] + b[i - 1];
    #pragma omp ordered doacross(source:)
  }
  printf("%d\n", b[N - 1]);
  return 0;
}
"""


def test_a_plain_ordered_clause_is_a_doacross_nest_of_the_collapsed_loops(tmp_path):
    """OpenMP 5.2: `ordered` without n, with doacross in the body, means n = the collapse count."""
    assert run(tmp_path, PLAIN_ORDERED, 4) == f"{sum(range(1023))}\n"
