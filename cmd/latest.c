#include <stdio.h>

#include "base/version.h"
#include "cmd.h"
#include "cli/latest.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	enum kit_kind kind = KIT_CUDA;
	struct activation a;
	struct catalog cat = { 0 };
	const char *spec, *best = NULL;
	int rc, known = opt_given(&ctx->opt, O_KNOWN);

	if (argc - optind == 2 &&
	    (kit_kind_parse(argv[optind], &kind) || kind == KIT_CUPTI)) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "latest: '%s' is not cuda or "
			   "cudnn",
			   argv[optind]);
		return cuenv_hint(err, "see: cuenv latest --help");
	}
	spec = argv[argc - 1];
	rc = version_check(kit_kind_name(kind), spec, 0, err);
	if (rc)
		return rc;
	activation_init(&a);
	if (known)
		rc = cmd_catalog(ctx, &cat, err);
	else
		rc = activation_list(ctx->root,
				     env_get(ctx->envp, "CUENV_SYSTEM_ROOTS"),
				     &a, err);
	if (!rc)
		rc = select_latest(kind, spec,
				   kind == KIT_CUDA ? &a.cudas : &a.cudnns,
				   known ? &cat : NULL, &best, err);
	if (!rc)
		printf("%s\n", best);
	activation_release(&a);
	catalog_release(&cat);
	return rc;
}

CUENV_CMD(latest, 1, 2, .run = run);
