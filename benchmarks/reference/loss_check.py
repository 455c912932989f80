"""The epoch benchmark's fairness check: every reference loop computes the loss that rankgrad
computes. On one batch of the training file (its first 64 queries, query z-scored like every
loop's input) with fixed scores (feature 1 + feature 2 / 2 + feature 3 / 4 of the normalized
data: no ties, so no tie-break draw matters), it computes the nDCG-type3 value and its score
gradient with rankgrad (LossCheck.java against the CLI jar), the eager PyTorch loss of
torch_train.py, that loss through torch.compile, and the JAX custom VJP of jax_train.py, prints
them and exits 1 when any differs from rankgrad's by more than the tolerance below.

    $RANKGRAD_PYTHON benchmarks/reference/loss_check.py TRAIN_FILE JAVA CLI_JAR [--compile MODE] [--only torch,torch-compile,jax]
"""
import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

here = Path(__file__).resolve().parent
sys.path.insert(0, str(here))
import letor_io  # noqa: E402

# float32 throughout: the value is a mean of 64 sums of 50 terms and each gradient element a sum
# of 50 pair terms, added in different orders by each implementation; 1e-5 of the largest value
# is about 100 float32 roundings (2^-24 = 6e-8 each), far below any wrong formula (a missing
# factor 2, a sign, a transposed pair term change the values by O(1) of their size).
TOLERANCE = 1e-5


def batch(train, queries=64):
    with open(train) as f:
        head = []
        for line in f:
            head.append(line)
            if len({ln.split()[1] for ln in head}) > queries:
                head.pop()
                break
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as t:
        t.writelines(head)
    x, y = letor_io.by_query(*letor_io.read_letor(t.name))
    Path(t.name).unlink()
    z = letor_io.query_zscore(x)
    s = (z[:, :, 0] + z[:, :, 1] / 2 + z[:, :, 2] / 4).astype(np.float32)
    gaps = np.diff(np.sort(s, axis=1), axis=1)
    if gaps.min() <= 1e-5:
        sys.exit(f"loss_check: scores of the check batch are (nearly) tied (gap {gaps.min():.2e}); pick other features")
    return s, y.astype(np.float32)


def rankgrad(s, y, java, jar):
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as f:
        for q in range(s.shape[0]):
            for i in range(s.shape[1]):
                f.write(f"{q},{float(y[q, i]):g},{float(s[q, i])!r}\n")
    out = subprocess.run([java, "-cp", jar, str(here / "LossCheck.java"), f.name], check=True,
                         capture_output=True, text=True).stdout.split()
    Path(f.name).unlink()
    return float(out[0]), np.array(out[1:], dtype=np.float32).reshape(s.shape)


def torch_loss(s, y, compile_mode=None):
    from torch_reference import NdcgType3, torch

    def loss(st, yt):
        return NdcgType3.apply(st, yt, "stable")

    if compile_mode:
        loss = torch.compile(loss, mode=None if compile_mode == "default" else compile_mode)
    st = torch.tensor(s, requires_grad=True)
    value = loss(st, torch.tensor(y))
    value.backward()
    return value.item(), st.grad.numpy()


def jax_loss(s, y):
    import jax
    import jax.numpy as jnp
    from jax_train import ndcg_type3

    value, grad = jax.jit(jax.value_and_grad(ndcg_type3))(jnp.asarray(s), jnp.asarray(y), jnp.zeros_like(s))
    return float(value), np.asarray(grad)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("train")
    p.add_argument("java")
    p.add_argument("jar")
    p.add_argument("--compile", default="default", help="torch.compile mode of the compiled row")
    p.add_argument("--only", default="torch,torch-compile,jax", help="the references to check, comma-separated")
    a = p.parse_args()
    s, y = batch(a.train)
    ref_value, ref_grad = rankgrad(s, y, a.java, a.jar)
    rows = [("rankgrad", ref_value, ref_grad)]
    only = a.only.split(",")
    if "torch" in only:
        rows.append(("eager PyTorch", *torch_loss(s, y)))
    if "torch-compile" in only:
        rows.append((f"torch.compile ({a.compile})", *torch_loss(s, y, a.compile)))
    if "jax" in only:
        rows.append(("JAX (jit, custom_vjp)", *jax_loss(s, y)))
    scale = np.abs(ref_grad).max()
    bad = False
    print(f"loss cross-check on the first {s.shape[0]} training queries x {s.shape[1]} documents (fixed scores):")
    for name, value, grad in rows:
        dv = abs(value - ref_value) / abs(ref_value)
        dg = np.abs(grad - ref_grad).max() / scale
        ok = dv <= TOLERANCE and dg <= TOLERANCE
        bad |= not ok
        print(f"  {name:28s} loss {value:.7f}  relative difference {dv:.1e}, gradient {dg:.1e}"
              f"{'' if ok else '  MISMATCH (tolerance %.0e)' % TOLERANCE}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
