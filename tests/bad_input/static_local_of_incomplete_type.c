/* expect: 5:25: error: variable 'saved' has incomplete type 'struct state' */
/* gcc: storage size of 'saved' isn't known (C99 6.7p7); was an LLVM IR parse failure */
int main(void)
{
    static struct state saved;
    return 0;
}
