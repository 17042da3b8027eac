#include <unistd.h>

#include "cmd.h"
#include "cli/version.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	struct buf why = BUF_INIT;
	int rc = CUENV_OK;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	activation_init(&a);
	rc = cmd_activation(ctx, NULL, 0, &a, err);
	if (rc)
		goto out;
	selection_describe_origin(&a.sel, &why);
	if (!a.ok) {
		if (a.sel.origin == SEL_NONE)
			printf("none selected\n");
		else
			printf("system (%s)\n", why.data);
		rc = CUENV_NO;
		goto out;
	}
	printf("%s", a.act.cuda->version);
	if (a.act.cudnn)
		printf(" + cudnn %s", a.act.cudnn->version);
	if (a.act.cupti)
		printf(" + cupti from %s", a.act.cupti->version);
	printf(" (%s)\n", why.data);
out:
	buf_release(&why);
	activation_release(&a);
	return rc;
}

CUENV_CMD(version, 0, 0, .run = run);
