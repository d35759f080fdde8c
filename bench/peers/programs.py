"""The programs bench/peers builds with each compiler: every single-file corpus program with
a target construct (tests/programs/*.c) and examples/vadd.c, each with the settings its own
lines give (as tests/test_programs.py reads them): `// std: MODE`, `// flags: ...`,
`// env: NAME=VALUE`."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
STD_LINE = re.compile(r"^//\s*std:\s*(\w+)\s*$", re.MULTILINE)
FLAGS_LINE = re.compile(r"^//\s*flags:(.*)$", re.MULTILINE)
ENV_LINE = re.compile(r"^//\s*env:\s*([A-Za-z_]\w*)=(\S*)\s*$", re.MULTILINE)
TARGET = re.compile(r"^\s*#\s*pragma\s+omp\s+target\b", re.MULTILINE)
TIMING_PREFIX = "timing:"        # output lines the corpus leaves out of comparisons


@dataclass
class Program:
    name: str
    source: Path
    std: str = "c99"
    flags: list[str] = field(default_factory=list)
    env: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict:
        return {"name": self.name, "source": str(self.source.relative_to(REPO)), "std": self.std,
                "flags": self.flags, "env": self.env}

    @classmethod
    def from_json(cls, data: dict) -> Program:
        return cls(data["name"], REPO / data["source"], data["std"], data["flags"], data["env"])


def program(source: Path, name: str | None = None) -> Program:
    text = source.read_text(errors="replace")
    std = STD_LINE.search(text)
    flags = [flag for line in FLAGS_LINE.findall(text) for flag in line.split()]
    return Program(name or source.stem, source, std.group(1) if std else "c99", flags, dict(ENV_LINE.findall(text)))


def all_programs(only: str | None = None) -> list[Program]:
    sources = [path for path in sorted((REPO / "tests" / "programs").glob("*.c"))
               if TARGET.search(path.read_text(errors="replace"))]
    found = [program(path) for path in sources] + [program(REPO / "examples" / "vadd.c", "examples_vadd")]
    wanted = only.split(",") if only else None         # SUBSTRING[,SUBSTRING...], as run.py's
    return [p for p in found if wanted is None or any(w in p.name for w in wanted)]


def comparable(stdout: str) -> str:
    return "".join(line for line in stdout.splitlines(keepends=True) if not line.startswith(TIMING_PREFIX))
