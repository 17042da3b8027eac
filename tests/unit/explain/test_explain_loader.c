/*
 * explain's findings judged by the loader model (core/explain_loader):
 * libraries built with cc in a fixture, shaped like the index's wheels
 * (cuSPARSE with DT_RUNPATH $ORIGIN/../../nvjitlink/lib asking for
 * __nvJitLinkAddData_12_1@libnvJitLink.so.12, the wheel's nvJitLink that
 * defines it, an older copy that lacks it; torch's libtorch_cuda.so
 * needing libcudnn.so.9), and the real message read by explain_parse.
 * What the real loader does with such trees is test_loader's business;
 * here: which copy explain says is loaded, which copies it says would do,
 * and that each fix it prints makes the model pick one that does.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain/explain.h"
#include "explain/explain_loader.h"
#include "artifact/loader.h"
#include "store/store.h"
#include "base/xalloc.h"

#define SITE "venv/lib/python3.11/site-packages"
#define SP SITE "/nvidia/cusparse/lib/libcusparse.so.12"


/* nvJitLink with __nvJitLinkAddData_12_0 up to 12_minor, at rel. */
static void jitlink(const struct fixture *fx, const char *rel, int minor)
{
	fx_write(fx, "jit.map",
		 minor >= 1 ? "libnvJitLink.so.12 { global: "
			      "__nvJitLinkAddData_12_0; "
			      "__nvJitLinkAddData_12_1; local: *; };\n"
			    : "libnvJitLink.so.12 { global: "
			      "__nvJitLinkAddData_12_0; local: *; };\n");
	fx_cc_lib(fx, rel, "libnvJitLink.so.12",
		  minor >= 1
		      ? "int __nvJitLinkAddData_12_0(void) { return 0; }\n"
			"int __nvJitLinkAddData_12_1(void) { return 0; }\n"
		      : "int __nvJitLinkAddData_12_0(void) { return 0; }\n",
		  "-Wl,--version-script=jit.map");
}

/*
 * The venv's cuSPARSE and nvJitLink 12.9.86 (its RECORD), an older
 * nvJitLink 12.0.140 in old/ and in a toolkit's tk12.0/lib64, a complete
 * one in tk12.9/lib64; torch (libtorch_cuda.so needing libcudnn.so.9, no
 * RPATH to it) with a cuDNN 9.0.0 in dnn90/ and a 9.1.0 in dnn91/.
 */
