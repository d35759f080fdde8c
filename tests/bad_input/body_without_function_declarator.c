/* expect: 3:3: error: 'f' is not declared as a function */
/* gcc: expected '=', ',', ';' before '{' */
f {}
int main(void) { return 0; }
