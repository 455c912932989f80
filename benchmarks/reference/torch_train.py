"""The PyTorch 2.x reference training loop, written the way a PyTorch user would: the LETOR files read
once into tensors, the same network, loss, optimizer, batch size and validation as `rankgrad train`'s
defaults. It is the reference of the epoch benchmark (scripts/bench-epoch) and of the optimization
gap (docs/reproductions.md, "The optimization gap to PyTorch"). By default:

- features: query-level z-score (per query and feature, population std; constant -> 0), done once;
- network: Yu's R4.L, 4 x (Linear 100, BatchNorm1d, ReLU) then Linear 1 (PyTorch's default init);
- loss: twin-sigmoid nDCG-type3 (Yu et al. Eq. 21, alpha_b = 1; NdcgType3 from torch_reference.py,
  a custom autograd.Function), mean over the batch's queries, ties in the ranks drawn at random;
- optimizer: Adam lr 1e-3 with L2 1e-3 added to the gradient (weight_decay, as rankgrad's `adam`);
- 64 queries per batch, queries shuffled each epoch; validation NDCG@5 after each epoch (exact
  ranks, ties in input order, queries without a relevant document left out, as `rankgrad eval`)
  and the best epoch's weights kept and saved at the end (with --out).

    $RANKGRAD_PYTHON benchmarks/reference/torch_train.py --train T --valid V --epochs 5 [--out model.pt] \\
        [--timings timings.csv] [--threads N] [switches]

Each switch changes one factor to rankgrad's choice (or another), to compare the two optimizations
and bisect where they differ:

    --init torch|torch-zero-bias|kaiming   torch: Linear's default (kaiming_uniform(a=sqrt 5):
                             weights uniform(+-1/sqrt(in)), bias uniform(+-1/sqrt(in)));
                             torch-zero-bias: the same weights, bias 0 (rankgrad's
                             Init.UNIFORM_FAN_IN); kaiming: He uniform for ReLU (bound sqrt(6/in)),
                             bias 0 (rankgrad's Init.KAIMING_UNIFORM)
    --decay coupled|decoupled|weights-only   L2 added to every gradient (Adam weight_decay),
                             AdamW, or L2 on Linear weights only (not biases, not BatchNorm)
    --norm query-zscore|standardize|none     standardize: each feature by the training set's
                             mean and population std
    --bn-momentum, --bn-eps, --adam-eps, --loss-scale mean|sum, --ties random|stable
    --shuffle yes|no         a fresh query order every epoch, or the file's order

It prints one line per epoch (mean training loss per query over the epoch's batches, validation
NDCG@5, seconds) and writes --timings in the format of rankgrad's timings.csv
(epoch,seconds,documents_per_second; seconds: training and validation). Other scripts may import
read_letor, query_zscore, r4l, ndcg_at, fit.
"""
import argparse
import copy
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import letor_io  # noqa: E402
from letor_io import read_letor  # noqa: E402,F401  (other scripts import it from here)
from torch_reference import NdcgType3, describe_torch, torch  # noqa: E402  (torch_reference says what to install)


def by_query(labels, qids, x, features=None):
    """(x [Q, m, d], y [Q, m]) tensors; every query of the benchmark data has the same m documents."""
    x, y = letor_io.by_query(labels, qids, x, features)
    return torch.from_numpy(x), torch.from_numpy(y)


def query_zscore(x):
    """Per query and feature, (x - mean) / std with the population std; a constant feature becomes 0."""
    mean = x.mean(dim=1, keepdim=True)
    std = x.std(dim=1, keepdim=True, correction=0)
    return torch.where(std > 0, (x - mean) / std, torch.zeros_like(x))


def standardize(x, vx):
    """Each feature of (x, vx) by the mean and population std of x over all its documents (float64);
    a constant feature becomes 0."""
    flat = x.reshape(-1, x.shape[2]).double()
    mean, std = flat.mean(0), flat.std(0, correction=0)

    def apply(t):
        return torch.where(std > 0, (t.double() - mean) / torch.where(std > 0, std, 1), 0).float()

    return apply(x), apply(vx)


