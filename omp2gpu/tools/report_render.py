"""How `omp2gpu report` prints its figures: a table per kernel with a column per scheme
(plain text or Markdown), or JSON (report.py measures them); and how lib.kernels prints
the same tables, one kernel at a time (gpu_kernels.Kernel is what both show)."""

from __future__ import annotations

import json
from dataclasses import asdict

from omp2gpu.tools import occupancy as occ


def _or_na(value, form: str = "{}") -> str:
    """`value` formatted, or n/a for None (`r and r.x` is None when there is no run; a
    ptxas figure is None without ptxas)."""
    return "n/a" if value is None else form.format(value)


def _size(n: int) -> str:
    return f"{n} B"


def _occupancy_text(o: occ.Occupancy | None) -> str:
    if o is None:
        return "n/a"
    if not o.active_blocks:
        exhausted = ", ".join(factor for factor, blocks in o.limits.items() if not blocks)
        return f"0% (cannot launch {o.block_size} threads: {exhausted})"
    return (f"{o.occupancy:.1%} ({o.active_blocks} blocks x {o.active_warps // o.active_blocks} warps "
            f"= {o.active_warps}/{o.max_warps} warps; limited by {' and '.join(o.limiters)})")


def _rows(kernel, run: bool, kernel_run=None) -> list[tuple[str, str]]:
    """(metric, value) for one kernel (gpu_kernels.Kernel) under one scheme, and with `run`
    its fastest launch (report.KernelRun, None: not run); the metrics are the same for all."""
    k = kernel
    if k is None:
        return []
    if k.unavailable:
        occupancy = f"n/a ({k.unavailable})"
    else:
        occupancy = _occupancy_text(k.occupancy) if not k.note else f"n/a ({k.note})"
    spills = "n/a" if k.unavailable else f"{k.spill_store_bytes} B / {k.spill_load_bytes} B"
    rows = [("scheme", k.scheme), ("why", k.reason),
            ("registers per thread", _or_na(k.registers)),
            ("spill stores / loads", spills),
            ("shared memory (static)", _or_na(k.shared_bytes, "{} B")),
            ("local memory (stack frame)", _stack(k)),
            ("team stack (global, per team)", _size(k.team_stack_bytes)),
            ("constant memory", _or_na(k.constant_bytes, "{} B")),
            ("barriers", _or_na(k.barriers)),
            ("max threads per block", _or_na(k.max_threads_per_block)),
            ("block size", f"{k.block_size} ({k.block_size_from})"),
            ("occupancy", occupancy),
            ("best block size", _best(k)),
            ("wide-register twin", _twin(k)),
            ("fused launches", _fused(k)),
            ("device code build", "n/a" if k.unavailable else k.device_link)]
    if run:
        r = kernel_run and kernel_run.result
        moved, moved_from = (kernel_run.bytes, kernel_run.bytes_from) if kernel_run else (k.bytes, k.bytes_from)
        valuable = f"n/a ({moved_from}; pass --bytes N)" if moved is None else f"{moved} ({moved_from})"
        at_best = None if r is None or r.occupancy is None else \
            f"{r.occupancy:.1%} theoretical, {r.grid_occupancy:.1%} over the grid"
        rows += [("best (#teams, #threads)", _or_na(r and (r.grid, r.block), "({0[0]}, {0[1]})")),
                 ("time (us)", _or_na(r and r.us, "{:.1f}")),
                 ("launcher's choice (us)", _or_na(r and r.default_us, "{:.1f}")),
                 ("registers (driver JIT)", _or_na(r and r.registers)),
                 ("valuable bytes per launch", valuable),
                 ("valuable bandwidth (GB/s)", _or_na(r and r.gbs, "{:.1f}")),
                 ("occupancy at best", _or_na(at_best))]
    return rows


def _kernel_order(reports: list) -> list[str]:
    names = []
    for report in reports:
        names += [name for name in report.kernels if name not in names]
    return names


