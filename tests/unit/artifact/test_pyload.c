/*
 * What a Python environment's frameworks load (core/pyload): a small
 * torch built with cc in a fixture site-packages, shaped like the index's
 * (torch's own libraries with DT_RPATH into nvidia/NAME/lib, the wheels'
 * libraries with DT_RUNPATH $ORIGIN, cuSPARSE needing a versioned symbol
 * of nvJitLink, cuDNN's front library whose graph library is dlopen'd),
 * predicted under several LD_LIBRARY_PATHs and judged. That the real
 * loader agrees with such predictions is test_loader's and `make
 * loader-matrix`'s (real torch) business; here: what the judge makes of
 * them, and the loader's default folders.
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "artifact/loader.h"
#include "artifact/pyload.h"

#define SITE "venv/lib/python3.11/site-packages"


/* nvJitLink with the symbols up to 12.minor, at rel. */
static void jitlink(const struct fixture *fx, const char *rel, int minor)
{
	fx_write(fx, "jit.map",
		 minor >= 1 ? "libnvJitLink.so.12 { global: jit_12_0; "
			      "jit_12_1; local: *; };\n"
			    : "libnvJitLink.so.12 { global: jit_12_0; "
			      "local: *; };\n");
	fx_cc_lib(fx, rel, "libnvJitLink.so.12",
		  minor >= 1 ? "int jit_12_0(void) { return 0; }\n"
			       "int jit_12_1(void) { return 0; }\n"
			     : "int jit_12_0(void) { return 0; }\n",
		  "-Wl,--version-script=jit.map");
}

/* A wheel's dist-info whose RECORD lists rel (under site). */
static void wheel(const struct fixture *fx, const char *site, const char *dist,
		  const char *rel)
{
	struct buf p = BUF_INIT, t = BUF_INIT;

	buf_printf(&p, "%s/%s.dist-info/RECORD", site, dist);
	buf_printf(&t, "%s,sha256=x,1\n", rel);
	fx_write(fx, p.data, t.data);
	BUF_RELEASE_EACH(&p, &t);
}

/*
 * The fixture's torch: _C -> libtorch_cuda.so (RPATH into the wheels)
 * -> libcusparse.so.12 (RUNPATH $ORIGIN/../../nvjitlink/lib, needs
 * jit_12_1@libnvJitLink.so.12) and libcudnn.so.9 (RUNPATH $ORIGIN).
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
	fx_mkdir(fx, SITE "/nvidia/cudnn/lib");
	fx_mkdir(fx, SITE "/torch/lib");
	fx_touch(fx, "venv/pyvenv.cfg");
	jitlink(fx, SITE "/nvidia/nvjitlink/lib/libnvJitLink.so.12", 1);
	wheel(fx, SITE, "nvidia_nvjitlink_cu12-12.9.86",
	      "nvidia/nvjitlink/lib/libnvJitLink.so.12");
	fx_cc_lib(fx, SITE "/nvidia/cusparse/lib/libcusparse.so.12",
		  "libcusparse.so.12",
		  "int jit_12_1(void);\nint sp(void) { return jit_12_1(); }\n",
		  "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN:$ORIGIN/../../"
		  "nvjitlink/lib -L" SITE "/nvidia/nvjitlink/lib "
		  "-l:libnvJitLink.so.12");
	wheel(fx, SITE, "nvidia_cusparse_cu12-12.1.0.106",
	      "nvidia/cusparse/lib/libcusparse.so.12");
	fx_cc_lib(fx, SITE "/nvidia/cudnn/lib/libcudnn.so.9", "libcudnn.so.9",
		  "int cudnnGetVersion(void) { return 90100; }\n",
		  "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN");
	fx_cc_lib(fx, SITE "/nvidia/cudnn/lib/libcudnn_graph.so.9",
		  "libcudnn_graph.so.9", "int g(void) { return 0; }\n", "");
	fx_cc_lib(fx, SITE "/nvidia/cudnn/lib/libcudnn_ops.so.9",
		  "libcudnn_ops.so.9", "int o(void) { return 0; }\n", "");
	wheel(fx, SITE, "nvidia_cudnn_cu12-9.1.0.70",
	      "nvidia/cudnn/lib/libcudnn.so.9");
	fx_cc_lib(fx, SITE "/torch/lib/libtorch_cuda.so", "libtorch_cuda.so",
		  "int tc(void) { return 0; }\n",
		  "-Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/../../nvidia/"
		  "cusparse/lib:$ORIGIN/../../nvidia/cudnn/lib -L" SITE
		  "/nvidia/cusparse/lib -L" SITE "/nvidia/cudnn/lib "
		  "-l:libcusparse.so.12 -l:libcudnn.so.9 -Wl,-rpath-link," SITE
		  "/nvidia/nvjitlink/lib");
	fx_cc_lib(fx, SITE "/torch/lib/libtorch_global_deps.so",
		  "libtorch_global_deps.so", "int gd(void) { return 0; }\n",
		  "");
	fx_cc_lib(fx, SITE "/torch/_C.cpython-311-x86_64-linux-gnu.so", "_C.so",
		  "int c(void) { return 0; }\n",
		  "-Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/lib -L" SITE
		  "/torch/lib -l:libtorch_cuda.so -Wl,-rpath-link," SITE
		  "/nvidia/nvjitlink/lib");
	return 0;
}

/* A prediction of the fixture's torch and its verdict. */
struct judged {
	struct pyload_fws fws;
	struct loader l;
	struct pyload_span span;
	struct pyload_issues is;
	struct strv defaults;
};

/* The frameworks of site-packages site (under the fixture), the first
 * predicted with LD_LIBRARY_PATH ld and judged; none found: nothing. */
static void judge_site(const struct fixture *fx, const char *site,
		       const char *ld, struct judged *j)
{
	struct strv sites = STRV_INIT;
	struct loader_env env = {.library_path = ld};

	memset(j, 0, sizeof(*j));
	/* libc and friends: from the default folders */
	loader_defaults_guess("x86_64", &j->defaults);
	env.defaults = &j->defaults;
	strv_push_take(&sites, fx_path(fx, site));
	pyload_find(&sites, &j->fws);
	if (j->fws.n) {
		loader_init(&j->l, &env);
		pyload_predict(&j->l, NULL, &j->fws.v[0], true, &j->span);
		pyload_judge(&j->l, &j->span, &j->fws.v[0], &j->is);
	}
	strv_release(&sites);
}

