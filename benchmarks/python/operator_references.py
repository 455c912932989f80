"""The references of OperatorBenchmark: each rank operator and loss of docs/operators.md and
docs/losses.md as its published implementation computes it, checked against rankgrad's float64
value and gradient on the same data, then timed (forward + backward, the score gradient out).

    PYTHONPATH=/path/to/fast-soft-sort python3 benchmarks/python/operator_references.py --dir D --m 100 \
        --ops ndcgloss2++ softmax-ce ... [--check] [--seconds 1] > D/reference-100.txt

D/data-M.txt and D/rankgrad-M.txt come from rankgrad.benchmarks.OperatorCheck (scripts/bench-operators
runs both). Which reference computes which operator:

- node:softrank-*, node:softsort-*, ndcg~softrank-*: google-research/fast-soft-sort's numpy code itself
  (numpy_ops.SoftRank / SoftSort, DESCENDING, "l2" = q, "kl" = e), one query at a time as its
  PyTorch wrapper loops; float64, its isotonic regression in numba. torchsort has no wheel here.
- neuralsort, softsort, neural-ndcg: NeuralSort (Grover et al. 2019, Eq. 5), SoftSort (Prillo &
  Eisenschlos 2020, Eq. 2) and NeuralNDCG with Sinkhorn scaling (Pobrotyn & Bialobrzeski 2021) in
  PyTorch, batched B x m x m as allRank computes them (its deterministic_neural_sort and
  sinkhorn_scaling), autograd for the backward.
- diffsort-*: a relaxed sorting network in PyTorch as the diffsort package runs one (Petersen et al.
  2021, 2022): layer by layer on the values and on the document x wire matrix X, binary
  cross-entropy with PyTorch's BCE against the grade order; on rankgrad's network (diffsort's own
  bitonic padding does not sort every m, docs/losses.md), with its comparators applied by index
  rather than as diffsort's dense m x m layer products (faster than diffsort).
- ndcgloss1/2/2++: LambdaLoss (Wang et al. 2018) as allRank's lambdaLoss: B x m x m pair tensors,
  constant weights, autograd.
- softmax-ce: TF-Ranking's softmax loss in PyTorch (log_softmax, grades normalized per list).
- lambdarank-lgbm: LightGBM's LambdarankNDCG::GetGradientsForOneQuery (rank_objective.hpp) as
  batched PyTorch arithmetic on B x m x m pair tensors (not a gradient; no autograd).

Written from the papers and the formulas of docs/losses.md and docs/operators.md (the references'
own code was read, not copied). Conventions follow rankgrad where the references differ in a way
docs/losses.md describes (mean over all queries, Sinkhorn stopped per query, no 1e-10 clamps, tied
grades sharing their wires), so that the check compares like with like.
Check: |value - rankgrad's| <= 1e-6 max(1, |value|) and max |gradient - rankgrad's| <= 1e-6 max |gradient|
(float64 on both sides). Timing: float32 tensors in PyTorch (as allRank and diffsort train),
float64 in fast-soft-sort's numpy; one warm-up call, then calls until --seconds, mean of them.
Output: one line per op, "op m queries ms check", check "ok 3.1e-12" or "FAIL ..." or "-" (not run).
"""
import argparse
import math
import os
import sys
import time

LOG2 = math.log(2.0)


def read_data(path):
    """Grades, scores and cotangent as the float32 values Java wrote (its shortest decimals name float32
    values: each is read as float32, then widened exactly, as rankgrad widens them)."""
    import numpy as np

    def floats(line):
        return [float(v) for v in np.array(line.split(), dtype=np.float32)]
    with open(path) as f:
        queries, m = map(int, f.readline().split())
        y, s, g = [], [], []
        for _ in range(queries):
            y.append(floats(f.readline()))
            s.append(floats(f.readline()))
            g.append(floats(f.readline()))
    return queries, m, y, s, g


def read_rankgrad(path):
    out = {}
    with open(path) as f:
        lines = f.read().splitlines()
    for i in range(0, len(lines), 2):
        name, value = lines[i].rsplit(" ", 1)
        out[name] = (float(value), [float(v) for v in lines[i + 1].split()])
    return out


# ---------------------------------------------------------------- fast-soft-sort (numpy)

def fss_node(kind, y, s, g, np, numpy_ops):
    """kind 'softrank-q:0.1' etc.: sum over queries of <cotangent, output>, gradient = VJP."""
    op_name, eps = kind.split(":")
    cls = numpy_ops.SoftRank if op_name.startswith("softrank") else numpy_ops.SoftSort
    reg = "l2" if op_name.endswith("-q") else "kl"

    def run():
        value, grads = 0.0, []
        for sq, gq in zip(s, g):
            op = cls(sq, direction="DESCENDING", regularization_strength=float(eps), regularization=reg)
            out = op.compute()
            value += float(np.dot(out, gq))
            grads.append(op.vjp(gq))
        return value, np.concatenate(grads)
    return run


