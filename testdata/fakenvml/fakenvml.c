/* A stand-in nvml.dll for testing gpuwiz's Windows backend under Wine: canned answers for two GPUs
 * (an RTX 4090, compute capability 8.9, and a GTX 1080, 6.1) through the same exports, calling
 * convention and struct layouts as the real nvml.h. Build:
 *   x86_64-w64-mingw32-gcc -shared -O2 -o nvml.dll fakenvml.c
 *   x86_64-w64-mingw32-gcc -shared -O2 -DOLD_DRIVER -o nvml.dll fakenvml.c   (an older driver:
 *   no _v3 process calls, no nvmlDeviceGetPowerUsage)
 * On Linux the same file is libnvidia-ml.so.1 for go-nvml:
 *   gcc -shared -fPIC -O2 -o libnvidia-ml.so.1 fakenvml.c   (found through LD_LIBRARY_PATH)
 * Expected answers: expected.json beside this file (backend "nvml.dll", os "windows"). */
#include <string.h>

#ifdef _WIN32
#define EXPORT __declspec(dllexport)
#else
#define EXPORT __attribute__((visibility("default")))
#endif
typedef int nvmlReturn_t;
enum { OK = 0, UNINITIALIZED = 1, INVALID_ARGUMENT = 2, NOT_SUPPORTED = 3, INSUFFICIENT_SIZE = 7 };
#define VALUE_NOT_AVAILABLE (~0ULL)
#define MIB (1024ULL * 1024ULL)

typedef struct { unsigned long long total, free, used; } nvmlMemory_t;                 /* 24 B */
typedef struct { unsigned int gpu, memory; } nvmlUtilization_t;                         /* 8 B */
typedef struct { unsigned int pid; unsigned long long usedGpuMemory;
                 unsigned int gpuInstanceId, computeInstanceId; } nvmlProcessInfo_t;  /* 24 B */
typedef struct { char busIdLegacy[16]; unsigned int domain, bus, device, pciDeviceId, pciSubSystemId;
                 char busId[32]; } nvmlPciInfo_t;                                        /* 68 B */

typedef struct { unsigned int pid; unsigned long long used; } proc;
typedef struct {
    const char *name, *uuid, *bus;
    unsigned long long total_mib, used_mib;
    int major, minor;
    unsigned int util, temp, power_mw, sm_mhz;
    proc compute[4]; int ncompute;
    proc graphics[4]; int ngraphics;
} card;

static card cards[2] = {
    {"NVIDIA GeForce RTX 4090", "GPU-8f6c2a52-2b7e-4b6a-9d0e-4090aaaa0001", "00000000:01:00.0",
     24564, 1843, 8, 9, 37, 61, 212345, 2520,
     {{4242, VALUE_NOT_AVAILABLE}}, 1, {{1234, 512 * MIB}, {4242, VALUE_NOT_AVAILABLE}}, 2},
    {"NVIDIA GeForce GTX 1080", "GPU-1080bbbb-0000-4000-8000-108000000002", "00000000:02:00.0",
     8192, 300, 6, 1, 0, 35, 9000, 139,
     {{5555, 256 * MIB}}, 1, {{0}}, 0},
};
static int initialised;

static nvmlReturn_t copy(char *dst, unsigned int len, const char *src) {
    if (!dst) return INVALID_ARGUMENT;
    if (strlen(src) + 1 > len) return INSUFFICIENT_SIZE;
    strcpy(dst, src);
    return OK;
}
static card *dev(void *h) {
    if (h == (void *)&cards[0]) return &cards[0];
    if (h == (void *)&cards[1]) return &cards[1];
    return 0;
}
#define NEED_INIT if (!initialised) return UNINITIALIZED
#define NEED_DEV(c) card *c = dev(device); if (!c) return INVALID_ARGUMENT

