"""The allocator traits a traits array's constant initializer gives (OpenMP 5.1 table
2.9): each key takes only its own values, so `{omp_atk_fallback, omp_atv_pteam}` or
`{omp_atk_alignment, 48}` is a located error where the array is written, for the arrays
`uses_allocators` names (their allocators are made on the device from them, where a
refusal could only be an omp_null_allocator the region never checks). Keys and values are
read by name, as <omp.h> spells them; an entry that is not constant is left to run time."""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import CompileError

# Each key's named values (omp_atv_default is every key's).
_NAMED_VALUES = {
    "omp_atk_sync_hint": ("omp_atv_contended", "omp_atv_uncontended", "omp_atv_serialized",
                          "omp_atv_sequential", "omp_atv_private"),
    "omp_atk_access": ("omp_atv_all", "omp_atv_cgroup", "omp_atv_pteam", "omp_atv_thread"),
    "omp_atk_fallback": ("omp_atv_default_mem_fb", "omp_atv_null_fb", "omp_atv_abort_fb",
                         "omp_atv_allocator_fb"),
    "omp_atk_pinned": ("omp_atv_true", "omp_atv_false"),
    "omp_atk_partition": ("omp_atv_environment", "omp_atv_nearest", "omp_atv_blocked",
                          "omp_atv_interleaved"),
}
# Keys whose value is a number: a power of two, or any positive size.
_NUMBERS = {"omp_atk_alignment": "a power of two", "omp_atk_pool_size": "a positive size"}


def check_traits_initializer(declaration) -> None:
    """Each constant {key, value} of the array's initializer, if it has one."""
    init = getattr(declaration, "init", None)
    if not isinstance(init, c_ast.InitList):
        return
    for key, value in _pairs(init.exprs):
        _check_pair(key, value)


def _pairs(exprs):
    """{key, value} entries, braced or elided (`{omp_atk_alignment, 64}` for one trait)."""
    flat = []
    for expr in exprs:
        if isinstance(expr, c_ast.InitList):
            if len(expr.exprs) == 2:
                yield expr.exprs[0], expr.exprs[1]
        else:
            flat.append(expr)
    for i in range(0, len(flat) - 1, 2):
        yield flat[i], flat[i + 1]


def _check_pair(key, value) -> None:
    if not isinstance(key, c_ast.ID) or not key.name.startswith("omp_atk_"):
        return
    name = value.name if isinstance(value, c_ast.ID) else None
    if name == "omp_atv_default":
        return
    if key.name in _NAMED_VALUES:
        allowed = _NAMED_VALUES[key.name]
        if name is not None and name.startswith("omp_atv_") and name not in allowed \
                or isinstance(value, c_ast.Constant):
            raise CompileError(f"allocator trait '{key.name}' cannot take the value '{_spelling(value)}' "
                               f"(it takes {', '.join(allowed)} or omp_atv_default)", value.coord)
    elif key.name in _NUMBERS:
        if name is not None and name.startswith("omp_atv_"):
            raise CompileError(f"allocator trait '{key.name}' takes a number ({_NUMBERS[key.name]}), "
                               f"not '{name}'", value.coord)
        number = _integer(value)
        bad = number is not None and (number <= 0 or (key.name == "omp_atk_alignment" and number & (number - 1)))
        if bad:
            raise CompileError(f"allocator trait '{key.name}' must be {_NUMBERS[key.name]}, not {number}",
                               value.coord)


def _integer(node) -> int | None:
    if isinstance(node, c_ast.Constant) and "int" in node.type:
        try:
            return int(node.value.rstrip("uUlL"), 0)
        except ValueError:
            return None
    if isinstance(node, c_ast.UnaryOp) and node.op == "-":
        inner = _integer(node.expr)
        return None if inner is None else -inner
    return None


def _spelling(node) -> str:
    if isinstance(node, c_ast.ID):
        return node.name
    if isinstance(node, c_ast.Constant):
        return node.value
    return "..."
