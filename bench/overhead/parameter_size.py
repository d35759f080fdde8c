"""bench/overhead/parameter_size: what a launch costs against its kernel parameter's size
(CUDA C, parameter_size.cu): an empty kernel of 1 and 2,112 blocks of 128 threads with a
parameter of 8 to 4,096 bytes (the fused kernel's descriptor, docs/async.md), launched on
a stream and waited for on an event (as the offload runtime does); best and mean of 3,000.

    python bench/overhead/parameter_size.py [--out DIR] [--from-output FILE]

--from-output reads a saved run's output instead of running (no GPU needed). Writes
parameter_size.json and parameter_size.md here (and in --out)."""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import common  # noqa: E402  (bench/common.py)

ROW = re.compile(r"^PARAMS bytes=\s*(\d+) grid=\s*(\d+) launch\+wait best ([\d.]+) mean ([\d.]+) us \| "
                 r"launch call best ([\d.]+) mean ([\d.]+) us \| back-to-back ([\d.]+) us each$", re.M)
FIELDS = ("bytes", "grid", "wait_best_us", "wait_mean_us", "call_best_us", "call_mean_us", "back_to_back_us")


def measure() -> str:
    with tempfile.TemporaryDirectory() as folder:
        binary = common.build_cuda(HERE / "parameter_size.cu", Path(folder) / "parameter_size")
        return subprocess.run([str(binary)], capture_output=True, text=True, check=True, timeout=300).stdout


def markdown(rows: list[dict], device: str) -> str:
    lines = [f"# Launch cost against the kernel parameter's size, CUDA C on {device}", "",
             "An empty kernel (128 threads a block) launched on a stream and waited for on an event; best and "
             "mean of 3,000 (bench/overhead/parameter_size.py). The fused launch's parameter is 4,096 bytes.", "",
             "| parameter bytes | blocks | launch + wait best us | mean us | launch call best us | mean us "
             "| back to back us each |", "|---|---|---|---|---|---|---|"]
    lines += [f"| {r['bytes']} | {r['grid']} | {r['wait_best_us']} | {r['wait_mean_us']} | {r['call_best_us']} "
              f"| {r['call_mean_us']} | {r['back_to_back_us']} |" for r in rows]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--from-output", type=Path)
    parser.add_argument("--device", help="the GPU's name, with --from-output")
    options = parser.parse_args()
    output = options.from_output.read_text() if options.from_output else measure()
    device = options.device or ("unknown GPU" if options.from_output
                                else common.first_line(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"]))
    rows = [{field: (int(value) if field in ("bytes", "grid") else float(value)) for field, value in
             zip(FIELDS, match)} for match in ROW.findall(output)]
    text = markdown(rows, device)
    print(text, end="")
    for folder in filter(None, (HERE, options.out)):
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "parameter_size.json").write_text(json.dumps({"device": device, "rows": rows}, indent=1) + "\n")
        (folder / "parameter_size.md").write_text(text)


if __name__ == "__main__":
    main()
