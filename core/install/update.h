/*
 * update.h: `cuenv update`, in one module: what it decides while it
 * refreshes the catalogue (which manifests are new, whether one may be
 * kept, which wheels stand for a minor release), pure functions of text,
 * and the downloading and writing that use them.
 *
 * NVIDIA's redist folders are read as listings (an HTML index, or a
 * mirror folder's names, one a line) that name redistrib_<version>.json
 * files; a manifest the catalogue already holds is not fetched again;
 * one whose sha256 the shipped pin list (redistrib-json-sha256.tsv:
 * product, version, url, sha256 a line) knows must have it. For the
 * framework table, the package index's wheels are reduced to the newest
 * release of each minor version.
 *
 * The catalogue's redist manifests are added under ROOT/manifests/<kind>/
 * and the framework table is written to ROOT/manifests/compat/
 * frameworks.tsv, each file atomically (core/file). Nothing here prints:
 * what was added and what was skipped come back to the command.
 */
#ifndef CUENV_UPDATE_H
#define CUENV_UPDATE_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "nvidia/catalog.h"
#include "base/err.h"
#include "net/fetch.h"
#include "nvidia/pypi.h"
#include "base/kit.h"

/* ---- what update decides ------------------------------------------------ */

/* Every version <v> of a "redistrib_<v>.json" that listing names (valid
 * versions only), onto versions, once each, in listing order. */
void update_listed(const char *listing, struct strv *versions);

/* Is redistrib_<ver>.json of kind already one of cat's redist files? */
int update_known(const struct catalog *cat, enum kit_kind kind,
		 const char *ver);

/*
 * The sha256 that pins (the text of redistrib-json-sha256.tsv) gives
 * NVIDIA's manifest of product ("cuda", "cudnn") version ver, as a heap
 * string of 64 lowercase hex digits; NULL when it names none (or a
 * malformed one).
 */
char *update_pin(const char *pins, const char *product, const char *ver);

/*
 * Check the len bytes at body, fetched from url, against pin (NULL:
 * nothing to check). Returns CUENV_OK, or CUENV_E_INTEGRITY naming url,
 * the pinned and the actual sha256.
 */
int update_check_pin(const char *pin, const char *url, const void *body,
		     size_t len, struct cuenv_err *err);

/*
 * Whether cuenv update may keep the manifest of kind version ver, the
 * len bytes at body fetched from url: its sha256 the one pins (the text
 * of redistrib-json-sha256.tsv; NULL: no pin list) gives, when it gives
 * one; a redistrib file cuenv reads (for platform); no NUL byte. Returns
 * CUENV_OK, or CUENV_E_INTEGRITY or CUENV_E_MANIFEST naming url.
 */
int update_accept(const char *pins, const char *url, const char *body,
		  size_t len, const char *platform, enum kit_kind kind,
		  const char *ver, struct cuenv_err *err);

/* "2.14.1" -> "2.14" (a version without a second dot: itself), as a heap
 * string. */
char *update_minor(const char *version);

/*
 * The newest release of each minor version among the n files of a
 * project on the index (only Linux x86_64 wheels, named
 * project-version-...; versions older than floor are left out), onto
 * out, each minor's first sighting fixing its place.
 */
void update_newest_per_minor(const struct index_file *files, size_t n,
			     const char *floor, struct strv *out);

/* ---- the downloading and writing ---------------------------------------- */

/*
 * Read the listing of base's redist folder for kind
 * (BASE/compute/<kind>/redist/: an HTML index, or, for a file:// base,
 * the folder's names), and fetch each redistrib_<v>.json it names that
 * known does not hold and ROOT/manifests/<kind>/ does not have yet:
 * accepted by update_accept (pins: the pin list's text, NULL for none),
 * then written there. Each version written is pushed onto added, also
 * when a later one fails. Returns CUENV_OK or the first failure
 * (CUENV_E_FETCH, CUENV_E_INTEGRITY, CUENV_E_MANIFEST, CUENV_E_STORE).
 */
int update_redist(const char *root, const char *base,
		  const struct fetch_opts *fo, enum kit_kind kind,
		  const struct catalog *known, const char *pins,
		  struct strv *added, struct cuenv_err *err);

/* What update_frameworks read and wrote. */
struct update_table {
	unsigned rows;	     /* framework releases in the table */
	uint64_t bytes;	     /* bytes fetched of their wheels */
	struct buf path;     /* the table written */
	struct strv skipped; /* "torch: REASON": projects not read */
};

void update_table_init(struct update_table *t);
void update_table_release(struct update_table *t);

/*
 * Build the framework table (framework, version, cuda, cudnn, source,
 * notes) from the package index at index: for torch (from 2.0) and
 * tensorflow (from 2.4), the newest release of each minor, newest
 * first, as its wheel says it was built (wheel_requirement_scan, by
 * range requests, with fetch's settings; an http:// or file:// index is
 * allowed, the user named it); then write it to
 * ROOT/manifests/compat/frameworks.tsv. A project the index cannot list
 * is skipped (t->skipped); no release read at all is CUENV_E_FETCH and
 * nothing is written; a field the index gave that cannot be one
 * (compat_row_add: a wheel named with a tab or a newline) is
 * CUENV_E_MANIFEST, and nothing is written either. Returns CUENV_OK or
 * the first failure.
 */
int update_frameworks(const char *root, const char *index,
		      const struct fetch_opts *fetch, struct update_table *t,
		      struct cuenv_err *err);

/* ---- what `cuenv update` runs and says ---------------------------------- */

/*
 * The address update reads from into base: mirror (--mirror, or
 * CUENV_MIRROR), checked as install_request_mirror_url does for
 * "update" (so an http:// or file:// one is allowed in fo), without its
 * trailing '/'s; NULL or empty: NVIDIA_BASE. CUENV_E_USAGE for a mirror
 * that is not https://, http:// or file://.
 */
int update_base(const char *mirror, struct fetch_opts *fo, struct buf *base,
		struct cuenv_err *err);

/*
 * The pin list of NVIDIA's own manifest files (redistrib-json-sha256.tsv)
 * of the catalogue in use into pins: in manifests (CUENV_MANIFESTS) when
 * that is set and not empty, else in data_dir (the shipped catalogue;
 * NULL: none). Returns 1 when one was read, else 0 (pins then untouched
 * or partly filled: unused). Reads one file of at most 1 MiB.
 */
int update_read_pins(const char *manifests, const char *data_dir,
		     struct buf *pins);

/*
 * update_redist of CUDA's manifests, then cuDNN's, from base, into root:
 * "added KIND VERSION" onto said for each manifest added, and when both
 * went well "N new manifest(s)" or "the catalogue is up to date" (lines
 * ending in '\n', for stdout). Returns the first failure (said then
 * holds what was added before it).
 */
int update_all(const char *root, const char *base, const struct fetch_opts *fo,
	       const struct catalog *known, const char *pins, struct buf *said,
	       struct cuenv_err *err);

/* `update --frameworks`' line for t read from index onto out: "N
 * framework releases read from INDEX (B bytes of their wheels) into
 * PATH\n". */
void update_table_render(const struct update_table *t, const char *index,
			 struct buf *out);

#endif