def fss_ndcg(kind, y, s, np, numpy_ops):
    """ndcg~softrank-q:EPS: minus the mean over queries of nDCG at the soft ranks (no cutoff)."""
    reg = "l2" if kind.split(":")[0].endswith("-q") else "kl"
    eps = float(kind.split(":")[1])
    gains = [np.exp2(yq) - 1 for yq in y]
    ideal = [np.sum(np.sort(gq)[::-1] / np.log2(np.arange(2, len(gq) + 2))) for gq in gains]
    queries = len(s)

    def run():
        value, grads = 0.0, []
        for sq, gq, idcg in zip(s, gains, ideal):
            op = numpy_ops.SoftRank(sq, direction="DESCENDING", regularization_strength=eps, regularization=reg)
            r = op.compute()
            if idcg <= 0:
                grads.append(np.zeros_like(sq))
                continue
            log = np.log2(1 + r)
            value -= np.sum(gq / log) / idcg / queries
            grad_r = gq / (LOG2 * (1 + r) * log * log) / idcg / queries
            grads.append(op.vjp(grad_r))
        return value, np.concatenate(grads)
    return run


# ---------------------------------------------------------------- PyTorch references

def discounts(torch, m, dtype):
    return 1.0 / torch.log2(torch.arange(2, m + 2, dtype=dtype))


def ideal_dcg(torch, gains, k=None):
    ideal = torch.sort(gains, dim=1, descending=True).values
    d = discounts(torch, gains.shape[1], gains.dtype)
    if k is not None:
        d = torch.where(torch.arange(gains.shape[1]) < k, d, torch.zeros_like(d))
    return (ideal * d).sum(1)


def neural_sort(torch, s, tau):
    """Grover et al. Eq. 5: P_ij = softmax_j(((m + 1 - 2i) s_j - sum_k |s_j - s_k|) / tau), i = 1..m."""
    m = s.shape[1]
    pairwise = (s[:, :, None] - s[:, None, :]).abs().sum(2)  # B x m: sum_k |s_j - s_k|
    scale = (m + 1 - 2 * torch.arange(1, m + 1, dtype=s.dtype))
    logits = scale[None, :, None] * s[:, None, :] - pairwise[:, None, :]
    return torch.softmax(logits / tau, dim=2)


def prillo_soft_sort(torch, s, tau):
    """Prillo & Eisenschlos Eq. 2 with |.|: P_ij = softmax_j(-|sort(s)_i - s_j| / tau), sort decreasing."""
    ordered = torch.sort(s, dim=1, descending=True).values
    return torch.softmax(-(ordered[:, :, None] - s[:, None, :]).abs() / tau, dim=2)


def sinkhorn(torch, p, iterations, tol=1e-6):
    """Columns then rows, each sum clamped at 1e-10; a query stops after its first iteration with every
    row and column sum within tol of 1 (allRank stops the whole batch at once; rankgrad per query)."""
    active = torch.ones(p.shape[0], dtype=torch.bool)
    for _ in range(iterations):
        q = p / p.sum(1, keepdim=True).clamp(min=1e-10)
        q = q / q.sum(2, keepdim=True).clamp(min=1e-10)
        p = torch.where(active[:, None, None], q, p)
        with torch.no_grad():
            done = ((q.sum(2) - 1).abs().amax(1) < tol) & ((q.sum(1) - 1).abs().amax(1) < tol)
            active = active & ~done
        if not bool(active.any()):
            break
    return p


def relaxed_ndcg(torch, kind, y, s):
    """neuralsort:TAU, softsort:TAU, neural-ndcg:TAU:ITER: minus the mean over queries of
    sum_i D(i) (P g)_i / IDCG, P the relaxed sort (Sinkhorn-scaled for neural-ndcg)."""
    parts = kind.split(":")
    tau = float(parts[1])
    gains = torch.exp2(y) - 1
    idcg = ideal_dcg(torch, gains)
    d = discounts(torch, y.shape[1], y.dtype)
    has = idcg > 0

    def loss(x):
        p = prillo_soft_sort(torch, x, tau) if parts[0] == "softsort" else neural_sort(torch, x, tau)
        if parts[0] == "neural-ndcg":
            p = sinkhorn(torch, p, int(parts[2]) if len(parts) > 2 else 50)
        dcg = ((p @ gains[:, :, None])[:, :, 0] * d).sum(1)
        ndcg = torch.where(has, dcg / torch.where(has, idcg, torch.ones_like(idcg)), torch.zeros_like(dcg))
        return -ndcg.mean()
    return loss


