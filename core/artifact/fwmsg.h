/*
 * fwmsg.h: what a framework's own messages say of the cuDNN it was built
 * with and the one it loaded (TensorFlow's and XLA's cuda_dnn.cc,
 * PyTorch's torch.backends.cudnn, JAX's version check, Paddle's).
 *
 * Below both explain (which reads a pasted log) and needs (which reads a
 * framework's failed import), so that neither includes the other to read
 * a message. Versions are returned as "9.1.0"-style heap strings.
 */
#ifndef CUENV_FWMSG_H
#define CUENV_FWMSG_H

/*
 * Called for each mismatch a line says: framework ("tensorflow", "jax",
 * "xla", "torch", "paddle"; static), the library as the message names
 * it (what: "cuDNN"; JAX's version check also "CUDA" for the runtime,
 * "cuBLAS", "cuFFT", "cuSOLVER", "cuSPARSE"; torch's extension builder
 * "nvcc", the toolkit that compiles against torch's CUDA) and the two
 * versions, what it was built with (or, in JAX's block, the minimum it
 * supports) and what was loaded, each a heap string ("12.1.0") or NULL
 * when it could not be read. found takes both.
 */
typedef void fwmsg_found_fn(void *arg, const char *line, const char *framework,
			    const char *what, char *built, char *loaded);

/*
 * Read one line (no '\n'). JAX says which library ("Outdated cuBLAS
 * installation found."), its minimum and the installed version on
 * lines of their own: *pending_min (heap or NULL, the caller's; start
 * with NULL and free it after the last line) carries the library, then
 * the minimum, to the last.
 */
void fwmsg_cudnn_mismatches(const char *line, char **pending_min,
			    fwmsg_found_fn *found, void *arg);

/*
 * The cuDNN version the first mismatch in text ('\n'-separated lines)
 * was built with, as a heap string, or NULL when text says none.
 */
char *fwmsg_cudnn_built(const char *text);

#endif
