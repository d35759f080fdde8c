/* expect: 6:9: error: function definition is not allowed here */
/* a GNU C extension gcc accepts (nested functions); C and Clang have none */
int main(void)
{
    int x = 1;
    int twice(int v) { return 2 * v; }
    return twice(x);
}
