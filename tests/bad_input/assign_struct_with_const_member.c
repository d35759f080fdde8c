/* expect: 5:7: error: cannot assign to an object of type 'struct account' with a const-qualified member */
struct account { const int id; double balance; };
int main(void) {
    struct account a = { 1, 0.0 }, b = { 2, 5.0 };
    a = b;
    return a.id;
}
