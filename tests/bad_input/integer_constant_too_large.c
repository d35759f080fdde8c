/* expect: 2:25: error: is too large */
int main(void) { return 123456789012345678901234567890; }
