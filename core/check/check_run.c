/*
 * check_run.c: running cuenv-probe and --compile's program for `cuenv
 * check` (see check_run.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "nvidia/compat.h"
#include "plat/file.h"
#include "plat/plat_path.h"
#include "plat/plat_fs.h"
#include "plat/plat_sys.h"
#include "plat/proc.h"
#include "check/check_run.h"

#define OUTPUT_MAX (16u << 20)

/* ---- running a child ----------------------------------------------------- */

struct child {
	int status; /* exit status, or 128 + signal */
	int timed_out;
	struct buf out; /* its stdout */
	struct buf err; /* its stderr */
};

#define CHILD_INIT                                                             \
	{                                                                      \
		0, 0, BUF_INIT, BUF_INIT                                       \
	}

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

int check_plan_for(const struct active *act, const char *compat_dir,
		   const char *probe, int device, struct check_plan *pl,
		   struct cuenv_err *err)
{
	struct driver_req req = { 0 };
	int rc = CUENV_NO;

	if (compat_dir)
		rc = compat_driver_os(compat_dir, act->cuda->version,
				      plat_sys_lib_naming() == PLAT_LIB_DLL,
				      &req, err);
	check_plan_make(act, probe, device, rc ? NULL : &req, pl);
	driver_req_release(&req);
	return rc;
}

/* ---- reading what the probe said ----------------------------------------- */

/*
 * Fill r from the probe's output: its report line, or, when it died or
 * hung before writing one, a report that blames the step it was in.
 */
static int read_probe(const struct child *c, const char *probe,
		      unsigned timeout, const struct activation *a,
		      const struct check_plan *pl, struct check_report *r,
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
		rc = check_report_from_json(report, r, err);
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
	layer = check_step_layer(step);
	if (layer < 0) {
		rc = cuenv_fail(err, CUENV_E_GPU, "%s %s%s%s", probe, why.data,
				tail.len ? ": " : "", tail.data);
		goto out;
	}
	check_plan_blame(pl, &a->act, layer, step, why.data, tail.data, r);
out:
	strv_release(&lines);
	buf_release(&why);
	buf_release(&tail);
	return rc;
}

int check_run_probe(const struct check_plan *pl, const struct activation *a,
		    const char *probe, unsigned timeout, struct check_report *r,
		    struct cuenv_err *err)
{
	struct child c = CHILD_INIT;
	int rc = run_child(pl->argv.v, a->after.vars.v, timeout, &c, err);

	if (!rc)
		rc = read_probe(&c, probe, timeout, a, pl, r, err);
	child_release(&c);
	return rc;
}

/* ---- --compile ----------------------------------------------------------- */

/*
 * Run the program built at exe on device, in a->after, and judge what it
 * printed (the kernel layer l).
 */
static void run_built(const struct activation *a, const char *exe, int device,
		      unsigned timeout, const char *nvcc, struct check_layer *l)
{
	struct child c = CHILD_INIT;
	struct buf dev = BUF_INIT, tail = BUF_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	char *argv[] = { (char *)exe, NULL, NULL };

	buf_printf(&dev, "%d", device);
	argv[1] = dev.data;
	if (run_child(argv, a->after.vars.v, timeout, &c, &e)) {
		check_set(l, CHECK_FAIL, "--compile: %s", e.msg.data);
		goto out;
	}
	if (c.status || !check_compile_output_ok(c.out.data)) {
		buf_adds(&c.out, c.err.data);
		tail_lines(c.out.data, 3, &tail);
		check_compile_run_failed(l, c.status, tail.data);
		goto out;
	}
	check_compile_ran(l, nvcc);
out:
	child_release(&c);
	buf_release(&dev);
	buf_release(&tail);
	err_release(&e);
}

