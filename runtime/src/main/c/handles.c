/*
 * The live handles (docs/runtime.md, "Graphs and stream capture", handles): every stream, event,
 * graph, graph node, executable graph and memory pool the program holds. A handle is checked by
 * looking its address up here before anything behind it is read, so a destroyed handle (a
 * second destroy) is refused without touching freed memory. Each object still starts with its
 * kind's magic number, read only once the address is known to be live, to refuse a handle of
 * another kind. A set of addresses: open addressing, linear probing, deletion by backward
 * shift; one lock.
 */
#include <pthread.h>
#include <stdlib.h>

#include "cudart.h"

static pthread_mutex_t handle_lock = PTHREAD_MUTEX_INITIALIZER;
static uintptr_t *slots; /* 0: empty */
static size_t cap, count;  /* cap: a power of two, at least twice count */

static size_t home(uintptr_t p) {
    uint64_t h = (uint64_t) p * 0x9E3779B97F4A7C15ull;
    return (size_t) (h ^ (h >> 32)) & (cap - 1);
}

/* The slot holding p, or the empty slot where it would go. */
static size_t find(uintptr_t p) {
    size_t i = home(p);
    while (slots[i] != 0 && slots[i] != p) i = (i + 1) & (cap - 1);
    return i;
}

void bs_handle_add(const void *h) {
    uintptr_t p = (uintptr_t) h;
    pthread_mutex_lock(&handle_lock);
    if ((count + 1) * 2 > cap) {
        uintptr_t *old = slots;
        size_t old_cap = cap;
        cap = cap ? cap * 2 : 64;
        slots = calloc(cap, sizeof *slots);
        if (slots == NULL) bs_fatal("out of host memory");
        for (size_t i = 0; i < old_cap; i++) if (old[i] != 0) slots[find(old[i])] = old[i];
        free(old);
    }
    size_t i = find(p);
    if (slots[i] == 0) count++;
    slots[i] = p;
    pthread_mutex_unlock(&handle_lock);
}

int bs_handle_live(const void *h) {
    pthread_mutex_lock(&handle_lock);
    int live = cap != 0 && h != NULL && slots[find((uintptr_t) h)] != 0;
    pthread_mutex_unlock(&handle_lock);
    return live;
}

void bs_handle_remove(const void *h) {
    pthread_mutex_lock(&handle_lock);
    size_t i = cap != 0 && h != NULL ? find((uintptr_t) h) : 0;
    if (cap != 0 && h != NULL && slots[i] != 0) {
        slots[i] = 0;
        count--;
        /* Move back every later entry of the run whose home is not between the hole and it. */
        for (size_t j = (i + 1) & (cap - 1); slots[j] != 0; j = (j + 1) & (cap - 1)) {
            size_t k = home(slots[j]);
            int stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
            if (!stays) {
                slots[i] = slots[j];
                slots[j] = 0;
                i = j;
            }
        }
    }
    pthread_mutex_unlock(&handle_lock);
}
