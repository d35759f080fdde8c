"""The OpenMP validation suite's OpenMP 4.5 C tests (SOLLVE sollve_vv, tests/4.5) through omp2gpu.

The suite is not part of this repository: point the script at a checkout of it.

    python bench/validation_suite/run.py SOLLVE_CHECKOUT [--device cpu|gpu] [--scheme auto|control-loop]
                                         [--jobs N] [--out DIR] [--openmp 4.5|5.0|...]

Each test is one C file that prints "[OMPVV_RESULT: name] Test passed" and exits 0, or
reports its failure and exits non-zero. A test counts as
- passed:  exit status 0;
- refused: omp2gpu reported a located error (a feature it does not support: the message
           names it);
- failed:  anything else (a wrong result the test detected, a crash, a time-out).
Writes results-<device>-<scheme>.md (counts and every test not passed, with its first error
line) next to this script and to --out.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
TIMEOUT_S = 120
# Tests whose own check is at fault, read and confirmed by hand (gcc's host build fails
# them the same way where it applies); shown beside their outcome, still counted.
TEST_DEFECTS = {
    "target_teams_distribute/test_target_teams_distribute_dist_schedule.c":
        "test defect: its dist_schedule(static) check reads a[] (the chunked loop's) not b[], so it "
        "fails whenever the first loop had fewer than N/64 = 16 teams (8 on this CPU device)",
    "target/test_target_firstprivate_device.c":
        "undefined behaviour: its check computes i*i in int for i up to 2^20 (signed overflow); LLVM "
        "evaluates the comparison without wrapping, gcc happens to wrap (with unsigned arithmetic it passes)",
    "target_update/test_target_update_mapper_from_discontiguous.c":
        "its first region writes through a struct's pointer member that nothing maps (the struct's "
        "mapper is named, so it does not apply there): a GPU without HMM faults",
    "taskloop/test_taskloop_if.c":
        "timing-dependent: expects a deferred taskloop's tasks on several threads; on a busy "
        "2-core machine one thread may run them all",
}
# Tests that need an offload device (they check that the region ran on one, or that
# `if(false)` moved it to the host): with --device host gcc's build fails them too.
NEED_A_DEVICE = ("application_kernels/omp_default_device.c", "offloading_success.c",
                 "target/test_target_map_struct_default.c",
                 "target_teams_distribute_parallel_for/test_target_teams_distribute_parallel_for_if_no_modifier.c",
                 "target_teams_distribute_parallel_for/test_target_teams_distribute_parallel_for_if_parallel_modifier.c",
                 "metadirective/test_metadirective_arch_is_nvidia.c",
                 "metadirective/test_metadirective_arch_nvidia_or_amd.c",
                 "target/test_target_memcpy_async_no_obj.c",          # 5.1: errors when omp_get_num_devices() < 1
                 "target/test_target_device.c")                        # 5.0: likewise (its device_num half)
# Tests that need the device's copy to be separate from the host's (a write inside the region
# must not reach the host, or a `target update` must move a value only the device has): on
# --device host, where the two are one, they fail by design.
SEPARATE_COPY = {
    name: "needs a separate device copy: gcc's host build fails it the same way"
    for name in ("target/test_target_defaultmap_none.c", "target/test_target_defaultmap_to_from_tofrom.c",
                 "teams_loop/test_target_teams_loop_defaultmap.c")} | {
    name: "needs a separate device copy (gcc 12 cannot compile it)"
    for name in ("target_update/test_target_update_from_discontiguous.c",
                 "target_update/test_target_update_to_discontiguous.c",
                 "target_update/test_target_update_mapper_from_discontiguous.c",
                 "target_update/test_target_update_mapper_to_discontiguous.c",
                 "target/test_target_defaultmap_present.c", "target/test_target_defaultmap_present_scalar.c")}
# Tests the suite's Makefile links with its library (OMPVVLIB, built from ompvv/libompvv.c).
WITH_LIBRARY = {"qmcpack_target_static_lib.c"}


# The suite's Makefile runs test_<variable>_env_<value>.c with <VARIABLE>=<value> set.
_ENV_IN_NAME = re.compile(r"test_(\w+?)_env_([^.]+)\.c$")


def environment_in_name(name: str) -> dict[str, str]:
    """The environment variable a test's name asks for, as the suite's Makefile sets it."""
    found = _ENV_IN_NAME.match(name)
    return {found[1].upper(): found[2]} if found else {}


def run_test(test: Path, include: Path, device: str, scheme: str, compiler: str = "omp2gpu") -> tuple[str, str]:
    """(outcome, detail) of one test, compiled and run from its own folder as its Makefile does."""
    library = [str(include / "libompvv.c")] if test.name in WITH_LIBRARY else []
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), os.environ.get("PYTHONPATH")])))
    env.update(environment_in_name(test.name))
    if compiler == "gcc":
        return _gcc_outcome(test, include, library, env)
    command = [sys.executable, "-m", "omp2gpu.tools.cli", "run", "--device", device, "--scheme", scheme,
               "-I", str(include), test.name, *library, "-lm"]
    try:
        done = subprocess.run(command, cwd=test.parent, env=env, capture_output=True, text=True,
                              stdin=subprocess.DEVNULL, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return "failed", f"timed out after {TIMEOUT_S} s"
    return _outcome(done)


def _gcc_outcome(test: Path, include: Path, library: list[str], env: dict) -> tuple[str, str]:
    """The reference: the same test built by `gcc -fopenmp` (target regions on the host, as
    gcc without an offload compiler runs them); a compile error counts as refused."""
    with tempfile.TemporaryDirectory() as scratch:
        program = str(Path(scratch) / "test")
        built = subprocess.run(["gcc", "-fopenmp", "-foffload=disable", "-I", str(include), test.name, *library,
                                "-lm", "-o", program], cwd=test.parent, capture_output=True, text=True)
        if built.returncode != 0:
            errors = [line for line in built.stderr.splitlines() if "error:" in line]
            return "refused", errors[0] if errors else "gcc failed"
        try:
            done = subprocess.run([program], cwd=test.parent, env=env, capture_output=True, text=True,
                                  stdin=subprocess.DEVNULL, timeout=TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return "failed", f"timed out after {TIMEOUT_S} s"
    return _outcome(done)


def _outcome(done: subprocess.CompletedProcess) -> tuple[str, str]:
    output = done.stdout + done.stderr
    errors = [line for line in output.splitlines() if "error:" in line]
    if done.returncode == 0:
        return "passed", ""
    if errors:
        return "refused", errors[0]
    lines = [line for line in output.splitlines() if "fail" in line.lower()] or output.splitlines()[-1:]
    return "failed", f"exit {done.returncode}: {lines[0] if lines else ''}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("suite", type=Path, help="a checkout of SOLLVE/sollve_vv")
    parser.add_argument("--device", default="cpu", choices=("cpu", "gpu", "host"))
    parser.add_argument("--scheme", default="auto")
    parser.add_argument("--compiler", default="omp2gpu", choices=("omp2gpu", "gcc"),
                        help="gcc: the reference's counts on the same machine (gcc -fopenmp, regions on the host)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--openmp", default="4.5", help="the suite's folder of tests: 4.5 (what omp2gpu "
                        "implements), or a later version, whose tests must pass or be refused, never fail")
    parser.add_argument("--only", action="append", default=[], metavar="GLOB",
                        help="run only the tests whose path under the version's folder matches GLOB "
                        "(e.g. 'loop/*', '*masked*'); repeatable. A filtered run writes its table "
                        "only to --out, never over the published results")
    args = parser.parse_args()
    args.suite = args.suite.resolve()       # tests compile from their own folders
    folder = args.suite / "tests" / args.openmp
    tests = sorted(test for test in folder.rglob("*.c")
                   if not args.only or any(test.relative_to(folder).match(glob) for glob in args.only))
    include = args.suite / "ompvv"
    with ThreadPoolExecutor(args.jobs) as pool:
        outcomes = list(pool.map(lambda t: run_test(t, include, args.device, args.scheme, args.compiler), tests))
    counts = {kind: sum(1 for o, _ in outcomes if o == kind) for kind in ("passed", "refused", "failed")}
    built_by = "gcc -fopenmp (the reference)" if args.compiler == "gcc" else \
        f"--device {args.device} --scheme {args.scheme}"
    lines = [f"# OpenMP validation suite (sollve_vv, OpenMP {args.openmp} C tests): {built_by}", "",
             f"{len(tests)} tests: {counts['passed']} passed, {counts['refused']} refused with a located "
             f"error, {counts['failed']} failed.", "", "| test | outcome | first error or failure line | known cause |",
             "|---|---|---|---|"]
    for test, (outcome, detail) in zip(tests, outcomes):
        if outcome != "passed":
            name = str(test.relative_to(folder))
            known = TEST_DEFECTS.get(name, "")
            if args.device == "host" and name in NEED_A_DEVICE:
                known = "needs an offload device: gcc's host build fails it the same way"
            if args.device == "host" and name in SEPARATE_COPY:
                known = SEPARATE_COPY[name]
            lines.append(f"| {name} | {outcome} | {detail.replace('|', '/')} | {known} |")
    text = "\n".join(lines) + "\n"
    print(text)
    name = f"results-{args.device}-{args.scheme}.md" if args.openmp == "4.5" else \
        f"results-{args.openmp}-{args.device}-{args.scheme}.md"
    if args.compiler == "gcc":
        name = f"results-{args.openmp}-gcc.md"
    for folder in filter(None, [None if args.only else HERE, args.out]):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
