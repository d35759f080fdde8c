"""Device code with recursion is linked from a relocatable object, as Clang's is.

ptxas compiles a whole-program module's recursive function with its own calling
convention, saving more registers at each call, and clones it into the kernel that
calls it. On the H200 (session 25) `declare_target_function`'s fib kernel took 245 us
so, loaded through cuModuleLoadData or assembled by ptxas alone, and 190 us compiled
relocatable (`ptxas -c`) and linked (nvlink, or the driver's cuLink* on the PTX), where
Clang 19's build, always linked, takes 199 us. Code without recursion keeps the
whole-program build: nothing measured gains there, and its calls may use the cheaper
convention.

The device build marks such PTX with a comment record at its top,
`// omp2gpu-link relocatable`; ptxas.py assembles it with `-c` and nvlink, and the
runtime (cuda_device.c `load_code`) has the driver link it."""

from __future__ import annotations

import re

from omp2gpu.targets.nvptx.ptx_text import header_records

PTX_TAG = "// omp2gpu-link"
RELOCATABLE = "relocatable"

# `.func (.param .b32 func_retval0) name(` (a definition: its parameters open on the same line;
# a declaration's name ends its line) and `call.uni (retval0), name, (param0);` as LLVM writes them
_FUNCTION = re.compile(r"^(?:\.visible\s+|\.weak\s+)?\.func\s+(?:\([^)]*\)\s*)?([\w$.]+)\(", re.MULTILINE)
_NEXT_SECTION = re.compile(r"^(?:\.visible\s+|\.weak\s+)?\.(?:func|entry)\b", re.MULTILINE)
_CALL = re.compile(r"\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([A-Za-z_$][\w$.]*)\s*[,;]")


def call_graph(ptx: str) -> dict[str, set[str]]:
    """Each `.func` defined in the PTX -> the functions its body calls directly."""
    graph = {}
    for match in _FUNCTION.finditer(ptx):
        following = _NEXT_SECTION.search(ptx, match.end())
        body = ptx[match.end():following.start() if following else len(ptx)]
        graph[match.group(1)] = {call.group(1) for call in _CALL.finditer(body)}
    return graph


def recursive_functions(ptx: str) -> set[str]:
    """The `.func`s that may call themselves, directly or through others."""
    graph = call_graph(ptx)

    def reaches(start: str) -> set[str]:
        seen, todo = set(), list(graph.get(start, ()))
        while todo:
            name = todo.pop()
            if name not in seen:
                seen.add(name)
                todo.extend(graph.get(name, ()))
        return seen

    return {name for name in graph if name in reaches(name)}


def as_ptx_comment(ptx: str) -> str:
    """The record that asks for a relocatable build, where the PTX has recursion."""
    return f"{PTX_TAG} {RELOCATABLE}\n" if recursive_functions(ptx) else ""


def links_relocatable(ptx: str) -> bool:
    """Whether the device build asked for `ptx` to be compiled relocatable and linked."""
    return [RELOCATABLE] in header_records(ptx, PTX_TAG)
