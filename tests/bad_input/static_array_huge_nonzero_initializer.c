/* expect: 3:30: error: a static array of more than 16777216 elements with non-zero initial values is not supported */
/* llvmlite would spell out every element of the constant (gcc accepts it). */
static int table[1 << 25] = {1, 2, 3};
int main(void) { return table[1]; }
