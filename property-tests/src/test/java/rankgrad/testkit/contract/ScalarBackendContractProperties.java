package rankgrad.testkit.contract;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import rankgrad.ltr.pairwise.CpuPairwiseBackend;
import rankgrad.ltr.pairwise.PairKernelProvider;
import rankgrad.ltr.pairwise.PairwiseBackend;
import rankgrad.testkit.PairwiseBackendContract;

/**
 * The backend contract for the CPU backend on the scalar pair kernels. It is also the reference,
 * so "matches the reference" is immediate here; the float64 definitions, the permutation, the
 * zero-sum and the finiteness laws are not.
 */
class ScalarBackendContractProperties extends PairwiseBackendContract {

    @Override
    protected PairwiseBackend backend() {
        return CpuPairwiseBackend.withKernels(PairKernelProvider.scalar());
    }

    @Test
    void runsOnTheScalarKernels() {
        assertEquals("cpu(scalar)", backend().toString());
    }
}
