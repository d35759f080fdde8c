"""A fuzzing campaign: mutants of the corpus compiled in parallel until a budget
(a number of cases or minutes) is spent; findings grouped by signature, each with
its reduced input; accept/reject compared with gcc."""

from __future__ import annotations

import concurrent.futures
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from .gcc_gaps import older_openmp
from .mutations import mutate
from .oracle import Outcome, compile_with_omp2gpu, error_line, first_error, gcc_verdict
from .reduce import reduce

CORPUS = Path(__file__).resolve().parents[1] / "programs"


@dataclass(frozen=True)
class Case:
    program: str     # corpus file name
    seed: int

    def mutant(self) -> tuple[bytes, list[str]]:
        return mutate((CORPUS / self.program).read_bytes(), self.seed)


@dataclass
class Finding:
    case: Case
    operators: list[str]
    outcome: Outcome
    source: bytes
    reduced: bytes | None = None
    flaky: bool = False          # did not happen again on the same input

    def describe(self) -> str:
        stderr_tail = "\n".join(self.outcome.stderr.strip().splitlines()[-4:])
        return (f"{self.outcome.signature} ({self.outcome.command}, exit {self.outcome.status})"
                f"{' (did not reproduce)' if self.flaky else ''}\n"
                f"  from {self.case.program} seed {self.case.seed} ({', '.join(self.operators)})\n"
                f"  stderr: {stderr_tail}\n"
                f"  reduced input:\n{(self.reduced or self.source).decode(errors='replace')}")


@dataclass
class Disagreement:
    """An input gcc rejects where omp2gpu's first error is elsewhere (or absent)."""
    case: Case
    source: bytes
    ours: str | None       # omp2gpu's first `mutant.c:LINE:COL: error: ...` (None: it accepted)
    gccs: str

    def describe(self) -> str:
        return (f"{self.case.program} seed {self.case.seed}\n"
                f"  omp2gpu: {self.ours or 'accepted'}\n  gcc:     {self.gccs}\n")


@dataclass
class Results:
    cases: int = 0
    kinds: Counter = field(default_factory=Counter)
    findings: dict[str, Finding] = field(default_factory=dict)   # first one per signature
    # (omp2gpu accepted, gcc accepted) -> count; accept-invalid: (True, False)
    versus_gcc: Counter = field(default_factory=Counter)
    accept_invalid: list[Disagreement] = field(default_factory=list)
    # inputs both reject: was omp2gpu's first error on gcc's line? (True/False -> count)
    error_on_gccs_line: Counter = field(default_factory=Counter)
    wrong_line: list[Disagreement] = field(default_factory=list)    # the False ones
    # what gcc accepts and omp2gpu rejects: a real program could be one of them
    reject_valid: list[Disagreement] = field(default_factory=list)
    # gcc's first error is its OpenMP 4.5 rule against a variable in several map clauses
    # (gcc_gaps.py): accepted by omp2gpu (valid OpenMP 5.0), or rejected by both (no line
    # compared: gcc's first real error, if any, comes later)
    gcc_older_openmp: list[Disagreement] = field(default_factory=list)
    gcc_older_openmp_both_reject: int = 0

    def counts(self) -> dict:
        """The tallies (no inputs): what parts of one campaign add up (`merged`)."""
        return {"cases": self.cases, "kinds": dict(self.kinds),
                "versus_gcc": {f"{a},{b}": n for (a, b), n in self.versus_gcc.items()},
                "error_on_gccs_line": {str(k): n for k, n in self.error_on_gccs_line.items()},
                "accept_invalid": len(self.accept_invalid), "gcc_older_openmp": len(self.gcc_older_openmp),
                "gcc_older_openmp_both_reject": self.gcc_older_openmp_both_reject,
                "findings": sorted(self.findings)}

    def summary(self) -> str:
        lines = [f"{self.cases} mutants: " + ", ".join(f"{k} {n}" for k, n in sorted(self.kinds.items()))]
        if self.versus_gcc:
            both = sum(self.versus_gcc.values())
            lines.append(f"against gcc ({both} compared): accepted by both {self.versus_gcc[True, True]}, "
                         f"rejected by both {self.versus_gcc[False, False]}, accepted only by omp2gpu "
                         f"{self.versus_gcc[True, False]}, only by gcc {self.versus_gcc[False, True]}")
        if self.gcc_older_openmp or self.gcc_older_openmp_both_reject:
            lines.append(f"gcc 12's OpenMP 4.5 rule (a variable in several map clauses, valid since OpenMP 5.0): "
                         f"accepted only by omp2gpu {len(self.gcc_older_openmp)} (not accept-invalid: "
                         f"{len(self.accept_invalid)} are), rejected by both {self.gcc_older_openmp_both_reject} "
                         "(no line compared)")
        compared = sum(self.error_on_gccs_line.values())
        if compared:
            agreed = self.error_on_gccs_line[True]
            lines.append(f"first error on gcc's line: {agreed} of {compared} rejected by both "
                         f"({100 * agreed / compared:.1f}%)")
        lines += [f"FINDING {finding.describe()}" for finding in self.findings.values()]
        return "\n".join(lines)


