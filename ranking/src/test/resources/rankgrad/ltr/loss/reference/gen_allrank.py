"""Fixture of allRank's LambdaLoss values and gradients for LambdaLossReferenceTest.

Calls allRank's own `lambdaLoss` (allrank/models/losses/lambdaLoss.py of allegro/allRank, commit
c88475661cb72db292d13283fdbc4f2ae6498ee4) from a checkout outside this repository, in float64
with torch's autograd, and writes allrank_lambdaloss.txt. Command (needs `pip install torch numpy`):

    git clone https://github.com/allegro/allRank /tmp/allRank   # or any checkout of that commit
    python3 gen_allrank.py /tmp/allRank > allrank_lambdaloss.txt

allRank's package __init__ files import its data loaders (scikit-learn, torchvision); only
lambdaLoss.py is loaded here, from its file, with the two constants it imports taken from the
checkout's own files (PADDED_Y_VALUE and DEFAULT_EPS), so that nothing else need be installed.
Each query is its own slate (batch of one, reduction "sum", binary log: allRank's defaults), so
the per-query value is compared; scores are distinct (torch's sort breaks ties in its own way)
and drawn so that allRank's eps clamps are inactive: a query is kept only if eps = 1e-300 gives
allRank the same value and gradient bit for bit.
"""
import importlib.util
import math
import re
import sys
import types

import numpy as np
import torch

ROOT = sys.argv[1]


def constant(path, name):
    text = open(f"{ROOT}/{path}").read()
    return float(re.search(rf"^{name}\s*=\s*(\S+)", text, re.M).group(1))


def load_lambda_loss():
    eps = constant("allrank/models/losses/__init__.py", "DEFAULT_EPS")
    padded = constant("allrank/data/dataset_loading.py", "PADDED_Y_VALUE")
    for name, attrs in (("allrank", {}), ("allrank.data", {}), ("allrank.models", {}),
                        ("allrank.data.dataset_loading", {"PADDED_Y_VALUE": padded}),
                        ("allrank.models.losses", {"DEFAULT_EPS": eps})):
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        sys.modules[name] = module
    spec = importlib.util.spec_from_file_location("lambdaLoss", f"{ROOT}/allrank/models/losses/lambdaLoss.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.lambdaLoss, eps


def evaluate(lambda_loss, scores, labels, scheme, k, sigma, mu, **eps):
    y_pred = torch.tensor(scores[None, :], dtype=torch.float64, requires_grad=True)
    y_true = torch.tensor(labels[None, :], dtype=torch.float64)
    loss = lambda_loss(y_pred, y_true, weighing_scheme=scheme, k=k, sigma=sigma, mu=mu, **eps)
    loss.backward()
    return float(loss.detach()), y_pred.grad[0].numpy()


def main():
    lambda_loss, eps = load_lambda_loss()
    rng = np.random.default_rng(20261125)
    print("# allRank lambdaLoss (commit c88475661cb7), torch", torch.__version__, "float64; written by gen_allrank.py")
    settings = [("ndcgLoss1_scheme", None, 1.0, 10.0), ("ndcgLoss1_scheme", 3, 0.5, 10.0),
                ("ndcgLoss2_scheme", None, 1.0, 10.0), ("ndcgLoss2_scheme", 5, 2.0, 10.0),
                ("ndcgLoss2PP_scheme", None, 1.0, 10.0), ("ndcgLoss2PP_scheme", 4, 1.0, 2.5),
                ("ndcgLoss2PP_scheme", None, 0.5, 0.0)]
    for scheme, k, sigma, mu in settings:
        print(f"case scheme={scheme} k={0 if k is None else k} sigma={sigma!r} mu={mu!r}")
        for _ in range(8):
            while True:
                m = int(rng.integers(1, 21))
                labels = rng.integers(0, 5, size=m).astype(np.float64)
                scores = rng.normal(0, 1.0, size=m)
                value, grad = evaluate(lambda_loss, scores, labels, scheme, k, sigma, mu)
                # The clamps are inactive when a negligible eps gives the same value and gradient.
                value0, grad0 = evaluate(lambda_loss, scores, labels, scheme, k, sigma, mu, eps=1e-300)
                if len(set(scores)) == m and value == value0 and (grad == grad0).all():
                    break
            print("query labels=" + ",".join(str(int(y)) for y in labels)
                  + " scores=" + ",".join(repr(float(s)) for s in scores)
                  + f" value={value!r}"
                  + " grad=" + ",".join(repr(float(g)) for g in grad))
        print("end")


main()