def network_layers(kind, m):
    """rankgrad's SortingNetwork as layers of disjoint comparators (min wire, max wire), and the output
    wire of each ascending rank: odd-even transposition, or bitonic on 2^ceil(log2 m) wires with the
    lowest ones padding at minus infinity (a comparator of padding and a real wire relabels wires)."""
    if kind == "oddeven":
        layers = [[(i, i + 1) for i in range(layer % 2, m - 1, 2)] for layer in range(m)]
        return [layer for layer in layers if layer], list(range(m))
    blocks = (m - 1).bit_length()
    padded = 1 << blocks
    dropped = padded - m
    slot = [w - dropped if w >= dropped else -1 for w in range(padded)]
    layers = []
    for block in range(blocks):
        for layer in range(block + 1):
            half = 1 << (block - layer)
            comparators = []
            for i in range(0, padded, 2 * half):
                for j in range(half):
                    lo, hi = i + j, i + j + half
                    descending = (lo >> (block + 1)) & 1 == 1
                    if slot[lo] >= 0 and slot[hi] >= 0:
                        a, b = slot[lo], slot[hi]
                        comparators.append((b, a) if descending else (a, b))
                    elif (slot[lo] >= 0) != (slot[hi] >= 0):
                        if slot[hi if descending else lo] >= 0:
                            slot[lo], slot[hi] = slot[hi], slot[lo]
            if comparators:
                layers.append(comparators)
    return layers, [slot[dropped + r] for r in range(m)]


def diffsort_loss(torch, kind, y, s):
    """diffsort-NET[-SIGMOID]:BETA: BCE between the relaxed permutation X (document x output wire,
    ascending) and the grade order, tied grades spread over their block of wires."""
    import torch.nn.functional as F
    name, beta = kind.split(":")
    beta = float(beta)
    net = name.split("-")[1]
    sigmoid = name.split("-")[2] if name.count("-") > 1 else "cauchy"
    f = {"cauchy": lambda v: torch.atan(v) / math.pi + 0.5, "logistic": torch.sigmoid}[sigmoid]
    b_, m = y.shape
    layers, output = network_layers(net, m)
    index = [(torch.tensor([c[0] for c in layer]), torch.tensor([c[1] for c in layer])) for layer in layers]
    # Target: T_dw = 1 / |tie group| on the wires of the document's grade group in ascending order.
    target = torch.zeros(b_, m, m, dtype=y.dtype)
    for q in range(b_):
        ordered = torch.sort(y[q]).values
        for d in range(m):
            lo = int(torch.searchsorted(ordered, y[q, d], right=False))
            hi = int(torch.searchsorted(ordered, y[q, d], right=True))
            target[q, d, lo:hi] = 1.0 / (hi - lo)
    out = torch.tensor(output)
    eye = torch.eye(m, dtype=y.dtype).expand(b_, m, m)

    def loss(x):
        xs, big = x, eye
        for lo, hi in index:
            a, b = xs[:, lo], xs[:, hi]
            alpha = f(beta * (b - a))
            xs = xs.index_copy(1, lo, alpha * a + (1 - alpha) * b).index_copy(1, hi, (1 - alpha) * a + alpha * b)
            ca, cb, al = big[:, :, lo], big[:, :, hi], alpha[:, None, :]
            big = big.index_copy(2, lo, al * ca + (1 - al) * cb).index_copy(2, hi, (1 - al) * ca + al * cb)
        return F.binary_cross_entropy(big[:, :, out].clamp(0, 1), target)
    return loss


