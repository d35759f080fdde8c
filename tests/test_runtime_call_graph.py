"""The C runtime's files call each other in one direction: in each runtime/ folder of C
that is linked into one module (libomp2gpu, the CPU device), the
graph "file A calls a function file B defines" has no cycle, so each file can be read,
tested and replaced with only the files below it (issue 27: the JIT path's native launch
files, since removed, called each other in a circle)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

RUNTIME = Path(__file__).resolve().parents[1] / "runtime"
FOLDERS = ("offload", "cpu_device")
DEFINITION = re.compile(r"^(?!static\b)[A-Za-z_][\w \t\*]*?\b([A-Za-z_]\w*)\s*\([^;{]*\)\s*\{", re.MULTILINE)
COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)


def call_graph(folder: Path) -> dict[str, set[str]]:
    texts = {path.name: COMMENT.sub("", path.read_text()) for path in sorted(folder.glob("*.c"))}
    defined = {name: file for file, text in texts.items() for name in DEFINITION.findall(text)}
    graph: dict[str, set[str]] = {file: set() for file in texts}
    for file, text in texts.items():
        for name in set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", text)):
            owner = defined.get(name)
            if owner is not None and owner != file:
                graph[file].add(owner)
    return graph


def cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the graph (its files in order), None if it has none."""
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for after in sorted(graph[node]):
            if state.get(after) == 1:
                return path[path.index(after):] + [after]
            if after not in state and (found := visit(after)):
                return found
        state[node] = 2
        path.pop()
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_the_graph_sees_calls_across_files():
    graph = call_graph(RUNTIME / "offload")
    assert "present_table.c" in graph["entry_points.c"] and "device_table.c" in graph["entry_points.c"]
    assert cycle({"a.c": {"b.c"}, "b.c": {"a.c"}}) == ["a.c", "b.c", "a.c"]


@pytest.mark.parametrize("folder", FOLDERS)
def test_no_circle_of_calls(folder):
    found = cycle(call_graph(RUNTIME / folder))
    assert found is None, f"runtime/{folder}: files call each other in a circle: {' -> '.join(found)}"
