/*
 * explain_render.h: `cuenv explain`'s text report, built from the same
 * findings and fix as its JSON (core/explain/explain_fix.c). Pure: it only
 * appends to a buffer; cmd/explain.c writes the buffer.
 */
#ifndef CUENV_EXPLAIN_RENDER_H
#define CUENV_EXPLAIN_RENDER_H

#include "base/buf.h"
#include "explain/explain.h"

/*
 * Append the text report to out: each finding (what the name or error
 * means, the frameworks that ask for it, what this machine has), a blank
 * line between findings; then, when the text asks anything of cuenv,
 * what is installed and the commands of fx->lines that fix it.
 */
void explain_render_text(struct buf *out, const struct explain *ex,
			 const struct explain_fix *fx);

/*
 * Append what `cuenv explain` prints: with json, explain_json's object
 * (with err's message, when err holds one) indented by 2 and a newline
 * (--json); else explain_render_text.
 */
void explain_render(struct buf *out, const struct explain *ex,
		    const struct explain_fix *fx, int json,
		    const struct cuenv_err *err);

#endif
