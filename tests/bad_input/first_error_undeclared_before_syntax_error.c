/* expect: 6:9: error: use of undeclared identifier 'q' */
/* gcc reads once, in order: an undeclared name before a syntax error comes first */
int main(void)
{
    int s = 0;
    s = q + 1;
    s = s + ;
    return s;
}
