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
 * (core/check/check.h). The environment gives CUENV_DRIVER_VERSION (the kernel
 * module's version on machines without one, and for tests), and
 * LD_LIBRARY_PATH and CUDA_VISIBLE_DEVICES for the advice in messages.
 * The exit status is the report's (0, or 10-14), 2 for a bad command
 * line.
 */
#include <stdio.h>
#include <stdlib.h>

#include "plat/plat_sys.h"
#include "check/check.h"

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
	struct check_probe p = { 0 };
	struct check_report r;
	struct buf out = BUF_INIT;
	int rc;

	p.driver_lib = plat_sys_cuda_driver();
	p.module_root = "";
	if (check_probe_args(&p, argc, argv)) {
		fputs(check_probe_usage, stderr);
		strv_release(&p.own);
		return CUENV_E_USAGE;
	}
	p.driver_module = env("CUENV_DRIVER_VERSION");
	p.ld_library_path = env("LD_LIBRARY_PATH");
	p.visible_devices = getenv("CUDA_VISIBLE_DEVICES");
	p.stage = print_stage;

	check_report_init(&r);
	check_probe_run(&p, &r);
	rc = check_report_rc(&r, NULL);
	check_report_to_json(&r, &out);
	printf("%s\n", out.data);
	buf_release(&out);
	check_report_release(&r);
	strv_release(&p.own);
	if (fflush(stdout) || ferror(stdout))
		return CUENV_E_BUG;
	return rc;
}
