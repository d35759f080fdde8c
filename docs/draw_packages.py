"""Draw the package's import graph, as the code has it, into docs/packages.png (and
docs/packages.md, its edges as a table): one box per stage, in pipeline order, an
arrow for each stage another imports, labelled with how many imports it holds. A
cycle would be drawn red; lint-imports (tests/test_lint.py) fails the build on one.

    pip install -e '.[docs]' && python docs/draw_packages.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import grimp
import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after the backend is chosen)
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

HERE = Path(__file__).resolve().parent

# (stage, modules it holds, x, y): the pipeline left to right, what drives it above,
# the launcher below.
STAGES = [
    ("api\n(from Python)", ("omp2gpu.api",), 8.8, 3.6),
    ("tools", ("omp2gpu.tools", "omp2gpu.__main__"), 4.4, 3.6),
    ("drivers", ("omp2gpu.driver", "omp2gpu.object_file", "omp2gpu.device_driver", "omp2gpu.cpu_driver",
                 "omp2gpu.linker", "omp2gpu.pipeline", "omp2gpu.error_order"), 4.4, 1.9),
    ("frontend", ("omp2gpu.frontend",), 0, 0),
    ("sema", ("omp2gpu.sema",), 2.2, 0),
    ("codegen", ("omp2gpu.codegen",), 4.4, 0),
    ("codegen/openmp\n(plan, schemes)", ("omp2gpu.codegen.openmp",), 6.6, 0),
    ("targets", ("omp2gpu.targets",), 8.8, 0),
    ("offload\n(abi: the runtime's interface, a leaf)", ("omp2gpu.offload",), 8.8, -1.9),
    ("shared leaves", ("omp2gpu.diagnostics", "omp2gpu.runtime_files", "omp2gpu.disk_cache",
                       "omp2gpu.deep_stack", "omp2gpu.trace_events", "omp2gpu.config", "omp2gpu.__init__",
                       "omp2gpu"), 0, -1.9),
]
LEAVES = "shared leaves"     # every stage may import them: their arrows are left out of the picture

def stage_of(module: str) -> str | None:
    """The stage holding `module`: the longest matching prefix wins (codegen.openmp
    before codegen); the root package's prefix names the package module alone."""
    best = None
    for name, prefixes, _, _ in STAGES:
        for prefix in prefixes:
            inside = module.startswith(prefix + ".") and prefix != "omp2gpu"
            if (module == prefix or inside) and (
                    best is None or len(prefix) > len(best[1])):
                best = (name, prefix)
    return best[0] if best else None


def stage_edges() -> tuple[Counter, Counter]:
    """(stage, stage) -> number of module imports; and modules per stage."""
    graph = grimp.build_graph("omp2gpu", exclude_type_checking_imports=True)   # as lint-imports reads it
    edges, sizes = Counter(), Counter()
    for module in graph.modules:
        source = stage_of(module)
        sizes[source] += 1
        for imported in graph.find_modules_directly_imported_by(module):
            target = stage_of(imported)
            if source and target and source != target:
                edges[(source, target)] += 1
    return edges, sizes


def draw(edges: Counter, sizes: Counter, path: Path) -> None:
    where = {name: (x, y) for name, _, x, y in STAGES}
    fig, ax = plt.subplots(figsize=(13, 7))
    for name, (x, y) in where.items():
        ax.add_patch(FancyBboxPatch((x - 0.85, y - 0.45), 1.7, 0.9, boxstyle="round,pad=0.05",
                                    facecolor="#fdf1dc" if "offload" in name else "#e8f0fb",
                                    edgecolor="#3b5b8c"))
        ax.text(x, y + 0.1, name, ha="center", va="center", fontsize=10, weight="bold")
        ax.text(x, y - 0.3, f"{sizes[name]} modules", ha="center", va="center", fontsize=8, color="#555")
    for (source, target), count in sorted(edges.items()):
        if target == LEAVES:
            continue
        cycle = (target, source) in edges
        (x1, y1), (x2, y2) = where[source], where[target]
        bend = 0.35 if y1 == y2 and abs(x1 - x2) > 2.3 else 0.0     # over the stages in between
        ax.add_patch(FancyArrowPatch((x1, y1), (x2, y2), arrowstyle="-|>", mutation_scale=14,
                                     shrinkA=30, shrinkB=30, connectionstyle=f"arc3,rad={bend}",
                                     color="#c0392b" if cycle else "#5d6d7e",
                                     linewidth=0.7 + min(count, 40) / 16))
        lx, ly = (x1 + x2) / 2, (y1 + y2) / 2 + (0.55 * abs(x1 - x2) / 2.2 * bend if bend else 0)
        ax.text(lx, ly, str(count), fontsize=8, color="#1f3a5f", ha="center", va="center",
                bbox={"boxstyle": "round,pad=0.15", "facecolor": "white", "edgecolor": "none"})
    ax.text(0, -2.75, "every stage may import the shared leaves (diagnostics, runtime files, disk cache)",
            ha="left", fontsize=8, color="#555")
    ax.set_xlim(-1.2, 10.0)
    ax.set_ylim(-3.0, 4.4)
    ax.axis("off")
    ax.set_title("omp2gpu: which stage imports which (arrow: imports; label: module imports; "
                 "a cycle would be red)", fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)

def table(edges: Counter) -> str:
    lines = ["# The package's import graph", "",
             "Made by `python docs/draw_packages.py` from the code (grimp, as lint-imports reads it);",
             "![stages and their imports](packages.png)", "",
             "| stage | imports (module imports) |", "|---|---|"]
    for name, _, _, _ in STAGES:
        targets = ", ".join(f"{t.splitlines()[0]} ({n})" for (s, t), n in sorted(edges.items()) if s == name)
        lines.append(f"| {name.splitlines()[0]} | {targets or 'nothing of omp2gpu'} |")
    cycles = sorted({tuple(sorted(pair)) for pair in edges if pair[::-1] in edges})
    lines += ["", f"Stage cycles: {', '.join(' <-> '.join(c) for c in cycles) if cycles else 'none'}."]
    return "\n".join(lines) + "\n"


def main() -> int:
    sys.path.insert(0, str(HERE.parent))
    edges, sizes = stage_edges()
    draw(edges, sizes, HERE / "packages.png")
    (HERE / "packages.md").write_text(table(edges))
    print(table(edges))
    return 0


if __name__ == "__main__":
    sys.exit(main())
