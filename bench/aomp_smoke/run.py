"""bench/aomp_smoke: ROCm's aomp smoke tests (github.com/ROCm/aomp, test/smoke: small
OpenMP offload programs in C that AMD's compiler is tested on), from a checkout outside
this repository, built by omp2gpu and compared with gcc's host build.

    git clone --depth 1 https://github.com/ROCm/aomp /tmp/aomp
    python bench/aomp_smoke/run.py /tmp/aomp [--devices cpu,gpu] [--jobs N] [--out DIR] [--label TEXT]

For each test folder with one C file and no other sources: gcc -fopenmp -foffload=disable
-O1 is the reference (a test gcc refuses is counted, not run); then `omp2gpu compile` and
the program on each device asked for (OMP2GPU_DEVICES=..., OMP_TARGET_OFFLOAD=MANDATORY;
`gpu` only where one is present). Outputs are compared after dropping lines that mention
the device, the host or time (the tests print where they ran and how long they took), with
the exit status. A difference OpenMP allows is listed in known_differences.json with its
reason; any other is a bug to look at. Writes results.json and results.md here (and under
--out): each test's outcome per device, and the counts.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
OTHER_SOURCES = (".cpp", ".cc", ".cxx", ".f90", ".F90", ".f", ".hip", ".cu")
NOISE = re.compile(r"[Tt]ime|elapsed|seconds|0x[0-9a-fA-F]{6,}|[Dd]evice|[Hh]ost|GPU|gpu")
RUN_TIMEOUT_S = 120


def comparable(stdout: str) -> list[str]:
    return [line for line in stdout.splitlines() if not NOISE.search(line)]


def single_file_tests(checkout: Path) -> list[Path]:
    """The smoke tests' folders holding exactly one C file and no other source."""
    folders = sorted(p for p in (checkout / "test" / "smoke").iterdir() if p.is_dir())
    return [f for f in folders if len(list(f.glob("*.c"))) == 1
            and not any(p.suffix in OTHER_SOURCES for p in f.iterdir())]


def first_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.strip()), "")[:200]


def one_test(folder: Path, devices: list[str], work: Path) -> dict:
    source, row = next(folder.glob("*.c")), {"name": folder.name}
    here = work / folder.name
    here.mkdir(parents=True)
    env = {k: v for k, v in os.environ.items() if k != "OMP_TARGET_OFFLOAD"}
    built = subprocess.run(["gcc", "-fopenmp", "-foffload=disable", "-O1", "-w", str(source), "-lm",
                            "-o", str(here / "gcc")], capture_output=True, text=True)
    if built.returncode != 0:
        return {**row, "outcome": "gcc refused"}
    try:
        reference = subprocess.run([str(here / "gcc")], capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
                                   cwd=here, env=env)
    except subprocess.TimeoutExpired:
        return {**row, "outcome": "gcc timed out"}
    compiled = subprocess.run([sys.executable, "-m", "omp2gpu", "compile", "-O2", "-w", str(source), "-lm",
                               "-o", str(here / "omp2gpu")], capture_output=True, text=True,
                              env={**env, "PYTHONPATH": str(REPO)})
    if compiled.returncode != 0:
        # the message's path from the checkout on, so runs of different checkouts compare
        why = first_line(compiled.stderr).replace(f"{folder.parent.parent.parent}/", "")
        return {**row, "outcome": "omp2gpu refused", "why": why,
                "traceback": "Traceback" in compiled.stderr}
    row["devices"] = {}
    for device in devices:
        try:
            ran = subprocess.run([str(here / "omp2gpu")], capture_output=True, text=True, timeout=RUN_TIMEOUT_S,
                                 cwd=here, env={**env, "OMP2GPU_DEVICES": device, "OMP_TARGET_OFFLOAD": "MANDATORY"})
        except subprocess.TimeoutExpired:
            row["devices"][device] = {"outcome": "timed out"}
            continue
        same = comparable(ran.stdout) == comparable(reference.stdout) and ran.returncode == reference.returncode
        row["devices"][device] = {"outcome": "same" if same else "differs"} if same else {
            "outcome": "differs", "gcc": reference.stdout[-300:], "omp2gpu": ran.stdout[-300:],
            "status": [reference.returncode, ran.returncode], "stderr": ran.stderr[-300:]}
    return {**row, "outcome": "ran"}


def markdown(results: list[dict], devices: list[str], known: dict, checkout: str) -> str:
    counts = Counter(r["outcome"] for r in results)
    lines = [f"# aomp smoke tests: omp2gpu against gcc's host build ({checkout})", "",
             f"{len(results)} single-file C tests: {counts['ran']} built by both, {counts['gcc refused']} refused "
             f"by gcc, {counts['omp2gpu refused']} refused by omp2gpu (a located error each; tracebacks: "
             f"{sum(r.get('traceback', False) for r in results)}). `python bench/aomp_smoke/run.py` reproduces it.",
             "", "| device | same as gcc | differs, as OpenMP allows | differs, a known limitation | "
             "differs, not explained |", "|---|---|---|---|---|"]
    for device in devices:
        ran = [r for r in results if device in r.get("devices", {})]
        differing = [r["name"] for r in ran if r["devices"][device]["outcome"] != "same"]
        allowed = [name for name in differing if known.get(name, {}).get("allowed")]
        limited = [name for name in differing if name in known and not known[name]["allowed"]]
        lines.append(f"| {device} | {len(ran) - len(differing)} | {len(allowed)} | {len(limited)} | "
                     f"{len(differing) - len(allowed) - len(limited)} |")
    lines += ["", "Each difference and its reason (known_differences.json):", ""]
    for r in results:
        for device, run in r.get("devices", {}).items():
            if run["outcome"] != "same":
                why = known[r["name"]]["why"] if r["name"] in known else "**not explained**"
                lines.append(f"- {r['name']} ({device}): {why}")
    lines += ["", "Refused by omp2gpu:", ""]
    lines += [f"- {r['name']}: `{r['why']}`" for r in results if r["outcome"] == "omp2gpu refused"]
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout", type=Path, help="a clone of github.com/ROCm/aomp")
    parser.add_argument("--devices", default="cpu,gpu")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--label", help="what the checkout is (default: ROCm/aomp and its git commit)")
    args = parser.parse_args()
    devices = [d for d in args.devices.split(",") if d != "gpu" or shutil.which("nvidia-smi")]
    known = json.loads((HERE / "known_differences.json").read_text())
    with tempfile.TemporaryDirectory() as work, ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda folder: one_test(folder, devices, Path(work)),
                                single_file_tests(args.checkout)))
    head = subprocess.run(["git", "-C", str(args.checkout), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip() or "unknown commit"
    label = args.label or f"ROCm/aomp {head}"
    table = markdown(results, devices, known, label)
    print(table)
    for folder in [HERE] + ([args.out] if args.out else []):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "results.json").write_text(json.dumps({"aomp": label, "devices": devices, "tests": results},
                                                        indent=1))
        (folder / "results.md").write_text(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
