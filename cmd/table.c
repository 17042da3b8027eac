#include <string.h>

#include "cmd.h"

#ifndef CUENV_NET
/* Run by cuenv-net (CMD_EXTERNAL): only the name and summary live here. */
const struct cuenv_cmd cmd_gc = {
	.name = "gc",
	.summary = "remove downloaded components no version uses",
	.flags = CMD_EXTERNAL,
};

const struct cuenv_cmd cmd_install = {
	.name = "install",
	.summary = "download and install CUDA, cuDNN and CUPTI versions",
	.flags = CMD_EXTERNAL,
};

const struct cuenv_cmd cmd_mirror = {
	.name = "mirror",
	.summary = "download what installs need into a folder, for "
		   "air-gapped nodes",
	.flags = CMD_EXTERNAL,
};

const struct cuenv_cmd cmd_update = {
	.name = "update",
	.summary = "refresh the catalogue from NVIDIA's index (or a mirror)",
	.flags = CMD_EXTERNAL,
};

/* Sorted by name; test_table checks that it stays sorted and complete. */
const struct cuenv_cmd *const cuenv_cmds[] = {
	&cmd_add,	  &cmd_check,	&cmd_completion, &cmd_doctor,	&cmd_env,	&cmd_exec,   &cmd_export,
	&cmd_gc,	  &cmd_global,	&cmd_help,   &cmd_init,
	&cmd_install, &cmd_list_remote, &cmd_local, &cmd_lock, &cmd_mirror, &cmd_modules, &cmd_needs, &cmd_remove,
	&cmd_uninstall, &cmd_update, &cmd_use,	&cmd_version,
	&cmd_versions, &cmd_which,
};
#else
/* cuenv-net: the commands that download or unpack. */
const struct cuenv_cmd *const cuenv_cmds[] = {
	&cmd_gc,
	&cmd_install,
	&cmd_mirror,
	&cmd_update,
};
#endif

const size_t cuenv_ncmds = sizeof(cuenv_cmds) / sizeof(*cuenv_cmds);

const struct cuenv_cmd *cmd_find(const char *name)
{
	for (size_t i = 0; i < cuenv_ncmds; i++)
		if (!strcmp(cuenv_cmds[i]->name, name))
			return cuenv_cmds[i];
	return NULL;
}
