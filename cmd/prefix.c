#include <stdlib.h>
#include <string.h>

#include "../core/version.h"
#include "cmd.h"
#include "cli/prefix.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	struct selection sel;
	struct active act;
	int rc;

	if (optind < argc && !strcmp(argv[optind], "system")) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "prefix: system is the machine's own CUDA, not "
			   "cuenv's");
		return cuenv_hint(err, "see: cuenv versions");
	}
	if (optind < argc && (rc = version_check("cuda", argv[optind], 0, err)))
		return rc;
	activation_init(&a);
	if (optind == argc) {
		rc = cmd_activation(ctx, NULL, 0, &a, err);
		if (!rc)
			rc = activation_selected(&a, err);
		if (!rc)
			printf("%s\n", a.act.cuda->prefix);
		goto out;
	}
	rc = activation_list(ctx->root,
			     env_get(ctx->envp, "CUENV_SYSTEM_ROOTS"), &a, err);
	for (size_t i = 0; i < a.warnings.n; i++)
		cmd_warn("%s", a.warnings.v[i]);
	selection_init(&sel);
	sel.cuda = argv[optind];
	if (!rc)
		rc = select_resolve(&sel, &a.cudas, &a.cudnns, &a.cuptis, &act,
				    err);
	if (!rc)
		printf("%s\n", act.cuda->prefix);
out:
	activation_release(&a);
	return rc;
}

CUENV_CMD(prefix, 0, 1, .run = run);
