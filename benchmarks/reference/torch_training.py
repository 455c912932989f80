"""A plain PyTorch training loop for the same ranker rankgrad trains, used to compare the two
optimizations (how far each gets in a few epochs) and to bisect where they differ:

    $RANKGRAD_PYTHON benchmarks/reference/torch_training.py DATA_DIR [options]

DATA_DIR holds train.txt and vali.txt (LETOR text, every query with the same number of
documents, as `rankgrad generate` writes them). The defaults are PyTorch's own choices:
R4.L (4 x 100 hidden, Linear -> BatchNorm1d -> ReLU, linear output), twin-sigmoid nDCG-type3
(Yu et al. Eq. 21, alpha_b = 1), Adam(lr 1e-3, weight_decay 1e-3), 64 queries per batch,
query-level z-score. Each option switches one factor to rankgrad's choice (or another):

    --init torch|torch-zero-bias|kaiming   torch: Linear's default (kaiming_uniform(a=sqrt 5):
                             weights uniform(+-1/sqrt(in)), bias uniform(+-1/sqrt(in)));
                             torch-zero-bias: the same weights, bias 0 (rankgrad's
                             Init.UNIFORM_FAN_IN); kaiming: He uniform for ReLU (bound sqrt(6/in)),
                             bias 0 (rankgrad's Init.KAIMING_UNIFORM)
    --decay coupled|decoupled|weights-only   L2 added to every gradient (Adam weight_decay),
                             AdamW, or L2 on Linear weights only (not biases, not BatchNorm)
    --norm query-zscore|standardize|none
    --bn-momentum, --bn-eps, --adam-eps, --loss-scale mean|sum, --ties random|stable
    --shuffle yes|no         a fresh query order every epoch, or the file's order

Prints one line per epoch: mean training loss over the epoch's batches and validation NDCG@5
(ties in input order, queries without a relevant document left out, as `rankgrad eval`).
Needs: pip install torch numpy
"""
import argparse
import math
import os
import sys
import time

try:
    import numpy as np
    import torch
except ImportError as e:
    sys.exit(f"torch_training.py needs numpy and torch: pip install torch numpy ({e})")


def read_letor(path):
    """(features [Q, m, d] float32, labels [Q, m] float32), queries in file order; cached as .npz."""
    cache = path + ".npz"
    if os.path.exists(cache) and os.path.getmtime(cache) >= os.path.getmtime(path):
        z = np.load(cache)
        return z["x"], z["y"]
    labels, qids, rows = [], [], []
    d = 0
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            labels.append(float(line[0]))
            qids.append(line[1])
            row = {}
            for tok in line[2:]:
                k, v = tok.split(":")
                row[int(k)] = float(v)
                d = max(d, int(k))
            rows.append(row)
    x = np.zeros((len(rows), d), dtype=np.float32)
    for i, row in enumerate(rows):
        for k, v in row.items():
            x[i, k - 1] = v
    starts = [i for i in range(len(qids)) if i == 0 or qids[i] != qids[i - 1]]
    m = len(qids) // len(starts)
    if any(b - a != m for a, b in zip(starts, starts[1:] + [len(qids)])):
        sys.exit(f"{path}: queries of different lengths; this loop needs equal lengths")
    x = x.reshape(len(starts), m, d)
    y = np.asarray(labels, dtype=np.float32).reshape(len(starts), m)
    np.savez(cache, x=x, y=y)
    return x, y


def normalize(x, how, mean=None, std=None):
    if how == "query-zscore":
        mu = x.mean(1, keepdims=True, dtype=np.float64)
        sd = x.std(1, keepdims=True, dtype=np.float64)
        return np.where(sd > 0, (x - mu) / np.where(sd > 0, sd, 1), 0).astype(np.float32)
    if how == "standardize":
        return np.where(std > 0, (x - mean) / np.where(std > 0, std, 1), 0).astype(np.float32)
    return x


def ideal_dcg(gains):
    ideal = torch.sort(gains, dim=1, descending=True).values
    disc = 1 / torch.log2(torch.arange(2, gains.shape[1] + 2, dtype=gains.dtype))
    return (ideal * disc).sum(1)


class NdcgType3(torch.autograd.Function):
    """-nDCG of exact ranks (mean or sum over queries) forward; Yu's type-3 pair terms backward."""

    @staticmethod
    def forward(ctx, s, y, ties, scale):
        B, m = s.shape
        if ties == "random":
            # a random permutation per query decides ties (rankgrad draws one per query per step)
            tiebreak = torch.argsort(torch.rand(B, m), dim=1).to(s.dtype)
            key = torch.stack([s, tiebreak], 2)
            order = torch.from_numpy(np.lexsort((-key[:, :, 1].numpy(), -key[:, :, 0].numpy()), axis=1))
        else:
            order = torch.argsort(-s, dim=1, stable=True)
        ranks = torch.empty_like(s)
        ranks.scatter_(1, order, torch.arange(1, m + 1, dtype=s.dtype).expand(B, m).contiguous())
        gains = torch.pow(2.0, y) - 1
        idcg = ideal_dcg(gains)
        safe = torch.where(idcg > 0, idcg, torch.ones_like(idcg))
        ndcg = torch.where(idcg > 0, (gains / torch.log2(ranks + 1)).sum(1) / safe, torch.zeros_like(idcg))
        div = B if scale == "mean" else 1
        ctx.save_for_backward(s, y, ranks, gains, safe)
        ctx.div = div
        return -ndcg.sum() / div

    @staticmethod
    def backward(ctx, g):
        s, y, ranks, gains, idcg = ctx.saved_tensors
        dndcg_dr = -gains / (math.log(2) * (ranks + 1) * torch.log2(ranks + 1) ** 2) / idcg[:, None]
        dldr = -dndcg_dr / ctx.div
        z = s[:, :, None] - s[:, None, :]
        sb = torch.sigmoid(z)
        u = torch.sign(y[:, :, None] - y[:, None, :])
        d = torch.where(u > 0, 2 * (1 - sb), torch.where(u < 0, -2 * sb, torch.zeros_like(sb)))
        # r_i = 1 + sum_j (1 - sigma+(s_i - s_j)): dr_i/ds_i = -sum_j d_ij, dr_i/ds_j = d_ij
        grad = -dldr * d.sum(2) + torch.einsum("bi,bij->bj", dldr, d)
        return g * grad, None, None, None


