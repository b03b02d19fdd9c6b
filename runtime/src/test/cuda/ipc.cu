// CUDA IPC between two processes of one program (docs/runtime.md, "CUDA IPC"), the classic
// pattern: fork first, then the parent allocates, writes through a kernel, and sends a memory
// handle and an event handle through a pipe; the child opens both, checks the parent's bytes,
// rewrites them through its own kernel, records the event and says so through a pipe; the parent
// waits on the event and finds the child's values, computed here on the host. Misuse in both
// processes gets the documented errors: opening a handle in the process that made it, a handle
// that is no handle, of freed memory, flags other than cudaIpcMemLazyEnablePeerAccess, closing
// what was not opened, cudaFree of opened memory, an event without cudaEventInterprocess.
#include <cstdio>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>
#include <cuda_runtime.h>

static int fails = 0;
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("FAIL %s line %d: %s: %s\n", who, __LINE__, #x, cudaGetErrorName(e_)); return 1; } } while (0)
#define EXPECT_ERR(call, want) do { cudaError_t e_ = (call); cudaGetLastError(); if (e_ != (want)) { \
    printf("FAIL %s line %d: %s gave %s\n", who, __LINE__, #call, cudaGetErrorName(e_)); fails++; } } while (0)

static const int N = 256;
static const char *who = "parent";

__global__ void fill(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 1000 + 3 * i; }
__global__ void twice_plus_one(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = 2 * p[i] + 1; }

struct Handles { cudaIpcMemHandle_t mem; cudaIpcEventHandle_t event; };

static bool read_all(int fd, void *p, size_t n) {
    char *c = (char *) p;
    while (n > 0) { ssize_t r = read(fd, c, n); if (r <= 0) return false; c += r; n -= (size_t) r; }
    return true;
}

static int child(int from_parent, int to_parent) {
    who = "child";
    Handles h;
    if (!read_all(from_parent, &h, sizeof h)) { printf("FAIL child: no handles\n"); return 1; }
    cudaEvent_t ev;
    CHECK(cudaIpcOpenEventHandle(&ev, h.event));
    int *p = nullptr, *again = nullptr;
    EXPECT_ERR(cudaIpcOpenMemHandle((void **) &p, h.mem, 0), cudaErrorInvalidValue); // documented: must be the flag
    CHECK(cudaIpcOpenMemHandle((void **) &p, h.mem, cudaIpcMemLazyEnablePeerAccess));
    CHECK(cudaIpcOpenMemHandle((void **) &again, h.mem, cudaIpcMemLazyEnablePeerAccess)); // counted, same pointer
    if (again != p) { printf("FAIL child: a second open gave %p, not %p\n", (void *) again, (void *) p); fails++; }
    int seen[N];
    CHECK(cudaMemcpy(seen, p, sizeof seen, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) if (seen[i] != 1000 + 3 * i) { printf("FAIL child: seen[%d] = %d\n", i, seen[i]); return 1; }
    twice_plus_one<<<(N + 127) / 128, 128>>>(p, N);
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(ev, 0));
    EXPECT_ERR(cudaFree(p), cudaErrorInvalidValue); // opened memory is closed, not freed
    cudaIpcMemHandle_t freed;
    EXPECT_ERR(cudaIpcGetMemHandle(&freed, p), cudaErrorInvalidValue); // only its owner exports it
    int *gone = nullptr;
    CHECK(cudaIpcCloseMemHandle(p));
    CHECK(cudaIpcCloseMemHandle(again));
    EXPECT_ERR(cudaIpcCloseMemHandle(p), cudaErrorInvalidValue); // closed as often as opened
    CHECK(cudaEventDestroy(ev));
    char done = 'd';
    if (write(to_parent, &done, 1) != 1) { printf("FAIL child: pipe\n"); return 1; }
    // The parent frees its second allocation only now; its handle, read after, names freed memory.
    if (!read_all(from_parent, &freed, sizeof freed)) { printf("FAIL child: no second handle\n"); return 1; }
    EXPECT_ERR(cudaIpcOpenMemHandle((void **) &gone, freed, cudaIpcMemLazyEnablePeerAccess), cudaErrorInvalidResourceHandle);
    cudaIpcMemHandle_t junk;
    memset(&junk, 0x5a, sizeof junk);
    EXPECT_ERR(cudaIpcOpenMemHandle((void **) &gone, junk, cudaIpcMemLazyEnablePeerAccess), cudaErrorInvalidValue);
    cudaIpcEventHandle_t junk_event;
    memset(&junk_event, 0, sizeof junk_event);
    EXPECT_ERR(cudaIpcOpenEventHandle(&ev, junk_event), cudaErrorInvalidValue);
    return fails ? 1 : 0;
}

int main() {
    int down[2], up[2];
    if (pipe(down) != 0 || pipe(up) != 0) { printf("FAIL pipe\n"); return 1; }
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0) { printf("FAIL fork\n"); return 1; }
    if (pid == 0) {
        int r = child(down[0], up[1]);
        fflush(stdout);
        _exit(r);
    }

    int support = -1;
    CHECK(cudaDeviceGetAttribute(&support, cudaDevAttrIpcEventSupport, 0));
    if (support != 1) { printf("FAIL cudaDevAttrIpcEventSupport = %d\n", support); fails++; }
    int *d, *other;
    CHECK(cudaMalloc(&d, N * sizeof(int)));
    CHECK(cudaMalloc(&other, 64));
    fill<<<(N + 127) / 128, 128>>>(d, N);
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t ev, timed;
    EXPECT_ERR(cudaEventCreateWithFlags(&ev, cudaEventInterprocess), cudaErrorInvalidValue); // needs DisableTiming
    CHECK(cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming));
    CHECK(cudaEventCreate(&timed));
    Handles h;
    CHECK(cudaIpcGetMemHandle(&h.mem, d));
    cudaIpcMemHandle_t freed;
    CHECK(cudaIpcGetMemHandle(&freed, other));
    CHECK(cudaIpcGetEventHandle(&h.event, ev));
    cudaIpcMemHandle_t inside, same;
    CHECK(cudaIpcGetMemHandle(&inside, d + 5)); // an address inside names the whole allocation
    CHECK(cudaIpcGetMemHandle(&same, d));       // and asking again gives the same handle
    if (memcmp(&inside, &h.mem, sizeof inside) != 0 || memcmp(&same, &h.mem, sizeof same) != 0) {
        printf("FAIL handles of one allocation differ\n"); fails++;
    }
    cudaIpcEventHandle_t eh;
    EXPECT_ERR(cudaIpcGetEventHandle(&eh, timed), cudaErrorInvalidResourceHandle);
    int host = 0, *managed;
    cudaIpcMemHandle_t mh;
    EXPECT_ERR(cudaIpcGetMemHandle(&mh, &host), cudaErrorInvalidValue);
    CHECK(cudaMallocManaged(&managed, 64));
    EXPECT_ERR(cudaIpcGetMemHandle(&mh, managed), cudaErrorInvalidValue);
    int *mine;
    EXPECT_ERR(cudaIpcOpenMemHandle((void **) &mine, h.mem, cudaIpcMemLazyEnablePeerAccess), cudaErrorDeviceUninitialized);
    EXPECT_ERR(cudaIpcOpenEventHandle(&timed, h.event), cudaErrorDeviceUninitialized);
    EXPECT_ERR(cudaIpcCloseMemHandle(d), cudaErrorInvalidValue); // never opened here

    if (write(down[1], &h, sizeof h) != (ssize_t) sizeof h) { printf("FAIL pipe\n"); return 1; }
    char done = 0;
    if (!read_all(up[0], &done, 1) || done != 'd') { printf("FAIL the child did not finish its part\n"); fails++; }
    CHECK(cudaEventSynchronize(ev));
    CHECK(cudaEventQuery(ev));
    CHECK(cudaStreamWaitEvent(0, ev, 0));
    int back[N];
    CHECK(cudaMemcpy(back, d, sizeof back, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++) {
        int want = 2 * (1000 + 3 * i) + 1;
        if (back[i] != want) { printf("FAIL back[%d] = %d, want %d (the child's write)\n", i, back[i], want); fails++; break; }
    }
    CHECK(cudaFree(other));
    if (write(down[1], &freed, sizeof freed) != (ssize_t) sizeof freed) { printf("FAIL pipe\n"); return 1; }
    int status = 0;
    if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("FAIL the child ended with status %d\n", status); fails++;
    }
    CHECK(cudaFree(d));
    CHECK(cudaFree(managed));
    CHECK(cudaEventDestroy(ev));
    CHECK(cudaEventDestroy(timed));
    printf(fails ? "FAIL ipc\n" : "PASS ipc\n");
    return fails ? 1 : 0;
}
