/* expect: 3:16: error: conflicting types for 'real' */
typedef float real;
typedef double real;
int main(void) { return 0; }
