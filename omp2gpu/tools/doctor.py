"""`omp2gpu doctor` (and `--print-devices`): which devices a program would get here."""

from __future__ import annotations


def main(argv: list[str]) -> int:
    raise NotImplementedError
