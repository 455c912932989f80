package rankgrad.simd.internal;

import java.util.Arrays;
import java.util.function.UnaryOperator;
import jdk.incubator.vector.DoubleVector;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorMask;

/**
 * Run as a child JVM by {@link VectorMathTiersTest}: evaluates every {@link VectorMath} function
 * on fixed inputs, {@code reps} times, and prints the species' width and one line per function,
 * "name hash", the hash covering every output bit of the last evaluation.
 */
public final class VectorMathBits {
    private VectorMathBits() {
    }

    public static void main(String[] args) {
        int reps = Integer.parseInt(args[0]);
        String[] lines = null;
        for (int r = 0; r < reps; r++) {
            lines = evaluate();
        }
        System.out.println("bits " + VectorSupport.FLOAT.vectorBitSize());
        for (String line : lines) {
            System.out.println(line);
        }
    }

    /** One line per function; inputs cover every range-reduction case, subnormal results and specials. */
    static String[] evaluate() {
        int n = 2000;
        float[] x = new float[n];
        double[] x64 = new double[n];
        float[] unit = new float[n];
        double[] unit64 = new double[n];
        for (int i = 0; i < n; i++) {
            x[i] = (i - n / 2) * 0.0617f;
            x64[i] = (i - n / 2) * 0.7813;
            unit[i] = i % 3 == 0 ? (float) Math.scalb(1.0 + i * 1e-3, -i % 149) : i / (float) n;
            unit64[i] = unit[i] * (1 + i * 0x1p-40);
        }
        float[] specials = {Float.NaN, Float.POSITIVE_INFINITY, Float.NEGATIVE_INFINITY, -0f, 0f, Float.MAX_VALUE};
        for (int i = 0; i < specials.length; i++) {
            x[i] = specials[i];
            x64[i] = specials[i];
        }
        return new String[] {
            "expF32 " + hash(apply(VectorMath::exp, x)),
            "sigmoidF32 " + hash(apply(VectorMath::sigmoid, x)),
            "tanhF32 " + hash(apply(VectorMath::tanh, x)),
            "log1pUnitF32 " + hash(apply(VectorMath::log1pUnit, unit)),
            "expF64 " + hash(apply64(VectorMath::exp, x64)),
            "sigmoidF64 " + hash(apply64(VectorMath::sigmoid, x64)),
            "log1pUnitF64 " + hash(apply64(VectorMath::log1pUnit, unit64)),
        };
    }

    private static float[] apply(UnaryOperator<FloatVector> f, float[] x) {
        float[] y = new float[x.length];
        for (int i = 0; i < x.length; i += VectorSupport.FLOAT.length()) {
            VectorMask<Float> m = VectorSupport.FLOAT.indexInRange(i, x.length);
            f.apply(FloatVector.fromArray(VectorSupport.FLOAT, x, i, m)).intoArray(y, i, m);
        }
        return y;
    }

    private static double[] apply64(UnaryOperator<DoubleVector> f, double[] x) {
        double[] y = new double[x.length];
        for (int i = 0; i < x.length; i += VectorSupport.DOUBLE.length()) {
            VectorMask<Double> m = VectorSupport.DOUBLE.indexInRange(i, x.length);
            f.apply(DoubleVector.fromArray(VectorSupport.DOUBLE, x, i, m)).intoArray(y, i, m);
        }
        return y;
    }

    private static String hash(float[] y) {
        int[] bits = new int[y.length];
        for (int i = 0; i < y.length; i++) {
            bits[i] = Float.floatToRawIntBits(y[i]);
        }
        return Integer.toHexString(Arrays.hashCode(bits));
    }

    private static String hash(double[] y) {
        long[] bits = new long[y.length];
        for (int i = 0; i < y.length; i++) {
            bits[i] = Double.doubleToRawLongBits(y[i]);
        }
        return Integer.toHexString(Arrays.hashCode(bits));
    }
}
