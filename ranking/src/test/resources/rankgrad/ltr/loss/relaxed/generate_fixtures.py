"""Reference fixtures for rankgrad's NeuralSort, SoftSort, NeuralNDCG and sorting-network losses.

Runs the reference implementations themselves, in float64, from their own checkouts (nothing of
them is copied here): allRank (allegro/allRank, allrank/models/losses/neuralNDCG.py and
loss_utils.py), SoftSort (sprillo/softsort, pytorch/softsort.py) and diffsort
(Felix-Petersen/diffsort). The command that wrote fixtures.txt is in README.md beside this file.

allRank builds a few tensors with an explicit float32 dtype; the modules' global name `torch` is
replaced by a view of torch whose float32/float are float64, so that every step runs in float64.
Third-party modules allRank imports only for data loading (sklearn, torchvision, gcsfs, attr) are
stubbed: the loss functions do not use them.
"""
import argparse
import importlib
import sys
import types

import numpy as np
import torch

torch.set_default_dtype(torch.float64)


class _Stub(types.ModuleType):
    __path__ = []

    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return _Stub(name)

    def __call__(self, *args, **kwargs):
        return None


def _stub(name):
    try:
        importlib.import_module(name)
    except ImportError:
        sys.modules[name] = _Stub(name)


class _Float64Torch:
    float32 = torch.float64
    float = torch.float64

    def __getattr__(self, name):
        return getattr(torch, name)


def load(allrank, diffsort, softsort):
    for name in ["sklearn", "sklearn.datasets", "torchvision", "torchvision.transforms", "gcsfs", "attr",
                 "pkg_resources", "google", "google.cloud"]:
        _stub(name)
    sys.path[:0] = [allrank, diffsort, softsort + "/pytorch"]
    loss_utils = importlib.import_module("allrank.models.losses.loss_utils")
    neural = importlib.import_module("allrank.models.losses.neuralNDCG")
    metrics = importlib.import_module("allrank.models.metrics")
    for module in (loss_utils, neural, metrics):
        module.torch = _Float64Torch()
    return neural, importlib.import_module("diffsort"), importlib.import_module("softsort")


def fmt(values):
    return " ".join(repr(float(v)) for v in values)


def emit(out, name, convention, sizes, labels, scores, value, grad):
    offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(int)
    out.write(f"case {name} {convention}\n")
    out.write("offsets " + " ".join(str(o) for o in offsets) + "\n")
    out.write("labels " + fmt(labels) + "\n")
    out.write("scores " + fmt(scores) + "\n")
    out.write("value " + repr(float(value)) + "\n")
    out.write("grad " + fmt(grad) + "\n")
    out.write("end\n")


def neural_ndcg_per_query(neural, sort_fn, iterations, tol, tau, k, y, s):
    """allRank's neuralNDCG on one query (a batch of one), with the relaxed sort and Sinkhorn chosen."""
    original_sort, original_sinkhorn = neural.deterministic_neural_sort, neural.sinkhorn_scaling
    try:
        if sort_fn is not None:
            neural.deterministic_neural_sort = sort_fn
        neural.sinkhorn_scaling = lambda mat, mask, tol=None, max_iter=None, chosen=tol: original_sinkhorn(
            mat, mask, tol=tol if chosen is None else chosen, max_iter=iterations)
        pred = torch.tensor(s, dtype=torch.float64, requires_grad=True)
        loss = neural.neuralNDCG(pred[None, :], torch.tensor(y, dtype=torch.float64)[None, :],
                                 temperature=tau, k=k)
        loss.backward()
        return loss.item(), pred.grad.numpy().copy()
    finally:
        neural.deterministic_neural_sort, neural.sinkhorn_scaling = original_sort, original_sinkhorn


def softsort_as_allrank_sort(module):
    return lambda s, tau, mask: module.SoftSort(tau=tau)(s.squeeze(-1))


def ragged(rng, sizes, grades, distinct):
    labels, scores = [], []
    for m in sizes:
        labels.append(rng.permutation(m).astype(float) if distinct else rng.integers(0, grades, m).astype(float))
        scores.append(rng.normal(0, 1.5, m))
    return labels, scores


def neural_cases(out, neural, softsort, rng):
    sizes = [2, 5, 8, 13, 3]  # allRank fails on a query of one document (mask.squeeze(-1) drops its last axis)
    variants = [
        # (rankgrad name, relaxed sort, Sinkhorn iterations, tolerance (None: allRank's), tau, k)
        ("neural-ndcg:1.0:50", None, 50, None, 1.0, None),
        ("neural-ndcg@3:0.5:50", None, 50, None, 0.5, 3),
        ("neural-ndcg@5:2.0:7", None, 7, None, 2.0, 5),
        ("neuralsort:1.0", None, 0, None, 1.0, None),
        ("neuralsort@3:0.3", None, 0, None, 0.3, 3),
        ("softsort:1.0", "softsort", 0, None, 1.0, None),
        ("softsort@4:0.5", "softsort", 0, None, 0.5, 4),
        ("neural-ndcg@5:1.0:50:softsort", "softsort", 50, None, 1.0, 5),
    ]
    for name, sort_kind, iterations, tol, tau, k in variants:
        labels, scores = ragged(rng, sizes, 5, False)
        labels[1][:] = 0  # a query without relevant documents: 0 and a zero gradient, counted in the mean
        value, grads = 0.0, []
        for y, s in zip(labels, scores):
            if y.max() > 0:
                sort_fn = softsort_as_allrank_sort(softsort) if sort_kind == "softsort" else None
                v, g = neural_ndcg_per_query(neural, sort_fn, iterations, tol, tau, k, y, s)
            else:
                v, g = 0.0, np.zeros(len(s))
            value += v / len(sizes)
            grads.append(g / len(sizes))
        emit(out, name, "per-query", sizes, np.concatenate(labels), np.concatenate(scores), value,
             np.concatenate(grads))


