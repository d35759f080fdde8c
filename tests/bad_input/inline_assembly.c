/* expect: 4:5: error: inline assembly is not supported */
static unsigned long long cycles(void) {
    unsigned int lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return ((unsigned long long)hi << 32) | lo;
}
int main(void) { return cycles() == 0; }
