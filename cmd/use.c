#include <unistd.h>

#include "../core/hook.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv use SPEC " CMD_SYN_OPTS "\n"
	"       cuenv use --unset\n"
	"\n"
	"Select CUDA SPEC (and cuDNN V) in this shell only, over any .cuenv\n"
	"or global default. SPEC is a version or a prefix: 12 is the newest\n"
	"12.x installed, 12.4 the newest 12.4.x; `system` turns cuenv off in\n"
	"this shell. --unset goes back to the directory's choice.\n";

enum { O_CUDNN, O_CUPTI, O_ISOLATE, O_UNSET };

static const struct cmd_option opts[] = {
	[O_CUDNN] = CMD_VERSION_OPTION(
		"cudnn", "installed cudnn",
		"cuDNN V, among builds for the selected CUDA major"),
	[O_CUPTI] = CMD_VERSION_OPTION(
		"cupti", "installed cuda",
		"add CUPTI from installed CUDA V (exact sonames)"),
	[O_ISOLATE] = { "isolate",
			.help = "strip foreign CUDA dirs from LD_LIBRARY_PATH" },
	[O_UNSET] = { "unset", .forms = CMD_NAMED,
		      .help = "drop this shell's selection" },
};

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct hook_use u = {
		.shell = ctx->shell,
		.nargs = argc - optind,
		.spec = optind < argc ? argv[optind] : NULL,
		.cudnn = ctx->opt.arg[O_CUDNN],
		.cupti = ctx->opt.arg[O_CUPTI],
		.isolate = cmd_opt_given(&ctx->opt, O_ISOLATE),
		.unset = cmd_opt_given(&ctx->opt, O_UNSET),
	};
	struct envmap before = ENVMAP_INIT, start = ENVMAP_INIT;
	enum shell sh;
	int rc;

	envmap_from(&before, ctx->envp);
	rc = hook_use_start(&u, &before, &sh, &start, err);
	if (!rc)
		rc = cmd_emit(ctx, &before, &start, sh, 0, err);
	envmap_release(&before);
	envmap_release(&start);
	return rc;
}

static const char notes[] =
	"Needs the shell integration (cuenv init). Its help and errors\n"
	"go to stderr: the integration runs what it prints on stdout.\n";

CUENV_CMD(use, "use", 0 /* --unset */, 1, "select versions in this shell only",
	  CMD_OPTIONS(opts), .notes = notes, .flags = CMD_EMITS_SHELL,
	  .run = run);
