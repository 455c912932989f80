package rankgrad.autodiff.ops;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import rankgrad.autodiff.DType;
import rankgrad.autodiff.Ops;
import rankgrad.autodiff.Tensor;
import rankgrad.autodiff.Var;

/** Values and gradients of the ops that select, cut, join and rearrange (exact: they only move data). */
class ShapeOpsTest {

    private static Var m(DType dtype, double[][] rows) {
        return Var.param(Tensor.matrix(dtype, rows));
    }

    /** Backpropagates L = sum(y * w) for weights w of y's shape. */
    private static void backwardWeighted(Var y, double... w) {
        Ops.sum(Ops.mul(y, Var.constant(Tensor.of(w, y.value().shape()).to(y.dtype())))).backward();
    }

    @Test
    void gatherRowsScattersWithAccumulation() {
        for (DType dtype : DType.values()) {
            Var x = m(dtype, new double[][] {{1, 2}, {3, 4}, {5, 6}});
            Var y = Ops.gather(x, 2, 0, 0);
            assertArrayEquals(new int[] {3, 2}, y.value().shape());
            assertArrayEquals(new double[] {5, 6, 1, 2, 1, 2}, y.value().toDoubleArray(), 0.0);
            backwardWeighted(y, 1, 2, 10, 20, 100, 200);
            // Row 0 was picked twice (weights 10, 20 and 100, 200), row 1 never, row 2 once.
            assertArrayEquals(new double[] {110, 220, 0, 0, 1, 2}, x.grad().toDoubleArray(), 0.0);
        }
    }

    @Test
    void gatherVectorElements() {
        Var x = Var.param(Tensor.vector(7.0, 8.0));
        Var y = Ops.gather(x, 1, 1, 1);
        assertArrayEquals(new double[] {8, 8, 8}, y.value().toDoubleArray(), 0.0);
        Ops.sum(y).backward();
        assertArrayEquals(new double[] {0, 3}, x.grad().toDoubleArray(), 0.0);
    }

