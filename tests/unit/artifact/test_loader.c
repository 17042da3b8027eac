/*
 * The loader model against the real loader: each test builds small
 * libraries with cc (rpath, runpath, version scripts), asks the model
 * what a program that dlopen()s one of them would load, then runs such a
 * program (probe.c below) and compares with what /proc/self/maps shows it
 * really loaded, or with the error ld.so really gave. The expectations
 * written in each test come from glibc's documented order (ld.so(8)); the
 * real loader is the judge that they were right.
 */
#include "fakes/fixture.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifact/ldcache.h"
#include "artifact/loader.h"
#include "plat/file.h"

/* dlopen argv[1] (RTLD_NOW, as Python imports); call argv[2] if given;
 * print each mapped file once, or "error: " and dlerror(). */
static const char probe_src[] =
    "#include <dlfcn.h>\n"
    "#include <stdio.h>\n"
    "#include <string.h>\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "	char line[4096], seen[256][512];\n"
    "	int n = 0;\n"
    "	void *h = dlopen(argv[1], RTLD_NOW);\n"
    "	FILE *m;\n"
    "	if (!h) { printf(\"error: %s\\n\", dlerror()); return 1; }\n"
    "	if (argc > 2) {\n"
    "		int (*f)(void) = (int (*)(void))dlsym(h, argv[2]);\n"
    "		if (!f || f()) { printf(\"error: %s\\n\", dlerror());\n"
    "			return 1; }\n"
    "	}\n"
    "	m = fopen(\"/proc/self/maps\", \"r\");\n"
    "	while (m && fgets(line, sizeof line, m)) {\n"
    "		char *p = strchr(line, '/');\n"
    "		int dup = 0;\n"
    "		if (!p || !strstr(p, \".so\")) continue;\n"
    "		p[strcspn(p, \"\\n\")] = 0;\n"
    "		for (int i = 0; i < n; i++) dup |= !strcmp(seen[i], p);\n"
    "		if (dup || n == 256) continue;\n"
    "		snprintf(seen[n++], 512, \"%s\", p);\n"
    "		printf(\"%s\\n\", p);\n"
    "	}\n"
    "	return 0;\n"
    "}\n";

/* cc with the given extra arguments (space separated) and the source. */
static void cc(const struct fixture *fx, const char *out, const char *src,
	       const char *extra)
{
	struct strv argv = STRV_INIT, ex = STRV_INIT;
	struct buf got = BUF_INIT, srcname = BUF_INIT;
	char *o = fx_path(fx, out), *c;

	buf_printf(&srcname, "%s.c", out);
	fx_write(fx, srcname.data, src);
	c = fx_path(fx, srcname.data);
	strv_push(&argv, "cc");
	strv_push(&argv, "-fPIC");
	strv_push(&argv, "-o");
	strv_push(&argv, o);
	strv_push(&argv, c);
	strv_split(&ex, extra, ' ');
	for (size_t i = 0; i < ex.n; i++)
		if (*ex.v[i])
			strv_push(&argv, ex.v[i]);
	if (fx_run(argv.v, &got))
		fail_msg("cc %s failed", extra);
	STRV_RELEASE_EACH(&argv, &ex);
	BUF_RELEASE_EACH(&got, &srcname);
	FREE_EACH(o, c);
}

/* A library rel with soname; extra: -Wl options, links to others. */
static void lib(const struct fixture *fx, const char *rel, const char *soname,
		const char *src, const char *extra)
{
	struct buf a = BUF_INIT;

	buf_printf(&a, "-shared -Wl,-soname,%s -Wl,--no-as-needed %s", soname,
		   extra);
	cc(fx, rel, src, a.data);
	buf_release(&a);
}

static int setup(void **state)
{
	struct fixture *fx;
	int rc = fx_setup(state);

	if (rc)
		return rc;
	if (!fx_have_program("cc"))
		return 0;
	fx = *state;
	/* cc's relative paths (-Ldep, version scripts) are the fixture's */
	if (chdir(fx->root))
		return -1;
	cc(fx, "probe", probe_src, "-ldl");
	return 0;
}

