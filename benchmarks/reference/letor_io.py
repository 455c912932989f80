"""LETOR files into numpy arrays, shared by the reference training loops of the epoch benchmark
(torch_train.py, jax_train.py) without importing either framework: read_letor parses a file,
by_query groups it into equal-size queries, query_zscore normalizes per query and feature."""
import re
import sys

import numpy as np


def read_letor(path):
    """(labels float32 [n], qids list [n], features float32 [n, d]) of a LETOR/SVMlight file with
    qid (feature ids 1-based; missing features 0; '#' comments dropped). Dense files (every line
    has features 1..d and a numeric qid) are parsed by numpy's C float parser; others line by line."""
    with open(path) as f:
        text = f.read()
    first = text[:text.find("\n")].split()
    d = len(first) - 2
    lines = text.count("\n") + (0 if text.endswith("\n") else 1)
    dense = ("#" not in text and d > 0 and first[1].startswith("qid:")
             and [t.partition(":")[0] for t in first[2:]] == [str(i) for i in range(1, d + 1)]
             and text.count(":") == lines * (d + 1))
    if dense:
        flat = np.fromstring(re.sub(r"(?<=\s)(qid|\d+):", "", text), dtype=np.float64, sep=" ")
        if flat.size == lines * (d + 2):
            table = flat.reshape(lines, d + 2)
            qids = table[:, 1].astype(np.int64).astype(str).tolist()
            return table[:, 0].astype(np.float32), qids, table[:, 2:].astype(np.float32)
    labels, qids, ids, values = [], [], [], []
    with open(path) as f:
        for line in f:
            tokens = line.split("#", 1)[0].split()
            if not tokens:
                continue
            labels.append(tokens[0])
            qids.append(tokens[1][4:])
            pairs = [t.partition(":") for t in tokens[2:]]
            ids.append([p[0] for p in pairs])
            values.append([p[2] for p in pairs])
    lengths = np.array([len(v) for v in ids])
    cols = np.array([c for row in ids for c in row], dtype=np.int64) - 1
    vals = np.array([v for row in values for v in row], dtype=np.float32)
    rows = np.repeat(np.arange(len(ids)), lengths)
    x = np.zeros((len(ids), int(cols.max()) + 1), dtype=np.float32)
    x[rows, cols] = vals
    return np.array(labels, dtype=np.float32), qids, x



def by_query(labels, qids, x, features=None):
    """(x [Q, m, d], y [Q, m]) float32 arrays; every query of the benchmark data has the same m documents."""
    starts = [0] + [i for i in range(1, len(qids)) if qids[i] != qids[i - 1]] + [len(qids)]
    sizes = {b - a for a, b in zip(starts, starts[1:])}
    if len(sizes) != 1:
        sys.exit("the reference loops handle queries of equal size only (the demo data); got sizes "
                 + str(sorted(sizes)[:5]))
    m = sizes.pop()
    d = x.shape[1] if features is None else features
    if x.shape[1] < d:
        x = np.pad(x, ((0, 0), (0, d - x.shape[1])))
    q = len(starts) - 1
    return np.ascontiguousarray(x[:, :d].reshape(q, m, d)), labels.reshape(q, m)


def query_zscore(x):
    """Per query and feature of x [Q, m, d], (x - mean) / std with the population std (float32, as
    torch_train.py computes it); a constant feature becomes 0."""
    mean = x.mean(axis=1, keepdims=True)
    std = x.std(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(std > 0, (x - mean) / np.where(std > 0, std, 1), 0).astype(np.float32)
