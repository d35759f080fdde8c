"""Remote devices' overheads (docs/remote.md, issue 30): an empty target region on the
local device against the same device served by `omp2gpu serve` on the loopback, and the
transport's own round trip (bench/remote/ping.c: a no-op command over the same UCX link).
The goal: a remote empty region <= the round trip + 30 us (PoCL-R: about 60 us above it).
And a 64 MiB omp_target_memcpy between two servers' devices, server to server against
through the client (bench/remote/migrate.c; goal >= 2x). And 256 MiB `target update`s to
and from the local device and the served one (bench/remote/bulk.c: the bandwidth of bulk
payloads). And a 2-D Jacobi stencil split over one server's device against two servers'
(bench/remote/stencil_two_devices.c: `target nowait` a part, taskwait, halos server to
server): efficiency t(1) / (2 t(2)) for the same grid, at several grid sizes (goal >= 0.85
at the largest, the size a GPU is used for; the smaller ones show where the per-step
commands start to count).

    python bench/remote/run.py [--devices gpu|cpu] [--reps N] [--out DIR] [--only stencil]
                               [--stencil-n N] [--stencil-steps S]

Writes results.json and results.md (into bench/remote unless --out; `--only stencil`
measures the stencil alone and keeps the other rows of the results.json there); on the GPU
machine the lead runs it with --devices gpu (`bash bench/gpu_session.sh` does not yet)."""

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
    paths = [str(HERE.parents[1]), *filter(None, [os.environ.get("PYTHONPATH")])]   # keep the caller's (wheels)
    env = {**os.environ, "OMP2GPU_REMOTE_TOKEN": TOKEN, "PYTHONPATH": os.pathsep.join(paths)}
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


# grid side, steps; the goal is read at the last (GPU: 8 GiB a field)
STENCIL_SIZES = {"gpu": [(8192, 200), (16384, 200), (32768, 100)], "cpu": [(512, 40)]}
BULK_MIB = 256


def stencil_seconds(binary: Path, devices: str, n: int, steps: int) -> dict:
    """Best of 3 runs of the stencil over the servers named in `devices`."""
    env = {**os.environ, "OMP2GPU_DEVICES": devices, "OMP2GPU_REMOTE_TOKEN": TOKEN, "OMP_TARGET_OFFLOAD": "MANDATORY"}
    runs = [json.loads(subprocess.run([str(binary), str(n), str(steps)], env=env, capture_output=True, text=True,
                                      timeout=600, check=True).stdout) for _ in range(3)]
    return min(runs, key=lambda run: run["seconds"])


def stencil(devices: str, sizes: list[tuple[int, int]], scratch: Path) -> list[dict]:
    """Each grid on one server's device, then split over two servers' devices."""
    binary = scratch / "stencil"
    native_link.link([str(HERE / "stencil_two_devices.c")], CompileOptions(), str(binary))
    servers = [start_server(devices, index) for index in range(2)]
    results = []
    try:
        urls = [f"remote://127.0.0.1:{port}" for _, port in servers]
        for n, steps in sizes:
            one = stencil_seconds(binary, urls[0], n, steps)
            two = stencil_seconds(binary, ",".join(urls), n, steps)
            if one["checksum"] != two["checksum"]:
                raise SystemExit(f"the stencil's answer differs: one server {one['checksum']}, two {two['checksum']}")
            efficiency = one["seconds"] / (2 * two["seconds"])
            results.append({"n": n, "steps": steps, "one_server_s": one["seconds"], "two_servers_s": two["seconds"],
                            "efficiency": round(efficiency, 3), "goal": 0.85, "meets_goal": efficiency >= 0.85})
    finally:
        for process, _ in servers:
            process.kill()
            process.wait()
    return results