def render(reports: list, fmt: str, path: str, run: bool, notes=()) -> str:
    """`omp2gpu report`'s output: `reports` are report.SchemeReport, one per scheme."""
    if fmt == "json":
        return json.dumps({"file": path, "schemes": [
            {"requested": r.requested, "remarks": r.remarks,
             "kernels": [_json_kernel(k, r.runs.get(name)) for name, k in r.kernels.items()]} for r in reports],
            "notes": list(notes)}, indent=1) + "\n"
    out = []
    for name in _kernel_order(reports):
        columns = [(r.kernels.get(name), r.runs.get(name)) for r in reports]
        out += _section(columns, [f"--scheme {r.requested}" for r in reports], fmt, run)
    for report in reports:
        out += report.remarks
    out += [f"note: {n}" for n in notes]
    return "\n".join(out).rstrip("\n") + "\n"


def kernel_tables(kernels: list, fmt: str = "table") -> str:
    """Each kernel's table on its own (lib.kernels printed, or shown in a notebook)."""
    out = []
    for kernel in kernels:
        out += _section([(kernel, None)], ["value"], fmt, run=False)
    return "\n".join(out).rstrip("\n") + "\n" if out else ""


def _section(columns: list, headers: list[str], fmt: str, run: bool) -> list[str]:
    """One kernel's table: a column per (kernel, its run) -- None where that scheme runs
    the region on the host -- under `headers`."""
    first = next(kernel for kernel, _ in columns if kernel is not None)
    tables = [dict(_rows(kernel, run, kernel_run)) for kernel, kernel_run in columns]
    metrics = [m for m, _ in _rows(first, run)]
    cells = [[t.get(m, "runs on the host") for t in tables] for m in metrics]
    title = f"{first.location}: kernel {first.name} ({first.arch})"
    if fmt == "markdown":
        return [f"### {title}", "", "| | " + " | ".join(headers) + " |", "|---|" + "---|" * len(headers),
                *(f"| {m} | " + " | ".join(row) + " |" for m, row in zip(metrics, cells)), ""]
    return [title, *_aligned(metrics, cells, headers if len(columns) > 1 else None), ""]


def kernel_summary(k) -> str:
    """One line for a kernel: where, its scheme, ptxas's figures and occupancy."""
    where = f"{k.name} ({k.location}, {k.scheme})"
    if k.unavailable:
        return f"{where}: no figures: {k.unavailable}"
    figures = (f"{k.registers} registers, {k.spill_store_bytes + k.spill_load_bytes} B spilled, "
               f"{k.shared_bytes} B shared, {k.stack_frame_bytes} B local")
    if k.occupancy is None:
        return f"{where}: {figures}; occupancy n/a ({k.note})"
    return (f"{where}: {figures}; occupancy {k.occupancy.occupancy:.0%} at {k.block_size} threads "
            f"(limited by {k.limiter or 'nothing'}), best block size "
            f"{_best(k) if k.best is None else k.best.block_size}")


def _stack(k) -> str:
    """Local memory per thread: the frame ptxas gives, and where the kernel recurses, that
    its depth is bounded only by the stack the runtime sets."""
    frame = _or_na(k.stack_frame_bytes, "{} B")
    if k.unavailable or not k.stack_unbounded:
        return frame
    return f"{frame} + recursion: no static bound (the driver's 1 KiB a thread; LIBOMPTARGET_STACK_SIZE)"


def _twin(k) -> str:
    """The kernel's wide-register twin, and the launches that run it (cuda_device.c): those
    whose blocks per multiprocessor fit at the twin's registers."""
    if k.unavailable:
        return "n/a"
    registers = k.wide_twin_registers
    if registers is None:
        return "none (no loop inside a thread's iteration)"
    if k.registers is not None and registers <= k.registers:
        return f"{registers} registers: never launched (no more than the kernel's)"
    try:
        fits = occ.occupancy(k.arch, registers, k.block_size, k.shared_bytes or 0, barriers=k.barriers or 0)
    except occ.UnsupportedArchitecture:
        return f"{registers} registers"
    blocks = fits.limits["registers"]
    return (f"{registers} registers, launched where a multiprocessor's share of the grid is at most {blocks} "
            f"block{'s' if blocks != 1 else ''} of {k.block_size} threads")