static int setup(void **state)
{
	struct fixture *fx;
	int rc = fx_setup(state);

	if (rc)
		return rc;
	if (!fx_have_program("cc"))
		return 0;
	fx = *state;
	if (chdir(fx->root))
		return -1;
	fx_mkdir(fx, SITE "/nvidia/nvjitlink/lib");
	fx_mkdir(fx, SITE "/nvidia/cusparse/lib");
	fx_mkdir(fx, SITE "/torch/lib");
	fx_mkdir(fx, "old");
	fx_mkdir(fx, "tk12.0/lib64");
	fx_mkdir(fx, "tk12.9/lib64");
	fx_mkdir(fx, "dnn90");
	fx_mkdir(fx, "dnn91");
	jitlink(fx, SITE "/nvidia/nvjitlink/lib/libnvJitLink.so.12", 1);
	fx_write(fx, SITE "/nvidia_nvjitlink_cu12-12.9.86.dist-info/RECORD",
		 "nvidia/nvjitlink/lib/libnvJitLink.so.12,sha256=x,1\n");
	fx_cc_lib(fx, SP, "libcusparse.so.12",
		  "int __nvJitLinkAddData_12_1(void);\n"
		  "int sp(void) { return __nvJitLinkAddData_12_1(); }\n",
		  "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN:$ORIGIN/../../"
		  "nvjitlink/lib -L" SITE "/nvidia/nvjitlink/lib "
		  "-l:libnvJitLink.so.12");
	jitlink(fx, "old/libnvJitLink.so.12.0.140", 0);
	fx_symlink(fx, "libnvJitLink.so.12.0.140", "old/libnvJitLink.so.12");
	jitlink(fx, "tk12.0/lib64/libnvJitLink.so.12", 0);
	jitlink(fx, "tk12.9/lib64/libnvJitLink.so.12", 1);
	fx_cc_lib(fx, "dnn90/libcudnn.so.9.0.0", "libcudnn.so.9",
		  "int cudnnGetVersion(void) { return 90000; }\n", "");
	fx_symlink(fx, "libcudnn.so.9.0.0", "dnn90/libcudnn.so.9");
	fx_cc_lib(fx, "dnn91/libcudnn.so.9.1.0", "libcudnn.so.9",
		  "int cudnnGetVersion(void) { return 90100; }\n", "");
	fx_symlink(fx, "libcudnn.so.9.1.0", "dnn91/libcudnn.so.9");
	fx_cc_lib(fx, SITE "/torch/lib/libtorch_cuda.so", "libtorch_cuda.so",
		  "int tc(void) { return 0; }\n", "-Ldnn91 -l:libcudnn.so.9");
	fx_cc_lib(fx, SITE "/torch/lib/libtorch_global_deps.so",
		  "libtorch_global_deps.so", "int gd(void) { return 0; }\n",
		  "");
	fx_cc_lib(fx, SITE "/torch/_C.cpython-311-x86_64-linux-gnu.so", "_C.so",
		  "int c(void) { return 0; }\n",
		  "-Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/lib -L" SITE
		  "/torch/lib -l:libtorch_cuda.so -Ldnn91");
	return 0;
}

/* One explain of text, judged on the fixture's machine. */
struct run {
	struct explain ex;
	struct explain_fix fx;
	struct explain_model_in mi;
	struct strv defaults;
	struct needs_installed in;
	char *ld, *base;
};

/* A toolkit of the store: version at the fixture's folder rel. */
static void add_cuda(const struct fixture *fx, struct run *r,
		     const char *version, const char *rel)
{
	struct store_version *in = xcalloc(1, sizeof(*in));
	struct store_version_list *l = &r->in.cudas;

	store_version_init(in, KIT_CUDA);
	in->version = xstrdup(version);
	in->prefix = fx_path(fx, rel);
	in->dir = xstrdup(in->prefix);
	in->name = xstrdup(version);
	strv_push_take(&in->lib, fx_path(fx, "tk12.9/lib64"));
	if (strcmp(rel, "tk12.9")) {
		strv_release(&in->lib);
		strv_push_take(&in->lib, fx_path(fx, "tk12.0/lib64"));
	}
	l->v = xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
	l->v[l->n++] = in;
}

/* The fixture's folders a ':' list of rels names, absolute. */
static char *dirs(const struct fixture *fx, const char *rels)
{
	struct strv v = STRV_INIT;
	struct buf b = BUF_INIT;

	strv_split(&v, rels, ':');
	for (size_t i = 0; i < v.n; i++) {
		char *p = *v.v[i] ? fx_path(fx, v.v[i]) : xstrdup("");

		buf_printf(&b, "%s%s", i ? ":" : "", p);
		free(p);
	}
	strv_release(&v);
	return buf_detach(&b);
}

static void start(struct run *r)
{
	memset(r, 0, sizeof(*r));
	explain_init(&r->ex);
	explain_fix_init(&r->fx);
	needs_installed_init(&r->in);
	/* libc and friends: from the default folders */
	loader_defaults_guess("x86_64", &r->defaults);
	r->mi.defaults = &r->defaults;
	r->mi.platform = "x86_64";
	r->mi.lib = "lib/x86_64-linux-gnu";
	r->mi.in = &r->in;
	r->mi.select = "cuenv local";
}

static void finish(struct run *r, const char *text)
{
	explain_parse(&r->ex, text, strlen(text));
	r->mi.library_path = r->ld;
	r->mi.base_path = r->base;
	explain_model(&r->ex, &r->fx, &r->mi);
}

