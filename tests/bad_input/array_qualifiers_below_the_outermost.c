/* expect: 3:34: error: static or type qualifiers in non-parameter array declarator */
/* tests/fuzz seed 3412904: `static` inside a parameter's inner array declarator */
static double first(const double a[3][static 4])
{
    return a[0][0];
}
int main(void)
{
    double m[3][4] = {{1}};
    return (int)first(m) - 1;
}
