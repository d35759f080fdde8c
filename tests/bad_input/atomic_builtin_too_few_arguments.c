/* expect: 5:17: error: too few arguments to function '__atomic_load_n' */
int main(void)
{
    long head = 0;
    long seen = __atomic_load_n(&head);
    return (int)seen;
}
