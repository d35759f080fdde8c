/* expect: 7:9: error: use of undeclared label 'agian' */
int main(void) {
    int i = 0;
again:
    i++;
    if (i < 10)
        goto agian;
    return i;
}