static void run_release(struct run *r)
{
	explain_release(&r->ex);
	explain_fix_release(&r->fx);
	needs_installed_release(&r->in);
	strv_release(&r->defaults);
	FREE_EACH(r->ld, r->base);
}

/* Python's ImportError for the fixture's cuSPARSE (at its full path). */
static char *symbol_error(const struct fixture *fx)
{
	struct buf b = BUF_INIT;
	char *sp = fx_path(fx, SP);

	buf_printf(&b,
		   "Traceback (most recent call last):\n"
		   "ImportError: %s: undefined symbol: "
		   "__nvJitLinkAddData_12_1, version libnvJitLink.so.12\n",
		   sp);
	free(sp);
	return buf_detach(&b);
}

static void assert_ends(const char *s, const char *end)
{
	size_t n = s ? strlen(s) : 0, e = strlen(end);

	if (!s || n < e || strcmp(s + n - e, end))
		fail_msg("'%s' does not end in '%s'", s ? s : "(null)", end);
}

/* The copy of r's one finding at path ending in end. */
static const struct explain_copy *copy(const struct run *r, const char *end)
{
	const struct explain_finding *f = &r->ex.v[0];

	for (size_t i = 0; i < f->ncopies; i++) {
		size_t n = strlen(f->copies[i].path), e = strlen(end);

		if (n >= e && !strcmp(f->copies[i].path + n - e, end))
			return &f->copies[i];
	}
	fail_msg("no copy at ...%s (%zu copies)", end, f->ncopies);
	return NULL;
}

static void test_explain_loader_older_copy_on_the_path(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *text;
	const struct explain_finding *f;

	FX_NEED_CC();
	start(&r);
	text = symbol_error(fx);
	r.ld = dirs(fx, "old");
	finish(&r, text);
	assert_int_equal(r.ex.n, 1);
	f = &r.ex.v[0];
	assert_int_equal(f->kind, EXPLAIN_SYMBOL);
	assert_true(f->modelled);
	assert_ends(f->model_file, "/old/libnvJitLink.so.12");
	assert_string_equal(f->model_from, "LD_LIBRARY_PATH");
	assert_string_equal(f->model_version, "12.0.140");
	assert_false(f->model_ok);
	assert_false(f->by_selection);
	/* the wheel's copy, on cuSPARSE's own RUNPATH, would do */
	assert_true(copy(&r, "nvjitlink/lib/libnvJitLink.so.12")->satisfies);
	assert_string_equal(
	    copy(&r, "nvjitlink/lib/libnvJitLink.so.12")->version, "12.9.86");
	assert_non_null(strstr(
	    copy(&r, "nvjitlink/lib/libnvJitLink.so.12")->where, "RUNPATH"));
	assert_false(copy(&r, "old/libnvJitLink.so.12")->satisfies);
	/* nothing else on the path: unset it */
	assert_int_equal(r.fx.lines.n, 1);
	assert_string_equal(r.fx.lines.v[0], "unset LD_LIBRARY_PATH");
	run_release(&r);
	free(text);
}

static void test_explain_loader_keeps_other_folders(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *text, *want;
	struct buf b = BUF_INIT;

	FX_NEED_CC();
	start(&r);
	text = symbol_error(fx);
	r.ld = dirs(fx, "dnn91:old");
	finish(&r, text);
	want = fx_path(fx, "dnn91");
	buf_printf(&b, "export LD_LIBRARY_PATH=%s", want);
	assert_int_equal(r.fx.lines.n, 1);
	assert_string_equal(r.fx.lines.v[0], b.data);
	run_release(&r);
	buf_release(&b);
	FREE_EACH(text, want);
}

