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


def run_case(seed: int, work: Path, devices=differential.DEFAULT_DEVICES) -> Finding | differential.Verdict:
    """One generated program: its verdict, or a Finding with the program shrunk."""
    def check(program: Program) -> differential.Verdict:
        return differential.check(render(program), work, threads_for(seed), devices)

    program = generate(RandomChooser(seed))
    verdict = check(program)
    if verdict.kind == differential.AGREE:
        return verdict
    if verdict.kind != differential.INVALID:
        program = shrunk(program, lambda p: check(p).signature == verdict.signature)
        verdict = check(program)
    return Finding(seed, verdict, program)


def campaign(first_seed: int, cases: int, minutes: float | None, log=print,
             devices=differential.DEFAULT_DEVICES) -> Campaign:
    results, deadline = Campaign(), time.monotonic() + 60 * minutes if minutes else None
    with tempfile.TemporaryDirectory(prefix="dsfuzz-") as folder:
        for seed in range(first_seed, first_seed + cases):
            if deadline and time.monotonic() > deadline:
                break
            outcome = run_case(seed, Path(folder) / str(seed), devices)
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
    parser.add_argument("--devices", default=",".join(differential.DEFAULT_DEVICES),
                        help=f"omp2gpu's devices, of {', '.join(differential.DEVICES)} (default host,cpu)")
    args = parser.parse_args(argv)
    print(f"data-sharing programs from seed {args.seed}", file=sys.stderr)
    devices = tuple(d.strip() for d in args.devices.split(",") if d.strip())
    if not devices or any(d not in differential.DEVICES for d in devices):
        parser.error(f"--devices: choose among {', '.join(differential.DEVICES)}")
    results = campaign(args.seed, args.cases, args.minutes, log=lambda text: print(text, file=sys.stderr),
                       devices=devices)
    args.out.mkdir(parents=True, exist_ok=True)
    for number, finding in enumerate(results.findings, 1):
        (args.out / f"{finding.verdict.kind}-{number:03d}-seed{finding.seed}.c").write_text(render(finding.program))
    (args.out / "summary.txt").write_text(results.summary() + "\n")
    print(results.summary())
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
