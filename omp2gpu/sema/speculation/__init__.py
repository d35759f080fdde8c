"""Loads of mapped arrays under a branch, made before it (issue 29: a kernel that waits on
its chains of dependent loads, bench/lulesh/sweep-experiments-session27.md and -29.md).

The problem: in a target region, an `if` or `switch` whose arms only compute values into
the region's own scalars waits for its condition's loads before it can issue the loads of
the arm it takes. LULESH's boundary-mask switches are an example:
`case 0: delvm = delv_xi[lxim[e]]; break; case SYMM: delvm = delv_xi[e]; break; ...`.

The rewrite (region.py): every arm runs, into copies of the scalars it assigns, and the
scalars then take the copies of the arm the condition picks. The loads are then made
first (hoisting.py), as constants at the top of the block, index loads first:

    const int k0 = lxim[e];                      made first, for every statement of the block
    const double v0 = delv_xi[IN(k0)];           a load through one: its index clamped
    ...
    { int chosen = mask & XI_M;
      double t0 = delvm, t1 = delvm;
      { t0 = v0; }  { t1 = delv_xi_e; }          each arm, into its copies
      delvm = (chosen == 0) | (chosen == COMM) ? t0 : chosen == SYMM ? t1 : ...; }

so all the loads are in flight together and the arms become selects.

What makes it legal:
- A load is only of a pointer that the construct maps as a section `p[lo:len]` (its own
  map clause). Its index is clamped into `[lo, lo + len)`:
  IN(i) is `(unsigned long long)(i - lo) < (unsigned long long)len ? i : lo`.
- An index a statement before used on an array mapped alike is in range already, and
  shows that `len > 0`. Where nothing shows that, the statement is guarded by `len > 0`
  and keeps its loads.
- The pointer and the section's bounds must not change in the region: not written, not
  private in it, the same declaration where the statement is. No `target data` or
  `target enter data` of the function may map the pointer with another section: the
  region might read the rest, which a clamped index would not.
- An arm may only declare scalars, assign the region's own scalars (declared in the region),
  and hold `if`s of the same kind (arms.py). Its expressions may not call, write memory,
  divide integers or read volatile objects. So running an arm that was not taken has no
  effect but the values it leaves in its copies.
- Nothing such an arm computes that LLVM may take as poison may reach a branch or an index
  there; only the select may drop it. That is a signed overflow, a shift too far, a float
  out of an integer's range, and with -ffast-math an infinity or NaN.
- Loads move up only past statements that do not store, call or jump.

When it runs: on the parsed tree before the region facts (driver.translate). Each rewritten
statement keeps both forms, `if (__omp2gpu_speculating()) speculated else written`. The
builtin is a constant of the build and codegen emits only its side
(codegen/statements.py): GPU code runs the speculated form, the host and the CPU device
the written one. A CPU's branch predictor favours the written form: LULESH's monotonic Q
on the CPU device took 1,230 us a sweep speculated against 960 us as written.
- It needs -O1 or above, and -fno-speculate-mapped-loads turns it off
  (code_rules.CodeRules.speculate_loads).
- Not in a file that `requires unified_shared_memory`: a region may read past what it
  maps there.
"""

from __future__ import annotations

from pycparser import c_ast

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.sema.speculation.region import Region, section_text
from omp2gpu.sema.typed_scopes import TypedScopes


def speculate_mapped_loads(ast: c_ast.FileAST, fast_math: bool = False) -> list:
    """Rewrite the qualifying statements of every target region in `ast`, in place; the
    coordinates of those rewritten. `fast_math` (-ffast-math): floating arithmetic may make
    poison too, so it may not reach an arm's branch or index."""
    scopes = TypedScopes(ast)
    rewritten: list = []
    counter = [0]
    for node in ast.ext:
        if not isinstance(node, c_ast.FuncDef):
            continue
        walked = [(construct, scope) for construct, scope in scopes.walk(node, scopes.file_scope)
                  if isinstance(construct, OmpConstruct)]
        data_maps = _data_sections(construct for construct, _ in walked)
        for construct, scope in walked:
            if _is_target_region(construct):
                rewritten += Region(construct, scope, scopes, counter, fast_math, data_maps).rewrite()
    return rewritten


def _data_sections(constructs) -> dict[str, set[str]]:
    """Name -> the sections (`lower:length` text) that the function's `target data` and
    `target enter data` constructs map it with. A region that maps a smaller section
    than one of those may still read the rest (OpenMP leaves it undefined, programs do
    it), which a clamped index would not: such a pointer is not speculated through."""
    found: dict[str, set[str]] = {}
    for construct in constructs:
        if construct.directive.kind not in ("target data", "target enter data"):
            continue
        for clause in construct.directive.clauses:
            for item in clause.items if clause.name == "map" else ():
                found.setdefault(item.name, set()).add(section_text(item))
    return found


def speculation_remarks(coords) -> list[str]:
    """--explain's line for each statement `speculate_mapped_loads` rewrote."""
    return [f"{SourceLocation.of(coord)}: remark: every arm of this statement runs, its loads of mapped "
            "sections made first (clamped into them), and a select keeps the taken arm's values "
            "(-fno-speculate-mapped-loads: as written)" for coord in coords]


def _is_target_region(construct: OmpConstruct) -> bool:
    directive = construct.directive
    return (construct.body is not None and directive.constructs[:1] == ("target",)
            and not any(word in directive.kind for word in ("target data", "target update",
                                                              "target enter", "target exit")))