static void test_explain_loader_selection_shadows_the_venv(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *text;

	FX_NEED_CC();
	start(&r);
	text = symbol_error(fx);
	/* the hook put the selection's folder before the user's own */
	r.ld = dirs(fx, "tk12.0/lib64:dnn91");
	r.base = dirs(fx, "dnn91");
	r.mi.drop = "cuenv local system";
	add_cuda(fx, &r, "12.0.1", "tk12.0");
	add_cuda(fx, &r, "12.9.1", "tk12.9");
	finish(&r, text);
	assert_ends(r.ex.v[0].model_file, "/tk12.0/lib64/libnvJitLink.so.12");
	assert_true(r.ex.v[0].by_selection);
	assert_false(copy(&r, "tk12.0/lib64/libnvJitLink.so.12")->satisfies);
	assert_true(copy(&r, "tk12.9/lib64/libnvJitLink.so.12")->satisfies);
	/* off, or the version whose copy defines it; never the user's own
	 * folder, which is not at fault */
	assert_int_equal(r.fx.lines.n, 2);
	assert_string_equal(r.fx.lines.v[0], "cuenv local system");
	assert_string_equal(r.fx.lines.v[1], "cuenv local 12.9.1");
	run_release(&r);
	free(text);
}

static void test_explain_loader_fix_only_when_it_works(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *text;

	FX_NEED_CC();
	start(&r);
	text = symbol_error(fx);
	/* the base also holds an older copy: turning the selection off
	 * leaves it first, so that is no fix */
	r.ld = dirs(fx, "tk12.0/lib64:old");
	r.base = dirs(fx, "old");
	r.mi.drop = "cuenv local system";
	finish(&r, text);
	assert_true(r.ex.v[0].by_selection);
	assert_int_equal(r.fx.lines.n, 0);
	run_release(&r);
	free(text);
}

static void test_explain_loader_satisfied_here(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *text;

	FX_NEED_CC();
	start(&r);
	text = symbol_error(fx);
	finish(&r, text);
	assert_true(r.ex.v[0].modelled);
	assert_true(r.ex.v[0].model_ok);
	assert_string_equal(r.ex.v[0].model_from, "RUNPATH");
	assert_int_equal(r.fx.lines.n, 0);
	run_release(&r);
	free(text);
}

static void test_explain_loader_log_from_elsewhere(void **state)
{
	static const char text[] =
	    "ImportError: /nowhere/venv/lib/python3.10/site-packages/"
	    "nvidia/cusparse/lib/libcusparse.so.12: undefined symbol: "
	    "__nvJitLinkAddData_12_1, version libnvJitLink.so.12";
	struct run r;

	(void)state;
	start(&r);
	r.ld = xstrdup("/nowhere/lib");
	finish(&r, text);
	assert_int_equal(r.ex.n, 1);
	assert_false(r.ex.v[0].modelled);
	assert_non_null(r.ex.v[0].absent);
	assert_non_null(strstr(r.ex.v[0].absent, "not on this machine"));
	assert_int_equal(r.fx.lines.n, 0);
	run_release(&r);
}

/* PyTorch's own text, with a traceback naming the site-packages. */
static char *mismatch_error(const struct fixture *fx)
{
	struct buf b = BUF_INIT;
	char *site = fx_path(fx, SITE);

	buf_printf(&b,
		   "  File \"%s/torch/backends/cudnn/__init__.py\", line 99\n"
		   "RuntimeError: cuDNN version incompatibility: PyTorch was "
		   "compiled  against (9, 1, 0) but found runtime version "
		   "(9, 0, 0).\n",
		   site);
	free(site);
	return buf_detach(&b);
}

