/*
 * progress.c: `cuenv install`'s progress lines (see progress.h).
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "install/install_request.h"
#include "plat/plat_sys.h"
#include "install/progress.h"
#include "base/xalloc.h"

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

/* ---- one release's install, as the user sees it ----------------------------- */

/* The terminal's width, 80 when it cannot be asked. */
static unsigned stderr_columns(void)
{
	unsigned cols = 0;

	plat_sys_stderr_tty(&cols);
	return cols ? cols : 80;
}

static double seconds(const struct progress_show *s)
{
	return (double)(s->clock_ms() - s->start_ms) / 1e3;
}

void progress_show_init(struct progress_show *s, const struct release *rel,
			int quiet, void (*write)(void *ctx, const char *text),
			void *write_ctx)
{
	unsigned cols;

	memset(s, 0, sizeof(*s));
	s->quiet = quiet;
	buf_init(&s->what);
	install_request_what(rel, &s->what);
	s->source = source_name(rel->source);
	s->src = (int)rel->source;
	s->rel = rel;
	s->write = write;
	s->write_ctx = write_ctx;
	s->columns = stderr_columns;
	s->clock_ms = plat_sys_clock_ms;
	progress_init(&s->pg, plat_sys_stderr_tty(&cols), s->what.data,
		      rel->source == SRC_REDIST ? rel->nparts + 16 : 32);
	s->start_ms = s->clock_ms();
}

void progress_show_release(struct progress_show *s)
{
	progress_release(&s->pg);
	buf_release(&s->what);
}

static void say(struct progress_show *s, struct buf *text)
{
	if (text->len)
		s->write(s->write_ctx, text->data);
	buf_release(text);
}

/* "installing ...", once, when the install really starts. */
static void begin(struct progress_show *s)
{
	struct buf text = BUF_INIT;

	if (s->quiet || __atomic_exchange_n(&s->begun, 1, __ATOMIC_RELAXED))
		return;
	buf_printf(&text, "cuenv: installing %s (%s)\n", s->what.data,
		   s->source);
	say(s, &text);
}

static void on_progress(void *ctx, const struct part_progress *p, size_t n)
{
	struct progress_show *s = ctx;
	struct buf text = BUF_INIT;

	if (s->quiet)
		return;
	begin(s);
	progress_update(&s->pg, p, n, seconds(s), s->pg.tty ? s->columns() : 80,
			&text);
	say(s, &text);
}

/* From a transfer's thread: once per install. */
static void on_note(void *ctx, const char *msg)
{
	struct progress_show *s = ctx;
	struct buf text = BUF_INIT;

	begin(s);
	if (s->quiet || __atomic_exchange_n(&s->noted, 1, __ATOMIC_RELAXED))
		return;
	buf_printf(&text, "cuenv: %s\n", msg);
	say(s, &text);
}

/* What the install adds and what its source lacks: before fetching. */
static void on_say(void *ctx, const char *text)
{
	struct progress_show *s = ctx;
	struct buf line = BUF_INIT;

	begin(s);
	if (s->quiet)
		return;
	buf_printf(&line, "cuenv: %s\n", text);
	say(s, &line);
}

static void on_waiting(void *ctx, const char *what)
{
	struct progress_show *s = ctx;
	struct buf text = BUF_INIT;

	begin(s);
	if (s->quiet)
		return;
	buf_printf(&text,
		   "cuenv: another install of %s is running; waiting for it\n",
		   what);
	say(s, &text);
}

void progress_show_attach(struct progress_show *s, struct install_opts *o)
{
	s->plan = &o->plan;
	o->progress = on_progress;
	o->waiting = on_waiting;
	o->say = on_say;
	o->progress_ctx = s;
	o->fetch.note = on_note;
	o->fetch.note_ctx = s;
}

void progress_show_detach(struct install_opts *o)
{
	o->progress = NULL;
	o->waiting = NULL;
	o->say = NULL;
	o->progress_ctx = NULL;
	o->fetch.note = NULL;
	o->fetch.note_ctx = NULL;
}

int progress_show_result(const struct progress_show *s, int rc,
			 const struct store_version *done, const char *mirror,
			 struct buf *out, struct cuenv_err *err)
{
	install_request_fetch_hint(rc, mirror, s->rel, s->plan, err);
	if (rc == CUENV_NO) {
		if (!s->quiet)
			buf_printf(out, "%s is already installed (%s)\n",
				   s->what.data, done->dir);
		return CUENV_OK;
	}
	if (!rc && !s->quiet)
		buf_printf(out, "installed %s in %s (%.1f s)\n", s->what.data,
			   done->dir, seconds(s));
	return rc;
}