def r4l(features, width=100, layers=4, init="torch", bn_momentum=0.1, bn_eps=1e-5):
    """Yu's R4.L: `layers` x (Linear, BatchNorm1d, ReLU), then a linear scorer. init: "torch" keeps
    Linear's default; "torch-zero-bias" zeroes every bias; "kaiming" also draws every weight He
    uniform for ReLU (bound sqrt(6/in))."""
    modules, n = [], features
    for _ in range(layers):
        modules += [torch.nn.Linear(n, width), torch.nn.BatchNorm1d(width, eps=bn_eps, momentum=bn_momentum),
                    torch.nn.ReLU()]
        n = width
    modules.append(torch.nn.Linear(n, 1))
    for module in modules:
        if isinstance(module, torch.nn.Linear) and init != "torch":
            if init == "kaiming":
                torch.nn.init.kaiming_uniform_(module.weight, nonlinearity="relu")
            torch.nn.init.zeros_(module.bias)
    return torch.nn.Sequential(*modules)


def adam(model, lr=1e-3, l2=1e-3, decay="coupled", eps=1e-8):
    """Adam with L2 `l2`: "coupled" adds it to every gradient (weight_decay), "decoupled" is AdamW,
    "weights-only" adds it to the Linear weights' gradients only (not biases, not BatchNorm)."""
    if decay == "coupled":
        return torch.optim.Adam(model.parameters(), lr=lr, weight_decay=l2, eps=eps)
    if decay == "decoupled":
        return torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=l2, eps=eps)
    weights = [m.weight for m in model if isinstance(m, torch.nn.Linear)]
    ids = {id(w) for w in weights}
    rest = [p for p in model.parameters() if id(p) not in ids]
    return torch.optim.Adam([{"params": weights, "weight_decay": l2}, {"params": rest, "weight_decay": 0.0}],
                            lr=lr, eps=eps)


def ndcg_at(scores, y, k):
    """Mean NDCG@k over the queries with a relevant document; exact ranks, ties in input order."""
    order = torch.sort(scores, dim=1, descending=True, stable=True).indices
    gains = torch.pow(2.0, y) - 1
    disc = 1 / torch.log2(torch.arange(2, k + 2, dtype=scores.dtype))
    dcg = (torch.gather(gains, 1, order)[:, :k] * disc).sum(1)
    idcg = (torch.sort(gains, dim=1, descending=True).values[:, :k] * disc).sum(1)
    keep = idcg > 0
    return (dcg[keep] / idcg[keep]).mean().item()


