"""Device code generation without a GPU: scheme choice, kernels, PTX that ptxas accepts.

CI has ptxas but no GPU; these tests assemble the PTX of every corpus program
that has target regions, for the default architecture."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from host_regions import HOST_BY_DESIGN, unexpected_host_regions

from omp2gpu import device_driver, driver
from omp2gpu.codegen.openmp.gpu.kernels import kernel_table
from omp2gpu.targets import nvptx

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"
WITH_TARGET = sorted(p for p in PROGRAMS.glob("*.c") if "omp target" in p.read_text())
# Corpus programs whose device code is known to fail to build, and why (strict: once
# fixed the test passes unexpectedly and fails, so the entry must go).
KNOWN_FAILURES: dict[str, str] = {}


def _corpus_param(program: Path):
    reason = KNOWN_FAILURES.get(program.stem)
    return pytest.param(program, marks=pytest.mark.xfail(strict=True, reason=reason)) if reason else program


def _translate(tmp_path, source: str, **options):
    path = tmp_path / "prog.c"
    path.write_text(source)
    return driver.translate(path, driver.CompileOptions(**options))


def _schemes(translation) -> list[str]:
    return [kernel.scheme.name for kernel in translation.device.kernels]


VADD = """
void vadd(int n, double *a, double *b, double *c) {
  #pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n], c[0:n])
  for (int i = 0; i < n; i++) a[i] += b[i] + c[i];
}
"""


def test_combined_construct_is_one_grid_stride_kernel(tmp_path):
    translation = _translate(tmp_path, VADD)
    assert _schemes(translation) == ["combined"]
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    kernel = ptx[ptx.index(".entry"):]
    assert "call" not in kernel.split("\n}\n")[0]            # no runtime calls in the kernel
    assert "%ctaid.x" in kernel and "%nctaid.x" in kernel    # grid-stride
    # n is passed by value, the arrays as device pointers (paper Section 5.3)
    params = re.findall(r"\.param \.(\w+)( \.ptr)?", kernel.split(")")[0])
    assert [p[0] for p in params] == ["u64", "u64", "u64", "u32"]


@pytest.mark.parametrize("source, scheme, reason", [
    ("int f(int n, int *a) {\n#pragma omp target map(tofrom: a[0:n])\n a[0] = n; return 0; }",
     "serial", "no parallel construct"),
    ("int f(int n, int *a) {\n#pragma omp target parallel for map(tofrom: a[0:n])\n"
     "for (int i = 0; i < n; i++) a[i] = i; return 0; }", "combined", "SPMD grid-stride loop"),
    ("int f(int n, int *a) {\n#pragma omp target parallel map(tofrom: a[0:n])\n{\na[0] = 1;\n"
     "#pragma omp for\nfor (int i = 0; i < n; i++) a[i] = i; } return 0; }", "spmdized",
     "is not 'target teams distribute"),
    ("int f(int n, int *a) {\n#pragma omp target teams distribute parallel for schedule(dynamic) "
     "map(tofrom: a[0:n])\nfor (int i = 0; i < n; i++) a[i] = i; return 0; }", "spmdized", "schedule"),
    ("int f(int n, int *a) {\n#pragma omp target teams distribute parallel for map(tofrom: a[0:n])\n"
     "for (int i = 0; i < n; i++) {\n#pragma omp atomic\n a[i % 4] += 1; } return 0; }",
     "combined", "grid-stride"),
    ("int f(int n, int *a) {\n#pragma omp target teams\n{\n#pragma omp distribute parallel for\n"
     "for (int i = 0; i < n; i++) a[i] = i; } return 0; }", "combined", "grid-stride"),
    # read-only declarations before the loop: every thread makes its own (the paper's Fig. 1)
    ("int f(int n, int *a) {\n#pragma omp target teams\n{\n double pi = 3.14, two = 2 * pi;\n"
     "#pragma omp distribute parallel for\nfor (int i = 0; i < n; i++) a[i] = i * two; } return 0; }",
     "combined", "declarations run in every thread"),
    # ... but not one that calls a function, reads through a pointer, or that the loop writes:
    # the team master makes it, and the SPMDized kernel's team runs the loop
    ("int f(int n, int *a) {\n#pragma omp target teams\n{\n int t = omp_get_team_num();\n"
     "#pragma omp distribute parallel for\nfor (int i = 0; i < n; i++) a[i] = t; } return 0; }",
     "spmdized", "is not 'target teams distribute"),
    ("int f(int n, int *a) {\n#pragma omp target teams\n{\n int first = a[0];\n"
     "#pragma omp distribute parallel for\nfor (int i = 0; i < n; i++) a[i] = first; } return 0; }",
     "spmdized", "is not 'target teams distribute"),
    ("int f(int n, int *a) {\n#pragma omp target teams\n{\n int k = n;\n"
     "#pragma omp distribute parallel for\nfor (int i = 0; i < n; i++) a[i] = k++; } return 0; }",
     "spmdized", "is not 'target teams distribute"),
])
def test_scheme_choice_and_reason(tmp_path, source, scheme, reason):
    translation = _translate(tmp_path, "#include <omp.h>\n" + source)
    (remark,) = translation.device.remarks
    assert f"{scheme} scheme" in remark
    assert reason in remark


def test_host_scheme_region_is_explained(tmp_path):
    translation = _translate(tmp_path, "int f(int *a) {\n#pragma omp target parallel map(a[0:4])\n"
                                       "{ a[0] = 1; } return 0; }", scheme="host")
    assert translation.device.kernels == []
    assert "runs on the host" in translation.device.remarks[0]


def test_forced_serial_scheme(tmp_path):
    translation = _translate(tmp_path, VADD, scheme="serial")
    assert translation.device.kernels == []        # a loop construct has parallelism: not serial


@pytest.mark.skipif(nvptx.find_ptxas() is None, reason="ptxas not found")
@pytest.mark.parametrize("program", [_corpus_param(p) for p in WITH_TARGET], ids=[p.stem for p in WITH_TARGET])
def test_corpus_ptx_assembles(program):
    """Every target region of the corpus becomes a kernel that ptxas takes: a region the
    device build sent to the host is a device regression, not a reason to skip (unless it
    runs there by design: tests/host_regions.py)."""
    translation = driver.translate(program, driver.CompileOptions())
    on_host = unexpected_host_regions(program.stem, translation.device.remarks)
    assert not on_host, "target regions sent to the host:\n" + "\n".join(on_host)
    assert translation.device.kernels or program.stem in HOST_BY_DESIGN, f"{program.name}: no kernel was built"
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    nvptx.assemble(ptx, "sm_90")
    for region in translation.device.kernels:
        assert f".entry {region.kernel_name}" in ptx


TEAM_SHARED_ARRAY = """
#include <omp.h>
long sum(int words) {
  long total = 0;
  #pragma omp target teams num_teams(2) map(tofrom: total)
  {
    int small[16];
    int big[WORDS];
    for (int i = 0; i < WORDS; i++) big[i] = i;
    for (int i = 0; i < 16; i++) small[i] = i;
    #pragma omp parallel
    {
      long s = small[omp_get_thread_num() % 16];
      for (int i = omp_get_thread_num(); i < WORDS; i += omp_get_num_threads()) s += big[i];
      #pragma omp atomic
      total += s;
    }
  }
  return total;
}
"""


@pytest.mark.parametrize("words, frame", [(1000, 0), (20000, 80128)])
def test_team_shared_variables_beyond_shared_memory_go_on_the_team_stack(tmp_path, words, frame):
    """Shared memory holds team-shared variables up to its limit; a larger one goes in the
    team's frame of the global-memory team stack, and the region still runs on the GPU."""
    translation = _translate(tmp_path, TEAM_SHARED_ARRAY.replace("WORDS", str(words)))
    (region,) = translation.device.kernels
    assert region.scheme.name == "spmdized"         # the control loop's team-shared storage
    assert region.team_stack_bytes == frame
    assert kernel_table(translation.device)[region.kernel_name].team_stack_bytes == frame
    kernel = translation.device.module.get_global(region.kernel_name)
    assert [a.name for a in kernel.args][-1] == "team_stack"


