"""A combined directive split into the constructs it combines (OpenMP 4.5 2.11): which
leaf takes each clause, so a scheme can run the leaves one inside the other.

`split_at_parallel` splits at `parallel`: what encloses it (target, teams,
distribute), the parallel construct, and the worksharing construct it holds (for,
sections, with simd).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from omp2gpu.frontend.openmp.clause_types import SharedClause

WORKSHARING = ("for", "sections")


@dataclass(frozen=True)
class ParallelSplit:
    outer: object | None        # Directive: target / teams / distribute around the parallel, or None
    parallel: object            # Directive: the parallel construct
    worksharing: object | None  # Directive: for / sections [simd] inside it, or None


def split_at_parallel(directive) -> ParallelSplit:
    leaves = directive.constructs or (directive.kind,)
    at = leaves.index("parallel")
    # One team on the host: a distribute around the parallel region gives it every iteration.
    outer = tuple(leaf for leaf in leaves[:at] if leaf != "distribute")
    inner = leaves[at + 1:]
    has_worksharing = any(leaf in WORKSHARING for leaf in inner)
    routed = {"outer": [], "parallel": [], "worksharing": []}
    lastprivate = {item.name for clause in directive.clauses if clause.name == "lastprivate"
                   for item in clause.items}
    work = "worksharing" if has_worksharing else "parallel"
    for clause in directive.clauses:
        name = clause.name
        if name in ("private", "reduction", "lastprivate", "linear"):
            routed[work].append(clause)
        elif name == "firstprivate":
            # Also lastprivate: both belong to the loop, whose last iteration assigns the
            # original, not the parallel region's copy (OpenMP 5.0 2.13.1 settles it so).
            both = [item for item in clause.items if item.name in lastprivate and has_worksharing]
            rest = [item for item in clause.items if item not in both]
            if both:
                routed["worksharing"].append(replace(clause, items=both))
            if rest:
                routed["parallel"].append(replace(clause, items=rest))
        elif name in ("schedule", "ordered", "collapse", "nowait", "safelen", "simdlen", "aligned",
                      "order") and has_worksharing:
            routed["worksharing"].append(clause)
        elif name in ("num_threads", "proc_bind", "copyin", "shared", "default"):
            routed["parallel"].append(clause)
        elif name == "if" and getattr(clause, "modifier", None) in (None, "parallel"):
            routed["parallel"].append(clause)
        else:
            routed["outer"].append(clause)      # map, device, num_teams, thread_limit, dist_schedule...

    # What the parallel region reduces or copies out is the enclosing target's original,
    # not its firstprivate copy: the outer leaves see those items as shared.
    inward = [item for clause in routed["parallel"] + routed["worksharing"]
              if clause.name in ("reduction", "lastprivate", "linear") for item in clause.items]
    if inward and outer:
        routed["outer"].append(SharedClause(coord=directive.coord, items=inward))

    def leaf(kinds, clauses):
        return replace(directive, kind=" ".join(kinds), constructs=tuple(kinds), clauses=clauses)
    return ParallelSplit(leaf(outer, routed["outer"]) if outer else None,
                         leaf(("parallel",), routed["parallel"]),
                         leaf(inner, routed["worksharing"]) if inner else None)
