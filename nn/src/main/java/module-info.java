/**
 * Networks on the autodiff engine: layers and {@link rankgrad.nn.Mlp} ({@code rankgrad.nn}), the
 * fused training nodes and attention ops ({@code rankgrad.nn.ops}) and the optimizers ({@code
 * rankgrad.nn.optim}), on the JDK alone.
 */
module rankgrad.nn {
    requires transitive rankgrad.autodiff;

    exports rankgrad.nn;
    exports rankgrad.nn.ops;
    exports rankgrad.nn.optim;
}
