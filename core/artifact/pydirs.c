/*
 * pydirs.c: the folders a Python searches (see pydirs.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plat/file.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "plat/proc.h"
#include "artifact/pydirs.h"

/*
 * Run python -c script with envp; its stdout into out when it exits 0
 * within PYDIRS_TIMEOUT_MS having said at most max bytes. 0 then.
 */
static int ask(const char *python, char *const *envp, const char *script,
	       size_t max, struct buf *out)
{
	char *argv[] = { (char *)python, (char *)"-c", (char *)script, NULL };
	struct proc p = PROC_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;
	int ok;

	p.argv = argv;
	p.envp = envp;
	p.out_fd = 1;
	p.max_output = max;
	p.kill_on_overflow = 1;
	p.timeout_ms = PYDIRS_TIMEOUT_MS;
	ok = !proc_run(&p, &e) && p.exit_code == 0;
	if (ok)
		buf_add(out, p.out.data, p.out.len);
	proc_release(&p);
	err_release(&e);
	return ok ? 0 : -1;
}

void pydirs_ask(const char *python, char *const *envp, struct strv *dirs)
{
	static const char script[] = "import sys\n"
				     "for p in sys.path:\n"
				     "    if p: print(p)\n";
	struct buf out = BUF_INIT;
	struct strv lines = STRV_INIT;

	if (!ask(python, envp, script, PYDIRS_OUT_MAX, &out)) {
		/* Windows' python prints \r\n */
		for (size_t i = 0; i < out.len; i++)
			if (out.data[i] == '\r')
				out.data[i] = '\n';
		strv_split(&lines, out.data, '\n');
	}
	for (size_t i = 0; i < lines.n; i++)
		if (plat_path_is_abs(plat_path_native(), lines.v[i]) &&
		    strv_find(dirs, lines.v[i]) < 0)
			strv_push(dirs, lines.v[i]);
	strv_release(&lines);
	buf_release(&out);
}

void pydirs_sites(const char *python, char *const *envp, struct strv *dirs)
{
	char *venv = pydirs_venv_of(python);

	pydirs_ask(python, envp, dirs);
	pydirs_venv(venv, dirs);
	free(venv);
}

char *pydirs_venv_of(const char *python)
{
	const struct plat_path_rules *sep = plat_path_native();
	char *bin = plat_path_parent(sep, python);
	const char *last = bin ? plat_path_last(bin) : NULL;
	char *top = NULL;
	struct buf cfg = BUF_INIT;
	struct plat_stat st;

	if (last && (!strcmp(last, "bin") || !strcmp(last, "Scripts")))
		top = plat_path_parent(sep, bin);
	if (top) {
		buf_path(&cfg, top, "pyvenv.cfg");
		if (plat_stat(cfg.data, &st) || st.type != PLAT_F_REG) {
			free(top);
			top = NULL;
		}
	}
	free(bin);
	buf_release(&cfg);
	return top;
}

/*
 * Does text name one of tops: a line "TOP" (top_level.txt), or with
 * record a line starting "TOP/" (RECORD: "TOP/file.py,sha256=...,123")?
 */
static bool lists(const char *text, const struct strv *tops, bool record)
{
	const char *l = text;

	while (*l) {
		const char *end = l + strcspn(l, "\r\n");

		for (size_t i = 0; i < tops->n; i++) {
			size_t n = strlen(tops->v[i]);

			if ((size_t)(end - l) >= n &&
			    !strncmp(l, tops->v[i], n) &&
			    (record ? l[n] == '/' : l + n == end))
				return true;
		}
		l = end + strspn(end, "\r\n");
	}
	return false;
}

void pydirs_dists_of(const char *site, const struct strv *tops,
		     struct strv *out)
{
	struct plat_dir *d = plat_opendir(site);
	struct strv names = STRV_INIT;
	struct buf p = BUF_INIT, text = BUF_INIT;
	const char *ent;

	while (d && (ent = plat_readdir(d))) {
		size_t n = strlen(ent);

		if (n > 10 && !strcmp(ent + n - 10, ".dist-info"))
			strv_push(&names, ent);
	}
	if (d)
		plat_closedir(d);
	strv_sort(&names);
	for (size_t i = 0; i < names.n; i++) {
		static const char *const files[] = { "top_level.txt",
						     "RECORD" };
		bool owns = false;

		for (int k = 0; k < 2 && !owns; k++) {
			struct cuenv_err err = CUENV_ERR_INIT;

			buf_reset(&p);
			buf_path(&p, site, names.v[i]);
			buf_path(&p, p.data, files[k]);
			buf_reset(&text);
			bool there =
				!file_read(p.data, PYDIRS_RECORD_MAX,
					   FILE_MAY_BE_MISSING, &text, &err);

			err_release(&err);
			if (there)
				owns = lists(text.data ? text.data : "", tops,
					     k == 1);
			if (there && k == 0)
				break; /* top_level.txt decides */
		}
		buf_reset(&p);
		buf_path(&p, site, names.v[i]);
		buf_path(&p, p.data, "METADATA");
		if (owns && strv_find(out, p.data) < 0)
			strv_push(out, p.data);
	}
	strv_release(&names);
	BUF_RELEASE_EACH(&p, &text);
}

