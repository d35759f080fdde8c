/* expect: 3:42: error: cannot cast from 'int' to 'struct p' */
struct p { int x; };
int main(void) { int a = 1; struct p v = (struct p)a; return v.x; }
