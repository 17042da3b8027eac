/*
 * doctor_path.c: doctor's checks of where the loader and build tools
 * look: foreign CUDA folders on LD_LIBRARY_PATH, foreign CUDA libraries
 * in the loader cache, and CUDA_HOME or CUDA_PATH against PATH's nvcc.
 */
#include <stdlib.h>
#include <string.h>

#include "doctor/doctor_int.h"
#include "plat/plat_path.h"
#include "select/env.h"
#include "nvidia/nvlib.h"
#include "plat/plat_fs.h"
#include "plat/shell.h"
#include "base/xalloc.h"

/* ---- small helpers ------------------------------------------------------ */

/* Do a and b name the same folder (as given, or through links)? */
static int same_dir(const char *a, const char *b)
{
	char *ra, *rb;
	int same;

	if (!a || !b)
		return 0;
	if (!strcmp(a, b))
		return 1;
	ra = plat_realpath(a);
	rb = plat_realpath(b);
	same = ra && rb && !strcmp(ra, rb);
	free(ra);
	free(rb);
	return same;
}

/* ---- LD_LIBRARY_PATH ---------------------------------------------------- */

/* How to keep foreign CUDA folders out; export is the value without them. */
static void add_isolate_fix(const struct audit *au, const struct strv *drop,
			    struct buf *b)
{
	const struct selection *sel = &au->a->sel;
	const char *cur = envmap_get(au->in->env, "LD_LIBRARY_PATH");
	struct strv list = STRV_INIT, kept = STRV_INIT;
	struct buf val = BUF_INIT;

	if (au->a->act.isolate) {
		buf_adds(b, "isolate is on: re-activate so that it strips "
			    "them again: eval \"$(cuenv env)\"");
	} else if (sel->origin == SEL_FILE && sel->origin_path) {
		buf_adds(b, "set 'isolate = true' in ");
		buf_add_display(b, sel->origin_path, 4096);
		buf_adds(b, " (activation then strips them)");
	} else {
		buf_adds(b, sel->origin == SEL_GLOBAL ? "cuenv global "
						      : "cuenv use ");
		shell_quote_word(b, sel->cuda);
		buf_adds(b, " --isolate");
	}
	buf_adds(b, "; or for one command: cuenv exec --isolate -- CMD");
	if (cur)
		strv_split(&list, cur, ':');
	for (size_t i = 0; i < list.n; i++) {
		int foreign = 0;

		for (size_t j = 0; j < drop->n && !foreign; j++)
			foreign = !strcmp(list.v[i], drop->v[j]);
		if (!foreign && *list.v[i])
			strv_push(&kept, list.v[i]);
	}
	strv_join(&kept, ':', &val);
	buf_adds(b, "; or drop them: ");
	if (val.len) {
		buf_adds(b, "export LD_LIBRARY_PATH=");
		shell_quote(SHELL_SH, val.data, b);
	} else {
		buf_adds(b, "unset LD_LIBRARY_PATH");
	}
	strv_release(&list);
	strv_release(&kept);
	buf_release(&val);
}

/* Does libs hold a libcupti? */
static int has_cupti(const struct strv *libs)
{
	const char *pre = nvlib_get(NVLIB_CUPTI)->prefix;
	size_t n = strlen(pre);

	for (size_t i = 0; i < libs->n; i++)
		if (!strncmp(libs->v[i], pre, n) && libs->v[i][n] == '.')
			return 1;
	return 0;
}

/*
 * Is real (a real path) a folder activation itself put first on
 * LD_LIBRARY_PATH: the venv's NVIDIA wheels it keeps ahead of the
 * selection (activate.h, act.first_libs)? Then it is not foreign.
 */
static bool venv_first(const struct audit *au, const char *real)
{
	const struct strv *first = au->a->act.first_libs;
	bool found = false;

	for (size_t i = 0; first && i < first->n && !found; i++) {
		char *r = plat_realpath(first->v[i]);

		found = r && !strcmp(r, real);
		free(r);
	}
	return found;
}

/*
 * LD_LIBRARY_PATH's foreign CUDA folders into drop; returns the index in
 * list of the first of the selection's folders, or -1.
 */
static long scan_ld_path(const struct audit *au, const struct strv *list,
			 struct strv *drop)
{
	long first = -1;

