# Where the verify step's seconds go on a real GPU: the phases of the verify script
# (steps/verify/scripts/verify_torch.py), each timed, in the venv given by its python:
#   /path/to/venv/bin/python scripts/device/verifyprofile.py [N]
# Prints one line of phase=seconds. Run it right after a repair to see the step as doctor --fix does.
import sys, time

t0 = time.perf_counter()
marks = []


def mark(name):
    marks.append((name, time.perf_counter()))


import torch
mark("import_torch")
torch.backends.cudnn.version()
mark("cudnn_version")
torch.cuda.get_arch_list()
mark("arch_list")
ok = torch.cuda.is_available()
mark("is_available")
for i in range(torch.cuda.device_count()):
    torch.cuda.get_device_capability(i), torch.cuda.get_device_name(i)
mark("device_props")
N = int(sys.argv[1]) if len(sys.argv) > 1 else 256
torch.manual_seed(0)
a, b = torch.randn(N, N), torch.randn(N, N)
ref = a.double() @ b.double()
mark("cpu_ref")
ac, bc = a.cuda(), b.cuda()
torch.cuda.synchronize()
mark("to_cuda(context)")
g = ac @ bc
torch.cuda.synchronize()
mark("matmul(cublas)")
(g.cpu().double() - ref).abs().max().item()
mark("compare")
prev = t0
print(" ".join("%s=%.3f" % (n, t - p) for (n, t), p in zip(marks, [t0] + [t for _, t in marks[:-1]])), "total=%.3f" % (marks[-1][1] - t0))