CRITICAL_ON_TEAM_SHARED = """
int f(int *out) {
  #pragma omp target teams num_teams(2) map(tofrom: out[0:2])
  {
    long locked = 0;
    int seen = 0;
    #pragma omp parallel
    {
      #pragma omp critical
      locked += omp_get_thread_num();
      if (omp_get_thread_num() == 0) seen = 1;
    }
    out[omp_get_team_num()] = (int)locked + seen;
  }
  return 0;
}
"""


def test_team_shared_variable_named_in_critical_lives_on_the_team_stack(tmp_path):
    """racecheck sees shared-memory accesses a lock orders as hazards: a variable a
    critical construct names is team-shared in global memory; the others in shared memory."""
    translation = _translate(tmp_path, "#include <omp.h>\n" + CRITICAL_ON_TEAM_SHARED)
    (region,) = translation.device.kernels
    assert region.scheme.name == "spmdized"                    # the control loop's team sharing
    assert region.team_stack_bytes == 256                      # `locked`, in a rounded frame
    shared = [g.name for g in translation.device.module.global_values
              if getattr(g, "addrspace", 0) == nvptx.SHARED_ADDRESS_SPACE]
    assert any(name.endswith("_seen") for name in shared)
    assert not any("locked" in name for name in shared)


def test_control_loop_latch_reconverges_the_warp_before_the_barrier(tmp_path):
    """Threads of one warp reach the control loop's barrier from different states (the
    master from its sequential code, the others straight); on sm_70+ nothing reconverges
    them, and the H100 let the master's warp-mates through before the master arrived
    (they ran a state behind: lost parallel-for work inside distribute)."""
    translation = _translate(tmp_path, "#include <omp.h>\n" + CRITICAL_ON_TEAM_SHARED, scheme="control-loop")
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    kernel = ptx[ptx.index(".entry"):]
    assert re.search(r"bar\.warp\.sync\s+%r\d+;\s+barrier\.sync\s+0;", kernel)   # the warp meets first
    assert not re.search(r"bar\.warp\.sync\s+-1;", kernel)     # folded into the barrier's own: see diverged_barrier
    assert "bar.sync" not in kernel


