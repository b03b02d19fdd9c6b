// Every thread joins clocks released by threads of every CTA (docs/reliability.md, "Clocks joined
// from other CTAs"), without waiting for anything: it publishes its flag with a .gpu release, then
// acquires, in every CTA, the flags of two neighbouring threads, whatever they hold yet (an acquire
// takes what was released there so far; nothing else is read, so nothing races). Each acquire of
// the second neighbour joins two different chunks of that CTA's ids into a new one, so a thread
// ends up with a clock of its own holding a chunk of its own per CTA whose flags it found
// published: up to threads x CTAs chunks, the most the detector's clocks can grow to.
__device__ __forceinline__ void store_release(unsigned *p, unsigned v) {
    asm volatile("st.release.gpu.global.u32 [%0], %1;" :: "l"(p), "r"(v) : "memory");
}

__device__ __forceinline__ unsigned load_acquire(const unsigned *p) {
    unsigned v;
    asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
    return v;
}

extern "C" __global__ void joined_clocks(unsigned *flags, unsigned *sums) {
    unsigned me = blockIdx.x * blockDim.x + threadIdx.x;
    store_release(&flags[me], 1);
    unsigned sum = 0;
    for (unsigned c = 0; c < gridDim.x; ++c) {
        for (unsigned k = 0; k < 2; ++k) {
            sum += load_acquire(&flags[c * blockDim.x + (threadIdx.x + k) % blockDim.x]);
        }
    }
    sums[me] = sum; // how many of the flags it read were published then
}