	for (size_t i = 0; i < list->n; i++) {
		char *real = *list->v[i] ? plat_realpath(list->v[i]) : NULL;

		if (real && strv_find(&au->real_dirs, real) >= 0) {
			if (first < 0)
				first = (long)i;
		} else if (real && venv_first(au, real)) {
			/* cuenv's own order, not a foreign folder */
		} else if (*list->v[i]) {
			struct strv libs = STRV_INIT;

			doctor_cuda_libs(list->v[i], &libs);
			if (libs.n)
				doctor_push_unique(drop, list->v[i]);
			strv_release(&libs);
		}
		free(real);
	}
	return first;
}

/* A foreign folder on LD_LIBRARY_PATH: its CUDA libraries, sorted out. */
struct foreign {
	const char *dir;
	struct strv libs;  /* all of them */
	struct strv both;  /* ... that the selection has too */
	struct strv other; /* ... that it has not */
	struct strv fills; /* ... that it should have but lacks */
};

/* d's what starts with lead and the folder, which goes in its paths. */
/* "LEAD DIR HOLDS libs": a finding's start, dir in its paths. */
static void start_entry(struct draft *d, const char *lead, const char *dir,
			const char *holds, const struct strv *libs)
{
	strv_push(&d->paths, dir);
	buf_adds(&d->what, lead);
	buf_add_display(&d->what, dir, 4096);
	buf_adds(&d->what, holds);
	doctor_list(&d->what, libs);
}

/* It comes before the selection's folders and shadows them. */
static void ld_shadow(struct audit *au, const struct foreign *f,
		      const struct strv *drop)
{
	struct draft d = DRAFT_INIT;

	start_entry(&d, "LD_LIBRARY_PATH has ", f->dir,
		    " before the selection's folders, and it holds ", &f->both);
	buf_printf(&d.what, ", which the selection (%s) has too",
		   au->label.data);
	buf_adds(&d.why, "the loader takes the first folder on "
			 "LD_LIBRARY_PATH that holds the soname "
			 "it wants, so these copies load instead "
			 "of the selection's, and a library of "
			 "another release runs with this one's");
	buf_adds(&d.why, has_cupti(&f->both)
				 ? ": \"incompatible libcupti "
				   "version\", CUPTI_ERROR_... at "
				   "profiler start"
				 : ": undefined symbols, \"version "
				   "... not found\", or CUDA errors at "
				   "start-up");
	add_isolate_fix(au, drop, &d.fix);
	doctor_emit(au->out, "ld-library-path-shadow", DOCTOR_PROBLEM, &d);
}

/* It gives the selection sonames that the selection lacks. */
static void ld_fills(struct audit *au, const struct foreign *f,
		     const struct strv *drop)
{
	struct draft d = DRAFT_INIT;

	start_entry(&d, "LD_LIBRARY_PATH entry ", f->dir, " holds ", &f->fills);
	buf_printf(&d.what, ", which the selection (%s) lacks", au->label.data);
	buf_adds(&d.why, "programs asking for ");
	doctor_list(&d.why, &f->fills);
	buf_adds(&d.why, " get this folder's copy, from "
			 "another install, mixed with the "
			 "selection's libraries");
	buf_adds(&d.why, has_cupti(&f->fills) ? ": \"incompatible libcupti "
						"version\""
					      : ": undefined symbols or CUDA "
						"errors at start-up");
	add_isolate_fix(au, drop, &d.fix);
	buf_adds(&d.fix, "; and give the selection what it "
			 "lacks (see the missing-soname "
			 "finding)");
	doctor_emit(au->out, "foreign-ld-library-path", DOCTOR_PROBLEM, &d);
}

/* It comes after the selection's folders: harmless until it is not. */
static void ld_after(struct audit *au, const struct foreign *f,
		     const struct strv *drop)
{
	struct draft d = DRAFT_INIT;

	start_entry(&d, "LD_LIBRARY_PATH entry ", f->dir,
		    " holds CUDA libraries that are not the selection's: ",
		    &f->libs);
	if (f->other.n) {
		buf_adds(&d.why, "the selection's folders "
				 "come first, so where both "
				 "have a soname the selection's "
				 "copy loads; but a framework "
				 "asking for one the selection "
				 "lacks (");
		doctor_list(&d.why, &f->other);
		buf_adds(&d.why, ") gets this folder's, from "
				 "another release, and two "
				 "releases mix in one process");
		if (has_cupti(&f->other))
			buf_adds(&d.why, ": \"incompatible libcupti "
					 "version\"");
	} else {
		buf_adds(&d.why, "the selection's folders come "
				 "first and have every soname "
				 "here, so nothing loads from "
				 "it while the selection is "
				 "active; one change of order "
				 "(an export in a script, "
				 "another tool's activation) and "
				 "these copies shadow the "
				 "selection's");
	}
	add_isolate_fix(au, drop, &d.fix);
	doctor_emit(au->out, "foreign-ld-library-path", DOCTOR_WARNING, &d);
}

