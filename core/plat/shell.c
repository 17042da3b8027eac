#include "plat/shell.h"

#include <stdbool.h>
#include <string.h>

/* By enum shell. */
static const char *const names[] = {
	"bash", "zsh", "fish", "sh", "pwsh", "cmd"
};
#define SHELLS (sizeof(names) / sizeof(*names))

int shell_parse(const char *s, enum shell *out)
{
	long i = str_index(names, SHELLS, s);

	if (i >= 0)
		*out = (enum shell)i;
	return i < 0 ? -1 : 0;
}

const char *shell_name(enum shell sh)
{
	return (unsigned)sh < SHELLS ? names[sh] : "sh";
}

void shell_quote(enum shell sh, const char *s, struct buf *out)
{
	if (sh == SHELL_PWSH) {
		shell_pwsh_quote(s, out);
		return;
	}
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
	if (!((*name >= 'A' && *name <= 'Z') ||
	      (*name >= 'a' && *name <= 'z') || *name == '_'))
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
	if (sh == SHELL_PWSH) {
		shell_pwsh_export(name, value, out);
		return;
	}
	if (sh == SHELL_CMD) {
		(void)shell_cmd_export(name, value, out);
		return;
	}
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
			buf_add(&item, s,
				colon ? (size_t)(colon - s) : strlen(s));
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
	if (sh == SHELL_CMD)
		return;
	if (sh == SHELL_PWSH) {
		/* @() is an array even with one item or none */
		buf_printf(out, "$global:%s = @(", name);
		for (size_t i = 0; i < items->n; i++) {
			if (i)
				buf_adds(out, ", ");
			shell_pwsh_quote(items->v[i], out);
		}
		buf_adds(out, ")\n");
		return;
	}
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
	if (sh == SHELL_CMD)
		return;
	if (sh == SHELL_PWSH) {
		buf_printf(out, "$global:%s = ", name);
		shell_pwsh_quote(value, out);
		buf_addc(out, '\n');
		return;
	}
	buf_printf(out, sh == SHELL_FISH ? "set -g %s " : "%s=", name);
	shell_quote(sh, value, out);
	buf_adds(out, ";\n");
}

/*
 * cmd.exe. Microsoft's `for /?`: FOR /F reads the command's output line
 * by line ("Blank lines are skipped"; eol=; by default: a line starting
 * with ';' is skipped, ours start with '"'; "delims=" turns off the
 * splitting into tokens), and %%i in the body is replaced by the line.
 * The body's %VAR% references and its special characters (^ & | < > ( )
 * and quotes) were handled when cmd read the FOR command, before %%i had
 * a value, so none of them applies to the text of the line. What still
 * applies afterwards is delayed expansion (`setlocal
 * EnableDelayedExpansion`, `cmd /v:on`): `set /?` says `!VAR!` is then
 * expanded at execution time (and a line holding a '!' loses its carets),
 * so '!' is refused. `set /?`: `SET variable=` with nothing after '='
 * deletes the variable; the quoted form `set "NAME=value"` takes
 * everything up to the argument's last quote, so quotes inside the value
 * stay. The body is `set %%i`, not `%%i` with "set" in the line: wine's
 * cmd (8.0) does not run a command whose name comes from a FOR variable,
 * and the SET argument is the same either way.
 */
int shell_cmd_export(const char *name, const char *value, struct buf *out)
{
	if (!shell_name_ok(name))
		return -1;
	if (!value)
		value = "";
	if (strpbrk(value, "\n\r!"))
		return -1;
	buf_printf(out, "\"%s=%s\"\n", name, value);
	return 0;
}

/*
 * PowerShell reads a script in the console's code page when it has no
 * byte order mark (Windows PowerShell 5.1 always; Invoke-Expression gets
 * what the pipe decoded the same way): the UTF-8 bytes of U+0452, D1 92,
 * are "Ñ’" in code page 1252, and that U+2019 ends a single-quoted string
 * (the language specification, 2.3.5.2.2, counts U+0027 and U+2018 to
 * U+201B as single-quote-character). So what is written is ASCII only,
 * whatever the code page:
 *
 *  - an ASCII value as a verbatim string: about_Quoting_Rules, "No
 *    substitution is performed", and "To include a single quotation mark
 *    in a single-quoted string, use a second consecutive single quote";
 *  - any other as an expandable string, "...", whose characters past
 *    ASCII are subexpressions $([char]0x0452) (UTF-16 code units: two for
 *    U+10000 and up), and whose ` $ and " are escaped with the backtick
 *    (about_Special_Characters); newlines are literal in both.
 */

