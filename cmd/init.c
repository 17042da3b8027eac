#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plat/plat_sys.h"
#include "plat/shell.h"
#include "cmd.h"
#include "cli/init.h"

static const struct shell_templates templates = {
	.sh = embedded_cuenv_sh,
	.bash = embedded_cuenv_bash,
	.zsh = embedded_cuenv_zsh,
	.fish = embedded_cuenv_fish,
	.direnv = embedded_cuenv_direnv,
	.pwsh = embedded_cuenv_pwsh,
	.doskey = embedded_cuenv_doskey,
};

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct buf out = BUF_INIT;
	const char *name = optind < argc ? argv[optind] : NULL,
		   *detected = NULL;
	int rc;

	/* `init -`, and the hint without a name: the shell running cuenv */
	if (!name || !strcmp(name, "-")) {
		char *parent = plat_sys_parent_name();

		detected = shell_detect(parent, env_get(ctx->envp, "SHELL"));
		free(parent);
	}
	rc = shell_init_script(&templates, name, ctx->exe, detected, &out, err);
	if (!rc)
		fwrite(out.data, 1, out.len, stdout);
	buf_release(&out);
	return rc;
}

CUENV_CMD(init, 0 /* missing: a hint about init - */, 1,
	  .flags = CMD_EMITS_SHELL, .run = run);
