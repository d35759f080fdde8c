"""bench/paper_tables: the paper's Tables 1 and 2 (Sections 5.1-5.2) on today's GPU.

    Table 1: Fig. 6's vector add, a[i] += b[i] + c[i], n = 512*512*32 doubles
    Table 2: Fig. 7's, for (j = 0; j < n_loop; j++) a[i] += b[i] + c[n_loop*i + j], n_loop = 100

Columns as in the paper: CUDA C (tables.cu, nvcc -O3 for the GPU's architecture) |
Control Loop (omp2gpu --scheme control-loop) | Combined (--scheme combined), each
at its own best (#blocks, #threads). Rows: that configuration, registers, shared
memory, occupancy, time and valuable bandwidth.

- Sweep: blocks in {64, ..., 16384} x threads in {32, ..., 1024} (powers of two),
  without the configurations of fewer than --min-threads threads in all (they
  only show a starved GPU, and take longest), plus the paper's own best ones.
  Each version runs as one process that launches its kernel REPS times per
  configuration on device-resident data (table1.c / table2.c take the
  configurations as arguments: num_teams / thread_limit clauses); the fastest
  launch of a configuration counts, as the paper took the best of 100 runs.
- Times: CUDA events around each launch (the launcher's OMP2GPU_PROFILE for
  omp2gpu, the same in tables.cu). Registers and shared memory: the driver's,
  for the kernel as it ran (cuFuncGetAttribute / cudaFuncGetAttributes).
- Occupancy: the paper's came from nvprof (achieved). Here: theoretical per SM
  (omp2gpu.tools.occupancy at the best block size) and that averaged over the
  GPU's SMs for the best grid (a grid smaller than the GPU leaves SMs idle:
  the paper's 26.6% for the control loop at 64 blocks of 128 threads on the
  K40m's 15 SMs is exactly that).
- Valuable bandwidth = bytes the kernel must move / time: Table 1 reads a, b, c
  and writes a (4 x 8n bytes); Table 2 reads a, b and n_loop x n of c and
  writes a ((3 + n_loop) x 8n bytes).
- The Control Loop column is n/a, with the reason, when `--scheme control-loop`
  does not compile the loop into a control-loop kernel.

    python bench/paper_tables/run.py [--tables 1,2] [--n N] [--blocks LIST] [--threads LIST]
                                     [--min-threads N] [--reps1 R] [--reps2 R] [--static] [--out DIR]

Needs a GPU, nvcc and cuda-python; writes results.json, results.md and results.png
(when matplotlib is importable) here and, with --out, paper_tables_results.* there.
Without a GPU (or with --static) it prints the figures that need none: registers,
shared memory and the best theoretical occupancy of each version.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
import common  # noqa: E402  (bench/common.py)

sys.path.insert(0, str(common.REPO))
from omp2gpu.diagnostics import CompileError  # noqa: E402
from omp2gpu.tools import occupancy as occ  # noqa: E402

N_LOOP = 100
COLUMNS = ("CUDA C", "Control Loop", "Combined")
SCHEMES = {"Control Loop": "control-loop", "Combined": "combined"}
TABLES = {
    1: {"title": "vector add (Fig. 6)", "source": "table1.c", "kernel": "vectorAdd", "reps": 20,
        "bytes": lambda n: 4 * 8 * n},
    2: {"title": f"vector add with a large payload (Fig. 7, n_loop = {N_LOOP})", "source": "table2.c",
        "kernel": "vectorAddUnroll", "reps": 5, "bytes": lambda n: (3 + N_LOOP) * 8 * n},
}
BLOCKS = tuple(2 ** k for k in range(6, 15))        # 64 .. 16384
THREADS = tuple(2 ** k for k in range(5, 11))       # 32 .. 1024
MIN_THREADS = 2 ** 15
# The paper's measurements on a K40m (sm_35, 15 SMs), nvcc 7.0 / Clang+LLVM 3.8.
PAPER = {
    1: {"CUDA C": ("(512, 1024)", "16", "0", "95.9%", "1523.5", "176.20"),
        "Control Loop": ("(64, 128)", "64", "280", "26.6%", "1988.5", "134.99"),
        "Combined": ("(1024, 1024)", "21", "0", "96.0%", "1523.1", "176.24")},
    2: {"CUDA C": ("(1024, 256)", "18", "0", "97.3%", "70832.0", "97.59"),
        "Control Loop": ("(512, 256)", "64", "280", "49.5%", "78333.0", "88.24"),
        "Combined": ("(1024, 512)", "30", "0", "97.7%", "70456.0", "98.11")},
}
ROWS = ("(#blocks, #threads)", "#registers", "Shared memory (bytes)", "Occupancy",
        "Execution time (us)", "Valuable memory bandwidth (GB/s)")


def configurations(blocks, threads, min_threads: int, table: int) -> list[tuple[int, int]]:
    """The sweep: every (blocks, threads) with enough threads, and the paper's best ones."""
    chosen = [(b, t) for b in blocks for t in threads if b * t >= min_threads]
    for text, *_ in PAPER[table].values():
        best = tuple(int(v) for v in text.strip("()").split(","))
        if best not in chosen:
            chosen.append(best)
    return chosen


