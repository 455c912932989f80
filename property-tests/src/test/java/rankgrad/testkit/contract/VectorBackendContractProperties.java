package rankgrad.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import rankgrad.simd.internal.VectorSupport;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.ltr.pairwise.PairwiseBackends;
import rankgrad.testkit.PairwiseBackendContract;

/**
 * The backend contract for the default CPU backend, on the Vector API pair kernels (this module's
 * tests run with {@code --add-modules jdk.incubator.vector}). The kernels' own differential
 * properties also run with 128-bit vectors (surefire execution vector-128-bit).
 */
class VectorBackendContractProperties extends PairwiseBackendContract {

    @Override
    protected PairwiseBackend backend() {
        return PairwiseBackends.cpu();
    }

    @Test
    void runsOnTheVectorKernelsOfTheSharedSpecies() {
        assertEquals("cpu(vector(" + VectorSupport.FLOAT.vectorBitSize() + "-bit))", backend().toString());
    }
}
