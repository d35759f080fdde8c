"""bench/host's results as a console table, results.json, results.md and (where
matplotlib is installed) results.png."""

from __future__ import annotations

import json
from pathlib import Path


def _seconds(value) -> str:
    return "—" if value is None else f"{value:.4g}"


def _ratio(row: dict) -> str:
    if "ratio" not in row:
        return "—"
    return f"{row['ratio']:.2f}x" + ("" if row["meets_goal"] else " (below goal)")


def _checksums(row: dict) -> str:
    if row["checksums_equal"]:
        return "equal"
    return f"DIFFER (gcc {row['checksum_gcc']}, omp2gpu {row['checksum_omp2gpu']})"


def _runtime(runtime: dict) -> str:
    return f"{runtime['name']} `{runtime['path']}`"


def console_table(results: dict) -> str:
    header = f"{'program':<16} {'threads':>7} {'gcc s':>9} {'omp2gpu s':>10} {'ratio':>7} {'goal':>5} " \
             f"{'checksums':<9} omp2gpu runtime"
    lines = [header, "-" * len(header)]
    for row in results["rows"]:
        ratio = f"{row['ratio']:.2f}" if "ratio" in row else "—"
        lines.append(f"{row['program']:<16} {row['threads']:>7} {_seconds(row['gcc_s']):>9} "
                     f"{_seconds(row['omp2gpu_s']):>10} {ratio:>7} {row['goal']:>5} "
                     f"{'equal' if row['checksums_equal'] else 'DIFFER':<9} {row['omp2gpu_runtime']['name']}")
    return "\n".join(lines)


def markdown(results: dict, picture: str | None = None) -> str:
    m = results["machine"]
    loads = [x for row in results["rows"] for x in row["load_average"]]
    environment = ", ".join(f"{k}={v}" for k, v in sorted(m["omp_environment"].items())) or "none"
    lines = ["# Host OpenMP: omp2gpu against gcc -O3 -fopenmp", "",
             f"{m['cpu']}, {m['cores']} cores; gcc {m['gcc']} (`gcc {' '.join(results['gcc_flags'])}`), "
             f"omp2gpu `run {' '.join(results['omp2gpu_flags'])}` at {m['omp2gpu_commit']}, "
             f"Python {m['python']}; {results['started']}."
             + (" **--quick sizes: a check that the benchmark works, not a measurement.**"
                if results["quick"] else ""), "",
             "Times are the kernel time each program measures itself (omp_get_wtime; omp2gpu's compile "
             "and JIT not included), the best of the program's repetitions and of "
             f"{results['trials']} runs (gcc and omp2gpu interleaved). Throughput ratio = gcc time / "
             "omp2gpu time: above 1, omp2gpu is faster; goals (issue 14): 0.95 on the loops, 0.9 on the "
             "tasks. OMP_NUM_THREADS is the thread count; other OpenMP variables set: "
             f"{environment}.", "",
             f"1-minute load average before the runs: {min(loads, default=0):.2f} to {max(loads, default=0):.2f} "
             f"(per row below); a load above the core count means other jobs shared the cores "
             "and the times mean little.", "",
             "| program | args | threads | gcc (s) | omp2gpu (s) | throughput ratio | goal | checksums "
             "| gcc's runtime | omp2gpu's runtime | load |",
             "|---|---|---:|---:|---:|---:|---:|---|---|---|---|"]
    for row in results["rows"]:
        lines.append(f"| {row['program']} | `{' '.join(row['args'])}` | {row['threads']} | "
                     f"{_seconds(row['gcc_s'])} | {_seconds(row['omp2gpu_s'])} | {_ratio(row)} | "
                     f"{row['goal']} | {_checksums(row)} | {_runtime(row['gcc_runtime'])} | "
                     f"{_runtime(row['omp2gpu_runtime'])} | {row['load_average'][0]}–{row['load_average'][1]} |")
    errors = [f"- {row['program']}, {row['threads']} threads: {error}"
              for row in results["rows"] for error in row.get("errors", ())]
    if errors:
        lines += ["", "Failed runs:", "", *errors]
    if results["skipped_runtimes"]:
        lines += ["", f"Runtimes asked for but not loadable here: {', '.join(results['skipped_runtimes'])}."]
    if picture:
        lines += ["", f"![throughput ratios]({picture})"]
    lines += ["", "Programs and method: [README.md](README.md); reproduce with `python bench/host/run.py`."]
    return "\n".join(lines) + "\n"


def plot(results: dict, path: Path) -> bool:
    """Throughput ratios as bars, one group per program, with the goals; False without matplotlib."""
    try:
        import matplotlib  # optional: the lent machines may not have it
    except ImportError:
        return False
    matplotlib.use("Agg")
    from matplotlib import pyplot  # after use("Agg"): no display needed

    rows = [row for row in results["rows"] if "ratio" in row]
    programs = list(dict.fromkeys(row["program"] for row in rows))
    series = list(dict.fromkeys((row["threads"], row["omp2gpu_runtime"]["name"]) for row in rows))
    width = 0.8 / max(len(series), 1)
    figure, axes = pyplot.subplots(figsize=(1.8 * len(programs) + 2, 4))
    for index, (threads, runtime) in enumerate(series):
        values = {row["program"]: row["ratio"] for row in rows
                  if (row["threads"], row["omp2gpu_runtime"]["name"]) == (threads, runtime)}
        xs = [p + index * width for p, name in enumerate(programs) if name in values]
        axes.bar(xs, [values[name] for name in programs if name in values], width,
                 label=f"{threads} thread{'s' if threads > 1 else ''}, {runtime}")
    for p, name in enumerate(programs):
        goal = next(row["goal"] for row in rows if row["program"] == name)
        axes.hlines(goal, p - width / 2, p + width * (len(series) - 0.5), colors="black", linestyles="dashed")
    axes.set_xticks([p + width * (len(series) - 1) / 2 for p in range(len(programs))], programs)
    axes.set_yscale("log")      # ratios on a loaded machine span orders of magnitude
    axes.axhline(1.0, color="grey", linewidth=0.8)
    axes.set_ylabel("throughput ratio (gcc time / omp2gpu time)")
    axes.set_title("omp2gpu host OpenMP against gcc -O3 -fopenmp (dashed: goal)")
    axes.legend(fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=120)
    pyplot.close(figure)
    return True


def write(results: dict, folder: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "results.json").write_text(json.dumps(results, indent=1) + "\n")
    picture = folder / "results.png"
    if not plot(results, picture):
        picture.unlink(missing_ok=True)     # a picture of older results would mislead
    (folder / "results.md").write_text(markdown(results, picture.name if picture.exists() else None))
