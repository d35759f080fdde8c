/* expect: 2:47: error: invalid operands to binary '%' ('double' and 'double') */
int main(void) { double a = 3.0; return (int)(a % 2.0); }
