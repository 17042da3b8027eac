#include <string.h>

#include "cmd.h"

/* Sorted by name; test_table checks that it stays sorted and complete. */
const struct cuenv_cmd *const cuenv_cmds[] = {
	&cmd_add,     &cmd_env,	   &cmd_exec,	   &cmd_export, &cmd_global,
	&cmd_help,    &cmd_init,   &cmd_local,	   &cmd_remove, &cmd_uninstall,
	&cmd_use,     &cmd_version, &cmd_versions, &cmd_which,
};

const size_t cuenv_ncmds = sizeof(cuenv_cmds) / sizeof(*cuenv_cmds);

const struct cuenv_cmd *cmd_find(const char *name)
{
	for (size_t i = 0; i < cuenv_ncmds; i++)
		if (!strcmp(cuenv_cmds[i]->name, name))
			return cuenv_cmds[i];
	return NULL;
}