/* The model's answer and the real loader's, for dlopen(path) [+ call]. */
struct run {
	struct loader l;
	struct ldcache cache;
	struct strv model; /* real paths the model loads */
	struct strv real;  /* real paths the probe mapped */
	bool real_failed;
	struct buf real_out;
};

static void predict_and_run(const struct fixture *fx, struct run *r,
			    const char *ld_library_path, const char *target,
			    const char *call, const char *call_dlopens)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct loader_env env = {0};
	char *probe = fx_path(fx, "probe"), *path = fx_path(fx, target);
	size_t idx;
	char *argv[] = {probe, path, (char *)call, NULL};

	memset(r, 0, sizeof(*r));
	if (ldcache_read("/etc/ld.so.cache", &r->cache, &err) > CUENV_NO)
		fail_msg("%s", err.msg.data);
	env.library_path = ld_library_path;
	env.cache = &r->cache;
	env.platform = "x86_64";
	env.lib = "lib/x86_64-linux-gnu";
	loader_init(&r->l, &env);
	if (loader_program(&r->l, probe, &err))
		fail_msg("%s", err.msg.data);
	if (!loader_dlopen(&r->l, LOADER_NONE, path, &idx) && call_dlopens) {
		size_t sub;

		loader_dlopen(&r->l, idx, call_dlopens, &sub);
	}
	loader_check_versions(&r->l);
	/* the program is no ".so" in the probe's list */
	for (size_t i = 1; i < r->l.nobj; i++)
		strv_push_take(&r->model, realpath(r->l.obj[i].path, NULL));
	strv_sort(&r->model);

	if (ld_library_path)
		setenv("LD_LIBRARY_PATH", ld_library_path, 1);
	else
		unsetenv("LD_LIBRARY_PATH");
	r->real_failed = fx_run(argv, &r->real_out) != 0;
	unsetenv("LD_LIBRARY_PATH");
	if (!r->real_failed) {
		strv_split(&r->real, r->real_out.data, '\n');
		for (size_t i = 0; i < r->real.n; i++)
			if (!*r->real.v[i])
				strv_remove(&r->real, i--);
		strv_sort(&r->real);
	}
	err_release(&err);
	FREE_EACH(probe, path);
}

static void run_release(struct run *r)
{
	loader_release(&r->l);
	ldcache_release(&r->cache);
	STRV_RELEASE_EACH(&r->model, &r->real);
	buf_release(&r->real_out);
}

/* The model and the real loader agree on success and on every file. */
static void assert_agree(const struct run *r)
{
	bool model_failed = r->l.nmiss > 0 || r->l.nprob;

	if (model_failed != r->real_failed)
		fail_msg("model %s, real loader: %s",
			 model_failed ? "fails" : "loads", r->real_out.data);
	if (r->real_failed)
		return;
	for (size_t i = 0; i < r->real.n || i < r->model.n; i++) {
		const char *a = i < r->model.n ? r->model.v[i] : "(none)",
			   *b = i < r->real.n ? r->real.v[i] : "(none)";

		if (strcmp(a, b))
			fail_msg("model loads %s where the real loader has %s",
				 a, b);
	}
}

/* Where the model found name, and from which source. */
static const struct loader_obj *found(const struct run *r, const char *name)
{
	const struct loader_obj *o = loader_find(&r->l, name);

	if (!o)
		fail_msg("the model did not load %s", name);
	return o;
}

static void assert_from(const struct fixture *fx, const struct run *r,
			const char *name, const char *rel,
			enum loader_source src)
{
	const struct loader_obj *o = found(r, name);
	char *want = fx_path(fx, rel), *a = realpath(o->path, NULL),
	     *b = realpath(want, NULL);

	if (!a || !b || strcmp(a, b))
		fail_msg("%s: model has %s, expected %s", name, o->path, want);
	assert_int_equal(o->source, src);
	FREE_EACH(want, a, b);
}

static const char b_src[] = "int b(void) { return 0; }\n";

/* Two copies of libb: one where LD_LIBRARY_PATH points, one in dep/. */
static void two_copies(const struct fixture *fx)
{
	fx_mkdir(fx, "dep");
	fx_mkdir(fx, "llp");
	lib(fx, "dep/libb.so.1", "libb.so.1", b_src, "");
	lib(fx, "llp/libb.so.1", "libb.so.1", b_src, "");
}

