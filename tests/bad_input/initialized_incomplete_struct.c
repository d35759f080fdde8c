/* expect: 4:24: error: variable 'seed' has initializer but incomplete type 'struct particle' */
/* gcc: variable 'seed' has initializer but incomplete type (C99 6.7p7); a fuzz finding
   (bitfields_layout_and_ops.c, seed 20261186791339) that was an internal error */
static struct particle seed = { .v = 1.5, .cell = 1023 };
int main(void) { return 0; }
