// Corpus: atomics on shared and global memory with 8-bit input.
// A 256-bin histogram of bytes, privatised per block in shared memory (atomicAdd on
// shared), then merged into global (atomicAdd), plus global atomicMin/Max/Exch/CAS/Inc
// bookkeeping as real code does it.
#define BINS 256

extern "C" __global__ void byte_histogram(const unsigned char *data, int n,
                                          unsigned *hist, int *minmax, int *last_block,
                                          unsigned *ticket, float *fsum)
{
    __shared__ unsigned local_hist[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        local_hist[b] = 0;
    __syncthreads();

    int lo = 255, hi = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned char c = data[i];                  // ld.global.u8
        atomicAdd(&local_hist[c], 1u);              // atom.shared.add.u32
        lo = min(lo, (int)c);
        hi = max(hi, (int)c);
    }
    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (local_hist[b] != 0)
            atomicAdd(&hist[b], local_hist[b]);     // red/atom.global.add.u32

    atomicMin(&minmax[0], lo);                      // atom.global.min.s32
    atomicMax(&minmax[1], hi);                      // atom.global.max.s32
    atomicAdd(fsum, (float)hi * 0.5f);              // atom.global.add.f32

    if (threadIdx.x == 0) {
        // Last block to finish: ticket counter that wraps (atomicInc), and a CAS loop.
        unsigned t = atomicInc(ticket, gridDim.x - 1);        // atom.global.inc.u32
        if (t == gridDim.x - 1)
            atomicExch(last_block, (int)blockIdx.x);          // atom.global.exch.b32
        int old = minmax[2], assumed;
        do {                                                  // atom.global.cas.b32
            assumed = old;
            old = atomicCAS(&minmax[2], assumed, assumed + (int)blockIdx.x + 1);
        } while (old != assumed);
    }
}