# ----------------------------------------------------------------- figures without a GPU
def static_figures(table: int, column: str, arch: str) -> dict:
    """Registers, shared memory, barriers from ptxas -v (no GPU), or {"error": why}."""
    if column == "CUDA C":
        found = common.cuda_resources(HERE / "tables.cu", arch).get(TABLES[table]["kernel"])
        if found is None:
            return {"error": "nvcc -Xptxas -v gave no figures (no nvcc?)"}
        return {"registers": found.registers, "shared_bytes": found.shared_bytes, "barriers": found.barriers}
    from omp2gpu.driver import CompileOptions
    from omp2gpu.tools import report
    scheme = SCHEMES[column]
    try:
        analysed = report.analyse(str(HERE / TABLES[table]["source"]),
                                  CompileOptions(scheme=scheme, offload_arch=arch))
    except CompileError as error:
        return {"error": f"--scheme {scheme} does not compile: {error.message}"}
    kernels = list(analysed.kernels.values())
    if len(kernels) != 1 or kernels[0].scheme != scheme:
        why = kernels[0].scheme if kernels else "; ".join(analysed.remarks) or "no kernel"
        return {"error": f"--scheme {scheme} gives no {scheme} kernel ({why})"}
    k = kernels[0]
    return {"registers": k.registers, "shared_bytes": k.shared_bytes, "barriers": k.barriers}


# ----------------------------------------------------------------- measurements
def measure_cuda(binary: Path, table: int, n: int, reps: int, configs) -> dict:
    import subprocess
    args = [str(binary), str(table), str(n), str(reps)] + [str(v) for c in configs for v in c]
    done = subprocess.run(args, capture_output=True, text=True, timeout=900)
    sweep, result = {}, {}
    for line in done.stdout.splitlines():
        words = line.split()
        if words[:1] == ["config"]:
            sweep[(int(words[1]), int(words[2]))] = float(words[3])
        elif words[:1] == ["attributes"]:
            result.update(registers=int(words[1]), shared_bytes=int(words[2]), local_bytes=int(words[3]),
                          multiprocessors=int(words[4]))
        elif words[:1] == ["errors"] and words[1] != "0":
            result["error"] = f"CUDA C computed {words[1]} wrong elements"
    if done.returncode != 0 and "error" not in result:
        result["error"] = (done.stderr.strip() or f"exit status {done.returncode}").splitlines()[-1]
    result["sweep"] = sweep
    return result


def measure_omp2gpu(table: int, scheme: str, n: int, reps: int, configs) -> dict:
    args = [n, reps] + [v for c in configs for v in c]
    done, profile = common.run_omp2gpu(HERE / TABLES[table]["source"], scheme, args, timeout=900)
    if done.returncode != 0 or "errors=0" not in done.stdout or not profile:
        lines = (done.stderr.strip() or done.stdout.strip() or f"exit status {done.returncode}").splitlines()
        return {"error": lines[-1], "sweep": {}}
    (entry,) = [e for e in profile["kernels"].values() if e.get("launches")]
    return {"registers": entry.get("registers"), "shared_bytes": entry.get("shared_bytes"),
            "local_bytes": entry.get("local_bytes"), "device": profile.get("device"),
            "sweep": common.fastest_by_configuration(entry)}


