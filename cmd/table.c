#include <string.h>

#include "cmd.h"

#ifndef CUENV_NET
/* Sorted by name; test_table checks that it stays sorted and complete. */
const struct cuenv_cmd *const cuenv_cmds[] = {
	&cmd_add,     &cmd_check,  &cmd_completion,  &cmd_doctor,
	&cmd_env,     &cmd_exec,   &cmd_explain,     &cmd_export,
	&cmd_gc,      &cmd_global, &cmd_help,	     &cmd_init,
	&cmd_install, &cmd_latest, &cmd_list_remote, &cmd_local,
	&cmd_lock,    &cmd_mirror, &cmd_modules,     &cmd_needs,
	&cmd_prefix,  &cmd_remove, &cmd_root,	     &cmd_uninstall,
	&cmd_update,  &cmd_use,	   &cmd_version,     &cmd_versions,
	&cmd_which,
};
#else
/* cuenv-net: the commands that download or unpack. */
const struct cuenv_cmd *const cuenv_cmds[] = {
	&cmd_gc, &cmd_install, &cmd_mirror, &cmd_needs, &cmd_update,
};
#endif

const size_t cuenv_ncmds = sizeof(cuenv_cmds) / sizeof(*cuenv_cmds);

const struct cuenv_cmd *cmd_find(const char *name)
{
	for (size_t i = 0; i < cuenv_ncmds; i++)
		if (!strcmp(cuenv_cmds[i]->cli.name, name))
			return cuenv_cmds[i];
	return NULL;
}

/* Optimal string alignment distance: edits and swaps of neighbours. */
static size_t distance(const char *a, const char *b)
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

const char *cmd_suggest(const char *name)
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
	for (size_t i = 0; i < cuenv_ncmds; i++) {
		size_t d;

		if (cuenv_cmds[i]->flags & CMD_HIDDEN)
			continue;
		d = distance(name, cuenv_cmds[i]->cli.name);
		/* not more edits than leave something of the word */
		if (d < best_d && d < len) {
			best = cuenv_cmds[i]->cli.name;
			best_d = d;
		}
	}
	return best;
}
