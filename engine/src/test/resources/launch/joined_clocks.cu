// Every thread joins clocks released by threads of every CTA (docs/reliability.md, "Clocks joined
// from other CTAs"): it publishes its word with a .gpu release, then acquires, in every CTA, the
// flags of two neighbouring threads. Each acquire of the second neighbour joins two different
// chunks of that CTA's ids into a new one, so every thread ends up holding a clock of its own with
// a chunk of its own per CTA: threads x CTAs chunks, the most the detector's clocks can grow to.
__device__ __forceinline__ void store_release(unsigned *p, unsigned v) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ unsigned load_acquire(const unsigned *p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

extern "C" __global__ void joined_clocks(unsigned *flags, unsigned *data, unsigned *sums) {
    unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
    data[me] = me + 1;
    store_release(&flags[me], 1);
    unsigned sum = 0;
    for (unsigned c = 0; c < gridDim.x; ++c) {
        for (unsigned k = 0; k < 2; ++k) {
            unsigned other = c * blockDim.x + (threadIdx.x + k) % blockDim.x;
            while (load_acquire(&flags[other]) == 0) {
            }
            sum += data[other]; // ordered after the writer's release: no race
        }
    }
    sums[me] = sum;
}
