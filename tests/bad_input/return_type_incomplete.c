/* expect: 3:20: error: return type is an incomplete type */
struct pair;
static struct pair make_pair(void) { }
int main(void) { return 0; }