/* DT_RUNPATH comes after LD_LIBRARY_PATH: NVIDIA's wheels' case. */
static void test_loader_runpath_after_library_path(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *llp = fx_path(fx, "llp");

	FX_NEED_CC();
	two_copies(fx);
	lib(fx, "liba.so", "liba.so",
	    "int b(void);\nint a(void) { return b(); }\n",
	    "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/dep -Ldep -l:libb.so.1");
	predict_and_run(fx, &r, llp, "liba.so", NULL, NULL);
	assert_agree(&r);
	assert_from(fx, &r, "libb.so.1", "llp/libb.so.1", LOADER_LIBRARY_PATH);
	run_release(&r);
	/* without LD_LIBRARY_PATH, the runpath */
	predict_and_run(fx, &r, NULL, "liba.so", NULL, NULL);
	assert_agree(&r);
	assert_from(fx, &r, "libb.so.1", "dep/libb.so.1", LOADER_RUNPATH);
	run_release(&r);
	free(llp);
}

/* DT_RPATH comes before LD_LIBRARY_PATH: torch's own libraries' case. */
static void test_loader_rpath_before_library_path(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *llp = fx_path(fx, "llp");

	FX_NEED_CC();
	two_copies(fx);
	lib(fx, "liba.so", "liba.so",
	    "int b(void);\nint a(void) { return b(); }\n",
	    "-Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/dep -Ldep "
	    "-l:libb.so.1");
	predict_and_run(fx, &r, llp, "liba.so", NULL, NULL);
	assert_agree(&r);
	assert_from(fx, &r, "libb.so.1", "dep/libb.so.1", LOADER_RPATH);
	run_release(&r);
	free(llp);
}

/*
 * A library without a path of its own takes its loader's DT_RPATH, but
 * not when it has a DT_RUNPATH: then only LD_LIBRARY_PATH, its own
 * runpath and the system remain.
 */
static void test_loader_rpath_of_the_loading_chain(void **state)
{
	struct fixture *fx = *state;
	struct run r;

	FX_NEED_CC();
	fx_mkdir(fx, "dep");
	lib(fx, "dep/libleaf.so.1", "libleaf.so.1", b_src, "");
	lib(fx, "dep/libmid.so.1", "libmid.so.1",
	    "int b(void);\nint m(void) { return b(); }\n",
	    "-Ldep -l:libleaf.so.1");
	lib(fx, "libtop.so", "libtop.so",
	    "int m(void);\nint t(void) { return m(); }\n",
	    "-Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/dep -Ldep "
	    "-l:libmid.so.1");
	predict_and_run(fx, &r, NULL, "libtop.so", NULL, NULL);
	assert_agree(&r);
	assert_from(fx, &r, "libleaf.so.1", "dep/libleaf.so.1", LOADER_RPATH);
	run_release(&r);

	/* the middle one with a DT_RUNPATH elsewhere: the chain is cut */
	fx_mkdir(fx, "empty");
	lib(fx, "dep/libmid.so.1", "libmid.so.1",
	    "int b(void);\nint m(void) { return b(); }\n",
	    "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/../empty -Ldep "
	    "-l:libleaf.so.1");
	predict_and_run(fx, &r, NULL, "libtop.so", NULL, NULL);
	assert_agree(&r);
	assert_true(r.real_failed);
	assert_int_equal(r.l.nmiss, 1);
	assert_string_equal(r.l.miss[0].name, "libleaf.so.1");
	run_release(&r);
}

/*
 * A dlopen() from a library searches that library's DT_RUNPATH, after
 * LD_LIBRARY_PATH: cuDNN's front library loading its sub-libraries.
 */
