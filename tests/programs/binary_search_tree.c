/* Self-referential structs on the heap: binary search tree insert, search, traversal, height, delete, free. */
#include <stdio.h>
#include <stdlib.h>

struct tree { int key; int count; struct tree *left, *right; };

static struct tree *insert(struct tree *t, int key)
{
    if (!t) {
        t = malloc(sizeof *t);
        t->key = key;
        t->count = 1;
        t->left = t->right = NULL;
    } else if (key < t->key) {
        t->left = insert(t->left, key);
    } else if (key > t->key) {
        t->right = insert(t->right, key);
    } else {
        t->count++;
    }
    return t;
}

static const struct tree *find(const struct tree *t, int key)
{
    while (t && t->key != key)
        t = key < t->key ? t->left : t->right;
    return t;
}

static int height(const struct tree *t)
{
    int l, r;
    if (!t)
        return 0;
    l = height(t->left);
    r = height(t->right);
    return 1 + (l > r ? l : r);
}

static void inorder(const struct tree *t, int *out, int *n)
{
    if (!t)
        return;
    inorder(t->left, out, n);
    out[(*n)++] = t->key;
    inorder(t->right, out, n);
}

static struct tree *remove_min(struct tree *t, struct tree **min)
{
    if (!t->left) {
        *min = t;
        return t->right;
    }
    t->left = remove_min(t->left, min);
    return t;
}

static struct tree *delete_key(struct tree *t, int key)
{
    struct tree *m;
    if (!t)
        return NULL;
    if (key < t->key) {
        t->left = delete_key(t->left, key);
    } else if (key > t->key) {
        t->right = delete_key(t->right, key);
    } else {
        struct tree *old = t;
        if (!t->left) {
            t = t->right;
        } else if (!t->right) {
            t = t->left;
        } else {
            t->right = remove_min(t->right, &m);
            m->left = t->left;
            m->right = t->right;
            t = m;
        }
        free(old);
    }
    return t;
}

static void free_tree(struct tree *t)
{
    if (!t)
        return;
    free_tree(t->left);
    free_tree(t->right);
    free(t);
}

int main(void)
{
    struct tree *root = NULL;
    int keys[64], n = 0, i;
    const struct tree *f;

    for (i = 0; i < 40; i++)
        root = insert(root, (i * 17 + 5) % 31);
    inorder(root, keys, &n);
    printf("distinct = %d, height = %d\n", n, height(root));
    printf("inorder:");
    for (i = 0; i < n; i++)
        printf(" %d", keys[i]);
    printf("\n");
    f = find(root, 22);
    printf("find 22: %s count %d\n", f ? "yes" : "no", f ? f->count : 0);
    f = find(root, 99);
    printf("find 99: %s\n", f ? "yes" : "no");
    root = delete_key(root, root->key);
    root = delete_key(root, 0);
    root = delete_key(root, 30);
    root = delete_key(root, 1000);
    n = 0;
    inorder(root, keys, &n);
    printf("after deletes: %d keys, root %d, height %d:", n, root->key, height(root));
    for (i = 0; i < n; i++)
        printf(" %d", keys[i]);
    printf("\n");
    free_tree(root);
    return 0;
}