/* The finding for foreign folder dir; before: it precedes the selection. */
static void check_foreign(struct audit *au, const char *dir, int before,
			  const struct strv *drop)
{
	struct foreign f = { .dir = dir };

	doctor_cuda_libs(dir, &f.libs);
	for (size_t j = 0; j < f.libs.n; j++) {
		if (doctor_provides(au, f.libs.v[j]))
			strv_push(&f.both, f.libs.v[j]);
		else
			strv_push(&f.other, f.libs.v[j]);
		if (strv_find(&au->missing, f.libs.v[j]) >= 0)
			strv_push(&f.fills, f.libs.v[j]);
	}
	if (before && f.both.n)
		ld_shadow(au, &f, drop);
	else if (f.fills.n)
		ld_fills(au, &f, drop);
	else
		ld_after(au, &f, drop);
	strv_release(&f.libs);
	strv_release(&f.both);
	strv_release(&f.fills);
	strv_release(&f.other);
}

void doctor_check_ld_path(struct audit *au)
{
	const char *ld;
	struct strv list = STRV_INIT, drop = STRV_INIT;
	long first;

	if (!au->a->ok)
		return;
	ld = envmap_get(au->eff, "LD_LIBRARY_PATH");
	if (ld)
		strv_split(&list, ld, ':');
	first = scan_ld_path(au, &list, &drop);
	if (au->shell_active && first < 0 && au->dirs.n)
		doctor_emitf(au->out, "not-activated", DOCTOR_WARNING,
			     "programs started from this shell load whatever "
			     "the rest of LD_LIBRARY_PATH and the loader "
			     "cache give, not the selection",
			     "eval \"$(cuenv env)\" (or start a new shell)",
			     "this shell's LD_LIBRARY_PATH no longer holds the "
			     "selection's folders (%s): it was set again after "
			     "cuenv activated it",
			     au->label.data);
	for (size_t i = 0; i < list.n; i++) {
		/* Each foreign folder once, where it first appears. */
		if (strv_find(&drop, list.v[i]) < 0 ||
		    strv_find(&list, list.v[i]) != (long)i)
			continue;
		check_foreign(au, list.v[i], first < 0 || (long)i < first,
			      &drop);
	}
	strv_release(&list);
	strv_release(&drop);
}

/* ---- the loader cache --------------------------------------------------- */

/* Is dir a CUDA folder by its name (and not /usr/lib, /usr/local/lib)? */
static int cuda_folder(const char *dir)
{
	static const char *const words[] = { "cuda", "cudnn", "cupti", "nvidia",
					     "nccl" };
	struct buf low = BUF_INIT;
	int hit = 0;

	for (const char *p = dir; *p; p++)
		buf_addc(&low, (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p));
	for (size_t i = 0; i < sizeof(words) / sizeof(*words) && !hit; i++)
		hit = strstr(low.data, words[i]) != NULL;
	buf_release(&low);
	return hit;
}

/*
 * The loader cache's CUDA libraries outside the selection's folders: the
 * folders into dirs, the sonames of dirs->v[i] into (*names)[i].
 */
static void cache_gather(const struct audit *au, struct strv *dirs,
			 struct strv **names)
{
	const struct ldcache *cache = au->in->cache;

	for (size_t i = 0; i < cache->n; i++) {
		const struct ldcache_entry *e = &cache->v[i];
		char *dir, *real;
		long at;

		/* Programs ask for versioned sonames only. */
		if (!nvlib_is_cuda_file(e->soname) ||
		    !strstr(e->soname, ".so.") || e->path[0] != '/')
			continue;
		/* A link to the selection's own copy is the selection's. */
		real = plat_realpath(e->path);
		dir = real ? doctor_parent(real) : NULL;
		free(real);
		if (dir && strv_find(&au->real_dirs, dir) >= 0) {
			free(dir);
			continue;
		}
		free(dir);
		dir = doctor_parent(e->path);
		at = strv_find(dirs, dir);
		if (at < 0) {
			strv_push(dirs, dir);
			*names = xrealloc(*names, dirs->n * sizeof(**names));
			memset(&(*names)[dirs->n - 1], 0, sizeof(**names));
			at = (long)dirs->n - 1;
		}
		doctor_push_unique(&(*names)[at], e->soname);
		free(dir);
	}
}

