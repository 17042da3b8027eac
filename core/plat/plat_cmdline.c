/*
 * plat_cmdline.c: Windows command-line quoting and splitting (see
 * plat_cmdline.h for the rules).
 */
#include "plat/plat_cmdline.h"

#include <string.h>

static int is_space(char c)
{
	return c == ' ' || c == '\t';
}

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

static const char *split_program(struct strv *args, const char *p)
{
	struct buf a = BUF_INIT;

	if (*p == '"') {
		const char *end = strchr(++p, '"');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		buf_add(&a, p, n);
		p += n + (end != NULL);
	} else {
		while (*p && !is_space(*p))
			buf_addc(&a, *p++);
	}
	strv_push_take(args, buf_detach(&a));
	return p;
}

void plat_cmdline_split(struct strv *args, const char *p)
{
	p = split_program(args, p);
	for (;;) {
		struct buf a = BUF_INIT;
		int quoted = 0;

		while (is_space(*p))
			p++;
		if (!*p)
			return;
		while (*p && (quoted || !is_space(*p))) {
			size_t slashes = 0;

			while (*p == '\\') {
				slashes++;
				p++;
			}
			if (*p != '"') {
				/* Literal; what follows is looked at anew. */
				add_backslashes(&a, slashes);
				if (!slashes)
					buf_addc(&a, *p++);
				continue;
			}
			add_backslashes(&a, slashes / 2);
			if (slashes % 2) {
				buf_addc(&a, '"');
			} else if (quoted && p[1] == '"') {
				buf_addc(&a, '"');
				p++;
			} else {
				quoted = !quoted;
			}
			p++;
		}
		strv_push_take(args, buf_detach(&a));
	}
}
