"""Times google-research/fast-soft-sort's numpy soft rank (Blondel et al. 2020) beside
rankgrad's SoftRankBenchmark, with the same query sizes, strength and data distribution: the
soft-rank node (forward, then the VJP of a fixed cotangent) and the soft-rank nDCG loss written
around it in numpy (nDCG of the soft ranks with its ideal DCG, dL/dr, then the VJP).

    PYTHONPATH=/path/to/fast-soft-sort python3 benchmarks/reference/fast_soft_sort_timing.py

fast-soft-sort runs its pool-adjacent-violators in numba when numba is installed (it warns
otherwise); its VJP walks the blocks in a Python loop (a scipy softmax per block for "kl"). Prints
one line per (m, regularization): the median over repeats after a warm-up call (numba's
compilation), 200 repeats below m = 10^6; at m = 10^6 no warm-up (numba compiled already), 3
repeats for "l2" and 1 for "kl", whose per-block loop takes minutes there.
"""
import sys
import time

import numpy as np
from fast_soft_sort import numpy_ops

EPS = 0.1


def soft_rank_node(values, g, reg):
    op = numpy_ops.SoftRank(values, direction="DESCENDING", regularization_strength=EPS, regularization=reg)
    op.compute()
    return op.vjp(g)


def soft_rank_ndcg(values, labels, reg):
    op = numpy_ops.SoftRank(values, direction="DESCENDING", regularization_strength=EPS, regularization=reg)
    r = op.compute()
    gains = np.exp2(labels) - 1
    ideal = np.sort(gains)[::-1]
    idcg = np.sum(ideal / np.log2(np.arange(2, len(ideal) + 2)))
    log = np.log2(1 + r)
    loss = -np.sum(gains / log) / idcg
    grad_r = gains / (np.log(2) * (1 + r) * log * log) / idcg
    return loss, op.vjp(grad_r)


def median_seconds(f, repeats, warm_up=True):
    if warm_up:
        f()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def main():
    import numba
    import scipy
    print("numpy", np.__version__, "scipy", scipy.__version__, "numba", numba.__version__, "python",
          sys.version.split()[0])
    rng = np.random.default_rng(2020)
    for m in (10, 100, 1000, 1000000):
        values = rng.normal(size=m).astype(np.float32).astype(np.float64)
        g = rng.normal(size=m)
        labels = rng.integers(0, 5, size=m).astype(np.float64)
        for reg in ("l2", "kl"):
            large = m == 1000000
            repeats = (3 if reg == "l2" else 1) if large else 200
            node = median_seconds(lambda: soft_rank_node(values, g, reg), repeats, not large)
            loss = median_seconds(lambda: soft_rank_ndcg(values, labels, reg), repeats, not large)
            print("m=%d reg=%s softRank %.1f us softRankNdcg %.1f us" % (m, reg, node * 1e6, loss * 1e6), flush=True)


if __name__ == "__main__":
    main()