    @Test
    void gatherOutOfRangeNamesTheIndex() {
        Var x = m(DType.F64, new double[][] {{1}, {2}});
        IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> Ops.gather(x, 0, 5));
        assertTrue(e.getMessage().contains("index[1] = 5 is outside 0..1"), e.getMessage());
    }

    @Test
    void sliceRowsAndColumns() {
        for (DType dtype : DType.values()) {
            Var x = m(dtype, new double[][] {{1, 2, 3}, {4, 5, 6}, {7, 8, 9}});
            Var rows = Ops.sliceRows(x, 1, 3);
            assertArrayEquals(new double[] {4, 5, 6, 7, 8, 9}, rows.value().toDoubleArray(), 0.0);
            Var cols = Ops.sliceCols(x, 1, 2);
            assertArrayEquals(new int[] {3, 1}, cols.value().shape());
            assertArrayEquals(new double[] {2, 5, 8}, cols.value().toDoubleArray(), 0.0);
            Ops.add(Ops.sum(rows), Ops.mul(Ops.sum(cols), 10)).backward();
            assertArrayEquals(new double[] {0, 10, 0, 1, 11, 1, 1, 11, 1}, x.grad().toDoubleArray(), 0.0);
        }
        Var v = Var.param(Tensor.vector(1.0, 2.0, 3.0));
        Var mid = Ops.sliceCols(v, 1, 3);
        assertArrayEquals(new int[] {2}, mid.value().shape());
        backwardWeighted(mid, 5, 7);
        assertArrayEquals(new double[] {0, 5, 7}, v.grad().toDoubleArray(), 0.0);
        assertThrows(IndexOutOfBoundsException.class, () -> Ops.sliceRows(m(DType.F64, new double[][] {{1}}), 0, 2));
        assertThrows(IllegalArgumentException.class, () -> Ops.sliceCols(v, 2, 1));
    }

    @Test
    void concatRowsStacksMatricesAndVectors() {
        for (DType dtype : DType.values()) {
            Var a = m(dtype, new double[][] {{1, 2}});
            Var b = Var.param(Tensor.vector(3.0, 4.0).to(dtype));
            Var c = m(dtype, new double[][] {{5, 6}, {7, 8}});
            Var y = Ops.concatRows(a, b, c);
            assertArrayEquals(new int[] {4, 2}, y.value().shape());
            assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6, 7, 8}, y.value().toDoubleArray(), 0.0);
            backwardWeighted(y, 10, 20, 30, 40, 50, 60, 70, 80);
            assertArrayEquals(new double[] {10, 20}, a.grad().toDoubleArray(), 0.0);
            assertArrayEquals(new int[] {2}, b.grad().shape());
            assertArrayEquals(new double[] {30, 40}, b.grad().toDoubleArray(), 0.0);
            assertArrayEquals(new double[] {50, 60, 70, 80}, c.grad().toDoubleArray(), 0.0);
        }
    }

    @Test
    void concatColsJoinsAndSkipsConstants() {
        Var a = m(DType.F64, new double[][] {{1}, {2}});
        Var k = Var.constant(Tensor.matrix(DType.F64, new double[][] {{3, 4}, {5, 6}}));
        Var y = Ops.concatCols(a, k);
        assertArrayEquals(new double[] {1, 3, 4, 2, 5, 6}, y.value().toDoubleArray(), 0.0);
        backwardWeighted(y, 1, 2, 3, 4, 5, 6);
        assertArrayEquals(new double[] {1, 4}, a.grad().toDoubleArray(), 0.0);
        assertNull(k.grad());
        Var u = Var.param(Tensor.vector(1.0));
        Var w = Var.param(Tensor.vector(2.0, 3.0));
        Var joined = Ops.concatCols(u, w);
        assertArrayEquals(new int[] {3}, joined.value().shape());
        backwardWeighted(joined, 4, 5, 6);
        assertArrayEquals(new double[] {5, 6}, w.grad().toDoubleArray(), 0.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ops.concatCols(a, w));
        assertTrue(e.getMessage().contains("row counts must be equal"), e.getMessage());
    }

    @Test
    void reshapeKeepsRowMajorOrder() {
        Var x = m(DType.F32, new double[][] {{1, 2, 3}, {4, 5, 6}});
        Var y = Ops.reshape(x, 3, 2);
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, y.value().toDoubleArray(), 0.0);
        assertArrayEquals(new double[] {3, 4}, Ops.sliceRows(y, 1, 2).value().toDoubleArray(), 0.0);
        backwardWeighted(Ops.reshape(x, 6), 1, 2, 3, 4, 5, 6);
        assertArrayEquals(new int[] {2, 3}, x.grad().shape());
        assertArrayEquals(new double[] {1, 2, 3, 4, 5, 6}, x.grad().toDoubleArray(), 0.0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ops.reshape(x, 4));
        assertTrue(e.getMessage().contains("cannot reshape [2, 3] (6 elements) to [4]"), e.getMessage());
    }

    @Test
    void transposeSwapsAxes() {
        for (DType dtype : DType.values()) {
            Var x = m(dtype, new double[][] {{1, 2, 3}, {4, 5, 6}});
            Var y = Ops.transpose(x);
            assertArrayEquals(new int[] {3, 2}, y.value().shape());
            assertArrayEquals(new double[] {1, 4, 2, 5, 3, 6}, y.value().toDoubleArray(), 0.0);
            backwardWeighted(y, 1, 2, 3, 4, 5, 6);
            assertArrayEquals(new double[] {1, 3, 5, 2, 4, 6}, x.grad().toDoubleArray(), 0.0);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Ops.transpose(Var.param(Tensor.vector(1.0, 2.0))));
        assertTrue(e.getMessage().contains("reshape a vector"), e.getMessage());
    }
}