static void judge(const struct fixture *fx, const char *ld, struct judged *j)
{
	judge_site(fx, SITE, ld, j);
	assert_int_equal(j->fws.n, 1);
}

static void judged_release(struct judged *j)
{
	pyload_issues_release(&j->is);
	loader_release(&j->l);
	pyload_fws_release(&j->fws);
	strv_release(&j->defaults);
}

/* The object loaded as name is the fixture's file rel. */
static void assert_loaded(const struct fixture *fx, const struct judged *j,
			  const char *name, const char *rel)
{
	const struct loader_obj *o = loader_find(&j->l, name);
	char *want = fx_path(fx, rel), *rw = realpath(want, NULL),
	     *got = o ? realpath(o->path, NULL) : NULL;

	if (!got || !rw || strcmp(got, rw))
		fail_msg("%s: loaded %s, expected %s", name,
			 got ? got : "nothing", rel);
	FREE_EACH(want, rw, got);
}

static const struct pyload_issue *issue(const struct judged *j,
					enum pyload_kind kind, const char *name)
{
	for (size_t i = 0; i < j->is.n; i++)
		if (j->is.v[i].kind == kind && !strcmp(j->is.v[i].name, name))
			return &j->is.v[i];
	fail_msg("no issue of kind %d for %s (%zu issues)", (int)kind, name,
		 j->is.n);
	return NULL;
}

static void test_pyload_finds_torch_entries_in_import_order(void **state)
{
	struct fixture *fx = *state;
	struct judged j;

	FX_NEED_CC();
	judge(fx, NULL, &j);
	assert_string_equal(j.fws.v[0].name, "torch");
	assert_int_equal(j.fws.v[0].entries.n, 2);
	assert_non_null(
	    strstr(j.fws.v[0].entries.v[0], "libtorch_global_deps.so"));
	assert_non_null(strstr(j.fws.v[0].entries.v[1], "/torch/_C."));
	judged_release(&j);
}

/* torch 2.0's libtorch_cuda dlopens libnvfuser_codegen.so at import */
static void test_pyload_torch_nvfuser_codegen_is_loaded_last(void **state)
{
	struct fixture *fx = *state;
	struct judged j;

	FX_NEED_CC();
	fx_cc_lib(fx, SITE "/torch/lib/libnvfuser_codegen.so",
		  "libnvfuser_codegen.so", "int nf(void) { return 0; }\n",
		  "-Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/../../nvidia/"
		  "cusparse/lib -L" SITE "/nvidia/cusparse/lib "
		  "-l:libcusparse.so.12 -Wl,-rpath-link," SITE
		  "/nvidia/nvjitlink/lib");
	judge(fx, NULL, &j);
	assert_int_equal(j.fws.v[0].entries.n, 3);
	assert_non_null(strstr(j.fws.v[0].entries.v[2],
			       "/torch/lib/libnvfuser_codegen.so"));
	assert_loaded(fx, &j, "libnvfuser_codegen.so",
		      SITE "/torch/lib/libnvfuser_codegen.so");
	judged_release(&j);
}

static void test_pyload_a_whole_environment_has_no_issue(void **state)
{
	struct fixture *fx = *state;
	struct judged j;

	FX_NEED_CC();
	judge(fx, NULL, &j);
	assert_loaded(fx, &j, "libnvJitLink.so.12",
		      SITE "/nvidia/nvjitlink/lib/libnvJitLink.so.12");
	/* dlopen'd by the front library at its first call: at import */
	assert_loaded(fx, &j, "libcudnn_graph.so.9",
		      SITE "/nvidia/cudnn/lib/libcudnn_graph.so.9");
	assert_true(loader_find(&j.l, "libcudnn_graph.so.9") - j.l.obj <
		    (long)j.span.on_use);
	/* the .9.1.0 and .9.1 names tried first leave no miss */
	assert_int_equal(j.l.nmiss, 0);
	assert_int_equal(j.is.n, 0);
	judged_release(&j);
}

/* issue 21 item 1: LD_LIBRARY_PATH comes before the wheels' RUNPATH */
static void test_pyload_older_nvjitlink_on_the_path_breaks(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	const struct pyload_issue *is;
	char *old = fx_path(fx, "old");

	FX_NEED_CC();
	fx_mkdir(fx, "old");
	jitlink(fx, "old/libnvJitLink.so.12.0.140", 0);
	fx_symlink(fx, "libnvJitLink.so.12.0.140", "old/libnvJitLink.so.12");
	judge(fx, old, &j);
	assert_loaded(fx, &j, "libnvJitLink.so.12",
		      "old/libnvJitLink.so.12.0.140");
	is = issue(&j, PYLOAD_SYMBOL, "libnvJitLink.so.12");
	assert_non_null(strstr(is->detail, "undefined symbol: jit_12_1, "
					   "version libnvJitLink.so.12"));
	assert_string_equal(is->source, "LD_LIBRARY_PATH");
	is = issue(&j, PYLOAD_OLDER, "libnvJitLink.so.12");
	assert_non_null(strstr(is->detail, "12.0.140 is older than the "
					   "wheel's 12.9.86"));
	assert_non_null(strstr(is->want, "nvidia/nvjitlink/lib"));
	judged_release(&j);
	free(old);
}

/* a copy from elsewhere that is newer and complete: no issue */
static void test_pyload_newer_copy_on_the_path_is_no_issue(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	char *dir = fx_path(fx, "newer");

	FX_NEED_CC();
	fx_mkdir(fx, "newer");
	jitlink(fx, "newer/libnvJitLink.so.12.9.90", 1);
	fx_symlink(fx, "libnvJitLink.so.12.9.90", "newer/libnvJitLink.so.12");
	judge(fx, dir, &j);
	assert_loaded(fx, &j, "libnvJitLink.so.12",
		      "newer/libnvJitLink.so.12.9.90");
	assert_int_equal(j.is.n, 0);
	judged_release(&j);
	free(dir);
}