EXPLICIT_BARRIER = """
#include <omp.h>
void ring(int *out, int n) {
  #pragma omp target parallel map(from: out[0:64]) %s
  {
    int id = omp_get_thread_num(), k;
    out[id] = id;
    #pragma omp barrier
    k = out[(id + 1) %% omp_get_num_threads()];
    #pragma omp barrier
    out[id] = k;
  }
}
"""


@pytest.mark.parametrize("clause, aligned", [("", 2), ("num_threads(n)", 0)])
def test_a_programs_own_barrier_is_aligned_where_the_whole_team_runs_the_region(tmp_path, clause, aligned):
    """A `#pragma omp barrier` of an SPMDized region every thread of the team runs is
    bar.sync, as Clang's SPMD barrier and __syncthreads (cl_barrier_ring: 1.65x -> 1.00x
    Clang on the H200); where num_threads may leave threads out, they wait at another
    barrier instruction, so the region's own stay warp-synchronised barrier.sync. The
    guards' barriers are never aligned (session 18: 13 GPU tests failed)."""
    translation = _translate(tmp_path, EXPLICIT_BARRIER % clause)
    assert _schemes(translation) == ["spmdized"]
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    kernel = ptx[ptx.index(".entry"):].split("\n}\n")[0]
    assert kernel.count("bar.sync") == aligned
    assert re.search(r"bar\.warp\.sync\s+%r\d+;\s+barrier\.sync\s+0;", kernel)     # the guards' barriers
    assert not re.search(r"bar\.warp\.sync\s+-1;", kernel)


MASTER_THEN_BARRIER = """
#include <omp.h>
int tally(const int *w, int n) {
  int total, bad = 0;
  #pragma omp target parallel shared(total) map(to: w[0:n]) map(tofrom: bad)
  {
    #pragma omp master
    total = 0;
    #pragma omp barrier
    #pragma omp for reduction(+: total)
    for (int i = 0; i < n; i++)
      total += w[i];
    #pragma omp single
    bad = total < 0;
  }
  return bad;
}
"""


