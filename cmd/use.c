#include <string.h>

#include "../core/plat_sys.h"
#include "../core/shell.h"
#include "cmd.h"
#include "cli/use.h"

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	const char *cudnn = NULL, *cupti = NULL, *spec;
	int isolate = opt_given(&ctx->opt, O_ISOLATE),
	    unset = opt_given(&ctx->opt, O_UNSET), rc;
	struct envmap before = ENVMAP_INIT, start = ENVMAP_INIT;
	enum shell sh;

	cudnn = ctx->opt.arg[O_CUDNN];
	cupti = ctx->opt.arg[O_CUPTI];
	if (!ctx->shell || shell_parse(ctx->shell, &sh) || sh == SHELL_SH) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "use: this shell has no cuenv integration, so "
			   "cuenv cannot change it");
		if (!strcmp(plat_sys_platform(), "windows-x86_64"))
			return cuenv_hint(
				err, "PowerShell: cuenv init pwsh | Out-String "
				     "| Invoke-Expression; cmd: its doskey "
				     "macro (cuenv init --help); or use: cuenv "
				     "exec");
		return cuenv_hint(err,
				  "add eval \"$(cuenv init bash)\" to "
				  "~/.bashrc (zsh: init zsh; fish: cuenv init "
				  "fish | source), or use: cuenv exec");
	}
	if (unset ? argc > optind || cudnn || cupti || isolate
		  : argc == optind) {
		cuenv_fail(err, CUENV_E_USAGE,
			   unset ? "use: --unset takes no SPEC and no other "
				   "option"
				 : "use: missing argument");
		return cuenv_hint(err, "see: cuenv use --help");
	}
	spec = unset ? NULL : argv[optind];
	if (spec &&
	    ((rc = cmd_check_version("cuda", spec, 1, err)) ||
	     (cudnn && (rc = cmd_check_version("cudnn", cudnn, 0, err))) ||
	     (cupti && (rc = cmd_check_version("cupti", cupti, 0, err)))))
		return rc;

	envmap_from(&before, ctx->envp);
	envmap_copy(&start, &before);
	envmap_unset(&start, "CUENV_VERSION");
	envmap_unset(&start, "CUENV_CUDNN_VERSION");
	envmap_unset(&start, "CUENV_CUPTI_VERSION");
	envmap_unset(&start, "CUENV_ISOLATE");
	if (spec) {
		envmap_set(&start, "CUENV_VERSION", spec);
		if (cudnn)
			envmap_set(&start, "CUENV_CUDNN_VERSION", cudnn);
		if (cupti)
			envmap_set(&start, "CUENV_CUPTI_VERSION", cupti);
		if (isolate)
			envmap_set(&start, "CUENV_ISOLATE", "1");
	}
	rc = cmd_emit(ctx, &before, &start, sh, 0, err);
	envmap_release(&before);
	envmap_release(&start);
	return rc;
}

CUENV_CMD(use, 0 /* --unset */, 1, .flags = CMD_EMITS_SHELL, .run = run);
