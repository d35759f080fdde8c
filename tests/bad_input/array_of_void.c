/* expect: 2:23: error: array has incomplete element type 'void' */
int main(void) { void a[3]; return 0; }
