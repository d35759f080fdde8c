"""python -m tests.fuzz --minutes 30: a long fuzzing run; findings under --out, with the
inputs where gcc disagrees (accept-invalid/, reject-valid/, wrong-line/: the first error
elsewhere; gcc-older-openmp/: accepted by omp2gpu, refused by gcc 12's OpenMP 4.5 rule on
map clauses, gcc_gaps.py)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from . import campaign


def _write_disagreements(folder: Path, disagreements: list[campaign.Disagreement]) -> None:
    """FOLDER.txt lists each input with both compilers' first errors; FOLDER/NNN.c is the input."""
    folder.mkdir(parents=True, exist_ok=True)
    index = []
    for number, disagreement in enumerate(disagreements, 1):
        (folder / f"{number:03d}.c").write_bytes(disagreement.source)
        index.append(f"{number:03d}: {disagreement.describe()}")
    folder.with_suffix(".txt").write_text("".join(index))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--minutes", type=float, default=None, help="time budget (default: --cases)")
    parser.add_argument("--cases", type=int, default=None, help="number of mutants (default 200 "
                                                                  "without --minutes)")
    parser.add_argument("--seed", type=int, default=int(time.time()) % 100_000)
    parser.add_argument("--first", type=int, default=0,
                        help="the seed's first case to run (a campaign run in parts: each part its range)")
    parser.add_argument("--merge", nargs="+", type=Path, metavar="OUT",
                        help="print the summary of one campaign's parts (their --out folders) and stop")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--no-gcc", dest="gcc", action="store_false", help="skip the gcc comparison")
    parser.add_argument("--out", type=Path, default=Path("fuzz-findings"),
                        help="where reduced inputs and the summary go (default ./fuzz-findings)")
    parser.add_argument("--programs", nargs="+", metavar="NAME", default=None,
                        help="mutate only these corpus programs (file names under tests/programs, "
                             "e.g. today's new ones); default: the whole corpus")
    args = parser.parse_args(argv)
    if args.merge:
        print(campaign.merged([json.loads((folder / "counts.json").read_text()) for folder in args.merge]))
        return 0
    count = args.cases if args.cases is not None or args.minutes else 200
    print(f"fuzzing with seed {args.seed} from case {args.first}, {args.jobs} jobs", file=sys.stderr)
    programs = _corpus_names(parser, args.programs)
    results = campaign.run(campaign.cases(args.seed, count, programs, args.first), jobs=args.jobs, minutes=args.minutes,
                           compare_with_gcc=args.gcc, log=lambda text: print(text, file=sys.stderr),
                           collected=lambda found: _write_results(args.out, found))
    print(_write_results(args.out, results))       # again, with the reduced inputs
    return 1 if results.findings else 0


def _corpus_names(parser, names: list[str] | None) -> list[str] | None:
    """--programs' names as corpus file names (a path or a name without .c works too)."""
    if names is None:
        return None
    found = [Path(name).with_suffix(".c").name for name in names]
    missing = [name for name in found if not (campaign.CORPUS / name).is_file()]
    if missing:
        parser.error(f"not in {campaign.CORPUS}: {', '.join(missing)}")
    return found


def _write_results(out: Path, results: campaign.Results) -> str:
    """The findings, the disagreements with gcc and the summary, under `out`."""
    out.mkdir(parents=True, exist_ok=True)
    for number, finding in enumerate(results.findings.values(), 1):
        (out / f"finding-{number:03d}.c").write_bytes(finding.reduced or finding.source)
    _write_disagreements(out / "accept-invalid", results.accept_invalid)
    _write_disagreements(out / "wrong-line", results.wrong_line)
    _write_disagreements(out / "reject-valid", results.reject_valid)
    _write_disagreements(out / "gcc-older-openmp", results.gcc_older_openmp)
    summary = results.summary()
    (out / "summary.txt").write_text(summary + "\n")
    (out / "counts.json").write_text(json.dumps(results.counts(), indent=1) + "\n")
    return summary


if __name__ == "__main__":
    sys.exit(main())