/* torch's own DT_RPATH comes before LD_LIBRARY_PATH: no harm there */
static void test_pyload_rpath_keeps_torch_own_libraries(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	char *dir = fx_path(fx, "other");

	FX_NEED_CC();
	fx_mkdir(fx, "other");
	fx_cc_lib(fx, "other/libcusparse.so.12", "libcusparse.so.12",
		  "int sp(void) { return 0; }\n", "");
	fx_cc_lib(fx, "other/libcudnn.so.9", "libcudnn.so.9",
		  "int cudnnGetVersion(void) { return 90000; }\n", "");
	judge(fx, dir, &j);
	assert_loaded(fx, &j, "libcusparse.so.12",
		      SITE "/nvidia/cusparse/lib/libcusparse.so.12");
	assert_loaded(fx, &j, "libcudnn.so.9",
		      SITE "/nvidia/cudnn/lib/libcudnn.so.9");
	assert_int_equal(j.is.n, 0);
	judged_release(&j);
	free(dir);
}

/* issue 21 items 2 and 4: cuDNN's sub-libraries from LD_LIBRARY_PATH */
static void test_pyload_cudnn_sub_library_from_elsewhere_is_mixed(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	const struct pyload_issue *is;
	char *dir = fx_path(fx, "c13");

	FX_NEED_CC();
	fx_mkdir(fx, "c13");
	fx_cc_lib(fx, "c13/libcudnn_graph.so.9", "libcudnn_graph.so.9",
		  "int g(void) { return 0; }\n", "");
	judge(fx, dir, &j);
	assert_loaded(fx, &j, "libcudnn_graph.so.9", "c13/libcudnn_graph.so.9");
	is = issue(&j, PYLOAD_MIXED, "libcudnn_graph.so.9");
	assert_non_null(strstr(is->want, "nvidia/cudnn/lib"));
	/* ops is the wheel's own still: the same front, no issue for it */
	assert_loaded(fx, &j, "libcudnn_ops.so.9",
		      SITE "/nvidia/cudnn/lib/libcudnn_ops.so.9");
	assert_int_equal(j.is.n, 1);
	judged_release(&j);
	free(dir);
}

/* the front library asks for its exact version first: .9.1.0 */
static void test_pyload_cudnn_exact_version_name_first(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	char *dir = fx_path(fx, "exact");

	FX_NEED_CC();
	fx_mkdir(fx, "exact");
	fx_cc_lib(fx, "exact/libcudnn_graph.so.9.1.0", "libcudnn_graph.so.9",
		  "int g(void) { return 0; }\n", "");
	judge(fx, dir, &j);
	assert_loaded(fx, &j, "libcudnn_graph.so.9.1.0",
		      "exact/libcudnn_graph.so.9.1.0");
	assert_int_equal(j.l.nmiss, 0);
	judged_release(&j);
	free(dir);
}

static void test_pyload_a_missing_library_is_an_issue(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	char *p = fx_path(fx, SITE "/nvidia/nvjitlink/lib/libnvJitLink.so.12");

	FX_NEED_CC();
	unlink(p);
	judge(fx, NULL, &j);
	issue(&j, PYLOAD_MISSING, "libnvJitLink.so.12");
	judged_release(&j);
	free(p);
}

/* The defaults ld.so names, in its order; the guess agrees here. */
/* ---- any framework, CUDA majors, wheel pins ----------------------------- */

#define GSITE "g/lib/python3.11/site-packages"

/*
 * A package no table knows (onnxruntime's shape): g/.../ortlike with an
 * __init__.py and capi/libprov.so needing libcudart.so.12 and
 * libcusparse.so.12 by DT_NEEDED, found on LD_LIBRARY_PATH. c12 holds a
 * CUDA 12 runtime and cuSPARSE; c13 a cuSPARSE beside CUDA 13's runtime
 * (libcusparse.so.12 is the soname of CUDA 12 and 13 alike).
 */
static void ortlike(const struct fixture *fx)
{
	fx_mkdir(fx, GSITE "/ortlike/capi");
	fx_mkdir(fx, GSITE "/notpkg/lib");
	fx_mkdir(fx, "c12");
	fx_mkdir(fx, "c13");
	fx_write(fx, GSITE "/ortlike/__init__.py", "");
	fx_cc_lib(fx, "c12/libcudart.so.12", "libcudart.so.12",
		  "int r(void) { return 0; }\n", "");
	fx_cc_lib(fx, "c12/libcusparse.so.12", "libcusparse.so.12",
		  "int sp(void) { return 0; }\n", "");
	fx_cc_lib(fx, "c13/libcudart.so.13", "libcudart.so.13",
		  "int r(void) { return 0; }\n", "");
	fx_cc_lib(fx, "c13/libcusparse.so.12", "libcusparse.so.12",
		  "int sp(void) { return 0; }\n", "");
	fx_cc_lib(fx, GSITE "/ortlike/capi/libprov.so", "libprov.so",
		  "int p(void) { return 0; }\n",
		  "-Lc12 -l:libcudart.so.12 -l:libcusparse.so.12");
	/* a folder of libraries without __init__.py is no framework */
	fx_cc_lib(fx, GSITE "/notpkg/lib/libx.so", "libx.so",
		  "int x(void) { return 0; }\n", "-Lc12 -l:libcudart.so.12");
}

static void judge_g(const struct fixture *fx, const char *ld, struct judged *j)
{
	judge_site(fx, GSITE, ld, j);
	assert_int_equal(j->fws.n, 1);
	assert_string_equal(j->fws.v[0].name, "ortlike");
	assert_int_equal(j->fws.v[0].entries.n, 1);
}

static void test_pyload_any_package_needing_cuda_is_a_framework(void **state)
{
	struct fixture *fx = *state;
	struct judged j;

	FX_NEED_CC();
	ortlike(fx);
	judge_g(fx, "c12", &j);
	assert_loaded(fx, &j, "libcusparse.so.12", "c12/libcusparse.so.12");
	assert_int_equal(j.is.n, 0);
	/* its build: CUDA 12 (libcudart.so.12 says so; cuSPARSE's 12|13) */
	assert_int_equal(pyload_fw_majors(&j.l, &j.fws.v[0]), 1ul << 12);
	judged_release(&j);
}

