"""Reference values and vector-Jacobian products of soft ranks and soft sorts, computed by
google-research/fast-soft-sort's numpy code itself (Blondel et al., ICML 2020), for
rankgrad's SoftRankFixtureTest.

The exact command that wrote fixtures.txt (fast-soft-sort at commit
6a52ce79869ab16e1e0f39149a84f50f8ad648c5, numpy 2.4.6, scipy 1.17.1, numba 0.68.0, Python 3):

    git clone https://github.com/google-research/fast-soft-sort /tmp/fss
    git -C /tmp/fss checkout 6a52ce79869ab16e1e0f39149a84f50f8ad648c5
    pip install numpy scipy numba
    PYTHONPATH=/tmp/fss python3 generate_fixtures.py > fixtures.txt

Their code is imported unmodified from that checkout, never copied here. Each case is a block of
lines: 'case NAME', then 'op rank|sort', 'reg l2|kl', 'eps E', 'direction D', and the vectors
'theta', 'value' (their forward), 'g' (a random cotangent), 'vjp' (their op.vjp(g)), 'fdvjp'
(central differences of their forward along each coordinate, step 1e-6, contracted with g: the
derivative of their forward, whatever their vjp says) and 'fdgroups' (the same along the indicator
of each group of equal theta values, groups in ascending value: at ties a sort is not
differentiable along one coordinate, but it is along a whole tie group). Numbers are printed with repr (17
significant digits), so the file holds their float64 results exactly.
"""
import numpy as np
from fast_soft_sort import numpy_ops

STEP = 1e-6


def make(op, theta, reg, eps, direction):
    cls = numpy_ops.SoftRank if op == "rank" else numpy_ops.SoftSort
    return cls(theta, direction=direction, regularization_strength=eps, regularization=reg)


def central_vjp(op, theta, reg, eps, direction, g):
    out = np.zeros(len(theta))
    for i in range(len(theta)):
        e = np.zeros(len(theta))
        e[i] = STEP
        plus = make(op, theta + e, reg, eps, direction).compute()
        minus = make(op, theta - e, reg, eps, direction).compute()
        out[i] = g @ (plus - minus) / (2 * STEP)
    return out


def central_group_vjp(op, theta, reg, eps, direction, g):
    out = []
    for value in np.unique(theta):
        e = np.where(theta == value, STEP, 0.0)
        plus = make(op, theta + e, reg, eps, direction).compute()
        minus = make(op, theta - e, reg, eps, direction).compute()
        out.append(g @ (plus - minus) / (2 * STEP))
    return np.array(out)


def emit(name, op, theta, reg, eps, direction, rng):
    theta = np.asarray(theta, dtype=np.float64)
    operator = make(op, theta, reg, eps, direction)
    value = operator.compute()
    g = rng.normal(size=len(theta))
    vjp = operator.vjp(g)
    fd = central_vjp(op, theta, reg, eps, direction, g)
    fd_groups = central_group_vjp(op, theta, reg, eps, direction, g)
    print("case", name)
    print("op", op)
    print("reg", reg)
    print("eps", repr(float(eps)))
    print("direction", direction)
    for key, vec in (("theta", theta), ("value", value), ("g", g), ("vjp", vjp), ("fdvjp", fd),
                      ("fdgroups", fd_groups)):
        print(key, " ".join(repr(float(x)) for x in vec))
    print()


def main():
    rng = np.random.default_rng(20200213)
    vectors = {
        "one": [0.7],
        "two": [0.3, -1.2],
        "five": [0.5, -1.0, 2.0, 0.25, -0.3],
        "ties": [1.0, 2.3, 2.3, 3.1, 1.0, 2.3],
        "spread8": list(rng.normal(scale=3.0, size=8)),
        "random20": list(rng.normal(size=20)),
        "random100": list(rng.normal(size=100)),
    }
    for op in ("rank", "sort"):
        for reg in ("l2", "kl"):
            for eps in (0.01, 0.1, 1.0, 10.0):
                for name, theta in vectors.items():
                    if name == "random100" and eps not in (0.1, 1.0):
                        continue
                    emit("%s-%s-%s-eps%s-DESCENDING" % (op, reg, name, eps), op, theta, reg, eps, "DESCENDING", rng)
            for name in ("five", "ties", "random20"):
                emit("%s-%s-%s-eps1.0-ASCENDING" % (op, reg, name), op, vectors[name], reg, 1.0, "ASCENDING", rng)


if __name__ == "__main__":
    main()
