/*
 * plat_proc_posix.c: plat_proc.h on Linux.
 */
#include "plat_proc.h"

#include <errno.h>
#include <unistd.h>

extern char **environ;

int plat_exec(char *const *argv, char *const *envp)
{
	static char *no_env[] = { NULL };
	char **saved = environ;
	int e;

	/* execvp searches the new PATH: the selection's nvcc is found */
	environ = envp ? (char **)envp : no_env;
	execvp(argv[0], argv);
	e = errno;
	/* the caller frees envp: environ must not point into it */
	environ = saved;
	errno = e;
	return -1;
}