/* No CUDA DT_NEEDED (TensorFlow dlopens): the wheels' -cuNN names say,
 * the "_cu" before digits, not the one of nvidia_cuda_runtime's name */
static void test_pyload_wheel_names_give_the_build_major(void **state)
{
	struct fixture *fx = *state;
	struct loader_env env = {0};
	struct pyload_fw fw = {0};
	struct loader l;

	fx_mkdir(fx, "s/nvidia_cuda_runtime_cu12-12.3.101.dist-info");
	fx_mkdir(fx, "s/nvidia_cufft_cu12-11.0.12.1.dist-info");
	fw.site = fx_path(fx, "s");
	loader_init(&l, &env);
	assert_int_equal(pyload_fw_majors(&l, &fw), 1ul << 12);
	/* wheels of two majors: no one build */
	fx_mkdir(fx, "s/nvidia_cublas_cu11-11.11.3.6.dist-info");
	assert_int_equal(pyload_fw_majors(&l, &fw), 0);
	loader_release(&l);
	free(fw.site);
}

#define HSITE "h/lib/python3.11/site-packages"

/*
 * ctranslate2's shape: its extension needs only a library of its
 * auditwheel folder (ctlike.libs), which bundles cuDNN under a hashed
 * name and dlopens cuSPARSE and NCCL by the names in its bytes.
 */
/* Does a line of is->unseen hold text? */
static bool has_unseen(const struct pyload_issues *is, const char *text)
{
	for (size_t i = 0; i < is->unseen.n; i++)
		if (strstr(is->unseen.v[i], text))
			return true;
	return false;
}

static void test_pyload_names_in_bytes_are_dlopened(void **state)
{
	struct fixture *fx = *state;
	struct strv sites = STRV_INIT, defaults = STRV_INIT;
	struct loader_env env = {0};
	struct pyload_fws fws = {0};
	struct pyload_span span;
	struct pyload_issues is = {0};
	struct loader l;

	FX_NEED_CC();
	ortlike(fx); /* c12/: libcudart.so.12, libcusparse.so.12 */
	fx_mkdir(fx, HSITE "/ctlike");
	fx_mkdir(fx, HSITE "/ctlike.libs");
	fx_write(fx, HSITE "/ctlike/__init__.py", "");
	fx_cc_lib(fx, HSITE "/ctlike.libs/libcudnn-74a4c495.so.9.1.0",
		  "libcudnn-74a4c495.so.9.1.0",
		  "const char *n = \"libcudnn.so.9\";\n", "");
	fx_cc_lib(fx, HSITE "/ctlike.libs/libct-c75cca97.so.4",
		  "libct-c75cca97.so.4",
		  "const char *a = \"libcusparse.so.12\", *b = "
		  "\"libnccl.so.2\", *c = \"libcudnn.so.9\", *d = "
		  "\"libcuda.so.1\", *e = \"libnvrtc.so.12\", *f = "
		  "\"libnvrtc.so.13\";\n",
		  "-L" HSITE "/ctlike.libs -l:libcudnn-74a4c495.so.9.1.0");
	fx_cc_lib(fx, HSITE "/ctlike/_ext.so", "_ext.so",
		  "int e(void) { return 0; }\n",
		  "-Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/../ctlike.libs "
		  "-L" HSITE "/ctlike.libs -l:libct-c75cca97.so.4 "
		  "-Wl,-rpath-link," HSITE "/ctlike.libs");
	/* a plugin for another product, whose library is not here (as
	 * onnxruntime's TensorRT provider needs libnvinfer.so.10) */
	fx_cc_lib(fx, "trt/libtrtlike.so.10", "libtrtlike.so.10",
		  "int t(void) { return 0; }\n", "");
	fx_cc_lib(fx, HSITE "/ctlike/_trt.so", "_trt.so",
		  "int tp(void) { return 0; }\n",
		  "-Ltrt -l:libtrtlike.so.10 -Lc12 -l:libcudart.so.12");
	/* a module for an add-on no wheel here gives (cupy's cuDNN 8
	 * module) */
	fx_cc_lib(fx, "trt/libcudnn.so.8", "libcudnn.so.8",
		  "int f(void) { return 0; }\n", "");
	fx_cc_lib(fx, HSITE "/ctlike/_dnn.so", "_dnn.so",
		  "int ff(void) { return 0; }\n", "-Ltrt -l:libcudnn.so.8");
	unlink("trt/libtrtlike.so.10");
	unlink("trt/libcudnn.so.8");
	/* wheels it requires, not installed whole (their lib folders are
	 * not there); the CUDA runtime has none, and is required all the
	 * same: a toolkit library, not an add-on */
	fx_mkdir(fx, HSITE "/nvidia_cusparse_cu12-12.5.4.2.dist-info");
	fx_mkdir(fx, HSITE "/nvidia_cuda_nvrtc_cu12-12.6.77.dist-info");
	/* NCCL's wheel is required too, and it is not predicted all the
	 * same: it is dlopened on several GPUs only */
	fx_mkdir(fx, HSITE "/nvidia_nccl_cu12-2.26.2.dist-info");
	fx_cc_lib(fx, "c12/libnvrtc.so.12", "libnvrtc.so.12",
		  "int n(void) { return 0; }\n", "");
	fx_cc_lib(fx, "c13/libnvrtc.so.13", "libnvrtc.so.13",
		  "int n(void) { return 0; }\n", "");
	fx_cc_lib(fx, "c12/libcudnn_graph.so.9", "libcudnn_graph.so.9",
		  "int g(void) { return 0; }\n", "");
	strv_push_take(&sites, fx_path(fx, HSITE));
	pyload_find(&sites, &fws);
	assert_int_equal(fws.n, 1);
	assert_string_equal(fws.v[0].name, "ctlike");
	assert_true(fws.v[0].by_strings);
	loader_defaults_guess("x86_64", &defaults);
	env.defaults = &defaults;
	/* nothing on the path: cuSPARSE, NVRTC 12 (its build's of the two
	 * NVRTCs named) and the plugin's CUDA runtime are missing; NCCL
	 * (asked for when used), the plugin's libtrtlike and cuDNN 8 (an
	 * add-on, no wheel of it here) are not issues; cuDNN 9 is the
	 * bundled copy, the driver the machine's */
	loader_init(&l, &env);
	pyload_predict(&l, NULL, &fws.v[0], true, &span);
	pyload_judge(&l, &span, &fws.v[0], &is);
	assert_int_equal(is.n, 3);
	/* what it leaves out is said: the add-on's module, the plugin,
	 * the sub-library the bundled cuDNN front asks for that no wheel
	 * here gives */
	assert_int_equal(is.unseen.n, 3);
	assert_true(has_unseen(&is, "ctlike/_dnn.so, an add-on's module"));
	assert_true(has_unseen(&is, "ctlike/_trt.so, a plugin for another "
				    "product (it needs libtrtlike.so.10, not "
				    "here)"));
	assert_true(has_unseen(&is, "libcudnn_graph.so.9, an add-on's library "
				    "(no wheel here gives or pins it)"));
	for (size_t i = 0; i < is.n; i++) {
		assert_int_equal(is.v[i].kind, PYLOAD_MISSING);
		assert_true(!strcmp(is.v[i].name, "libcusparse.so.12") ||
			    !strcmp(is.v[i].name, "libnvrtc.so.12") ||
			    !strcmp(is.v[i].name, "libcudart.so.12"));
	}
	pyload_issues_release(&is);
	loader_release(&l);
	/* with c12 (and CUDA 13's NVRTC) on LD_LIBRARY_PATH they are
	 * found, through libct; NVRTC 13 is not asked for */
	env.library_path = "c12:c13";
	loader_init(&l, &env);
	pyload_predict(&l, NULL, &fws.v[0], true, &span);
	pyload_judge(&l, &span, &fws.v[0], &is);
	assert_int_equal(is.n, 0);
	assert_non_null(loader_find(&l, "libcusparse.so.12"));
	assert_non_null(loader_find(&l, "libnvrtc.so.12"));
	assert_null(loader_find(&l, "libnvrtc.so.13"));
	assert_null(loader_find(&l, "libcudnn.so.9"));
	/* the add-on's module is imported only by who has cuDNN 8 */
	assert_null(loader_find(&l, "_dnn.so"));
	/* the bundled front dlopens its sub-libraries as cuDNN 9 does */
	assert_non_null(loader_find(&l, "libcudnn_graph.so.9"));
	pyload_issues_release(&is);
	loader_release(&l);
	pyload_fws_release(&fws);
	STRV_RELEASE_EACH(&sites, &defaults);
}

