/**
 * File plumbing of the library: a minimal JSON reader and writer ({@link rankgrad.ltr.io.Json})
 * and atomic file writes ({@link rankgrad.ltr.io.AtomicWrite}). Internal: public for the other
 * modules of rankgrad (the command line), not an API for applications.
 */
package rankgrad.ltr.io;