/* One folder the cache lists, against the selection. */
struct cached {
	const char *dir;
	const struct strv *names; /* its CUDA sonames, sorted */
	const char *conf;	  /* the ld.so.conf file naming it, or NULL */
	unsigned major;		  /* the CUDA major they name, or 0 */
	struct strv fills;	  /* sonames the selection should have */
	struct strv lacks;	  /* sonames the selection has not */
	const char *example;	  /* one of lacks that frameworks ask for */
	enum doctor_severity sev;
};

static void cache_why(const struct audit *au, const struct cached *c,
		      struct buf *why)
{
	buf_adds(why, "the loader searches the cache after "
		      "LD_LIBRARY_PATH");
	if (!au->a->ok) {
		buf_adds(why, ", and with no selection active these "
			      "are what programs load for these "
			      "sonames");
	} else if (c->fills.n) {
		buf_printf(why, ": the selection (%s) lacks ", au->label.data);
		doctor_list(why, &c->fills);
		buf_adds(why, ", so the cache's copy is loaded "
			      "silently, from another install, and "
			      "mixes with the selection's "
			      "libraries");
	} else if (c->example) {
		buf_printf(why,
			   ": where the selection has a soname its "
			   "copy wins, but for one it lacks that a CUDA %u "
			   "program asks for (here ",
			   au->a->act.cuda->cuda_major);
		doctor_list(why, &c->lacks);
		buf_adds(why, ") the cache's copy is loaded silently, ");
		if (c->major)
			buf_printf(why, "a CUDA %u library mixed with %s",
				   c->major, au->label.data);
		else
			buf_printf(why, "mixed with %s", au->label.data);
	} else {
		buf_adds(why, ": the selection has every soname "
			      "listed here and comes first while it "
			      "is active; outside it (other shells, "
			      "services) these are what loads");
	}
}

/* How to take the folder's libraries out of the cache. */
static void cache_fix_folder(const struct cached *c, struct draft *d)
{
	if (!cuda_folder(c->dir)) {
		buf_adds(&d->fix, "the folder is shared with other "
				  "software: remove these CUDA libraries "
				  "(or links) from it, or the package that "
				  "put them there (dpkg -S ");
		shell_quote_word(&d->fix, c->dir);
		buf_adds(&d->fix, "/");
		shell_quote_word(&d->fix, c->names->v[0]);
		buf_adds(&d->fix, "), then run: sudo ldconfig");
		if (c->conf)
			strv_push(&d->paths, c->conf);
	} else if (c->conf) {
		buf_adds(&d->fix, "remove ");
		shell_quote_word(&d->fix, c->dir);
		buf_adds(&d->fix, " from ");
		shell_quote_word(&d->fix, c->conf);
		buf_adds(&d->fix, " (or delete that file), then run: "
				  "sudo ldconfig");
		strv_push(&d->paths, c->conf);
	} else {
		buf_adds(&d->fix, "no loader configuration file names "
				  "this folder (the loader searches it "
				  "anyway): remove the package that put "
				  "these libraries there (dpkg -S ");
		shell_quote_word(&d->fix, c->dir);
		buf_adds(&d->fix, " or rpm -qf), then run: sudo "
				  "ldconfig");
	}
}

/* The other way out: a selection that has what the cache fills in. */
static void cache_fix_selection(const struct audit *au, const struct cached *c,
				struct buf *fix)
{
	const struct activation *a = au->a;

	if (c->sev == DOCTOR_PROBLEM) {
		buf_adds(fix, "; or make the selection complete: ");
		doctor_install_cmd(&a->sel, a->act.cuda->version, fix);
	} else if (c->sev == DOCTOR_WARNING && c->example &&
		   nvlib_so_version(nvlib_get(NVLIB_CUDNN), c->example)) {
		/* The cache's build fits only its own CUDA major. */
		buf_adds(fix, "; or select the cuDNN your framework "
			      "needs, so that the selection provides "
			      "it: ");
		doctor_setter(au, fix);
		buf_adds(fix, " ");
		shell_quote_word(fix, a->sel.cuda);
		if (c->major == a->act.cuda->cuda_major)
			buf_printf(fix, " --cudnn %s", c->example + 12);
		else
			buf_adds(fix, " --cudnn VERSION");
	}
}

