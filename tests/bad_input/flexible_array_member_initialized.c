/* expect: 4:31: error: initialization of a flexible array member is not supported */
/* gcc takes it at file scope (a GNU extension, listed in docs/diagnostics.md); in a block: "non-static initialization of a flexible array member" */
struct samples { int count; double value[]; };
struct samples first = { 2, { 1.5, 2.5 } };
int main(void) { return first.count; }
