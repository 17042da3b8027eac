/*
 * check.c: `cuenv check`, the selection proved on the GPU (core/smoke.h).
 *
 * cuenv never loads CUDA itself: it computes the activation, derives the
 * sonames to test from the selection's files, and runs cuenv-probe
 * (cmd/probe_main.c) with an argv and exactly the activated environment.
 * The probe's JSON report is read back, --compile adds the selection's
 * own nvcc to the kernel layer, and the result is printed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../core/compat.h"
#include "../core/plat_fs.h"
#include "../core/plat_sys.h"
#include "../core/proc.h"
#include "../core/smoke.h"
#include "../core/smoke_plan.h"
#include "../core/xalloc.h"
#include "../core/detect.h"
#include "cmd.h"

static const char usage[] =
	"usage: cuenv check " CMD_SYN_OPTS "\n"
	"\n"
	"Prove that the selection for this directory works, on the GPU, in a\n"
	"child process that has exactly the activated environment and loads\n"
	"every library through the dynamic loader, as an application would:\n"
	"\n"
	"  driver   libcuda.so.1 and the kernel module's version, against the\n"
	"           minimum driver the selected CUDA needs\n"
	"  runtime  libcudart: its version, device N and its compute capability\n"
	"  kernel   a vector add (PTX compiled by the driver), checked on the\n"
	"           host\n"
	"  cudnn    cuDNN's version, the CUDA it was built for, and a\n"
	"           convolution checked against a CPU reference\n"
	"  cupti    CUPTI's version, and an activity trace of the kernel\n"
	"\n"
	"Each layer says pass, fail or skip, its version, its time and the file\n"
	"the loader picked (a foreign copy that shadows the selection fails).\n"
	"Exit status: 0 when every layer asked for passed; else that of the\n"
	"first layer that failed: 10 driver, 11 runtime, 12 kernel, 13 cudnn,\n"
	"14 cupti.\n";

enum { O_JSON, O_COMPILE, O_DEVICE, O_TIMEOUT };

static const struct cmd_option opts[] = {
	[O_JSON] = { "json", .help = "print the report as JSON (fields: see "
				     "README)" },
	[O_COMPILE] = { "compile",
			.help = "also build a small .cu with the selection's own\n"
				"nvcc and run it (the compiler, headers and link\n"
				"paths)" },
	[O_DEVICE] = { "device", .arg = "N", .value = OPT_NUMBER, .max = 1023,
		       .help = "the GPU to test (default 0)" },
	[O_TIMEOUT] = { "timeout", .arg = "S", .value = OPT_NUMBER, .min = 1,
			.max = 86400,
			.help = "give up on a step after S seconds (default 300)" },
};

#define OUTPUT_MAX (16u << 20)

/* ---- running a child ----------------------------------------------------- */

struct child {
	int status; /* exit status, or 128 + signal */
	int timed_out;
	struct buf out; /* its stdout */
	struct buf err; /* its stderr */
};