/*
 * Does a program of CUDA major ask for soname? A CUDA 12 program never
 * asks for libcublas.so.13, but CUDA 12 and 13 share libcusparse.so.12,
 * libcurand.so.10, and cuDNN's and NCCL's sonames follow their own
 * versions (libcudnn.so.9, libnccl.so.2) under any CUDA.
 */
static bool asked_by(const char *soname, unsigned major)
{
	const char *v;
	const struct nvlib *e = nvlib_match_file(soname, &v);
	unsigned long m;

	if (!e || !major || (e->flags & NVLIB_OWN_VERSION))
		return true;
	m = nvlib_majors(e, v);
	return !m || (m & 1UL << major);
}

/* Sort c's sonames out against the selection: fills, lacks, example. */
static void cache_judge(const struct audit *au, struct cached *c)
{
	for (size_t j = 0; j < c->names->n; j++) {
		const char *s = c->names->v[j];

		if (au->a->ok && !asked_by(s, au->a->act.cuda->cuda_major))
			continue;
		if (strv_find(&au->missing, s) >= 0)
			strv_push(&c->fills, s);
		if (!doctor_provides(au, s))
			strv_push(&c->lacks, s);
	}
	/* A soname frameworks ask for: cuDNN's, when none is chosen. */
	for (size_t j = 0; j < c->lacks.n && !c->example; j++)
		if (nvlib_so_version(nvlib_get(NVLIB_CUDNN), c->lacks.v[j]) &&
		    au->a->ok && !au->a->act.cudnn)
			c->example = c->lacks.v[j];
	if (!c->example && c->lacks.n)
		c->example = c->lacks.v[0];
	c->sev = !au->a->ok   ? DOCTOR_INFO
		 : c->fills.n ? DOCTOR_PROBLEM
		 : c->lacks.n ? DOCTOR_WARNING
			      : DOCTOR_INFO;
}

static void cache_dir(struct audit *au, const char *cpath, const char *dir,
		      struct strv *names)
{
	const struct ldconf *conf = au->in->conf;
	struct cached c = { .dir = dir, .names = names };
	struct draft d = DRAFT_INIT;
	char *real = plat_realpath(dir);
	int own = real && strv_find(&au->real_dirs, real) >= 0;

	free(real);
	if (own)
		return;
	strv_sort(names);
	c.conf = conf ? ldconf_file_for(conf, dir) : NULL;
	c.major = doctor_libs_major(names);
	cache_judge(au, &c);
	buf_printf(&d.what, "the loader cache (%s) lists ", cpath);
	if (c.major)
		buf_printf(&d.what, "CUDA %u ", c.major);
	buf_adds(&d.what, "libraries in ");
	buf_add_display(&d.what, dir, 4096);
	buf_adds(&d.what, ": ");
	doctor_list(&d.what, names);
	cache_why(au, &c, &d.why);
	cache_fix_folder(&c, &d);
	cache_fix_selection(au, &c, &d.fix);
	strv_push(&d.paths, dir);
	strv_push(&d.paths, cpath);
	doctor_emit(au->out, "loader-cache", c.sev, &d);
	strv_release(&c.fills);
	strv_release(&c.lacks);
}

void doctor_check_cache(struct audit *au)
{
	const struct doctor_in *in = au->in;
	const char *cpath =
		in->cache_path ? in->cache_path : "/etc/ld.so.cache";
	struct strv dirs = STRV_INIT;
	struct strv *names = NULL;

	if (!in->cache)
		return;
	cache_gather(au, &dirs, &names);
	for (size_t i = 0; i < dirs.n; i++)
		cache_dir(au, cpath, dirs.v[i], &names[i]);
	for (size_t i = 0; i < dirs.n; i++)
		strv_release(&names[i]);
	free(names);
	strv_release(&dirs);
	if (in->cache_error) {
		struct draft d = DRAFT_INIT;

		buf_adds(&d.what, in->cache_error);
		strv_push(&d.paths, cpath);
		doctor_emit_with(au->out, "loader-cache", DOCTOR_INFO, &d,
				 "doctor cannot tell which libraries the "
				 "loader hands out for sonames the selection "
				 "lacks",
				 "rebuild it: sudo ldconfig");
	}
}

