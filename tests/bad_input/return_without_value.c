/* expect: 2:15: error: non-void function should return a value */
int f(void) { return; }
int main(void) { return f(); }
