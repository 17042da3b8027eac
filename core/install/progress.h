/*
 * progress.h: `cuenv install`'s progress display, as lines of text.
 *
 * The install (core/install) reports each archive's bytes and state
 * several times a second (struct part_progress). On a terminal that
 * becomes a block redrawn in place: one line per archive and a total
 * with the rate and the time left, each line cut to the terminal's
 * width, since a line that wrapped would take two rows and the next
 * redraw, going up one row per line, would write over the wrong ones.
 * Elsewhere (CI logs, container builds) it becomes a line per archive
 * as it finishes and one for the whole at each quarter.
 *
 * progress_update is pure: the time, whether stderr is a terminal and
 * its width are inputs, and the text goes into a buffer. struct
 * progress_show is one release's install as the user sees it: it asks
 * the terminal and the clock (plat_sys) and hands each message's text to
 * a writer cmd/install.c gives (stderr).
 */
#ifndef CUENV_PROGRESS_H
#define CUENV_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/err.h"
#include "install/install.h"

struct progress {
	bool tty;	   /* redraw a block; else a line per event */
	const char *what;  /* "cuda 12.4.1", borrowed */
	unsigned lines;	   /* tty: lines of the block drawn last */
	bool *announced;   /* plain: per archive, its line was given */
	size_t nparts;	   /* archives announced at most */
	unsigned last_pct; /* plain: last quarter given */
};

/* For the install of what (borrowed: it must outlive pg), with at most
 * nparts archives announced one by one when not tty. */
void progress_init(struct progress *pg, bool tty, const char *what,
		   size_t nparts);
void progress_release(struct progress *pg);

/*
 * Append to out what to write to stderr for the update p[0..n), t
 * seconds after the install began. tty: the block (going up over the
 * previous one first), each line cleared and cut to cols - 1 columns
 * (a narrow layout under 60). Else: "cuenv: NAME done (SIZE)", "from
 * the cache" or "failed (GOT of SIZE)" for each archive newly finished,
 * and "cuenv: WHAT: 25% (SIZE)" when the whole passes a new quarter
 * (never 100%: the install's own line says that).
 */
void progress_update(struct progress *pg, const struct part_progress *p,
		     size_t n, double t, unsigned cols, struct buf *out);

/* The largest unit progress_size uses: install's lines stop at GB. */
enum progress_unit { PROGRESS_GB = 3, PROGRESS_TB = 4 };

/* bytes in words: "512 B", "1.5 MB" (powers of 1000, up to top). */
void progress_size(struct buf *out, double bytes, enum progress_unit top);

/* ---- one release's install, as the user sees it --------------------------- */

struct progress_show {
	int quiet;		      /* errors only: nothing is written */
	struct buf what;	      /* "cuda 12.4.1" (install_request_what) */
	const char *source;	      /* "redist" */
	int src;		      /* the same, an enum source_kind */
	const struct release *rel;    /* borrowed: it outlives s */
	const struct plan_opts *plan; /* what was asked (attach's), or NULL */
	struct progress pg;
	int begun; /* "installing ..." was written */
	int noted; /* a transfer's note was written */
	int64_t start_ms;
	/* Where the text goes (stderr), from the installing threads. */
	void (*write)(void *ctx, const char *text);
	void *write_ctx;
	/* The terminal's width now, for pg.tty; and the clock. Set by
	 * progress_show_init to plat_sys's; a test may replace them. */
	unsigned (*columns)(void);
	int64_t (*clock_ms)(void);
};

/*
 * For the install of rel: its name, whether stderr is a terminal (then
 * the progress is a block redrawn in place), and the time it starts.
 * Nothing is written yet.
 */
void progress_show_init(struct progress_show *s, const struct release *rel,
			int quiet, void (*write)(void *ctx, const char *text),
			void *write_ctx);
void progress_show_release(struct progress_show *s);

/*
 * Point o's progress, waiting and fetch note callbacks at s, which must
 * outlive their use: until progress_show_detach(o). s then writes
 * "cuenv: installing WHAT (SOURCE)" once, when the install really starts
 * (its first progress, note or wait: a version already installed gets
 * only its result line), the progress (progress_update), the first of
 * the transfers' notes ("cuenv: MSG"), and "cuenv: another install of
 * WHAT is running; waiting for it". Nothing when quiet.
 */
void progress_show_attach(struct progress_show *s, struct install_opts *o);
void progress_show_detach(struct install_opts *o);

/*
 * After install_run returned rc for s's release, with done (its install)
 * and mirror (its o->mirror): the line for stdout onto out, unless quiet:
 * "WHAT is already installed (DIR)" for CUENV_NO, which is then
 * CUENV_OK, or "installed WHAT in DIR (S s)". A failure to fetch gets
 * install_request_fetch_hint's hint in err. Returns the command's code.
 */
int progress_show_result(const struct progress_show *s, int rc,
			 const struct store_version *done, const char *mirror,
			 struct buf *out, struct cuenv_err *err);

#endif