def test_a_barrier_after_master_stays_one_instruction(tmp_path):
    """The aligned bar.sync of a `#pragma omp barrier` after a `master` block, whose join
    also holds a runtime call: LLVM's call-site splitting copied the block, barrier and
    all, into the master's branch and the others', and a warp whose lanes met bar.sync at
    two places hung (aomp's smoke test `reduction` on the H200; llvm_options
    barriers_kept_whole). One barrier in the source is one bar.sync in the PTX."""
    translation = _translate(tmp_path, MASTER_THEN_BARRIER)
    assert _schemes(translation) == ["spmdized"]
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    kernel = ptx[ptx.index(".entry"):].split("\n}\n")[0]
    assert kernel.count("bar.sync") == 1


FPRINTF_IN_REGIONS = """
#include <stdio.h>
void report(const double *v, int n, FILE *log) {
  #pragma omp target teams distribute parallel for map(to: v[0:n])
  for (int i = 0; i < n; i++)
    if (v[i] < 0) fprintf(stderr, "v[%d] = %g is negative\\n", i, v[i]);
  #pragma omp target map(to: v[0:n])
  fprintf(log, "first %g\\n", v[0]);
}
"""


def test_fprintf_to_a_standard_stream_is_the_devices_printf_and_to_a_file_runs_on_the_host(tmp_path):
    """fprintf(stderr, ...) in a kernel is CUDA's printf (gpu/printf.py); fprintf on any
    other FILE keeps its region on the host, with the reason (it was an unresolved
    `fprintf` when the driver loaded the PTX: aomp's smoke test fprintf)."""
    translation = _translate(tmp_path, FPRINTF_IN_REGIONS)
    assert _schemes(translation) == ["combined"]
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    code = "\n".join(line for line in ptx.splitlines() if not line.lstrip().startswith("//"))
    assert "vprintf" in code and "fprintf" not in code
    remarks = translation.device.remarks
    assert any(remark.endswith("runs on the host: it calls fprintf on a FILE other than stdout or stderr, and a GPU "
                               "writes no host file") for remark in remarks), remarks


def test_control_loop_vadd_reads_its_arrays_from_parameters_and_leaves_without_a_barrier(tmp_path):
    """vadd under the control loop (the H200's 1.18x CUDA C, session 20): the pointer the
    loop writes through is nobody's assignment, so each thread keeps its parameter (global
    loads and stores, no shared copy); and the team leaves the loop at FINAL, which it
    read after the master's barrier, without meeting at the barrier once more."""
    translation = _translate(tmp_path, VADD, scheme="control-loop")
    device = translation.device.module
    assert not [g.name for g in device.global_values
                if getattr(g, "addrspace", 0) == nvptx.SHARED_ADDRESS_SPACE and "shared_" in g.name
                and g.name.endswith("_a")]
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    kernel = ptx[ptx.index(".entry"):].split("\n}\n")[0]
    assert re.findall(r"\bld\.b64|\bst\.b64", kernel) == []            # no generic access to a[]
    assert kernel.count("barrier.sync") == 1                               # the latch's
    blocks = {block.name: block for function in device.functions for block in function.blocks}
    # the latch's only way is back to the header; FINAL's, out
    assert [target.name for target in blocks["control.latch"].terminator.operands] == ["control.header"]
    assert [target.name for target in blocks["control.final"].terminator.operands] == ["control.exit"]


@pytest.mark.parametrize("clause, preloads", [("", True), ("dist_schedule(static) ", True),
                                              ("dist_schedule(static, 64) ", False)])
def test_control_loop_latch_reads_a_single_chunks_bounds_after_the_barrier(tmp_path, clause, preloads):
    """One chunk a team (no dist_schedule chunk size): the team reads its thread count and
    chunk bounds right after the barrier, not once the switch has chosen the state. With
    several chunks a team the master writes the next chunk's after a barrier: no such
    reads, which would race."""
    source = VADD.replace("distribute parallel for ", f"distribute parallel for {clause}")
    translation = _translate(tmp_path, source, scheme="control-loop")
    blocks = {block.name: block for function in translation.device.module.functions for block in function.blocks}
    latch = blocks["control.latch"].instructions
    loads = [i for i in latch if i.opname == "load"]
    counts = [i for i in latch if i.opname == "call" and "parallel_start" in str(i)]
    assert len(loads) == (3 if preloads else 1)      # the next state, then the chunk's bounds
    assert len(counts) == (1 if preloads else 0)     # and the team's thread count


