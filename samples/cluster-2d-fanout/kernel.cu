// cluster-2d-fanout: a 2x2 cluster pipeline in the style of CUTLASS's PipelineTmaAsync, where
// A tiles are multicast along cluster rows, B tiles along cluster columns, and every consumer
// warp releases a stage by arriving remotely on the `empty` barrier of each CTA in its row
// and its column (docs/semantics.md, "Idioms that must work": remote arrive
// fan-out, empty-barrier count = (cluster_x + cluster_y - 1) x consumer groups).
//
// Grid 4x2, cluster 2x2 (two clusters), block 96: warp 0 is the producer (thread 0 issues the
// copies), warps 1 and 2 are two consumer groups. CTA (bx, by) works on output tile
// (by, bx): for k = 0..3 it needs A[by][k] and B[bx][k], 64 ints (256 bytes) each, through a
// 2-stage ring (sA, sB, full, empty).
//
//   A[by][k] is needed by the CTAs of cluster row y: it is cut into CX = 2 slices of 128 bytes,
//   and the CTA at cluster column x loads slice x and multicasts it to its row.
//   B[bx][k] is needed by the CTAs of cluster column x: cut into CY = 2 slices, the CTA at
//   cluster row y loads slice y and multicasts it to its column.
//
// So each CTA's stage receives 2 A slices (its row) + 2 B slices (its column) = 512 bytes:
// `full[s]` (count 1) is armed by the CTA's own producer with arrive.expect_tx(512). And a
// producer may refill stage s only when every CTA it multicasts into (its row and its column,
// CX + CY - 1 = 3 CTAs, itself included) has finished reading it: `empty[s]` counts one
// arrival per consumer group of each of those CTAs, (CX + CY - 1) * 2 = 6. Each consumer warp
// releases a stage CUTLASS-style (spread_arrivals_to_warp + is_same_row_or_col): lanes 0, 2,
// 4, 6 are assigned destination ranks 0, 1, 2, 3; a lane whose destination is in its CTA's
// row or column does mapa + mbarrier.arrive.shared::cluster on that CTA's `empty[s]`.
//
// out[(by * 4 + bx) * 64 + c] = sum_k A[by][k][c] * B[bx][k][63 - c], c = consumer thread 0..63.
//
// Launch: grid 4x2, block 96, cluster 2x2, A = 0..511 (2 x 4 x 64), B = 0..1023 (4 x 4 x 64),
// out = 512 ints.

#define CX 2                               // cluster shape
#define CY 2
#define K_ITERS 4
#define STAGES 2
#define TILE 64                            // ints per A or B tile
#define A_SLICE (TILE / CX)                // 32 ints: one multicast per CTA of the row
#define B_SLICE (TILE / CY)                // 32 ints: one multicast per CTA of the column
#define STAGE_BYTES (2 * TILE * 4)         // 512 bytes land in each CTA per stage
#define CONSUMER_WARPS 2
#define EMPTY_ARRIVALS ((CX + CY - 1) * CONSUMER_WARPS)   // 6

