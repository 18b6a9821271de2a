"""Reference timing for gpuwiz bench on real hardware: the same shapes, timed independently.

Prints one JSON object: median ms and TFLOPS of fp32 4096x4096 and bf16 8192x8192 matmuls, with
torch CUDA events (median of 100 single calls after warm-up) and, when triton is installed,
triton.testing.do_bench's median. Run: python3 testdata/bench/reference_torch.py [--gpu N]
"""
import argparse
import json
import statistics

import torch

parser = argparse.ArgumentParser()
parser.add_argument("--gpu", type=int, default=0)
args = parser.parse_args()
torch.cuda.set_device(args.gpu)
dev = torch.device("cuda", args.gpu)
out = {"device": torch.cuda.get_device_name(args.gpu), "torch": torch.__version__,
       "tf32": bool(torch.backends.cuda.matmul.allow_tf32), "shapes": {}}
for name, dt, n in (("fp32_4096", torch.float32, 4096), ("bf16_8192", torch.bfloat16, 8192)):
    a = torch.randn(n, n, device=dev, dtype=dt)
    b = torch.randn(n, n, device=dev, dtype=dt)
    for _ in range(10):
        torch.matmul(a, b)
    torch.cuda.synchronize(dev)
    times = []
    for _ in range(100):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        torch.matmul(a, b)
        e.record()
        e.synchronize()
        times.append(s.elapsed_time(e))
    ms = statistics.median(times)
    row = {"events_ms": ms, "events_tflops": 2 * n ** 3 / (ms / 1e3) / 1e12}
    try:
        from triton.testing import do_bench
        ms = do_bench(lambda: torch.matmul(a, b), return_mode="median")
        row.update(do_bench_ms=ms, do_bench_tflops=2 * n ** 3 / (ms / 1e3) / 1e12)
    except Exception as e:  # triton missing or too old for return_mode
        row["do_bench_error"] = str(e)
    out["shapes"][name] = row
print(json.dumps(out, indent=2))
