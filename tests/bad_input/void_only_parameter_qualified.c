/* expect: 3:20: error: 'void' as only parameter may not be qualified */
/* tests/fuzz seed 3412904: `(void)` with a qualifier, which gcc refuses */
static int counter(const void)
{
    static int n;
    return ++n;
}
int main(void) { return counter() - 1; }
