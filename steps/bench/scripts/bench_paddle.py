"""gpuwiz GPU benchmark for PaddlePaddle: one JSON object per line on stdout (protocol in steps/bench/event.go)."""
import re


def is_oom(e):
    # Paddle's Python layer raises its ResourceExhausted errors as MemoryError (some builds as ResourceExhaustedError).
    text = str(e).lower()
    return "resourceexhausted" in type(e).__name__.lower() or "out of memory" in text or isinstance(e, MemoryError)


def arch_problem(e):
    text = str(e).lower()
    return "no kernel image" in text or "invalid device function" in text or "not compatible" in text


def summary(e):
    """The line of a Paddle error worth showing. Paddle's messages start with blank lines, maybe a C++
    traceback (FLAGS_call_stack_level=2), then 'Error Message Summary:' between dashed rules and the
    cause, often as 'ResourceExhaustedError: ' with its text on a later line and ' (at file.cc:N)' after."""
    text = str(e)
    if "Error Message Summary:" in text:
        text = text.rsplit("Error Message Summary:", 1)[1]
    lines = [l.strip() for l in text.splitlines()]
    lines = [l for l in lines if l.strip("-")]
    if not lines:
        return ""
    line = lines[0]
    if line.endswith(":") and len(lines) > 1:
        line += " " + lines[1]
    return re.sub(r"\s*\(at [^()]*\)$", "", line)


hello("paddle")
try:
    import numpy as np
    import paddle
except Exception as e:
    fail("import", "cannot import paddle: %s: %s" % (type(e).__name__, e))

version = getattr(paddle, "__version__", "?")
if not paddle.is_compiled_with_cuda():
    fail("no-cuda-build", "paddle %s is a CPU-only build (install paddlepaddle-gpu from the official index)" % version,
         framework="paddle", framework_version=str(version))
cuda_build = paddle.version.cuda()
count = paddle.device.cuda.device_count()
if count == 0:
    fail("no-device", "paddle %s (CUDA %s) sees no usable GPU" % (version, cuda_build),
         framework_version=str(version), cuda=str(cuda_build), visible=os.environ.get("CUDA_VISIBLE_DEVICES"))
if args.gpu < 0 or args.gpu >= count:
    fail("no-device", "GPU %d asked for, but paddle sees %d device(s)" % (args.gpu, count))

paddle.set_device("gpu:%d" % args.gpu)
props = paddle.device.cuda.get_device_properties(args.gpu)
capability = "%d.%d" % (props.major, props.minor)
total = int(props.total_memory)


def free_memory():
    """Free bytes on the card and whether that is a guess. Paddle 3.x has paddle.cuda.mem_get_info
    (cudaMemGetInfo, added in 2025; it takes 'gpu:N' in every version that has it, an int only in later
    ones). Paddle 2.x has no binding of cudaMemGetInfo at all (paddle.device.cuda only reports what its
    own allocator holds), and the allocator grows on demand, so there the plan is 90% of the card: memory
    other processes hold is not seen, and a size that does not fit fails as out of memory and is retried
    at half the size."""
    try:
        from paddle import cuda as paddle_cuda
        free_bytes, _ = paddle_cuda.mem_get_info("gpu:%d" % args.gpu)
        if int(free_bytes) > 0:
            return int(free_bytes), False
    except Exception:
        pass
    return int(total * 0.9), True


free, free_estimated = free_memory()
try:
    tf32 = bool(paddle.get_flags(["FLAGS_allow_tf32_cublas"])["FLAGS_allow_tf32_cublas"])
except Exception:
    tf32 = False
emit("device", framework="paddle", version=version, cuda=str(cuda_build), index=args.gpu, name=props.name,
     uuid="", pci_bus_id="", capability=capability, total_mib=total // 2**20, free_mib=free // 2**20,
     free_estimated=free_estimated, tf32=tf32, arch_list=[], pid=os.getpid(), device_count=count)


def sync():
    paddle.device.cuda.synchronize()


try:
    probe = paddle.ones([16], dtype="float32") * 2
    sync()
    float(probe.sum())
except Exception as e:
    if arch_problem(e):
        fail("arch-missing", "paddle %s has no kernels for compute capability %s: %s" % (version, capability, summary(e)))
    fail("no-device", "the first CUDA kernel failed: %s: %s" % (type(e).__name__, summary(e)))

dtypes = ["fp32"]
if props.major >= 7:
    dtypes.append("fp16")
if props.major >= 8:
    dtypes.append("bf16")
PADDLE_DTYPE = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16"}
NBYTES = {"fp32": 4, "fp16": 2, "bf16": 2}
sizes = [4096, 8192] if args.quick else [2048, 4096, 8192]
repeats = 15 if args.quick else 40
# cpu matmul + one step per dtype and size + copy + one check per dtype
emit("plan", steps=2 + len(dtypes) * (len(sizes) + 1))
MIN_N = 1024


