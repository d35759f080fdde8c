"""sema/team_loop_jumps.py: `break` and `continue` of a target region's team loops become
flags, so the SPMDized control loop can follow the loop; the rewritten loop means what the
written one meant (both compiled as plain C by gcc, each parallel region its body)."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from pycparser import c_ast, c_generator, c_parser

from omp2gpu.codegen.openmp.plan.spmdization import spmdization_obstacle
from omp2gpu.frontend.openmp.omp_nodes import OmpConstruct
from omp2gpu.frontend.openmp.pragmas import attach_pragmas
from omp2gpu.frontend.parse import parse
from omp2gpu.sema.team_loop_jumps import structure_team_loop_jumps

PROGRAM = """
int printf(const char *, ...);
int main(void) {
  int trace[1024], n = 0, k = 0, j = 0;
  #pragma omp target teams map(tofrom: trace, n)
  {
    LOOP
  }
  for (int i = 0; i < n && i < 1024; i++) printf("%d ", trace[i]);
  printf("| %d %d %d\\n", n, k, j);
  return 0;
}
"""
MARK = "#pragma omp parallel\n{ trace[n++] = 100 + k; }\n"

LOOPS = {
    "while(1) break": "while (1) {\nk++;\n" + MARK + "if (k > 4) break;\ntrace[n++] = k;\n}",
    "for continue, step after": "for (k = 0, j = 10; k < 8; k++, j--) {\nif (k % 3 == 1) continue;\n" + MARK
                                + "trace[n++] = j;\n}",
    "do-while continue and break": "do {\nk++;\nif (k % 2) { trace[n++] = -k; continue; }\n" + MARK
                                   + "if (k > 6) break;\n} while (k < 20);",
    "break in an if holding a region": "for (k = 0; k < 9; k++) {\nif (k == 5) {\n" + MARK + "break;\n}\n"
                                       + MARK + "}",
    "region after the jump, nested blocks": "while (k < 10) {\nk++;\n{\nif (k == 2) continue;\n{\n"
                                            + "if (k == 7) break;\n}\n" + MARK + "}\ntrace[n++] = -k;\n}",
    "inner loop's break": "for (j = 0; j < 3; j++) {\nfor (k = 0; k < 5; k++) {\n" + MARK
                          + "if (k == j) break;\n}\ntrace[n++] = k;\n}",
    "switch's own break": "for (k = 0; k < 5; k++) {\nswitch (k) { case 1: break; default: trace[n++] = 7; }\n"
                          + MARK + "if (k == 3) break;\n}",
}


def _parsed(loop: str):
    return attach_pragmas(c_parser.CParser().parse(PROGRAM.replace("LOOP", loop)))


def _target(ast) -> OmpConstruct:
    return next(n for n in _walk(ast) if isinstance(n, OmpConstruct) and n.directive.has("target"))


def _walk(node):
    yield node
    for _, child in node.children():
        yield from _walk(child)


def _as_plain_c(ast) -> str:
    """The program with each OpenMP construct its body (one thread runs it all): the tree
    is changed so."""
    def strip(node):
        for name in node.__slots__:
            value = getattr(node, name, None)
            if isinstance(value, list):
                setattr(node, name, [strip(v.body) if isinstance(v, OmpConstruct) else strip(v)
                                     if isinstance(v, c_ast.Node) else v for v in value])
            elif isinstance(value, c_ast.Node) and name != "coord":
                setattr(node, name, strip(value.body if isinstance(value, OmpConstruct) else value))
        return node
    return c_generator.CGenerator().visit(strip(ast))


def _prints(tmp_path, source: str, name: str) -> str:
    path = tmp_path / f"{name}.c"
    path.write_text(source)
    subprocess.run(["gcc", "-w", str(path), "-o", str(tmp_path / name)], check=True, capture_output=True)
    return subprocess.run([str(tmp_path / name)], check=True, capture_output=True, text=True).stdout


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("loop", LOOPS.values(), ids=LOOPS.keys())
def test_the_rewritten_loop_does_what_the_written_one_did(tmp_path, loop):
    written = _prints(tmp_path, _as_plain_c(_parsed(loop)), "written")
    ast = _parsed(loop)
    structure_team_loop_jumps(ast)
    assert _prints(tmp_path, _as_plain_c(ast), "rewritten") == written


@pytest.mark.parametrize("loop", LOOPS.values(), ids=LOOPS.keys())
def test_team_loops_that_jumped_are_spmdized(loop):
    ast = _parsed(loop)
    assert spmdization_obstacle(_target(ast)) is not None or loop == LOOPS["switch's own break"]
    structure_team_loop_jumps(ast)
    assert spmdization_obstacle(_target(ast)) is None


@pytest.mark.parametrize("loop, reason", [
    # the rest of a case would have to be skipped inside the switch
    ("for (k = 0; k < 5; k++) {\nswitch (k) { case 1: continue; default: break; }\n" + MARK + "}", "'continue' at"),
    # a jump could enter a block the rewrite wraps
    ("while (k < 5) {\nk++;\nif (k == 2) goto skip;\n" + MARK + "skip:\nif (k == 4) break;\n}", "'break' at"),
])
def test_what_is_left_as_written_keeps_the_control_loop(loop, reason):
    ast = _parsed(loop)
    before = c_generator.CGenerator().visit(_target(ast).body)
    structure_team_loop_jumps(ast)
    assert c_generator.CGenerator().visit(_target(ast).body) == before
    assert reason in spmdization_obstacle(_target(ast))


def test_a_jump_in_a_statement_expression_is_left_as_written():
    """GNU C: `({ if (k > 4) break; k++; })` leaves the loop from inside an expression,
    which no flag can skip the rest of: the loop keeps the control loop (it was an internal
    compiler error: the rewrite met the jump under a declaration)."""
    loop = "while (1) {\nint x = ({ if (k > 4) break; k++; });\n" + MARK + "trace[n++] = x;\n}"
    ast = attach_pragmas(parse(PROGRAM.replace("LOOP", loop), "prog.c"))
    before = c_generator.CGenerator().visit(_target(ast).body)
    structure_team_loop_jumps(ast)
    assert c_generator.CGenerator().visit(_target(ast).body) == before
    assert "'break' at" in spmdization_obstacle(_target(ast))


def test_loops_without_parallel_regions_and_host_loops_are_untouched():
    source = ("while (1) {\nk++;\nif (k > 3) break;\n}\n" + MARK)
    ast = attach_pragmas(c_parser.CParser().parse(PROGRAM.replace("LOOP", source).replace(
        "for (int i = 0; i < n && i < 1024; i++) printf", "while (1) {\n#pragma omp parallel\n{ n--; }\n"
        "if (n < 0) break;\n}\nfor (int i = 0; i < n && i < 1024; i++) printf")))
    before = c_generator.CGenerator().visit(ast)
    structure_team_loop_jumps(ast)
    assert c_generator.CGenerator().visit(ast) == before


class _RandomLoop:
    """A team loop of random statements (a seed's): traces, ifs, blocks, parallel
    regions, jumps, and inner loops with jumps of their own. Every loop ends: the outer
    one counts k to 6 (stepping it first in while and do, in the step of for), inner ones
    count q to 3."""

    def __init__(self, seed: int):
        import random
        self.rng = random.Random(seed)
        self.sites = 0
        self.inner = 0

    def loop(self) -> str:
        body = self.block(0)
        kind = self.rng.choice(["while", "for", "do"])
        if kind == "while":
            return "while (k < 6) {\nk++;\n" + body + "}"
        if kind == "for":
            return "for (k = 0; k < 6; k++) {\n" + body + "}"
        return "do {\nk++;\n" + body + "} while (k < 6);"

    def block(self, depth: int) -> str:
        return "".join(self.statement(depth) for _ in range(self.rng.randint(1, 4)))

    def statement(self, depth: int) -> str:
        self.sites += 1
        kinds = ["trace", "trace", "region", "break", "continue"] + (["if", "block", "inner"] if depth < 2 else [])
        kind = self.rng.choice(kinds)
        if kind == "trace":
            return f"trace[n++ & 1023] = {self.sites} * 100 + k + j;\n"
        if kind == "region":
            return f"#pragma omp parallel\n{{ trace[n++ & 1023] = -{self.sites}; }}\n"
        if kind in ("break", "continue"):
            return f"if ((k + n + {self.sites}) % 3 == 0) {kind};\n"
        if kind == "if":
            other = f" else {{\n{self.block(depth + 1)}}}" if self.rng.random() < 0.5 else ""
            return f"if ((n + {self.sites}) % 2) {{\n{self.block(depth + 1)}}}{other}\n"
        if kind == "block":
            return "{\n" + self.block(depth + 1) + "}\n"
        self.inner += 1
        q = f"q{self.inner}"
        return f"for (int {q} = 0; {q} < 3; {q}++) {{\nj += {q};\n{self.block(depth + 1)}}}\n"


@pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")
@pytest.mark.parametrize("seed", range(40))
def test_random_team_loops_mean_what_they_meant(tmp_path, seed):
    loop = _RandomLoop(seed).loop()
    written = _prints(tmp_path, _as_plain_c(_parsed(loop)), "written")
    ast = _parsed(loop)
    structure_team_loop_jumps(ast)
    assert spmdization_obstacle(_target(ast)) is None, loop
    assert _prints(tmp_path, _as_plain_c(ast), "rewritten") == written, loop     # (the tree made plain)
