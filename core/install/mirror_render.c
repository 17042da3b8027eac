/*
 * mirror_render.c: what `cuenv mirror` says (see mirror_render.h).
 */
#include "install/mirror_render.h"
#include "install/progress.h"

void mirror_render_file(struct buf *out, const struct mirror_file *f,
			enum mirror_how how, uint64_t bytes)
{
	struct buf b = BUF_INIT;

	progress_size(&b, (double)bytes, PROGRESS_TB);
	switch (how) {
	case MIRROR_FETCHED:
		buf_printf(out, "cuenv: fetched %s (%s)\n", f->path, b.data);
		break;
	case MIRROR_CACHED:
		buf_printf(out, "cuenv: copied %s from the cache (%s)\n",
			   f->path, b.data);
		break;
	case MIRROR_COPIED:
		buf_printf(out, "cuenv: wrote %s\n", f->path);
		break;
	case MIRROR_REPAIRED:
		buf_printf(out,
			   "cuenv: replaced %s, whose bytes were wrong (%s)\n",
			   f->path, b.data);
		break;
	default:
		break;
	}
	buf_release(&b);
}

void mirror_render_summary(struct buf *out, const struct mirror_plan *plan,
			   const struct mirror_report *rep, const char *dir,
			   const char *abs)
{
	struct buf a = BUF_INIT, b = BUF_INIT;

	progress_size(&a, (double)rep->fetched_bytes, PROGRESS_TB);
	progress_size(&b, (double)rep->had_bytes, PROGRESS_TB);
	buf_printf(out,
		   "mirrored %zu release%s (%zu files) in %s: fetched %u "
		   "(%s), %u from the cache, %u already there (%s)\n",
		   plan->nentries, plan->nentries == 1 ? "" : "s", plan->nfiles,
		   dir, rep->fetched, a.data, rep->cached, rep->had, b.data);
	if (rep->repaired)
		buf_printf(out, "replaced %u damaged file%s\n", rep->repaired,
			   rep->repaired == 1 ? "" : "s");
	buf_printf(out,
		   "install from it with: cuenv install --mirror file://%s "
		   "SPEC (see %s/README.txt)\n",
		   abs ? abs : dir, abs ? abs : dir);
	buf_release(&a);
	buf_release(&b);
}

static void on_file(void *ctx, const struct mirror_file *f, enum mirror_how how,
		    uint64_t bytes)
{
	struct mirror_show *s = ctx;
	struct buf line = BUF_INIT;

	if (s->quiet)
		return;
	mirror_render_file(&line, f, how, bytes);
	if (line.len)
		s->write(s->write_ctx, line.data);
	buf_release(&line);
}

static void on_waiting(void *ctx, const char *dir)
{
	struct mirror_show *s = ctx;
	struct buf line = BUF_INIT;

	if (s->quiet)
		return;
	buf_printf(&line,
		   "cuenv: another cuenv mirror is writing '%s'; waiting for "
		   "it\n",
		   dir);
	s->write(s->write_ctx, line.data);
	buf_release(&line);
}

void mirror_show_attach(struct mirror_show *s, struct mirror_opts *o)
{
	o->on_file = on_file;
	o->waiting = on_waiting;
	o->ctx = s;
}
