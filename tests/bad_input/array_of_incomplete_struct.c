/* expect: 3:10: error: array type has incomplete element type 'struct s' */
/* gcc: array type has incomplete element type (C99 6.7.5.2p1) */
struct s h[] = {0};
int main(void) { return 0; }