static void test_loader_dlopen_from_a_runpath_library(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *llp = fx_path(fx, "llp");

	FX_NEED_CC();
	fx_mkdir(fx, "front");
	fx_mkdir(fx, "llp");
	lib(fx, "front/libsub.so.9", "libsub.so.9", b_src, "");
	lib(fx, "llp/libsub.so.9", "libsub.so.9", b_src, "");
	lib(fx, "front/libfront.so.9", "libfront.so.9",
	    "#include <dlfcn.h>\n"
	    "int load(void) { return !dlopen(\"libsub.so.9\", RTLD_NOW); }\n",
	    "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN -ldl");
	predict_and_run(fx, &r, NULL, "front/libfront.so.9", "load",
			"libsub.so.9");
	assert_agree(&r);
	assert_from(fx, &r, "libsub.so.9", "front/libsub.so.9", LOADER_RUNPATH);
	run_release(&r);
	predict_and_run(fx, &r, llp, "front/libfront.so.9", "load",
			"libsub.so.9");
	assert_agree(&r);
	assert_from(fx, &r, "libsub.so.9", "llp/libsub.so.9",
		    LOADER_LIBRARY_PATH);
	run_release(&r);
	free(llp);
}

/* A soname loaded already is not searched again, wherever it lies. */
static void test_loader_already_loaded_soname_wins(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *llp = fx_path(fx, "llp");

	FX_NEED_CC();
	two_copies(fx);
	/* first the dep/ copy by its path, then a library that needs it */
	lib(fx, "libuser.so", "libuser.so",
	    "int b(void);\nint u(void) { return b(); }\n",
	    "-Ldep -l:libb.so.1");
	lib(fx, "libboth.so", "libboth.so", "int both(void) { return 0; }\n",
	    "-Ldep -Wl,-rpath,$ORIGIN/dep -l:libb.so.1 -L. -l:libuser.so "
	    "-Wl,--disable-new-dtags");
	predict_and_run(fx, &r, llp, "libboth.so", NULL, NULL);
	assert_agree(&r);
	/* libuser.so asks for libb.so.1: the copy loaded through the
	 * RPATH of libboth.so, not LD_LIBRARY_PATH's */
	assert_from(fx, &r, "libb.so.1", "dep/libb.so.1", LOADER_RPATH);
	run_release(&r);
	free(llp);
}

/*
 * Symbol versions: a library built against a newer copy, given an older
 * one by LD_LIBRARY_PATH: "undefined symbol: X, version V" (nvJitLink's
 * case), and a version node the older copy lacks: "version `V' not
 * found".
 */
static void test_loader_symbol_versions(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *llp = fx_path(fx, "llp");

	FX_NEED_CC();
	fx_mkdir(fx, "new");
	fx_mkdir(fx, "llp");
	fx_write(fx, "new.map", "libv.so.12 { global: old_fn; new_fn; };\n");
	fx_write(fx, "old.map", "libv.so.12 { global: old_fn; };\n");
	lib(fx, "new/libv.so.12", "libv.so.12",
	    "int old_fn(void) { return 0; }\nint new_fn(void) { return 0; }\n",
	    "-Wl,--version-script=new.map");
	lib(fx, "llp/libv.so.12", "libv.so.12",
	    "int old_fn(void) { return 0; }\n", "-Wl,--version-script=old.map");
	lib(fx, "new/libuser.so", "libuser.so",
	    "int new_fn(void);\nint u(void) { return new_fn(); }\n",
	    "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN -Lnew -l:libv.so.12");
	predict_and_run(fx, &r, NULL, "new/libuser.so", NULL, NULL);
	assert_agree(&r);
	assert_int_equal(r.l.nprob, 0);
	run_release(&r);

	predict_and_run(fx, &r, llp, "new/libuser.so", NULL, NULL);
	assert_agree(&r);
	assert_true(r.real_failed);
	assert_non_null(strstr(r.real_out.data, "new_fn"));
	assert_int_equal(r.l.nprob, 1);
	assert_string_equal(r.l.prob[0].symbol, "new_fn");
	assert_string_equal(r.l.prob[0].version, "libv.so.12");
	assert_from(fx, &r, "libv.so.12", "llp/libv.so.12",
		    LOADER_LIBRARY_PATH);
	run_release(&r);

	/* a version node the older copy does not define */
	fx_write(fx, "new.map",
		 "libv.so.12 { global: old_fn; };\n"
		 "libv.so.12.1 { global: new_fn; } libv.so.12;\n");
	lib(fx, "new/libv.so.12", "libv.so.12",
	    "int old_fn(void) { return 0; }\nint new_fn(void) { return 0; }\n",
	    "-Wl,--version-script=new.map");
	lib(fx, "new/libuser.so", "libuser.so",
	    "int new_fn(void);\nint u(void) { return new_fn(); }\n",
	    "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN -Lnew -l:libv.so.12");
	predict_and_run(fx, &r, llp, "new/libuser.so", NULL, NULL);
	assert_agree(&r);
	assert_non_null(strstr(r.real_out.data, "libv.so.12.1"));
	assert_true(r.l.nprob >= 1);
	assert_null(r.l.prob[0].symbol);
	assert_string_equal(r.l.prob[0].version, "libv.so.12.1");
	run_release(&r);
	free(llp);
}

