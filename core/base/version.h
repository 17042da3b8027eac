/*
 * version.h: CUDA and cuDNN version numbers.
 *
 * A version is 1 to 4 dot-separated decimal numbers ("12", "12.4",
 * "12.4.1", "9.1.0.70"), each without a sign or leading zero and at most 9
 * digits. Nothing else is a version: this is what keeps a version string
 * from ever naming a path ("../../bin", "/etc"), so every string that
 * reaches a path in the store must pass version_parse() first.
 *
 * A spec is a version used as a prefix: "12.4" matches 12.4, 12.4.0 and
 * 12.4.1 but not 12.40.
 */
#ifndef CUENV_VERSION_H
#define CUENV_VERSION_H

#include <stdbool.h>

#define VERSION_MAX_PARTS 4

struct version {
	unsigned n;
	unsigned long part[VERSION_MAX_PARTS];
};

/* Parse s; returns 0, or -1 when s is not a version. */
int version_parse(const char *s, struct version *v);
bool version_is_valid(const char *s);
/* Numeric order; a prefix sorts before its extensions (12.4 < 12.4.0). */
int version_cmp(const struct version *a, const struct version *b);
/* The major of a version string ("12.4.1" -> 12), or 0 when invalid. */
unsigned long version_major(const char *s);
/* Compare two valid version strings; BUG() on invalid input. */
int version_cmp_str(const char *a, const char *b);
/*
 * Order builds: by version, then by the CUDA major they are for (a cuDNN
 * 9.1.0.70 for CUDA 11 before the same for 12). The order in which the
 * store and the catalogue list releases.
 */
int version_cmp_build(const char *a, unsigned a_major, const char *b,
		      unsigned b_major);
/* True when spec's parts are the first parts of v. */
bool version_matches(const struct version *v, const struct version *spec);
bool version_matches_str(const char *v, const char *spec);

struct buf;
/*
 * Append the major and minor of s to out: "12.4" of "12.4.1" or
 * "12.4.0.1", "12" of "12"; s itself when it is not a version. For the
 * release names in commands and package names (cuda-compat-12-4).
 */
void version_major_minor(const char *s, struct buf *out);

/*
 * v as a what version ("cuda", "cudnn"): CUENV_OK when v is a version (or
 * "system", with allow_system), else CUENV_E_USAGE naming what and v
 * (shortened to 64 characters), with a hint at the form.
 */
struct cuenv_err;
int version_check(const char *what, const char *v, int allow_system,
		  struct cuenv_err *err);

#endif
