"""The NVML calls `gpuwiz gpu` makes, each timed on its own, in a fresh process: nvmlInit and the
device handles, then every per-system and per-card query in the order the probe makes them (first
call, then the median of 20 more), then the per-card queries made one after another against the
same queries in three threads at once (identity / readings / processes, as they could be split).
Last, whether the driver serialises a card's *first* readings (the slow ones): fresh processes,
alternating, each timing the first utilisation/temperature/power/clock/process calls either one
after another or each in its own thread (as `gpuwiz gpu` makes them since it reads them at once).
Reads libnvidia-ml.so.1 through ctypes; prints one line per figure. Used by startup.sh.
`nvmlcalls.py first serial|threads` is one such fresh process (prints its milliseconds)."""
import ctypes, os, statistics, subprocess, sys, threading, time

first_mode = sys.argv[2] if len(sys.argv) == 3 and sys.argv[1] == "first" else None

ms = lambda t0: (time.perf_counter() - t0) * 1000
t0 = time.perf_counter()
try:
    nv = ctypes.CDLL("libnvidia-ml.so.1")
except OSError as e:
    sys.exit(f"no libnvidia-ml.so.1: {e}")
load = ms(t0)
t0 = time.perf_counter()
rc = nv.nvmlInit_v2()
init = ms(t0)
t0 = time.perf_counter()
rc2 = nv.nvmlInit_v2()
again = ms(t0)
print(f"dlopen libnvidia-ml.so.1 {load:.2f} ms; nvmlInit_v2 {init:.2f} ms (rc {rc}); a second nvmlInit_v2 (as go-nvml's after gpuwiz's early start) {again:.3f} ms (rc {rc2})")
n = ctypes.c_uint()
t0 = time.perf_counter()
nv.nvmlDeviceGetCount_v2(ctypes.byref(n))
handles = []
for i in range(n.value):
    h = ctypes.c_void_p()
    nv.nvmlDeviceGetHandleByIndex_v2(i, ctypes.byref(h))
    handles.append(h)
if first_mode is None:
    print(f"device count + {n.value} handle(s) {ms(t0):.2f} ms")

buf = lambda: ctypes.create_string_buffer(4096)
def sym(name):
    try:
        return getattr(nv, name)
    except AttributeError:
        return None

system = [
    ("nvmlSystemGetDriverVersion", lambda f: f(buf(), 80)),
    ("nvmlSystemGetCudaDriverVersion_v2", lambda f: f(ctypes.byref(ctypes.c_int()))),
    ("nvmlSystemGetNVMLVersion", lambda f: f(buf(), 80)),
]
per_card = {
    "identity": [
        ("nvmlDeviceGetName", lambda f, h: f(h, buf(), 96)),
        ("nvmlDeviceGetUUID", lambda f, h: f(h, buf(), 96)),
        ("nvmlDeviceGetPciInfo_v3", lambda f, h: f(h, buf())),
        ("nvmlDeviceGetMemoryInfo", lambda f, h: f(h, buf())),
        ("nvmlDeviceGetCudaComputeCapability", lambda f, h: f(h, ctypes.byref(ctypes.c_int()), ctypes.byref(ctypes.c_int()))),
    ],
    "readings": [
        ("nvmlDeviceGetUtilizationRates", lambda f, h: f(h, buf())),
        ("nvmlDeviceGetTemperature", lambda f, h: f(h, 0, ctypes.byref(ctypes.c_uint()))),
        ("nvmlDeviceGetPowerUsage", lambda f, h: f(h, ctypes.byref(ctypes.c_uint()))),
        ("nvmlDeviceGetClockInfo", lambda f, h: f(h, 1, ctypes.byref(ctypes.c_uint()))),
    ],
    "processes": [
        ("nvmlDeviceGetComputeRunningProcesses_v3", lambda f, h: f(h, ctypes.byref(ctypes.c_uint(64)), buf())),
        ("nvmlDeviceGetGraphicsRunningProcesses_v3", lambda f, h: f(h, ctypes.byref(ctypes.c_uint(64)), buf())),
    ],
}

def timed(name, call):
    f = sym(name)
    if f is None:
        print(f"{name:44s} not exported")
        return 0.0
    t0 = time.perf_counter(); rc = call(f); first = ms(t0)
    again = []
    for _ in range(20):
        t0 = time.perf_counter(); call(f); again.append(ms(t0))
    print(f"{name:44s} first {first:7.3f} ms  then median {statistics.median(again):7.3f} ms  (rc {rc})")
    return first

if first_mode is not None:
    h = handles[0]
    calls = per_card["readings"] + per_card["processes"][:1]
    one = lambda name, c: c(sym(name), h) if sym(name) is not None else None
    t0 = time.perf_counter()
    if first_mode == "serial":
        for name, c in calls:
            one(name, c)
    else:
        ts = [threading.Thread(target=one, args=nc) for nc in calls]
        for t in ts: t.start()
        for t in ts: t.join()
    print(f"{ms(t0):.3f}")
    nv.nvmlShutdown()
    sys.exit(0)

total = sum(timed(name, call) for name, call in system)
for h in handles[:1]:
    for group, calls in per_card.items():
        total += sum(timed(name, lambda f, c=c: c(f, h)) for name, c in calls)
print(f"sum of first calls after init: {total:.2f} ms")

def run_group(calls, h):
    for name, c in calls:
        f = sym(name)
        if f is not None:
            c(f, h)

if handles:
    h = handles[0]
    serial, threaded = [], []
    for _ in range(20):
        t0 = time.perf_counter()
        for calls in per_card.values():
            run_group(calls, h)
        serial.append(ms(t0))
        t0 = time.perf_counter()
        ts = [threading.Thread(target=run_group, args=(calls, h)) for calls in per_card.values()]
        for t in ts: t.start()
        for t in ts: t.join()
        threaded.append(ms(t0))
    print(f"one card's queries one after another: median {statistics.median(serial):.2f} ms; in 3 threads: median {statistics.median(threaded):.2f} ms")
nv.nvmlShutdown()

# The first readings in fresh processes: one after another against each in its own thread.
if handles:
    firsts = {"serial": [], "threads": []}
    for i in range(20):
        for mode in (["serial", "threads"] if i % 2 == 0 else ["threads", "serial"]):
            p = subprocess.run([sys.executable, os.path.abspath(__file__), "first", mode], capture_output=True, text=True)
            try:
                firsts[mode].append(float(p.stdout.strip()))
            except ValueError:
                print(f"first {mode}: {p.stdout.strip()} {p.stderr.strip()}")
    if firsts["serial"] and firsts["threads"]:
        print(f"a card's first readings (util, temp, power, clock, compute processes), fresh process, 20 each: "
              f"one after another median {statistics.median(firsts['serial']):.2f} ms (min {min(firsts['serial']):.2f}); "
              f"each in its own thread median {statistics.median(firsts['threads']):.2f} ms (min {min(firsts['threads']):.2f})")
