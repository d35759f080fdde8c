/* expect: 2:5: error: function cannot return an array or a function */
int f(void)[3];
int main(void) { return 0; }