static void test_explain_loader_cudnn_mismatch_names_the_copy(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *text;
	const struct explain_finding *f;

	FX_NEED_CC();
	start(&r);
	text = mismatch_error(fx);
	r.ld = dirs(fx, "dnn90:dnn91");
	r.base = dirs(fx, "dnn91");
	r.mi.drop = "cuenv use system";
	finish(&r, text);
	assert_int_equal(r.ex.n, 1);
	f = &r.ex.v[0];
	assert_int_equal(f->kind, EXPLAIN_CUDNN_MISMATCH);
	assert_true(f->modelled);
	assert_ends(f->site, SITE);
	assert_ends(f->model_file, "/dnn90/libcudnn.so.9");
	assert_string_equal(f->model_from, "LD_LIBRARY_PATH");
	assert_string_equal(f->model_version, "9.0.0");
	assert_false(f->model_ok);
	assert_true(copy(&r, "dnn91/libcudnn.so.9")->satisfies);
	assert_false(copy(&r, "dnn90/libcudnn.so.9")->satisfies);
	assert_true(r.fx.lines.n >= 1);
	assert_string_equal(r.fx.lines.v[0], "cuenv use system");
	run_release(&r);
	free(text);
}

/*
 * cuDNN's sub-libraries first on LD_LIBRARY_PATH, its front library of
 * the right version (issue 31 item 5): the front library satisfies the
 * message's version, but what it dlopens comes from another folder: a
 * mixed cuDNN, the cause here, not "another environment".
 */
static void test_explain_loader_cudnn_mixed_is_the_cause(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	char *text;
	const struct explain_finding *f;

	FX_NEED_CC();
	fx_mkdir(fx, "dnnmix");
	fx_mkdir(fx, "subs");
	fx_cc_lib(fx, "dnnmix/libcudnn.so.9.1.0", "libcudnn.so.9",
		  "int cudnnGetVersion(void) { return 90100; }\n",
		  "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN");
	fx_symlink(fx, "libcudnn.so.9.1.0", "dnnmix/libcudnn.so.9");
	fx_cc_lib(fx, "dnnmix/libcudnn_graph.so.9", "libcudnn_graph.so.9",
		  "int g(void) { return 0; }\n", "");
	fx_cc_lib(fx, "subs/libcudnn_graph.so.9", "libcudnn_graph.so.9",
		  "int g(void) { return 0; }\n", "");
	start(&r);
	text = mismatch_error(fx);
	r.ld = dirs(fx, "subs:dnnmix");
	finish(&r, text);
	f = &r.ex.v[0];
	assert_true(f->modelled);
	assert_ends(f->model_file, "/dnnmix/libcudnn.so.9");
	assert_non_null(f->model_mixed);
	assert_non_null(strstr(f->model_mixed, "/subs/libcudnn_graph.so.9"));
	assert_false(f->model_ok);
	run_release(&r);
	free(text);
	/* the sub-library beside its front library: no mix */
	start(&r);
	text = mismatch_error(fx);
	r.ld = dirs(fx, "dnnmix");
	finish(&r, text);
	assert_null(r.ex.v[0].model_mixed);
	run_release(&r);
	free(text);
}

static void test_explain_loader_cudnn_mismatch_without_torch(void **state)
{
	static const char text[] =
	    "RuntimeError: cuDNN version incompatibility: PyTorch was "
	    "compiled  against (9, 1, 0) but found runtime version "
	    "(9, 0, 0).";
	struct run r;

	(void)state;
	start(&r);
	finish(&r, text);
	assert_false(r.ex.v[0].modelled);
	assert_non_null(strstr(r.ex.v[0].absent, "no site-packages"));
	run_release(&r);
}

/* cuDNN 8.5.0 in dnn85/, 8.6.0 in dnn86/ (their files' names say). */
static void cudnn8(const struct fixture *fx)
{
	fx_mkdir(fx, "dnn85");
	fx_mkdir(fx, "dnn86");
	fx_cc_lib(fx, "dnn85/libcudnn.so.8.5.0", "libcudnn.so.8",
		  "int cudnnGetVersion(void) { return 8500; }\n", "");
	fx_symlink(fx, "libcudnn.so.8.5.0", "dnn85/libcudnn.so.8");
	fx_cc_lib(fx, "dnn86/libcudnn.so.8.6.0", "libcudnn.so.8",
		  "int cudnnGetVersion(void) { return 8600; }\n", "");
	fx_symlink(fx, "libcudnn.so.8.6.0", "dnn86/libcudnn.so.8");
}

