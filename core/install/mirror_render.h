/*
 * mirror_render.h: what `cuenv mirror` says: a line per file as the run
 * gets it, and the summary. The text goes into a buffer, or through the
 * writer cmd/mirror.c gives struct mirror_show (stderr).
 */
#ifndef CUENV_MIRROR_RENDER_H
#define CUENV_MIRROR_RENDER_H

#include <stdint.h>

#include "base/buf.h"
#include "install/mirror.h"

/*
 * Append the line for file f gotten how (bytes of it) to out, for
 * stderr: "cuenv: fetched PATH (SIZE)", "copied ... from the cache",
 * "wrote PATH" (a manifest), "replaced PATH, whose bytes were wrong";
 * nothing for a file already there (MIRROR_HAD).
 */
void mirror_render_file(struct buf *out, const struct mirror_file *f,
			enum mirror_how how, uint64_t bytes);

/*
 * Append the summary of the run that made dir hold plan (rep: what it
 * did) to out: releases and files, what was fetched, copied and already
 * there, files replaced, and the `cuenv install --mirror` line for it,
 * named by abs (dir's absolute path; NULL: dir as given).
 */
void mirror_render_summary(struct buf *out, const struct mirror_plan *plan,
			   const struct mirror_report *rep, const char *dir,
			   const char *abs);

/* What a run says as it goes, through write (stderr's). */
struct mirror_show {
	int quiet; /* errors only: nothing is written */
	void (*write)(void *ctx, const char *text);
	void *write_ctx;
};

/*
 * Point o's on_file and waiting callbacks at s (which must outlive the
 * run): each file's line (mirror_render_file), and "cuenv: another cuenv
 * mirror is writing 'DIR'; waiting for it".
 */
void mirror_show_attach(struct mirror_show *s, struct mirror_opts *o);

#endif
