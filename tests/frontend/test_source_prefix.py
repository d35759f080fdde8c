"""frontend/source_prefix.py: where a preprocessed text may be cut so that what comes
before is whole C, and where an original file's line is in that text."""

from __future__ import annotations

from omp2gpu.diagnostics import SourceLocation
from omp2gpu.frontend.source_prefix import PreprocessedSource

TEXT = """\
# 1 "prog.c"
struct point { int x; int y; };
int table[2] = { 1, 2 };
int main(void)
{
    int s = 0;
#pragma omp parallel for reduction(+: s)
    for (int i = 0; i < 4; i++) {
        s += i;
    }
    return s +;
}
"""


def _prefixes(source: PreprocessedSource, line: int, column: int = 1) -> list[str]:
    offset = source.offset_of(SourceLocation("prog.c", line, column))
    return [prefix for _, prefix in source.prefixes_before(offset, limit=10)]


def test_cuts_only_where_every_open_brace_is_a_block():
    source = PreprocessedSource(TEXT)
    prefixes = _prefixes(source, 10, 5)
    assert prefixes[0].endswith("        s += i;\n    }\n}\n")     # the loop body, then main
    # the last line before each cut: never inside the struct body, the initialiser or
    # the for header's parentheses; after a pragma line, so that its directive is read
    cut_points = [source.text[:boundary].splitlines()[-1].strip() for boundary, _ in
                  source.prefixes_before(source.offset_of(SourceLocation("prog.c", 10, 5)), limit=10)]
    assert cut_points == ["}", "s += i;", "for (int i = 0; i < 4; i++) {",
                          "#pragma omp parallel for reduction(+: s)", "int s = 0;", "{",
                          "int table[2] = { 1, 2 };", "struct point { int x; int y; };"]


def test_blocks_open_at_the_cut_are_closed():
    prefix = _prefixes(PreprocessedSource(TEXT), 8, 9)[0]
    assert prefix.endswith("for (int i = 0; i < 4; i++) {\n}\n}\n")


def test_offset_follows_line_markers():
    text = '# 1 "prog.c"\nint a;\n# 1 "inc.h" 1\nint b;\n# 3 "prog.c" 2\nint c;\n'
    source = PreprocessedSource(text)
    assert text[source.offset_of(SourceLocation("prog.c", 3, 5)):].startswith("c;")
    assert text[source.offset_of(SourceLocation("inc.h", 1, 1)):].startswith("int b;")
    assert source.offset_of(SourceLocation("other.c", 1, 1)) is None
    assert source.offset_of(None) is None


def test_nothing_before_the_first_boundary():
    source = PreprocessedSource('# 1 "prog.c"\nint a\n')
    assert _prefixes(source, 1, 5) == []


def test_no_cut_inside_a_statement_whose_shape_is_checked():
    text = """\
# 1 "prog.c"
int main(void)
{
    int v, x = 0, i, j, s = 0;
#pragma omp atomic capture
    { v = x; x += 1; }
#pragma omp parallel for collapse(2)
    for (i = 0; i < 2; i++) {
        for (j = 0; j < 2; j++)
            s += i * j;
    }
    return s +;
}
"""
    source = PreprocessedSource(text)
    cut_points = [text[:boundary].splitlines()[-1].strip() for boundary, _ in
                  source.prefixes_before(source.offset_of(SourceLocation("prog.c", 11, 5)), limit=10)]
    assert cut_points == ["}", "#pragma omp parallel for collapse(2)", "{ v = x; x += 1; }",
                          "#pragma omp atomic capture", "int v, x = 0, i, j, s = 0;", "{"]


def test_an_open_declare_target_region_is_closed():
    text = '# 1 "prog.c"\n#pragma omp declare target\nint f(void) { return 1; }\nint g(void) { return f( }\n'
    source = PreprocessedSource(text)
    prefix = _prefixes(source, 4, 24)[0]
    assert prefix.endswith("int g(void) {\n}\n#pragma omp end declare target\n")


def test_a_directive_cut_from_its_statement_gets_a_stand_in():
    text = '# 1 "prog.c"\nint main(void)\n{\n#pragma omp parallel for private(i)\n    for (i = 0; i < ; i++) ;\n}\n'
    source = PreprocessedSource(text)
    prefix = _prefixes(source, 4, 21)[0]
    assert prefix.startswith(text[:text.index("private(i)") + len("private(i)")] + "\nfor (int omp2gpu_cut0")
    assert prefix.endswith(";\n}\n")
