# Writes valid.txt, valid.lightgbm.pred and valid.lightgbm.ndcg (run with python3, numpy, lightgbm 4.7):
# LightGBM's lambdarank on synthetic queries, its scores of the validation queries (many tied, 3 queries
# without a relevant document) and the validation ndcg@k LightGBM itself reports, which
# `eval --convention lightgbm` must reproduce.
import numpy as np, lightgbm as lgb
rng = np.random.default_rng(3)
def make(nq, no_relevant):
    X, y, g = [], [], []
    for q in range(nq):
        m = int(rng.integers(3, 12)); g.append(m)
        x = np.round(rng.normal(size=(m, 5)), 6); X.append(x)
        s = x[:, 0] + 0.5 * x[:, 1] + rng.normal(scale=1.0, size=m)
        lab = np.clip(np.round(s), 0, 3).astype(int)
        if q in no_relevant: lab[:] = 0
        y.append(lab)
    return np.vstack(X), np.concatenate(y), g
Xt, yt, gt = make(60, set())
Xv, yv, gv = make(25, {3, 11, 17})
dt = lgb.Dataset(Xt, yt, group=gt); dv = lgb.Dataset(Xv, yv, group=gv, reference=dt)
res = {}
params = dict(objective='lambdarank', metric='ndcg', eval_at=[1, 3, 5, 10], num_leaves=4, min_data_in_leaf=5,
              learning_rate=0.1, verbose=-1, seed=1, deterministic=True, force_row_wise=True)
b = lgb.train(params, dt, num_boost_round=8, valid_sets=[dv], valid_names=['valid'],
              callbacks=[lgb.record_evaluation(res)])
with open('valid.txt', 'w') as f:
    i = 0
    for q, m in enumerate(gv):
        for j in range(m):
            f.write(f"{yv[i]} qid:{q+1} " + " ".join(f"{k+1}:{Xv[i,k]:.6f}" for k in range(5)) + "\n"); i += 1
np.savetxt('valid.lightgbm.pred', b.predict(Xv), fmt='%.17g')
with open('valid.lightgbm.ndcg', 'w') as f:
    f.write("# lightgbm %s lambdarank, 8 rounds: the validation ndcg it reports after the last round (record_evaluation)\n" % lgb.__version__)
    for k in [1, 3, 5, 10]:
        f.write(f"ndcg@{k}\t{float(res['valid'][f'ndcg@{k}'][-1])!r}\n")