def bulk_ms(binary: Path, devices: str) -> dict:
    """Best of 5 `target update`s of BULK_MIB MiB each way (bench/remote/bulk.c)."""
    env = {**os.environ, "OMP2GPU_DEVICES": devices, "OMP2GPU_REMOTE_TOKEN": TOKEN, "OMP_TARGET_OFFLOAD": "MANDATORY",
           "CUDA_VISIBLE_DEVICES": "0"}
    run = json.loads(subprocess.run([str(binary), str(BULK_MIB), "5"], env=env, capture_output=True, text=True,
                                    timeout=600, check=True).stdout)
    assert run["right"], run
    return {"to_ms": run["to_ms"], "from_ms": run["from_ms"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--devices", choices=("cpu", "gpu"), default="gpu" if shutil.which("nvidia-smi") else "cpu")
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--only", choices=("stencil",))
    parser.add_argument("--stencil-n", type=int)
    parser.add_argument("--stencil-steps", type=int)
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="bench-remote-"))
    sizes = STENCIL_SIZES[args.devices]
    if args.stencil_n:
        sizes = [(args.stencil_n, args.stencil_steps or sizes[-1][1])]
    stencil_results = stencil(args.devices, sizes, scratch)
    if args.only == "stencil":
        results = json.loads((args.out / "results.json").read_text())
        results["stencil_two_servers"] = stencil_results
        write(results, args)
        return
    program, migrate, bulk = scratch / "empty_region", scratch / "migrate", scratch / "bulk"
    for source, binary in (("empty_region.c", program), ("migrate.c", migrate), ("bulk.c", bulk)):
        native_link.link([str(HERE / source)], CompileOptions(), str(binary))
    ping = remote_server.build(HERE / "ping.c")
    server, port = start_server(args.devices)
    second, second_port = start_server(args.devices, 1)
    try:
        both = f"remote://127.0.0.1:{port},remote://127.0.0.1:{second_port}"
        migration = {how: migration_ms(migrate, both, peer) for how, peer in (("server_to_server", "1"),
                                                                              ("through_client", "0"))}
        local = measure(program, args.devices, args.reps)
        remote = measure(program, f"remote://127.0.0.1:{port}", args.reps)
        copies = {"local": bulk_ms(bulk, args.devices), "remote": bulk_ms(bulk, f"remote://127.0.0.1:{port}")}
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
               "devices": args.devices, "reps": args.reps, "local": local, "remote_loopback": remote, **trip,
               "remote_empty_region_above_round_trip_us": round(above, 3), "goal_us": 30,
               "meets_goal": above <= 30, "migration_64MiB_ms": migration,
               "migration_speedup": round(migration["through_client"] / migration["server_to_server"], 2),
               f"update_{BULK_MIB}MiB_ms": copies,
               "stencil_two_servers": stencil_results,
               "servers": (f"two, each owning one of this host's {gpu_count()} GPU(s)" if args.devices == "gpu"
                           else "two, each with the CPU device")}
    write(results, args)


def write(results: dict, args) -> None:
    local, remote, trip, migration = (results["local"], results["remote_loopback"], results,
                                      results["migration_64MiB_ms"])
    grids = results["stencil_two_servers"]
    copies = results.get(f"update_{BULK_MIB}MiB_ms")
    rows = [("empty target region, local device (us)", local["empty_region_us"]),
            ("empty target region, remote device (loopback) (us)", remote["empty_region_us"]),
            ("8-byte target update, local (us)", local["update_8B_us"]),
            ("8-byte target update, remote (loopback) (us)", remote["update_8B_us"]),
            ("transport round trip (ping, same UCX link) (us)", trip["round_trip_us"]),
            ("remote empty region above the round trip (us; goal <= 30)",
             results["remote_empty_region_above_round_trip_us"]),
            ("64 MiB omp_target_memcpy server to server (ms)", migration["server_to_server"]),
            ("64 MiB omp_target_memcpy through the client (ms)", migration["through_client"])]
    for way in ("to", "from") if copies else ():
        rows += [(f"{BULK_MIB} MiB target update {way}, {where} (GB/s)",
                  BULK_MIB * 2**20 / (copies[where][f"{way}_ms"] * 1e6)) for where in ("local", "remote")]
    table = "\n".join(f"| {what} | {value:.3g} |" for what, value in rows)
    stencil_table = "\n".join(
        f"| {grid['n']} x {grid['n']} | {grid['steps']} | {1e3 * grid['one_server_s'] / grid['steps']:.3g} | "
        f"{1e3 * grid['two_servers_s'] / grid['steps']:.3g} | {grid['efficiency']:.3f} |" for grid in grids)
    grid = grids[-1]
    vm = ("\n\nMeasured on the development VM (2 CPU cores shared by several builds; both servers, their\n"
          "CPU device's workers and the client all on them), the CPU device served: the numbers move\n"
          "by several times between runs, and the stencil's efficiency means nothing there (two servers\n"
          "share the two cores one server's workers already use). The GPU machine's run (`python\n"
          "bench/remote/run.py --devices gpu`: one server per H200 on the loopback) is the one to read.\n"
          if results["devices"] == "cpu" else "\n")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    (args.out / "results.md").write_text(
        f"# Remote devices: command overhead\n\nDevice: {local['device']} (served: {remote['device']}), "
        f"{results['machine']}; servers on the loopback: {results.get('servers', '?')}; "
        f"{results.get('reps', 2000)} regions each, the best of 3 runs; "
        f"`python bench/remote/run.py --devices {results['devices']}`.\n\n"
        f"| what | time |\n|---|---|\n{table}\n\n"
        f"2-D Jacobi stencil, one server's device against the grid split over two servers' (halo rows "
        f"server to server each step; ms a step; efficiency t(1) / (2 t(2))):\n\n"
        f"| grid | steps | one server | two servers | efficiency |\n|---|---|---|---|---|\n{stencil_table}\n\n"
        f"Goal (issue 30): remote empty region <= round trip + 30 us: "
        f"{'met' if results['meets_goal'] else 'not met'}. Migration server to server "
        f"{results['migration_speedup']}x faster than through the client (goal >= 2x). "
        f"Stencil over two servers against one at {grid['n']} x {grid['n']}: efficiency {grid['efficiency']} "
        f"(goal >= 0.85: {'met' if grid['meets_goal'] else 'not met'}).{vm}")
    print((args.out / "results.md").read_text())


if __name__ == "__main__":
    main()
