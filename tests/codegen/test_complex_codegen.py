"""codegen of complex values: the IR the operators, conversions and calls become
(complex_operators.py, complex_arithmetic.py, complex_values.py), and programs'
results on the host where gcc's are known."""

from __future__ import annotations

import re

from host_programs import host_ir, run


def _function(ir_text: str, name: str) -> str:
    match = re.search(rf"define [^\n]*@\"?{re.escape(name)}\"?\(.*?\n}}", ir_text, re.S)
    assert match, name
    return match.group(0)


def test_complex_by_complex_products_call_the_modules_own_annex_g_functions(tmp_path):
    text = host_ir(tmp_path, """
        double _Complex mul(double _Complex a, double _Complex b) { return a * b; }
        double _Complex div(double _Complex a, double _Complex b) { return a / b; }
        float _Complex divf(float _Complex a, float _Complex b) { return a / b; }
        double _Complex scale(double x, double _Complex b) { return x * b; }
        double _Complex shrink(double _Complex a, double x) { return a / x; }
        """)
    assert "omp2gpu.complex.mul.f64" in _function(text, "mul")
    assert "omp2gpu.complex.div.f64" in _function(text, "div")
    # a real operand stays real (Annex G.5): two multiplications, two divisions, no call
    assert "call" not in _function(text, "scale") and _function(text, "scale").count("fmul") == 2
    assert "call" not in _function(text, "shrink") and _function(text, "shrink").count("fdiv") == 2
    division = _function(text, "omp2gpu.complex.div.f32")
    assert "internal" in division.splitlines()[0]
    assert "fpext float" in division and "fdiv double" in division      # float's in double


def test_float_complex_is_packed_at_calls_and_double_complex_is_a_pair(tmp_path):
    text = host_ir(tmp_path, """
        #include <complex.h>
        float complex twice(float complex z) { return z + z; }
        double complex e(double complex z) { return cexp(z); }
        """)
    assert re.search(r"define[^\n]*<2 x float> @\"?twice\"?\(<2 x float>", text)
    assert re.search(r"declare[^\n]*\{double, double\} @\"?cexp\"?\(\{double, double\}", text)


def test_creal_cimag_conj_are_expanded_in_place(tmp_path):
    text = host_ir(tmp_path, """
        #include <complex.h>
        double f(double complex z) { return creal(conj(z)) + cimag(z); }
        """)
    body = _function(text, "f")
    assert "call" not in body and "fneg" in body


def test_operators_conversions_and_parts_on_the_host(tmp_path):
    output = run(tmp_path, r"""
        #include <complex.h>
        #include <stdio.h>
        int main(void) {
            double complex z = 3.0 + 4.0 * I;
            float complex f = z;                 /* complex to complex */
            int n = z;                           /* complex to real: the real part */
            _Bool b = 0.0 + 1.0 * I;             /* either part nonzero */
            __imag__ z = -__imag__ z;            /* a part as an lvalue */
            z *= 2;                              /* compound assignment with a real */
            printf("%g %g %g %d %d %d %d\n", creal(z), cimag(z), cimagf(f), n, b, z == 6.0 - 8.0 * I,
                   z != z);
            return 0;
        }
        """, 1)
    assert output == "6 -8 4 3 1 1 0\n"