def lambda_loss(torch, kind, y, s):
    """ndcgloss1 / ndcgloss2 / ndcgloss2++ (mu 10), sigma 1, no truncation: sum over position pairs of
    w_pq log2(1 + e^{-(s_p - s_q)}) with weights at the current positions; mean over queries."""
    m = y.shape[1]
    gains = torch.exp2(y) - 1
    maxdcg = ideal_dcg(torch, gains)
    has = maxdcg > 0
    pos = torch.arange(1, m + 1, dtype=y.dtype)
    dpos = 1.0 / torch.log2(1 + pos)

    def loss(x):
        order = torch.sort(x, dim=1, descending=True).indices
        xs = torch.gather(x, 1, order)
        with torch.no_grad():
            g = torch.gather(gains, 1, order) / torch.where(has, maxdcg, torch.ones_like(maxdcg))[:, None]
            ys = torch.gather(y, 1, order)
            if kind == "ndcgloss1":
                w = (g * dpos)[:, :, None].expand(-1, -1, m)
            else:
                gap = (pos[:, None] - pos[None, :]).abs()
                gap_d = (1.0 / torch.log2(1 + gap.clamp(min=1)) - 1.0 / torch.log2(2 + gap)).abs()
                dg = (g[:, :, None] - g[:, None, :]).abs()
                w = gap_d * dg
                if kind == "ndcgloss2++":
                    w = 10.0 * w + (dpos[:, None] - dpos[None, :]).abs() * dg
                w = torch.where(ys[:, :, None] > ys[:, None, :], w, torch.zeros_like(w))
            w = torch.where(has[:, None, None], w, torch.zeros_like(w))
        terms = torch.nn.functional.softplus(-(xs[:, :, None] - xs[:, None, :])) / LOG2
        return (w * terms).sum((1, 2)).mean()
    return loss


def softmax_ce(torch, y, s):
    total = y.sum(1, keepdim=True)
    targets = torch.where(total > 0, y / total.clamp(min=1e-30), torch.zeros_like(y))

    def loss(x):
        return -(targets * torch.log_softmax(x, 1)).sum(1).mean()
    return loss


OFFSET = float(__import__("numpy").float32(0.01))  # LightGBM's 0.01f (rank_objective.hpp), widened


def lightgbm_lambdas(torch, y, s, truncation=30, sigma=1.0):
    """LightGBM 4.x's LambdarankNDCG gradients (lambdarank_norm on), per query, divided by the number of
    queries as rankgrad averages; value 1 - NDCG@T of the current ranking, mean over queries."""
    b_, m = y.shape
    gains = torch.exp2(y) - 1
    maxdcg = ideal_dcg(torch, gains, truncation)
    inv = torch.where(maxdcg > 0, 1.0 / maxdcg.clamp(min=1e-300), torch.zeros_like(maxdcg))
    d = discounts(torch, m, y.dtype)
    pos = torch.arange(m)

    def run(x):
        order = torch.sort(x, dim=1, descending=True, stable=True).indices
        xs, ys, gs = (torch.gather(t, 1, order) for t in (x, y, gains))
        # Pairs of positions p < q with p in the top T and different grades; "high" is the better grade.
        keep = (pos[:, None] < pos[None, :]) & (pos[:, None] < truncation)
        keep = keep & (ys[:, :, None] != ys[:, None, :])
        first_high = ys[:, :, None] > ys[:, None, :]
        diff = xs[:, :, None] - xs[:, None, :]  # s_p - s_q
        delta = (gs[:, :, None] - gs[:, None, :]).abs() * (d[:, None] - d[None, :]).abs() * inv[:, None, None]
        spread = (xs.amax(1) != xs.amin(1))[:, None, None]
        delta = torch.where(spread, delta / (OFFSET + diff.abs()), delta)
        s_high_minus_low = torch.where(first_high, diff, -diff)
        lam = torch.where(keep, sigma * delta / (1 + torch.exp(sigma * s_high_minus_low)), torch.zeros_like(delta))
        # dC/ds_high -= lam, dC/ds_low += lam; p is high where first_high.
        signed = torch.where(first_high, -lam, lam)
        grad_sorted = signed.sum(2) - signed.sum(1)
        total = 2 * lam.sum((1, 2))
        factor = torch.where(total > 0, torch.log2(1 + total) / total.clamp(min=1e-300), torch.ones_like(total))
        grad_sorted = grad_sorted * factor[:, None]
        grad = torch.zeros_like(x).scatter(1, order, grad_sorted) / b_
        top = torch.where(pos < truncation, d, torch.zeros_like(d))
        ndcg = (gs * top).sum(1) * inv
        value = torch.where(maxdcg > 0, 1 - ndcg, torch.zeros_like(ndcg)).mean()
        return value, grad
    return run


def torch_case(torch, kind, y, s):
    if kind.startswith(("neuralsort", "softsort", "neural-ndcg")):
        return relaxed_ndcg(torch, kind, y, s)
    if kind.startswith("diffsort-"):
        return diffsort_loss(torch, kind, y, s)
    if kind.startswith("ndcgloss"):
        return lambda_loss(torch, kind, y, s)
    if kind == "softmax-ce":
        return softmax_ce(torch, y, s)
    raise SystemExit(f"no reference for {kind}")


