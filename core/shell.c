#include "shell.h"

#include <string.h>

int shell_parse(const char *s, enum shell *out)
{
	static const char *const names[] = { "bash", "zsh", "fish", "sh" };

	for (int i = 0; i < 4; i++) {
		if (!strcmp(s, names[i])) {
			*out = (enum shell)i;
			return 0;
		}
	}
	return -1;
}

const char *shell_name(enum shell sh)
{
	switch (sh) {
	case SHELL_BASH:
		return "bash";
	case SHELL_ZSH:
		return "zsh";
	case SHELL_FISH:
		return "fish";
	default:
		return "sh";
	}
}

void shell_quote(enum shell sh, const char *s, struct buf *out)
{
	buf_addc(out, '\'');
	for (; *s; s++) {
		if (*s == '\'') {
			/* sh: close, escaped quote, reopen; fish: \' */
			buf_adds(out, sh == SHELL_FISH ? "\\'" : "'\\''");
		} else if (*s == '\\' && sh == SHELL_FISH) {
			buf_adds(out, "\\\\");
		} else {
			buf_addc(out, *s);
		}
	}
	buf_addc(out, '\'');
}

int shell_name_ok(const char *name)
{
	if (!((*name >= 'A' && *name <= 'Z') || (*name >= 'a' && *name <= 'z') ||
	      *name == '_'))
		return 0;
	for (name++; *name; name++)
		if (!((*name >= 'A' && *name <= 'Z') ||
		      (*name >= 'a' && *name <= 'z') ||
		      (*name >= '0' && *name <= '9') || *name == '_'))
			return 0;
	return 1;
}

/* fish treats variables whose names end in PATH as colon lists. */
static int fish_path_var(const char *name)
{
	size_t n = strlen(name);

	return n >= 4 && !strcmp(name + n - 4, "PATH");
}

void shell_export(enum shell sh, const char *name, const char *value,
		  struct buf *out)
{
	if (!shell_name_ok(name))
		return; /* not a name a shell can carry */
	if (sh != SHELL_FISH) {
		if (value) {
			buf_printf(out, "export %s=", name);
			shell_quote(sh, value, out);
			buf_adds(out, ";\n");
		} else {
			buf_printf(out, "unset %s;\n", name);
		}
		return;
	}
	if (!value) {
		buf_printf(out, "set -e %s;\n", name);
		return;
	}
	buf_printf(out, "set -gx %s", name);
	if (fish_path_var(name) && *value) {
		const char *s = value, *colon;

		do {
			struct buf item = BUF_INIT;

			colon = strchr(s, ':');
			buf_add(&item, s, colon ? (size_t)(colon - s)
						: strlen(s));
			buf_addc(out, ' ');
			shell_quote(sh, item.data, out);
			buf_release(&item);
			s = colon + 1;
		} while (colon);
	} else {
		buf_addc(out, ' ');
		shell_quote(sh, value, out);
	}
	buf_adds(out, ";\n");
}

void shell_apply(enum shell sh, const struct env_changes *c, struct buf *out)
{
	for (size_t i = 0; i < c->n; i++)
		shell_export(sh, c->v[i].name, c->v[i].value, out);
}

void shell_array(enum shell sh, const char *name, const struct strv *items,
		 struct buf *out)
{
	if (sh == SHELL_FISH)
		buf_printf(out, "set -g %s", name);
	else
		buf_printf(out, "%s=(", name);
	for (size_t i = 0; i < items->n; i++) {
		buf_addc(out, ' ');
		shell_quote(sh, items->v[i], out);
	}
	buf_adds(out, sh == SHELL_FISH ? ";\n" : " );\n");
}

void shell_local(enum shell sh, const char *name, const char *value,
		 struct buf *out)
{
	buf_printf(out, sh == SHELL_FISH ? "set -g %s " : "%s=", name);
	shell_quote(sh, value, out);
	buf_adds(out, ";\n");
}
