#include <string.h>
#include <unistd.h>

#include "cmd.h"

static const char usage[] =
	"usage: cuenv remove [cuda|cudnn] SPEC\n"
	"\n"
	"Unregister a version added with `cuenv add`. Its files are not\n"
	"touched. Removing a CUDA also unregisters the cuDNN that `add` found\n"
	"inside it. SPEC is a version or a prefix naming one version; for a\n"
	"version cuenv installed itself, use `cuenv uninstall`.\n";

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct install_list list = { 0 }, inner = { 0 };
	const struct install *in;
	int rc;

	rc = select_install(&ctx->store, cmd_remove.name, argc - optind,
			    argv + optind, &list, &in, err);
	if (rc)
		goto out;
	if (!in->registered) {
		rc = cuenv_fail(err, CUENV_E_CONFLICT,
				"%s %s was installed by cuenv, not registered",
				kit_kind_name(in->kind), in->name);
		cuenv_hint(err, "delete it: cuenv uninstall %s %s",
			   kit_kind_name(in->kind), in->name);
		goto out;
	}
	rc = store_delete(&ctx->store, in, err);
	if (rc)
		goto out;
	printf("removed %s %s (%s, left in place)\n", kit_kind_name(in->kind),
	       in->name, in->prefix);
	if (in->kind != KIT_CUDA)
		goto out;
	rc = store_list(&ctx->store, KIT_CUDNN, &inner, err);
	for (size_t i = 0; !rc && i < inner.n; i++) {
		if (!inner.v[i]->registered ||
		    strcmp(inner.v[i]->prefix, in->prefix))
			continue;
		rc = store_delete(&ctx->store, inner.v[i], err);
		if (!rc)
			printf("removed cudnn %s (inside it)\n",
			       inner.v[i]->name);
	}
out:
	install_list_release(&list);
	install_list_release(&inner);
	return rc;
}

CUENV_CMD(remove, "remove", 1, 2, "unregister a version added with cuenv add",
	  .flags = CMD_NEEDS_STORE, .run = run);