static void child_release(struct child *c)
{
	buf_release(&c->out);
	buf_release(&c->err);
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/*
 * Run argv[0] (a path) with envp, stdin from /dev/null, collecting its
 * output; killed after timeout seconds. Returns CUENV_OK when it ran (its
 * status in c), or CUENV_E_GPU when it could not be started.
 */
static int run_child(char *const argv[], char *const envp[], unsigned timeout,
		     struct child *c, struct cuenv_err *err)
{
	struct proc p = PROC_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	int rc;

	p.argv = argv;
	p.envp = envp;
	p.out_fd = 1;
	p.capture_err = 1;
	p.max_output = OUTPUT_MAX;
	p.timeout_ms = timeout * 1000;
	rc = proc_run(&p, &e);
	if (rc)
		rc = cuenv_fail(err, CUENV_E_GPU, "%s", e.msg.data);
	c->status = proc_status(&p);
	c->timed_out = p.timed_out;
	buf_release(&c->out);
	buf_release(&c->err);
	c->out = p.out; /* taken */
	c->err = p.err;
	err_release(&e);
	return rc;
}

/* The last lines of text (at most n), for messages. */
static void tail_lines(const char *text, size_t n, struct buf *out)
{
	const char *end = text + strlen(text), *p = end;

	while (p > text && (p[-1] == '\n' || p[-1] == ' '))
		p--;
	end = p;
	while (p > text && n) {
		p--;
		if (*p == '\n' && !--n) {
			p++;
			break;
		}
	}
	buf_add(out, p, (size_t)(end - p));
}

/* ---- what to ask the probe ----------------------------------------------- */

/* The probe's command line; the driver's minimum from the compat table. */
static void make_plan(const struct cuenv_ctx *ctx, const struct activation *a,
		      const char *probe, int device, struct smoke_plan *pl)
{
	const struct install *cu = a->act.cuda;
	struct buf compat = BUF_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	struct driver_req req = { 0 };
	int known =
		!cmd_compat_dir(ctx, &compat, &e) &&
		!compat_driver_os(compat.data, cu->version,
				  !strncmp(plat_sys_platform(), "windows", 7),
				  &req, &e);

	if (!known)
		cmd_warn("the driver's minimum for CUDA %s is unknown: %s",
			 cu->version, e.msg.data);
	smoke_plan_make(&a->act, probe, device, known ? &req : NULL, pl);
	buf_release(&compat);
	err_release(&e);
	driver_req_release(&req);
}

/* ---- reading what the probe said ----------------------------------------- */

/*
 * Fill r from the probe's output: its report line, or, when it died or
 * hung before writing one, a report that blames the step it was in.
 */
static int read_probe(const struct child *c, const char *probe,
		      unsigned timeout, const struct activation *a,
		      const struct smoke_plan *pl, struct smoke_report *r,
		      struct cuenv_err *err)
{
	struct strv lines = STRV_INIT;
	const char *report = NULL;
	char step[32] = "";
	struct buf why = BUF_INIT, tail = BUF_INIT;
	int layer, rc = CUENV_OK;

	strv_split(&lines, c->out.data, '\n');
	for (size_t i = 0; i < lines.n; i++) {
		const char *l = lines.v[i];

		if (!strncmp(l, "{\"stage\":\"", 10)) {
			size_t n = strcspn(l + 10, "\"");

			if (n < sizeof(step)) {
				memcpy(step, l + 10, n);
				step[n] = '\0';
			}
		} else if (strstr(l, "\"layers\":")) {
			report = l;
		}
	}
	if (report && !c->timed_out) {
		rc = smoke_report_from_json(report, r, err);
		goto out;
	}
	if (c->timed_out)
		buf_printf(&why, "did not finish within %u seconds", timeout);
	else if (c->status > 128)
		buf_printf(&why, "was killed by signal %d (%s)",
			   c->status - 128,
			   plat_sys_signal_name(c->status - 128));
	else
		buf_printf(&why, "exited with status %d before reporting",
			   c->status);
	tail_lines(c->err.data, 3, &tail);
	layer = smoke_step_layer(step);
	if (layer < 0) {
		rc = cuenv_fail(err, CUENV_E_GPU, "%s %s%s%s", probe, why.data,
				tail.len ? ": " : "", tail.data);
		goto out;
	}
	smoke_plan_blame(pl, &a->act, layer, step, why.data, tail.data, r);
out:
	strv_release(&lines);
	buf_release(&why);
	buf_release(&tail);
	return rc;
}

/* ---- --compile ----------------------------------------------------------- */


static int write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	int bad;

	if (!f)
		return -1;
	bad = fputs(text, f) == EOF;
	bad |= fclose(f) != 0;
	return bad ? -1 : 0;
}

/*
 * --compile: build smoke_compile_src with the selection's nvcc, in the
 * activated environment, and run it (when the driver and runtime
 * passed). The kernel layer fails if either goes wrong; a pass needs
 * both halves.
 */
