/*
 * needs_ask.c: asking a Python interpreter about its frameworks (see
 * needs_ask.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "needs/needs_ask.h"
#include "select/env.h"
#include "plat/envmap.h"
#include "artifact/pydirs.h"
#include "artifact/pyload.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "plat/proc.h"
#include "base/xalloc.h"

/* The folder of site that path (a file under site) is in: site/NAME. */
static char *top_folder(const char *site, const char *path)
{
	size_t n = strlen(site);
	const char *rest, *end;
	struct buf b = BUF_INIT;

	if (strncmp(path, site, n) || (path[n] != '/' && path[n] != '\\'))
		return NULL;
	rest = path + n + 1;
	end = rest + strcspn(rest, "/\\");
	if (!*end) /* a file of site itself */
		return NULL;
	buf_add(&b, path, (size_t)(end - path));
	return buf_detach(&b);
}

int needs_python_find(struct needs_python *py, const char *python,
		      char *const *envp, struct strv *warnings,
		      struct cuenv_err *err)
{
	struct pyload_fws fws = { 0 };
	struct envmap env = ENVMAP_INIT;
	struct plat_stat st;
	char *exe;

	envmap_from(&env, envp);
	exe = strpbrk(python, "/\\") ? xstrdup(python)
				     : env_which(&env, python);
	envmap_release(&env);
	if (!exe || plat_stat(exe, &st) || st.type != PLAT_F_REG) {
		struct buf shown = BUF_INIT;
		const char *why = !exe || plat_stat(exe, &st)
					  ? strerror(exe ? errno : ENOENT)
					  : "not a file";

		buf_add_display(&shown, python, 200);
		cuenv_fail(err, CUENV_E_USAGE, "cannot run '%s': %s",
			   shown.data, why);
		buf_release(&shown);
		free(exe);
		return cuenv_hint(err,
				  "name the interpreter: --python=/path/to/"
				  "python3");
	}
	py->finder = exe;
	pydirs_sites(exe, envp, &py->sites);
	if (!py->sites.n) {
		struct buf w = BUF_INIT;

		buf_printf(&w,
			   "%s did not say its sys.path: no framework "
			   "of it is read",
			   exe);
		strv_push_take(warnings, buf_detach(&w));
	}
	pyload_find(&py->sites, &fws);
	py->found = xcalloc(fws.n ? fws.n : 1, sizeof(*py->found));
	for (size_t i = 0; i < fws.n; i++) {
		struct needs_found *f = &py->found[py->nfound++];

		f->name = xstrdup(fws.v[i].name);
		for (size_t k = 0; k < fws.v[i].entries.n; k++) {
			char *top = top_folder(fws.v[i].site,
					       fws.v[i].entries.v[k]);

			if (top && strv_find(&f->folders, top) < 0)
				strv_push(&f->folders, top);
			free(top);
		}
		/* the libraries auditwheel moved beside it (ctranslate2.libs:
		 * what its module links), and what its distributions say
		 * (jax-cuda12-plugin's pins) */
		struct strv tops = STRV_INIT;

		for (size_t k = 0, n = f->folders.n; k < n; k++) {
			struct buf libs = BUF_INIT;

			strv_push(&tops, plat_path_last(f->folders.v[k]));
			buf_printf(&libs, "%s.libs", f->folders.v[k]);
			if (!plat_stat(libs.data, &st) && st.type == PLAT_F_DIR)
				strv_push(&f->folders, libs.data);
			buf_release(&libs);
		}
		pydirs_dists_of(fws.v[i].site, &tops, &f->folders);
		strv_release(&tops);
	}
	pyload_fws_release(&fws);
	return CUENV_OK;
}

int needs_ask_python(struct needs_python *py, char *const *envp,
		     unsigned timeout_s, struct strv *warnings,
		     struct cuenv_err *err)
{
	char *argv[] = { (char *)py->exe, "-c", (char *)needs_python_script,
			 NULL };
	struct proc p = PROC_INIT;
	struct buf warn = BUF_INIT;
	int rc;

	/* until it answers */
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++) {
		struct buf why = BUF_INIT;

		buf_printf(&why, "no answer from %s", py->exe);
		py->fw[i].absent = buf_detach(&why);
	}
	p.argv = argv;
	p.envp = envp;
	p.search_path = 1;
	p.out_fd = 3;
	p.max_output = NEEDS_ASK_OUT_MAX;
	p.kill_on_overflow = 1;
	p.timeout_ms = timeout_s * 1000;
	rc = proc_run(&p, err);
	if (rc && p.start_errno) {
		struct buf shown = BUF_INIT;

		buf_add_display(&shown, py->exe, 200);
		rc = cuenv_fail(err, CUENV_E_USAGE, "cannot run '%s': %s",
				shown.data, strerror(p.start_errno));
		cuenv_hint(err, "name the interpreter: --python=/path/to/"
				"python3");
		buf_release(&shown);
	}
	if (rc)
		goto out;
	if (p.timed_out || p.overflowed)
		buf_printf(&warn,
			   "%s took too long to import the frameworks; "
			   "stopped it",
			   py->exe);
	else if (p.exit_code)
		buf_printf(&warn,
			   "%s failed while importing the frameworks (%s %d)",
			   py->exe, p.signal ? "signal" : "exit",
			   p.signal ? p.signal : p.exit_code);
	else if (needs_python_parse(py, p.out.data, p.out.len))
		buf_printf(&warn,
			   "%s said nothing readable about its frameworks",
			   py->exe);
	if (warn.len)
		strv_push(warnings, warn.data);
out:
	buf_release(&warn);
	proc_release(&p);
	return rc;
}

int needs_python_tag(const char *exe, char *const *envp, struct buf *out)
{
	char *argv[] = { (char *)exe, "-c",
			 "import sys\n"
			 "i = sys.implementation.name\n"
			 "print(('cp' if i == 'cpython' else i[:2]) + "
			 "'%d%d' % sys.version_info[:2])\n",
			 NULL };
	struct proc p = PROC_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	int rc = -1;

	p.argv = argv;
	p.envp = envp;
	p.search_path = 1;
	p.out_fd = 1;
	p.max_output = 64;
	p.timeout_ms = 30000;
	buf_reset(out);
	if (!proc_run(&p, &e) && p.exit_code == 0) {
		size_t n = strspn(p.out.data, "abcdefghijklmnopqrstuvwxyz"
					      "0123456789");

		if (n >= 3 && n < 16) {
			buf_add(out, p.out.data, n);
			rc = 0;
		}
	}
	proc_release(&p);
	err_release(&e);
	return rc;
}

int needs_python_version_tag(const char *v, struct buf *out,
			     struct cuenv_err *err)
{
	size_t n = strspn(v, "0123456789");

	buf_reset(out);
	if (n == 1 && v[1] == '.' &&
	    strspn(v + 2, "0123456789") == strlen(v + 2) && v[2] &&
	    strlen(v + 2) <= 2)
		buf_printf(out, "cp%c%s", v[0], v + 2);
	else if (n == strlen(v) && n >= 1 && n <= 3)
		buf_printf(out, "cp%s", v);
	if (!out->len || out->data[2] != '3')
		return cuenv_fail(err, CUENV_E_USAGE,
				  "'%s' is not a CPython 3 version (3.11, "
				  "311)",
				  v);
	return CUENV_OK;
}
