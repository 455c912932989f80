"""The JAX reference training loop of the epoch benchmark (scripts/bench-epoch): the loop of
torch_train.py written the way a JAX user would, with one `jax.jit`-compiled training step
(forward, loss, backward and Adam in one XLA program, buffers donated):

- features: query-level z-score (per query and feature, population std; constant -> 0), done once;
- network: Yu's R4.L, 4 x (dense 100, batch norm, ReLU) then dense 1, PyTorch's default init
  (weights and biases uniform(+-1/sqrt(in))); batch norm over the batch's documents (biased
  variance in the step; running mean and unbiased variance with momentum 0.1, eps 1e-5, used by
  validation), as torch.nn.BatchNorm1d;
- loss: twin-sigmoid nDCG-type3 (Yu et al. Eq. 21, alpha_b = 1) as a `jax.custom_vjp`: minus the
  nDCG of exact ranks forward (ties drawn at random by a 1e-6 noise, as torch_train.py), Yu's
  type-3 pair derivative backward (a B x m x m pair tensor); mean over the batch's queries;
- optimizer: Adam lr 1e-3, betas (0.9, 0.999), eps 1e-8, L2 1e-3 added to every gradient
  (torch.optim.Adam's weight_decay), written out (no optax, which the machine's index may lack);
- 64 queries per batch, queries shuffled each epoch; validation NDCG@5 after each epoch.

    $RANKGRAD_PYTHON benchmarks/reference/jax_train.py --train T --valid V --epochs 5 [--timings timings.csv]

XLA uses every core (THREADS=1 in bench-epoch sets XLA_FLAGS for one). It prints one line per
epoch as torch_train.py does and writes --timings in the format of rankgrad's timings.csv. Other
scripts import ndcg_type3 (the loss cross-check of bench-epoch).
"""
import argparse
import math
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

try:
    import jax
    import jax.numpy as jnp
except ImportError:
    sys.exit("JAX is missing: pip install jax jaxlib, or point RANKGRAD_PYTHON at a Python that has it")

sys.path.insert(0, str(Path(__file__).resolve().parent))
import letor_io  # noqa: E402

WIDTH, LAYERS, EPS, MOMENTUM = 100, 4, 1e-5, 0.1


def _ranks(s, noise):
    """1-based exact ranks of s [B, m] by descending score, ties ordered by the noise."""
    order = jnp.argsort(-(s + noise), axis=1)
    return (jnp.argsort(order, axis=1) + 1).astype(s.dtype)


def _idcg(gains):
    m = gains.shape[1]
    disc = 1 / jnp.log2(jnp.arange(2, m + 2, dtype=gains.dtype))
    return jnp.maximum((-jnp.sort(-gains, axis=1) * disc).sum(1), 1e-12)


@jax.custom_vjp
def ndcg_type3(s, y, noise):
    """-mean nDCG of the exact ranks of s [B, m] (labels y, tie-break noise); type-3 backward."""
    gains = jnp.exp2(y) - 1
    return -((gains / jnp.log2(_ranks(s, noise) + 1)).sum(1) / _idcg(gains)).mean()


def _ndcg_type3_fwd(s, y, noise):
    gains = jnp.exp2(y) - 1
    ranks = _ranks(s, noise)
    idcg = _idcg(gains)
    value = -((gains / jnp.log2(ranks + 1)).sum(1) / idcg).mean()
    return value, (s, y, ranks, gains, idcg)


def _ndcg_type3_bwd(saved, g):
    s, y, ranks, gains, idcg = saved
    dldr = gains / (math.log(2) * (ranks + 1) * jnp.log2(ranks + 1) ** 2) / idcg[:, None] / s.shape[0]
    sb = jax.nn.sigmoid(s[:, :, None] - s[:, None, :])
    u = jnp.sign(y[:, :, None] - y[:, None, :])
    d = jnp.where(u > 0, 2 * (1 - sb), jnp.where(u < 0, -2 * sb, 0.0))
    # r_i = 1 + sum_j (1 - sigma+(s_i - s_j)): dr_i/ds_i = -sum_j d_ij, dr_i/ds_j = d_ij
    grad = -dldr * d.sum(2) + jnp.einsum("bi,bij->bj", dldr, d)
    return g * grad, jnp.zeros_like(y), jnp.zeros_like(s)


ndcg_type3.defvjp(_ndcg_type3_fwd, _ndcg_type3_bwd)


def init_params(rng, features):
    """R4.L's parameters with torch.nn.Linear's default init; batch norm scale 1, shift 0."""
    params, n = [], features
    for width in [WIDTH] * LAYERS + [1]:
        bound = 1 / math.sqrt(n)
        layer = {"w": rng.uniform(-bound, bound, (n, width)).astype(np.float32),
                 "b": rng.uniform(-bound, bound, width).astype(np.float32)}
        if width == WIDTH:
            layer["gamma"] = np.ones(width, np.float32)
            layer["beta"] = np.zeros(width, np.float32)
        params.append(layer)
        n = width
    stats = [{"mean": np.zeros(WIDTH, np.float32), "var": np.ones(WIDTH, np.float32)} for _ in range(LAYERS)]
    return jax.tree.map(jnp.asarray, params), jax.tree.map(jnp.asarray, stats)


