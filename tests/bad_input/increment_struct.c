/* expect: 3:37: error: cannot increment value of this type */
struct p { int x; };
int main(void) { struct p v = {1}; v++; return 0; }