static void test_pyload_another_cuda_major_is_an_issue(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	const struct pyload_issue *is;

	FX_NEED_CC();
	ortlike(fx);
	/* cuSPARSE from c13: CUDA 13's, by the runtime beside it */
	judge_g(fx, "c13:c12", &j);
	assert_loaded(fx, &j, "libcusparse.so.12", "c13/libcusparse.so.12");
	is = issue(&j, PYLOAD_MAJOR, "libcusparse.so.12");
	assert_non_null(strstr(is->detail, "is CUDA 13's; ortlike is a CUDA "
					   "12 build"));
	assert_int_equal(j.is.n, 1);
	judged_release(&j);
}

/* cuDNN follows its own version: the CUDA runtime of the folder it was
 * put in says its build (the machine's CUDA 13 lib/ with cuDNN 9.19) */
static void test_pyload_cudnn_in_another_majors_folder_is_an_issue(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	const struct pyload_issue *is;

	FX_NEED_CC();
	ortlike(fx);
	fx_cc_lib(fx, "c13/libcudnn.so.9", "libcudnn.so.9",
		  "int cudnnGetVersion(void) { return 91900; }\n", "");
	/* it asks for cuDNN (its wheel is here): not an add-on */
	fx_mkdir(fx, GSITE "/nvidia_cudnn_cu12-9.5.1.17.dist-info");
	fx_cc_lib(fx, GSITE "/ortlike/capi/libprov.so", "libprov.so",
		  "int p(void) { return 0; }\n",
		  "-Lc12 -l:libcudart.so.12 -l:libcusparse.so.12 -Lc13 "
		  "-l:libcudnn.so.9");
	judge_g(fx, "c12:c13", &j);
	assert_loaded(fx, &j, "libcudnn.so.9", "c13/libcudnn.so.9");
	is = issue(&j, PYLOAD_MAJOR, "libcudnn.so.9");
	assert_non_null(strstr(is->detail, "is CUDA 13's"));
	judged_release(&j);
	/* no cuDNN wheel, nothing asks for one: an add-on the package
	 * leaves to the user, no issue */
	rmdir(GSITE "/nvidia_cudnn_cu12-9.5.1.17.dist-info");
	judge_g(fx, "c12:c13", &j);
	assert_int_equal(j.is.n, 0);
	judged_release(&j);
}

#define PSITE "pd/lib/python3.11/site-packages"

/*
 * Paddle's shape: paddle/base/libpaddle.so needs libphi.so (RUNPATH
 * $ORIGIN/../libs), which dlopens libcublas.so, libcudnn.so, ... by
 * their plain names; the version file says the build's CUDA. k11 is a
 * CUDA 11 folder with the linker names (an install from NVIDIA's
 * archives, or cuenv's from the index); c13's libcublas.so is CUDA 13's.
 */
