/**
 * Optimizers that update a module's parameters in place from their gradients:
 * {@link rankgrad.nn.optim.Sgd} (momentum), {@link rankgrad.nn.optim.Adam} (L2 weight
 * decay as the papers, or AdamW's decoupled decay), and
 * {@link rankgrad.nn.optim.GradientClipping} by global norm. Updates are deterministic and
 * their state can be saved and restored for exact resumption.
 */
package rankgrad.nn.optim;