void check_run_compile(const struct activation *a, const char *tmpdir,
		       int device, unsigned timeout, struct check_report *r)
{
	struct check_layer *l = &r->layer[CHECK_KERNEL];
	char *nvcc = activation_which(a, "nvcc");
	struct buf dir = BUF_INIT, src = BUF_INIT, exe = BUF_INIT,
		   tail = BUF_INIT;
	struct child c = CHILD_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	double t = now_s();

	if (!nvcc) {
		check_compile_no_nvcc(l, a->act.cuda);
		goto out;
	}
	check_detail(l, "nvcc", "%s", nvcc);
	buf_path(&dir, tmpdir, "cuenv-check.XXXXXX");
	if (!plat_mkdtemp(dir.data)) {
		check_set(l, CHECK_FAIL,
			  "--compile: cannot make a folder in "
			  "%s: %s",
			  tmpdir, strerror(errno));
		buf_reset(&dir);
		goto out;
	}
	buf_path(&src, dir.data, "check.cu");
	buf_path(&exe, dir.data, "check");
	if (file_write(src.data, check_compile_src, strlen(check_compile_src),
		       FILE_MODE_KEEP, &e)) {
		check_set(l, CHECK_FAIL, "--compile: %s", e.msg.data);
		goto out;
	}
	{
		char *argv[] = { nvcc, "-o", exe.data, src.data, NULL };

		if (run_child(argv, a->after.vars.v, timeout, &c, &e)) {
			check_set(l, CHECK_FAIL, "--compile: %s", e.msg.data);
			goto out;
		}
	}
	if (c.status || c.timed_out) {
		buf_adds(&c.out, c.err.data);
		tail_lines(c.out.data, 4, &tail);
		check_compile_not_built(l, nvcc, c.timed_out, tail.data);
		goto out;
	}
	if (check_compile_built(r, nvcc))
		run_built(a, exe.data, device, timeout, nvcc, l);
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
	child_release(&c);
	err_release(&e);
}

/* ---- the whole smoke test ------------------------------------------------ */

int check_run_all(const struct check_request *c, struct check_report *r,
		  int *first, struct cuenv_err *err)
{
	const struct activation *a = c->a;
	struct check_plan pl = CHECK_PLAN_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	const char *tmpdir;
	int rc;

	*first = -1;
	if (!c->probe) {
		rc = cuenv_fail(err, CUENV_E_USAGE,
				"cuenv check needs cuenv-probe, which is not "
				"installed (looked for %s)",
				c->tried);
		cuenv_hint(err, "install both: make install PREFIX=...");
		goto out;
	}
	if (!c->compat && c->compat_why)
		cuenv_fail(&e, CUENV_E_MANIFEST, "%s", c->compat_why);
	if (check_plan_for(&a->act, c->compat, c->probe, c->device, &pl, &e)) {
		struct buf w = BUF_INIT;

		buf_printf(&w,
			   "the driver's minimum for CUDA %s is unknown: %s",
			   a->act.cuda->version, e.msg.data);
		c->warn(c->ctx, w.data);
		buf_release(&w);
	}
	rc = check_run_probe(&pl, a, c->probe, c->timeout, r, err);
	if (rc)
		goto out;
	if (c->compile) {
		tmpdir = envmap_get(&a->after, "TMPDIR");
		check_run_compile(a, tmpdir && *tmpdir == '/' ? tmpdir : "/tmp",
				  c->device, c->timeout, r);
	}
	check_report_finish(r);
	rc = check_report_rc(r, first);
out:
	check_plan_release(&pl);
	err_release(&e);
	return rc;
}

int check_run_fail(const struct check_report *r, int first, int rc,
		   const char *cmd, struct cuenv_err *err)
{
	const struct check_layer *l = &r->layer[first];
	const char *why = l->message ? l->message : "skipped";

	if (!cmd) {
		cuenv_fail(err, rc, "%s: %s", check_layer_name(first), why);
		if (l->fix)
			cuenv_hint(err, "%s", l->fix);
		return rc;
	}
	cuenv_fail(err, rc,
		   "exec --check: the %s layer failed (%s); not running '%s'",
		   check_layer_name(first), why, cmd);
	cuenv_hint(err, "%s", l->fix ? l->fix : "details: cuenv check");
	return rc;
}
