/* expect: 4:12: error: multiple storage classes in declaration specifiers */
int main(void)
{
    static extern int shared;
    return 0;
}