char *pydirs_version(const char *python, char *const *envp)
{
	static const char script[] = "import sys\n"
				     "print('%d.%d' % sys.version_info[:2])\n";
	struct buf out = BUF_INIT;
	unsigned maj, min;
	char *v = NULL;

	if (!ask(python, envp, script, 64, &out) &&
	    sscanf(out.data, "%u.%u", &maj, &min) == 2) {
		buf_reset(&out);
		buf_printf(&out, "%u.%u", maj, min);
		v = buf_detach(&out);
	}
	buf_release(&out);
	return v;
}

void pydirs_pth(const char *site, struct strv *dirs)
{
	struct strv names = STRV_INIT, lines = STRV_INIT;
	struct buf p = BUF_INIT, text = BUF_INIT;
	struct plat_dir *d = plat_opendir(site);
	const struct plat_path_rules *r = plat_path_native();
	struct plat_stat st;
	const char *name;

	while (d && (name = plat_readdir(d))) {
		size_t n = strlen(name);

		if (n > 4 && !strcmp(name + n - 4, ".pth") && *name != '.')
			strv_push(&names, name);
	}
	if (d)
		plat_closedir(d);
	strv_sort(&names); /* site.py reads them in name order */
	for (size_t i = 0; i < names.n; i++) {
		struct cuenv_err err = CUENV_ERR_INIT;

		buf_reset(&p);
		buf_path(&p, site, names.v[i]);
		buf_reset(&text);
		strv_release(&lines);
		if (file_read(p.data, PYDIRS_PTH_MAX, FILE_MAY_BE_MISSING,
			      &text, &err) ||
		    !text.data) {
			err_release(&err);
			continue;
		}
		strv_split(&lines, text.data, '\n');
		for (size_t k = 0; k < lines.n; k++) {
			char *l = lines.v[k];
			size_t n = strlen(l);

			while (n && (l[n - 1] == '\r' || l[n - 1] == ' ' ||
				     l[n - 1] == '\t'))
				l[--n] = '\0';
			/* a comment, or code site.py runs: not a folder */
			if (!n || *l == '#' || !strncmp(l, "import ", 7) ||
			    !strncmp(l, "import\t", 7))
				continue;
			buf_reset(&p);
			if (plat_path_is_abs(r, l))
				buf_sets(&p, l);
			else
				buf_path(&p, site, l);
			if (!plat_stat(p.data, &st) && st.type == PLAT_F_DIR &&
			    strv_find(dirs, p.data) < 0)
				strv_push(dirs, p.data);
		}
		err_release(&err);
	}
	STRV_RELEASE_EACH(&names, &lines);
	BUF_RELEASE_EACH(&p, &text);
}

void pydirs_venv(const char *venv, struct strv *dirs)
{
	struct strv found = STRV_INIT;
	struct buf lib = BUF_INIT, p = BUF_INIT;
	struct plat_dir *d;
	struct plat_stat st;
	const char *name;

	if (!venv || !plat_path_is_abs(plat_path_native(), venv))
		return;
	buf_path(&lib, venv, "lib");
	d = plat_opendir(lib.data);
	if (d) {
		while ((name = plat_readdir(d)))
			if (!strncmp(name, "python", 6)) {
				buf_reset(&p);
				buf_path(&p, lib.data, name);
				buf_path(&p, p.data, "site-packages");
				strv_push(&found, p.data);
			}
		plat_closedir(d);
	}
	strv_sort(&found);
	buf_reset(&p);
	buf_path(&p, venv, "Lib/site-packages");
	strv_push(&found, p.data);
	for (size_t i = 0; i < found.n; i++)
		if (!plat_stat(found.v[i], &st) && st.type == PLAT_F_DIR) {
			if (strv_find(dirs, found.v[i]) < 0)
				strv_push(dirs, found.v[i]);
			pydirs_pth(found.v[i], dirs);
		}
	strv_release(&found);
	buf_release(&lib);
	buf_release(&p);
}
