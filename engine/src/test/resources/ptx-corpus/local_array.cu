// Corpus: a per-thread array indexed with run-time values, which nvcc must place in
// local memory (.local depot, ld.local / st.local): a 1-D median-of-7 filter that
// insertion-sorts its window.
#define RADIUS 3
#define WIN (2 * RADIUS + 1)

extern "C" __global__ void median7(const int *in, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;

    int win[WIN];
    int count = 0;
    for (int d = -RADIUS; d <= RADIUS; ++d) {
        int j = i + d;
        if (j < 0 || j >= n) continue;       // edge: shorter window
        int v = in[j];
        int k = count++;
        while (k > 0 && win[k - 1] > v) {     // insertion sort: dynamic indices
            win[k] = win[k - 1];
            --k;
        }
        win[k] = v;
    }
    out[i] = win[count / 2];
}
