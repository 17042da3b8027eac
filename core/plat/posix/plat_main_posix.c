/*
 * plat_main_posix.c: plat_main.h on POSIX: argv and environ are bytes
 * already.
 */
#include "plat/plat_main.h"

extern char **environ;

void plat_main_args(int *argc, char ***argv, char ***envp)
{
	(void)argc;
	(void)argv;
	*envp = environ;
}
