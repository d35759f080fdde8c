/* expect: 3:12: error: duplicate 'static' */
/* was accepted */
static int static counter;

int main(void)
{
    return counter;
}
