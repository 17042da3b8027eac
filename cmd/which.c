#include <stdio.h>
#include <unistd.h>

#include "cmd.h"
#include "cli/which.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	struct buf out = BUF_INIT;
	int rc;

	(void)argc; /* main checked how many arguments */

	activation_init(&a);
	rc = cmd_activation(ctx, NULL, 0, &a, err);
	if (!rc)
		rc = activation_which_report(&a, argv[optind], &out, err);
	fwrite(out.data, 1, out.len, stdout);
	activation_release(&a);
	buf_release(&out);
	return rc;
}

CUENV_CMD(which, 1, 1, .run = run);
