"""gpuwiz GPU benchmark for PyTorch: one JSON object per line on stdout (protocol in steps/bench/event.go)."""
def is_oom(e):
    return type(e).__name__ == "OutOfMemoryError" or "out of memory" in str(e).lower()


def arch_problem(e):
    text = str(e).lower()
    return "no kernel image" in text or "invalid device function" in text or "not compatible" in text


hello("torch")
try:
    import torch
except Exception as e:  # ImportError, or a DLL load failure on Windows (OSError)
    fail("import", "cannot import torch: %s: %s" % (type(e).__name__, e))

version = getattr(torch, "__version__", "?")
cuda_build = getattr(torch.version, "cuda", None)
if not cuda_build:
    fail("no-cuda-build", "torch %s is a CPU-only build (torch.version.cuda is None)" % version,
         framework="torch", framework_version=str(version))
if not torch.cuda.is_available():
    fail("no-device", "torch %s (CUDA %s) sees no usable GPU" % (version, cuda_build),
         framework_version=str(version), cuda=str(cuda_build), visible=os.environ.get("CUDA_VISIBLE_DEVICES"))
count = torch.cuda.device_count()
if args.gpu < 0 or args.gpu >= count:
    fail("no-device", "GPU %d asked for, but torch sees %d device(s)" % (args.gpu, count))

torch.cuda.set_device(args.gpu)
dev = torch.device("cuda", args.gpu)
props = torch.cuda.get_device_properties(args.gpu)
capability = "%d.%d" % (props.major, props.minor)
uuid = str(getattr(props, "uuid", "") or "")
if uuid and not uuid.startswith("GPU-"):
    uuid = "GPU-" + uuid  # NVML spells it with the prefix; the sampler matches on NVML's form
pci = ""
if hasattr(props, "pci_bus_id"):
    pci = "%08X:%02X:%02X.0" % (getattr(props, "pci_domain_id", 0), props.pci_bus_id, getattr(props, "pci_device_id", 0))
free, total = torch.cuda.mem_get_info(args.gpu)
precision = getattr(torch.backends.cuda.matmul, "fp32_precision", None)
tf32 = (precision == "tf32") if precision not in (None, "none") else bool(torch.backends.cuda.matmul.allow_tf32)
arch_list = list(torch.cuda.get_arch_list())
emit("device", framework="torch", version=version, cuda=cuda_build, index=args.gpu, name=props.name,
     uuid=uuid, pci_bus_id=pci, capability=capability, total_mib=total // 2**20, free_mib=free // 2**20,
     tf32=tf32, arch_list=arch_list, pid=os.getpid(), device_count=count)

# A wheel without this card's architecture imports fine and fails at the first kernel.
try:
    probe = torch.ones(16, device=dev) * 2
    torch.cuda.synchronize(dev)
    float(probe.sum().item())
except Exception as e:
    if arch_problem(e):
        fail("arch-missing", "torch %s has no kernels for compute capability %s (built for %s): %s"
             % (version, capability, " ".join(arch_list), e))
    fail("no-device", "the first CUDA kernel failed: %s" % e)

dtypes = [("fp32", torch.float32)]
if props.major >= 7 or capability in ("6.0", "6.2"):
    dtypes.append(("fp16", torch.float16))  # fast fp16 needs tensor cores (7.0+) or GP100
if props.major >= 8:
    dtypes.append(("bf16", torch.bfloat16))

sizes = [4096, 8192] if args.quick else [2048, 4096, 8192]
repeats = 50 if args.quick else 100
# cpu matmul + one step per dtype and size + copy + one check per dtype
emit("plan", steps=2 + len(dtypes) * (len(sizes) + 1))
MIN_N = 1024


def fits(n, nbytes):
    return 3 * n * n * nbytes * 1.25 < free


def timed_ms(fn, inner):
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    start.record()
    for _ in range(inner):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / inner


