"""Reference float32 GEMM rate of numpy (OpenBLAS) on this machine, for scripts/bench-kernels.

Usage: python3 numpy_gemm.py [--repeats N] [--threads 1,2] [--shapes 15360x136x100,...]
Prints one line per (shape, threads): "numpy <m>x<k>x<n> <threads> <GFLOP/s>".
A shape MxKxN means (M x K) @ (K x N), 2*M*K*N flops; MxKxN:XY with X, Y in {N, T} stores A
(or B) transposed and multiplies its transpose view, as the backward pass of a linear layer does. The thread count must be fixed before numpy
(and so OpenBLAS) is imported, so every thread count runs in its own child process.
"""
import argparse
import os
import subprocess
import sys

DEFAULT_SHAPES = "15360x136x100,15360x100x100,1024x1024x1024"


def measure(shape, repeats):
    import time
    import numpy as np

    dims, _, trans = shape.partition(":")
    m, k, n = (int(x) for x in dims.split("x"))
    trans = trans or "NN"
    rng = np.random.default_rng(42)
    a = rng.standard_normal((k, m) if trans[0] == "T" else (m, k), dtype=np.float32)
    b = rng.standard_normal((n, k) if trans[1] == "T" else (k, n), dtype=np.float32)
    if trans[0] == "T":
        a = a.T
    if trans[1] == "T":
        b = b.T
    c = np.empty((m, n), dtype=np.float32)
    flops = 2.0 * m * k * n
    # Repeat each timing until it lasts >= 50 ms, so timer resolution and call overhead vanish.
    inner = 1
    while True:
        t0 = time.perf_counter()
        for _ in range(inner):
            np.matmul(a, b, out=c)
        if time.perf_counter() - t0 >= 0.05:
            break
        inner *= 2
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        for _ in range(inner):
            np.matmul(a, b, out=c)
        times.append((time.perf_counter() - t0) / inner)
    times.sort()
    return flops / times[len(times) // 2] / 1e9


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeats", type=int, default=11)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--shapes", default=DEFAULT_SHAPES)
    p.add_argument("--child", help=argparse.SUPPRESS)
    args = p.parse_args()
    shapes = args.shapes.split(",")
    if args.child is not None:
        for shape in shapes:
            print(f"numpy {shape} {args.child} {measure(shape, args.repeats):.1f}", flush=True)
        return
    for t in args.threads.split(","):
        env = dict(os.environ, OPENBLAS_NUM_THREADS=t, OMP_NUM_THREADS=t)
        subprocess.run([sys.executable, __file__, "--child", t, "--repeats", str(args.repeats),
                        "--shapes", args.shapes], env=env, check=True)


if __name__ == "__main__":
    main()
