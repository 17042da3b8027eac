/*
 * fixture.h: helpers shared by the unit tests.
 *
 * A filesystem fixture is a fresh mkdtemp root (its real path, so that it
 * compares equal to what realpath() gives core) that teardown removes with
 * everything under it. Tests name files relative to that root:
 *
 *	static void test_x(void **state)
 *	{
 *		struct fixture *fx = *state;
 *
 *		fx_write(fx, "proj/.cuenv", "cuda = 12.4\n");
 *		...
 *	}
 *	cmocka_unit_test_setup_teardown(test_x, fx_setup, fx_teardown)
 *
 * The fake_* helpers build the file trees of CUDA toolkits and cuDNN builds
 * that detect.c recognises; library files are empty unless their contents
 * matter. The fx_* helpers abort the test (through cmocka) on any failure,
 * so a test never runs on a half-made fixture.
 */
#ifndef CUENV_TEST_FIXTURE_H
#define CUENV_TEST_FIXTURE_H

/* cmocka needs these before it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdbool.h>
#include <sys/types.h>

#include "base/buf.h"
#include "select/env.h"
#include "store/store.h"

struct fixture {
	char *root; /* real path of the mkdtemp folder */
};

/* cmocka setup/teardown: *state becomes a struct fixture *. */
int fx_setup(void **state);
int fx_teardown(void **state);

/* Remove path and everything under it (nftw, not following links). */
int fx_remove_tree(const char *path);

/* Absolute path of rel under the root; the caller frees it. */
char *fx_path(const struct fixture *fx, const char *rel);
/* mkdir -p root/rel. */
void fx_mkdir(const struct fixture *fx, const char *rel);
/* Write text to root/rel (making its folders), replacing it. */
void fx_write(const struct fixture *fx, const char *rel, const char *text);
void fx_write_bytes(const struct fixture *fx, const char *rel, const void *data,
		    size_t len);
/* An empty file (a stand-in for a library), or an executable one. */
void fx_touch(const struct fixture *fx, const char *rel);
void fx_touch_exec(const struct fixture *fx, const char *rel);
/* root/rel: an executable shell script running body (a stand-in for a
 * program: python, nvcc); its path, heap. */
char *fx_script(const struct fixture *fx, const char *rel, const char *body);
/* root/rel becomes a symbolic link to target (taken as given). */
void fx_symlink(const struct fixture *fx, const char *target, const char *rel);
bool fx_exists(const struct fixture *fx, const char *rel);
/* Contents of root/rel (heap; the caller frees it). */
char *fx_read(const struct fixture *fx, const char *rel);
/* Number of entries (not . or ..) in the folder root/rel. */
int fx_count_entries(const struct fixture *fx, const char *rel);

/* ---- fake installs --------------------------------------------------- */

/*
 * A classic toolkit prefix at root/rel for CUDA major: bin/nvcc,
 * lib64/libcudart.so{,.<major>}, include/cuda_runtime_api.h (no version
 * macro) and extras/CUPTI/lib64/libcupti.so{,.<major>}.
 */
void fake_cuda_classic(const struct fixture *fx, const char *rel,
		       unsigned major);

/*
 * A cuDNN tarball tree at root/rel: include/cudnn_version.h defining
 * CUDNN_MAJOR/MINOR/PATCHLEVEL from version ("9.1.0") and
 * lib/libcudnn.so{,.<major>}, lib/libcudnn_ops.so.<major> (empty files).
 */
void fake_cudnn_tarball(const struct fixture *fx, const char *rel,
			const char *version);

/*
 * A heap install (kind, version, cuda_major) registered at prefix, with
 * the directory lists a detection would give: bin, lib64, include and
 * extras/CUPTI/lib64 (as cupti, also on lib) for CUDA; lib and include
 * for cuDNN. Nothing is created on disk. Free with store_version_free().
 */
struct store_version *fx_install_new(enum kit_kind kind, const char *version,
				     unsigned cuda_major, const char *prefix);
/* Register in (taking it) in the open store st; fail the test on error. */
void fx_register(struct store *st, struct store_version *in);
/* Append in (taking it) to l, which must stay sorted oldest first. */
void fx_list_push(struct store_version_list *l, struct store_version *in);

/* ---- environments ---------------------------------------------------- */

/* Build env from NULL-terminated "NAME=VALUE" strings. */
void fx_env(struct envmap *env, const char *const *vars);
/*
 * Fail the test unless a and b hold the same variables with the same
 * values (order does not matter, as for a process environment); the
 * difference is printed first.
 */
void fx_assert_env_equal(const struct envmap *a, const struct envmap *b);

/* ---- processes ------------------------------------------------------- */

/*
 * Run argv (argv[0] searched on PATH) with stdin from /dev/null and
 * collect its stdout in out (reset first). Returns the exit status, 128 +
 * the signal for a killed child, or -1 when it could not be started.
 */
int fx_run(char *const argv[], struct buf *out);
/* Is the program on PATH? */
bool fx_have_program(const char *name);
/*
 * cc the C source src into the shared library root/rel with soname,
 * linked (DT_NEEDED, --no-as-needed) against each library named in links
 * (space-separated, may be "") found in root/libdir. The source, written
 * beside it as rel.c, is removed again. Returns 0, or cc's status.
 */
int fx_cc_shared(const struct fixture *fx, const char *rel, const char *soname,
		 const char *src, const char *libdir, const char *links);
/*
 * cc -fPIC -shared the C source src into root/rel with soname (linked
 * --no-as-needed) and the extra arguments (space-separated: -Wl options,
 * -L and -l, a version script); the test fails when cc does.
 */
void fx_cc_lib(const struct fixture *fx, const char *rel, const char *soname,
	       const char *src, const char *extra);
/* Skip the test where there is no cc to build its libraries. */
#define FX_NEED_CC()                                                           \
	do {                                                                   \
		if (!fx_have_program("cc"))                                    \
			skip();                                                \
	} while (0)
/*
 * fx_teardown for a test whose setup went into the fixture's root (cc's
 * relative -L and version scripts): out to / first, then removed.
 */
int fx_teardown_chdir(void **state);

/* The value of key among "key=value" facts (a check layer's details), or
 * NULL: FX_DETAIL(layer, "devices"). */
const char *fx_kv(const struct strv *facts, const char *key);
#define FX_DETAIL(layer, key) fx_kv(&(layer)->details, (key))

#endif
