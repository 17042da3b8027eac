#include <stdlib.h>
#include <unistd.h>

#include "cmd.h"
#include "cli/which.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	char *path = NULL;
	int rc = CUENV_OK;

	(void)argc; /* main checked how many arguments */

	activation_init(&a);
	rc = cmd_activation(ctx, NULL, 0, &a, err);
	if (!rc && !a.ok) {
		rc = cuenv_fail(err, CUENV_NO, "nothing selected here");
		cuenv_hint(err, "select one: cuenv local VERSION");
	}
	if (!rc) {
		path = activation_which(&a, argv[optind]);
		if (path) {
			printf("%s\n", path);
		} else {
			struct buf shown = BUF_INIT;

			buf_add_display(&shown, argv[optind], 128);
			rc = cuenv_fail(err, CUENV_NO,
					"'%s' is not provided by cuda %s%s%s",
					shown.data, a.act.cuda->version,
					a.act.cudnn ? " + cudnn " : "",
					a.act.cudnn ? a.act.cudnn->version
						    : "");
			buf_release(&shown);
		}
	}
	free(path);
	activation_release(&a);
	return rc;
}

CUENV_CMD(which, 1, 1, .run = run);