__device__ __forceinline__ unsigned smem_addr(const void *p)
{
    return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ dim3 block_id_in_cluster()
{
    unsigned x, y;
    asm volatile("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(x));
    asm volatile("mov.u32 %0, %%cluster_ctaid.y;" : "=r"(y));
    return dim3(x, y, 0);
}

__device__ __forceinline__ void cluster_sync()
{
    asm volatile("barrier.cluster.arrive.aligned;\n\t"
                 "barrier.cluster.wait.aligned;" ::: "memory");
}

__device__ __forceinline__ void mbar_init(unsigned bar, unsigned count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" :: "r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_arrive_expect_tx(unsigned bar, unsigned bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%1], %0;" :: "r"(bytes), "r"(bar) : "memory");
}

// Waits on this CTA's own barrier; .acquire.cluster because arrivals come from other CTAs.
__device__ __forceinline__ void mbar_wait_parity(unsigned bar, unsigned parity)
{
    asm volatile("{\n\t"
                 ".reg .pred P1;\n"
                 "LAB_WAIT:\n\t"
                 "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 P1, [%0], %1;\n\t"
                 "@P1 bra DONE;\n\t"
                 "bra LAB_WAIT;\n"
                 "DONE:\n\t"
                 "}"
                 :: "r"(bar), "r"(parity) : "memory");
}

// CUTLASS ClusterBarrier::arrive(cta_id, pred): arrive on the barrier at the same offset in
// CTA `cta_id` of the cluster, if `pred`. Released at cluster scope: the reads of the stage
// come before the peer's producer overwrites it.
__device__ __forceinline__ void mbar_arrive_cluster(unsigned bar, unsigned cta_id, unsigned pred)
{
    asm volatile("{\n\t"
                 ".reg .pred p;\n\t"
                 ".reg .b32 remAddr32;\n\t"
                 "setp.eq.u32 p, %2, 1;\n\t"
                 "@p mapa.shared::cluster.u32 remAddr32, %0, %1;\n\t"
                 "@p mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remAddr32];\n\t"
                 "}"
                 :: "r"(bar), "r"(cta_id), "r"(pred) : "memory");
}

// CUTLASS SM90_BULK_COPY_G2S with a multicast mask (one bit per cluster rank).
__device__ __forceinline__ void bulk_copy_g2s_multicast(unsigned dst, const void *src, unsigned bytes, unsigned bar,
                                                        unsigned short cta_mask)
{
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
                 " [%0], [%1], %2, [%3], %4;"
                 :: "r"(dst), "l"(src), "r"(bytes), "r"(bar), "h"(cta_mask) : "memory");
}

// CUTLASS PipelineTmaAsync: is the CTA of rank dst in the same cluster row or column?
__device__ __forceinline__ bool is_same_row_or_col(unsigned dst, dim3 block_id)
{
    return (dst % CX) == block_id.x || (dst / CX) == block_id.y;
}

extern "C" __global__ void __cluster_dims__(CX, CY, 1) fanout_2d(const int *A, const int *B, int *out)
{
    __shared__ __align__(128) int sA[STAGES][TILE];
    __shared__ __align__(128) int sB[STAGES][TILE];
    __shared__ __align__(8) unsigned long long full[STAGES];
    __shared__ __align__(8) unsigned long long empty[STAGES];

    dim3 cid = block_id_in_cluster();
    unsigned warp = threadIdx.x / 32;
    unsigned lane = threadIdx.x % 32;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            mbar_init(smem_addr(&full[s]), 1);                 // the producer's arrive.expect_tx
            mbar_init(smem_addr(&empty[s]), EMPTY_ARRIVALS);   // 3 CTAs x 2 consumer warps
        }
        asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
    }
    cluster_sync();                                            // every barrier of the cluster exists

    if (warp == 0) {
        if (lane == 0) {                                       // producer
            unsigned short row_mask = 0, col_mask = 0;
            for (int j = 0; j < CX; ++j) row_mask |= 1u << (j + cid.y * CX);
            for (int i = 0; i < CY; ++i) col_mask |= 1u << (cid.x + i * CX);
            for (int k = 0; k < K_ITERS; ++k) {
                int s = k % STAGES;
                unsigned phase = (k / STAGES) & 1;
                mbar_wait_parity(smem_addr(&empty[s]), phase ^ 1);   // fresh barrier: parity 1 passes
                mbar_arrive_expect_tx(smem_addr(&full[s]), STAGE_BYTES);
                const int *a = A + (blockIdx.y * K_ITERS + k) * TILE + cid.x * A_SLICE;
                const int *b = B + (blockIdx.x * K_ITERS + k) * TILE + cid.y * B_SLICE;
                bulk_copy_g2s_multicast(smem_addr(&sA[s][cid.x * A_SLICE]), a, A_SLICE * 4, smem_addr(&full[s]),
                                        row_mask);
                bulk_copy_g2s_multicast(smem_addr(&sB[s][cid.y * B_SLICE]), b, B_SLICE * 4, smem_addr(&full[s]),
                                        col_mask);
            }
        }
    } else {                                                   // consumer warps 1 and 2
        // CUTLASS spread_arrivals_to_warp: every second lane signals one destination rank.
        unsigned dst_blockid = (lane / 8) * 4 + (lane % 8) / 2;
        unsigned is_signalling = (lane % 2) == 0 && dst_blockid < CX * CY && is_same_row_or_col(dst_blockid, cid);
        unsigned c = threadIdx.x - 32;
        int acc = 0;
        for (int k = 0; k < K_ITERS; ++k) {
            int s = k % STAGES;
            unsigned phase = (k / STAGES) & 1;
            mbar_wait_parity(smem_addr(&full[s]), phase);      // 512 bytes of stage s landed
            acc += sA[s][c] * sB[s][TILE - 1 - c];
            __syncwarp();                                      // the whole warp has read stage s
            mbar_arrive_cluster(smem_addr(&empty[s]), dst_blockid, is_signalling);   // consumer_release
        }
        out[(blockIdx.y * gridDim.x + blockIdx.x) * TILE + c] = acc;
    }

    cluster_sync();                                            // no CTA exits while peers may arrive on it
}