/*
 * TensorFlow 2.12 from the index without its cuDNN wheel: its framework
 * library's RUNPATH names only nvidia/cuda_runtime/lib, its DSO loader
 * dlopens libcudnn.so.8 when it computes. LD_LIBRARY_PATH has cuDNN 8.5
 * before 8.6: the model names 8.5 as the copy TensorFlow loads, 8.6 as
 * one that does, and the fix is LD_LIBRARY_PATH without 8.5's folder.
 */
static void test_explain_loader_tensorflow_mismatch(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	struct buf text = BUF_INIT;
	char *site, *dnn86;
	const struct explain_finding *f;

	FX_NEED_CC();
	cudnn8(fx);
	fx_mkdir(fx, SITE "/tensorflow/python");
	fx_cc_lib(fx, SITE "/tensorflow/libtensorflow_framework.so.2",
		  "libtensorflow_framework.so.2",
		  "int tf(void) { return 0; }\n",
		  "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/../nvidia/"
		  "cuda_runtime/lib");
	fx_cc_lib(fx, SITE "/tensorflow/python/_pywrap_tensorflow_internal.so",
		  "_pywrap_tensorflow_internal.so",
		  "int tf(void);\nint pw(void) { return tf(); }\n",
		  "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/.. -L" SITE
		  "/tensorflow -l:libtensorflow_framework.so.2");
	site = fx_path(fx, SITE);
	buf_printf(&text,
		   "  File \"%s/tensorflow/python/eager/execute.py\", line "
		   "52, in quick_execute\n"
		   "2023-06-20 10:11:12.123456: E tensorflow/compiler/xla/"
		   "stream_executor/cuda/cuda_dnn.cc:439] Loaded runtime "
		   "CuDNN library: 8.5.0 but source was compiled with: "
		   "8.6.0.  CuDNN library needs to have matching major "
		   "version and equal or higher minor version.\n",
		   site);
	start(&r);
	r.ld = dirs(fx, "dnn85:dnn86");
	finish(&r, text.data);
	assert_int_equal(r.ex.n, 1);
	f = &r.ex.v[0];
	assert_int_equal(f->kind, EXPLAIN_CUDNN_MISMATCH);
	assert_string_equal(f->framework, "tensorflow");
	assert_true(f->modelled);
	assert_ends(f->model_file, "/dnn85/libcudnn.so.8");
	assert_string_equal(f->model_from, "LD_LIBRARY_PATH");
	assert_string_equal(f->model_version, "8.5.0");
	assert_false(f->model_ok);
	assert_true(copy(&r, "dnn86/libcudnn.so.8")->satisfies);
	assert_false(copy(&r, "dnn85/libcudnn.so.8")->satisfies);
	dnn86 = fx_path(fx, "dnn86");
	assert_int_equal(r.fx.lines.n, 1);
	assert_true(!strncmp(r.fx.lines.v[0], "export LD_LIBRARY_PATH=", 23));
	assert_string_equal(r.fx.lines.v[0] + 23, dnn86);
	run_release(&r);
	FREE_EACH(site, dnn86);
	buf_release(&text);
}

/*
 * JAX's CUDA plugin under a selection whose cuDNN (8.5) is older than
 * the one it was built with (8.6), nothing else on the loader's path:
 * turning the selection off leaves no cuDNN at all, so that is not
 * printed; selecting the installed cuDNN 8.6 with the CUDA 12 it was
 * built for is, with the CUDA the selection has.
 */