/* The code point of the UTF-8 sequence at s into *cp: its length, or 0
 * when it is not one (truncated, overlong, a surrogate, past U+10FFFF). */
static size_t utf8_at(const unsigned char *s, unsigned long *cp)
{
	size_t n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	static const unsigned long least[] = { 0, 0, 0x80, 0x800, 0x10000 };

	if (!n || s[0] >= 0xf8)
		return 0;
	*cp = s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3f);
	}
	if (*cp < least[n] || *cp > 0x10ffff ||
	    (*cp >= 0xd800 && *cp <= 0xdfff))
		return 0;
	return n;
}

static bool ascii(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s >= 0x80)
			return false;
	return true;
}

int shell_pwsh_quote(const char *s, struct buf *out)
{
	const unsigned char *u = (const unsigned char *)s;
	int rc = 0;

	if (ascii(s)) {
		buf_addc(out, '\'');
		for (; *s; s++) {
			if (*s == '\'')
				buf_addc(out, '\'');
			buf_addc(out, *s);
		}
		buf_addc(out, '\'');
		return 0;
	}
	buf_addc(out, '"');
	while (*u) {
		unsigned long cp;
		size_t n;

		if (*u < 0x80) {
			if (*u == '`' || *u == '$' || *u == '"')
				buf_addc(out, '`');
			buf_addc(out, (char)*u++);
			continue;
		}
		n = utf8_at(u, &cp);
		if (!n) {
			/* not UTF-8: what a decoder would make of it */
			cp = 0xfffd;
			n = 1;
			rc = -1;
		}
		u += n;
		if (cp >= 0x10000) {
			cp -= 0x10000;
			buf_printf(out, "$([char]0x%04lX)",
				   0xd800 + (cp >> 10));
			cp = 0xdc00 + (cp & 0x3ff);
		}
		buf_printf(out, "$([char]0x%04lX)", cp);
	}
	buf_addc(out, '"');
	return rc;
}

int shell_pwsh_export(const char *name, const char *value, struct buf *out)
{
	int rc;

	if (!shell_name_ok(name))
		return -1;
	if (!value) {
		buf_printf(out,
			   "Remove-Item Env:%s -ErrorAction SilentlyContinue\n",
			   name);
		return 0;
	}
	buf_printf(out, "$env:%s = ", name);
	rc = shell_pwsh_quote(value, out);
	buf_addc(out, '\n');
	return rc;
}

void shell_quote_word(struct buf *out, const char *s)
{
	if (*s &&
	    strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
		      "0123456789_./:@%+=,-") == strlen(s))
		buf_adds(out, s);
	else
		shell_quote(SHELL_SH, s, out);
}

/* ---- cuenv init ---------------------------------------------------------- */

void shell_fill(struct buf *out, const char *tmpl, const char *bin,
		const char *shell)
{
	const char *p = tmpl, *at;

	while ((at = strchr(p, '@'))) {
		buf_add(out, p, (size_t)(at - p));
		if (!strncmp(at, "@CUENV_BIN@", 11)) {
			buf_adds(out, bin);
			p = at + 11;
		} else if (!strncmp(at, "@CUENV_SHELL@", 13)) {
			buf_adds(out, shell);
			p = at + 13;
		} else {
			buf_addc(out, '@');
			p = at + 1;
		}
	}
	buf_adds(out, p);
}

int shell_fill_doskey(struct buf *out, const char *tmpl, const char *exe,
		      struct cuenv_err *err)
{
	struct buf bin = BUF_INIT;

	if (strpbrk(exe, "%\"\n\r")) {
		cuenv_fail_shown(
			err, CUENV_E_USAGE, exe, 200,
			"init: cmd cannot name '%s' in a doskey macro (it holds %% or a quote)");
		return cuenv_hint(err, "move cuenv to a folder without '%%'");
	}
	buf_addc(&bin, '"');
	for (const char *p = exe; *p; p++) {
		if (*p == '$')
			buf_addc(&bin, '$');
		buf_addc(&bin, *p);
	}
	buf_addc(&bin, '"');
	shell_fill(out, tmpl, bin.data, "cmd");
	buf_release(&bin);
	return CUENV_OK;
}