def allrank_padded_batch(out, neural, rng):
    """allRank's own padded batch (PADDED_Y_VALUE = -1) with its mean over queries with a relevant document
    only; Sinkhorn runs all its iterations (tolerance 0), since allRank stops it for the whole batch at once."""
    sizes = [3, 6, 4, 6]
    labels, scores = ragged(rng, sizes, 5, False)
    labels[2][:] = 0
    n = max(sizes)
    y = torch.full((len(sizes), n), -1.0, dtype=torch.float64)
    s = torch.zeros((len(sizes), n), dtype=torch.float64)
    for q, (ly, ls) in enumerate(zip(labels, scores)):
        y[q, :len(ly)] = torch.tensor(ly)
        s[q, :len(ls)] = torch.tensor(ls)
    original = neural.sinkhorn_scaling
    try:
        neural.sinkhorn_scaling = lambda mat, mask, tol=None, max_iter=None: original(mat, mask, tol=0.0, max_iter=10)
        s.requires_grad_(True)
        loss = neural.neuralNDCG(s, y, temperature=0.7, k=4)
        loss.backward()
    finally:
        neural.sinkhorn_scaling = original
    grad = np.concatenate([s.grad[q, :m].numpy() for q, m in enumerate(sizes)])
    emit(out, "neural-ndcg@4:0.7:10", "allrank-padded-batch-tol0", sizes, np.concatenate(labels),
         np.concatenate(scores), loss.item(), grad)


def diffsort_query(diffsort, network, m, steepness, distribution, y, s, k, tie_aware):
    pred = torch.tensor(s, dtype=torch.float64, requires_grad=True)
    sorter = diffsort.DiffSortNet(network, m, steepness=steepness, distribution=distribution)
    _, X = sorter(pred[None, :])
    if tie_aware:
        target = torch.zeros((1, m, m), dtype=torch.float64)
        sorted_y = np.sort(y)
        for d in range(m):
            lo, hi = np.searchsorted(sorted_y, y[d], "left"), np.searchsorted(sorted_y, y[d], "right")
            target[0, d, lo:hi] = 1.0 / (hi - lo)
    else:
        target = torch.nn.functional.one_hot(torch.argsort(torch.tensor(y)[None, :], dim=-1)).transpose(-2, -1)
        target = target.double()
    top = m - min(k, m)
    loss = torch.nn.BCELoss()(X[:, :, top:], target[:, :, top:])
    loss.backward()
    return loss.item(), pred.grad.numpy().copy()


def diffsort_cases(out, diffsort, rng):
    sizes = [2, 3, 5, 8, 12, 4]  # diffsort cannot build a bitonic network of one wire (its network list is empty)
    variants = [
        ("oddeven", "cauchy", 10.0, None), ("oddeven", "logistic", 4.0, None), ("oddeven", "optimal", 6.0, 3),
        ("bitonic", "cauchy", 10.0, None), ("bitonic", "logistic", 3.0, 4), ("bitonic", "optimal", 8.0, None),
    ]
    for network, distribution, steepness, k in variants:
        for tie_aware in (False, True):
            labels, scores = ragged(rng, sizes, 3, not tie_aware)
            value, grads = 0.0, []
            for y, s in zip(labels, scores):
                if y.max() > 0:
                    v, g = diffsort_query(diffsort, "odd_even" if network == "oddeven" else network, len(s),
                                          steepness, distribution, y, s, k or len(s), tie_aware)
                else:
                    v, g = 0.0, np.zeros(len(s))
                value += v / len(sizes)
                grads.append(g / len(sizes))
            name = f"diffsort-{network}-{distribution}{'' if k is None else '@' + str(k)}:{steepness}"
            emit(out, name, "tie-aware-target" if tie_aware else "per-query", sizes, np.concatenate(labels),
                 np.concatenate(scores), value, np.concatenate(grads))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--allrank", required=True)
    parser.add_argument("--diffsort", required=True)
    parser.add_argument("--softsort", required=True)
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    neural, diffsort, softsort = load(args.allrank, args.diffsort, args.softsort)
    rng = np.random.default_rng(20260525)
    with open(args.out, "w") as out:
        out.write(f"# torch {torch.__version__}, numpy {np.__version__}; written by generate_fixtures.py\n")
        neural_cases(out, neural, softsort, rng)
        allrank_padded_batch(out, neural, rng)
        diffsort_cases(out, diffsort, rng)


if __name__ == "__main__":
    main()
