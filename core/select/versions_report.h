/*
 * versions_report.h: `cuenv versions`' listing, as text and as JSON,
 * from the installs an activation lists (its cudas, cudnns and cuptis)
 * and the selection it resolved. Pure: cmd/versions.c writes it.
 */
#ifndef CUENV_VERSIONS_REPORT_H
#define CUENV_VERSIONS_REPORT_H

#include "select/activate.h"
#include "base/buf.h"

struct json_t;

/*
 * Append a line per install of a, CUDA then cuDNN then CUPTI, oldest
 * first: "*" for an active one, the kind, the version (a cuDNN's with
 * the CUDA major it was built for), the prefix, "(registered)" for one
 * added by path, "(missing)" for one whose folder is gone
 * (store_version_is_missing) and "(system root)" for one outside root.
 */
void versions_text(struct buf *out, const struct activation *a,
		   const char *root);

/*
 * `cuenv versions --json`: an object of "cuda", "cudnn" and "cupti"
 * arrays, each install with its version, name, CUDA major, prefix,
 * folder, whether it is registered, missing and active, its CUPTI (a toolkit's:
 * the version, true, or false) and its components. A new reference.
 */
struct json_t *versions_json(const struct activation *a);

/* What `cuenv versions` prints. */
enum versions_format {
	VERSIONS_TEXT, /* versions_text */
	VERSIONS_BARE, /* --bare: the CUDA versions, one a line, as `cuenv
			  use` takes them */
	VERSIONS_JSON, /* --json: versions_json indented by 2, a newline */
};

/* Append a's listing to out in format f (root: as versions_text). */
void versions_render(struct buf *out, const struct activation *a,
		     const char *root, enum versions_format f);

/* Does a list nothing at all (no CUDA, cuDNN or CUPTI)? */
bool versions_none(const struct activation *a);

#endif
