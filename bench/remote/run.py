"""Remote devices' overheads (docs/remote.md, issue 30): an empty target region on the
local device against the same device served by `omp2gpu serve` on the loopback, and the
transport's own round trip (bench/remote/ping.c: a no-op command over the same UCX link).
The goal: a remote empty region <= the round trip + 30 us (PoCL-R: about 60 us above it).
And a 64 MiB omp_target_memcpy between two servers' devices, server to server against
through the client (bench/remote/migrate.c; goal >= 2x).

    python bench/remote/run.py [--devices gpu|cpu] [--reps N] [--out DIR]

Writes results.json and results.md (into bench/remote unless --out); on the GPU machine
the lead runs it with --devices gpu (`bash bench/gpu_session.sh` does not yet)."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))

from omp2gpu import native_link  # noqa: E402
from omp2gpu.driver import CompileOptions  # noqa: E402
from omp2gpu.targets import remote_server  # noqa: E402

TOKEN = "bench-remote"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def gpu_count() -> int:
    listed = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, check=False).stdout
    return max(1, sum(line.startswith("GPU ") for line in listed.splitlines()))


def start_server(devices: str, index: int = 0) -> tuple[subprocess.Popen, int]:
    """A server on the loopback; with GPUs, the index-th GPU alone (one server per GPU, as
    one per machine would be; a one-GPU machine's servers share it)."""
    port = free_port()
    env = {**os.environ, "OMP2GPU_REMOTE_TOKEN": TOKEN, "PYTHONPATH": str(HERE.parents[1])}
    if devices == "gpu":
        env["CUDA_VISIBLE_DEVICES"] = str(index % gpu_count())
    server = subprocess.Popen([sys.executable, "-m", "omp2gpu.tools.cli", "serve", "--listen", f"127.0.0.1:{port}",
                               "--devices", devices], stdout=subprocess.PIPE, text=True, env=env)
    line = server.stdout.readline()
    if "listening" not in line:
        raise SystemExit(f"omp2gpu serve did not start: {line}")
    return server, port


def measure(binary: Path, devices: str, reps: int, trials: int = 3) -> dict:
    """The best of `trials` runs, field by field (a shared machine's noise only adds time)."""
    env = {**os.environ, "OMP2GPU_DEVICES": devices, "OMP2GPU_REMOTE_TOKEN": TOKEN, "OMP_TARGET_OFFLOAD": "MANDATORY",
           "CUDA_VISIBLE_DEVICES": "0"}               # the local run: the first server's GPU
    runs = [json.loads(subprocess.run([str(binary), str(reps)], env=env, capture_output=True, text=True, timeout=600,
                                      check=True).stdout) for _ in range(trials)]
    return {key: min(run[key] for run in runs) if isinstance(runs[0][key], float) else runs[0][key]
            for key in runs[0]}


def migration_ms(binary: Path, devices: str, peer: str, mib: int = 64) -> float:
    """Best of 3: milliseconds per omp_target_memcpy of `mib` MiB between the two servers'
    devices, server to server (peer "1") or through this process ("0")."""
    env = {**os.environ, "OMP2GPU_DEVICES": devices, "OMP2GPU_REMOTE_TOKEN": TOKEN, "OMP_TARGET_OFFLOAD": "MANDATORY",
           "OMP2GPU_REMOTE_PEER": peer}
    runs = [json.loads(subprocess.run([str(binary), str(mib), "3"], env=env, capture_output=True, text=True,
                                      timeout=600, check=True).stdout) for _ in range(3)]
    assert all(run["right"] for run in runs)
    return min(run["ms"] for run in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", choices=("cpu", "gpu"), default="gpu" if shutil.which("nvidia-smi") else "cpu")
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=HERE)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-remote-"))
    program, migrate = scratch / "empty_region", scratch / "migrate"
    native_link.link([str(HERE / "empty_region.c")], CompileOptions(), str(program))
    native_link.link([str(HERE / "migrate.c")], CompileOptions(), str(migrate))
    ping = remote_server.build(HERE / "ping.c")
    server, port = start_server(args.devices)
    second, second_port = start_server(args.devices, 1)
    try:
        both = f"remote://127.0.0.1:{port},remote://127.0.0.1:{second_port}"
        migration = {how: migration_ms(migrate, both, peer) for how, peer in (("server_to_server", "1"),
                                                                              ("through_client", "0"))}
        local = measure(program, args.devices, args.reps)
        remote = measure(program, f"remote://127.0.0.1:{port}", args.reps)
        trip = min((json.loads(subprocess.run([str(ping), "127.0.0.1", str(port), str(5 * args.reps)],
                                              capture_output=True, text=True, check=True,
                                              env={**os.environ, "OMP2GPU_REMOTE_TOKEN": TOKEN}).stdout)
                    for _ in range(3)), key=lambda trip: trip["round_trip_us"])
    finally:
        for process in (server, second):
            process.kill()
            process.wait()
    above = remote["empty_region_us"] - trip["round_trip_us"]
    results = {"machine": platform.node(), "cpu": platform.processor() or platform.machine(),
               "devices": args.devices, "local": local, "remote_loopback": remote, **trip,
               "remote_empty_region_above_round_trip_us": round(above, 3), "goal_us": 30,
               "meets_goal": above <= 30, "migration_64MiB_ms": migration,
               "migration_speedup": round(migration["through_client"] / migration["server_to_server"], 2)}
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    rows = [("empty target region, local device (us)", local["empty_region_us"]),
            ("empty target region, remote device (loopback) (us)", remote["empty_region_us"]),
            ("8-byte target update, local (us)", local["update_8B_us"]),
            ("8-byte target update, remote (loopback) (us)", remote["update_8B_us"]),
            ("transport round trip (ping, same UCX link) (us)", trip["round_trip_us"]),
            ("remote empty region above the round trip (us; goal <= 30)", above),
            ("64 MiB omp_target_memcpy server to server (ms)", migration["server_to_server"]),
            ("64 MiB omp_target_memcpy through the client (ms)", migration["through_client"])]
    table = "\n".join(f"| {what} | {value:.1f} |" for what, value in rows)
    (args.out / "results.md").write_text(
        f"# Remote devices: command overhead\n\nDevice: {local['device']} (served: {remote['device']}), "
        f"{results['machine']}; {args.reps} regions each, the best of 3 runs; "
        f"`python bench/remote/run.py --devices {args.devices}`.\n\n"
        f"| what | time |\n|---|---|\n{table}\n\n"
        f"Goal (issue 30): remote empty region <= round trip + 30 us: "
        f"{'met' if results['meets_goal'] else 'not met'}. Migration server to server "
        f"{results['migration_speedup']}x faster than through the client (goal >= 2x).\n")
    print((args.out / "results.md").read_text())


if __name__ == "__main__":
    main()
