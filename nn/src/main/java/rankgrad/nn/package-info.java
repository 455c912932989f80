/**
 * Neural-network layers on the autodiff engine: {@link rankgrad.nn.Layer} (forward,
 * named parameters and buffers, train/eval mode), {@link rankgrad.nn.Linear},
 * {@link rankgrad.nn.BatchNorm1d}, {@link rankgrad.nn.Activation},
 * {@link rankgrad.nn.Sequential} and the {@link rankgrad.nn.Mlp} builder for the
 * scoring networks of the papers (Yu et al.'s R5 / CE5 / R4.L / CE4.L, Bruch et al.'s B64..B1024).
 *
 * <p>Parameters are {@code Var.param} leaves owned by their module and reused by every forward
 * pass; {@link rankgrad.nn.optim} updates them in place.
 */
package rankgrad.nn;