def merged(parts: list[dict]) -> str:
    """The summary of one campaign run in parts (each part's `Results.counts()`)."""
    whole = Results()
    finding_names: set[str] = set()
    for part in parts:
        whole.cases += part["cases"]
        whole.kinds.update(part["kinds"])
        whole.versus_gcc.update({tuple(k == "True" for k in key.split(",")): n
                                 for key, n in part["versus_gcc"].items()})
        whole.error_on_gccs_line.update({key == "True": n for key, n in part["error_on_gccs_line"].items()})
        whole.gcc_older_openmp_both_reject += part["gcc_older_openmp_both_reject"]
        finding_names.update(part["findings"])
    lines = [line for line in whole.summary().splitlines() if not line.startswith("gcc 12's")]
    invalid = sum(part["accept_invalid"] for part in parts)
    older = sum(part["gcc_older_openmp"] for part in parts)
    lines.append(f"accepted only by omp2gpu: {invalid} accept-invalid, {older} under gcc 12's map-clause rule")
    lines += [f"FINDING {name}" for name in sorted(finding_names)]
    return "\n".join(lines)


def cases(seed: int, count: int | None = None, programs: list[str] | None = None, first: int = 0):
    """Cases spread over the whole corpus (or the corpus files named in `programs`),
    the same for the same seed: case `first` on (one campaign can be run in parts, on
    several machines, each taking its own range of the seed's cases)."""
    programs = sorted(programs or (p.name for p in CORPUS.glob("*.c")))
    index = first
    while count is None or index < first + count:
        yield Case(programs[(seed + index * 7919) % len(programs)], seed * 1_000_003 + index)
        index += 1


def _try(case: Case, compare_with_gcc: bool):
    source, operators = case.mutant()
    with tempfile.TemporaryDirectory(prefix="omp2gpu-fuzz-") as work:
        path = Path(work) / "mutant.c"
        path.write_bytes(source)
        outcome = compile_with_omp2gpu(path)
        gcc = gcc_verdict(path) if compare_with_gcc and not outcome.is_finding else None
    return case, operators, source, outcome, gcc


def reproduces(source: bytes, signature: str) -> bool:
    with tempfile.TemporaryDirectory(prefix="omp2gpu-reduce-") as work:
        path = Path(work) / "mutant.c"
        path.write_bytes(source)
        return compile_with_omp2gpu(path).signature == signature


def _compare_with_gcc(results: Results, case: Case, source: bytes, outcome: Outcome, gcc) -> None:
    accepted = outcome.kind == "accepted"
    results.versus_gcc[accepted, gcc.accepted] += 1
    gcc_behind = not gcc.accepted and older_openmp(source, gcc.first_error)
    if accepted and not gcc.accepted:
        gccs = gcc.first_error or "(an error outside the input's own lines)"
        (results.gcc_older_openmp if gcc_behind else results.accept_invalid).append(
            Disagreement(case, source, None, gccs))
    if gcc.accepted and not accepted:
        results.reject_valid.append(Disagreement(case, source, first_error(outcome.stderr, "mutant.c"),
                                                 "(accepted)"))
    if not accepted and gcc_behind:
        results.gcc_older_openmp_both_reject += 1
    elif not accepted and not gcc.accepted and gcc.first_error is not None:
        ours = first_error(outcome.stderr, "mutant.c")
        agreed = error_line(ours) == gcc.error_line
        results.error_on_gccs_line[agreed] += 1
        if not agreed:
            results.wrong_line.append(Disagreement(case, source, ours, gcc.first_error))


SAVE_EVERY = 500


def run(case_source, jobs: int = 2, minutes: float | None = None, compare_with_gcc: bool = True,
        reduce_budget: int = 150, log=None, collected=None) -> Results:
    """Compile every case of case_source (stopping after `minutes`), call
    collected(results) if given (a long run writes its summary there, before the
    reductions, which a time limit may cut short; and every SAVE_EVERY mutants, so
    that a run killed early keeps what it found), then reduce the first input of
    each finding."""
    results = Results()
    deadline = time.monotonic() + minutes * 60 if minutes else None
    pending = iter(case_source)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        running = set()
        while True:
            while len(running) < jobs * 2 and (deadline is None or time.monotonic() < deadline):
                case = next(pending, None)
                if case is None:
                    break
                running.add(pool.submit(_try, case, compare_with_gcc))
            if not running:
                break
            done, running = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                case, operators, source, outcome, gcc = future.result()
                results.cases += 1
                results.kinds[outcome.kind] += 1
                if outcome.is_finding:
                    if outcome.signature not in results.findings:
                        results.findings[outcome.signature] = Finding(case, operators, outcome, source)
                        if log:
                            log(f"new finding: {outcome.signature} ({case.program} seed {case.seed})")
                elif gcc is not None:
                    _compare_with_gcc(results, case, source, outcome, gcc)
            if log and results.cases % 100 == 0:
                log(f"{results.cases} mutants, {len(results.findings)} findings")
            if collected is not None and results.cases % SAVE_EVERY == 0:
                collected(results)          # a run stopped early keeps its tallies
    if collected is not None:
        collected(results)
    for finding in results.findings.values():
        signature = finding.outcome.signature
        if finding.outcome.kind == "hang":      # each try would cost the whole timeout
            continue
        if not reproduces(finding.source, signature):
            finding.flaky = True                # a file changed under the run, a race: say so
            continue
        finding.reduced = reduce(finding.source, lambda text: reproduces(text, signature), reduce_budget)
    return results
