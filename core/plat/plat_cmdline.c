/*
 * plat_cmdline.c: Windows command-line quoting (see plat_cmdline.h for
 * the rules).
 */
#include "plat/plat_cmdline.h"

#include <string.h>

static void add_backslashes(struct buf *b, size_t n)
{
	while (n--)
		buf_addc(b, '\\');
}

/* One argument after the first: bare when nothing in it needs quotes. */
static void quote_arg(struct buf *out, const char *s)
{
	size_t slashes = 0;

	if (*s && !strpbrk(s, " \t\n\v\"")) {
		buf_adds(out, s);
		return;
	}
	buf_addc(out, '"');
	for (; *s; s++) {
		if (*s == '\\') {
			slashes++;
			continue;
		}
		if (*s == '"')
			add_backslashes(out, 2 * slashes + 1);
		else
			add_backslashes(out, slashes);
		slashes = 0;
		buf_addc(out, *s);
	}
	/* The closing quote must not be escaped by the trailing ones. */
	add_backslashes(out, 2 * slashes);
	buf_addc(out, '"');
}

int plat_cmdline_quote(struct buf *out, const char *const *argv)
{
	const char *prog = argv[0];

	if (!prog || !*prog || strchr(prog, '"'))
		return -1;
	if (strpbrk(prog, " \t")) {
		buf_addc(out, '"');
		buf_adds(out, prog);
		buf_addc(out, '"');
	} else {
		buf_adds(out, prog);
	}
	for (size_t i = 1; argv[i]; i++) {
		buf_addc(out, ' ');
		quote_arg(out, argv[i]);
	}
	return 0;
}
