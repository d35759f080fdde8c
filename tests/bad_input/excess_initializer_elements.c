/* expect: 2:36: error: excess elements in initializer */
int main(void) { int a[2] = {1, 2, 3}; return a[0]; }
