#include <unistd.h>

#include "cmd.h"
#include "cli/uninstall.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct install_list list = { 0 };
	const struct install *in;
	int rc;

	rc = cmd_find_install(ctx, &cmd_uninstall, argc - optind, argv + optind,
			      &list, &in, err);
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

CUENV_CMD(uninstall, 1, 2, .flags = CMD_NEEDS_STORE, .run = run);