/* ---- CUDA_HOME ---------------------------------------------------------- */

/* The toolkit of an nvcc: the folder above its bin/. */
static char *toolkit_of(const char *nvcc)
{
	char *bin = doctor_parent(nvcc), *top = doctor_parent(bin);

	free(bin);
	return top;
}

void doctor_check_cuda_home(struct audit *au)
{
	static const char *const vars[] = { "CUDA_HOME", "CUDA_PATH" };
	char *nvcc = env_which(au->eff, "nvcc");
	char *top = nvcc ? toolkit_of(nvcc) : NULL;
	char *real_top = NULL;

	if (nvcc) {
		char *r = plat_realpath(nvcc);

		if (r)
			real_top = toolkit_of(r);
		free(r);
	}
	for (size_t i = 0; i < 2; i++) {
		const char *home = envmap_get(au->eff, vars[i]);
		struct draft d = DRAFT_INIT;
		int sel_home, sel_has_nvcc = 0, rebuild;

		if (!home || !*home)
			continue;
		if (store_is_dir(home) &&
		    (!nvcc || same_dir(home, top) ||
		     (real_top && same_dir(home, real_top))))
			continue;
		sel_home = au->a->ok && same_dir(home, au->a->act.cuda->prefix);
		if (au->a->ok) {
			struct buf p = BUF_INIT;

			for (size_t j = 0; j < au->a->act.cuda->bin.n; j++) {
				buf_reset(&p);
				buf_path(&p, au->a->act.cuda->bin.v[j], "nvcc");
				sel_has_nvcc |= plat_can_exec(p.data);
			}
			buf_release(&p);
		}
		strv_push(&d.paths, home);
		if (!store_is_dir(home)) {
			buf_printf(&d.what, "%s is ", vars[i]);
			buf_add_display(&d.what, home, 4096);
			buf_adds(&d.what, ", which is not a folder");
			buf_adds(&d.why,
				 "build tools that take the toolkit from "
				 "it (PyTorch's C++/CUDA extensions, "
				 "CMake, TensorFlow's configure) fail "
				 "to find nvcc, headers or libraries");
		} else {
			buf_printf(&d.what, "%s is ", vars[i]);
			buf_add_display(&d.what, home, 4096);
			buf_adds(&d.what, ", but the nvcc first on PATH is ");
			buf_add_display(&d.what, nvcc, 4096);
			buf_adds(&d.why,
				 "build tools take the toolkit from "
				 "CUDA_HOME or CUDA_PATH (PyTorch's "
				 "C++/CUDA extensions, CMake, "
				 "TensorFlow's configure, Numba) while "
				 "Makefiles and shells run the nvcc on "
				 "PATH: one build then compiles with one "
				 "toolkit and takes headers and "
				 "libraries from another, and fails to "
				 "link or breaks at run time");
			strv_push(&d.paths, nvcc);
		}
		/* installed from the index with its nvcc wheel: that wheel
		 * has no nvcc, and a reinstall from it would bring none */
		rebuild = sel_home && !sel_has_nvcc &&
			  !store_version_part_from_wheel(au->a->act.cuda,
							 "cuda_nvcc");
		if (sel_home && !sel_has_nvcc && !rebuild)
			buf_printf(&d.why,
				   "; the selection's cuda_nvcc came from the "
				   "package index, whose wheel of %s holds no "
				   "nvcc: installing it again brings none",
				   au->a->act.cuda->version);
		if (rebuild) {
			buf_adds(&d.fix, "give the selection its compiler: ");
			doctor_reinstall(au->a->act.cuda,
					 au->a->act.cuda->version, &d.fix);
			buf_adds(&d.fix, " (nvcc is one of the default "
					 "components)");
			if (top)
				buf_adds(&d.fix, "; or ");
		}
		if (top) {
			buf_printf(&d.fix, "export %s=", vars[i]);
			shell_quote_word(&d.fix, top);
			buf_adds(&d.fix, " (the toolkit of that nvcc)");
		} else if (!(sel_home && !sel_has_nvcc)) {
			buf_printf(&d.fix, "unset %s", vars[i]);
		}
		if (au->a->ok && !sel_home)
			buf_adds(&d.fix, "; or let cuenv set it again: eval "
					 "\"$(cuenv env)\"");
		doctor_emit(au->out, "cuda-home-mismatch", DOCTOR_WARNING, &d);
	}
	free(nvcc);
	free(top);
	free(real_top);
}
