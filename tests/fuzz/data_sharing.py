"""python -m tests.fuzz.data_sharing --cases 300: a differential campaign over generated
data-sharing and mapping programs (data_sharing_programs.py). Each program runs under
gcc -fopenmp and under omp2gpu (host, CPU device); every disagreement is shrunk and
written under --out with a summary. Exit status 1 when omp2gpu gave a wrong answer or
crashed."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from . import differential
from .data_sharing_programs import Program, RandomChooser, generate, shrunk
from .data_sharing_render import render


@dataclass
class Finding:
    seed: int
    verdict: differential.Verdict
    program: Program

    def describe(self) -> str:
        return f"seed {self.seed}: {self.verdict.kind} on {self.verdict.device}\n{self.verdict.detail}\n"


@dataclass
class Campaign:
    verdicts: Counter = field(default_factory=Counter)
    findings: list[Finding] = field(default_factory=list)

    def summary(self) -> str:
        lines = [f"{sum(self.verdicts.values())} programs: "
                 + ", ".join(f"{kind} {count}" for kind, count in sorted(self.verdicts.items()))]
        lines += [finding.describe() for finding in self.findings]
        return "\n".join(lines)

    @property
    def failed(self) -> bool:
        return any(f.verdict.kind in (differential.DIFFER, differential.CRASH) for f in self.findings)


def threads_for(seed: int) -> int:
    """OMP_NUM_THREADS of a case, 1 to 4: the output may not depend on it."""
    return 1 + seed % 4


def check_program(program: Program, seed: int, work: Path) -> differential.Verdict:
    return differential.check(render(program), work, threads_for(seed))


def run_case(seed: int, work: Path, shrink: bool = True) -> Finding | differential.Verdict:
    """One generated program: its verdict, or a Finding with the program shrunk."""
    program = generate(RandomChooser(seed))
    verdict = check_program(program, seed, work)
    if verdict.kind == differential.AGREE:
        return verdict
    if shrink and verdict.kind != differential.INVALID:
        program = shrunk(program, lambda p: check_program(p, seed, work).signature == verdict.signature)
        verdict = check_program(program, seed, work)
    return Finding(seed, verdict, program)


def campaign(first_seed: int, cases: int, minutes: float | None, log=print) -> Campaign:
    results, deadline = Campaign(), time.monotonic() + 60 * minutes if minutes else None
    with tempfile.TemporaryDirectory(prefix="dsfuzz-") as folder:
        for seed in range(first_seed, first_seed + cases):
            if deadline and time.monotonic() > deadline:
                break
            outcome = run_case(seed, Path(folder) / str(seed))
            verdict = outcome.verdict if isinstance(outcome, Finding) else outcome
            results.verdicts[verdict.kind] += 1
            if isinstance(outcome, Finding):
                results.findings.append(outcome)
                log(outcome.describe())
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz.data_sharing", description=__doc__)
    parser.add_argument("--cases", type=int, default=300)
    parser.add_argument("--minutes", type=float, default=None, help="stop after this long")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000, help="the first seed")
    parser.add_argument("--out", type=Path, default=Path("dsfuzz-findings"))
    args = parser.parse_args(argv)
    print(f"data-sharing programs from seed {args.seed}", file=sys.stderr)
    results = campaign(args.seed, args.cases, args.minutes, log=lambda text: print(text, file=sys.stderr))
    args.out.mkdir(parents=True, exist_ok=True)
    for number, finding in enumerate(results.findings, 1):
        (args.out / f"{finding.verdict.kind}-{number:03d}-seed{finding.seed}.c").write_text(render(finding.program))
    (args.out / "summary.txt").write_text(results.summary() + "\n")
    print(results.summary())
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