static void test_explain_loader_jax_mismatch_selects_cudnn(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	struct buf text = BUF_INIT;
	struct store_version *dn;
	char *site;
	const struct explain_finding *f;

	FX_NEED_CC();
	cudnn8(fx);
	fx_mkdir(fx, SITE "/jax_plugins/xla_cuda12");
	fx_cc_lib(fx, SITE "/jax_plugins/xla_cuda12/xla_cuda_plugin.so",
		  "xla_cuda_plugin.so", "int pj(void) { return 0; }\n", "");
	site = fx_path(fx, SITE);
	buf_printf(&text,
		   "  File \"%s/jax/_src/xla_bridge.py\", line 9\n"
		   "2023-05-17 16:12:37.123456: E external/xla/xla/"
		   "stream_executor/cuda/cuda_dnn.cc:427] Loaded runtime "
		   "CuDNN library: 8.5.0 but source was compiled with: "
		   "8.6.0.\n",
		   site);
	start(&r);
	add_cuda(fx, &r, "12.9.1", "tk12.9");
	r.in.cudas.v[0]->cuda_major = 12;
	dn = xcalloc(1, sizeof(*dn));
	store_version_init(dn, KIT_CUDNN);
	dn->version = xstrdup("8.6.0.163");
	dn->cuda_major = 12;
	dn->prefix = fx_path(fx, "dnn86");
	dn->dir = xstrdup(dn->prefix);
	dn->name = xstrdup("8.6.0.163-cuda12");
	strv_push_take(&dn->lib, fx_path(fx, "dnn86"));
	r.in.cudnns.v = xrealloc(r.in.cudnns.v, sizeof(*r.in.cudnns.v));
	r.in.cudnns.v[r.in.cudnns.n++] = dn;
	r.ld = dirs(fx, "dnn85");
	r.base = xstrdup("");
	r.mi.drop = "cuenv local system";
	r.mi.cuda = "12.9.1";
	finish(&r, text.data);
	assert_int_equal(r.ex.n, 1);
	f = &r.ex.v[0];
	assert_string_equal(f->framework, "jax");
	assert_true(f->modelled);
	assert_ends(f->model_file, "/dnn85/libcudnn.so.8");
	assert_false(f->model_ok);
	assert_int_equal(r.fx.lines.n, 1);
	assert_string_equal(r.fx.lines.v[0],
			    "cuenv local 12.9.1 --cudnn 8.6.0.163");
	run_release(&r);
	free(site);
	buf_release(&text);
}

/* A TensorFlow mismatch with no TensorFlow in the site-packages named:
 * read from the text only, no fix from the model. */
static void test_explain_loader_mismatch_framework_absent(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	struct buf text = BUF_INIT;
	char *site;

	FX_NEED_CC();
	site = fx_path(fx, SITE);
	buf_printf(&text,
		   "  File \"%s/keras/src/x.py\", line 1\n"
		   "E tensorflow/stream_executor/cuda/cuda_dnn.cc:362] "
		   "Loaded runtime CuDNN library: 8.0.4 but source was "
		   "compiled with: 8.1.0.\n",
		   site);
	start(&r);
	finish(&r, text.data);
	assert_false(r.ex.v[0].modelled);
	assert_non_null(strstr(r.ex.v[0].absent, "no tensorflow built"));
	assert_int_equal(r.fx.lines.n, 0);
	run_release(&r);
	free(site);
	buf_release(&text);
}

/*
 * ld.so's "LIB: version `libnvJitLink.so.12.4' not found (required by
 * PATH)": v4/sp's cuSPARSE asks nvJitLink for the node 12.4, which its
 * own v4/jit copy (its RUNPATH) defines and old/'s, first on
 * LD_LIBRARY_PATH, lacks. The model names old/'s copy as the one loaded,
 * not satisfying, the RUNPATH copy as one that does, and the fix.
 */
