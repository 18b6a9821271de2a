//go:build linux && cgo

// The earliest start there is: an ELF constructor, run by the dynamic loader before the Go runtime
// starts. For `gpuwiz gpu` (gpuwiz_nvml_wanted, the same test as Wanted) it starts one thread that
// loads libnvidia-ml.so.1 the way go-nvml does (RTLD_LAZY | RTLD_GLOBAL) and calls nvmlInit_v2; the
// Go runtime and every package's initialisation then run beside it. go-nvml's own dlopen and
// nvmlInit afterwards only count a reference (NVML keeps one per nvmlInit). The thread blocks every
// signal: it never runs Go code, and the Go runtime's signals are not for it.
#include <dlfcn.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <time.h>

#include "early_linux.h"

static pthread_t early_thread;
static int early_started;
static long long early_began_ns;

static long long now_ns(void) {
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void *early_load(void *unused) {
	(void)unused;
	void *h = dlopen("libnvidia-ml.so.1", RTLD_LAZY | RTLD_GLOBAL);
	if (h != NULL) {
		int (*init)(void) = (int (*)(void))dlsym(h, "nvmlInit_v2");
		if (init != NULL) {
			init();
		}
	}
	return NULL;
}

static int starts(const char *s, const char *prefix) { return strncmp(s, prefix, strlen(prefix)) == 0; }

int gpuwiz_nvml_wanted(int argc, char **argv) {
	int i = 1;
	for (; i < argc && strcmp(argv[i], "gpu") != 0; i++) {
		const char *a = argv[i];
		if (strcmp(a, "--lang") == 0 || strcmp(a, "--matrix") == 0 || strcmp(a, "--sources") == 0) {
			i++; /* its value */
		} else if (!(starts(a, "--lang=") || starts(a, "--matrix=") || starts(a, "--sources=") ||
		             strcmp(a, "--no-color") == 0 || strcmp(a, "--ascii") == 0 ||
		             starts(a, "--no-color=") || starts(a, "--ascii="))) {
			return 0;
		}
	}
	if (i >= argc) {
		return 0;
	}
	for (i++; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0 || strcmp(a, "--") == 0 ||
		    strcmp(a, "--simulate") == 0 || starts(a, "--simulate=")) {
			return 0;
		}
	}
	return 1;
}

__attribute__((constructor)) static void gpuwiz_nvml_early(int argc, char **argv, char **envp) {
	(void)envp;
	if (!gpuwiz_nvml_wanted(argc, argv)) {
		return;
	}
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	early_began_ns = now_ns();
	early_started = pthread_create(&early_thread, NULL, early_load, NULL) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

int gpuwiz_nvml_early_wait(long long *began_ns) {
	if (!early_started) {
		return 0;
	}
	pthread_join(early_thread, NULL);
	early_started = 0;
	*began_ns = early_began_ns;
	return 1;
}
