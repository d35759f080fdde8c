/* expect: 3:30: error: parameter 1 ('p') has incomplete type 'struct pair' */
struct pair;
static int first(struct pair p) { return 0; }
int main(void) { return 0; }
