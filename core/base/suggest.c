/*
 * suggest.c: the command an unknown name most likely means (see the
 * header).
 */
#include "base/suggest.h"

#include <string.h>

size_t suggest_distance(const char *a, const char *b)
{
	size_t n = strlen(a), m = strlen(b), d[24][24];

	if (n > 22 || m > 22)
		return 99;
	for (size_t i = 0; i <= n; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= m; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= n; i++) {
		for (size_t j = 1; j <= m; j++) {
			size_t best = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] &&
			    a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[n][m];
}

const char *suggest_command(const char *name, const char *const *names,
			    size_t n)
{
	/* pyenv's (and habit's) words for cuenv's commands */
	static const char *const known[][2] = {
		{ "shell", "use" },
		{ "activate", "use" },
		{ "deactivate", "use --unset" },
		{ "whence", "which" },
		{ "commands", "help" },
		{ "completions", "completion" },
		{ "list", "versions" },
		{ "ls", "versions" },
		{ "list-all", "list-remote" },
		{ "available", "list-remote" },
		{ "rm", "uninstall" },
		{ "delete", "uninstall" },
		{ "register", "add" },
		{ "unregister", "remove" },
		{ "upgrade", "update" },
		{ "status", "version" },
		{ "current", "version" },
		{ "smoke", "check" },
	};
	const char *best = NULL;
	size_t best_d = 3, len = strlen(name);

	for (size_t i = 0; i < sizeof(known) / sizeof(*known); i++)
		if (!strcmp(name, known[i][0]))
			return known[i][1];
	for (size_t i = 0; i < n; i++) {
		size_t d = suggest_distance(name, names[i]);

		/* not more edits than leave something of the word */
		if (d < best_d && d < len) {
			best = names[i];
			best_d = d;
		}
	}
	return best;
}

int suggest_unknown(const char *name, const char *near, struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;

	buf_add_display(&shown, name, 64);
	if (*name == '-')
		cuenv_fail(err, CUENV_E_USAGE, "unknown option '%s'",
			   shown.data);
	else
		cuenv_fail(err, CUENV_E_USAGE, "'%s' is not a cuenv command",
			   shown.data);
	if (near && *name != '-')
		cuenv_hint(err,
			   "did you mean: cuenv %s? (all commands: "
			   "cuenv help)",
			   near);
	else
		cuenv_hint(err, "see: cuenv help");
	buf_release(&shown);
	return err->rc;
}