static void compile_check(const struct activation *a, const char *tmpdir,
			  int device, unsigned timeout, struct smoke_report *r)
{
	struct smoke_layer *l = &r->layer[SMOKE_KERNEL];
	char *nvcc = activation_which(a, "nvcc");
	struct buf dir = BUF_INIT, src = BUF_INIT, exe = BUF_INIT,
		   tail = BUF_INIT, dev = BUF_INIT;
	struct child c = { 0, 0, BUF_INIT, BUF_INIT };
	struct cuenv_err e = CUENV_ERR_INIT;
	double t = now_s();

	if (!nvcc) {
		smoke_compile_no_nvcc(l, a->act.cuda);
		goto out;
	}
	smoke_detail(l, "nvcc", "%s", nvcc);
	buf_path(&dir, tmpdir, "cuenv-check.XXXXXX");
	if (!plat_mkdtemp(dir.data)) {
		smoke_set(l, SMOKE_FAIL,
			  "--compile: cannot make a folder in "
			  "%s: %s",
			  tmpdir, strerror(errno));
		buf_reset(&dir);
		goto out;
	}
	buf_path(&src, dir.data, "check.cu");
	buf_path(&exe, dir.data, "check");
	if (write_file(src.data, smoke_compile_src)) {
		smoke_set(l, SMOKE_FAIL, "--compile: cannot write %s: %s",
			  src.data, strerror(errno));
		goto out;
	}
	{
		char *argv[] = { nvcc, "-o", exe.data, src.data, NULL };

		if (run_child(argv, a->after.vars.v, timeout, &c, &e)) {
			smoke_set(l, SMOKE_FAIL, "--compile: %s", e.msg.data);
			goto out;
		}
	}
	if (c.status || c.timed_out) {
		buf_adds(&c.out, c.err.data);
		tail_lines(c.out.data, 4, &tail);
		smoke_compile_not_built(l, nvcc, c.timed_out, tail.data);
		goto out;
	}
	if (!smoke_compile_built(r, nvcc))
		goto out;
	child_release(&c);
	buf_printf(&dev, "%d", device);
	{
		char *argv[] = { exe.data, dev.data, NULL };

		if (run_child(argv, a->after.vars.v, timeout, &c, &e)) {
			smoke_set(l, SMOKE_FAIL, "--compile: %s", e.msg.data);
			goto out;
		}
	}
	if (c.status || !smoke_compile_output_ok(c.out.data)) {
		buf_adds(&c.out, c.err.data);
		tail_lines(c.out.data, 3, &tail);
		smoke_compile_run_failed(l, c.status, tail.data);
		goto out;
	}
	smoke_compile_ran(l, nvcc);
out:
	l->ms += (now_s() - t) * 1e3;
	if (src.len)
		unlink(src.data);
	if (exe.len)
		unlink(exe.data);
	if (dir.len)
		rmdir(dir.data);
	free(nvcc);
	buf_release(&dir);
	buf_release(&src);
	buf_release(&exe);
	buf_release(&tail);
	buf_release(&dev);
	child_release(&c);
	err_release(&e);
}

/* ---- output -------------------------------------------------------------- */

static void print_layer(const struct smoke_layer *l, const char *name)
{
	const char *st = l->status == SMOKE_FAIL   ? "FAIL"
			 : l->status == SMOKE_PASS ? "pass"
						   : "skip";

	const char *what = l->file ? l->file : l->soname;

	printf("%-8s %-4s  %-11s %8.1f ms%s%s%s\n", name, st,
	       l->version ? l->version : "-", l->ms, what ? "  " : "",
	       what ? what : "", l->foreign ? "  (not the selection's)" : "");
	if (l->message)
		printf("         %s\n", l->message);
	for (size_t i = 0; i < l->warnings.n; i++)
		printf("         warning: %s\n", l->warnings.v[i]);
	/* a pass shows its fix only with a warning (minor version compat) */
	if (l->fix && (l->status != SMOKE_PASS || l->warnings.n))
		printf("         fix: %s\n", l->fix);
}

static void print_report(const struct activation *a,
			 const struct smoke_report *r, int rc, int first)
{
	struct buf origin = BUF_INIT;
	int passed = 0;

	selection_describe_origin(&a->sel, &origin);
	printf("cuda %s", r->cuda ? r->cuda : "?");
	if (r->cudnn)
		printf(" + cudnn %s", r->cudnn);
	if (r->cupti)
		printf(" + cupti from %s", r->cupti);
	printf(", device %d (%s)\n\n", r->device, origin.data);
	for (int i = 0; i < SMOKE_LAYERS; i++) {
		print_layer(&r->layer[i], smoke_layer_name(i));
		passed += r->layer[i].status == SMOKE_PASS;
	}
	putchar('\n');
	if (!rc)
		printf("ok: %d of %d layers passed%s\n", passed, SMOKE_LAYERS,
		       passed < SMOKE_LAYERS ? ", the others were not asked "
					       "for"
					     : "");
	else
		printf("failed: the %s layer (exit %d)\n",
		       smoke_layer_name(first), rc);
	buf_release(&origin);
}

