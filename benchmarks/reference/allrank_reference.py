"""allRank's lambdaLoss (and a PyTorch softmax cross-entropy in TF-Ranking's form) timed beside
LambdaLossBenchmark: forward + backward on 16 queries of m documents, float32 scores N(0, 1),
grades 0..4, median milliseconds of 50, 20 and 5 runs after one warm-up run.

    python3 benchmarks/reference/allrank_reference.py /path/to/allRank-checkout [threads]

allRank's own lambdaLoss.py is loaded from the checkout (commit c88475661cb7 was measured) with the
two constants it imports, as in ranking/src/test/resources/rankgrad/ltr/loss/reference/gen_allrank.py.
"""
import importlib.util
import re
import statistics
import sys
import time
import types

import torch

ROOT = sys.argv[1]
if len(sys.argv) > 2:
    torch.set_num_threads(int(sys.argv[2]))


def constant(path, name):
    text = open(f"{ROOT}/{path}").read()
    return float(re.search(rf"^{name}\s*=\s*(\S+)", text, re.M).group(1))


def load_lambda_loss():
    for name, attrs in (("allrank", {}), ("allrank.data", {}), ("allrank.models", {}),
                        ("allrank.data.dataset_loading",
                         {"PADDED_Y_VALUE": constant("allrank/data/dataset_loading.py", "PADDED_Y_VALUE")}),
                        ("allrank.models.losses",
                         {"DEFAULT_EPS": constant("allrank/models/losses/__init__.py", "DEFAULT_EPS")})):
        module = types.ModuleType(name)
        module.__dict__.update(attrs)
        sys.modules[name] = module
    spec = importlib.util.spec_from_file_location("lambdaLoss", f"{ROOT}/allrank/models/losses/lambdaLoss.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.lambdaLoss


def softmax_ce(s, y):
    """TF-Ranking's SoftmaxLoss per list: -sum_i y_i / sum(y) log softmax(s)_i, mean over lists."""
    targets = y / y.sum(1, keepdim=True).clamp_min(1e-10)
    return -(targets * torch.log_softmax(s, 1)).sum(1).mean()


def median_ms(step, repeats):
    step()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        step()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def main():
    lambda_loss = load_lambda_loss()
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; allRank lambdaLoss, 16 queries")
    generator = torch.Generator().manual_seed(2020)
    for m in (10, 100, 1000):
        y = torch.randint(0, 5, (16, m), generator=generator).float()
        s0 = torch.randn(16, m, generator=generator)
        losses = {
            "ndcgloss1": lambda s: lambda_loss(s, y, weighing_scheme="ndcgLoss1_scheme"),
            "ndcgloss2": lambda s: lambda_loss(s, y, weighing_scheme="ndcgLoss2_scheme"),
            "ndcgloss2++": lambda s: lambda_loss(s, y, weighing_scheme="ndcgLoss2PP_scheme"),
            "softmax-ce": lambda s: softmax_ce(s, y),
        }
        for name, f in losses.items():
            def step():
                s = s0.clone().requires_grad_(True)
                f(s).backward()
                return s.grad
            print(f"m={m} {name}: {median_ms(step, {10: 50, 100: 20, 1000: 5}[m]):.4f} ms", flush=True)


main()
