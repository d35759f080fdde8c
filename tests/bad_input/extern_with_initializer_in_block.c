/* expect: 4:17: error: 'visits' has both 'extern' and initializer */
/* gcc: the same (C99 6.7.8p5); a fuzz finding that was accepted */
int main(void) {
    extern long visits = 0;
    return (int)visits;
}