/* ---- the smoke test, shared with `cuenv exec --check` --------------------- */

int cmd_smoke(const struct cuenv_ctx *ctx, const struct activation *a,
	      int device, unsigned timeout, int compile, struct smoke_report *r,
	      int *first, struct cuenv_err *err)
{
	struct smoke_plan pl = SMOKE_PLAN_INIT;
	struct child c = { 0, 0, BUF_INIT, BUF_INIT };
	struct buf tried = BUF_INIT;
	const char *tmpdir;
	char *probe;
	int rc;

	*first = -1;
	probe = cmd_find_helper(ctx, "cuenv-probe", &tried);
	if (!probe) {
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"cuenv check needs cuenv-probe, which is not "
				"installed (looked for %s)",
				tried.data);
		cuenv_hint(err, "install both: make install PREFIX=...");
		goto out;
	}
	make_plan(ctx, a, probe, device, &pl);
	fflush(stdout);
	rc = run_child(pl.argv.v, a->after.vars.v, timeout, &c, err);
	if (!rc)
		rc = read_probe(&c, probe, timeout, a, &pl, r, err);
	if (rc)
		goto out;
	if (compile) {
		tmpdir = envmap_get(&a->after, "TMPDIR");
		compile_check(a, tmpdir && *tmpdir == '/' ? tmpdir : "/tmp",
			      device, timeout, r);
	}
	smoke_report_finish(r);
	rc = smoke_report_rc(r, first);
out:
	smoke_plan_release(&pl);
	child_release(&c);
	buf_release(&tried);
	free(probe);
	return rc;
}

/* ---- the command --------------------------------------------------------- */

static int run(struct cuenv_ctx *ctx, int argc, char **argv,
	       struct cuenv_err *err)
{
	struct activation a;
	struct smoke_report r;
	struct buf json = BUF_INIT;
	int rc = CUENV_OK, json_out = cmd_opt_given(&ctx->opt, O_JSON),
	    compile = cmd_opt_given(&ctx->opt, O_COMPILE),
	    device = (int)ctx->opt.num[O_DEVICE], first;
	unsigned long timeout = cmd_opt_given(&ctx->opt, O_TIMEOUT)
					? ctx->opt.num[O_TIMEOUT]
					: 300;

	(void)argc; /* options only: main checked there are no arguments */
	(void)argv;

	activation_init(&a);
	smoke_report_init(&r);
	rc = cmd_activation(ctx, NULL, 0, &a, err);
	if (!rc && !a.ok) {
		rc = cuenv_fail(err, CUENV_NO, "nothing selected here");
		cuenv_hint(err, "select one: cuenv local VERSION");
	}
	if (rc)
		goto out;
	rc = cmd_smoke(ctx, &a, device, (unsigned)timeout, compile, &r, &first,
		       err);
	/* the probe's own failures (not a failed layer) have no report */
	if (rc && first < 0)
		goto out;
	if (json_out) {
		smoke_report_to_json(&r, &json);
		printf("%s\n", json.data);
	} else {
		print_report(&a, &r, rc, first);
	}
	if (rc) {
		const struct smoke_layer *l = &r.layer[first];

		cuenv_fail(err, rc, "%s: %s", smoke_layer_name(first),
			   l->message ? l->message : "skipped");
		if (l->fix)
			cuenv_hint(err, "%s", l->fix);
	}
out:
	fflush(stdout); /* the report before the error line */
	activation_release(&a);
	smoke_report_release(&r);
	buf_release(&json);
	return rc;
}

CUENV_CMD(check, "check", 0, 0,
	  "prove the selection works on the GPU, layer by layer",
	  CMD_OPTIONS(opts), .run = run);