#ifdef INIT_SLEEP_MS /* a driver whose nvmlInit takes as long as a real one (benchmarks) */
#include <unistd.h>
#define INIT_WAIT usleep(INIT_SLEEP_MS * 1000)
#else
#define INIT_WAIT
#endif
/* FAKENVML_LOG names a file that gets one line per nvmlInit_v2 call (tests count them). */
#include <stdio.h>
#include <stdlib.h>
static void log_call(const char *name) {
    const char *path = getenv("FAKENVML_LOG");
    FILE *f = path ? fopen(path, "a") : 0;
    if (f) { fprintf(f, "%s\n", name); fclose(f); }
}
/* Like NVML, a second nvmlInit only counts a reference: only the first one takes INIT_SLEEP_MS. */
EXPORT nvmlReturn_t nvmlInit_v2(void) { if (!initialised) { INIT_WAIT; } log_call("nvmlInit_v2"); initialised++; return OK; }
EXPORT nvmlReturn_t nvmlShutdown(void) { if (initialised) initialised--; return OK; }
EXPORT nvmlReturn_t nvmlSystemGetDriverVersion(char *v, unsigned int len) { NEED_INIT; return copy(v, len, "566.36"); }
EXPORT nvmlReturn_t nvmlSystemGetNVMLVersion(char *v, unsigned int len) { NEED_INIT; return copy(v, len, "12.566.36"); }
EXPORT nvmlReturn_t nvmlSystemGetCudaDriverVersion_v2(int *v) { NEED_INIT; *v = 12070; return OK; }
EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned int *n) { NEED_INIT; *n = 2; return OK; }
EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned int i, void **h) {
    NEED_INIT; if (i >= 2) return INVALID_ARGUMENT; *h = &cards[i]; return OK;
}
EXPORT nvmlReturn_t nvmlDeviceGetName(void *device, char *v, unsigned int len) { NEED_INIT; NEED_DEV(c); return copy(v, len, c->name); }
EXPORT nvmlReturn_t nvmlDeviceGetUUID(void *device, char *v, unsigned int len) { NEED_INIT; NEED_DEV(c); return copy(v, len, c->uuid); }
EXPORT nvmlReturn_t nvmlDeviceGetPciInfo_v3(void *device, nvmlPciInfo_t *p) {
    NEED_INIT; NEED_DEV(c);
    memset(p, 0, sizeof *p);
    strncpy(p->busIdLegacy, c->bus + 4, sizeof p->busIdLegacy - 1);
    strcpy(p->busId, c->bus);
    p->bus = c == &cards[0] ? 1 : 2;
    p->pciDeviceId = c == &cards[0] ? 0x268410de : 0x1b8010de;
    return OK;
}
EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(void *device, nvmlMemory_t *m) {
    NEED_INIT; NEED_DEV(c);
    m->total = c->total_mib * MIB; m->used = c->used_mib * MIB; m->free = m->total - m->used;
    return OK;
}
EXPORT nvmlReturn_t nvmlDeviceGetCudaComputeCapability(void *device, int *major, int *minor) {
    NEED_INIT; NEED_DEV(c); *major = c->major; *minor = c->minor; return OK;
}
EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(void *device, nvmlUtilization_t *u) {
    NEED_INIT; NEED_DEV(c); u->gpu = c->util; u->memory = c->util / 2; return OK;
}
EXPORT nvmlReturn_t nvmlDeviceGetTemperature(void *device, int sensor, unsigned int *t) {
    NEED_INIT; NEED_DEV(c); if (sensor != 0) return NOT_SUPPORTED; *t = c->temp; return OK;
}
#ifndef OLD_DRIVER
EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(void *device, unsigned int *mw) { NEED_INIT; NEED_DEV(c); *mw = c->power_mw; return OK; }
#endif
EXPORT nvmlReturn_t nvmlDeviceGetClockInfo(void *device, int type, unsigned int *mhz) {
    NEED_INIT; NEED_DEV(c); if (type != 1) return NOT_SUPPORTED; *mhz = c->sm_mhz; return OK;
}

static nvmlReturn_t list(const proc *ps, int n, unsigned int *count, nvmlProcessInfo_t *out) {
    if (*count < (unsigned int)n) { *count = n; return INSUFFICIENT_SIZE; }
    for (int i = 0; i < n; i++) {
        out[i].pid = ps[i].pid; out[i].usedGpuMemory = ps[i].used;
        out[i].gpuInstanceId = 0xFFFFFFFF; out[i].computeInstanceId = 0xFFFFFFFF;
    }
    *count = n;
    return OK;
}
#define PROCS(fn, field, nfield) \
    EXPORT nvmlReturn_t fn(void *device, unsigned int *count, nvmlProcessInfo_t *out) { \
        NEED_INIT; NEED_DEV(c); return list(c->field, c->nfield, count, out); }
PROCS(nvmlDeviceGetComputeRunningProcesses_v2, compute, ncompute)
PROCS(nvmlDeviceGetGraphicsRunningProcesses_v2, graphics, ngraphics)
#ifndef OLD_DRIVER
PROCS(nvmlDeviceGetComputeRunningProcesses_v3, compute, ncompute)
PROCS(nvmlDeviceGetGraphicsRunningProcesses_v3, graphics, ngraphics)
#endif

EXPORT nvmlReturn_t nvmlSystemGetProcessName(unsigned int pid, char *name, unsigned int len) {
    NEED_INIT;
    switch (pid) {
    case 4242: return copy(name, len, "python.exe");
    case 1234: return copy(name, len, "C:\\Windows\\explorer.exe");
    case 5555: return copy(name, len, "trainer.exe");
    }
    return 6; /* NVML_ERROR_NOT_FOUND */
}
