"""Reference float32 GEMM rates of numpy (OpenBLAS) and PyTorch (MKL) on this machine, for scripts/bench-kernels.

Usage: python3 numpy_gemm.py [--libs numpy,torch] [--repeats N] [--threads 1,2] [--shapes 15360x136x100,...]
Prints one line per (library, shape, threads): "<library> <m>x<k>x<n>[:XY] <threads> <GFLOP/s>".
A shape MxKxN means (M x K) @ (K x N), 2*M*K*N flops; MxKxN:XY with X, Y in {N, T} stores A
(or B) transposed and multiplies its transpose view, as the backward pass of a linear layer does
(both libraries pass the view to their BLAS as a transposed operand, without a copy).
The thread count must be fixed before the library (and so its BLAS thread pool) is loaded, so
every (library, thread count) runs in its own child process. Missing packages: pip install numpy torch.
"""
import argparse
import os
import subprocess
import sys

DEFAULT_SHAPES = "15360x136x100,15360x100x100,1024x1024x1024"


def operands(shape):
    import numpy as np

    dims, _, trans = shape.partition(":")
    m, k, n = (int(x) for x in dims.split("x"))
    trans = trans or "NN"
    rng = np.random.default_rng(42)
    a = rng.standard_normal((k, m) if trans[0] == "T" else (m, k), dtype=np.float32)
    b = rng.standard_normal((n, k) if trans[1] == "T" else (k, n), dtype=np.float32)
    return m, k, n, trans, a, b


def numpy_product(shape):
    import numpy as np

    m, k, n, trans, a, b = operands(shape)
    a = a.T if trans[0] == "T" else a
    b = b.T if trans[1] == "T" else b
    c = np.empty((m, n), dtype=np.float32)
    return 2.0 * m * k * n, lambda: np.matmul(a, b, out=c)


def torch_product(shape):
    import torch

    m, k, n, trans, a, b = operands(shape)
    a = torch.from_numpy(a)
    b = torch.from_numpy(b)
    a = a.t() if trans[0] == "T" else a
    b = b.t() if trans[1] == "T" else b
    c = torch.empty((m, n), dtype=torch.float32)
    return 2.0 * m * k * n, lambda: torch.matmul(a, b, out=c)


def measure(product, repeats):
    import time

    flops, run = product
    # Repeat each timing until it lasts >= 50 ms, so timer resolution and call overhead vanish.
    inner = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(inner):
            run()
        if time.perf_counter() - t0 >= 0.05:
            break
        inner *= 2
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            run()
        times.append((time.perf_counter() - t0) / inner)
    times.sort()
    return flops / times[len(times) // 2] / 1e9


def child(lib, threads, shapes, repeats):
    if lib == "torch":
        try:
            import torch
        except ImportError:
            sys.exit("numpy_gemm.py: PyTorch is missing; pip install torch (or leave it out with --libs numpy)")
        torch.set_num_threads(int(threads))
        make = torch_product
    else:
        try:
            import numpy  # noqa: F401
        except ImportError:
            sys.exit("numpy_gemm.py: numpy is missing; pip install numpy")
        make = numpy_product
    for shape in shapes:
        print(f"{lib} {shape} {threads} {measure(make(shape), repeats):.1f}", flush=True)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--libs", default="numpy,torch", help="numpy (OpenBLAS), torch (MKL), or both")
    p.add_argument("--repeats", type=int, default=11)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--shapes", default=DEFAULT_SHAPES)
    p.add_argument("--child", nargs=2, metavar=("LIB", "THREADS"), help=argparse.SUPPRESS)
    args = p.parse_args()
    shapes = args.shapes.split(",")
    if args.child is not None:
        child(args.child[0], args.child[1], shapes, args.repeats)
        return
    for lib in args.libs.split(","):
        if lib not in ("numpy", "torch"):
            sys.exit(f"numpy_gemm.py: --libs {lib}: use numpy, torch or numpy,torch")
        for t in args.threads.split(","):
            env = dict(os.environ, OPENBLAS_NUM_THREADS=t, OMP_NUM_THREADS=t, MKL_NUM_THREADS=t)
            subprocess.run([sys.executable, __file__, "--child", lib, t, "--repeats", str(args.repeats),
                            "--shapes", args.shapes], env=env, check=True)


if __name__ == "__main__":
    main()
