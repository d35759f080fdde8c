/* expect: 2:3: error: expected '=', ',', ';', 'asm' or '__attribute__' before '{' */
f {}
int main(void) { return 0; }
