/*
 * doctor_render.c: `cuenv doctor`'s text report (see doctor_render.h).
 */
#include <string.h>

#include "doctor/doctor_render.h"
#include "base/json_util.h"
#include "base/wrap.h"

/* first, then text wrapped at spaces, further lines indented by indent. */
static void render_wrapped(struct buf *out, const char *first, size_t indent,
			   const char *text)
{
	struct strv words = STRV_INIT;
	struct buf line = BUF_INIT;

	wrap_split(text, strlen(text), &words, 0);
	buf_adds(&line, first);
	if (words.n)
		buf_addc(&line, ' ');
	wrap_words(&line, line.len, indent, &words, DOCTOR_RENDER_WIDTH, 0);
	buf_adds(out, line.data);
	buf_release(&line);
	strv_release(&words);
}

/*
 * The fix, one alternative a line: "; or " starts the next, "; and " a
 * step to take as well.
 */
static void render_fix(struct buf *out, const char *fix)
{
	const char *p = fix, *lead = "    fix: ";

	while (*p) {
		const char * or = strstr(p, "; or "),
			     *and = strstr(p, "; and ");
		const char *next = or &&(!and || or < and) ? or : and;
		size_t n = next ? (size_t)(next - p) : strlen(p);

		buf_printf(out, "%s%.*s\n", lead, (int)n, p);
		if (!next)
			break;
		lead = next == or ? "     or: " : "    and: ";
		p = next + (next == or ? 5 : 6);
	}
}

void doctor_render_text(struct buf *out, const struct activation *a,
			const struct findings *f)
{
	static const char *const heads[] = { "problems", "warnings", "info" };
	struct buf sel = BUF_INIT;
	size_t np = findings_count(f, DOCTOR_PROBLEM),
	       nw = findings_count(f, DOCTOR_WARNING),
	       ni = findings_count(f, DOCTOR_INFO);

	doctor_describe_selection(a, &sel);
	buf_printf(out, "selection: %s\n", sel.data);
	for (int s = DOCTOR_PROBLEM; s <= DOCTOR_INFO; s++) {
		if (!findings_count(f, (enum doctor_severity)s))
			continue;
		buf_printf(out, "\n%s:\n", heads[s]);
		for (size_t i = 0; i < f->n; i++) {
			const struct finding *x = &f->v[i];
			struct buf first = BUF_INIT;

			if ((int)x->severity != s)
				continue;
			buf_printf(&first, "  * [%s]", x->id);
			render_wrapped(out, first.data, 4, x->what);
			if (*x->why)
				render_wrapped(out, "    why:", 9, x->why);
			if (*x->fix)
				render_fix(out, x->fix);
			buf_release(&first);
		}
	}
	buf_printf(out, "\n%zu problem%s, %zu warning%s, %zu info: %s\n", np,
		   np == 1 ? "" : "s", nw, nw == 1 ? "" : "s", ni,
		   np	? "this selection will fail as described above"
		   : nw ? "no problem found; the warnings can still bite"
			: "no problem found");
	buf_release(&sel);
}

void doctor_render(struct buf *out, const struct activation *a,
		   const struct findings *f, int json)
{
	if (json)
		json_add_report_take(out, doctor_report_json(a, f));
	else
		doctor_render_text(out, a, f);
}