static void paddlelike(const struct fixture *fx)
{
	/* each library's soname major in CUDA 11 and in CUDA 13 */
	static const char *const libs[][3] = {
	    {"cublas", "11", "13"},   {"cublasLt", "11", "13"},
	    {"curand", "10", "10"},   {"cusolver", "11", "12"},
	    {"cusparse", "11", "12"}, {"cufft", "10", "12"},
	};
	fx_mkdir(fx, PSITE "/paddle/base");
	fx_mkdir(fx, PSITE "/paddle/libs");
	fx_mkdir(fx, PSITE "/paddle/version");
	fx_mkdir(fx, "k11");
	fx_mkdir(fx, "c13");
	fx_write(fx, PSITE "/paddle/__init__.py", "");
	fx_write(fx, PSITE "/paddle/version/__init__.py",
		 "full_version    = '2.6.1'\ncuda_version    = '11.8'\n"
		 "cudnn_version   = '8.6.0'\n");
	fx_cc_lib(fx, PSITE "/paddle/libs/libphi.so", "libphi.so",
		  "int phi(void) { return 0; }\n", "");
	fx_cc_lib(fx, PSITE "/paddle/base/libpaddle.so", "libpaddle.so",
		  "int pd(void) { return 0; }\n",
		  "-Wl,-rpath,$ORIGIN/../libs -L" PSITE
		  "/paddle/libs -l:libphi.so");
	fx_cc_lib(fx, "k11/libcudart.so.11.0", "libcudart.so.11.0",
		  "int r(void) { return 0; }\n", "");
	fx_cc_lib(fx, "c13/libcudart.so.13", "libcudart.so.13",
		  "int r(void) { return 0; }\n", "");
	for (size_t i = 0; i < sizeof(libs) / sizeof(*libs); i++)
		for (size_t k = 1; k < 3; k++) {
			const char *dir = k == 1 ? "k11" : "c13";
			struct buf so = BUF_INIT, at = BUF_INIT;

			buf_printf(&so, "lib%s.so.%s", libs[i][0], libs[i][k]);
			buf_printf(&at, "%s/%s", dir, so.data);
			fx_cc_lib(fx, at.data, so.data,
				  "int f(void) { return 0; }\n", "");
			buf_reset(&at);
			buf_printf(&at, "%s/lib%s.so", dir, libs[i][0]);
			fx_symlink(fx, so.data, at.data);
			BUF_RELEASE_EACH(&so, &at);
		}
	fx_cc_lib(fx, "k11/libcudnn.so.8", "libcudnn.so.8",
		  "int cudnnGetVersion(void) { return 8600; }\n", "");
	fx_symlink(fx, "libcudnn.so.8", "k11/libcudnn.so");
	fx_cc_lib(fx, "c13/libcudnn.so.9", "libcudnn.so.9",
		  "int cudnnGetVersion(void) { return 91900; }\n", "");
	fx_symlink(fx, "libcudnn.so.9", "c13/libcudnn.so");
}


static void test_pyload_paddle_dlopens_plain_names_of_its_build(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	const struct pyload_issue *is;

	FX_NEED_CC();
	paddlelike(fx);
	/* the CUDA 11 folder first: every plain name from it, no issue */
	judge_site(fx, PSITE, "k11:c13", &j);
	assert_int_equal(j.fws.n, 1);
	assert_string_equal(j.fws.v[0].name, "paddle");
	assert_int_equal(j.fws.v[0].dlnames.n, 7);
	assert_loaded(fx, &j, "libcublas.so.11", "k11/libcublas.so.11");
	assert_loaded(fx, &j, "libcudnn.so.8", "k11/libcudnn.so.8");
	assert_int_equal(j.is.n, 0);
	judged_release(&j);
	/* CUDA 13's first (or in the loader cache): a CUDA 11 build
	 * mapping CUDA 13's libraries, cuDNN 9 among them */
	judge_site(fx, PSITE, "c13:k11", &j);
	assert_loaded(fx, &j, "libcublas.so.13", "c13/libcublas.so.13");
	is = issue(&j, PYLOAD_MAJOR, "libcublas.so.13");
	assert_non_null(strstr(is->detail, "is CUDA 13's; paddle is a CUDA "
					   "11 build"));
	issue(&j, PYLOAD_MAJOR, "libcudnn.so.9");
	judged_release(&j);
	/* none on the path: missing, each by its plain name */
	judge_site(fx, PSITE, NULL, &j);
	issue(&j, PYLOAD_MISSING, "libcublas.so");
	issue(&j, PYLOAD_MISSING, "libcudnn.so");
	judged_release(&j);
	/* a CPU build ('False'): no CUDA framework */
	fx_write(fx, PSITE "/paddle/version/__init__.py",
		 "cuda_version    = 'False'\n");
	judge_site(fx, PSITE, NULL, &j);
	assert_int_equal(j.fws.n, 0);
	judged_release(&j);
}

static void test_pyload_one_distribution_is_one_framework(void **state)
{
	struct fixture *fx = *state;
	struct strv sites = STRV_INIT;
	struct pyload_fws fws = {0};

	FX_NEED_CC();
	ortlike(fx);
	/* cupy's shape: cupy, cupy_backends and cupyx, one wheel */
	fx_write(fx, GSITE "/ortlike_b/__init__.py", "");
	fx_cc_lib(fx, GSITE "/ortlike_b/libb.so", "libb.so",
		  "int b(void) { return 0; }\n", "-Lc12 -l:libcudart.so.12");
	fx_write(fx, GSITE "/ortlike-1.0.dist-info/top_level.txt",
		 "ortlike\nortlike_b\n");
	strv_push_take(&sites, fx_path(fx, GSITE));
	pyload_find(&sites, &fws);
	assert_int_equal(fws.n, 1);
	assert_string_equal(fws.v[0].name, "ortlike");
	assert_int_equal(fws.v[0].entries.n, 2);
	pyload_fws_release(&fws);
	/* without the metadata: two packages, two frameworks */
	unlink(GSITE "/ortlike-1.0.dist-info/top_level.txt");
	pyload_find(&sites, &fws);
	assert_int_equal(fws.n, 2);
	pyload_fws_release(&fws);
	strv_release(&sites);
}

/* torch 2.0's wheel also holds nvfuser, whose import alone fails: it is
 * torch's, judged by torch's import, not a framework of its own */
