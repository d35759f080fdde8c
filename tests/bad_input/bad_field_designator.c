/* expect: 3:33: error: field designator 'y' does not refer to any field */
struct p { int x; };
int main(void) { struct p v = {.y = 1}; return v.x; }
