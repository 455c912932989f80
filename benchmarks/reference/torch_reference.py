"""PyTorch 2.x (CPU) references for the JMH benchmarks, written the straightforward way (a B x m x m
pair tensor per query batch), as a PyTorch user would:

    $RANKGRAD_PYTHON benchmarks/reference/torch_reference.py step [threads]     # TrainingStepBenchmark
    $RANKGRAD_PYTHON benchmarks/reference/torch_reference.py losses [threads]   # RankLossBenchmark

step: one training step of Yu's R4.L with twin-sigmoid nDCG-type3 on 128 queries x 120 documents
x 136 features, Adam with L2 1e-3. losses: forward + backward of nDCG-type3 and ApproxNDCG
(alpha 10) on 128 queries of m documents. Each prints median milliseconds, after a line with
torch's version and BLAS. NdcgType3 is imported by torch_train.py (the PyTorch training loop of
the epoch benchmark and of the optimization-gap comparison).
"""
import math
import re
import statistics
import sys
import time

try:
    import torch
except ImportError:
    sys.exit("PyTorch is missing: pip install torch (CPU build: pip install torch --index-url "
             "https://download.pytorch.org/whl/cpu), or point RANKGRAD_PYTHON at a Python that has it")


def describe_torch():
    """'torch 2.13.0+cpu, BLAS mkl (oneMKL 2024.2), oneDNN v3.12.0, CPU capability AVX512, 2 threads'."""
    config = torch.__config__.show()
    blas = next((p.split("=", 1)[1] for p in config.replace(",", " ").split() if p.startswith("BLAS_INFO=")), "unknown")
    parts = [f"torch {torch.__version__}", f"BLAS {blas}"]
    for line in config.splitlines():
        line = line.strip(" -")
        if "Math Kernel Library Version" in line:
            parts[-1] += " (oneMKL " + line.split("Version", 1)[1].split("-")[0].strip() + ")"
        elif line.startswith("Intel(R) MKL-DNN") or line.startswith("oneDNN"):
            version = re.search(r"v\d+(\.\d+)*", line)
            parts.append("oneDNN " + (version.group(0) if version else "?"))
        elif line.startswith("CPU capability usage"):
            parts.append("CPU capability " + line.split(":", 1)[1].strip())
    parts.append(f"{torch.get_num_threads()} threads")
    return ", ".join(parts)


def ideal_dcg(gains):
    ideal = torch.sort(gains, dim=1, descending=True).values
    disc = 1 / torch.log2(torch.arange(2, gains.shape[1] + 2, dtype=gains.dtype))
    return (ideal * disc).sum(1).clamp_min(1e-12)


class NdcgType3(torch.autograd.Function):
    """-nDCG of exact ranks forward (mean over the batch's queries, or their sum); Yu's type-3 pair
    derivative backward (alpha_b = 1). NdcgType3.apply(s, y[, ties[, scale]]): ties "random" (default;
    a tiny noise draws the order of tied scores, as rankgrad draws one per query per step) or "stable"
    (tied scores keep input order); scale "mean" (default) or "sum"."""

    @staticmethod
    def forward(ctx, s, y, ties="random", scale="mean"):
        if ties == "stable":
            order = torch.argsort(-s, dim=1, stable=True)
        else:
            noise = torch.rand_like(s) * 1e-6  # random tie-breaking of exact ranks
            order = torch.argsort(-(s + noise), dim=1)
        ranks = torch.empty_like(s)
        ranks.scatter_(1, order, torch.arange(1, s.shape[1] + 1, dtype=s.dtype).expand_as(s).contiguous())
        gains = torch.pow(2.0, y) - 1
        idcg = ideal_dcg(gains)
        ndcg = (gains / torch.log2(ranks + 1)).sum(1) / idcg
        ctx.save_for_backward(s, y, ranks, gains, idcg)
        ctx.div = s.shape[0] if scale == "mean" else 1
        return -ndcg.sum() / ctx.div

    @staticmethod
    def backward(ctx, g):
        s, y, ranks, gains, idcg = ctx.saved_tensors
        dldr = -(-gains / (math.log(2) * (ranks + 1) * torch.log2(ranks + 1) ** 2)) / idcg[:, None] / ctx.div
        z = s[:, :, None] - s[:, None, :]
        sb = torch.sigmoid(z)
        u = torch.sign(y[:, :, None] - y[:, None, :])
        d = torch.where(u > 0, 2 * (1 - sb), torch.where(u < 0, -2 * sb, torch.zeros_like(sb)))
        # r_i = 1 + sum_j (1 - sigma+(s_i - s_j)): dr_i/ds_i = -sum_j d_ij, dr_i/ds_j = d_ij
        grad = -dldr * d.sum(2) + torch.einsum("bi,bij->bj", dldr, d)
        return g * grad, None, None, None


def approx_ndcg(s, y, alpha=10.0):
    """-mean nDCG of Qin's approximate ranks pi(i) = 1 + sum_{j != i} sigmoid(alpha (s_j - s_i)), autograd backward."""
    z = s[:, None, :] - s[:, :, None]
    ranks = 0.5 + torch.sigmoid(alpha * z).sum(2)  # the j = i term adds sigmoid(0) = 0.5
    gains = torch.pow(2.0, y) - 1
    return -((gains / torch.log2(ranks + 1)).sum(1) / ideal_dcg(gains)).mean()


def median_ms(fn, repeats):
    for _ in range(3):
        fn()
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def step_benchmark():
    B, M, D = 128, 120, 136
    layers = []
    width = D
    for _ in range(4):
        layers += [torch.nn.Linear(width, 100), torch.nn.BatchNorm1d(100), torch.nn.ReLU()]
        width = 100
    layers.append(torch.nn.Linear(width, 1))
    model = torch.nn.Sequential(*layers)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-3)
    x = torch.randn(B * M, D)
    y = torch.randint(0, 5, (B, M)).float()

    def step():
        opt.zero_grad()
        loss = NdcgType3.apply(model(x).view(B, M), y)
        loss.backward()
        opt.step()

    ms = median_ms(step, 30)
    print(f"torch R4.L nDCG-type3 training step: {ms:.1f} ms"
          f" ({B * M / ms * 1000:.0f} documents/s)")


def losses_benchmark():
    for m in (32, 120, 512, 1000):
        s = torch.randn(128, m, requires_grad=True)
        y = torch.randint(0, 5, (128, m)).float()
        repeats = 20 if m < 1000 else 5

        def type3():
            NdcgType3.apply(s, y).backward()

        def approx():
            approx_ndcg(s, y).backward()

        print(f"torch B=128 m={m}: nDCG-type3 {median_ms(type3, repeats):.2f} ms,"
              f" ApproxNDCG {median_ms(approx, repeats):.2f} ms")


def main():
    what = sys.argv[1] if len(sys.argv) > 1 else "step"
    if what not in ("step", "losses"):
        sys.exit("usage: torch_reference.py step|losses [threads]")
    torch.set_num_threads(int(sys.argv[2]) if len(sys.argv) > 2 else 2)
    torch.manual_seed(42)
    print(describe_torch())
    step_benchmark() if what == "step" else losses_benchmark()


if __name__ == "__main__":
    main()
