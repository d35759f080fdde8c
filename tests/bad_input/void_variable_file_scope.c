/* expect: 2:6: error: variable 'g' has incomplete type 'void' */
void g = 0;
int main(void) { return 0; }
