/*
 * pydirs.c: the folders a Python searches (see pydirs.h).
 */
#include <glob.h>
#include <string.h>

#include "proc.h"
#include "pydirs.h"

void pydirs_ask(const char *python, char *const *envp, struct strv *dirs)
{
	static const char script[] = "import sys\n"
				     "for p in sys.path:\n"
				     "    if p: print(p)\n";
	char *argv[] = { (char *)python, (char *)"-c", (char *)script, NULL };
	struct proc p = PROC_INIT;
	struct cuenv_err e = CUENV_ERR_INIT;

	p.argv = argv;
	p.envp = envp;
	p.out_fd = 1;
	p.max_output = PYDIRS_OUT_MAX;
	p.kill_on_overflow = 1;
	p.timeout_ms = PYDIRS_TIMEOUT_MS;
	if (!proc_run(&p, &e) && p.exit_code == 0) {
		struct strv lines = STRV_INIT;

		strv_split(&lines, p.out.data, '\n');
		for (size_t i = 0; i < lines.n; i++)
			if (lines.v[i][0] == '/' &&
			    strv_find(dirs, lines.v[i]) < 0)
				strv_push(dirs, lines.v[i]);
		strv_release(&lines);
	}
	proc_release(&p);
	err_release(&e);
}

void pydirs_venv(const char *venv, struct strv *dirs)
{
	struct buf pat = BUF_INIT;
	glob_t g;

	if (!venv || venv[0] != '/')
		return;
	buf_path(&pat, venv, "lib/python*/site-packages");
	if (!glob(pat.data, 0, NULL, &g))
		for (size_t i = 0; i < g.gl_pathc; i++)
			if (strv_find(dirs, g.gl_pathv[i]) < 0)
				strv_push(dirs, g.gl_pathv[i]);
	globfree(&g);
	buf_release(&pat);
}
