/* expect: 3:8: error: variably modified 'table' at file scope */
const int rows = 8;
double table[rows];
int main(void) {
    table[0] = 1.0;
    return 0;
}
