#include <string.h>

#include "base/suggest.h"
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

const char *cmd_suggest(const char *name)
{
	const char *names[sizeof(cuenv_cmds) / sizeof(*cuenv_cmds)];
	size_t n = 0;

	for (size_t i = 0; i < cuenv_ncmds; i++)
		if (!(cuenv_cmds[i]->flags & CMD_HIDDEN))
			names[n++] = cuenv_cmds[i]->cli.name;
	return suggest_command(name, names, n);
}
