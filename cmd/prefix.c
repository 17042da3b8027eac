#include <stdio.h>

#include "cmd.h"
#include "cli/prefix.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	const char *spec = optind < argc ? argv[optind] : NULL, *prefix = NULL;
	int rc = spec ? select_prefix_spec(spec, err) : CUENV_OK;

	if (rc)
		return rc;
	activation_init(&a);
	if (!spec) {
		rc = cmd_activation(ctx, NULL, 0, &a, err);
		if (!rc)
			rc = activation_selected(&a, err);
		if (!rc)
			prefix = a.act.cuda->prefix;
	} else {
		rc = activation_list(ctx->root,
				     env_get(ctx->envp, "CUENV_SYSTEM_ROOTS"),
				     &a, err);
		for (size_t i = 0; i < a.warnings.n; i++)
			cmd_warn("%s", a.warnings.v[i]);
		if (!rc)
			rc = select_prefix(spec, &a.cudas, &a.cudnns, &a.cuptis,
					   &prefix, err);
	}
	if (!rc)
		printf("%s\n", prefix);
	activation_release(&a);
	return rc;
}

CUENV_CMD(prefix, 0, 1, .run = run);
