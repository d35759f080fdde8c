"""Draw codegen/openmp's layers, as pyproject.toml's lint-imports contract lists them, and
the imports between them as the code has them, into docs/codegen-openmp.png: one row per
layer, top to bottom; an arrow for each part another imports, labelled with how many module
imports it holds; an arrow pointing up (a part importing one above it) would be red, and
lint-imports (tests/test_lint.py) fails the build on one.

    pip install -e '.[docs]' && python docs/draw_codegen_layers.py
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import grimp
import matplotlib
import tomllib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402 (after the backend is chosen)
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch  # noqa: E402

HERE = Path(__file__).resolve().parent
CONTAINER = "omp2gpu.codegen.openmp"


def layers() -> list[list[str]]:
    """The contract's layers, each a list of the parts (folders or modules) it holds."""
    config = tomllib.loads((HERE.parent / "pyproject.toml").read_text())
    for contract in config["tool"]["importlinter"]["contracts"]:
        if contract.get("containers") == [CONTAINER]:
            return [[part.strip() for part in layer.replace("|", ":").split(":")] for layer in contract["layers"]]
    raise SystemExit(f"pyproject.toml has no layers contract for {CONTAINER}")


def part_edges(parts: set[str]) -> Counter:
    graph = grimp.build_graph("omp2gpu", exclude_type_checking_imports=True)
    edges: Counter = Counter()

    def part_of(module: str):
        if not module.startswith(CONTAINER + "."):
            return None
        name = module[len(CONTAINER) + 1:].split(".")[0]
        return name if name in parts else None

    for module in graph.modules:
        source = part_of(module)
        for imported in graph.find_modules_directly_imported_by(module) if source else ():
            target = part_of(imported)
            if target and target != source:
                edges[(source, target)] += 1
    return edges


def draw(rows: list[list[str]], edges: Counter, path: Path) -> int:
    where, rank = {}, {}
    for level, row in enumerate(rows):
        for column, part in enumerate(row):
            where[part] = ((column - (len(row) - 1) / 2) * 2.4, -level * 1.3)
            rank[part] = level
    fig, ax = plt.subplots(figsize=(13, 1.05 * len(rows) + 1))
    upward = 0
    for (source, target), count in sorted(edges.items()):
        up = rank[target] <= rank[source]
        upward += up
        (x1, y1), (x2, y2) = where[source], where[target]
        ax.add_patch(FancyArrowPatch((x1, y1), (x2, y2), arrowstyle="-|>", mutation_scale=10, shrinkA=16,
                                     shrinkB=16, connectionstyle="arc3,rad=0.08",
                                     color="#c0392b" if up else "#9aa5b1", linewidth=0.5 + min(count, 30) / 20,
                                     alpha=0.8, zorder=1))
    for part, (x, y) in where.items():
        folder = (HERE.parent / "omp2gpu/codegen/openmp" / part).is_dir()
        label = part if folder else part + ".py"
        ax.add_patch(FancyBboxPatch((x - 1.05, y - 0.28), 2.1, 0.56, boxstyle="round,pad=0.04", zorder=2,
                                    facecolor="#e8f0fb" if folder else "#f4f6f7", edgecolor="#3b5b8c"))
        ax.text(x, y, label + "/" if folder else label, ha="center", va="center", fontsize=9,
                weight="bold" if folder else "normal", zorder=3)
    xs = [x for x, _ in where.values()]
    ax.set_xlim(min(xs) - 1.4, max(xs) + 1.4)
    ax.set_ylim(-1.3 * (len(rows) - 1) - 0.6, 0.6)
    ax.axis("off")
    ax.set_title("codegen/openmp: layers top to bottom (pyproject.toml's contract); arrows: imports "
                 "(grey down, red up or sideways: none allowed)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return upward


def main() -> int:
    sys.path.insert(0, str(HERE.parent))
    rows = layers()
    edges = part_edges({part for row in rows for part in row})
    upward = draw(rows, edges, HERE / "codegen-openmp.png")
    print(f"{len(edges)} part-to-part imports, {upward} up or sideways")
    return 1 if upward else 0


if __name__ == "__main__":
    sys.exit(main())
