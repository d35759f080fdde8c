/* expect: 3:40: error: used type 'struct p' where a scalar is required */
struct p { int x; };
int main(void) { struct p v = {1}; if (v) return 1; return 0; }
