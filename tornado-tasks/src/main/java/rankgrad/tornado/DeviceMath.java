package rankgrad.tornado;

import uk.ac.manchester.tornado.api.math.TornadoMath;
import uk.ac.manchester.tornado.api.types.arrays.IntArray;

/**
 * Float32 functions shared by the device kernels, written with {@link TornadoMath} so that they
 * compile for every TornadoVM backend and also run as plain Java. Each mirrors the scalar
 * reference ({@code rankgrad.ltr.pairwise.ScalarPairKernels}) expression by expression, so the
 * only differences left are those of the device's {@code exp} and {@code log}.
 */
final class DeviceMath {
    private DeviceMath() {
    }

    /** sigma(x) = 1 / (1 + e^{-x}); e^{-x} = +inf gives exactly 0 (IEEE, hence no fast-math flags). */
    static float sigmoid(float x) {
        return 1f / (1f + TornadoMath.exp(-x));
    }

    /** log(1 + e^x) without overflow: max(x, 0) + log1p(e^{-|x|}). */
    static float softplus(float x) {
        return TornadoMath.max(x, 0f) + log1p(TornadoMath.exp(-TornadoMath.abs(x)));
    }

    /**
     * log(1 + e) for 0 &lt;= e &lt;= 1 to a few ulps, as log(u) e / (u - 1) with u = fl(1 + e): the
     * rounding of u cancels (Goldberg 1991, Theorem 4); devices have no log1p in every backend.
     */
    static float log1p(float e) {
        float u = 1f + e;
        return u == 1f ? e : TornadoMath.log(u) * e / (u - 1f);
    }

    /** Wu's A_a(x): G_a(x) = sigma(-a x) for x &gt;= 0, the tangent 1/2 - (a/4) x for x &lt; 0. */
    static float hingeA(float a, float x) {
        return x >= 0f ? sigmoid(-a * x) : 0.5f - 0.25f * a * x;
    }

    /** T'_kj(x), the slope of the term document j adds to rhat_k, at x = s_k - s_j. */
    static float hingeSlope(float a, float yk, float yj, float x) {
        if (yk == yj) {
            return slopeG(a, x);
        }
        return yk > yj ? slopeA(a, x) : -slopeA(a, -x);
    }

    private static float slopeA(float a, float x) {
        return x >= 0f ? slopeG(a, x) : -0.25f * a;
    }

    /** G_a'(x) = -a G_a(x) (1 - G_a(x)). */
    private static float slopeG(float a, float x) {
        float g = sigmoid(-a * x);
        return -a * g * (1f - g);
    }

    /**
     * The query holding document {@code k}: the largest q &lt; {@code queries} with offsets[q] &lt;=
     * k (binary search, so empty queries, whose offsets repeat, are skipped). Needs k &lt;
     * offsets[queries].
     */
    static int queryOf(IntArray offsets, int queries, int k) {
        int lo = 0;
        int hi = queries - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) / 2;
            if (offsets.get(mid) <= k) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }
}
