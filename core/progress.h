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
 * Pure: the time, whether stderr is a terminal and its width are
 * inputs, and the text goes into a buffer; cmd/install.c asks the
 * terminal and writes.
 */
#ifndef CUENV_PROGRESS_H
#define CUENV_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

#include "buf.h"
#include "install.h"

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

#endif
