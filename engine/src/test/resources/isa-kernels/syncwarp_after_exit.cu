// Lanes 16-31 return early; lanes 0-15 then call __syncwarp() with the full mask, which names the
// exited lanes. The PTX text (bar.warp.sync waits for every thread of the mask) and the CUDA
// Programming Guide (only the non-exited threads named must call it) read this differently.
__global__ void syncwarp_after_exit(int* out) {
    const int lane = threadIdx.x % 32;
    if (lane >= 16) return;
    out[lane] = lane;
    __syncwarp();
    out[lane + 16] = out[(lane + 1) % 16];
}
