/* expect: 9:13: error: use of undeclared identifier 'missing' */
/* the goto's label is defined after the error: no error about the label */
int main(void)
{
    int x = 0;
    if (x)
        goto done;
    x = 1;
    x = x + missing;
done:
    return x;
}