static void test_pyload_a_known_framework_owns_its_distribution(void **state)
{
	struct fixture *fx = *state;
	struct strv sites = STRV_INIT;
	struct pyload_fws fws = {0};
	struct judged j;

	FX_NEED_CC();
	fx_write(fx, SITE "/nvfuser/__init__.py", "from . import _C\n");
	fx_cc_lib(fx, SITE "/nvfuser/_C.so", "_C.so",
		  "int nv(void) { return 0; }\n",
		  "-L" SITE "/nvidia/cusparse/lib -l:libcusparse.so.12 "
		  "-Wl,-rpath-link," SITE "/nvidia/nvjitlink/lib");
	fx_write(fx, SITE "/torch-2.0.1.dist-info/top_level.txt",
		 "functorch\nnvfuser\ntorch\ntorchgen\n");
	judge(fx, NULL, &j); /* one framework */
	assert_string_equal(j.fws.v[0].name, "torch");
	assert_int_equal(j.fws.v[0].entries.n, 2);
	judged_release(&j);
	/* without the metadata, nvfuser is a framework of its own */
	unlink(SITE "/torch-2.0.1.dist-info/top_level.txt");
	strv_push_take(&sites, fx_path(fx, SITE));
	pyload_find(&sites, &fws);
	assert_int_equal(fws.n, 2);
	assert_string_equal(fws.v[1].name, "nvfuser");
	pyload_fws_release(&fws);
	strv_release(&sites);
}

static void test_pyload_wheel_pin_is_exact_or_nothing(void **state)
{
	struct fixture *fx = *state;
	struct buf req = BUF_INIT;
	char *site = fx_path(fx, "s");

	fx_write(fx, "s/fw-1.0.dist-info/METADATA",
		 "Name: fw\nRequires-Dist: nvidia-cusparselt-cu12==0.6.3\n"
		 "Requires-Dist: nvidia-cufft-cu12>=11\n"
		 "Requires-Dist: nvidia-cusparse-cu12==12.5.4.2; "
		 "platform_system == \"Linux\"\n");
	assert_true(pyload_wheel_pin(site, "libcusparse.so.12", &req));
	assert_string_equal(req.data, "nvidia-cusparse-cu12==12.5.4.2");
	/* a range is not a pin; a soname no wheel gives has none */
	assert_false(pyload_wheel_pin(site, "libcufft.so.11", &req));
	assert_false(pyload_wheel_pin(site, "libfoo.so.1", &req));
	/* two packages pinning two versions: no one command */
	fx_write(fx, "s/other-2.0.dist-info/METADATA",
		 "Requires-Dist: nvidia-cusparse-cu12 == 12.1.0.106\n");
	assert_false(pyload_wheel_pin(site, "libcusparse.so.12", &req));
	buf_release(&req);
	free(site);
}

/* ---- TensorFlow and JAX: what their loader object dlopens --------------- */

#define TFSITE "tf/lib/python3.11/site-packages"

/*
 * A site-packages with a CUDA runtime wheel and a cuSPARSE wheel (12.2),
 * and either TensorFlow's shape (_pywrap_tensorflow_internal.so needing
 * libtensorflow_framework.so.2, whose RUNPATH names only
 * nvidia/cuda_runtime/lib) or JAX's (xla_cuda_plugin.so with DT_RPATH
 * into both wheels).
 */
static void tf_site(const struct fixture *fx, bool jax)
{
	fx_mkdir(fx, TFSITE "/nvidia/cuda_runtime/lib");
	fx_mkdir(fx, TFSITE "/nvidia/cusparse/lib");
	fx_cc_lib(fx, TFSITE "/nvidia/cuda_runtime/lib/libcudart.so.12",
		  "libcudart.so.12", "int rt(void) { return 0; }\n",
		  "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN");
	wheel(fx, TFSITE, "nvidia_cuda_runtime_cu12-12.3.101",
	      "nvidia/cuda_runtime/lib/libcudart.so.12");
	fx_cc_lib(fx, TFSITE "/nvidia/cusparse/lib/libcusparse.so.12",
		  "libcusparse.so.12", "int sp(void) { return 0; }\n",
		  "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN");
	wheel(fx, TFSITE, "nvidia_cusparse_cu12-12.2.0.103",
	      "nvidia/cusparse/lib/libcusparse.so.12");
	if (jax) {
		fx_mkdir(fx, TFSITE "/jax_plugins/xla_cuda12");
		fx_mkdir(fx, TFSITE "/jax_cuda12_plugin");
		fx_cc_lib(
		    fx, TFSITE "/jax_plugins/xla_cuda12/xla_cuda_plugin.so",
		    "xla_cuda_plugin.so", "int pj(void) { return 0; }\n",
		    "-Wl,--disable-new-dtags -Wl,-rpath,$ORIGIN/../../nvidia/"
		    "cusparse/lib:$ORIGIN/../../nvidia/cuda_runtime/lib");
		fx_cc_lib(fx, TFSITE "/jax_cuda12_plugin/_versions.so",
			  "_versions.so", "int v(void) { return 0; }\n", "");
		return;
	}
	fx_mkdir(fx, TFSITE "/tensorflow/python");
	fx_cc_lib(
	    fx, TFSITE "/tensorflow/libtensorflow_framework.so.2",
	    "libtensorflow_framework.so.2", "int fw(void) { return 0; }\n",
	    "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/:$ORIGIN/../nvidia/"
	    "cuda_runtime/lib");
	fx_cc_lib(
	    fx, TFSITE "/tensorflow/python/_pywrap_tensorflow_internal.so",
	    "_pywrap_tensorflow_internal.so", "int pw(void) { return 0; }\n",
	    "-Wl,--enable-new-dtags -Wl,-rpath,$ORIGIN/.. -L" TFSITE
	    "/tensorflow -l:libtensorflow_framework.so.2");
}

static void judge_tf(const struct fixture *fx, const char *ld, struct judged *j)
{
	judge_site(fx, TFSITE, ld, j);
	assert_int_equal(j->fws.n, 1);
}

/* issue 21 item 4: TensorFlow's framework library reaches only cudart */
static void
test_pyload_tensorflow_dlopens_from_its_framework_library(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	const struct pyload_issue *is;

	FX_NEED_CC();
	tf_site(fx, false);
	judge_tf(fx, NULL, &j);
	assert_string_equal(j.fws.v[0].name, "tensorflow");
	assert_int_equal(j.fws.v[0].dlnames.n, 2);
	assert_string_equal(j.fws.v[0].dlnames.v[0], "libcudart.so.12");
	assert_int_equal(j.fws.v[0].at_import, 1);
	/* the runtime at import, through the framework library's RUNPATH */
	assert_loaded(fx, &j, "libcudart.so.12",
		      TFSITE "/nvidia/cuda_runtime/lib/libcudart.so.12");
	assert_true(loader_find(&j.l, "libcudart.so.12") - j.l.obj <
		    (long)j.span.on_use);
	/* cuSPARSE: not on that RUNPATH, nowhere else: the wheel is unseen */
	assert_null(loader_find(&j.l, "libcusparse.so.12"));
	is = issue(&j, PYLOAD_MISSING, "libcusparse.so.12");
	assert_non_null(is->want);
	assert_non_null(strstr(is->want, "nvidia/cusparse/lib"));
	judged_release(&j);
}

