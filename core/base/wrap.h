/*
 * wrap.h: words laid out in lines of at most a given width, for the
 * usage synopses (core/base/opts.c) and doctor's findings.
 */
#ifndef CUENV_WRAP_H
#define CUENV_WRAP_H

#include <stddef.h>

#include "base/buf.h"

enum {
	/* a word longer than a line breaks after a '|' (sh|bash|...) */
	WRAP_BREAK_BARS = 1 << 0,
	/* wrap_split: a space inside [...] splits nothing ([--cudnn V]) */
	WRAP_KEEP_BRACKETS = 1 << 1,
};

/*
 * Append words to out, whose last line already holds col columns (a
 * lead that ends where the first word goes), separated by one space; a
 * word that would end past width starts a new line indented by indent
 * (the rest of a broken word: indent + 1). Ends with a newline.
 */
void wrap_words(struct buf *out, size_t col, size_t indent,
		const struct strv *words, size_t width, unsigned flags);

/*
 * Split text[0, len) at runs of spaces into words (none empty), onto
 * words; flags: WRAP_KEEP_BRACKETS.
 */
void wrap_split(const char *text, size_t len, struct strv *words,
		unsigned flags);

#endif
