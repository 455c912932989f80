"""LightGBM's side of scripts/bench-short: one lambdarank fit on a LETOR fold, the whole process
timed from outside (Python and LightGBM import, reading the files, training with early stopping on
validation NDCG@5, saving the model), as a LightGBM user would run it on small data.

    $RANKGRAD_PYTHON benchmarks/reference/lightgbm_train.py --train T --valid V --out model.txt [--threads 1]

Settings: num_leaves 31, min_data_in_leaf 20, learning rate 0.05 (bench-lightgbm's default grid
point), early stopping after 100 rounds without a validation gain. Needs: pip install lightgbm numpy
"""
import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from lightgbm_vs_rankgrad import lgb, read_letor  # noqa: E402  (it says what to install)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--train", required=True)
    p.add_argument("--valid", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--threads", type=int, default=1)
    a = p.parse_args()
    t0 = time.perf_counter()
    xt, yt, gt = read_letor(a.train)
    xv, yv, gv = read_letor(a.valid)
    train = lgb.Dataset(xt, yt, group=gt)
    valid = lgb.Dataset(xv, yv, group=gv, reference=train)
    params = {"objective": "lambdarank", "metric": "ndcg", "eval_at": [5], "num_leaves": 31, "min_data_in_leaf": 20,
              "learning_rate": 0.05, "num_threads": a.threads, "verbose": -1, "deterministic": True, "seed": 1}
    t1 = time.perf_counter()
    booster = lgb.train(params, train, num_boost_round=20000, valid_sets=[valid],
                        callbacks=[lgb.early_stopping(100, verbose=False)])
    booster.save_model(a.out, num_iteration=booster.best_iteration)
    print(f"lightgbm {lgb.__version__}: read {t1 - t0:.2f} s, trained {time.perf_counter() - t1:.2f} s,"
          f" {booster.best_iteration} trees, valid ndcg@5 {booster.best_score['valid_0']['ndcg@5']:.4f}")


if __name__ == "__main__":
    main()
