/* expect: 2:43: error: assigning to 'int *' from incompatible type 'double' */
int main(void) { double d = 1.0; int *p = d; return *p; }
