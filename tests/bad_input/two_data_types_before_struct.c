/* expect: 3:12: error: two or more data types in declaration specifiers */
/* gcc: the same, at 'struct'; the mutant of bitfields_layout_and_ops.c (seed 20261186791339) */
int struct particle {
    double x, v;
};
int main(void) { return 0; }