def _exits(device) -> set[str]:
    """The blocks that branch to the control loop's exit."""
    return {block.name for function in device.functions for block in function.blocks
            if block.terminator is not None and "control.exit" in [getattr(t, "name", None)
                                                                   for t in block.terminator.operands]}


VADD_SUM = VADD.replace("map(to: b[0:n], c[0:n])", "map(to: b[0:n], c[0:n]) reduction(+: s)").replace(
    "void vadd(int n, double *a, double *b, double *c) {", "double vadd(int n, double *a, double *b, double *c) {\n"
    "  double s = 0;").replace("a[i] += b[i] + c[i];", "s += a[i] += b[i] + c[i];\n  return s;")


@pytest.mark.parametrize("spelling", ["combined", "split"])
def test_control_loop_team_leaves_after_its_last_chunk(tmp_path, spelling):
    """A distribute parallel for that is the region's whole work: the master flags the
    team's last chunk (dist_last) as it dispatches it; after that chunk's parallel region
    its threads, and those the region left out, go to the exit instead of meeting the
    master at the barrier twice more. vadd's team meets 1 barrier, not 3."""
    source = VADD if spelling == "combined" else VADD.replace(
        "#pragma omp target teams distribute parallel for map(tofrom: a[0:n]) map(to: b[0:n], c[0:n])",
        "#pragma omp target map(tofrom: a[0:n]) map(to: b[0:n], c[0:n])\n"
        "  #pragma omp teams\n  #pragma omp distribute parallel for num_threads(n > 1000 ? 64 : 32)")
    translation = _translate(tmp_path, source, scheme="control-loop")
    device = translation.device.module
    assert any(g.name.endswith("_dist_last") for g in device.global_values)
    exits = _exits(device)
    assert any(name.endswith(".left_out") for name in exits)      # threads above num_threads
    assert len(exits) == 3          # and the region's own threads, besides FINAL


def test_control_loop_team_waits_for_the_master_when_code_follows_the_last_chunk(tmp_path):
    """A reduction folds the team's value after its last chunk: the team goes on to FINAL."""
    translation = _translate(tmp_path, VADD_SUM, scheme="control-loop")
    device = translation.device.module
    assert not any(g.name.endswith("_dist_last") for g in device.global_values)
    assert _exits(device) == {"control.final"}


MANY_REDUCTIONS = """
void folds(int n, int *v, int *sum, double *prod, int *hi, double *lo) {
  int s = 0, m = -1000; double p = 1, l = 1e300;
  #pragma omp target teams distribute parallel for map(to: v[0:n]) reduction(+: s) reduction(*: p) \\
      reduction(max: m) reduction(min: l)
  for (int i = 0; i < n; i++) { s += v[i]; p *= 1.0 + v[i] % 2; m = v[i] > m ? v[i] : m; l = v[i] < l ? v[i] : l; }
  *sum = s; *prod = p; *hi = m; *lo = l;
}
"""


def test_combined_reductions_meet_at_one_barrier(tmp_path):
    """Every reduction variable of a combined kernel is folded across warps, then the team
    meets once and warp 0 folds them all: four variables, one barrier (they met four)."""
    translation = _translate(tmp_path, MANY_REDUCTIONS)
    assert _schemes(translation) == ["combined"]
    ptx = device_driver.device_ptx(translation.device, driver.CompileOptions())
    kernel = ptx[ptx.index(".entry"):].split("\n}\n")[0]
    assert kernel.count("barrier.sync") == 1
    assert len(re.findall(r"atom\.", kernel)) >= 4               # one atomic fold per variable


