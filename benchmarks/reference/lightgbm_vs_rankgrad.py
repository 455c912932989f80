"""LightGBM lambdarank, tuned on validation, against a rankgrad recipe, on the same LETOR folds and
scored by the same evaluator (`rankgrad eval`: LightGBM's test scores go in as a --scores file).
Run through scripts/bench-lightgbm, which documents the options.

For each data set: every LightGBM setting of the grid trains with early stopping after
--lgb-patience rounds without a gain of validation NDCG@5; the setting with the best validation
NDCG@5 (LightGBM's own metric, selection only) scores the test file. rankgrad trains with
`rankgrad train ... --test` and the recipe's options (its epoch is selected on validation NDCG@5).
Both test score sets then go through one `rankgrad eval` call. Seconds are wall-clock training
time (LightGBM: the selected setting's fit, early-stopping rounds included; rankgrad: the train
command, data reading and per-epoch evaluation included).
Needs: pip install lightgbm numpy
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import time

try:
    import lightgbm as lgb
    import numpy as np
except ImportError as e:
    sys.exit(f"bench-lightgbm needs lightgbm and numpy: pip install lightgbm numpy ({e})")


def read_letor(path):
    """(features, labels, group sizes) of a LETOR text file, documents in file order."""
    labels, rows, groups = [], [], []
    last = None
    d = 0
    with open(path) as f:
        for line in f:
            tokens = line.split("#", 1)[0].split()
            if not tokens:
                continue
            labels.append(float(tokens[0]))
            qid = tokens[1]
            if qid != last:
                groups.append(0)
                last = qid
            groups[-1] += 1
            row = []
            for tok in tokens[2:]:
                k, v = tok.split(":")
                row.append((int(k) - 1, float(v)))
                d = max(d, int(k))
            rows.append(row)
    x = np.zeros((len(rows), d), dtype=np.float64)
    for i, row in enumerate(rows):
        for k, v in row:
            x[i, k] = v
    return x, np.asarray(labels), np.asarray(groups)


def lightgbm(fold, grid, patience, threads, out):
    xt, yt, gt = read_letor(os.path.join(fold, "train.txt"))
    xv, yv, gv = read_letor(os.path.join(fold, "vali.txt"))
    xs, _, _ = read_letor(os.path.join(fold, "test.txt"))
    train = lgb.Dataset(xt, yt, group=gt, free_raw_data=False)
    valid = lgb.Dataset(xv, yv, group=gv, reference=train, free_raw_data=False)
    best = None
    tried = []
    for leaves, min_data, lr in grid:
        params = {"objective": "lambdarank", "metric": "ndcg", "eval_at": [5], "num_leaves": leaves,
                  "min_data_in_leaf": min_data, "learning_rate": lr, "num_threads": threads, "verbose": -1,
                  "deterministic": True, "seed": 1}
        t0 = time.perf_counter()
        booster = lgb.train(params, train, num_boost_round=20000, valid_sets=[valid],
                            callbacks=[lgb.early_stopping(patience, verbose=False)])
        seconds = time.perf_counter() - t0
        v = booster.best_score["valid_0"]["ndcg@5"]
        tried.append((leaves, min_data, lr, booster.best_iteration, v, seconds))
        print(f"  lightgbm leaves={leaves} min_data_in_leaf={min_data} lr={lr}: {booster.best_iteration} trees,"
              f" valid ndcg@5 {v:.4f}, {seconds:.0f} s", flush=True)
        if best is None or v > best[0]:
            best = (v, booster, (leaves, min_data, lr), seconds)
    v, booster, setting, seconds = best
    scores = os.path.join(out, "lightgbm-test-scores.txt")
    np.savetxt(scores, booster.predict(xs, num_iteration=booster.best_iteration), fmt="%.9g")
    return scores, setting, booster.best_iteration, v, seconds, tried


def run(cmd, **kw):
    print("  $ " + " ".join(shlex.quote(c) for c in cmd), flush=True)
    return subprocess.run(cmd, check=True, text=True, **kw)


def rankgrad(launcher, fold, recipe, out):
    model_dir = os.path.join(out, "rankgrad")
    t0 = time.perf_counter()
    run([launcher, "train", "--train", os.path.join(fold, "train.txt"), "--valid", os.path.join(fold, "vali.txt"),
         "--test", os.path.join(fold, "test.txt"), "--out", model_dir, "--fresh"] + shlex.split(recipe),
        stdout=subprocess.DEVNULL)
    return os.path.join(model_dir, "model.json"), time.perf_counter() - t0


def evaluate(launcher, fold, scores, model):
    """{'lightgbm': [ndcg@1, @5, @10], 'rankgrad': [...]} from one `rankgrad eval` table."""
    res = run([launcher, "eval", "--data", os.path.join(fold, "test.txt"), "--scores", scores, "--model", model,
               "--metrics", "ndcg@1,5,10"], capture_output=True)
    values = {}
    for line in res.stdout.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and (cells[0].endswith(".txt") or cells[0].endswith(".json")):
            key = "lightgbm" if cells[0].endswith(".txt") else "rankgrad"
            values[key] = [float(re.search(r"[0-9]+\.[0-9]+", c).group()) for c in cells[1:]]
    if len(values) != 2:
        sys.exit("could not read the eval table:\n" + res.stdout + res.stderr)
    return values, res.stdout


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--launcher", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--data", action="append", required=True, help="NAME=FOLD_DIR, repeatable")
    p.add_argument("--recipe", required=True, help="rankgrad train options")
    p.add_argument("--grid", default="31:20:0.05", help="LEAVES:MIN_DATA:LR,... selected on validation")
    p.add_argument("--lgb-patience", type=int, default=100)
    p.add_argument("--threads", type=int, default=2)
    args = p.parse_args()
    grid = [(int(a), int(b), float(c)) for a, b, c in (g.split(":") for g in args.grid.split(","))]
    rows, details = [], []
    for spec in args.data:
        name, fold = spec.split("=", 1)
        out = os.path.join(args.out, name)
        os.makedirs(out, exist_ok=True)
        print(f"{name}: LightGBM", flush=True)
        scores, setting, trees, lgb_valid, lgb_seconds, tried = lightgbm(fold, grid, args.lgb_patience, args.threads,
                                                                         out)
        print(f"{name}: rankgrad {args.recipe}", flush=True)
        model, rg_seconds = rankgrad(args.launcher, fold, args.recipe, out)
        values, table = evaluate(args.launcher, fold, scores, model)
        leaves, min_data, lr = setting
        rows.append(f"| {name} | LightGBM lambdarank ({leaves} leaves, min_data_in_leaf {min_data}, lr {lr},"
                    f" {trees} trees) | " + " | ".join(f"{v:.4f}" for v in values["lightgbm"]) + f" | {lgb_seconds:.0f} |")
        rows.append(f"| {name} | rankgrad `{args.recipe}` | " + " | ".join(f"{v:.4f}" for v in values["rankgrad"])
                    + f" | {rg_seconds:.0f} |")
        details.append(f"### {name}\n\nLightGBM settings tried (validation NDCG@5, LightGBM's metric):\n\n"
                       + "\n".join(f"- {a} leaves, min_data_in_leaf {b}, lr {c}: {t} trees, {v:.4f}, {s:.0f} s"
                                   for a, b, c, t, v, s in tried)
                       + "\n\n`rankgrad eval` on the test file:\n\n```text\n" + table.strip() + "\n```\n")
    md = ("| data | system | test ndcg@1 | test ndcg@5 | test ndcg@10 | seconds |\n|---|---|--:|--:|--:|--:|\n"
          + "\n".join(rows) + "\n\n" + "\n".join(details))
    path = os.path.join(args.out, "lightgbm-vs-rankgrad.md")
    with open(path + ".tmp", "w") as f:
        f.write(md)
    os.replace(path + ".tmp", path)
    print(md)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