def reference(kind, m, y, s, g, dtype, libs):
    """A function of no arguments running forward + backward, returning (value, gradient)."""
    np, torch, numpy_ops = libs
    if kind.startswith("node:"):
        return "fast-soft-sort", fss_node(kind[5:], y, np.array(s, dtype=np.float64), np.array(g), np, numpy_ops)
    if "~softrank" in kind:
        return "fast-soft-sort", fss_ndcg(kind.split("~")[1], np.array(y), np.array(s, dtype=np.float64), np,
                                          numpy_ops)
    yt = torch.tensor(y, dtype=dtype)
    st = torch.tensor(s, dtype=dtype)
    if kind == "lambdarank-lgbm":
        fn = lightgbm_lambdas(torch, yt, st)
        return "LightGBM formulas, PyTorch", lambda: fn(st)
    loss = torch_case(torch, kind, yt, st)

    def run():
        x = st.clone().requires_grad_(True)
        value = loss(x)
        value.backward()
        return value, x.grad
    name = {"neuralsort": "allRank-style", "softsort": "SoftSort/allRank-style", "neural-ndcg": "allRank-style",
            "diffsort": "diffsort-style", "ndcgloss1": "allRank-style", "ndcgloss2": "allRank-style",
            "ndcgloss2++": "allRank-style", "softmax-ce": "TF-Ranking-style"}
    key = kind.split(":")[0].split("-oddeven")[0].split("-bitonic")[0]
    return name.get(key, "PyTorch") + " PyTorch", run


def skipped(kind, m):
    """Cases a reference cannot run here, with why."""
    if kind.startswith("diffsort-oddeven") and m >= 1000:
        return "autograd keeps X per layer: m layers x B x m^2 floats (8 GB at m = 1,000)"
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True)
    parser.add_argument("--m", type=int, required=True)
    parser.add_argument("--ops", nargs="+", required=True)
    parser.add_argument("--check", action="store_true", help="check against rankgrad's values before timing")
    parser.add_argument("--no-time", action="store_true", help="check only")
    parser.add_argument("--seconds", type=float, default=1.0, help="time budget per case after the warm-up")
    parser.add_argument("--threads", type=int, default=0, help="PyTorch threads (0: its default)")
    args = parser.parse_args()
    import numpy as np
    import torch
    from fast_soft_sort import numpy_ops
    if args.threads:
        torch.set_num_threads(args.threads)
    libs = (np, torch, numpy_ops)
    queries, m, y, s, g = read_data(os.path.join(args.dir, f"data-{args.m}.txt"))
    ours = read_rankgrad(os.path.join(args.dir, f"rankgrad-{args.m}.txt")) if args.check else {}
    print(f"# torch {torch.__version__} threads {torch.get_num_threads()} numpy {np.__version__}", flush=True)
    for kind in args.ops:
        why = skipped(kind, m)
        if why:
            print(f"{kind}\t{m}\t{queries}\t-\t-\t- ({why})", flush=True)
            continue
        check = "-"
        if args.check:
            label, fn = reference(kind, m, y, s, g, torch.float64, libs)
            value, grad = fn()
            value = float(value.detach() if hasattr(value, 'detach') else value)
            grad = np.asarray(grad.detach().numpy() if hasattr(grad, "detach") else grad, dtype=np.float64).ravel()
            want_value, want_grad = ours[kind]
            want_grad = np.array(want_grad)
            dv = abs(value - want_value) / max(1.0, abs(want_value))
            dg = float(np.max(np.abs(grad - want_grad)) / max(np.max(np.abs(want_grad)), 1e-300))
            # fast-soft-sort's "kl" SoftSort VJP is not the derivative of its forward where a block pools
            # (docs/operators.md): its value is checked, its gradient reported.
            value_only = kind.startswith("node:softsort-e")
            worst = dv if value_only else max(dv, dg)
            check = (f"ok {worst:.1e}" if worst <= 1e-6 else f"FAIL value {value:.10g} vs {want_value:.10g},"
                     f" gradient {dg:.1e}")
            if value_only:
                check += f" (value; gradient {dg:.1e})"
        if args.no_time:
            print(f"{kind}\t{m}\t{queries}\t-\t-\t{check}", flush=True)
            continue
        label, fn = reference(kind, m, y, s, g, torch.float32, libs)
        fn()
        runs, start = 0, time.perf_counter()
        while runs < 3 or time.perf_counter() - start < args.seconds:
            fn()
            runs += 1
        ms = (time.perf_counter() - start) / runs * 1e3
        print(f"{kind}\t{m}\t{queries}\t{ms:.4g}\t{label}\t{check}", flush=True)


if __name__ == "__main__":
    sys.exit(main())