def gpu_matmul(name, dt, n):
    """Median ms of one n×n matmul; on out-of-memory halves n and says so."""
    while True:
        a = b = c = None
        try:
            a = torch.randn(n, n, device=dev, dtype=dt)
            b = torch.randn(n, n, device=dev, dtype=dt)
            c = torch.empty(n, n, device=dev, dtype=dt)
            run = lambda: torch.matmul(a, b, out=c)
            # Warm up like the reference timing (≥ 10 calls and ≥ 200 ms) so clocks settle first.
            warm_start, warm_calls = time.perf_counter(), 0
            while warm_calls < 10 or time.perf_counter() - warm_start < 0.2:
                run()
                warm_calls += 1
                if warm_calls % 10 == 0:
                    torch.cuda.synchronize(dev)
            torch.cuda.synchronize(dev)
            once = timed_ms(run, 1)
            # One call per event pair, as the reference does; only tiny calls are batched (events cost µs).
            inner = 1 if once >= 0.5 else int(0.5 / max(once, 1e-3)) + 1
            ms = median([timed_ms(run, inner) for _ in range(repeats)])
            return n, ms
        except Exception as e:
            if not is_oom(e):
                raise
            del a, b, c
            torch.cuda.empty_cache()
            retry = n // 2
            emit("oom", op="matmul", dtype=name, n=n, retry_n=retry if retry >= MIN_N else 0, message=str(e).splitlines()[0])
            if retry < MIN_N:
                fail("oom", "out of memory even at %d×%d %s" % (n, n, name))
            n = retry


def cpu_matmul(n):
    a = torch.randn(n, n, dtype=torch.float32)
    b = torch.randn(n, n, dtype=torch.float32)
    torch.matmul(a, b)
    times = []
    for _ in range(3 if args.quick else 5):
        t0 = time.perf_counter()
        torch.matmul(a, b)
        times.append((time.perf_counter() - t0) * 1000.0)
    return median(times)


def tflops(n, ms):
    return 2.0 * n ** 3 / (ms / 1000.0) / 1e12


try:
    cpu_n = 1024 if args.quick else 2048
    emit("step", name="matmul cpu fp32 %d" % cpu_n)
    ms = cpu_matmul(cpu_n)
    emit("result", op="matmul", device="cpu", dtype="fp32", n=cpu_n, ms=ms, tflops=tflops(cpu_n, ms), tf32=False)

    for name, dt in dtypes:
        for n in sizes:
            nbytes = torch.tensor([], dtype=dt).element_size()
            if not fits(n, nbytes):
                emit("skip", op="matmul", dtype=name, n=n, reason="needs %d MiB, %d MiB free" % (3 * n * n * nbytes // 2**20, free // 2**20))
                continue
            emit("step", name="matmul cuda %s %d" % (name, n))
            got_n, ms = gpu_matmul(name, dt, n)
            emit("result", op="matmul", device="cuda", dtype=name, n=got_n, ms=ms, tflops=tflops(got_n, ms),
                 tf32=tf32 if name == "fp32" else False)

    copy_bytes = min(1 << 30, int(free * 0.2)) // 4 * 4
    emit("step", name="copy cuda %d MiB" % (copy_bytes // 2**20))
    src = torch.randn(copy_bytes // 4, device=dev)
    dst = torch.empty_like(src)
    for _ in range(3):
        dst.copy_(src)
    ms = median([timed_ms(lambda: dst.copy_(src), 5) for _ in range(repeats)])
    # Read plus write, as CUDA's bandwidthTest counts a device-to-device copy.
    emit("result", op="copy", device="cuda", dtype="fp32", bytes=copy_bytes, ms=ms, gbps=2.0 * copy_bytes / (ms / 1000.0) / 1e9)
    del src, dst

    check_n = 512
    thresholds = {"fp32": 1e-2 if tf32 else 1e-4, "fp16": 1e-2, "bf16": 3e-2}
    for name, dt in dtypes:
        emit("step", name="check %s %d" % (name, check_n))
        a = torch.randn(check_n, check_n, dtype=torch.float64)
        b = torch.randn(check_n, check_n, dtype=torch.float64)
        want = a @ b
        got = torch.matmul(a.to(dev, dt), b.to(dev, dt)).to("cpu", torch.float64)
        rel = float((got - want).norm() / want.norm())
        ok = rel == rel and rel < thresholds[name]  # rel == rel rejects NaN
        emit("check", dtype=name, n=check_n, rel_err=rel, threshold=thresholds[name], ok=ok)
except SystemExit:
    raise
except Exception as e:
    kind = "arch-missing" if arch_problem(e) else ("oom" if is_oom(e) else "runtime")
    fail(kind, "%s: %s" % (type(e).__name__, str(e).splitlines()[0] if str(e) else ""))

emit("done", ok=True)
