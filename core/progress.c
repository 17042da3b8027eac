/*
 * progress.c: `cuenv install`'s progress lines (see progress.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "xalloc.h"

/* A block line longer than this is cut whatever the width. */
#define LINE_MAX_BYTES 255

void progress_init(struct progress *pg, bool tty, const char *what,
		   size_t nparts)
{
	memset(pg, 0, sizeof(*pg));
	pg->tty = tty;
	pg->what = what;
	pg->nparts = nparts;
	pg->announced = xcalloc(nparts ? nparts : 1, sizeof(bool));
}

void progress_release(struct progress *pg)
{
	free(pg->announced);
	memset(pg, 0, sizeof(*pg));
}

void progress_size(struct buf *out, double bytes, enum progress_unit top)
{
	static const char *const unit[] = { "B", "KB", "MB", "GB", "TB" };
	int u = 0;

	while (bytes >= 1000 && u < (int)top) {
		bytes /= 1000;
		u++;
	}
	buf_printf(out, u ? "%.1f %s" : "%.0f %s", bytes, unit[u]);
}

/* progress_size into a buffer of its own, reset first. */
static const char *size_of(struct buf *b, double bytes)
{
	buf_reset(b);
	progress_size(b, bytes, PROGRESS_GB);
	return b->data;
}

static const char *part_state(const struct part_progress *p)
{
	switch (p->state) {
	case PART_DONE:
		return p->cached ? "cached" : "done";
	case PART_FAILED:
		return "failed";
	case PART_FETCHING:
		return "";
	default:
		return "waiting";
	}
}

/* One line of the block: cleared, cut to the width (the last column
 * too: some terminals wrap on writing it). */
static void draw(struct buf *out, unsigned cols, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void draw(struct buf *out, unsigned cols, const char *fmt, ...)
{
	struct buf line = BUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(&line, fmt, ap);
	va_end(ap);
	if (line.len > LINE_MAX_BYTES)
		buf_setlen(&line, LINE_MAX_BYTES);
	if (cols > 1 && line.len > cols - 1)
		buf_setlen(&line, cols - 1);
	buf_printf(out, "\033[2K%s\n", line.data);
	buf_release(&line);
}

/* On a terminal: the block, one line per archive, then the total. */
static void draw_block(struct progress *pg, const struct part_progress *p,
		       size_t n, uint64_t done, uint64_t total, double t,
		       unsigned cols, struct buf *out)
{
	struct buf a = BUF_INIT, b = BUF_INIT, r = BUF_INIT, left = BUF_INIT;

	if (pg->lines)
		buf_printf(out, "\033[%uA", pg->lines);
	for (size_t i = 0; i < n; i++) {
		size_of(&a, (double)p[i].done);
		size_of(&b, (double)p[i].total);
		if (cols < 60) /* narrow: 33 columns + state */
			draw(out, cols, "  %-12.12s %8s/%-8s %s", p[i].name,
			     a.data, b.data, part_state(&p[i]));
		else
			draw(out, cols, "  %-22s %10s / %-10s %s", p[i].name,
			     a.data, b.data, part_state(&p[i]));
	}
	size_of(&a, (double)done);
	size_of(&b, (double)total);
	size_of(&r, t > 0 ? (double)done / t : 0);
	if (total && done && done < total && t > 0.5)
		buf_printf(&left, ", %.0f s left",
			   (double)(total - done) / ((double)done / t));
	if (cols < 60)
		draw(out, cols, "  %-12s %8s/%-8s %s/s%s", "total", a.data,
		     b.data, r.data, left.data);
	else
		draw(out, cols, "  %-22s %10s / %-10s %s/s%s", "total", a.data,
		     b.data, r.data, left.data);
	pg->lines = (unsigned)n + 1;
	buf_release(&a);
	buf_release(&b);
	buf_release(&r);
	buf_release(&left);
}

/* Not a terminal: a line per archive finished. */
static void announce_parts(struct progress *pg, const struct part_progress *p,
			   size_t n, struct buf *out)
{
	struct buf a = BUF_INIT, b = BUF_INIT;

	for (size_t i = 0; i < n && i < pg->nparts; i++) {
		if (pg->announced[i] ||
		    (p[i].state != PART_DONE && p[i].state != PART_FAILED))
			continue;
		pg->announced[i] = true;
		if (p[i].state == PART_FAILED) {
			/* what arrived, not what was expected */
			size_of(&a, (double)p[i].done);
			size_of(&b, (double)p[i].total);
			if (p[i].total)
				buf_printf(out, "cuenv: %s failed (%s of %s)\n",
					   p[i].name, a.data, b.data);
			else
				buf_printf(out, "cuenv: %s failed (%s)\n",
					   p[i].name, a.data);
			continue;
		}
		/* runfiles and tarballs come without a size: what was read */
		size_of(&a, (double)(p[i].total ? p[i].total : p[i].done));
		buf_printf(out, "cuenv: %s %s (%s)\n", p[i].name,
			   p[i].cached ? "from the cache" : "done", a.data);
	}
	buf_release(&a);
	buf_release(&b);
}

void progress_update(struct progress *pg, const struct part_progress *p,
		     size_t n, double t, unsigned cols, struct buf *out)
{
	uint64_t done = 0, total = 0;

	for (size_t i = 0; i < n; i++) {
		done += p[i].done;
		total += p[i].total;
	}
	if (pg->tty) {
		draw_block(pg, p, n, done, total, t, cols, out);
		return;
	}
	announce_parts(pg, p, n, out);
	/* and the whole, sparsely: every quarter */
	if (total) {
		/* done and total start at 0 and only add p's fields. */
		/* NOLINTNEXTLINE(clang-analyzer-core.UndefinedBinaryOperatorResult) */
		unsigned pct = (unsigned)(done * 100 / total) / 25 * 25;

		if (pct > pg->last_pct && pct < 100) {
			pg->last_pct = pct;
			buf_printf(out, "cuenv: %s: %u%% (", pg->what, pct);
			progress_size(out, (double)done, PROGRESS_GB);
			buf_adds(out, ")\n");
		}
	}
}
