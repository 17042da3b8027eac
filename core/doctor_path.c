/*
 * doctor_path.c: doctor's checks of where the loader and build tools
 * look: foreign CUDA folders on LD_LIBRARY_PATH, foreign CUDA libraries
 * in the loader cache, and CUDA_HOME or CUDA_PATH against PATH's nvcc.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "doctor_int.h"
#include "nvlib.h"
#include "shell.h"
#include "xalloc.h"

/* ---- small helpers ------------------------------------------------------ */

/* Do a and b name the same folder (as given, or through links)? */
static int same_dir(const char *a, const char *b)
{
	char *ra, *rb;
	int same;

	if (!strcmp(a, b))
		return 1;
	ra = realpath(a, NULL);
	rb = realpath(b, NULL);
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
		doctor_word(b, sel->cuda);
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
	for (size_t i = 0; i < libs->n; i++)
		if (!strncmp(libs->v[i], "libcupti.", 9))
			return 1;
	return 0;
}

void doctor_check_ld_path(struct audit *au)
{
	const char *ld;
	struct strv list = STRV_INIT, drop = STRV_INIT;
	long first = -1;

	if (!au->a->ok)
		return;
	ld = envmap_get(au->eff, "LD_LIBRARY_PATH");
	if (ld)
		strv_split(&list, ld, ':');
	for (size_t i = 0; i < list.n; i++) {
		char *real = *list.v[i] ? realpath(list.v[i], NULL) : NULL;

		if (real && strv_find(&au->real_dirs, real) >= 0) {
			if (first < 0)
				first = (long)i;
		} else if (*list.v[i]) {
			struct strv libs = STRV_INIT;

			doctor_cuda_libs(list.v[i], &libs);
			if (libs.n)
				doctor_push_unique(&drop, list.v[i]);
			strv_release(&libs);
		}
		free(real);
	}
	if (au->shell_active && first < 0 && au->dirs.n) {
		struct draft d = DRAFT_INIT;

		buf_printf(&d.what,
			   "this shell's LD_LIBRARY_PATH no longer holds the "
			   "selection's folders (%s): it was set again after "
			   "cuenv activated it",
			   au->label.data);
		buf_adds(&d.why, "programs started from this shell load "
				 "whatever the rest of LD_LIBRARY_PATH and the "
				 "loader cache give, not the selection");
		buf_adds(&d.fix, "eval \"$(cuenv env)\" (or start a new "
				 "shell)");
		doctor_emit(au->out, "not-activated", DOCTOR_WARNING, &d);
	}
	for (size_t i = 0; i < list.n; i++) {
		struct strv libs = STRV_INIT, both = STRV_INIT,
			    fills = STRV_INIT, other = STRV_INIT;
		struct draft d = DRAFT_INIT;
		int before = first < 0 || (long)i < first;
		long seen = strv_find(&drop, list.v[i]);

		/* Each foreign folder once, where it first appears. */
		if (seen < 0 || strv_find(&list, list.v[i]) != (long)i)
			continue;
		doctor_cuda_libs(list.v[i], &libs);
		for (size_t j = 0; j < libs.n; j++) {
			if (doctor_provides(au, libs.v[j]))
				strv_push(&both, libs.v[j]);
			else
				strv_push(&other, libs.v[j]);
			if (strv_find(&au->missing, libs.v[j]) >= 0)
				strv_push(&fills, libs.v[j]);
		}
		strv_push(&d.paths, list.v[i]);
		if (before && both.n) {
			buf_adds(&d.what, "LD_LIBRARY_PATH has ");
			buf_add_display(&d.what, list.v[i], 4096);
			buf_adds(&d.what, " before the selection's folders, "
					  "and it holds ");
			doctor_list(&d.what, &both);
			buf_printf(&d.what,
				   ", which the selection (%s) has too",
				   au->label.data);
			buf_adds(&d.why,
				 "the loader takes the first folder on "
				 "LD_LIBRARY_PATH that holds the soname "
				 "it wants, so these copies load instead "
				 "of the selection's, and a library of "
				 "another release runs with this one's");
			buf_adds(&d.why,
				 has_cupti(&both)
				     ? ": \"incompatible libcupti "
				       "version\", CUPTI_ERROR_... at "
				       "profiler start"
				     : ": undefined symbols, \"version "
				       "... not found\", or CUDA errors at "
				       "start-up");
			add_isolate_fix(au, &drop, &d.fix);
			doctor_emit(au->out, "ld-library-path-shadow", DOCTOR_PROBLEM,
			     &d);
		} else if (fills.n) {
			buf_adds(&d.what, "LD_LIBRARY_PATH entry ");
			buf_add_display(&d.what, list.v[i], 4096);
			buf_adds(&d.what, " holds ");
			doctor_list(&d.what, &fills);
			buf_printf(&d.what, ", which the selection (%s) lacks",
				   au->label.data);
			buf_adds(&d.why, "programs asking for ");
			doctor_list(&d.why, &fills);
			buf_adds(&d.why, " get this folder's copy, from "
					 "another install, mixed with the "
					 "selection's libraries");
			buf_adds(&d.why, has_cupti(&fills)
					     ? ": \"incompatible libcupti "
					       "version\""
					     : ": undefined symbols or CUDA "
					       "errors at start-up");
			add_isolate_fix(au, &drop, &d.fix);
			buf_adds(&d.fix, "; and give the selection what it "
					 "lacks (see the missing-soname "
					 "finding)");
			doctor_emit(au->out, "foreign-ld-library-path", DOCTOR_PROBLEM,
			     &d);
		} else {
			buf_adds(&d.what, "LD_LIBRARY_PATH entry ");
			buf_add_display(&d.what, list.v[i], 4096);
			buf_adds(&d.what, " holds CUDA libraries that are not "
					  "the selection's: ");
			doctor_list(&d.what, &libs);
			if (other.n) {
				buf_adds(&d.why,
					 "the selection's folders "
					 "come first, so where both "
					 "have a soname the selection's "
					 "copy loads; but a framework "
					 "asking for one the selection "
					 "lacks (");
				doctor_list(&d.why, &other);
				buf_adds(&d.why, ") gets this folder's, from "
						 "another release, and two "
						 "releases mix in one process");
				if (has_cupti(&other))
					buf_adds(&d.why,
						 ": \"incompatible libcupti "
						 "version\"");
			} else {
				buf_adds(&d.why,
					 "the selection's folders come "
					 "first and have every soname "
					 "here, so nothing loads from "
					 "it while the selection is "
					 "active; one change of order "
					 "(an export in a script, "
					 "another tool's activation) and "
					 "these copies shadow the "
					 "selection's");
			}
			add_isolate_fix(au, &drop, &d.fix);
			doctor_emit(au->out, "foreign-ld-library-path", DOCTOR_WARNING,
			     &d);
		}
		strv_release(&libs);
		strv_release(&both);
		strv_release(&fills);
		strv_release(&other);
	}
	strv_release(&list);
	strv_release(&drop);
}