def summarise(measured: dict, static: dict, nbytes: int, arch: str, multiprocessors: int) -> dict:
    """The column of the table: the best configuration and its figures."""
    row = {"static": static, "error": measured.get("error") or static.get("error")}
    registers = measured.get("registers", static.get("registers"))
    shared = measured.get("shared_bytes", static.get("shared_bytes"))
    row.update(registers=registers, shared_bytes=shared)
    sweep = measured.get("sweep") or {}
    row["sweep"] = sorted([b, t, us] for (b, t), us in sweep.items())
    if registers is None:
        return row
    barriers = static.get("barriers", 0)
    if sweep:
        (blocks, threads), us = min(sweep.items(), key=lambda item: item[1])
        at_best = occ.occupancy(arch, registers, threads, shared or 0, barriers=barriers)
        row.update(blocks=blocks, threads=threads, us=us, gbs=nbytes / us / 1e3,
                   occupancy=at_best.occupancy,
                   grid_occupancy=at_best.grid_limited(blocks, multiprocessors) if multiprocessors else None)
    elif not measured:                   # no GPU: the best theoretical block size
        best = occ.best_block_size(arch, registers, shared or 0, barriers)
        if best is not None:
            row.update(threads=best.block_size, occupancy=best.occupancy)
    return row


# ----------------------------------------------------------------- output
def _cell(row: dict, what: str) -> str:
    if row.get("error") and row.get("registers") is None:
        return "n/a"
    if what == ROWS[0]:
        if "blocks" in row:
            return f"({row['blocks']}, {row['threads']})"
        return f"(-, {row['threads']})" if "threads" in row else "n/a"
    if what == ROWS[1]:
        return str(row["registers"])
    if what == ROWS[2]:
        return str(row["shared_bytes"])
    if what == ROWS[3]:
        if "occupancy" not in row:
            return "n/a"
        grid = row.get("grid_occupancy")
        return f"{row['occupancy']:.1%}" + (f" / {grid:.1%}" if grid is not None else "")
    if what == ROWS[4]:
        return f"{row['us']:.1f}" if "us" in row else "n/a"
    return f"{row['gbs']:.2f}" if "gbs" in row else "n/a"


def markdown(results: dict, meta: dict) -> str:
    lines = [f"# The paper's Tables 1 and 2 on {meta['device']}", "",
             f"{meta['arch']}, {meta['multiprocessors'] or '?'} SMs; n = {meta['n']} doubles; "
             f"best of {meta['reps']} launches per configuration, data resident; "
             f"{meta['configs']} (#blocks, #threads) configurations per version. Occupancy: theoretical "
             "per SM / averaged over the SMs for the best grid (the paper's: achieved, from nvprof).", ""]
    for table, result in results.items():
        spec = TABLES[table]
        lines += [f"## Table {table}: {spec['title']}", "",
                  "| | " + " | ".join(COLUMNS) + " |", "|---|" + "---|" * len(COLUMNS)]
        for what in ROWS:
            lines.append(f"| {what} | " + " | ".join(_cell(result[c], what) for c in COLUMNS) + " |")
        lines += ["", "The paper (K40m):", "", "| | " + " | ".join(COLUMNS) + " |",
                  "|---|" + "---|" * len(COLUMNS)]
        for i, what in enumerate(ROWS):
            lines.append(f"| {what} | " + " | ".join(PAPER[table][c][i] for c in COLUMNS) + " |")
        notes = [f"{c}: {result[c]['error']}" for c in COLUMNS if result[c].get("error")]
        lines += [""] + [f"- note: {note}" for note in notes] + ([""] if notes else [])
    return "\n".join(lines).rstrip() + "\n"