def fit(model, opt, x, y, vx, vy, epochs, batch_queries=64, seed=1, ties="random", scale="mean",
        shuffle=True, on_epoch=None, compile_mode=None):
    """Trains `model` with `opt` on (x [Q, m, d], y [Q, m]), validates NDCG@5 on (vx, vy) after each
    epoch and returns (best state_dict, rows) with one (epoch, train loss per query, validation,
    seconds) per epoch; on_epoch(row) is called as each ends. ties and scale go to NdcgType3; shuffle
    False keeps the file's query order; compile_mode (default, reduce-overhead,
    max-autotune-no-cudagraphs, ...) runs the step through torch.compile."""
    generator = torch.Generator().manual_seed(seed)
    q, m, d = x.shape

    def forward(xb, yb):
        return NdcgType3.apply(model(xb).view(yb.shape[0], m), yb, ties, scale)

    step = opt.step
    if compile_mode:
        # The batch's forward, the loss and (through AOTAutograd) their backward in one graph, and
        # the optimizer's update in another: what torch.compile's tutorials compile. Validation
        # calls the module itself, eagerly.
        forward = torch.compile(forward, mode=None if compile_mode == "default" else compile_mode, dynamic=False)
        step = torch.compile(opt.step, mode=None if compile_mode == "default" else compile_mode, dynamic=False)
    best, best_state, rows = -1.0, None, []
    for epoch in range(1, epochs + 1):
        started = time.perf_counter()
        model.train()
        order = torch.randperm(q, generator=generator) if shuffle else torch.arange(q)
        total, batches = 0.0, 0
        for b in range(0, q, batch_queries):
            idx = order[b:b + batch_queries]
            opt.zero_grad()
            loss = forward(x[idx].reshape(-1, d), y[idx])
            loss.backward()
            step()
            total += loss.item() / (len(idx) if scale == "sum" else 1)
            batches += 1
        model.eval()
        with torch.no_grad():
            valid = ndcg_at(model(vx.reshape(-1, d)).view(vx.shape[0], vx.shape[1]), vy, 5)
        if valid > best:
            best, best_state = valid, copy.deepcopy(model.state_dict())
        row = (epoch, total / batches, valid, time.perf_counter() - started)
        rows.append(row)
        if on_epoch:
            on_epoch(row)
    return best_state, rows


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--train", required=True)
    p.add_argument("--valid", required=True)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-queries", type=int, default=64)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--l2", type=float, default=1e-3)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=None, help="torch threads (default: torch's own choice)")
    p.add_argument("--out", help="where the best epoch's state_dict is saved (default: not saved)")
    p.add_argument("--timings", help="epoch,seconds,documents_per_second CSV")
    p.add_argument("--init", choices=["torch", "torch-zero-bias", "kaiming"], default="torch")
    p.add_argument("--decay", choices=["coupled", "decoupled", "weights-only"], default="coupled")
    p.add_argument("--norm", choices=["query-zscore", "standardize", "none"], default="query-zscore")
    p.add_argument("--bn-momentum", type=float, default=0.1)
    p.add_argument("--bn-eps", type=float, default=1e-5)
    p.add_argument("--adam-eps", type=float, default=1e-8)
    p.add_argument("--loss-scale", choices=["mean", "sum"], default="mean")
    p.add_argument("--ties", choices=["random", "stable"], default="random",
                   help="ties in the loss's exact ranks: drawn at random, or in input order")
    p.add_argument("--shuffle", choices=["yes", "no"], default="yes")
    p.add_argument("--compile", metavar="MODE", help="torch.compile the step in this mode (default, "
                   "reduce-overhead, max-autotune-no-cudagraphs); without it the loop runs eagerly")
    a = p.parse_args()
    if a.threads:
        torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    print(describe_torch(), flush=True)
    t0 = time.perf_counter()
    x, y = by_query(*read_letor(a.train))
    vx, vy = by_query(*read_letor(a.valid), features=x.shape[2])
    if a.norm == "query-zscore":
        x, vx = query_zscore(x), query_zscore(vx)
    elif a.norm == "standardize":
        x, vx = standardize(x, vx)
    print(f"read {x.shape[0]} + {vx.shape[0]} queries of {x.shape[1]} documents x {x.shape[2]} features"
          f" in {time.perf_counter() - t0:.2f} s", flush=True)
    docs = x.shape[0] * x.shape[1]
    print(f"init {a.init}, decay {a.decay}, norm {a.norm}, bn momentum {a.bn_momentum} eps {a.bn_eps},"
          f" adam eps {a.adam_eps}, loss scale {a.loss_scale}, ties {a.ties}, shuffle {a.shuffle},"
          f" lr {a.lr}, l2 {a.l2}, {a.batch_queries} queries per batch, seed {a.seed},"
          f" {'torch.compile mode ' + a.compile if a.compile else 'eager'}", flush=True)
    model = r4l(x.shape[2], init=a.init, bn_momentum=a.bn_momentum, bn_eps=a.bn_eps)
    opt = adam(model, a.lr, a.l2, a.decay, a.adam_eps)

    def show(row):
        epoch, loss, valid, seconds = row
        print(f"epoch {epoch:3d}  loss {loss:.5f}  valid ndcg@5 {valid:.4f}  {seconds:.3f}s", flush=True)

    best_state, rows = fit(model, opt, x, y, vx, vy, a.epochs, a.batch_queries, a.seed, a.ties, a.loss_scale,
                           a.shuffle == "yes", show, a.compile)
    if a.out:
        torch.save(best_state, a.out)
    if a.timings:
        with open(a.timings, "w") as f:
            f.write("epoch,seconds,documents_per_second\n")
            for epoch, _, _, seconds in rows:
                f.write(f"{epoch},{seconds:.6f},{docs / seconds:.0f}\n")


if __name__ == "__main__":
    main()
