# gpuwiz doctor: the framework's own check (import, CUDA build, arch list, devices, one computation).
# Prints one JSON line; never raises.
import json, sys, traceback

fw = sys.argv[1]
out = {"imported": False, "checks": []}


def check(name, ok, detail=""):
    out["checks"].append({"name": name, "ok": bool(ok), "detail": str(detail)})


try:
    if fw == "torch":
        import torch
        out["imported"] = True
        out["version"] = str(torch.__version__)
        out["cuda"] = torch.version.cuda or ""
        out["compiled_with_cuda"] = bool(torch.version.cuda)
        try:
            out["arch_list"] = list(torch.cuda.get_arch_list())
        except Exception as e:
            check("torch.cuda.get_arch_list()", False, repr(e))
        avail = torch.cuda.is_available()
        check("torch.cuda.is_available()", avail, "" if avail else "False: CUDA sees no usable GPU")
        if avail:
            out["device_count"] = torch.cuda.device_count()
            try:
                a = torch.ones(3, 3, device="cuda")
                s = (a + a).sum().item()
                check("one computation on cuda:0 (ones(3,3)+ones(3,3))", s == 18.0, "sum = %r, expected 18.0" % s)
            except Exception as e:
                check("one computation on cuda:0 (ones(3,3)+ones(3,3))", False, repr(e))
    else:
        import paddle
        out["imported"] = True
        out["version"] = str(paddle.__version__)
        cuda = paddle.version.cuda()
        out["cuda"] = cuda if isinstance(cuda, str) and cuda != "False" else ""
        compiled = bool(paddle.is_compiled_with_cuda())
        out["compiled_with_cuda"] = compiled
        if compiled:
            n = paddle.device.cuda.device_count()
            out["device_count"] = n
            check("paddle.device.cuda.device_count()", n > 0, "%d device(s)" % n)
            if n > 0:
                try:
                    paddle.set_device("gpu:0")
                    a = paddle.ones([3, 3])
                    s = float((a + a).sum())
                    check("one computation on gpu:0 (ones([3,3])+ones([3,3]))", s == 18.0, "sum = %r, expected 18.0" % s)
                except Exception as e:
                    check("one computation on gpu:0 (ones([3,3])+ones([3,3]))", False, repr(e))
except BaseException:
    out["import_error" if not out["imported"] else "error"] = traceback.format_exc(limit=6)
print(json.dumps(out))
