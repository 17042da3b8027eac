/*
 * venvlib.c: the Python environment in use and its NVIDIA wheels'
 * folders (see the header).
 */
#include "select/venvlib.h"

#include <stdlib.h>
#include <string.h>

#include "select/env.h"
#include "plat/plat_fs.h"
#include "plat/plat_path.h"
#include "artifact/pydirs.h"
#include "base/xalloc.h"

void venv_libs_release(struct venv_libs *v)
{
	free(v->prefix);
	strv_release(&v->dirs);
	v->prefix = NULL;
	v->from = NULL;
}

static bool is_dir(const char *path)
{
	struct plat_stat st;

	return !plat_stat(path, &st) && st.type == PLAT_F_DIR;
}

/* A shared library's file name: lib*.so, lib*.so.N... */
static bool is_lib_name(const char *name)
{
	const char *so = strstr(name, ".so");

	return !strncmp(name, "lib", 3) && so && (!so[3] || so[3] == '.');
}

/* Does dir hold a shared library? */
static bool has_lib(const char *dir)
{
	struct plat_dir *d = plat_opendir(dir);
	const char *name;
	bool found = false;

	while (d && !found && (name = plat_readdir(d)))
		found = is_lib_name(name);
	if (d)
		plat_closedir(d);
	return found;
}

/* The venv whose bin/python3 is the first python3 on PATH, or NULL. */
static char *path_venv(const struct envmap *env)
{
	char *py = env_which(env, "python3");
	char *found = py ? pydirs_venv_of(py) : NULL;

	free(py);
	return found;
}

/* site's nvidia/<wheel>/lib folders that hold a library, in name order. */
static void wheel_dirs(const char *site, struct strv *out)
{
	struct strv found = STRV_INIT;
	struct buf nv = BUF_INIT, p = BUF_INIT;
	struct plat_dir *d;
	const char *name;

	buf_path(&nv, site, "nvidia");
	d = plat_opendir(nv.data);
	while (d && (name = plat_readdir(d))) {
		if (name[0] == '.')
			continue;
		buf_reset(&p);
		buf_path(&p, nv.data, name);
		buf_path(&p, p.data, "lib");
		if (has_lib(p.data))
			strv_push(&found, p.data);
	}
	if (d)
		plat_closedir(d);
	strv_sort(&found);
	for (size_t i = 0; i < found.n; i++)
		if (strv_find(out, found.v[i]) < 0)
			strv_push(out, found.v[i]);
	strv_release(&found);
	buf_release(&nv);
	buf_release(&p);
}

void venv_libs_find(const struct envmap *env, const char *program,
		    struct venv_libs *v)
{
	static const char *const vars[] = { "VIRTUAL_ENV", "CONDA_PREFIX" };
	const struct plat_path_rules *r = plat_path_native();
	struct strv sites = STRV_INIT;

	/* what runs is a venv's python, by its path: that venv */
	if (program && plat_path_is_abs(r, program)) {
		v->prefix = pydirs_venv_of(program);
		v->from = v->prefix ? "the program" : NULL;
	}
	for (size_t i = 0; i < 2 && !v->prefix; i++) {
		const char *p = envmap_get(env, vars[i]);

		if (p && plat_path_is_abs(r, p) && is_dir(p)) {
			v->prefix = xstrdup(p);
			v->from = vars[i];
		}
	}
	if (!v->prefix) {
		v->prefix = path_venv(env);
		v->from = v->prefix ? "PATH" : NULL;
	}
	if (!v->prefix)
		return;
	pydirs_venv(v->prefix, &sites);
	for (size_t i = 0; i < sites.n; i++)
		wheel_dirs(sites.v[i], &v->dirs);
	strv_release(&sites);
}

/* The library file names in dir, into names. */
static void lib_names(const char *dir, struct strv *names)
{
	struct plat_dir *d = plat_opendir(dir);
	const char *name;

	while (d && (name = plat_readdir(d)))
		if (is_lib_name(name) && strv_find(names, name) < 0)
			strv_push(names, name);
	if (d)
		plat_closedir(d);
}

size_t venv_libs_shadowed(const struct venv_libs *v, const struct strv *sel,
			  struct strv *first, struct strv *names)
{
	struct strv theirs = STRV_INIT, reals = STRV_INIT;
	size_t added = 0;

	for (size_t i = 0; i < sel->n; i++) {
		char *real = plat_realpath(sel->v[i]);

		if (real)
			strv_push_take(&reals, real);
		lib_names(sel->v[i], &theirs);
	}
	for (size_t i = 0; i < v->dirs.n; i++) {
		struct strv mine = STRV_INIT;
		char *real = plat_realpath(v->dirs.v[i]);
		bool shadowed = false;

		if (real && strv_find(&reals, real) < 0)
			lib_names(v->dirs.v[i], &mine);
		for (size_t k = 0; k < mine.n; k++) {
			if (strv_find(&theirs, mine.v[k]) < 0)
				continue;
			shadowed = true;
			if (strv_find(names, mine.v[k]) < 0)
				strv_push(names, mine.v[k]);
		}
		if (shadowed && strv_find(first, v->dirs.v[i]) < 0) {
			strv_push(first, v->dirs.v[i]);
			added++;
		}
		free(real);
		strv_release(&mine);
	}
	strv_sort(names);
	strv_release(&theirs);
	strv_release(&reals);
	return added;
}
