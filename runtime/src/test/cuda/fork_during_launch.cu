// fork() while another thread's launch is in flight (a test harness forking for a death test while
// a worker thread computes): the child must be able to use the runtime, managed memory included.
// A launch holds the runtime's launch lock and its connection's lock; a child forked then would
// inherit them locked by a thread it does not have and hang at its first launch, unless fork
// waits for the launch (docs/runtime.md, "Moving mirrored memory").
// Order, without timing: this program's write() (which the runtime's requests go through) tells
// main that the launch request (op 11) is sent, then waits, at most a second, for main's fork()
// to have returned. A runtime whose fork does not wait forks right then, the locks held; one
// whose fork waits lets the launch end after that second. The child stops itself after 20 s.
#include <cstdio>
#include <cstdlib>
#include <pthread.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cuda_runtime.h>

__global__ void add(int *p, int v) { p[threadIdx.x] += v; }

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
static int armed, sent, forked;
static int *data;

// The runtime's requests start with an 8-byte header: op, length; 11 is a kernel launch.
extern "C" ssize_t write(int fd, const void *buf, size_t n) {
    ssize_t w = syscall(SYS_write, fd, buf, n);
    if (armed && n == 8 && ((const uint32_t *) buf)[0] == 11) {
        armed = 0;
        pthread_mutex_lock(&lock);
        sent = 1;
        pthread_cond_broadcast(&cond);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 1;
        while (!forked && pthread_cond_timedwait(&cond, &lock, &until) == 0) {}
        pthread_mutex_unlock(&lock);
    }
    return w;
}

static void *worker(void *) {
    armed = 1;
    add<<<1, 32>>>(data, 1);
    cudaDeviceSynchronize();
    return NULL;
}

int main() {
    if (cudaMallocManaged(&data, 32 * sizeof(int)) != cudaSuccess) { printf("FAIL cudaMallocManaged\n"); return 1; }
    for (int i = 0; i < 32; i++) data[i] = i;
    add<<<1, 32>>>(data, 100); // every element 100 + i
    cudaDeviceSynchronize();
    pthread_t t;
    pthread_create(&t, NULL, worker, NULL);
    pthread_mutex_lock(&lock);
    while (!sent) pthread_cond_wait(&cond, &lock);
    pthread_mutex_unlock(&lock);
    pid_t child = fork();
    if (child == 0) {
        alarm(20);
        // The parent's bytes as of the fork (the worker's launch had ended, or not begun to change them).
        int base = data[0];
        for (int i = 0; i < 32; i++) data[i] = base + i * 2;
        add<<<1, 32>>>(data, 1000);
        if (cudaDeviceSynchronize() != cudaSuccess) _exit(3);
        for (int i = 0; i < 32; i++) if (data[i] != base + i * 2 + 1000) _exit(4);
        _exit(0);
    }
    pthread_mutex_lock(&lock);
    forked = 1;
    pthread_cond_broadcast(&cond);
    pthread_mutex_unlock(&lock);
    pthread_join(t, NULL);
    int status = 0;
    waitpid(child, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        printf("FAIL the child forked during a launch %s %d\n", WIFEXITED(status) ? "exited with" : "was stopped by signal",
               WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
        return 1;
    }
    // The parent's own launches go on: its first push after the child's is whole (stale), and right.
    for (int i = 0; i < 32; i++) data[i] = 7 * i;
    add<<<1, 32>>>(data, 5);
    cudaDeviceSynchronize();
    for (int i = 0; i < 32; i++) if (data[i] != 7 * i + 5) { printf("FAIL parent data[%d] = %d\n", i, data[i]); return 1; }
    printf("PASS fork_during_launch\n");
    return 0;
}
