/**
 * Networks on the autodiff engine: layers and {@link rankgrad.nn.Mlp} ({@code rankgrad.nn}), the
 * fused training nodes and attention ops ({@code rankgrad.nn.ops}) and the optimizers ({@code
 * rankgrad.nn.optim}), on the JDK alone.
 *
 * <p>{@code jdk.incubator.vector} is optional: without it the kernels of the fused batch-norm node
 * and of Adam ({@code rankgrad.nn.kernels}, not exported) run their scalar reference.
 */
module rankgrad.nn {
    requires transitive rankgrad.autodiff;
    requires static jdk.incubator.vector;

    exports rankgrad.nn;
    exports rankgrad.nn.ops;
    exports rankgrad.nn.optim;
}
