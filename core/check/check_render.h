/*
 * check_render.h: `cuenv check`'s text report, built from the smoke
 * report (check.h) that --json writes. Pure: it only appends to a
 * buffer; cmd/check.c writes the buffer.
 */
#ifndef CUENV_CHECK_RENDER_H
#define CUENV_CHECK_RENDER_H

#include "base/buf.h"
#include "select/select.h"
#include "check/check.h"

/*
 * Append the report to out: the versions tested, the device and where
 * the selection sel came from; a line per layer (status, version, time,
 * the file the loader picked, "(not the selection's)" for a foreign
 * one) with its message, warnings and fix (a pass shows its fix only
 * with a warning); then the verdict: rc 0, how many layers passed; else
 * the layer first that failed and rc, its exit status.
 */
void check_render_text(struct buf *out, const struct selection *sel,
		       const struct check_report *r, int rc, int first);

/*
 * Append what `cuenv check` prints: with json, check_report_to_json's
 * line and a newline (--json); else check_render_text.
 */
void check_render(struct buf *out, const struct selection *sel,
		  const struct check_report *r, int rc, int first, int json);

#endif
