/* The images a program was linked with (each registers itself before main:
 * __omp2gpu_register_image), and getting them onto a device: each image loads once per
 * device, in registration order, before that device's first map clause; declare target
 * globals are bound then to the storage of the first loaded module that defines them;
 * kernels are found by name across images (as omp2gpu/offload/images.py). */
#include <stdlib.h>
#include <string.h>
#include "offload.h"

#define DEVICE_NUMBER_GLOBAL "__omp2gpu_device_num"
#define INITIAL_DEVICE_GLOBAL "__omp2gpu_initial_device"

struct registered_global { uintptr_t host; char *name; long size; int link; };

static const struct image_desc **images;
static int image_count, image_capacity;
static struct registered_global *globals;
static int global_count, global_capacity;

/* kernel name -> (image, index): open addressing, rebuilt as images come */
struct kernel_slot { const char *name; int image; int index; };
static struct kernel_slot *slots;
static unsigned long slot_count;          /* a power of two */
static unsigned long kernels_held;

static unsigned long name_hash(const char *name) {
    unsigned long hash = 1469598103934665603UL;
    while (*name) hash = (hash ^ (unsigned char)*name++) * 1099511628211UL;
    return hash;
}

static void place(const char *name, int image, int index) {
    unsigned long at = name_hash(name) & (slot_count - 1);
    while (slots[at].name && strcmp(slots[at].name, name) != 0) at = (at + 1) & (slot_count - 1);
    if (!slots[at].name) kernels_held++;
    slots[at].name = name;
    slots[at].image = image;
    slots[at].index = index;
}

static void index_kernels(const struct image_desc *image, int number) {
    long i;
    if ((kernels_held + (unsigned long)image->kernel_count) * 2 >= slot_count) {
        struct kernel_slot *old = slots;
        unsigned long old_count = slot_count, j;
        slot_count = slot_count ? slot_count : 64;
        while ((kernels_held + (unsigned long)image->kernel_count) * 2 >= slot_count) slot_count *= 2;
        slots = calloc(slot_count, sizeof *slots);
        kernels_held = 0;
        for (j = 0; j < old_count; j++)
            if (old[j].name) place(old[j].name, old[j].image, old[j].index);
        free(old);
    }
    for (i = 0; i < image->kernel_count; i++) place(image->kernels[i].name, number, (int)i);
}

void __omp2gpu_register_image(const struct image_desc *image) {
    offload_lock();
    if (image->version != IMAGE_VERSION) {
        offload_fatal("this program's device image has format %ld, the runtime reads %d: "
                      "link it again with this omp2gpu", image->version, IMAGE_VERSION);
        offload_unlock();
        return;
    }
    if (image_count == image_capacity) {
        image_capacity = image_capacity ? 2 * image_capacity : 4;
        images = realloc(images, (size_t)image_capacity * sizeof *images);
    }
    images[image_count] = image;
    index_kernels(image, image_count);
    image_count++;
    offload_debug(1, "image %d registered: %ld kernels", image_count - 1, (long)image->kernel_count);
    offload_unlock();
}

const struct kernel_desc *images_kernel(const char *name, int *image_index) {
    unsigned long at;
    if (!slot_count) return 0;
    at = name_hash(name) & (slot_count - 1);
    while (slots[at].name) {
        if (strcmp(slots[at].name, name) == 0) {
            *image_index = slots[at].image;
            return &images[slots[at].image]->kernels[slots[at].index];
        }
        at = (at + 1) & (slot_count - 1);
    }
    return 0;
}

void images_add_global(uintptr_t host, const char *name, long size, int link) {
    int i;
    for (i = 0; i < global_count; i++)
        if (strcmp(globals[i].name, name) == 0) break;
    if (i == global_count) {
        if (global_count == global_capacity) {
            global_capacity = global_capacity ? 2 * global_capacity : 16;
            globals = realloc(globals, (size_t)global_capacity * sizeof *globals);
        }
        globals[i].name = strdup(name);
        global_count++;
    }
    globals[i].host = host;
    globals[i].size = size;
    globals[i].link = link;
}

/* omp_get_device_num inside the module's code answers this device's number */
static int tell_device_number(struct device *d, void *module) {
    uintptr_t address;
    long size;
    int number = d->number;
    if (module && d->ops->global(d, module, INITIAL_DEVICE_GLOBAL, &address, &size) == 0) {
        int host = device_count();                  /* omp_get_initial_device (5.1): the host's number */
        if (d->ops->to_device(d, address, &host, size < (long)sizeof host ? size : (long)sizeof host)) return -1;
    }
    if (!module || d->ops->global(d, module, DEVICE_NUMBER_GLOBAL, &address, &size)) return 0;
    return d->ops->to_device(d, address, &number, size < (long)sizeof number ? size : (long)sizeof number);
}

/* Each registered global the device's modules hold, bound to its storage there. A global
 * no module holds (declare target data the device code never uses: LLVM drops it) is not
 * looked up again until a global or an image is added: a lookup is a driver call, and this
 * runs at every launch (images_activate). */
int images_bind_globals(struct device *d) {
    int g, m;
    if (d->globals_looked_up == global_count && d->modules_looked_in == d->module_count) return 0;
    if (d->bound_count < global_count) {
        d->bound_globals = realloc(d->bound_globals, (size_t)global_count);
        memset(d->bound_globals + d->bound_count, 0, (size_t)(global_count - d->bound_count));
        d->bound_count = global_count;
    }
    for (g = 0; g < global_count; g++) {
        if (d->bound_globals[g]) continue;
        for (m = 0; m < d->module_count; m++) {
            uintptr_t address;
            long size;
            int result;
            if (!d->modules[m] || d->ops->global(d, d->modules[m], globals[g].name, &address, &size)) continue;
            if (size > globals[g].size) size = globals[g].size;
            result = globals[g].link ? table_add_link_global(d, globals[g].host, size, address)
                                     : table_add_global(d, globals[g].host, size, address);
            if (result) return result;
            d->bound_globals[g] = 1;
            break;
        }
    }
    d->globals_looked_up = global_count;
    d->modules_looked_in = d->module_count;
    return 0;
}

/* Load the images not yet on the device, then bind globals: before any map clause, so
 * that mapping a global finds the module's storage. */
int images_activate(struct device *d) {
    while (d->module_count < image_count) {
        void *module = 0;
        d->modules = realloc(d->modules, (size_t)(d->module_count + 1) * sizeof *d->modules);
        if (d->ops->load(d, images[d->module_count], &module)) return -1;
        offload_debug(1, "image %d loaded on device %d", d->module_count, d->number);
        d->modules[d->module_count++] = module;
        if (tell_device_number(d, module)) return -1;
    }
    return images_bind_globals(d);
}