/* ---- crafted objects: what cc alone does not make -------------------- */

/* The fixture file rel, whole, into b (written back by fx_write_bytes). */
static void get_file(const struct fixture *fx, const char *rel, struct buf *b)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	char *p = fx_path(fx, rel);

	assert_int_equal(file_read(p, 64u << 20, 0, b, &err), CUENV_OK);
	err_release(&err);
	free(p);
}

/*
 * Give the 64-bit object rel a DT_RUNPATH beside its DT_RPATH (as old
 * linkers' --enable-new-dtags wrote both): the first spare DT_NULL of its
 * dynamic section becomes DT_RUNPATH, naming the RPATH string's suffix
 * from skip bytes on.
 */
static void add_runpath(const struct fixture *fx, const char *rel, size_t skip)
{
	struct buf b = BUF_INIT;
	const Elf64_Ehdr *eh;
	Elf64_Dyn *dyn = NULL;
	size_t n = 0, rpath = (size_t)-1;

	get_file(fx, rel, &b);
	eh = (const Elf64_Ehdr *)b.data;
	for (size_t i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph =
		    (const Elf64_Phdr *)(b.data + eh->e_phoff +
					 i * eh->e_phentsize);

		if (ph->p_type == PT_DYNAMIC) {
			dyn = (Elf64_Dyn *)(b.data + ph->p_offset);
			n = ph->p_filesz / sizeof(*dyn);
		}
	}
	assert_non_null(dyn);
	for (size_t i = 0; i < n; i++) {
		if (dyn[i].d_tag == DT_RPATH)
			rpath = dyn[i].d_un.d_val;
		if (dyn[i].d_tag == DT_NULL) {
			assert_true(rpath != (size_t)-1 && i + 1 < n);
			dyn[i].d_tag = DT_RUNPATH;
			dyn[i].d_un.d_val = rpath + skip;
			break;
		}
	}
	fx_write_bytes(fx, rel, b.data, b.len);
	buf_release(&b);
}

/*
 * An object with both DT_RPATH and DT_RUNPATH: glibc ignores its RPATH,
 * for its own needs and for those of the objects it loads. The chain
 * probe -> libp.so -> libl.so.1 -> libd.so.1, libd only in a folder
 * libp's RPATH names: not found, as the real loader says.
 */
static void test_loader_runpath_hides_rpath_of_the_chain(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	static const char rp[] = "$ORIGIN/rp:";

	FX_NEED_CC();
	fx_mkdir(fx, "rp");
	fx_mkdir(fx, "lib");
	lib(fx, "rp/libd.so.1", "libd.so.1", b_src, "");
	lib(fx, "lib/libl.so.1", "libl.so.1",
	    "int b(void);\nint l(void) { return b(); }\n", "-Lrp -l:libd.so.1");
	lib(fx, "libp.so", "libp.so",
	    "int l(void);\nint p(void) { return l(); }\n",
	    "-Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/rp:$ORIGIN/lib -Llib "
	    "-l:libl.so.1 -Wl,-rpath-link,rp");
	/* RPATH alone: libp's RPATH serves its chain, libd is found */
	predict_and_run(fx, &r, NULL, "libp.so", NULL, NULL);
	assert_agree(&r);
	assert_from(fx, &r, "libd.so.1", "rp/libd.so.1", LOADER_RPATH);
	run_release(&r);
	/* with a RUNPATH of "$ORIGIN/lib" beside it */
	add_runpath(fx, "libp.so", sizeof(rp) - 1);
	predict_and_run(fx, &r, NULL, "libp.so", NULL, NULL);
	assert_agree(&r);
	assert_true(r.real_failed);
	assert_int_equal(r.l.nmiss, 1);
	assert_string_equal(r.l.miss[0].name, "libd.so.1");
	run_release(&r);
}

