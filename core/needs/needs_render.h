/*
 * needs_render.h: `cuenv needs`' text report, built from the same model
 * as its JSON (core/needs/needs_json.c): the scan, the Python frameworks, the
 * installed match, the catalogue's offer and the wheels fetched. Pure:
 * it only appends to a buffer; cmd/needs.c writes the buffer.
 */
#ifndef CUENV_NEEDS_RENDER_H
#define CUENV_NEEDS_RENDER_H

#include <stdbool.h>

#include "base/buf.h"
#include "base/err.h"
#include "needs/needs.h"

/* Files listed under each soname in the text report. */
#define NEEDS_SHOW_FILES 4

/*
 * Append the text report to out: the wheels fetched (when any), each
 * framework report, each soname asked for and the files that ask (at
 * most NEEDS_SHOW_FILES each), the Python frameworks (when py->exe),
 * then the verdict. asked: something is asked of cuenv
 * (needs_asked); satisfied: in->pick gives it all, else o says what
 * the catalogue offers. Text from the files read is shown through
 * buf_add_display (control bytes escaped, long names cut).
 */
void needs_render_text(struct buf *out, const struct needs_scan *s,
		       const struct needs_python *py,
		       const struct needs_installed *in,
		       const struct needs_offer *o,
		       const struct needs_fetches *fs, bool asked,
		       bool satisfied);

/*
 * When some of what s was to read could not be (s->unread), record in
 * err "could not read 'a', 'b' and N more: the answer leaves them out"
 * (at most NEEDS_SHOW_FILES named, each as buf_add_display shows it) and
 * return CUENV_E_STORE: the answer is then never "satisfied" (exit 0),
 * whatever the files read ask for. Else CUENV_OK, err untouched.
 */
int needs_unread_fail(const struct needs_scan *s, struct cuenv_err *err);

/*
 * Append what `cuenv needs` prints: with json, needs_json's object
 * indented by 2 and a newline (--json); else needs_render_text.
 */
void needs_render(struct buf *out, const struct needs_scan *s,
		  const struct needs_python *py,
		  const struct needs_installed *in, const struct needs_offer *o,
		  const struct needs_fetches *fs, bool asked, bool satisfied,
		  int json);

#endif
