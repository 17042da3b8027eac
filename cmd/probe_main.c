/*
 * probe_main.c: cuenv-probe, the child process of `cuenv check`.
 *
 * It is not a subcommand but the second half of one: `cuenv check`
 * computes the activation, then runs this program with an argv (never a
 * shell) and exactly the activated environment, so that the dynamic
 * loader resolves every CUDA library here as it would for the user's
 * application. It lives beside cuenv (build tree) or in libexec/cuenv
 * (installed), like cuenv-net, and links libc and libdl only: it must
 * load nothing the application would not.
 *
 *	cuenv-probe --cuda 12.4.1 --runtime libcudart.so.12
 *	            --cupti-lib libcupti.so.12 [--cudnn-lib libcudnn.so.9]
 *	            [--cudnn 9.1.0.70] [--cupti 11.2] [--device N]
 *	            [--driver-need 550.54.15] [--driver-compat 525]
 *	            [--own DIR]...
 *
 * stdout is JSON lines: {"stage":"NAME"} as each step starts (flushed, so
 * that cuenv can tell where a crash happened), then the report
 * (core/smoke.h). The environment gives CUENV_DRIVER_VERSION (the kernel
 * module's version on machines without one, and for tests), and
 * LD_LIBRARY_PATH and CUDA_VISIBLE_DEVICES for the advice in messages.
 * The exit status is the report's (0, or 10-14), 2 for a bad command
 * line.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../core/plat_sys.h"
#include "../core/smoke.h"

static const struct option opts[] = {
	{ "cuda", required_argument, NULL, 'c' },
	{ "cudnn", required_argument, NULL, 'd' },
	{ "cupti", required_argument, NULL, 'p' },
	{ "device", required_argument, NULL, 'n' },
	{ "driver-need", required_argument, NULL, 'N' },
	{ "driver-compat", required_argument, NULL, 'C' },
	{ "runtime", required_argument, NULL, 'r' },
	{ "cudnn-lib", required_argument, NULL, 'D' },
	{ "cupti-lib", required_argument, NULL, 'P' },
	{ "own", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static void print_stage(void *arg, const char *step)
{
	(void)arg;
	printf("{\"stage\":\"%s\"}\n", step);
	fflush(stdout);
}

static const char *env(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

int main(int argc, char **argv)
{
	struct smoke_probe p = { 0 };
	struct smoke_report r;
	struct buf out = BUF_INIT;
	char *end;
	int c, rc;

	p.driver_lib = plat_sys_cuda_driver();
	p.module_root = "";
	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			p.cuda = optarg;
			break;
		case 'd':
			p.cudnn = optarg;
			break;
		case 'p':
			p.cupti = optarg;
			break;
		case 'n':
			p.device = (int)strtol(optarg, &end, 10);
			if (*end || !*optarg || p.device < 0)
				goto usage;
			break;
		case 'N':
			p.driver_need = optarg;
			break;
		case 'C':
			p.driver_compat = optarg;
			break;
		case 'r':
			p.runtime_lib = optarg;
			break;
		case 'D':
			p.cudnn_lib = optarg;
			break;
		case 'P':
			p.cupti_lib = optarg;
			break;
		case 'o':
			strv_push(&p.own, optarg);
			break;
		default:
			goto usage;
		}
	}
	if (optind != argc || !p.cuda || !p.runtime_lib || !p.cupti_lib)
		goto usage;
	p.driver_module = env("CUENV_DRIVER_VERSION");
	p.ld_library_path = env("LD_LIBRARY_PATH");
	p.visible_devices = getenv("CUDA_VISIBLE_DEVICES");
	p.stage = print_stage;

	smoke_report_init(&r);
	smoke_probe_run(&p, &r);
	rc = smoke_report_rc(&r, NULL);
	smoke_report_to_json(&r, &out);
	printf("%s\n", out.data);
	buf_release(&out);
	smoke_report_release(&r);
	strv_release(&p.own);
	if (fflush(stdout) || ferror(stdout))
		return CUENV_E_BUG;
	return rc;
usage:
	fputs("usage: cuenv-probe --cuda V --runtime SONAME --cupti-lib SONAME"
	      " [--cudnn-lib SONAME] [--cudnn V] [--cupti V] [--device N]"
	      " [--driver-need V] [--driver-compat V] [--own DIR]...\n"
	      "(run by cuenv check)\n",
	      stderr);
	strv_release(&p.own);
	return CUENV_E_USAGE;
}
