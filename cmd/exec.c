#include <errno.h>
#include <getopt.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"

extern char **environ;

static const char usage[] =
	"usage: cuenv exec [--isolate] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND with the selection for this directory activated, as the\n"
	"shell hook would activate it; no shell integration needed (scripts,\n"
	"CI, containers). COMMAND's exit status is passed through; 126 and\n"
	"127 mean it could not be run or found. With nothing selected the\n"
	"command runs in the environment without cuenv's additions.\n"
	"\n"
	"  --isolate    strip foreign CUDA dirs from LD_LIBRARY_PATH\n";

static const struct option opts[] = {
	{ "isolate", no_argument, NULL, 'i' },
	{ NULL, 0, NULL, 0 },
};

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	static char *no_env[] = { NULL };
	struct activation a;
	int c, rc, isolate = 0;

	while ((c = getopt_long(argc, argv, "+", opts, NULL)) != -1) {
		if (c != 'i')
			return cmd_bad_usage(&cmd_exec, err);
		isolate = 1;
	}
	rc = cmd_check_args(&cmd_exec, argc - optind, err);
	if (rc)
		return rc;
	activation_init(&a);
	rc = cmd_activation(ctx, NULL, isolate, &a, err);
	if (!rc) {
		fflush(stdout);
		/* execvp searches the new PATH: the selection's nvcc is found */
		environ = a.after.vars.v ? a.after.vars.v : no_env;
		execvp(argv[optind], argv + optind);
		rc = errno == ENOENT ? 127 : 126;
		cuenv_fail(err, rc, "cannot run '%s': %s", argv[optind],
			   strerror(errno));
	}
	activation_release(&a);
	return rc;
}

const struct cuenv_cmd cmd_exec = {
	.name = "exec",
	.summary = "run a command with the selection activated",
	.usage = usage,
	.min_args = 1,
	.max_args = -1,
	.flags = CMD_STOP_AT_ARG,
	.run = run,
};