def forward(params, stats, x, train):
    """Scores of x [n, d]; in training also the batch's updated running statistics."""
    new_stats = []
    for layer, st in zip(params[:-1], stats):
        h = x @ layer["w"] + layer["b"]
        if train:
            mean = h.mean(0)
            var = h.var(0)
            n = h.shape[0]
            new_stats.append({"mean": (1 - MOMENTUM) * st["mean"] + MOMENTUM * mean,
                              "var": (1 - MOMENTUM) * st["var"] + MOMENTUM * var * n / (n - 1)})
        else:
            mean, var = st["mean"], st["var"]
        x = jax.nn.relu((h - mean) * jax.lax.rsqrt(var + EPS) * layer["gamma"] + layer["beta"])
    last = params[-1]
    return (x @ last["w"] + last["b"])[:, 0], new_stats


@partial(jax.jit, donate_argnums=(0, 1, 2))
def train_step(params, stats, opt, x, y, key, lr=1e-3, l2=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    """One step on x [B, m, d], y [B, m]: forward, loss, backward, Adam with coupled L2."""
    b, m, d = x.shape

    def loss_fn(p):
        scores, new_stats = forward(p, stats, x.reshape(b * m, d), True)
        noise = jax.random.uniform(key, (b, m)) * 1e-6
        return ndcg_type3(scores.reshape(b, m), y, noise), new_stats

    (loss, new_stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
    t = opt["t"] + 1
    grads = jax.tree.map(lambda g, p: g + l2 * p, grads, params)
    mom = jax.tree.map(lambda mo, g: b1 * mo + (1 - b1) * g, opt["m"], grads)
    vel = jax.tree.map(lambda v, g: b2 * v + (1 - b2) * g * g, opt["v"], grads)
    bc1, bc2 = 1 - b1 ** t, 1 - b2 ** t
    params = jax.tree.map(lambda p, mo, v: p - lr / bc1 * mo / (jnp.sqrt(v) / jnp.sqrt(bc2) + eps), params, mom, vel)
    return params, new_stats, {"t": t, "m": mom, "v": vel}, loss


@jax.jit
def validation_scores(params, stats, x):
    q, m, d = x.shape
    return forward(params, stats, x.reshape(q * m, d), False)[0].reshape(q, m)


def ndcg_at(scores, y, k):
    """Mean NDCG@k over the queries with a relevant document; exact ranks, ties in input order."""
    order = np.argsort(-scores, axis=1, kind="stable")
    gains = np.exp2(y) - 1
    disc = 1 / np.log2(np.arange(2, k + 2))
    dcg = (np.take_along_axis(gains, order, 1)[:, :k] * disc).sum(1)
    idcg = (-np.sort(-gains, axis=1)[:, :k] * disc).sum(1)
    keep = idcg > 0
    return float((dcg[keep] / idcg[keep]).mean())


def describe_jax():
    """'jax 0.10.2, jaxlib 0.10.2, XLA cpu, 2 devices threads'."""
    import jaxlib
    return f"jax {jax.__version__}, jaxlib {jaxlib.__version__}, backend {jax.default_backend()}"


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--train", required=True)
    p.add_argument("--valid", required=True)
    p.add_argument("--epochs", type=int, default=5)
    p.add_argument("--batch-queries", type=int, default=64)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--timings", help="epoch,seconds,documents_per_second CSV")
    a = p.parse_args()
    print(describe_jax(), flush=True)
    t0 = time.perf_counter()
    x, y = letor_io.by_query(*letor_io.read_letor(a.train))
    vx, vy = letor_io.by_query(*letor_io.read_letor(a.valid), features=x.shape[2])
    x, vx = letor_io.query_zscore(x), letor_io.query_zscore(vx)
    print(f"read {x.shape[0]} + {vx.shape[0]} queries of {x.shape[1]} documents x {x.shape[2]} features"
          f" in {time.perf_counter() - t0:.2f} s", flush=True)
    rng = np.random.default_rng(a.seed)
    params, stats = init_params(rng, x.shape[2])
    opt = {"t": jnp.zeros((), jnp.float32), "m": jax.tree.map(jnp.zeros_like, params),
           "v": jax.tree.map(jnp.zeros_like, params)}
    key = jax.random.key(a.seed)
    q, docs = x.shape[0], x.shape[0] * x.shape[1]
    vx_dev = jnp.asarray(vx)
    rows = []
    for epoch in range(1, a.epochs + 1):
        started = time.perf_counter()
        order = rng.permutation(q)
        total, batches = 0.0, 0
        for b in range(0, q, a.batch_queries):
            idx = order[b:b + a.batch_queries]
            key, sub = jax.random.split(key)
            params, stats, opt, loss = train_step(params, stats, opt, x[idx], y[idx], sub)
            total += float(loss)
            batches += 1
        valid = ndcg_at(np.asarray(validation_scores(params, stats, vx_dev)), vy, 5)
        seconds = time.perf_counter() - started
        rows.append((epoch, seconds))
        print(f"epoch {epoch:3d}  loss {total / batches:.5f}  valid ndcg@5 {valid:.4f}  {seconds:.3f}s", flush=True)
    if a.timings:
        with open(a.timings, "w") as f:
            f.write("epoch,seconds,documents_per_second\n")
            for epoch, seconds in rows:
                f.write(f"{epoch},{seconds:.6f},{docs / seconds:.0f}\n")


if __name__ == "__main__":
    main()
