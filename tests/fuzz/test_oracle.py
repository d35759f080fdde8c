"""tests/fuzz/oracle.py and reduce.py: outcomes classified, inputs reduced."""

from __future__ import annotations

from . import oracle
from .reduce import reduce


def test_classification():
    assert oracle._classify(0, "", "c").kind == "accepted"
    assert oracle._classify(1, "m.c:3:5: error: expected ';'\n", "c").kind == "rejected"
    assert oracle._classify(1, "omp2gpu: error: something\n", "c").kind == "unlocated"
    assert oracle._classify(2, "omp2gpu: internal compiler error: KeyError: 7\n", "c").kind == "internal-error"
    assert oracle._classify(-6, "LLVM ERROR\n", "c").kind == "signal"
    assert oracle._classify(2, "omp2gpu: internal compiler error: MemoryError\n", "c").kind == "memory"
    echoed = 'm.c:4:9: error: syntax error\n  fail("out of memory");\n  ^\n'
    assert oracle._classify(1, echoed, "c").kind == "rejected"


def test_signature_ignores_numbers_in_the_message():
    one = oracle._classify(2, "omp2gpu: internal compiler error: KeyError: 7\n", "c")
    two = oracle._classify(2, "omp2gpu: internal compiler error: KeyError: 12\n", "c")
    assert one.signature == two.signature == "internal-error: KeyError: N"
    assert oracle._classify(-11, "", "c").signature == "signal: 11"


def test_real_compiles(tmp_path):
    good = tmp_path / "good.c"
    good.write_text("int main(void) { return 0; }\n")
    assert oracle.compile_with_omp2gpu(good).kind == "accepted"
    bad = tmp_path / "bad.c"
    bad.write_text("int main(void) { return 0 }\n")
    assert oracle.compile_with_omp2gpu(bad).kind == "rejected"


def test_reduce_keeps_the_failing_part():
    source = b"int a;\nint b;\nBOOM here;\nint c;\nint d;\n"
    reduced = reduce(source, lambda text: b"BOOM" in text)
    assert reduced.strip() == b"BOOM"


def test_reduce_respects_its_budget():
    calls = []
    reduce(b"x\n" * 100, lambda text: calls.append(text) or False, budget=10)
    assert len(calls) == 10


def test_first_error_line_reads_the_inputs_own_errors():
    stderr = ("In file included from m.c:1:\nx.h:3:1: error: in a header\n"
              "m.c:7:12: error: expected ';'\nm.c:9:1: error: later\n")
    assert oracle.first_error_line(stderr, "m.c") == 7
    assert oracle.first_error_line("m.c: error: no line\n", "m.c") is None


def test_both_compilers_get_the_programs_c_standard(tmp_path):
    """gnu99's names (M_PI) are seen by both compilers, or by neither (c99, the default)."""
    text = "#include <math.h>\nint main(void) { return M_PI > 3 ? 0 : 1; }\n"
    strict, gnu = tmp_path / "strict.c", tmp_path / "gnu.c"
    strict.write_text(text)
    gnu.write_text("// std: gnu99\n" + text)
    assert oracle.c_standard(strict) == "c99" and oracle.c_standard(gnu) == "gnu99"
    assert oracle.compile_with_omp2gpu(strict).kind == "rejected"
    assert oracle.compile_with_omp2gpu(gnu).kind == "accepted"
    verdicts = [oracle.gcc_verdict(path) for path in (strict, gnu)]
    if None not in verdicts:
        assert [verdict.accepted for verdict in verdicts] == [False, True]


def test_what_gcc_does_not_implement_judges_nothing(tmp_path, monkeypatch):
    """gcc's "sorry, unimplemented" alone (gcc 12 and `requires unified_shared_memory`) is no
    verdict; an error beside it still is."""
    source = tmp_path / "mutant.c"
    source.write_text("int main(void) { return 0; }\n")

    def gcc_saying(stderr: str):
        def run(*args, **kwargs):
            return oracle.subprocess.CompletedProcess(args, 1, b"", stderr.encode())
        return run
    monkeypatch.setattr(oracle.shutil, "which", lambda name: "/usr/bin/gcc")
    monkeypatch.setattr(oracle.subprocess, "run", gcc_saying(
        "mutant.c:41:22: sorry, unimplemented: 'unified_shared_memory' clause on 'requires' directive"))
    assert oracle.gcc_verdict(source) is None
    monkeypatch.setattr(oracle.subprocess, "run", gcc_saying(
        "mutant.c:41:22: sorry, unimplemented: x\nmutant.c:50:1: error: expected ';'"))
    assert oracle.gcc_verdict(source) == oracle.GccVerdict(False, "mutant.c:50:1: error: expected ';'")
