#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/listing.h"
#include "../core/version.h"
#include "cmd.h"
#include "cli/list_remote.h"

static void show(const struct release *r, json_t *json)
{
	if (json)
		json_array_append_new(json,
				      json_pack("{s:s, s:s, s:i, s:s}", "kind",
						kit_kind_name(r->kind),
						"version", r->version,
						"cuda_major",
						(int)r->cuda_major, "source",
						source_name(r->source)));
	else if (r->kind == KIT_CUDA)
		printf("cuda   %-12s %s\n", r->version, source_name(r->source));
	else
		printf("cudnn  %-12s for CUDA %u (%s)\n", r->version,
		       r->cuda_major, source_name(r->source));
}

static int bad_word(const char *word, struct cuenv_err *err)
{
	struct buf shown = BUF_INIT;

	buf_add_display(&shown, word, 64);
	cuenv_fail(err, CUENV_E_USAGE,
		   "list-remote: '%s' is neither cuda, cudnn nor a version "
		   "prefix",
		   shown.data);
	buf_release(&shown);
	return cuenv_hint(err, "for example: cuenv list-remote cudnn 9; see: "
			       "cuenv list-remote --help");
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct catalog cat = { 0 };
	const struct release **v = NULL;
	size_t n = 0;
	const char *prefix = NULL;
	enum kit_kind kind;
	int rc, all = opt_given(&ctx->opt, O_ALL), which = -1;
	json_t *json = opt_given(&ctx->opt, O_JSON) ? json_array() : NULL;

	for (int i = optind; i < argc; i++) {
		if (!kit_kind_parse(argv[i], &kind) && which < 0 && !prefix)
			which = (int)kind;
		else if (!prefix && version_is_valid(argv[i]))
			prefix = argv[i];
		else if (prefix)
			return cmd_check_args(&cmd_list_remote, 3, err);
		else
			return bad_word(argv[i], err);
	}
	rc = cmd_catalog(ctx, &cat, err);
	if (rc)
		goto out;
	/* cupti is listed as the CUDA it comes with */
	if (which != KIT_CUDA && which != KIT_CUDNN)
		which = -1;
	listing_select(&cat, which, prefix, all, &v, &n);
	for (size_t i = 0; i < n; i++)
		show(v[i], json);
	if (json)
		cmd_print_json(json);
out:
	free(v);
	json_decref(json);
	catalog_release(&cat);
	return rc;
}

CUENV_CMD(list_remote, 0, 2, .run = run);
