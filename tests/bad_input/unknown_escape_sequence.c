/* expect: 2:27: error: unknown escape sequence '\q' */
int main(void) { char c = '\q'; return c; }
