class _Matmul:
    allow_tf32 = False
    fp32_precision = "ieee"


class _CUDA:
    matmul = _Matmul()


cuda = _CUDA()