def plot(results: dict, path: Path) -> bool:
    """Per table, each version's best time for each block size (over the numbers of blocks)."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import NullFormatter, ScalarFormatter
    except ImportError:
        return False
    figure, axes = plt.subplots(1, len(results), figsize=(6 * len(results), 4.5), squeeze=False)
    for axis, (table, result) in zip(axes[0], results.items()):
        for column in COLUMNS:
            best: dict[int, float] = {}
            for _blocks, threads, us in result[column]["sweep"]:
                best[threads] = min(best.get(threads, float("inf")), us)
            if best:
                xs = sorted(best)
                axis.plot(xs, [best[x] for x in xs], marker="o", label=column)
        axis.set_xscale("log", base=2)
        axis.set_yscale("log")
        for scale in (axis.xaxis, axis.yaxis):      # 32, 64, ... rather than 2^5, 2^6
            scale.set_major_formatter(ScalarFormatter())
            scale.set_minor_formatter(NullFormatter())
        axis.set_xlabel("threads per block")
        axis.set_ylabel("best time over #blocks (us)")
        axis.set_title(f"Table {table}: {TABLES[table]['title']}", fontsize=9)
        axis.legend()
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return True


# ----------------------------------------------------------------- main
def _ints(text: str) -> tuple[int, ...]:
    return tuple(int(v) for v in text.split(",") if v.strip())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=_ints, default=(1, 2))
    parser.add_argument("--n", type=int, default=512 * 512 * 32)
    parser.add_argument("--blocks", type=_ints, default=BLOCKS)
    parser.add_argument("--threads", type=_ints, default=THREADS)
    parser.add_argument("--min-threads", type=int, default=MIN_THREADS,
                        help="skip configurations with fewer threads in all")
    parser.add_argument("--reps1", type=int, default=TABLES[1]["reps"],
                        help="launches per configuration, Table 1")
    parser.add_argument("--reps2", type=int, default=TABLES[2]["reps"],
                        help="launches per configuration, Table 2")
    parser.add_argument("--static", action="store_true",
                        help="no GPU: registers, shared memory, occupancy only")
    parser.add_argument("--out", type=Path)
    args = parser.parse_args()

    from omp2gpu.targets.nvptx import default_arch
    from omp2gpu.tools.doctor import gpu_facts, gpu_status
    arch = default_arch()
    on_gpu = not args.static and gpu_status()[0] > 0
    if not on_gpu:
        print("no GPU (or --static): registers, shared memory and theoretical occupancy only",
              file=sys.stderr)
    started = time.monotonic()
    results, meta = {}, {"arch": arch, "n": args.n, "host": platform.node(),
                         "device": "no GPU" if on_gpu else "no GPU (static figures)",
                         "multiprocessors": None, "reps": {}, "configs": {}}
    with tempfile.TemporaryDirectory() as tmp:
        binary = common.build_cuda(HERE / "tables.cu", Path(tmp) / "tables_cuda", arch) if on_gpu else None
        for table in args.tables:
            spec, reps = TABLES[table], args.reps1 if table == 1 else args.reps2
            configs = configurations(args.blocks, args.threads, args.min_threads, table)
            meta["reps"][table], meta["configs"][table] = reps, len(configs)
            measured = {}
            for column in COLUMNS:
                static = static_figures(table, column, arch)
                if not on_gpu or (static.get("error") and column != "CUDA C"):
                    measured[column] = ({}, static)
                    continue
                print(f"Table {table}: {column}, {len(configs)} configurations x {reps} launches ...",
                      file=sys.stderr, flush=True)
                if column == "CUDA C":
                    result = measure_cuda(binary, table, args.n, reps, configs)
                    meta["multiprocessors"] = result.get("multiprocessors") or meta["multiprocessors"]
                else:
                    result = measure_omp2gpu(table, SCHEMES[column], args.n, reps, configs)
                    meta["device"] = result.get("device") or meta["device"]
                measured[column] = (result, static)
                print(f"  done at {time.monotonic() - started:.0f} s"
                      + (f": {result['error']}" if result.get("error") else ""), file=sys.stderr, flush=True)
            if on_gpu and (not meta["multiprocessors"] or meta["device"] == "no GPU"):
                device = gpu_facts(0)
                meta["multiprocessors"] = meta["multiprocessors"] or device.multiprocessors
                meta["device"] = device.name
            results[table] = {column: summarise(m, s, spec["bytes"](args.n), arch,
                                                meta["multiprocessors"] or 0)
                              for column, (m, s) in measured.items()}
    meta["seconds"] = round(time.monotonic() - started, 1)
    meta["reps"] = ", ".join(f"{r} (Table {t})" for t, r in meta["reps"].items())
    meta["configs"] = ", ".join(f"{c} (Table {t})" for t, c in meta["configs"].items())
    table_text = markdown(results, meta)
    print(table_text)
    if not on_gpu:
        return 0                     # nothing measured: keep the GPU's results files as they are
    document = {"meta": meta, "tables": {str(t): r for t, r in results.items()}}
    targets = [HERE / "results"] + ([args.out / "paper_tables_results"] if args.out else [])
    for target in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.with_suffix(".json").write_text(json.dumps(document, indent=1))
        target.with_suffix(".md").write_text(table_text)
        if not plot(results, target.with_suffix(".png")):
            print("matplotlib is not importable: no chart", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
