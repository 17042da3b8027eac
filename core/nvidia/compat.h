/*
 * compat.h: the compatibility tables in manifests/compat/.
 *
 *	cuda-driver.tsv   CUDA release -> minimum Linux driver (NVIDIA's
 *	                  release notes), and per major the minimum for
 *	                  minor-version compatibility ("12.x" >= 525)
 *	frameworks.tsv    TensorFlow / PyTorch / JAX release -> the CUDA and
 *	                  cuDNN they were built and tested with
 *
 * Columns are tab-separated with a header line; see
 * shared/data/README.md for where each row came from.
 */
#ifndef CUENV_COMPAT_H
#define CUENV_COMPAT_H

#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"

struct driver_req {
	char *release; /* minimum for this exact release, e.g. "550.54.15" */
	char *compat;  /* minimum under minor-version compatibility, "525" */
	char *row;     /* the CUDA version of the row used, e.g. "12.4.1" */
};

void driver_req_release(struct driver_req *r);

/*
 * The driver the CUDA version cuda needs, from dir/cuda-driver.tsv: the
 * row for that release, else the newest row of the same major.minor at or
 * below it, else none (release NULL); and the major's minor-version
 * compatibility minimum (compat, or NULL). Returns CUENV_OK, or
 * CUENV_E_MANIFEST for an unreadable or malformed table (naming it).
 */
int compat_driver(const char *dir, const char *cuda, struct driver_req *out,
		  struct cuenv_err *err);

/*
 * compat_driver for Windows' drivers when windows is set: the table's
 * min_driver_windows column (CUDA 11.2.0 needs 460.82 there, 460.27.03 on
 * Linux); a release Windows has no row for ("N/A") gives no release.
 */
int compat_driver_os(const char *dir, const char *cuda, int windows,
		     struct driver_req *out, struct cuenv_err *err);

/*
 * Compare driver versions ("460.32.03" < "525" < "550.54.15"), missing
 * parts counting as 0; -2 when either is not a driver version.
 */
int compat_driver_cmp(const char *a, const char *b);

struct framework_build {
	char *framework; /* "tensorflow", "pytorch", "jax" */
	char *version;	 /* "2.6.0" (the table's "tensorflow-" prefix gone) */
	char *cuda;	 /* "11.2" */
	char *cudnn;	 /* "8.1" */
	char *notes;	 /* e.g. "stable CUDA variant" */
};

struct framework_builds {
	struct framework_build *v;
	size_t n;
};

void framework_builds_release(struct framework_builds *b);

/*
 * The tables' rows: fields separated by a tab, a row ended by a newline,
 * the first row the header. compat_row_add appends the n fields as a row
 * to table; a field holding a tab, a newline or another control
 * character (0x00-0x1f, 0x7f) cannot be read back as one, so it is
 * refused: CUENV_E_MANIFEST naming it (escaped, one line) and
 * table_name, table left as it was. Every table cuenv writes from
 * outside data (update --frameworks' frameworks.tsv, from the package
 * index) goes through it. compat_row_field copies field i of a row into
 * out, as the readers here take it; 0 when the row has fewer fields.
 */
int compat_row_add(struct buf *table, const char *const *fields, size_t n,
		   const char *table_name, struct cuenv_err *err);
int compat_row_field(const char *line, size_t i, struct buf *out);

/*
 * Rows of dir/frameworks.tsv for framework ("tensorflow", "pytorch" or its
 * alias "torch", "jax") whose version matches spec as a prefix ("2.6"
 * matches 2.6.0), in table order (newest first). Rows without a CUDA
 * version are left out. Returns CUENV_OK (out may be empty) or
 * CUENV_E_MANIFEST.
 */
int compat_frameworks(const char *dir, const char *framework, const char *spec,
		      struct framework_builds *out, struct cuenv_err *err);

/*
 * Put rows (from compat_frameworks) in the order `install --for` tries
 * them: the newest release first; within one, on Linux the variant of
 * PyTorch's wheel on PyPI ("PyPI default wheel" in its notes), then its
 * stable CUDA variant, before the others, then a row with a cuDNN before one
 * without, then the newest CUDA; ties keep the table's order. Rows for
 * another operating system (TensorFlow's table has them) are dropped.
 */
void compat_frameworks_order(struct framework_builds *rows);

#endif