/* what TensorFlow cannot reach in its wheels comes from LD_LIBRARY_PATH */
static void
test_pyload_tensorflow_takes_an_older_copy_from_the_path(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	const struct pyload_issue *is;
	char *dir = fx_path(fx, "c12");

	FX_NEED_CC();
	tf_site(fx, false);
	fx_mkdir(fx, "c12");
	fx_cc_lib(fx, "c12/libcusparse.so.12.0.0.76", "libcusparse.so.12",
		  "int sp(void) { return 0; }\n", "");
	fx_symlink(fx, "libcusparse.so.12.0.0.76", "c12/libcusparse.so.12");
	judge_tf(fx, dir, &j);
	assert_loaded(fx, &j, "libcusparse.so.12",
		      "c12/libcusparse.so.12.0.0.76");
	is = issue(&j, PYLOAD_OLDER, "libcusparse.so.12");
	assert_non_null(strstr(is->detail, "12.0.0.76 is older than the "
					   "wheel's 12.2.0.103"));
	judged_release(&j);
	free(dir);
}

/* JAX's plugin carries DT_RPATH: its dlopens find the wheels first */
static void test_pyload_jax_plugin_rpath_keeps_the_wheels(void **state)
{
	struct fixture *fx = *state;
	struct judged j;
	char *dir = fx_path(fx, "c12");

	FX_NEED_CC();
	tf_site(fx, true);
	fx_mkdir(fx, "c12");
	fx_cc_lib(fx, "c12/libcusparse.so.12", "libcusparse.so.12",
		  "int sp(void) { return 0; }\n", "");
	judge_tf(fx, dir, &j);
	assert_string_equal(j.fws.v[0].name, "jax");
	assert_int_equal(j.fws.v[0].entries.n, 2);
	assert_int_equal(j.fws.v[0].at_import, 0);
	assert_loaded(fx, &j, "libcusparse.so.12",
		      TFSITE "/nvidia/cusparse/lib/libcusparse.so.12");
	/* loaded when a GPU client is made, not at import */
	assert_true(loader_find(&j.l, "libcudart.so.12") - j.l.obj >=
		    (long)j.span.on_use);
	assert_int_equal(j.is.n, 0);
	judged_release(&j);
	free(dir);
}

static void test_loader_defaults_from_ld_so_help(void **state)
{
	static const char help[] =
	    "Shared library search path:\n"
	    "  (libraries located via /etc/ld.so.cache)\n"
	    "  /lib/x86_64-linux-gnu (system search path)\n"
	    "  /usr/lib/x86_64-linux-gnu (system search path)\n"
	    "  /lib (system search path)\n"
	    "  /usr/lib (system search path)\n"
	    "\n"
	    "Subdirectories of glibc-hwcaps directories, in priority "
	    "order:\n"
	    "  x86-64-v3 (supported, searched)\n";
	struct strv d = STRV_INIT, guess = STRV_INIT;
	char *argv[] = {(char *)"/lib64/ld-linux-x86-64.so.2", (char *)"--help",
			NULL};
	struct buf out = BUF_INIT;

	(void)state;
	assert_true(loader_defaults_parse(help, &d));
	assert_int_equal(d.n, 4);
	assert_string_equal(d.v[0], "/lib/x86_64-linux-gnu");
	assert_string_equal(d.v[3], "/usr/lib");
	strv_release(&d);
	assert_false(loader_defaults_parse("no such lines\n", &d));
	/* this machine's own loader, where it says them */
	if (!access(argv[0], X_OK) && !fx_run(argv, &out) &&
	    loader_defaults_parse(out.data, &d)) {
		loader_defaults_guess("x86_64", &guess);
		assert_int_equal(guess.n, d.n);
		for (size_t i = 0; i < d.n; i++)
			assert_string_equal(guess.v[i], d.v[i]);
	}
	STRV_RELEASE_EACH(&d, &guess);
	buf_release(&out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_loader_defaults_from_ld_so_help),
#define T(f) cmocka_unit_test_setup_teardown(f, setup, fx_teardown_chdir)
	    T(test_pyload_any_package_needing_cuda_is_a_framework),
	    T(test_pyload_another_cuda_major_is_an_issue),
	    T(test_pyload_wheel_pin_is_exact_or_nothing),
	    T(test_pyload_paddle_dlopens_plain_names_of_its_build),
	    T(test_pyload_one_distribution_is_one_framework),
	    T(test_pyload_cudnn_in_another_majors_folder_is_an_issue),
	    T(test_pyload_names_in_bytes_are_dlopened),
	    T(test_pyload_wheel_names_give_the_build_major),
	    T(test_pyload_a_known_framework_owns_its_distribution),
	    T(test_pyload_finds_torch_entries_in_import_order),
	    T(test_pyload_torch_nvfuser_codegen_is_loaded_last),
	    T(test_pyload_a_whole_environment_has_no_issue),
	    T(test_pyload_older_nvjitlink_on_the_path_breaks),
	    T(test_pyload_newer_copy_on_the_path_is_no_issue),
	    T(test_pyload_rpath_keeps_torch_own_libraries),
	    T(test_pyload_cudnn_sub_library_from_elsewhere_is_mixed),
	    T(test_pyload_cudnn_exact_version_name_first),
	    T(test_pyload_a_missing_library_is_an_issue),
	    T(test_pyload_tensorflow_dlopens_from_its_framework_library),
	    T(test_pyload_tensorflow_takes_an_older_copy_from_the_path),
	    T(test_pyload_jax_plugin_rpath_keeps_the_wheels),
#undef T
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
