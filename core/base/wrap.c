#include "base/wrap.h"

#include <string.h>

#include "base/xalloc.h"

/*
 * Add w (len bytes) at *col, breaking after its '|'s while it is longer
 * than a line; returns the length of what is left, added last.
 */
static size_t add_word(struct buf *out, const char *w, size_t len, size_t *col,
		       size_t indent, size_t width, unsigned flags)
{
	size_t room = width > indent ? width - indent : 1;

	while ((flags & WRAP_BREAK_BARS) && len > room) {
		const char *bar = w + room - 1;

		while (bar > w && *bar != '|')
			bar--;
		if (bar == w)
			break;
		buf_add(out, w, (size_t)(bar - w) + 1);
		buf_printf(out, "\n%*s", (int)indent + 1, "");
		len -= (size_t)(bar - w) + 1;
		w = bar + 1;
		*col = indent + 1;
	}
	buf_add(out, w, len);
	*col += len;
	return len;
}

void wrap_words(struct buf *out, size_t col, size_t indent,
		const struct strv *words, size_t width, unsigned flags)
{
	size_t on_line = 0; /* words on the current line */

	for (size_t i = 0; i < words->n; i++) {
		size_t len = strlen(words->v[i]);

		if (on_line && col + 1 + len > width) {
			buf_printf(out, "\n%*s", (int)indent, "");
			col = indent;
			on_line = 0;
		} else if (on_line) {
			buf_addc(out, ' ');
			col++;
		}
		add_word(out, words->v[i], len, &col, indent, width, flags);
		on_line++;
	}
	buf_addc(out, '\n');
}

void wrap_split(const char *text, size_t len, struct strv *words,
		unsigned flags)
{
	size_t start = 0;
	int depth = 0;

	for (size_t i = 0; i <= len; i++) {
		if (i < len && text[i] != ' ') {
			if (flags & WRAP_KEEP_BRACKETS)
				depth += text[i] == '['	  ? 1
					 : text[i] == ']' ? -1
							  : 0;
			continue;
		}
		if (i < len && depth > 0)
			continue;
		if (i > start)
			strv_push_take(words,
				       xstrndup(text + start, i - start));
		start = i + 1;
	}
}
