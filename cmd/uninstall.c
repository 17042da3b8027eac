#include <unistd.h>

#include "cmd.h"

static const char usage[] =
	"usage: cuenv uninstall [cuda|cudnn] SPEC\n"
	"\n"
	"Delete a version cuenv installed: it leaves the store at once and\n"
	"its files are removed. SPEC is a version or a prefix naming one\n"
	"version. Versions registered with `cuenv add` are never deleted:\n"
	"unregister them with `cuenv remove`.\n";

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct install_list list = { 0 };
	const struct install *in;
	int rc;

	rc = select_install(&ctx->store, cmd_uninstall.name, argc - optind,
			    argv + optind, &list, &in, err);
	if (rc)
		goto out;
	if (in->registered) {
		rc = cuenv_fail(err, CUENV_E_CONFLICT,
				"%s %s was registered from %s; cuenv does not "
				"delete files it did not install",
				kit_kind_name(in->kind), in->name, in->prefix);
		cuenv_hint(err, "unregister it: cuenv remove %s %s",
			   kit_kind_name(in->kind), in->name);
		goto out;
	}
	rc = store_delete(&ctx->store, in, err);
	if (!rc)
		printf("uninstalled %s %s\n", kit_kind_name(in->kind),
		       in->name);
out:
	install_list_release(&list);
	return rc;
}

CUENV_CMD(uninstall, "uninstall", 1, 2, "delete a version cuenv installed",
	  .flags = CMD_NEEDS_STORE, .run = run);