def timed_ms(fn, inner):
    sync()
    t0 = time.perf_counter()
    for _ in range(inner):
        fn()
    sync()
    return (time.perf_counter() - t0) * 1000.0 / inner


def gpu_matmul(name, n):
    while True:
        a = b = None
        try:
            a = paddle.randn([n, n], dtype="float32").astype(PADDLE_DTYPE[name])
            b = paddle.randn([n, n], dtype="float32").astype(PADDLE_DTYPE[name])
            run = lambda: paddle.matmul(a, b)
            for _ in range(3):
                run()
            once = timed_ms(run, 1)
            inner = max(1, int(5.0 / max(once, 1e-3)))  # host timing: each sample spans ≥ 5 ms
            return n, median([timed_ms(run, inner) for _ in range(repeats)])
        except Exception as e:
            if not is_oom(e):
                raise
            del a, b
            try:
                paddle.device.cuda.empty_cache()
            except Exception:
                pass
            retry = n // 2
            emit("oom", op="matmul", dtype=name, n=n, retry_n=retry if retry >= MIN_N else 0, message=summary(e))
            if retry < MIN_N:
                fail("oom", "out of memory even at %d×%d %s" % (n, n, name))
            n = retry


def tflops(n, ms):
    return 2.0 * n ** 3 / (ms / 1000.0) / 1e12


try:
    cpu_n = 1024 if args.quick else 2048
    emit("step", name="matmul cpu fp32 %d" % cpu_n)
    ca = np.random.standard_normal((cpu_n, cpu_n)).astype(np.float32)
    cb = np.random.standard_normal((cpu_n, cpu_n)).astype(np.float32)
    paddle.set_device("cpu")
    ta, tb = paddle.to_tensor(ca), paddle.to_tensor(cb)
    paddle.matmul(ta, tb).numpy()
    times = []
    for _ in range(3 if args.quick else 5):
        t0 = time.perf_counter()
        paddle.matmul(ta, tb).numpy()
        times.append((time.perf_counter() - t0) * 1000.0)
    del ta, tb
    ms = median(times)
    paddle.set_device("gpu:%d" % args.gpu)
    emit("result", op="matmul", device="cpu", dtype="fp32", n=cpu_n, ms=ms, tflops=tflops(cpu_n, ms), tf32=False)

    for name in dtypes:
        for n in sizes:
            if 3 * n * n * NBYTES[name] * 1.25 >= free:
                emit("skip", op="matmul", dtype=name, n=n, reason="needs %d MiB, %d MiB %s" % (
                    3 * n * n * NBYTES[name] // 2**20, free // 2**20, "planned on" if free_estimated else "free"))
                continue
            emit("step", name="matmul cuda %s %d" % (name, n))
            got_n, ms = gpu_matmul(name, n)
            emit("result", op="matmul", device="cuda", dtype=name, n=got_n, ms=ms, tflops=tflops(got_n, ms),
                 tf32=tf32 if name == "fp32" else False)

    copy_bytes = min(1 << 30, int(free * 0.2)) // 4 * 4
    emit("step", name="copy cuda %d MiB" % (copy_bytes // 2**20))
    src = paddle.randn([copy_bytes // 4], dtype="float32")
    dst = paddle.empty_like(src)
    for _ in range(3):
        paddle.assign(src, output=dst)
    ms = median([timed_ms(lambda: paddle.assign(src, output=dst), 5) for _ in range(repeats)])
    emit("result", op="copy", device="cuda", dtype="fp32", bytes=copy_bytes, ms=ms, gbps=2.0 * copy_bytes / (ms / 1000.0) / 1e9)
    del src, dst

    check_n = 512
    thresholds = {"fp32": 1e-2 if tf32 else 1e-4, "fp16": 1e-2, "bf16": 3e-2}
    for name in dtypes:
        emit("step", name="check %s %d" % (name, check_n))
        a = np.random.standard_normal((check_n, check_n))
        b = np.random.standard_normal((check_n, check_n))
        want = a @ b
        ga = paddle.to_tensor(a.astype(np.float32)).astype(PADDLE_DTYPE[name])
        gb = paddle.to_tensor(b.astype(np.float32)).astype(PADDLE_DTYPE[name])
        got = paddle.matmul(ga, gb).astype("float32").numpy().astype(np.float64)
        rel = float(np.linalg.norm(got - want) / np.linalg.norm(want))
        ok = rel == rel and rel < thresholds[name]
        emit("check", dtype=name, n=check_n, rel_err=rel, threshold=thresholds[name], ok=ok)
except SystemExit:
    raise
except Exception as e:
    kind = "arch-missing" if arch_problem(e) else ("oom" if is_oom(e) else "runtime")
    fail(kind, "%s: %s" % (type(e).__name__, summary(e)))

emit("done", ok=True)
