"""`omp2gpu report` (omp2gpu.tools.report, launch_sweep) and the launch override it sweeps with.

No GPU needed: ptxas's figures, occupancy, the output formats, the errors, the
sweep's bookkeeping (with the program runs faked) and OMP2GPU_LAUNCH in the
launcher. Tests that assemble skip without ptxas; the `gpu` test runs
`report --run --compare-schemes` for real.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from kernel_testing import GivenFigures

from omp2gpu.targets import nvptx
from omp2gpu.tools import cli, launch_sweep, report
from omp2gpu.tools.gpu_kernels import Kernel

REPO_ROOT = Path(__file__).resolve().parents[2]
requires_ptxas = pytest.mark.skipif(nvptx.find_ptxas() is None, reason="ptxas not found (no CUDA toolkit)")

# A kernel of each scheme the GPU runs: combined (line 7), serial (line 10), control loop (line 12).
PROGRAM = r"""#include <stdio.h>
#define N 1000
int main(void) {
    double a[N], b[N], c[N];
    int i, flag = 0;
    for (i = 0; i < N; i++) { a[i] = i; b[i] = 2 * i; }
    #pragma omp target teams distribute parallel for map(to: a, b) map(from: c) thread_limit(256)
    for (i = 0; i < N; i++)
        c[i] = a[i] + b[i];
    #pragma omp target map(tofrom: flag)
    flag = 42;
    #pragma omp target map(tofrom: c)
    {
        #pragma omp parallel for schedule(dynamic, 64)
        for (i = 0; i < N; i++)
            c[i] = c[i] * 2;
    }
    printf("c[N-1]=%.1f flag=%d\n", c[N - 1], flag);
    return 0;
}
"""

# Arrays mapped by an enclosing target data: the kernel's own clauses say nothing of sizes.
RESIDENT = r"""#include <stdlib.h>
int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 4096, i;
    double *a = malloc(sizeof(double) * n), *b = malloc(sizeof(double) * n);
    for (i = 0; i < n; i++) { a[i] = 0; b[i] = i; }
    #pragma omp target data map(tofrom: a[0:n]) map(to: b[0:n])
    {
        #pragma omp target teams distribute parallel for
        for (i = 0; i < n; i++)
            a[i] += b[i];
    }
    return a[n - 1] != n - 1;
}
"""

NO_TARGET = "int main(void) { return 0; }\n"


@pytest.fixture(autouse=True)
def workspace(monkeypatch, tmp_path):
    monkeypatch.setenv("OMP2GPU_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("OMP2GPU_LAUNCH", raising=False)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _source(root: Path, text: str, name: str = "prog.c") -> str:
    (root / name).write_text(text)
    return name


def _report(capsys, *argv) -> tuple[int, str, str]:
    status = cli.main(["report", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def _json(capsys, *argv) -> dict:
    status, out, err = _report(capsys, *argv, "--format", "json")
    assert status == 0, err
    return json.loads(out)


def _one_line_error(status: int, out: str, err: str, *phrases: str) -> None:
    assert status == 1 and out == ""
    assert err.count("\n") == 1 and err.startswith("omp2gpu: error: "), err
    for phrase in phrases:
        assert phrase in err, err


# ----------------------------------------------------------------- the static report
@requires_ptxas
def test_table_names_every_kernel_with_its_scheme_and_figures(workspace, capsys):
    status, out, err = _report(capsys, _source(workspace, PROGRAM), "--offload-arch", "sm_90")
    assert status == 0, err
    for line, scheme in ((7, "combined"), (10, "serial"), (12, "spmdized")):
        title = f"kernel __omp_offloading_main_l{line} (sm_90)"
        assert f"prog.c:{line}:" in out and title in out
        table = out.split(title, 1)[1].split("kernel __omp_offloading", 1)[0]
        assert re.search(rf"^\s*scheme\s+{scheme}\s*$", table, re.MULTILINE), table
    for metric in ("registers per thread", "spill stores / loads", "shared memory (static)",
                   "local memory (stack frame)", "constant memory", "max threads per block",
                   "occupancy", "limited by", "best block size"):
        assert metric in out
    assert "256 (thread_limit clause)" in out and "1 (serial: one thread)" in out
    assert "why: combined construct" in out
    assert "best (#teams, #threads)" not in out           # run rows only with --run


@requires_ptxas
def test_json_figures(workspace, capsys):
    data = _json(capsys, _source(workspace, PROGRAM), "--offload-arch", "sm_80")
    (scheme,) = data["schemes"]
    kernels = {k["kernel"][-3:]: k for k in scheme["kernels"]}
    combined, serial, control = kernels["_l7"], kernels["l10"], kernels["l12"]
    assert (combined["scheme"], serial["scheme"], control["scheme"]) == ("combined", "serial", "spmdized")
    assert combined["arch"] == "sm_80" and 0 < combined["registers"] < 64
    assert combined["bytes"] == 3 * 8 * 1000             # a and b to, c from: once each
    assert combined["occupancy"]["block_size"] == 256 and 0 < combined["occupancy"]["occupancy"] <= 1
    assert combined["max_threads_per_block"] == 1024
    assert serial["block_size"] == 1 and serial["occupancy"]["active_blocks"] == 32   # sm_80's block limit
    assert control["shared_bytes"] > 0 and control["barriers"] >= 1
    assert control["bytes"] == 2 * 8 * 1000              # c tofrom: read and written


@requires_ptxas
def test_markdown_and_output_file(workspace, capsys):
    status, out, err = _report(capsys, _source(workspace, PROGRAM), "--format", "markdown", "-o", "r.md")
    assert status == 0 and out == "", err
    text = (workspace / "r.md").read_text()
    assert "### prog.c:7:" in text and "| registers per thread |" in text and "| why |" in text


@requires_ptxas
def test_compare_schemes_side_by_side(workspace, capsys):
    source = _source(workspace, PROGRAM)
    status, out, err = _report(capsys, source, "--compare-schemes")
    assert status == 0, err
    assert "--scheme combined" in out and "--scheme spmdized" in out and "--scheme control-loop" in out
    data = _json(capsys, source, "--compare-schemes")
    assert [s["requested"] for s in data["schemes"]] == ["combined", "spmdized", "control-loop"]
    first, spmdized, last = ({k["kernel"]: k for k in scheme["kernels"]} for scheme in data["schemes"])
    name = "__omp_offloading_main_l7"
    assert (first[name]["scheme"], spmdized[name]["scheme"], last[name]["scheme"]) == (
        "combined", "spmdized", "control-loop")
    # the control loop's state lives in shared memory; the grid-stride loop needs none
    assert first[name]["shared_bytes"] == 0 < last[name]["shared_bytes"]


@requires_ptxas
def test_maxrregcount_reaches_ptxas(workspace, capsys):
    source = _source(workspace, PROGRAM)
    plain = _json(capsys, source, "--scheme", "control-loop")
    capped = _json(capsys, source, "--scheme", "control-loop", "--maxrregcount", "24")
    name = "__omp_offloading_main_l7"
    before = {k["kernel"]: k for k in plain["schemes"][0]["kernels"]}[name]["registers"]
    after = {k["kernel"]: k for k in capped["schemes"][0]["kernels"]}[name]["registers"]
    assert before > 24 >= after


@requires_ptxas
def test_block_size_option(workspace, capsys):
    data = _json(capsys, _source(workspace, PROGRAM), "--block-size", "64")
    combined = data["schemes"][0]["kernels"][0]
    assert (combined["block_size"], combined["block_size_from"]) == (64, "--block-size")
    assert combined["occupancy"]["block_size"] == 64


@requires_ptxas
def test_sizes_unknown_to_the_construct_are_na(workspace, capsys):
    (kernel,) = _json(capsys, _source(workspace, RESIDENT))["schemes"][0]["kernels"]
    assert kernel["bytes"] is None and "no to/from map clause" in kernel["bytes_from"]


@requires_ptxas
def test_architecture_without_occupancy_data(workspace, capsys):
    status, out, err = _report(capsys, _source(workspace, RESIDENT), "--offload-arch", "sm_110")
    assert status == 0, err
    assert "no occupancy data for sm_110" in out and "registers per thread" in out


@requires_ptxas
def test_blackwell_geforce_occupancy(workspace, capsys):
    status, out, err = _report(capsys, _source(workspace, RESIDENT), "--offload-arch", "sm_120")
    assert status == 0, err
    assert "no occupancy data" not in out and "/48 warps" in out.replace(" / ", "/"), out


# ----------------------------------------------------------------- bad input: one line, exit 1
def test_no_target_region(workspace, capsys):
    _one_line_error(*_report(capsys, _source(workspace, NO_TARGET)), "no target region")


def test_ptxas_missing(workspace, capsys, monkeypatch):
    monkeypatch.setattr(nvptx, "find_ptxas", lambda: None)
    _one_line_error(*_report(capsys, _source(workspace, PROGRAM)), "ptxas not found")


def test_unknown_architecture(workspace, capsys):
    _one_line_error(*_report(capsys, _source(workspace, PROGRAM), "--offload-arch", "sm_13"),
                    "unknown GPU architecture 'sm_13'")


@pytest.mark.parametrize("size", ["2048", "0"])
def test_block_size_out_of_range(workspace, capsys, size):
    _one_line_error(*_report(capsys, _source(workspace, PROGRAM), "--block-size", size), f"block size {size}")


@requires_ptxas
def test_block_size_over_the_kernels_limit(workspace, capsys, monkeypatch):
    # 255 registers a thread leave room for 256 threads in a block
    def heavy(ptx, arch, opt_level=3, maxrregcount=None):
        return {name: nvptx.KernelResources(name, registers=255)
                for name in re.findall(r"\.entry\s+(\w+)", ptx)}
    monkeypatch.setattr(nvptx, "resource_usage", heavy)
    _one_line_error(*_report(capsys, _source(workspace, RESIDENT), "--block-size", "512"),
                    "block size 512 is over the limit of kernel", "256 threads per block")


def test_bad_maxrregcount_and_sweep_lists(workspace, capsys):
    source = _source(workspace, PROGRAM)
    _one_line_error(*_report(capsys, source, "--maxrregcount", "300"), "--maxrregcount 300")
    with pytest.raises(Exception, match="--teams"):
        launch_sweep.parse_list("1,x", "teams")


@pytest.mark.no_gpu
def test_run_without_a_gpu(workspace, capsys):
    _one_line_error(*_report(capsys, _source(workspace, PROGRAM), "--run"), "--run needs a CUDA GPU")


def test_program_arguments_after_dashes():
    args, program_args = cli.parse_command_line(["report", "p.c", "--run", "--", "100", "-x"])
    assert (args.command, args.run, program_args) == ("report", True, ["100", "-x"])


# ----------------------------------------------------------------- the sweep, with runs faked
def _profile(grid, block, times, registers=30):
    return {"device": "Fake GPU", "kernels": {"k": {
        "registers": registers, "shared_bytes": 40, "local_bytes": 0,
        "launches": [{"grid": grid, "block": block, "us": us} for us in times]}}}


def test_sweep_keeps_each_kernels_fastest_launch(monkeypatch):
    runs = {(0, 0): (_profile(2048, 128, [50.0, 40.0]), ""),
            (64, 256): (_profile(64, 256, [30.0, 31.0]), ""),
            (64, 1024): (None, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES")}
    monkeypatch.setattr(launch_sweep, "run_once", lambda path, scheme, flags, args, t, n: runs[(t, n)])
    steps = []
    results, failures = launch_sweep.sweep("p.c", "combined", [], [], list(runs), steps.append)
    best = results["k"]
    assert (best.grid, best.block, best.us, best.default_us, best.registers) == (64, 256, 30.0, 40.0, 30)
    assert len(best.timings) == 2 and len(steps) == 3
    assert failures == ["combined (teams 64, threads 1024): CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"]


def test_run_figures_bandwidth_and_occupancy():
    kernel = Kernel("k", "p.c:3", "#pragma omp target", "combined", "why", GivenFigures(registers=22),
                    block_size=128, bytes=3_200_000, bytes_from="map clauses")
    result = launch_sweep.RunResult(grid=132, block=512, us=10.0, registers=22, shared_bytes=0)
    report.attach_runs(kernel, result, "sm_90", 132, None)
    assert result.gbs == pytest.approx(320.0)              # 3.2 MB in 10 us
    assert result.occupancy == 1.0 and result.grid_occupancy == 0.25
    run = report.attach_runs(kernel, result, "sm_90", 132, 1_000_000)
    assert result.gbs == pytest.approx(100.0) and run.bytes_from == "--bytes"
    text = report.render([report.SchemeReport("auto", {"k": kernel}, [], {"k": run})], "table", "p.c", run=True)
    assert re.search(r"best \(#teams, #threads\) +\(132, 512\)", text)
    assert re.search(r"valuable bandwidth \(GB/s\) +100.0", text)


def test_compile_flags_forwarded_to_run():
    args, _ = cli.parse_command_line(["report", "p.c", "-DN=4", "-Iinc", "-O3", "--offload-arch", "sm_80"])
    flags = launch_sweep.compile_flags(args)
    assert {"-DN=4", "-Iinc", "-O3", "--offload-arch=sm_80"} <= set(flags)


# ----------------------------------------------------------------- on a GPU
@pytest.mark.gpu
def test_run_sweeps_both_schemes_on_the_gpu(workspace):
    source = _source(workspace, RESIDENT)
    path = os.pathsep.join(filter(None, [str(REPO_ROOT), os.environ.get("PYTHONPATH")]))
    env = dict(os.environ, PYTHONPATH=path)
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "report", source, "--run", "--compare-schemes",
                           "--teams", "0,16", "--threads", "0,256", "--bytes", str(3 * 8 * 100000),
                           "--format", "json", "--", "100000"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    for scheme in data["schemes"]:
        (kernel,) = scheme["kernels"]
        run = kernel["run"]
        assert run is not None, (scheme["requested"], data["notes"])
        assert run["us"] > 0 and run["gbs"] > 0 and run["registers"] > 0
        assert run["default_us"] is not None               # (0, 0): the launcher's own choice
        configs = {(t[0], t[1]) for t in run["timings"]}
        assert configs == {(0, 0), (0, 256), (16, 0), (16, 256)}
        # OMP2GPU_LAUNCH was honoured: 16 teams ran as 16 blocks, 256 threads as 256
        assert all(t[2] == 16 for t in run["timings"] if t[0] == 16)
        assert all(t[3] == 256 for t in run["timings"] if t[1] == 256)
        assert 0 < run["occupancy"] <= 1