@pytest.mark.skipif(nvptx.find_ptxas() is None or shutil.which("nvcc") is None, reason="needs nvcc and ptxas")
def test_combined_vadd_needs_no_more_registers_than_cuda_c(tmp_path):
    """Issue goal: the combined construct's vadd kernel uses no more registers than the
    same grid-stride loop written in CUDA C (bench/vadd/vadd.cu) and built by nvcc."""
    bench = Path(__file__).resolve().parents[2] / "bench" / "vadd"
    arch = "sm_90"
    translation = driver.translate(bench / "vadd.c", driver.CompileOptions(offload_arch=arch))
    ours = nvptx.resource_usage(device_driver.device_ptx(translation.device, driver.CompileOptions(
        offload_arch=arch)), arch)
    (kernel,) = [r for r in translation.device.kernels if r.scheme.name == "combined"]
    cuda_ptx = tmp_path / "vadd.ptx"
    subprocess.run(["nvcc", f"-arch={arch}", "-ptx", str(bench / "vadd.cu"), "-o", str(cuda_ptx)], check=True)
    reference = nvptx.resource_usage(cuda_ptx.read_text(), arch)
    (cuda_name,) = [name for name in reference if "vectorAdd" in name]
    assert 0 < ours[kernel.kernel_name].registers <= reference[cuda_name].registers


SEQUENTIAL_PART_BESIDE_PARALLEL = """
int f(int *out) {
  int x = 5;
  #pragma omp target map(tofrom: out[0:4])
  {
    CONSTRUCT
    x = 7;
    out[0] = x;
    #pragma omp parallel for
    for (int i = 1; i < 4; i++) out[i] = i;
  }
  return 0;
}
"""


@pytest.mark.parametrize("construct", ["#pragma omp task firstprivate(x)",
                                       "#pragma omp sections private(x)\n{"])
def test_a_task_or_sections_in_a_control_loop_region_writes_its_own_copies(tmp_path, construct):
    """The control loop runs a task or sections where they are met, in their own data
    environment: the copy of x they write is not the region's (out[0] must read 5)."""
    source = SEQUENTIAL_PART_BESIDE_PARALLEL.replace("CONSTRUCT", construct)
    if construct.endswith("{"):
        source = source.replace("x = 7;", "x = 7; }")
    translation = _translate(tmp_path, source)
    (region,) = translation.device.kernels
    assert region.scheme.name == "spmdized"                    # the control loop's team-master code
    kernel = str(translation.device.module.get_global(region.kernel_name))
    regions_x = re.search(r'store i32 %"x", i32\* (%"[^"]+")', kernel)[1]
    stores_of_7 = re.findall(r"store i32 7, i32\* (%\"?[^\s,]+)", kernel)
    assert stores_of_7 and regions_x not in stores_of_7


ORDERED_IN_PARALLEL = """
int main(void) {
  int order[64], n = 0;
  #pragma omp target parallel for ordered map(tofrom: order, n)
  for (int i = 0; i < 64; i++) {
    #pragma omp ordered
    order[n++] = i;
  }
  return order[63] - n;
}
"""


def test_an_ordered_block_in_a_parallel_region_is_refused_by_the_control_loop(tmp_path):
    """The control loop ran an ordered block in each thread as it came, in no order (and
    racing on n): the region runs on the host instead."""
    translation = _translate(tmp_path, ORDERED_IN_PARALLEL)
    assert translation.device.kernels == []
    assert any(remark.endswith("runs on the host: '#pragma omp ordered' in a parallel region is not "
                               "supported on the GPU yet") for remark in translation.device.remarks)


COPYPRIVATE_IN_PARALLEL = """
#include <omp.h>
int main(void) {
  int out[8] = {0};
  #pragma omp target parallel num_threads(4) map(tofrom: out)
  {
    int mine = 0;
    #pragma omp single copyprivate(mine)
    mine = 42;
    out[omp_get_thread_num()] = mine;
  }
  return out[1] - 42;
}
"""


def test_copyprivate_in_a_parallel_region_is_refused_by_the_control_loop(tmp_path):
    """The control loop ran the single block in the master only and never copied the
    value to the others: the region runs on the host instead."""
    translation = _translate(tmp_path, COPYPRIVATE_IN_PARALLEL)
    assert translation.device.kernels == []
    assert any(remark.endswith("runs on the host: 'copyprivate' in a parallel region is not supported "
                               "inside a GPU target region") for remark in translation.device.remarks)
