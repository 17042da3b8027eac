#include <getopt.h>

#include "../core/shell.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv use SPEC [--cudnn V] [--cupti V] [--isolate]\n"
	"       cuenv use --unset\n"
	"\n"
	"Select CUDA SPEC (and cuDNN V) in this shell only, over any .cuenv\n"
	"or global default. SPEC is a version or a prefix: 12 is the newest\n"
	"12.x installed, 12.4 the newest 12.4.x; `system` turns cuenv off in\n"
	"this shell. --unset goes back to the directory's choice.\n"
	"\n"
	"  --cudnn V    cuDNN V, among builds for the selected CUDA major\n"
	"  --cupti V    add CUPTI from installed CUDA V (exact sonames)\n"
	"  --isolate    strip foreign CUDA dirs from LD_LIBRARY_PATH\n"
	"  --unset      drop this shell's selection\n"
	"\n"
	"Needs the shell integration (cuenv init).\n";

static const struct option opts[] = {
	{ "cudnn", required_argument, NULL, 'd' },
	{ "cupti", required_argument, NULL, 'c' },
	{ "isolate", no_argument, NULL, 'i' },
	{ "unset", no_argument, NULL, 'u' },
	{ NULL, 0, NULL, 0 },
};

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
		   struct cuenv_err *err)
{
	const char *cudnn = NULL, *cupti = NULL, *spec;
	int isolate = 0, unset = 0, c, rc;
	struct envmap before = ENVMAP_INIT, start = ENVMAP_INIT;
	enum shell sh;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'd':
			cudnn = optarg;
			break;
		case 'c':
			cupti = optarg;
			break;
		case 'i':
			isolate = 1;
			break;
		case 'u':
			unset = 1;
			break;
		default:
			return cmd_bad_usage(&cmd_use, err);
		}
	}
	if (!ctx->shell || shell_parse(ctx->shell, &sh) || sh == SHELL_SH) {
		cuenv_fail(err, CUENV_E_USAGE,
			   "use: this shell has no cuenv integration, so "
			   "cuenv cannot change it");
		return cuenv_hint(err,
				  "add eval \"$(cuenv init bash)\" to "
				  "~/.bashrc (zsh: init zsh; fish: cuenv init "
				  "fish | source), or use: cuenv exec");
	}
	if (unset ? argc - optind != 0 || cudnn || cupti || isolate
		  : argc - optind != 1)
		return cmd_check_args(&cmd_use, unset ? 9 : argc - optind,
				      err);
	spec = unset ? NULL : argv[optind];
	if (spec && ((rc = cmd_check_version("cuda", spec, 1, err)) ||
		     (cudnn && (rc = cmd_check_version("cudnn", cudnn, 0, err))) ||
		     (cupti && (rc = cmd_check_version("cupti", cupti, 0, err)))))
		return rc;

	envmap_from(&before, ctx->environ);
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

const struct cuenv_cmd cmd_use = {
	.name = "use",
	.summary = "select versions in this shell only",
	.usage = usage,
	.min_args = 1,
	.max_args = 1,
	.flags = CMD_EMITS_SHELL,
	.run = run,
};