/*
 * A versioned need (DT_VERNEED) met by a provider that defines no
 * versions at all (no DT_VERDEF): glibc accepts it, and so must the
 * model.
 */
static void test_loader_verneed_against_no_verdef(void **state)
{
	struct fixture *fx = *state;
	struct run r;

	FX_NEED_CC();
	fx_mkdir(fx, "v");
	fx_write(fx, "v.map", "libq.so.1 { global: q; local: *; };\n");
	lib(fx, "v/libq.so.1", "libq.so.1", "int q(void) { return 0; }\n",
	    "-Wl,--version-script=v.map");
	lib(fx, "libu.so", "libu.so",
	    "int q(void);\nint u(void) { return q(); }\n",
	    "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/v -Lv -l:libq.so.1");
	/* the same library again, built without a version script */
	lib(fx, "v/libq.so.1", "libq.so.1", "int q(void) { return 0; }\n", "");
	predict_and_run(fx, &r, NULL, "libu.so", "u", NULL);
	assert_agree(&r);
	assert_false(r.real_failed);
	assert_int_equal(r.l.nprob, 0);
	run_release(&r);
}

/*
 * A library of this class but another machine (an aarch64 libb.so.1
 * first on LD_LIBRARY_PATH) is skipped, as ld.so skips it: the x86_64
 * copy further on is the one loaded.
 */
static void test_loader_skips_another_machine(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	struct buf b = BUF_INIT;
	char *llp = fx_path(fx, "llp");

	FX_NEED_CC();
	two_copies(fx);
	get_file(fx, "llp/libb.so.1", &b);
	((Elf64_Ehdr *)b.data)->e_machine = EM_AARCH64;
	fx_write_bytes(fx, "llp/libb.so.1", b.data, b.len);
	lib(fx, "liba.so", "liba.so",
	    "int b(void);\nint a(void) { return b(); }\n",
	    "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/dep -Ldep -l:libb.so.1");
	predict_and_run(fx, &r, llp, "liba.so", NULL, NULL);
	assert_agree(&r);
	assert_false(r.real_failed);
	assert_from(fx, &r, "libb.so.1", "dep/libb.so.1", LOADER_RUNPATH);
	run_release(&r);
	buf_release(&b);
	free(llp);
}

/* A file that is not ELF stops the search; an empty entry is the cwd. */
static void test_loader_not_elf_and_missing(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *llp = fx_path(fx, "llp");

	FX_NEED_CC();
	two_copies(fx);
	fx_write(fx, "llp/libb.so.1", "/* GNU ld script */\n");
	lib(fx, "liba.so", "liba.so",
	    "int b(void);\nint a(void) { return b(); }\n",
	    "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/dep -Ldep -l:libb.so.1");
	predict_and_run(fx, &r, llp, "liba.so", NULL, NULL);
	assert_agree(&r);
	assert_true(r.real_failed);
	assert_string_equal(r.l.miss[0].why, "invalid ELF header");
	run_release(&r);
	free(llp);
}

/* n bytes of v at off, little-endian. */
static void put_le(unsigned char *p, size_t off, unsigned n, uint64_t v)
{
	for (unsigned i = 0; i < n; i++)
		p[off + i] = (unsigned char)(v >> (8 * i));
}

/*
 * rel: a 64-bit x86-64 shared object written byte by byte, without cc (a
 * PT_LOAD mapping the file at 0x400000, a PT_DYNAMIC), with a DT_NEEDED
 * for each of needed and DT_RUNPATH runpath when not NULL.
 */
