#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "../core/xalloc.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv versions " CMD_SYN_OPTS "\n"
	"\n"
	"List the CUDA and cuDNN versions available (installed or\n"
	"registered), where each lives, and mark the active ones with `*`.\n";

enum { O_BARE, O_JSON };

static const struct cmd_option opts[] = {
	[O_BARE] = { "bare", .help = "only the names of the CUDA versions, one "
				     "a line (for scripts)" },
	[O_JSON] = { "json", .flags = OPT_ALT,
		     .help = "an object of cuda, cudnn and cupti "
			     "arrays" },
};

/* The root an install lives in, when it is not the user's own. */
static const char *other_root(const struct cuenv_ctx *ctx,
			      const struct install *in)
{
	size_t n = strlen(ctx->root);

	return strncmp(in->dir, ctx->root, n) || in->dir[n] != '/' ? in->dir
								   : NULL;
}

static json_t *to_json(const struct install *in, int active)
{
	json_t *o = json_object(), *comp = json_object();

	json_object_set_new(o, "version", json_string(in->version));
	json_object_set_new(o, "name", json_string(in->name));
	json_object_set_new(o, "cuda_major", json_integer(in->cuda_major));
	json_object_set_new(o, "prefix", json_string(in->prefix));
	json_object_set_new(o, "registered", json_boolean(in->registered));
	json_object_set_new(o, "active", json_boolean(active));
	json_object_set_new(o, "dir", json_string(in->dir));
	if (in->kind == KIT_CUDA)
		json_object_set_new(o, "cupti",
				    in->cupti.n && in->cupti_version
					    ? json_string(in->cupti_version)
				    : in->cupti.n ? json_true()
						  : json_false());
	for (size_t i = 0; i < in->notes.n; i++) {
		const char *sp = strchr(in->notes.v[i], ' ');
		char *k =
			xstrndup(in->notes.v[i], (size_t)(sp - in->notes.v[i]));

		json_object_set_new(comp, k, json_string(sp + 1));
		free(k);
	}
	json_object_set_new(o, "components", comp);
	return o;
}

static int is_active(const struct activation *a, const struct install *in)
{
	if (!a->ok)
		return 0;
	return (a->act.cuda && !strcmp(a->act.cuda->dir, in->dir)) ||
	       (a->act.cudnn && !strcmp(a->act.cudnn->dir, in->dir)) ||
	       (a->act.cupti && !strcmp(a->act.cupti->dir, in->dir));
}

/* --bare: the CUDA versions, one a line, as `cuenv use` takes them. */
static int bare(const struct cuenv_ctx *ctx, int json, struct cuenv_err *err)
{
	struct activation a;
	int rc;

	if (json) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "versions: --bare and --json do not go together");
		return cuenv_hint(err, "see: cuenv versions --help");
	}
	activation_init(&a);
	rc = activation_list(ctx->root,
			     env_get(ctx->envp, "CUENV_SYSTEM_ROOTS"), &a,
			     err);
	for (size_t i = 0; !rc && i < a.cudas.n; i++)
		printf("%s\n", a.cudas.v[i]->version);
	activation_release(&a);
	return rc;
}

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	struct cuenv_err ignored = CUENV_ERR_INIT;
	int rc = CUENV_OK, json = cmd_opt_given(&ctx->opt, O_JSON);

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	if (cmd_opt_given(&ctx->opt, O_BARE))
		return bare(ctx, json, err);
	activation_init(&a);
	/* A bad selection must not hide what is installed. */
	cmd_activation(ctx, NULL, 0, &a, &ignored);
	err_release(&ignored);
	if (!a.ok) {
		/* nothing active: list every root all the same */
		install_list_release(&a.cudas);
		install_list_release(&a.cudnns);
		install_list_release(&a.cuptis);
		strv_release(&a.warnings);
		rc = activation_list(ctx->root,
				     env_get(ctx->envp,
					     "CUENV_SYSTEM_ROOTS"),
				     &a, err);
		for (size_t i = 0; i < a.warnings.n; i++)
			cmd_warn("%s", a.warnings.v[i]);
		if (rc)
			goto out;
	}
	const struct install_list *lists[KIT_KINDS] = { &a.cudas, &a.cudnns,
							&a.cuptis };
	if (json) {
		json_t *j = json_object();

		for (int k = 0; k < KIT_KINDS; k++) {
			json_t *arr = json_array();

			for (size_t i = 0; i < lists[k]->n; i++)
				json_array_append_new(
					arr,
					to_json(lists[k]->v[i],
						is_active(&a, lists[k]->v[i])));
			json_object_set_new(j, kit_kind_name((enum kit_kind)k),
					    arr);
		}
		cmd_print_json(j);
		json_decref(j);
		goto out;
	}
	for (int k = 0; k < KIT_KINDS; k++) {
		for (size_t i = 0; i < lists[k]->n; i++) {
			const struct install *in = lists[k]->v[i];
			struct buf label = BUF_INIT;

			buf_adds(&label, in->version);
			if (k == KIT_CUDNN)
				buf_printf(&label, " (cuda%u)", in->cuda_major);
			printf("%c %-5s  %-20s  %s%s%s\n",
			       is_active(&a, in) ? '*' : ' ',
			       kit_kind_name((enum kit_kind)k), label.data,
			       in->prefix,
			       in->registered ? "  (registered)" : "",
			       other_root(ctx, in) ? "  (system root)" : "");
			buf_release(&label);
		}
	}
	if (!a.cudas.n && !a.cudnns.n && !a.cuptis.n)
		cmd_note("nothing installed yet: cuenv install VERSION, or "
			 "register a toolkit with cuenv add cuda PATH");
out:
	activation_release(&a);
	return rc;
}

CUENV_CMD(versions, "versions", 0, 0,
	  "list the versions available and mark the active ones",
	  CMD_OPTIONS(opts), .run = run);
