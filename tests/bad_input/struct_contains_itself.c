/* expect: 2:21: error: field 'inner' has incomplete type 'struct a' */
struct a { struct a inner; };
int main(void) { return 0; }
