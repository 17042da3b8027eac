#include <stdlib.h>
#include <string.h>

#include "../core/version.h"
#include "cmd.h"
#include "cli/latest.h"

/* Keep v in *best when it matches spec and is newer. */
static void consider(const char *v, const char *spec, const char **best)
{
	if (version_matches_str(v, spec) &&
	    (!*best || version_cmp_str(v, *best) > 0))
		*best = v;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	enum kit_kind kind = KIT_CUDA;
	struct activation a;
	struct catalog cat = { 0 };
	const char *spec, *best = NULL;
	int rc;

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
	if (opt_given(&ctx->opt, O_KNOWN)) {
		rc = cmd_catalog(ctx, &cat, err);
		for (size_t i = 0; !rc && i < cat.n; i++)
			if (cat.v[i]->kind == kind)
				consider(cat.v[i]->version, spec, &best);
	} else {
		const struct install_list *l =
			kind == KIT_CUDA ? &a.cudas : &a.cudnns;

		rc = activation_list(ctx->root,
				     env_get(ctx->envp, "CUENV_SYSTEM_ROOTS"),
				     &a, err);
		for (size_t i = 0; !rc && i < l->n; i++)
			consider(l->v[i]->version, spec, &best);
	}
	if (!rc && best) {
		printf("%s\n", best);
	} else if (!rc) {
		rc = cuenv_fail(err, CUENV_NO, "no %s %s %s",
				kit_kind_name(kind), spec,
				opt_given(&ctx->opt, O_KNOWN)
					? "in the catalogue"
					: "installed");
		cuenv_hint(err,
			   opt_given(&ctx->opt, O_KNOWN)
				   ? "see: cuenv list-remote"
				   : "see: cuenv versions, or cuenv latest "
				     "--known SPEC");
	}
	activation_release(&a);
	catalog_release(&cat);
	return rc;
}

CUENV_CMD(latest, 1, 2, .run = run);
