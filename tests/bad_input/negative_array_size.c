/* expect: 3:11: error: array has negative size */
int main(void) {
    int a[-3];
    return 0;
}