const char *shell_word(const char *s)
{
	static const char *const known[] = { "bash", "zsh", "fish" };
	const char *base = strrchr(s, '/');

	base = base ? base + 1 : s;
	if (*base == '-')
		base++;
	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (!strcmp(base, known[i]))
			return known[i];
	return NULL;
}

const char *shell_detect(const char *parent, const char *env_shell)
{
	const char *found = parent ? shell_word(parent) : NULL;

	return found ? found : env_shell ? shell_word(env_shell) : NULL;
}

/* The integration for sh (bash, zsh, fish: not SHELL_SH) or pwsh. */
static void init_shell(const struct shell_templates *t, enum shell sh,
		       const char *exe, struct buf *out)
{
	struct buf bin = BUF_INIT;

	if (sh == SHELL_PWSH) {
		shell_pwsh_quote(exe, &bin);
		shell_fill(out, t->pwsh, bin.data, "pwsh");
	} else {
		shell_quote(sh, exe, &bin);
		if (sh != SHELL_FISH)
			shell_fill(out, t->sh, bin.data, shell_name(sh));
		shell_fill(out,
			   sh == SHELL_BASH  ? t->bash
			   : sh == SHELL_ZSH ? t->zsh
					     : t->fish,
			   bin.data, shell_name(sh));
	}
	buf_release(&bin);
}

int shell_init_script(const struct shell_templates *t, const char *name,
		      const char *exe, const char *detected, struct buf *out,
		      struct cuenv_err *err)
{
	struct buf bin = BUF_INIT;
	enum shell sh;

	if (!name) {
		cuenv_fail(err, CUENV_E_USAGE, "init: missing argument");
		/* `init -` only where it would work from here. */
		if (detected)
			return cuenv_hint(err, "name the shell: cuenv init "
					       "bash (or zsh, fish), or "
					       "detect it: cuenv init -");
		return cuenv_hint(err, "name the shell: cuenv init bash "
				       "(or zsh, fish)");
	}
	if (!strcmp(name, "-") && !(name = detected)) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "init: cannot tell the shell: neither the parent "
			   "process nor $SHELL is bash, zsh or fish");
		return cuenv_hint(err, "name it: cuenv init bash (or zsh, "
				       "fish)");
	}
	if (!strcmp(name, "direnv")) {
		/* direnv evaluates .envrc and its libraries in bash. */
		shell_quote(SHELL_BASH, exe, &bin);
		shell_fill(out, t->direnv, bin.data, "bash");
		buf_release(&bin);
		return CUENV_OK;
	}
	if (shell_parse(name, &sh) || sh == SHELL_SH) {
		cuenv_fail_shown(err, CUENV_E_USAGE, name, 64,
				 "init: unsupported shell '%s'");
		return cuenv_hint(err, "shells: bash, zsh, fish, pwsh, cmd; or "
				       "direnv");
	}
	if (sh == SHELL_CMD)
		return shell_fill_doskey(out, t->doskey, exe, err);
	init_shell(t, sh, exe, out);
	return CUENV_OK;
}

/* ---- cuenv completion ---------------------------------------------------- */

int shell_completion_script(const struct shell_completions *c, const char *name,
			    const char **text, struct cuenv_err *err)
{
	*text = NULL;
	if (!name) {
		cuenv_fail(err, CUENV_E_USAGE, "completion: missing argument");
		return cuenv_hint(err, "name the shell: cuenv completion "
				       "bash|zsh|fish");
	}
	if (!strcmp(name, "bash"))
		*text = c->bash;
	else if (!strcmp(name, "zsh"))
		*text = c->zsh;
	else if (!strcmp(name, "fish"))
		*text = c->fish;
	if (*text)
		return CUENV_OK;
	cuenv_fail(err, CUENV_E_USAGE, "completion: unknown shell '%s'", name);
	return cuenv_hint(err, "shells: bash, zsh, fish");
}