def _fused(k) -> str:
    """The fused kernel that runs the kernel's run-ahead `nowait` launches batched with others
    (fused_launches.c): its registers and occupancy beside the kernel's own. Its parts read
    their arguments from a descriptor at offsets known only at run time, so it can hold more
    registers than any of them; the runtime then launches the kernel unfused when its grid is
    more than the device holds at once at the fused kernel's registers (fused_launches.c
    occupancy_kept, which counts registers as occupancy.py does)."""
    if k.unavailable:
        return "n/a"
    registers = k.fused_registers
    if registers is None:
        return "none (not a `nowait` target task that may run ahead)"
    fused, alone = k.fused_occupancy, k.occupancy
    if fused is None or alone is None:
        return f"{registers} registers"
    text = f"{registers} registers, occupancy {fused.occupancy:.1%} at {k.block_size} threads"
    if fused.occupancy < alone.occupancy:
        return (f"{text}: below the kernel's own {alone.occupancy:.1%}, so the runtime launches it "
                "unfused where its grid is more than one wave of the fused kernel")
    return f"{text}, as alone"


def _best(k) -> str:
    """The best block size and its occupancy; for a scheme with one launch shape (serial),
    none: it launches so whatever the occupancy."""
    if k.best is not None:
        return f"{k.best.block_size} -> {k.best.occupancy:.1%} ({k.best.active_blocks} blocks/SM)"
    return f"n/a ({k.block_size_from})" if k.fixed_launch else "n/a"


def _aligned(metrics: list[str], cells: list[list[str]], headers: list[str] | None) -> list[str]:
    """Plain-text columns; the long "why" row goes under the table, one line per scheme."""
    why = [(m, row) for m, row in zip(metrics, cells) if m == "why"]
    body = [(m, row) for m, row in zip(metrics, cells) if m != "why"]
    if headers:
        body.insert(0, ("", headers))
    width = max(len(m) for m, _ in body)
    columns = [max(len(row[i]) for _, row in body) for i in range(len(cells[0]))]
    lines = [f"  {m:{width}}  " + "  ".join(f"{cell:{columns[i]}}" for i, cell in enumerate(row)).rstrip()
             for m, row in body]
    for _, row in why:
        for i, reason in enumerate(row):
            lines.append(f"  why{f' ({headers[i]})' if headers else ''}: {reason}")
    return lines


# The keys of a kernel in the JSON output, in order (what scripts read).
_JSON_FIGURES = ("registers", "spill_store_bytes", "spill_load_bytes", "shared_bytes", "stack_frame_bytes",
                 "constant_bytes", "team_stack_bytes", "barriers", "max_threads_per_block", "block_size",
                 "block_size_from", "wide_twin_registers", "fused_registers", "device_link")


def _json_kernel(k, kernel_run) -> dict:
    data = {"kernel": k.name, "location": k.location, "scheme": k.scheme, "reason": k.reason, "arch": k.arch}
    data.update((key, getattr(k, key)) for key in _JSON_FIGURES)
    for key in ("occupancy", "best"):
        value = getattr(k, key)
        data[key] = None if value is None else dict(
            asdict(value), occupancy=value.occupancy, limiters=list(value.limiters))
    data["bytes"], data["bytes_from"] = (kernel_run.bytes, kernel_run.bytes_from) if kernel_run \
        else (k.bytes, k.bytes_from)
    data["note"] = k.note
    data["run"] = asdict(kernel_run.result) if kernel_run else None
    return data
