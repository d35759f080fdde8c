"""gnu_extensions: GNU C spellings turned into what pycparser parses."""

import pytest
from pycparser import c_ast, c_generator

from omp2gpu.diagnostics import CompileError
from omp2gpu.frontend.gnu_extensions import attribute_name
from omp2gpu.frontend.parse import parse


def generated(text):
    return c_generator.CGenerator().visit(parse(text, "t.c"))


def error_of(text):
    with pytest.raises(CompileError) as info:
        parse(text, "t.c")
    return info.value


def test_keyword_aliases_become_the_standard_keywords():
    out = generated("static __inline__ int f(int *__restrict__ p, __const int n) "
                    "{ __signed__ char c = 0; __volatile__ int v = 0; return n + c + v; }\n"
                    "static __inline int g(int *__restrict q) { return *q; }\n")
    assert "inline static int f(int * restrict p, const int n)" in out
    assert "signed char c" in out and "volatile int v" in out
    assert "inline static int g(int * restrict q)" in out
    assert "__" not in out


def test_extension_is_dropped():
    ast = parse("__extension__ typedef long long big; int f(void) { return __extension__ 1; }", "t.c")
    assert isinstance(ast.ext[0], c_ast.Typedef) and ast.ext[0].name == "big"


def test_typeof_and_alignof_spellings():
    ast = parse("int x; __typeof__(x) y; typeof(int *) z; __typeof(y) w;\n"
                "unsigned long a = __alignof__(double), b = __alignof(int);", "t.c")
    kinds = [type(d.type.type).__name__ for d in ast.ext[1:4]]
    assert kinds == ["TypeOf", "TypeOf", "TypeOf"]
    assert [d.init.op for d in ast.ext[4:6]] == ["_Alignof", "_Alignof"]


@pytest.mark.parametrize("text", [
    "struct s { int a __attribute__((unused)); } __attribute__((may_alias));",
    "__attribute__((noinline)) static int f(void) { return 0; }",
    "static int f(void) __attribute__((always_inline, const));",
    "int f(int x __attribute__((unused))) { return 0; }",
    "int printf_like(const char *, ...) __attribute__((format(printf, 1, 2)));",
    "int f(void) { int x __attribute__((aligned(16))) = 1; return x; }",
    "__attribute__((aligned(64))) double table[8];",
    "void f(void) { int i = 0; again: __attribute__((unused)); if (i++ < 2) goto again; }",
    "int f(int x) { switch (x) { case 1: x++; __attribute__((fallthrough)); default: break; } return x; }",
])
def test_harmless_attributes_are_dropped(text):
    assert "attribute" not in generated(text)


@pytest.mark.parametrize("text, name, column", [
    ("struct s { char c; int i; } __attribute__((packed));", "packed", 44),
    ("typedef int v4 __attribute__((vector_size(16)));", "vector_size", 31),
    ("void f(void) __attribute__((constructor));", "constructor", 29),
    ("int x __attribute__((cleanup(free)));", "cleanup", 22),
])
def test_attributes_that_change_meaning_are_located_errors(text, name, column):
    error = error_of(text)
    assert error.message == f"the '{name}' attribute is not supported"
    assert (error.location.line, error.location.column) == (1, column)


def test_aligned_on_a_type_or_member_is_refused():
    for text in ("struct s { int a; } __attribute__((aligned(64)));",
                 "struct s { int a __attribute__((aligned(16))); };",
                 "typedef double wide __attribute__((aligned(32)));"):
        assert "'aligned' attribute on a type" in error_of(text).message


def test_asm_labels_rename_the_symbol():
    ast = parse('int f(int) __asm__("g");\nint h(void) { return f(1); }\n'
                'struct p { int f; }; int k(struct p q) { return q.f; }', "t.c")
    assert ast.ext[0].name == "g"
    call = ast.ext[1].body.block_items[0].expr
    assert call.name.name == "g"
    member = ast.ext[3].body.block_items[0].expr
    assert member.field.name == "f"             # a struct member is not the symbol


def test_inline_assembly_is_a_located_error():
    error = error_of('void f(void) {\n  __asm__ volatile ("nop");\n}\n')
    assert error.message == "inline assembly is not supported"
    assert (error.location.line, error.location.column) == (2, 3)


def test_plain_asm_may_name_a_variable():
    assert "int asm = 3;" in generated("int asm = 3;")


def test_attribute_names_with_underscores():
    assert attribute_name("__noinline__") == "noinline" and attribute_name("aligned") == "aligned"


def test_imaginary_constants_are_one_token_with_the_real_suffix_last():
    out = generated("double _Complex a = 2.5i, b = 1.0fi, c = 3.0iF, d = 1e2j, f = 2.0if; double e = 1.0 * i;")
    assert "a = 2.5i" in out and "b = 1.0if" in out and "c = 3.0iF" in out and "d = 1e2i" in out
    assert "f = 2.0if" in out
    assert "1.0 * i" in out                 # not adjacent: the variable i


def test_real_and_imag_are_prefix_operators():
    ast = parse("void f(double _Complex z) { __real__ z = 1.0; __imag__(z) += __real z; }", "t.c")
    first, second = ast.ext[0].body.block_items
    assert (first.lvalue.op, second.lvalue.op, second.rvalue.op) == ("__real__", "__imag__", "__real__")
