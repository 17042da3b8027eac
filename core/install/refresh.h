/*
 * refresh.h: what `cuenv update` decides while it refreshes the
 * catalogue, apart from the downloading and the writing.
 *
 * NVIDIA's redist folders are read as listings (an HTML index, or a
 * mirror folder's names, one a line) that name redistrib_<version>.json
 * files; a manifest the catalogue already holds is not fetched again;
 * one whose sha256 the shipped pin list (redistrib-json-sha256.tsv:
 * product, version, url, sha256 a line) knows must have it. For the
 * framework table, the package index's wheels are reduced to the newest
 * release of each minor version.
 */
#ifndef CUENV_REFRESH_H
#define CUENV_REFRESH_H

#include <stddef.h>

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "base/err.h"
#include "nvidia/pypi.h"
#include "base/kit.h"

/* Every version <v> of a "redistrib_<v>.json" that listing names (valid
 * versions only), onto versions, once each, in listing order. */
void refresh_listed(const char *listing, struct strv *versions);

/* Is redistrib_<ver>.json of kind already one of cat's redist files? */
int refresh_known(const struct catalog *cat, enum kit_kind kind,
		  const char *ver);

/*
 * The sha256 that pins (the text of redistrib-json-sha256.tsv) gives
 * NVIDIA's manifest of product ("cuda", "cudnn") version ver, as a heap
 * string of 64 lowercase hex digits; NULL when it names none (or a
 * malformed one).
 */
char *refresh_pin(const char *pins, const char *product, const char *ver);

/*
 * Check the len bytes at body, fetched from url, against pin (NULL:
 * nothing to check). Returns CUENV_OK, or CUENV_E_INTEGRITY naming url,
 * the pinned and the actual sha256.
 */
int refresh_check_pin(const char *pin, const char *url, const void *body,
		      size_t len, struct cuenv_err *err);

/*
 * Whether cuenv update may keep the manifest of kind version ver, the
 * len bytes at body fetched from url: its sha256 the one pins (the text
 * of redistrib-json-sha256.tsv; NULL: no pin list) gives, when it gives
 * one; a redistrib file cuenv reads (for platform); no NUL byte. Returns
 * CUENV_OK, or CUENV_E_INTEGRITY or CUENV_E_MANIFEST naming url.
 */
int refresh_accept(const char *pins, const char *url, const char *body,
		   size_t len, const char *platform, enum kit_kind kind,
		   const char *ver, struct cuenv_err *err);

/* "2.14.1" -> "2.14" (a version without a second dot: itself), as a heap
 * string. */
char *refresh_minor(const char *version);

/*
 * The newest release of each minor version among the n files of a
 * project on the index (only Linux x86_64 wheels, named
 * project-version-...; versions older than floor are left out), onto
 * out, each minor's first sighting fixing its place.
 */
void refresh_newest_per_minor(const struct index_file *files, size_t n,
			      const char *floor, struct strv *out);

#endif