/* ---- the loader cache --------------------------------------------------- */

/* Is dir a CUDA folder by its name (and not /usr/lib, /usr/local/lib)? */
static int cuda_folder(const char *dir)
{
	static const char *const words[] = {"cuda", "cudnn", "cupti", "nvidia",
					    "nccl"};
	struct buf low = BUF_INIT;
	int hit = 0;

	for (const char *p = dir; *p; p++)
		buf_addc(&low, (char)(*p >= 'A' && *p <= 'Z' ? *p + 32 : *p));
	for (size_t i = 0; i < sizeof(words) / sizeof(*words) && !hit; i++)
		hit = strstr(low.data, words[i]) != NULL;
	buf_release(&low);
	return hit;
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
	for (size_t i = 0; i < in->cache->n; i++) {
		const struct ldcache_entry *e = &in->cache->v[i];
		char *dir, *real;
		long at;

		/* Programs ask for versioned sonames only. */
		if (!nvlib_is_cuda_file(e->soname) || !strstr(e->soname, ".so.") ||
		    e->path[0] != '/')
			continue;
		/* A link to the selection's own copy is the selection's. */
		real = realpath(e->path, NULL);
		dir = real ? doctor_parent(real) : NULL;
		free(real);
		if (dir && strv_find(&au->real_dirs, dir) >= 0) {
			free(dir);
			continue;
		}
		free(dir);
		dir = doctor_parent(e->path);
		at = strv_find(&dirs, dir);
		if (at < 0) {
			strv_push(&dirs, dir);
			names = xrealloc(names, dirs.n * sizeof(*names));
			memset(&names[dirs.n - 1], 0, sizeof(*names));
			at = (long)dirs.n - 1;
		}
		doctor_push_unique(&names[at], e->soname);
		free(dir);
	}
	for (size_t i = 0; i < dirs.n; i++) {
		struct strv fills = STRV_INIT, lacks = STRV_INIT;
		struct draft d = DRAFT_INIT;
		const char *dir = dirs.v[i];
		const char *conf =
		    in->conf ? ldconf_file_for(in->conf, dir) : NULL;
		char *real = realpath(dir, NULL);
		unsigned major;
		enum doctor_severity sev;
		const char *example = NULL;

		if (real && strv_find(&au->real_dirs, real) >= 0) {
			free(real);
			continue;
		}
		free(real);
		strv_sort(&names[i]);
		major = doctor_libs_major(&names[i]);
		for (size_t j = 0; j < names[i].n; j++) {
			const char *s = names[i].v[j];

			if (strv_find(&au->missing, s) >= 0)
				strv_push(&fills, s);
			if (!doctor_provides(au, s))
				strv_push(&lacks, s);
		}
		/* A soname frameworks ask for: cuDNN's, when none is chosen. */
		for (size_t j = 0; j < lacks.n && !example; j++)
			if (!strncmp(lacks.v[j], "libcudnn.so.", 12) &&
			    au->a->ok && !au->a->act.cudnn)
				example = lacks.v[j];
		if (!example && lacks.n)
			example = lacks.v[0];
		sev = !au->a->ok ? DOCTOR_INFO
		      : fills.n	 ? DOCTOR_PROBLEM
		      : lacks.n	 ? DOCTOR_WARNING
				 : DOCTOR_INFO;
		buf_printf(&d.what, "the loader cache (%s) lists ", cpath);
		if (major)
			buf_printf(&d.what, "CUDA %u ", major);
		buf_adds(&d.what, "libraries in ");
		buf_add_display(&d.what, dir, 4096);
		buf_adds(&d.what, ": ");
		doctor_list(&d.what, &names[i]);
		buf_adds(&d.why, "the loader searches the cache after "
				 "LD_LIBRARY_PATH");
		if (!au->a->ok) {
			buf_adds(&d.why, ", and with no selection active these "
					 "are what programs load for these "
					 "sonames");
		} else if (fills.n) {
			buf_printf(&d.why, ": the selection (%s) lacks ",
				   au->label.data);
			doctor_list(&d.why, &fills);
			buf_adds(&d.why, ", so the cache's copy is loaded "
					 "silently, from another install, and "
					 "mixes with the selection's "
					 "libraries");
		} else if (example) {
			buf_printf(&d.why,
				   ": where the selection has a soname its "
				   "copy wins, but for one it lacks (here %s) "
				   "the cache's copy is loaded silently, ",
				   example);
			if (major)
				buf_printf(&d.why,
					   "a CUDA %u library mixed "
					   "with %s",
					   major, au->label.data);
			else
				buf_printf(&d.why, "mixed with %s",
					   au->label.data);
		} else {
			buf_adds(&d.why, ": the selection has every soname "
					 "listed here and comes first while it "
					 "is active; outside it (other shells, "
					 "services) these are what loads");
		}
		if (!cuda_folder(dir)) {
			buf_adds(&d.fix,
				 "the folder is shared with other "
				 "software: remove these CUDA libraries "
				 "(or links) from it, or the package that "
				 "put them there (dpkg -S ");
			doctor_word(&d.fix, dir);
			buf_adds(&d.fix, "/");
			doctor_word(&d.fix, names[i].v[0]);
			buf_adds(&d.fix, "), then run: sudo ldconfig");
			if (conf)
				strv_push(&d.paths, conf);
		} else if (conf) {
			buf_adds(&d.fix, "remove ");
			doctor_word(&d.fix, dir);
			buf_adds(&d.fix, " from ");
			doctor_word(&d.fix, conf);
			buf_adds(&d.fix, " (or delete that file), then run: "
					 "sudo ldconfig");
			strv_push(&d.paths, conf);
		} else {
			buf_adds(&d.fix, "no loader configuration file names "
					 "this folder (the loader searches it "
					 "anyway): remove the package that put "
					 "these libraries there (dpkg -S ");
			doctor_word(&d.fix, dir);
			buf_adds(&d.fix, " or rpm -qf), then run: sudo "
					 "ldconfig");
		}
		if (sev == DOCTOR_PROBLEM) {
			buf_adds(&d.fix, "; or make the selection complete: ");
			doctor_install_cmd(&au->a->sel, au->a->act.cuda->version,
				    &d.fix);
		} else if (sev == DOCTOR_WARNING && example &&
			   !strncmp(example, "libcudnn.so.", 12)) {
			/* The cache's build fits only its own CUDA major. */
			buf_adds(&d.fix,
				 "; or select the cuDNN your framework "
				 "needs, so that the selection provides "
				 "it: ");
			doctor_setter(au, &d.fix);
			buf_adds(&d.fix, " ");
			doctor_word(&d.fix, au->a->sel.cuda);
			if (major == au->a->act.cuda->cuda_major)
				buf_printf(&d.fix, " --cudnn %s", example + 12);
			else
				buf_adds(&d.fix, " --cudnn VERSION");
		}
		strv_push(&d.paths, dir);
		strv_push(&d.paths, cpath);
		doctor_emit(au->out, "loader-cache", sev, &d);
		strv_release(&fills);
		strv_release(&lacks);
	}
	for (size_t i = 0; i < dirs.n; i++)
		strv_release(&names[i]);
	free(names);
	strv_release(&dirs);
	if (in->cache_error) {
		struct draft d = DRAFT_INIT;

		buf_adds(&d.what, in->cache_error);
		buf_adds(&d.why, "doctor cannot tell which libraries the "
				 "loader hands out for sonames the selection "
				 "lacks");
		buf_adds(&d.fix, "rebuild it: sudo ldconfig");
		strv_push(&d.paths, cpath);
		doctor_emit(au->out, "loader-cache", DOCTOR_INFO, &d);
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
	static const char *const vars[] = {"CUDA_HOME", "CUDA_PATH"};
	char *nvcc = env_which(au->eff, "nvcc");
	char *top = nvcc ? toolkit_of(nvcc) : NULL;
	char *real_top = NULL;

	if (nvcc) {
		char *r = realpath(nvcc, NULL);

		if (r)
			real_top = toolkit_of(r);
		free(r);
	}
	for (size_t i = 0; i < 2; i++) {
		const char *home = envmap_get(au->eff, vars[i]);
		struct draft d = DRAFT_INIT;
		int sel_home, sel_has_nvcc = 0;

		if (!home || !*home)
			continue;
		if (store_is_dir(home) && (!nvcc || same_dir(home, top) ||
				     (real_top && same_dir(home, real_top))))
			continue;
		sel_home = au->a->ok && same_dir(home, au->a->act.cuda->prefix);
		if (au->a->ok) {
			struct buf p = BUF_INIT;

			for (size_t j = 0; j < au->a->act.cuda->bin.n; j++) {
				buf_reset(&p);
				buf_path(&p, au->a->act.cuda->bin.v[j], "nvcc");
				sel_has_nvcc |= !access(p.data, X_OK);
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
		if (sel_home && !sel_has_nvcc) {
			buf_adds(&d.fix, "give the selection its compiler: ");
			doctor_reinstall(au->a->act.cuda, au->a->act.cuda->version,
				      &d.fix);
			buf_adds(&d.fix, " (nvcc is one of the default "
					 "components)");
			if (top)
				buf_adds(&d.fix, "; or ");
		}
		if (top) {
			buf_printf(&d.fix, "export %s=", vars[i]);
			doctor_word(&d.fix, top);
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
