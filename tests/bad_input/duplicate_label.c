/* expect: 6:1: error: redefinition of label 'done' */
int main(void) {
    int i = 0;
done:
    i++;
done:
    return i;
}