static void elf_at(const struct fixture *fx, const char *rel,
		   const struct strv *needed, const char *runpath)
{
	const uint64_t base = 0x400000;
	size_t ndyn = needed->n + (runpath ? 1 : 0) + 3, dyn = 64 + 2 * 56;
	size_t str = dyn + ndyn * 16, len, e = 0;
	struct buf strs = BUF_INIT;
	unsigned char *p;

	buf_addc(&strs, '\0');
	for (size_t i = 0; i < needed->n; i++) {
		buf_adds(&strs, needed->v[i]);
		buf_addc(&strs, '\0');
	}
	if (runpath)
		buf_adds(&strs, runpath);
	buf_addc(&strs, '\0');
	len = str + strs.len;
	p = xcalloc(1, len);
	memcpy(p, "\177ELF\002\001\001", 7);
	put_le(p, 16, 2, 3);  /* ET_DYN */
	put_le(p, 18, 2, 62); /* EM_X86_64 */
	put_le(p, 20, 4, 1);
	put_le(p, 32, 8, 64); /* e_phoff */
	put_le(p, 52, 2, 64);
	put_le(p, 54, 2, 56);
	put_le(p, 56, 2, 2);
	for (size_t i = 0; i < 2; i++) {
		size_t ph = 64 + i * 56, off = i ? dyn : 0;
		size_t size = i ? ndyn * 16 : len;

		put_le(p, ph, 4, i ? 2 : 1); /* PT_DYNAMIC : PT_LOAD */
		put_le(p, ph + 4, 4, 4);
		put_le(p, ph + 8, 8, off);
		put_le(p, ph + 16, 8, base + off);
		put_le(p, ph + 24, 8, base + off);
		put_le(p, ph + 32, 8, size);
		put_le(p, ph + 40, 8, size);
	}
	for (size_t i = 0, at = 1; i < needed->n; i++) {
		put_le(p, dyn + 16 * e, 8, 1); /* DT_NEEDED */
		put_le(p, dyn + 16 * e++ + 8, 8, at);
		at += strlen(needed->v[i]) + 1;
	}
	if (runpath) {
		put_le(p, dyn + 16 * e, 8, 29); /* DT_RUNPATH */
		put_le(p, dyn + 16 * e++ + 8, 8,
		       strs.len - strlen(runpath) - 1);
	}
	put_le(p, dyn + 16 * e, 8, 5); /* DT_STRTAB */
	put_le(p, dyn + 16 * e++ + 8, 8, base + str);
	put_le(p, dyn + 16 * e, 8, 10); /* DT_STRSZ */
	put_le(p, dyn + 16 * e++ + 8, 8, strs.len);
	memcpy(p + str, strs.data, strs.len);
	fx_write_bytes(fx, rel, p, len);
	buf_release(&strs);
	free(p);
}

/*
 * A library asking for 4,000 names with 600 RUNPATH folders, only the
 * last of which exists and holds 10 of the names (the others relative
 * folders, which ld.so takes from the working folder): the 10 are found there,
 * the 3,990 others are not found, and each folder is listed once rather
 * than tried for each name (2.4 million stat calls: 44 s).
 */
static void test_loader_lists_each_folder_once(void **state)
{
	struct fixture *fx = *state;
	struct strv needed = STRV_INIT, none = STRV_INIT;
	struct buf runpath = BUF_INIT, name = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct loader_env env = {0};
	struct loader l;
	char *path;

	/* folders relative to the working one, the fixture's: a DT_RUNPATH
	 * is at most 4 KiB */
	if (chdir(fx->root))
		fail_msg("cannot enter %s", fx->root);
	for (unsigned i = 0; i < 599; i++)
		buf_printf(&runpath, "x%u:", i);
	buf_adds(&runpath, "$ORIGIN/lib");
	fx_mkdir(fx, "lib");
	for (unsigned i = 0; i < 4000; i++) {
		buf_reset(&name);
		buf_printf(&name, "libn%u.so", i);
		strv_push(&needed, name.data);
		if (i % 400)
			continue;
		buf_reset(&name);
		buf_printf(&name, "lib/libn%u.so", i);
		elf_at(fx, name.data, &none, NULL);
	}
	elf_at(fx, "prog.so", &needed, runpath.data);
	path = fx_path(fx, "prog.so");
	loader_init(&l, &env);
	if (loader_program(&l, path, &err))
		fail_msg("%s", err.msg.data);
	assert_int_equal(l.nobj, 11);
	assert_int_equal(l.nmiss, 3990);
	assert_string_equal(l.miss[0].name, "libn1.so");
	assert_int_equal(loader_find(&l, "libn3600.so")->source,
			 LOADER_RUNPATH);
	assert_null(loader_find(&l, "libn3601.so"));
	loader_release(&l);
	STRV_RELEASE_EACH(&needed, &none);
	BUF_RELEASE_EACH(&runpath, &name);
	err_release(&err);
	free(path);
}

