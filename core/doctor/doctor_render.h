/*
 * doctor_render.h: `cuenv doctor`'s text report, built from the same
 * findings as its JSON (doctor_report_json). Pure: it only appends to a
 * buffer; cmd/doctor.c writes the buffer.
 */
#ifndef CUENV_DOCTOR_RENDER_H
#define CUENV_DOCTOR_RENDER_H

#include "base/buf.h"
#include "doctor/doctor.h"

/* Lines of the report are wrapped to this many columns. */
#define DOCTOR_RENDER_WIDTH 79

/*
 * Append the report to out: the selection of a; the problems, warnings
 * and info in that order, each finding as "  * [id] what" with its why
 * wrapped beneath, and its fix one alternative a line ("; or " starts
 * the next, "; and " a step to take as well); then the count and the
 * verdict.
 */
void doctor_render_text(struct buf *out, const struct activation *a,
			const struct findings *f);

/*
 * Append what `cuenv doctor` prints: with json, doctor_report_json
 * indented by 2 and a newline (--json); else doctor_render_text.
 */
void doctor_render(struct buf *out, const struct activation *a,
		   const struct findings *f, int json);

#endif