def ndcg_at(scores, y, k):
    """Mean NDCG@k over queries with a relevant document; ties keep input order."""
    order = np.argsort(-scores, axis=1, kind="stable")
    gains = np.power(2.0, y) - 1
    disc = 1 / np.log2(np.arange(2, k + 2))
    dcg = (np.take_along_axis(gains, order, 1)[:, :k] * disc).sum(1)
    idcg = (-np.sort(-gains, axis=1)[:, :k] * disc).sum(1)
    keep = idcg > 0
    return float((dcg[keep] / idcg[keep]).mean())


def build(d, args):
    layers = []
    width = d
    for _ in range(4):
        layers += [torch.nn.Linear(width, 100), torch.nn.BatchNorm1d(100, eps=args.bn_eps, momentum=args.bn_momentum),
                   torch.nn.ReLU()]
        width = 100
    layers.append(torch.nn.Linear(width, 1))
    model = torch.nn.Sequential(*layers)
    for mod in model:
        if isinstance(mod, torch.nn.Linear) and args.init != "torch":
            if args.init == "kaiming":
                torch.nn.init.kaiming_uniform_(mod.weight, nonlinearity="relu")
            torch.nn.init.zeros_(mod.bias)
    return model


def optimizer(model, args):
    if args.decay == "coupled":
        return torch.optim.Adam(model.parameters(), lr=args.lr, weight_decay=args.l2, eps=args.adam_eps)
    if args.decay == "decoupled":
        return torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=args.l2, eps=args.adam_eps)
    weights = [m.weight for m in model if isinstance(m, torch.nn.Linear)]
    ids = {id(p) for p in weights}
    rest = [p for p in model.parameters() if id(p) not in ids]
    return torch.optim.Adam([{"params": weights, "weight_decay": args.l2}, {"params": rest, "weight_decay": 0.0}],
                            lr=args.lr, eps=args.adam_eps)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("data")
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-queries", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--l2", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--init", choices=["torch", "kaiming", "torch-zero-bias"], default="torch")
    p.add_argument("--decay", choices=["coupled", "decoupled", "weights-only"], default="coupled")
    p.add_argument("--norm", choices=["query-zscore", "standardize", "none"], default="query-zscore")
    p.add_argument("--bn-momentum", type=float, default=0.1)
    p.add_argument("--bn-eps", type=float, default=1e-5)
    p.add_argument("--adam-eps", type=float, default=1e-8)
    p.add_argument("--loss-scale", choices=["mean", "sum"], default="mean")
    p.add_argument("--ties", choices=["random", "stable"], default="random")
    p.add_argument("--shuffle", choices=["yes", "no"], default="yes")
    args = p.parse_args()
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)

    xt, yt = read_letor(os.path.join(args.data, "train.txt"))
    xv, yv = read_letor(os.path.join(args.data, "vali.txt"))
    flat = xt.reshape(-1, xt.shape[2]).astype(np.float64)
    mean, std = flat.mean(0), flat.std(0)
    xt, xv = normalize(xt, args.norm, mean, std), normalize(xv, args.norm, mean, std)
    Q, m, d = xt.shape
    xt_t, yt_t = torch.from_numpy(xt), torch.from_numpy(yt)
    xv_t = torch.from_numpy(xv.reshape(-1, d))

    model = build(d, args)
    opt = optimizer(model, args)
    print(f"torch {torch.__version__}: {vars(args)}", flush=True)
    for epoch in range(1, args.epochs + 1):
        t0 = time.perf_counter()
        order = rng.permutation(Q) if args.shuffle == "yes" else np.arange(Q)
        model.train()
        losses = []
        for b in range(0, Q, args.batch_queries):
            idx = torch.from_numpy(order[b:b + args.batch_queries])
            x = xt_t[idx].reshape(-1, d)
            opt.zero_grad()
            loss = NdcgType3.apply(model(x).view(len(idx), m), yt_t[idx], args.ties, args.loss_scale)
            loss.backward()
            opt.step()
            losses.append(loss.item() / (len(idx) if args.loss_scale == "sum" else 1))
        model.eval()
        with torch.no_grad():
            sv = model(xv_t).view(xv.shape[0], m).numpy()
        print(f"epoch {epoch} train_loss {np.mean(losses):.4f} valid_ndcg@5 {ndcg_at(sv, yv, 5):.4f}"
              f" ({time.perf_counter() - t0:.1f} s)", flush=True)


if __name__ == "__main__":
    main()
