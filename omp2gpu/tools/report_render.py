"""How `omp2gpu report` prints its figures: a table per kernel with a column per scheme
(plain text or Markdown), or JSON (report.py measures them)."""

from __future__ import annotations

import json
from dataclasses import asdict

from omp2gpu.tools import occupancy as occ


def _or_na(value, form: str = "{}") -> str:
    """`value` formatted, or n/a for None (`r and r.x` is None when there is no run)."""
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


def _rows(figures, run: bool) -> list[tuple[str, str]]:
    """(metric, value) for one kernel under one scheme; the metrics are the same for all."""
    f = figures
    if f is None:
        return []
    rows = [("scheme", f.scheme), ("why", f.reason),
            ("registers per thread", str(f.registers)),
            ("spill stores / loads", f"{f.spill_store_bytes} B / {f.spill_load_bytes} B"),
            ("shared memory (static)", _size(f.shared_bytes)),
            ("local memory (stack frame)", _size(f.stack_frame_bytes)),
            ("team stack (global, per team)", _size(f.team_stack_bytes)),
            ("constant memory", _size(f.constant_bytes)),
            ("barriers", str(f.barriers)),
            ("max threads per block", _or_na(f.max_threads_per_block)),
            ("block size", f"{f.block_size} ({f.block_size_from})"),
            ("occupancy", _occupancy_text(f.occupancy) if not f.note else f"n/a ({f.note})"),
            ("best block size", "n/a" if f.best is None else
             f"{f.best.block_size} -> {f.best.occupancy:.1%} ({f.best.active_blocks} blocks/SM)")]
    if run:
        r = f.run
        if f.bytes is None:
            valuable = f"n/a ({f.bytes_from}; pass --bytes N)"
        else:
            valuable = f"{f.bytes} ({f.bytes_from})"
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
    if fmt == "json":
        return json.dumps({"file": path, "schemes": [
            {"requested": r.requested, "remarks": r.remarks,
             "kernels": [_json_kernel(k) for k in r.kernels.values()]} for r in reports],
            "notes": list(notes)}, indent=1) + "\n"
    out = []
    for name in _kernel_order(reports):
        columns = [r.kernels.get(name) for r in reports]
        first = next(c for c in columns if c is not None)
        tables = [dict(_rows(c, run)) for c in columns]
        metrics = [m for m, _ in _rows(first, run)]
        headers = [f"--scheme {r.requested}" for r in reports]
        cells = [[t.get(m, "runs on the host") for t in tables] for m in metrics]
        title = f"{first.location}: kernel {name} ({first.arch})"
        if fmt == "markdown":
            out += [f"### {title}", "", "| | " + " | ".join(headers) + " |",
                    "|---|" + "---|" * len(headers)]
            out += [f"| {m} | " + " | ".join(row) + " |" for m, row in zip(metrics, cells)]
        else:
            out.append(title)
            out += _aligned(metrics, cells, headers if len(reports) > 1 else None)
        out.append("")
    for report in reports:
        out += report.remarks
    out += [f"note: {n}" for n in notes]
    return "\n".join(out).rstrip("\n") + "\n"


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


def _json_kernel(k) -> dict:
    data = asdict(k)
    for key in ("occupancy", "best"):
        value = getattr(k, key)
        data[key] = None if value is None else dict(
            asdict(value), occupancy=value.occupancy, limiters=list(value.limiters))
    return data