/* $ORIGIN, ${ORIGIN}, $LIB, $PLATFORM; an unknown token drops the entry. */
static void test_loader_expand(void **state)
{
	struct loader_env env = {.platform = "x86_64",
				 .lib = "lib/x86_64-linux-gnu"};
	struct buf out = BUF_INIT;

	(void)state;
	assert_true(loader_expand(&env, "/v/nvidia/cusparse/lib",
				  "$ORIGIN:$ORIGIN/../../nvjitlink/lib", &out));
	assert_string_equal(out.data, "/v/nvidia/cusparse/lib:/v/nvidia/"
				      "cusparse/lib/../../nvjitlink/lib");
	assert_true(
	    loader_expand(&env, "/o", "${ORIGIN}/$LIB/$PLATFORM", &out));
	assert_string_equal(out.data, "/o/lib/x86_64-linux-gnu/x86_64");
	assert_false(loader_expand(&env, "/o", "$ORIGINAL/x", &out));
	assert_false(loader_expand(&env, "/o", "$FOO", &out));
	env.platform = NULL;
	assert_false(loader_expand(&env, "/o", "$PLATFORM", &out));
	buf_release(&out);
}

/*
 * What a real process mapped, adopted: the object keeps its path and
 * soname, its DT_NEEDED entries are not searched (the real loader did),
 * a later request for its soname is that object, and a file that is not
 * ELF (a locale archive) is no object and leaves no miss.
 */
static void test_loader_adopt_is_reused(void **state)
{
	struct fixture *fx = *state;
	struct loader l;
	struct loader_env env = {0};
	char *dep = fx_path(fx, "dep/libb.so.1"), *data = fx_path(fx, "data");
	char *user = fx_path(fx, "libuser.so");
	size_t idx, n;

	FX_NEED_CC();
	two_copies(fx);
	lib(fx, "libuser.so", "libuser.so",
	    "int b(void);\nint u(void) { return b(); }\n",
	    "-Ldep -l:libb.so.1");
	fx_write(fx, "data", "not an object\n");
	loader_init(&l, &env);
	/* libuser.so needs libb.so.1, found nowhere here: not searched */
	assert_true(loader_adopt(&l, user, true));
	assert_int_equal(l.nmiss, 0);
	assert_int_equal(l.program, 0);
	assert_false(loader_adopt(&l, data, false));
	assert_int_equal(l.nobj, 1);
	assert_int_equal(l.nmiss, 0);
	assert_true(loader_adopt(&l, dep, false));
	assert_int_equal(l.obj[1].source, LOADER_MAPPED);
	assert_string_equal(loader_source_name(LOADER_MAPPED), "mapped");
	n = l.nobj;
	/* asked for by soname later: the mapped object, nothing new */
	assert_int_equal(loader_dlopen(&l, 0, "libb.so.1", &idx), CUENV_OK);
	assert_int_equal(idx, 1);
	assert_int_equal(l.nobj, n);
	/* adopting the same file twice is one object */
	assert_true(loader_adopt(&l, dep, false));
	assert_int_equal(l.nobj, n);
	loader_release(&l);
	FREE_EACH(dep, data, user);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_loader_expand),
#define T(f) cmocka_unit_test_setup_teardown(f, setup, fx_teardown_chdir)
	    T(test_loader_runpath_after_library_path),
	    T(test_loader_rpath_before_library_path),
	    T(test_loader_rpath_of_the_loading_chain),
	    T(test_loader_dlopen_from_a_runpath_library),
	    T(test_loader_already_loaded_soname_wins),
	    T(test_loader_symbol_versions),
	    T(test_loader_runpath_hides_rpath_of_the_chain),
	    T(test_loader_verneed_against_no_verdef),
	    T(test_loader_skips_another_machine),
	    T(test_loader_not_elf_and_missing),
	    T(test_loader_adopt_is_reused),
#undef T
	    cmocka_unit_test_setup_teardown(test_loader_lists_each_folder_once,
					    fx_setup, fx_teardown_chdir),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
