"""bench/peers/modes.py: how each target region runs on the GPU, omp2gpu against Clang 19
(issue 29's SPMDization count), with no GPU needed:

    SPMD       every thread runs the region from its start (omp2gpu's combined scheme;
               Clang's SPMD kernels, those it made SPMD from generic counted apart)
    generic    a team master runs the sequential code and a state machine wakes the
               team's threads for each parallel region (omp2gpu's control loop; Clang's
               generic mode with its generic state machine, or a custom one)
    one thread a region with no parallel work (omp2gpu's serial scheme; Clang's generic
               mode without a state machine)
    SPMD (made from generic)
               a generic region run SPMD: Clang's OpenMPOpt SPMDization; omp2gpu's
               spmdized scheme (the control loop's master code guarded, no state machine)

    python bench/peers/modes.py [--only SUBSTRING[,...]] [--jobs 2] [--suite SOLLVE_CHECKOUT]

--suite counts the OpenMP validation suite's C tests with target regions (tests/4.5, 5.0,
5.1 of a sollve_vv checkout, which is not part of this repository) instead of the corpus,
into modes-validation-suite.json and .md.

Clang 19 (-O3 --offload-arch=sm_90 --offload-device-only): the execution mode and state
machine flag of each kernel's kernel environment after its OpenMPOpt pass; omp2gpu: each
region's scheme as `--explain` gives it. Writes modes.json and modes.md here.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from build_clang import CLANG, CLANG_ENV, LENIENCY, cuda12
from programs import Program, all_programs

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
# LLVM 19's ConfigurationEnvironmentTy: { UseGenericStateMachine, MayUseNestedParallelism, ExecMode, ... }
KERNEL_ENVIRONMENT = re.compile(r"@(__omp_offloading_\w+)_kernel_environment = .*?ConfigurationEnvironmentTy "
                                r"\{ i8 (\d+), i8 \d+, i8 (\d+)")
CLANG_MODES = {2: "SPMD", 3: "SPMD (made from generic)"}
EXPLAIN = re.compile(r"remark: target region -> kernel (\S+): ([\w-]+) scheme")
OMP2GPU_MODES = {"combined": "SPMD", "spmdized": "SPMD (made from generic)", "control-loop": "generic",
                 "serial": "one thread"}
KINDS = ("SPMD", "SPMD (made from generic)", "generic", "one thread")


def clang_modes(program, cuda: Path) -> dict[str, str] | None:
    """Kernel name -> how it runs, or None where Clang does not compile the program."""
    with tempfile.TemporaryDirectory(prefix="omp2gpu-modes-") as tmp:
        output = Path(tmp) / "device.ll"
        done = subprocess.run([CLANG, "-O3", "-fopenmp", "--offload-arch=sm_90", f"--cuda-path={cuda}",
                               "--offload-device-only", "-S", "-emit-llvm", f"-std={program.std}", *LENIENCY,
                               *program.flags, str(program.source), "-o", str(output)],
                              capture_output=True, text=True, env=CLANG_ENV)
        if done.returncode != 0:
            return None
        text = output.read_text(errors="replace")
    return {name: CLANG_MODES.get(int(mode), "generic" if int(machine) else "one thread")
            for name, machine, mode in KERNEL_ENVIRONMENT.findall(text)}


def omp2gpu_modes(program) -> dict[str, str] | None:
    done = subprocess.run([sys.executable, "-m", "omp2gpu", "compile", "--explain", "-S", f"-std={program.std}",
                           *program.flags, str(program.source), "-o", "/dev/null"], capture_output=True, text=True)
    if done.returncode != 0:
        return None
    return {name: OMP2GPU_MODES.get(scheme, scheme) for name, scheme in EXPLAIN.findall(done.stderr)}


def paired(ours: dict[str, str], theirs: dict[str, str]) -> list[tuple[str, str, str]]:
    """(region, omp2gpu's way, Clang's way) for the kernels of one region in both: the
    names end alike, `<function>_l<line>` (Clang puts device and file ids before it)."""
    pairs = []
    for name, mode in ours.items():
        region = name.removeprefix("__omp_offloading_")
        match = [kind for other, kind in theirs.items() if other.endswith("_" + region)]
        if len(match) == 1:
            pairs.append((region, mode, match[0]))
    return pairs


def suite_programs(checkout: Path) -> list[Program]:
    """The validation suite's C tests with target regions, built as its Makefile does."""
    tests = [test for version in ("4.5", "5.0", "5.1") for test in sorted((checkout / "tests" / version).rglob("*.c"))
             if "omp target" in test.read_text(errors="replace")]
    return [Program(str(test.relative_to(checkout / "tests")), test, "gnu11", ["-I", str(checkout / "ompvv")])
            for test in tests]


def markdown(rows: list[dict], what: str = "bench/peers' list") -> str:
    pairs = {r["name"]: paired(r["omp2gpu"], r["clang"]) for r in rows if r["clang"] is not None
             and r["omp2gpu"] is not None}
    regions = [pair for found in pairs.values() for pair in found]
    totals = {"omp2gpu": Counter(ours for _, ours, _ in regions), "clang": Counter(theirs for _, _, theirs in regions)}
    lines = ["# How target regions run on the GPU: omp2gpu against Clang 19 (bench/peers/modes.py)", "",
             f"{len(rows)} programs ({what}), {len(pairs)} compiled by both: {len(regions)} regions "
             "whose kernels pair up by name (`<function>_l<line>`). Clang: each kernel's execution mode after "
             "its OpenMPOpt pass (-O3); omp2gpu: its scheme (`--explain`).", "",
             "| runs as | omp2gpu | Clang 19 |", "|---|---:|---:|"]
    for kind in KINDS:
        lines.append(f"| {kind} | {totals['omp2gpu'][kind]} | {totals['clang'][kind]} |")
    both_ways = Counter((ours, theirs) for _, ours, theirs in regions)
    lines += ["", "| omp2gpu | Clang 19 | regions |", "|---|---|---:|"]
    lines += [f"| {ours} | {theirs} | {count} |" for (ours, theirs), count in sorted(both_ways.items())]
    lines += ["", "Regions omp2gpu runs generic and Clang SPMD:", "", "| program | regions |", "|---|---|"]
    for name, found in pairs.items():
        gap = [region for region, ours, theirs in found if ours == "generic" and theirs.startswith("SPMD")]
        if gap:
            lines.append(f"| {name} | {', '.join(gap)} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--suite", type=Path, help="a sollve_vv checkout: count its tests instead of the corpus")
    options = parser.parse_args()
    cuda = cuda12(Path(tempfile.gettempdir()) / "omp2gpu-peers-cuda12")
    if options.suite:
        programs, stem, what = suite_programs(options.suite), "modes-validation-suite", \
            "the validation suite's 4.5, 5.0 and 5.1 C tests with target regions"
    else:
        programs = [p for part in (options.only.split(",") if options.only else [None]) for p in all_programs(part)]
        stem, what = "modes", "bench/peers' list"
    with ThreadPoolExecutor(options.jobs) as pool:
        clang = list(pool.map(lambda p: clang_modes(p, cuda), programs))
        ours = list(pool.map(omp2gpu_modes, programs))
    rows = [{"name": p.name, "omp2gpu": o, "clang": c} for p, o, c in zip(programs, ours, clang)]
    (HERE / f"{stem}.json").write_text(json.dumps(rows, indent=1) + "\n")
    text = markdown(rows, what)
    (HERE / f"{stem}.md").write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
