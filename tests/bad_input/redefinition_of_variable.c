/* expect: 5:12: error: redefinition of 'count' */
/* xfail: a block-scope name declared twice in one scope is accepted (codegen/statements.py _stmt_Decl) */
int main(void) {
    int count = 0;
    double count = 1.0;
    return (int)count;
}
