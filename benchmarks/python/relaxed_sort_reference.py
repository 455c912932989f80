"""Times the reference implementations of RelaxedSortBenchmark's losses: forward + backward on one
query of m documents, float64, PyTorch CPU with its default threads. Run from the repository root
with the references' checkouts (allegro/allRank, sprillo/softsort, Felix-Petersen/diffsort):

    python3 benchmarks/python/relaxed_sort_reference.py --allrank allRank --diffsort diffsort --softsort softsort

The sizes m default to the JMH benchmark's @Param values, read from RelaxedSortBenchmark.java, so
the two runs time the same queries (--help prints them). The loaders of
ranking/src/test/resources/rankgrad/ltr/loss/relaxed/generate_fixtures.py are reused.
"""
import argparse
import importlib.util
import os
import re
import time

HERE = os.path.dirname(os.path.abspath(__file__))
GEN = os.path.join(HERE, "..", "..", "ranking", "src", "test", "resources", "rankgrad", "ltr", "loss", "relaxed",
                   "generate_fixtures.py")
JMH = os.path.join(HERE, "..", "src", "main", "java", "rankgrad", "benchmarks", "RelaxedSortBenchmark.java")


def jmh_sizes():
    """The m values of RelaxedSortBenchmark's @Param, in its order."""
    with open(JMH, encoding="utf-8") as f:
        source = f.read()
    found = re.search(r'@Param\(\{([^}]*)\}\)\s*public int m;', source)
    if found is None:
        raise SystemExit(f"{JMH}: no @Param({{...}}) before 'public int m;'")
    return [int(v) for v in re.findall(r'"(\d+)"', found.group(1))]


def timed(fn, budget=2.0):
    fn()
    runs, start = 0, time.perf_counter()
    while time.perf_counter() - start < budget or runs < 2:
        fn()
        runs += 1
    return (time.perf_counter() - start) / runs * 1000


def main():
    sizes = jmh_sizes()
    parser = argparse.ArgumentParser(
        description="Forward + backward of allRank's NeuralSort / NeuralNDCG, SoftSort and diffsort on one"
                    " query of m documents (float64, PyTorch CPU), beside RelaxedSortBenchmark.",
        epilog="m = " + ", ".join(map(str, sizes)) + " (RelaxedSortBenchmark's @Param)")
    parser.add_argument("--allrank", required=True, help="checkout of allegro/allRank")
    parser.add_argument("--diffsort", required=True, help="checkout of Felix-Petersen/diffsort")
    parser.add_argument("--softsort", required=True, help="checkout of sprillo/softsort")
    parser.add_argument("--m", type=int, nargs="+", default=sizes, metavar="M",
                        help="query sizes (default: %(default)s, RelaxedSortBenchmark's @Param)")
    args = parser.parse_args()
    # Imported after parsing, so that --help works without numpy and torch.
    import numpy as np
    import torch

    spec = importlib.util.spec_from_file_location("gen", GEN)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    neural, diffsort, softsort = gen.load(args.allrank, args.diffsort, args.softsort)
    rng = np.random.default_rng(2020)
    print(f"torch {torch.__version__}, threads {torch.get_num_threads()}")
    for m in args.m:
        y = rng.integers(0, 5, m).astype(float)
        s = rng.normal(0, 1, m)
        cases = {
            "neuralsort:1.0": lambda: gen.neural_ndcg_per_query(neural, None, 0, None, 1.0, None, y, s),
            "softsort:1.0": lambda: gen.neural_ndcg_per_query(neural, gen.softsort_as_allrank_sort(softsort), 0, None,
                                                              1.0, None, y, s),
            "neural-ndcg:1.0:50": lambda: gen.neural_ndcg_per_query(neural, None, 50, None, 1.0, None, y, s),
            "diffsort-bitonic-cauchy:10": lambda: gen.diffsort_query(diffsort, "bitonic", m, 10.0, "cauchy", y, s, m,
                                                                     True),
        }
        if m <= 100:  # odd-even at m = 1000: 1000 dense layers of 1000 x 1000 products, minutes
            cases["diffsort-oddeven-cauchy:10"] = lambda: gen.diffsort_query(diffsort, "odd_even", m, 10.0, "cauchy",
                                                                             y, s, m, True)
        for name, fn in cases.items():
            print(f"{name}\tm={m}\t{timed(fn):.3f} ms")


if __name__ == "__main__":
    main()
