/**
 * File plumbing of the library: a minimal JSON reader and writer ({@link rankgrad.ltr.io.Json})
 * and atomic file writes ({@link rankgrad.ltr.io.AtomicWrite}). Internal: the module {@code
 * rankgrad.ltr} does not export this package; its classes are public only for rankgrad's own
 * class-path modules (the command line, the ONNX export), not an API for applications.
 */
package rankgrad.ltr.io;