static void test_explain_loader_version_not_found(void **state)
{
	struct fixture *fx = *state;
	struct run r;
	struct buf text = BUF_INIT;
	char *sp, *old;
	const struct explain_finding *f;

	FX_NEED_CC();
	fx_mkdir(fx, "v4/jit");
	fx_mkdir(fx, "v4/sp");
	fx_write(
	    fx, "jit4.map",
	    "libnvJitLink.so.12 { global: j120; };\n"
	    "libnvJitLink.so.12.4 { global: j124; } libnvJitLink.so.12;\n");
	fx_cc_lib(fx, "v4/jit/libnvJitLink.so.12", "libnvJitLink.so.12",
		  "int j120(void) { return 0; }\n"
		  "int j124(void) { return 0; }\n",
		  "-Wl,--version-script=jit4.map");
	fx_cc_lib(fx, "v4/sp/libcusparse.so.12", "libcusparse.so.12",
		  "int j124(void);\nint sp(void) { return j124(); }\n",
		  "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/../jit -Lv4/jit "
		  "-l:libnvJitLink.so.12");
	sp = fx_path(fx, "v4/sp/libcusparse.so.12");
	old = fx_path(fx, "old/libnvJitLink.so.12");
	buf_printf(&text,
		   "ImportError: %s: version `libnvJitLink.so.12.4' not "
		   "found (required by %s)\n",
		   old, sp);
	start(&r);
	r.ld = dirs(fx, "old");
	finish(&r, text.data);
	assert_int_equal(r.ex.n, 1);
	f = &r.ex.v[0];
	assert_int_equal(f->kind, EXPLAIN_SYMBOL);
	assert_null(f->symbol);
	assert_string_equal(f->soname, "libnvJitLink.so.12");
	assert_string_equal(f->symver, "libnvJitLink.so.12.4");
	assert_string_equal(f->built, "12.4");
	assert_true(f->modelled);
	assert_ends(f->model_file, "/old/libnvJitLink.so.12");
	assert_string_equal(f->model_from, "LD_LIBRARY_PATH");
	assert_false(f->model_ok);
	assert_true(copy(&r, "/jit/libnvJitLink.so.12")->satisfies);
	assert_false(copy(&r, "old/libnvJitLink.so.12")->satisfies);
	assert_int_equal(r.fx.lines.n, 1);
	assert_string_equal(r.fx.lines.v[0], "unset LD_LIBRARY_PATH");
	run_release(&r);
	FREE_EACH(sp, old);
	buf_release(&text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(
		test_explain_loader_older_copy_on_the_path, setup,
		fx_teardown_chdir),
	    cmocka_unit_test_setup_teardown(
		test_explain_loader_keeps_other_folders, setup,
		fx_teardown_chdir),
	    cmocka_unit_test_setup_teardown(
		test_explain_loader_selection_shadows_the_venv, setup,
		fx_teardown_chdir),
	    cmocka_unit_test_setup_teardown(
		test_explain_loader_fix_only_when_it_works, setup,
		fx_teardown_chdir),
	    cmocka_unit_test_setup_teardown(test_explain_loader_satisfied_here,
					    setup, fx_teardown_chdir),
	    cmocka_unit_test(test_explain_loader_log_from_elsewhere),
	    cmocka_unit_test_setup_teardown(
		test_explain_loader_cudnn_mismatch_names_the_copy, setup,
		fx_teardown_chdir),
	    cmocka_unit_test_setup_teardown(
		test_explain_loader_cudnn_mixed_is_the_cause, setup,
		fx_teardown_chdir),
	    cmocka_unit_test(test_explain_loader_cudnn_mismatch_without_torch),
	    cmocka_unit_test_setup_teardown(
		test_explain_loader_tensorflow_mismatch, setup,
		fx_teardown_chdir),
	    cmocka_unit_test_setup_teardown(
		test_explain_loader_jax_mismatch_selects_cudnn, setup,
		fx_teardown_chdir),
	    cmocka_unit_test_setup_teardown(
		test_explain_loader_mismatch_framework_absent, setup,
		fx_teardown_chdir),
	    cmocka_unit_test_setup_teardown(
		test_explain_loader_version_not_found, setup,
		fx_teardown_chdir),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
