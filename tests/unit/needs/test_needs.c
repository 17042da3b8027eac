#include "fakes/fixture.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "nvidia/compat.h"
#include "net/fetch.h"
#include "needs/needs.h"
#include "base/xalloc.h"

/* ---- helpers ------------------------------------------------------------- */

/* The want for soname in s, or NULL. */
static const struct needs_want *want_of(const struct needs_scan *s,
					const char *soname)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->v[i].soname, soname))
			return &s->v[i];
	return NULL;
}

static void assert_files(const struct strv *v, const char *const *want,
			 size_t n)
{
	assert_int_equal(v->n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v->v[i], want[i]);
}

/* An elf_info as elf_read_file would fill it; lists space-separated. */
static void elf_of(struct elf_info *e, const char *soname, const char *needed,
		   const char *named)
{
	elf_info_init(e);
	e->soname = soname ? xstrdup(soname) : NULL;
	if (*needed)
		strv_split(&e->needed, needed, ' ');
	if (*named)
		strv_split(&e->cuda_named, named, ' ');
}

/* Record a file at path that has soname, needs needed and names named. */
static void add(struct needs_scan *s, const char *path, const char *soname,
		const char *needed, const char *named)
{
	struct elf_info e;

	elf_of(&e, soname, needed, named);
	needs_scan_add(s, path, &e);
	elf_info_release(&e);
}

/*
 * Skip the test where there is no cc. Whatever builds with cc calls it
 * first, and a test builds before it allocates anything, so that a skip
 * leaks nothing.
 */
static void need_cc(void)
{
	if (!fx_have_program("cc"))
		skip();
}

/* fx_cc_shared, linked against root/stubs; skips where there is no cc. */
static void cc_so(const struct fixture *fx, const char *rel, const char *soname,
		  const char *src, const char *links)
{
	need_cc();
	if (fx_cc_shared(fx, rel, soname, src, "stubs", links))
		fail_msg("cc could not build %s", rel);
}

/* root/stubs/<soname>: an empty library with that soname, to link to. */
static void stub(const struct fixture *fx, const char *soname)
{
	struct buf rel = BUF_INIT;

	need_cc();
	buf_printf(&rel, "stubs/%s", soname);
	cc_so(fx, rel.data, soname, "int stub(void) { return 0; }\n", "");
	buf_release(&rel);
}

/*
 * root/fw: a framework folder, as TensorFlow's: libtf.so needs
 * libcudart.so.11.0 and names libcupti.so.11.2 and libcudnn.so.8 (to
 * dlopen), sub/libpy.so needs libcudnn.so.8, and notes.txt names
 * libcudart.so.12 in plain text.
 */
static void framework(const struct fixture *fx)
{
	stub(fx, "libcudart.so.11.0");
	stub(fx, "libcudnn.so.8");
	cc_so(fx, "fw/libtf.so", "libtf.so",
	      "const char *const dso[] = { \"libcupti.so.11.2\",\n"
	      "\t\"libcudnn.so.8\" };\n",
	      "libcudart.so.11.0");
	cc_so(fx, "fw/sub/libpy.so", "libpy.so", "int py(void) { return 1; }\n",
	      "libcudnn.so.8");
	fx_write(fx, "fw/notes.txt", "dlopen libcudart.so.12 here\n");
}

/* Scan root/rel into s, returning the code; err's message is kept. */
static int scan(const struct fixture *fx, struct needs_scan *s, const char *rel,
		struct cuenv_err *err)
{
	char *path = fx_path(fx, rel);
	int rc = needs_scan_path(s, path, err);

	free(path);
	return rc;
}

/* A heap install at root/rel (its dir too), its files made by the test. */
static struct store_version *install_at(const struct fixture *fx,
					enum kit_kind kind, const char *version,
					unsigned major, const char *rel)
{
	char *prefix = fx_path(fx, rel);
	struct store_version *in = fx_install_new(kind, version, major, prefix);

	in->dir = prefix;
	return in;
}

/* Push a CUDA install at root/<version> holding the files (relative). */
static void cuda_at(const struct fixture *fx, struct store_version_list *l,
		    const char *version, unsigned major, const char *files)
{
	struct strv names = STRV_INIT;
	struct buf rel = BUF_INIT;

	strv_split(&names, files, ' ');
	for (size_t i = 0; i < names.n; i++) {
		buf_reset(&rel);
		buf_printf(&rel, "%s/%s", version, names.v[i]);
		fx_touch(fx, rel.data);
	}
	fx_list_push(l, install_at(fx, KIT_CUDA, version, major, version));
	strv_release(&names);
	buf_release(&rel);
}

/* Push a cuDNN for CUDA major at root/cudnn-<version>-<major>. */
static void cudnn_at(const struct fixture *fx, struct store_version_list *l,
		     const char *version, unsigned major)
{
	struct buf rel = BUF_INIT, lib = BUF_INIT;

	buf_printf(&rel, "cudnn-%s-%u", version, major);
	buf_printf(&lib, "%s/lib/libcudnn.so.%lu", rel.data,
		   strtoul(version, NULL, 10));
	fx_touch(fx, lib.data);
	fx_list_push(l, install_at(fx, KIT_CUDNN, version, major, rel.data));
	buf_release(&rel);
	buf_release(&lib);
}

/* ---- scanning files ------------------------------------------------------ */

/* Another product's library linked only by its plugins is listed, not
 * required (onnxruntime's TensorRT provider, cupy's cuTENSOR module);
 * linked by anything else it is required (torch_tensorrt's torchtrtc). */
static void test_needs_plugin_only_product(void **state)
{
	struct needs_want w = {.lib = NVLIB_NVINFER};

	(void)state;
	strv_push(&w.needed_by,
		  "ort/capi/libonnxruntime_providers_tensorrt.so");
	assert_true(needs_want_plugin(&w));
	strv_push(&w.needed_by, "torch_tensorrt/bin/torchtrtc");
	assert_false(needs_want_plugin(&w));
	strv_release(&w.needed_by);

	w.lib = NVLIB_CUTENSOR;
	strv_push(&w.needed_by, "cupy_backends/cuda/libs/"
				"cutensor.cpython-311-x86_64-linux-gnu.so");
	assert_true(needs_want_plugin(&w));
	strv_release(&w.needed_by);
	/* a module named for another product does not make it optional */
	strv_push(&w.needed_by,
		  "cupy/_core/core.cpython-311-x86_64-linux-gnu.so");
	assert_false(needs_want_plugin(&w));
	strv_release(&w.needed_by);

	/* the toolkit's libraries are never a plugin's alone */
	w.lib = NVLIB_CUBLAS;
	strv_push(&w.needed_by,
		  "ort/capi/libonnxruntime_providers_cuda_cublas.so");
	assert_false(needs_want_plugin(&w));
	strv_release(&w.needed_by);
}

static void test_needs_records_needed_and_named_sonames(void **state)
{
	struct needs_scan s;
	const struct needs_want *w;
	static const char *const a[] = {"/x/liba.so"};
	static const char *const ab[] = {"/x/liba.so", "/x/libb.so"};

	(void)state;
	needs_scan_init(&s);
	add(&s, "/x/liba.so", "liba.so", "libc.so.6 libcudart.so.11.0",
	    "libcudart.so.11.0 libcupti.so.11.2");
	add(&s, "/x/libb.so", NULL, "libcudart.so.11.0", "");
	add(&s, "/x/libb.so", NULL, "libcudart.so.11.0", "");
	needs_scan_finish(&s);
	assert_int_equal(s.files, 3);
	assert_int_equal(s.n, 2); /* libc is not CUDA */
	w = want_of(&s, "libcudart.so.11.0");
	assert_non_null(w);
	assert_int_equal(w->lib, NVLIB_CUDART);
	assert_string_equal(w->version, "11.0");
	/* needed wins over named; each file once */
	assert_files(&w->needed_by, ab, 2);
	assert_int_equal(w->named_by.n, 0);
	w = want_of(&s, "libcupti.so.11.2");
	assert_non_null(w);
	assert_int_equal(w->lib, NVLIB_CUPTI);
	/* the profiler, dlopen'd by name: one it may load (issue 22) */
	assert_files(&w->named_by, a, 1);
	assert_int_equal(w->loaded_by.n, 0);
	assert_int_equal(w->needed_by.n, 0);
	assert_null(w->provided_by);
	assert_true(needs_want_managed(w));
	needs_scan_release(&s);
}

/* A Python module that binds one library outside the toolkit (cupy's
 * cudnn.cpython-*.so) may use it; a file carrying the static runtime does
 * not need the libcudart it names (cupy's runtime module). */
static void test_needs_optional_module_and_static_runtime(void **state)
{
	struct needs_scan s;
	struct elf_info e;
	const struct needs_want *w;

	(void)state;
	needs_scan_init(&s);
	add(&s,
	    "/w/cupy_backends/cuda/libs/cudnn.cpython-311-x86_64-linux-gnu.so",
	    NULL, "libcudnn.so.8", "libcudnn.so.8");
	add(&s, "/w/cupy_backends/cuda/libs/nccl.abi3.so", NULL, "libnccl.so.2",
	    "");
	/* a toolkit library's binding module is no optional feature */
	add(&s,
	    "/w/cupy_backends/cuda/libs/cublas.cpython-311-x86_64-linux-gnu.so",
	    NULL, "libcublas.so.12", "");
	elf_of(&e, NULL, "", "libcudart.so.12");
	e.cudart_static = true;
	needs_scan_add(&s, "/w/cupy_backends/cuda/api/runtime.so", &e);
	elf_info_release(&e);
	needs_scan_finish(&s);
	w = want_of(&s, "libcudnn.so.8");
	assert_non_null(w);
	assert_false(needs_want_required(w));
	assert_int_equal(w->named_by.n, 1);
	assert_false(needs_want_required(want_of(&s, "libnccl.so.2")));
	assert_true(needs_want_required(want_of(&s, "libcublas.so.12")));
	assert_false(needs_want_required(want_of(&s, "libcudart.so.12")));
	needs_scan_release(&s);

	/* the same names from a framework's own library: required */
	needs_scan_init(&s);
	add(&s, "/w/torch/lib/libtorch_cuda.so", NULL, "libcudnn.so.8", "");
	add(&s, "/w/x/_core.cpython-311-x86_64-linux-gnu.so", NULL, "",
	    "libcudart.so.12");
	needs_scan_finish(&s);
	assert_true(needs_want_required(want_of(&s, "libcudnn.so.8")));
	assert_true(needs_want_required(want_of(&s, "libcudart.so.12")));
	needs_scan_release(&s);
}

static void test_needs_finish_sorts_by_library_then_soname(void **state)
{
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	add(&s, "/a", NULL, "libnccl.so.2 libcudnn.so.8",
	    "libcupti.so.12 libcudart.so.12 libcudart.so.11.0");
	needs_scan_finish(&s);
	assert_int_equal(s.n, 5);
	assert_string_equal(s.v[0].soname, "libcudart.so.11.0");
	assert_string_equal(s.v[1].soname, "libcudart.so.12");
	assert_string_equal(s.v[2].soname, "libcupti.so.12");
	assert_string_equal(s.v[3].soname, "libcudnn.so.8");
	assert_string_equal(s.v[4].soname, "libnccl.so.2");
	needs_scan_release(&s);
}

static void test_needs_soname_provided_under_path_is_not_asked(void **state)
{
	struct needs_scan s;
	const struct needs_want *w;

	(void)state;
	needs_scan_init(&s);
	/* the file asking comes before the one providing */
	add(&s, "/p/libapp.so", "libapp.so", "libcudart.so.12", "");
	add(&s, "/p/libcudart.so.12", "libcudart.so.12", "", "");
	needs_scan_finish(&s);
	assert_int_equal(s.n, 1);
	w = want_of(&s, "libcudart.so.12");
	assert_non_null(w->provided_by);
	assert_string_equal(w->provided_by, "/p/libcudart.so.12");
	assert_false(needs_want_managed(w));
	assert_false(needs_asked(&s, NULL));
	/* something else asked: then cuenv is asked */
	add(&s, "/p/libapp.so", "libapp.so", "", "libcublas.so.12");
	needs_scan_finish(&s);
	assert_true(needs_asked(&s, NULL));
	needs_scan_release(&s);
}

/*
 * A minimum from metadata (torch's pins: CUDA 12.1+, cuDNN 9.1.0+) asks
 * cuenv only for what the files do not provide themselves: a whole
 * site-packages, whose NVIDIA wheels provide every soname torch names,
 * asks nothing (it printed an install line, exit 1). With no library
 * read, the minimum alone is the ask (NAME==V read by metadata).
 */
static void test_needs_minimum_asks_only_what_is_not_provided(void **state)
{
	struct needs_scan s;
	struct needs_report rep = {.framework = (char *)"torch",
				   .source = (char *)"/sp/torch/version.py",
				   .cuda = (char *)"12.1"};

	(void)state;
	needs_scan_init(&s);
	s.rep = &rep;
	s.nrep = 1;
	assert_true(needs_asked(&s, NULL));
	add(&s, "/sp/torch/lib/libtorch_cuda.so", NULL, "libcudart.so.12", "");
	add(&s, "/sp/nvidia/cuda_runtime/lib/libcudart.so.12",
	    "libcudart.so.12", "", "");
	needs_scan_finish(&s);
	assert_false(needs_asked(&s, NULL));
	/* one library the wheels lack: asked, with the minimum */
	add(&s, "/sp/torch/lib/libtorch_cuda.so", NULL, "libcublas.so.12", "");
	needs_scan_finish(&s);
	assert_true(needs_asked(&s, NULL));
	s.rep = NULL;
	s.nrep = 0;
	needs_scan_release(&s);
}

/*
 * Paddle's version file says CUDA 11.8 and cuDNN 8.6; its loader dlopens
 * names built at run time, so its files name only NCCL: the minimum is
 * asked all the same, of each family the files do not hold.
 */
static void test_needs_minimum_of_a_family_not_held_is_asked(void **state)
{
	struct needs_scan s;
	struct needs_report rep = {.framework = (char *)"paddle",
				   .source =
				       (char *)"/sp/paddle/version/__init__.py",
				   .cuda = (char *)"11.8",
				   .cudnn = (char *)"8.6.0"};

	(void)state;
	needs_scan_init(&s);
	s.rep = &rep;
	s.nrep = 1;
	add(&s, "/sp/paddle/libs/libphi.so", NULL, "", "libnccl.so.2");
	needs_scan_finish(&s);
	assert_true(needs_asked(&s, NULL));
	/* the toolkit held, cuDNN not: still asked */
	add(&s, "/sp/nvidia/cublas/lib/libcublas.so.11", "libcublas.so.11", "",
	    "");
	needs_scan_finish(&s);
	assert_true(needs_asked(&s, NULL));
	/* both held: nothing asked */
	add(&s, "/sp/nvidia/cudnn/lib/libcudnn.so.8", "libcudnn.so.8", "", "");
	needs_scan_finish(&s);
	assert_false(needs_asked(&s, NULL));
	s.rep = NULL;
	s.nrep = 0;
	needs_scan_release(&s);
}

static void test_needs_nccl_is_reported_but_not_asked(void **state)
{
	struct needs_scan s;
	struct needs_python py;

	(void)state;
	needs_scan_init(&s);
	needs_python_init(&py, "python3");
	add(&s, "/n/libuser.so", NULL, "", "libnccl.so.2");
	needs_scan_finish(&s);
	assert_int_equal(s.n, 1);
	assert_false(needs_want_managed(&s.v[0]));
	assert_false(needs_asked(&s, &py));
	/* a framework built with CUDA asks, even with no soname */
	py.fw[1].cuda = xstrdup("12.1");
	assert_true(needs_asked(&s, &py));
	/* ... unless Python was not asked at all */
	py.exe = NULL;
	assert_false(needs_asked(&s, &py));
	needs_python_release(&py);
	needs_scan_release(&s);
}

static void test_needs_scan_reads_a_folder_of_built_files(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct needs_want *w;
	char *tf, *py;
	const char *tfv[1], *pyv[1];

	framework(fx);
	tf = fx_path(fx, "fw/libtf.so");
	py = fx_path(fx, "fw/sub/libpy.so");
	tfv[0] = tf;
	pyv[0] = py;
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "fw", &err), CUENV_OK);
	needs_scan_finish(&s);
	/* two ELF files; the text file passed over without a word */
	assert_int_equal(s.files, 2);
	assert_int_equal(s.warnings.n, 0);
	assert_null(want_of(&s, "libcudart.so.12"));
	assert_int_equal(s.n, 3);
	assert_string_equal(s.v[0].soname, "libcudart.so.11.0");
	assert_files(&s.v[0].needed_by, tfv, 1);
	w = want_of(&s, "libcupti.so.11.2");
	assert_files(&w->named_by, tfv, 1);
	assert_int_equal(w->needed_by.n, 0);
	w = want_of(&s, "libcudnn.so.8");
	assert_files(&w->needed_by, pyv, 1);
	assert_files(&w->loaded_by, tfv, 1);
	assert_true(needs_asked(&s, NULL));
	needs_scan_release(&s);
	err_release(&err);
	free(tf);
	free(py);
}

static void test_needs_scan_marks_what_the_folder_provides(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *provider;

	stub(fx, "libcudart.so.12");
	cc_so(fx, "app/libcudart.so.12", "libcudart.so.12",
	      "int rt(void) { return 0; }\n", "");
	cc_so(fx, "app/libapp.so", "libapp.so", "int app(void) { return 0; }\n",
	      "libcudart.so.12");
	provider = fx_path(fx, "app/libcudart.so.12");
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "app", &err), CUENV_OK);
	needs_scan_finish(&s);
	assert_int_equal(s.files, 2);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.v[0].provided_by, provider);
	assert_false(needs_asked(&s, NULL));
	/* an installed toolkit with it is not where it is found */
	needs_installed_init(&in);
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	needs_match_installed(&s, NULL, NULL, &in);
	assert_non_null(in.pick.cuda);
	assert_null(s.v[0].found);
	needs_installed_release(&in);
	needs_scan_release(&s);
	err_release(&err);
	free(provider);
}

/*
 * What a file links of NVIDIA's beyond what frameworks load by name is
 * listed (torch 2.7.1's libtorch_cuda.so needs libcufile.so.0 and
 * libcusparseLt.so.0): not asked of cuenv, which does not install them;
 * such a name in the bytes alone is no load.
 */
static void test_needs_lists_what_cuenv_does_not_install(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;

	stub(fx, "libcufile.so.0");
	stub(fx, "libcusparseLt.so.0");
	stub(fx, "libnvToolsExt.so.1");
	cc_so(fx, "t/libtorch_cuda.so", "libtorch_cuda.so",
	      "const char s[] = \"libnvjpeg.so.12\";\n",
	      "libcufile.so.0 libcusparseLt.so.0 libnvToolsExt.so.1");
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "t", &err), CUENV_OK);
	needs_scan_finish(&s);
	assert_int_equal(s.n, 3);
	for (size_t i = 0; i < s.n; i++) {
		bool nvtx = !strcmp(s.v[i].soname, "libnvToolsExt.so.1");

		assert_int_equal(s.v[i].needed_by.n, 1);
		/* NVTX is a component of the toolkit cuenv installs */
		assert_int_equal(needs_want_managed(&s.v[i]), nvtx);
		assert_int_equal(needs_want_required(&s.v[i]), nvtx);
	}
	needs_scan_release(&s);
	err_release(&err);
}

/*
 * Loads whose version no file fixes (nvidia-cudnn-frontend 1.8.0: its
 * cudnn/__init__.py loads "libcudnn.so.*[0-9]", else "libcudnn.so", with
 * ctypes; its module names "libcudart.so") leave the GPU path unknown,
 * unless a file links that library or a report states its family.
 */
static void test_needs_unseen_loads_are_unknown(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct strv lines = STRV_INIT;

	cc_so(fx, "fe/cudnn/_compiled.so", "_compiled.so",
	      "const char s[] = \"libcudart.so\";\n", "");
	fx_write(fx, "fe/cudnn/__init__.py",
		 "import ctypes, glob\n"
		 "p = glob.glob('nvidia/cudnn/lib/libcudnn.so.*[0-9]')\n"
		 "lib = ctypes.CDLL(p[0] if p else 'libcudnn.so')\n"
		 "ops = 'libcudnn_ops.so.9'\n");
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "fe", &err), CUENV_OK);
	needs_scan_finish(&s);
	assert_int_equal(s.n, 0);
	assert_int_equal(needs_unknown(&s, NULL, &lines), 2);
	/* in the walk's order: __init__.py before _compiled.so */
	assert_non_null(strstr(lines.v[0], "cudnn/__init__.py loads "
					   "libcudnn.so with ctypes"));
	assert_non_null(strstr(lines.v[1], "libcudart.so, no version named"));
	/* a report of cuDNN and CUDA answers both */
	needs_scan_report(&s, "cudnn", "x", "12.1", "9.1");
	assert_int_equal(needs_unknown(&s, NULL, NULL), 0);
	needs_scan_release(&s);

	/* a versioned name, and source without ctypes, are no unseen load */
	fx_write(fx, "fe2/mod/__init__.py", "name = 'libcudnn.so'\n");
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "fe2", &err), CUENV_OK);
	needs_scan_finish(&s);
	assert_int_equal(needs_unknown(&s, NULL, NULL), 0);
	needs_scan_release(&s);
	strv_release(&lines);
	err_release(&err);
}

static void test_needs_scan_reads_a_file_named_as_path(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;

	framework(fx);
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "fw/sub/libpy.so", &err), CUENV_OK);
	needs_scan_finish(&s);
	assert_int_equal(s.files, 1);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.v[0].soname, "libcudnn.so.8");
	needs_scan_release(&s);
	err_release(&err);
}

static void test_needs_scan_refuses_a_named_file_that_is_not_elf(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;

	fx_write(fx, "notes.txt", "libcudart.so.12 in plain text\n");
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "notes.txt", &err), CUENV_E_USAGE);
	assert_int_equal(err.rc, CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "is not an ELF file"));
	assert_int_equal(s.files, 0);
	assert_int_equal(s.n, 0);
	needs_scan_release(&s);
	err_release(&err);
}

static void
test_needs_scan_corrupt_file_fails_alone_warns_in_folder(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *whole, *bad;
	struct buf cut = BUF_INIT;

	framework(fx);
	/* the first 100 bytes of an ELF file: the headers point past it */
	whole = fx_read(fx, "fw/libtf.so");
	fx_write_bytes(fx, "fw/broken.so", whole, 100);
	bad = fx_path(fx, "fw/broken.so");
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "fw/broken.so", &err), CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "corrupt ELF file"));
	err_release(&err);
	assert_int_equal(scan(fx, &s, "fw", &err), CUENV_OK);
	assert_int_equal(s.files, 2);
	assert_int_equal(s.warnings.n, 1);
	buf_printf(&cut, "skipped: corrupt ELF file '%s'", bad);
	assert_memory_equal(s.warnings.v[0], cut.data, cut.len);
	needs_scan_release(&s);
	err_release(&err);
	buf_release(&cut);
	free(whole);
	free(bad);
}

static void test_needs_scan_of_an_empty_folder_finds_nothing(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;

	fx_mkdir(fx, "empty");
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "empty", &err), CUENV_OK);
	needs_scan_finish(&s);
	assert_int_equal(s.files, 0);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.warnings.n, 0);
	assert_false(needs_asked(&s, NULL));
	needs_scan_release(&s);
	err_release(&err);
}

static void test_needs_scan_of_a_path_that_cannot_be_read(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;

	fx_touch(fx, "file");
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "missing.so", &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "cannot read '"));
	assert_non_null(strstr(err.msg.data, "No such file or directory"));
	/* a folder that is a file: stat itself fails */
	assert_int_equal(scan(fx, &s, "file/lib.so", &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "Not a directory"));
	assert_int_equal(s.files, 0);
	needs_scan_release(&s);
	err_release(&err);
}

static void
test_needs_scan_refuses_what_is_neither_file_nor_folder(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *fifo = fx_path(fx, "dir/pipe");

	fx_mkdir(fx, "dir");
	if (mkfifo(fifo, 0600))
		fail_msg("mkfifo: %s", strerror(errno));
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "dir/pipe", &err), CUENV_E_USAGE);
	assert_non_null(strstr(err.msg.data, "is not a file or a folder"));
	/* inside a folder it is passed over, never opened */
	assert_int_equal(scan(fx, &s, "dir", &err), CUENV_OK);
	assert_int_equal(s.files, 0);
	assert_int_equal(s.warnings.n, 0);
	needs_scan_release(&s);
	err_release(&err);
	free(fifo);
}

static void test_needs_scan_does_not_follow_links(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *lib, *fw;

	framework(fx);
	lib = fx_path(fx, "fw/sub/libpy.so");
	fw = fx_path(fx, "fw");
	fx_mkdir(fx, "links");
	fx_symlink(fx, lib, "links/libpy.so");
	fx_symlink(fx, fw, "links/fw");
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "links", &err), CUENV_OK);
	assert_int_equal(s.files, 0);
	assert_int_equal(s.n, 0);
	/* named as PATH, a link is followed */
	assert_int_equal(scan(fx, &s, "links/libpy.so", &err), CUENV_OK);
	assert_int_equal(s.files, 1);
	needs_scan_release(&s);
	err_release(&err);
	free(lib);
	free(fw);
}

static void test_needs_scan_warns_of_folders_nested_too_deep(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf rel = BUF_INIT;

	buf_adds(&rel, "deep");
	for (int i = 0; i < 66; i++)
		buf_adds(&rel, "/d");
	fx_mkdir(fx, rel.data);
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "deep", &err), CUENV_OK);
	assert_int_equal(s.warnings.n, 1);
	assert_non_null(strstr(s.warnings.v[0], "': nested too deep"));
	needs_scan_release(&s);
	err_release(&err);
	buf_release(&rel);
}

static void test_needs_scan_passes_over_what_it_cannot_open(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *locked, *tf;

	if (geteuid() == 0)
		skip(); /* root reads anything */
	locked = fx_path(fx, "fw/locked");
	tf = fx_path(fx, "fw/libtf.so");
	framework(fx);
	fx_mkdir(fx, "fw/locked");
	assert_int_equal(chmod(locked, 0), 0);
	assert_int_equal(chmod(tf, 0), 0);
	needs_scan_init(&s);
	assert_int_equal(scan(fx, &s, "fw", &err), CUENV_OK);
	assert_int_equal(s.files, 1); /* sub/libpy.so */
	assert_int_equal(s.warnings.n, 2);
	assert_non_null(strstr(s.warnings.v[0], "libtf.so"));
	assert_non_null(strstr(s.warnings.v[1], "locked': Permission denied"));
	assert_int_equal(scan(fx, &s, "fw/libtf.so", &err), CUENV_E_STORE);
	assert_int_equal(chmod(locked, 0700), 0);
	assert_int_equal(chmod(tf, 0600), 0);
	needs_scan_release(&s);
	err_release(&err);
	free(locked);
	free(tf);
}

/* ---- Python's answer ----------------------------------------------------- */

static void test_needs_python_parse_reads_each_framework(void **state)
{
	struct needs_python py;
	const char *text =
	    "{\"python\": \"3.11.4\", \"frameworks\": {"
	    "\"tensorflow\": {\"version\": \"2.6.0\", \"cuda\": \"11.2\","
	    " \"cudnn\": \"8\"},"
	    "\"torch\": {\"version\": \"2.1.0+cpu\", \"cuda\": null,"
	    " \"cudnn\": \"unknown\"},"
	    "\"jax\": {\"absent\": \"ModuleNotFoundError: no jax\"}}}";

	(void)state;
	needs_python_init(&py, "python3");
	py.fw[0].absent = xstrdup("no answer from python3");
	assert_int_equal(needs_python_parse(&py, text, strlen(text)), 0);
	assert_string_equal(py.version, "3.11.4");
	assert_null(py.fw[0].absent);
	assert_string_equal(py.fw[0].version, "2.6.0");
	assert_string_equal(py.fw[0].cuda, "11.2");
	assert_string_equal(py.fw[0].cudnn, "8");
	/* no CUDA, and a cuDNN that is not a version */
	assert_string_equal(py.fw[1].version, "2.1.0+cpu");
	assert_null(py.fw[1].cuda);
	assert_null(py.fw[1].cudnn);
	assert_null(py.fw[2].version);
	assert_string_equal(py.fw[2].absent, "ModuleNotFoundError: no jax");
	assert_true(needs_asked(&(struct needs_scan){0}, &py));
	needs_python_release(&py);
}

static void test_needs_python_parse_keeps_what_is_not_answered(void **state)
{
	struct needs_python py;
	const char *noise = "TensorFlow says hello";
	const char *partial =
	    "{\"frameworks\": {\"torch\": {\"cuda\": \"12.1\"}}}";

	(void)state;
	needs_python_init(&py, "python3");
	for (int i = 0; i < NEEDS_FRAMEWORKS; i++)
		py.fw[i].absent = xstrdup("no answer from python3");
	assert_int_equal(needs_python_parse(&py, noise, strlen(noise)), -1);
	assert_string_equal(py.fw[1].absent, "no answer from python3");
	assert_int_equal(needs_python_parse(&py, partial, strlen(partial)), 0);
	assert_null(py.version);
	assert_string_equal(py.fw[0].absent, "no answer from python3");
	assert_null(py.fw[1].absent);
	assert_string_equal(py.fw[1].version, "?");
	assert_string_equal(py.fw[1].cuda, "12.1");
	needs_python_release(&py);
}

/* Found by fuzz_needs_python: an empty version read as "", shown as none. */
static void test_needs_python_parse_empty_version_is_unknown(void **state)
{
	struct needs_python py;
	const char *text = "{\"frameworks\": {\"torch\": {\"version\": \"\","
			   " \"cuda\": \"12.1\"}}}";

	(void)state;
	needs_python_init(&py, "python3");
	assert_int_equal(needs_python_parse(&py, text, strlen(text)), 0);
	assert_string_equal(py.fw[1].version, "?");
	assert_string_equal(py.fw[1].cuda, "12.1");
	needs_python_release(&py);
}

/* ---- installed selections ------------------------------------------------ */

static void test_needs_installed_toolkit_that_gives_all_is_picked(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;
	char *cudart = fx_path(fx, "11.2.2/lib64/libcudart.so.11.0"),
	     *cupti = fx_path(fx, "11.2.2/extras/CUPTI/lib64/libcupti.so.11.2");

	needs_scan_init(&s);
	needs_installed_init(&in);
	add(&s, "/tf/libtf.so", NULL, "libcudart.so.11.0", "libcupti.so.11.2");
	needs_scan_finish(&s);
	cuda_at(fx, &in.cudas, "11.2.2", 11,
		"lib64/libcudart.so.11.0 extras/CUPTI/lib64/libcupti.so.11.2");
	cuda_at(fx, &in.cudas, "12.4.1", 12,
		"lib64/libcudart.so.12 extras/CUPTI/lib64/libcupti.so.12");
	needs_match_installed(&s, NULL, NULL, &in);
	assert_non_null(in.pick.cuda);
	assert_string_equal(in.pick.cuda->version, "11.2.2");
	assert_null(in.pick.cudnn);
	assert_null(in.pick.cupti);
	assert_false(in.active);
	assert_string_equal(want_of(&s, "libcudart.so.11.0")->found, cudart);
	assert_string_equal(want_of(&s, "libcupti.so.11.2")->found, cupti);
	/* newest first */
	assert_int_equal(in.report.n, 2);
	assert_string_equal(in.report.v[0], "cuda 12.4.1: lacks "
					    "libcudart.so.11.0, "
					    "libcupti.so.11.2 (may load)");
	assert_string_equal(in.report.v[1], "cuda 11.2.2: provides everything");
	needs_installed_release(&in);
	needs_scan_release(&s);
	free(cudart);
	free(cupti);
}

/* A build's own statement "CUDA 12.1+" is met by 12.1 itself: the
 * minimum counts as enough (minor-version compatibility from there). */
static void test_needs_installed_at_the_minimum_is_enough(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;
	struct needs_report *r;

	needs_scan_init(&s);
	needs_installed_init(&in);
	add(&s, "/t/libt.so", NULL, "libcudart.so.12", "");
	needs_scan_finish(&s);
	s.rep = xrealloc(s.rep, (s.nrep + 1) * sizeof(*s.rep));
	r = &s.rep[s.nrep++];
	memset(r, 0, sizeof(*r));
	r->framework = xstrdup("torch");
	r->source = xstrdup("/t/version.py");
	r->cuda = xstrdup("12.1");
	cuda_at(fx, &in.cudas, "12.1", 12, "lib64/libcudart.so.12");
	needs_match_installed(&s, NULL, NULL, &in);
	assert_non_null(in.pick.cuda);
	assert_string_equal(in.pick.cuda->version, "12.1");
	assert_string_equal(in.report.v[0], "cuda 12.1: provides everything");
	needs_installed_release(&in);
	needs_scan_release(&s);
}

static void test_needs_installed_that_lacks_a_soname_is_not_picked(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;

	needs_scan_init(&s);
	needs_installed_init(&in);
	add(&s, "/t/libt.so", NULL, "libcudart.so.12 libcublas.so.12", "");
	needs_scan_finish(&s);
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	needs_match_installed(&s, NULL, NULL, &in);
	assert_null(in.pick.cuda);
	assert_null(want_of(&s, "libcudart.so.12")->found);
	assert_int_equal(in.report.n, 1);
	assert_string_equal(in.report.v[0],
			    "cuda 12.4.1: lacks libcublas.so.12");
	needs_installed_release(&in);
	needs_scan_release(&s);
}

static void test_needs_installed_cudnn_must_be_built_for_the_cuda(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;
	struct buf line = BUF_INIT;

	needs_scan_init(&s);
	needs_installed_init(&in);
	add(&s, "/t/libt.so", NULL, "libcudart.so.12 libcudnn.so.8", "");
	needs_scan_finish(&s);
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	cudnn_at(fx, &in.cudnns, "8.9.7", 11);
	needs_match_installed(&s, NULL, NULL, &in);
	assert_null(in.pick.cuda);
	assert_string_equal(in.report.v[0], "cuda 12.4.1: lacks libcudnn.so.8");
	needs_installed_release(&in);

	/* the same cuDNN built for CUDA 12 does */
	needs_installed_init(&in);
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	cudnn_at(fx, &in.cudnns, "8.9.7", 11);
	cudnn_at(fx, &in.cudnns, "8.9.7", 12);
	needs_match_installed(&s, NULL, NULL, &in);
	assert_non_null(in.pick.cuda);
	assert_non_null(in.pick.cudnn);
	assert_int_equal(in.pick.cudnn->cuda_major, 12);
	needs_combo_describe(&in.pick, &line);
	assert_string_equal(line.data, "cuda 12.4.1 + cudnn 8.9.7 (cuda12)");
	assert_string_equal(in.report.v[0],
			    "cuda 12.4.1 + cudnn 8.9.7 (cuda12): provides "
			    "everything");
	needs_installed_release(&in);

	/* of two that would do, the newest */
	needs_installed_init(&in);
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	cudnn_at(fx, &in.cudnns, "8.6.0", 12);
	cudnn_at(fx, &in.cudnns, "8.9.7", 12);
	needs_match_installed(&s, NULL, NULL, &in);
	assert_string_equal(in.pick.cudnn->version, "8.9.7");
	needs_installed_release(&in);
	needs_scan_release(&s);

	/* and none where nothing asks for cuDNN */
	needs_scan_init(&s);
	add(&s, "/t/libt.so", NULL, "libcudart.so.12", "");
	needs_scan_finish(&s);
	needs_installed_init(&in);
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	cudnn_at(fx, &in.cudnns, "8.9.7", 12);
	needs_match_installed(&s, NULL, NULL, &in);
	assert_non_null(in.pick.cuda);
	assert_null(in.pick.cudnn);
	needs_installed_release(&in);
	needs_scan_release(&s);
	buf_release(&line);
}

static void test_needs_installed_cupti_of_another_release(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;
	struct buf line = BUF_INIT;

	needs_scan_init(&s);
	needs_installed_init(&in);
	add(&s, "/p/libprof.so", NULL, "libcudart.so.12", "libcupti.so.11.2");
	needs_scan_finish(&s);
	cuda_at(fx, &in.cudas, "12.4.1", 12,
		"lib64/libcudart.so.12 extras/CUPTI/lib64/libcupti.so.12");
	fx_touch(fx, "cupti-11.2.2/lib/libcupti.so.11.2");
	fx_list_push(&in.cuptis,
		     install_at(fx, KIT_CUPTI, "11.2.2", 11, "cupti-11.2.2"));
	needs_match_installed(&s, NULL, NULL, &in);
	assert_non_null(in.pick.cupti);
	needs_combo_describe(&in.pick, &line);
	assert_string_equal(line.data, "cuda 12.4.1 + cupti 11.2.2");
	assert_non_null(strstr(want_of(&s, "libcupti.so.11.2")->found,
			       "cupti-11.2.2/lib/libcupti.so.11.2"));
	needs_installed_release(&in);
	needs_scan_release(&s);

	/* not asked for, it is left out */
	needs_scan_init(&s);
	needs_installed_init(&in);
	add(&s, "/p/libprof.so", NULL, "libcudart.so.12", "");
	needs_scan_finish(&s);
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	fx_list_push(&in.cuptis,
		     install_at(fx, KIT_CUPTI, "11.2.2", 11, "cupti-11.2.2"));
	needs_match_installed(&s, NULL, NULL, &in);
	assert_non_null(in.pick.cuda);
	assert_null(in.pick.cupti);
	needs_installed_release(&in);
	needs_scan_release(&s);
	buf_release(&line);
}

static void test_needs_installed_prefers_the_active_selection(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;
	/* the activation's own copy of the 12.2.2 install */
	struct store_version *mine =
	    install_at(fx, KIT_CUDA, "12.2.2", 12, "12.2.2");
	struct needs_combo active = {mine, NULL, NULL};

	needs_scan_init(&s);
	add(&s, "/t/libt.so", NULL, "libcudart.so.12", "");
	needs_scan_finish(&s);
	needs_installed_init(&in);
	cuda_at(fx, &in.cudas, "12.2.2", 12, "lib64/libcudart.so.12");
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	needs_match_installed(&s, NULL, NULL, &in);
	assert_string_equal(in.pick.cuda->version, "12.4.1");
	assert_false(in.active);
	needs_installed_release(&in);

	needs_installed_init(&in);
	cuda_at(fx, &in.cudas, "12.2.2", 12, "lib64/libcudart.so.12");
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	needs_match_installed(&s, NULL, &active, &in);
	assert_true(in.active);
	/* the store's install, not the activation's */
	assert_ptr_equal(in.pick.cuda, in.cudas.v[0]);
	needs_installed_release(&in);
	store_version_free(mine);
	needs_scan_release(&s);
}

static void
test_needs_installed_ignores_an_active_selection_that_lacks(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;
	struct store_version *mine =
	    install_at(fx, KIT_CUDA, "11.8.0", 11, "11.8.0");
	struct needs_combo active = {mine, NULL, NULL};

	needs_scan_init(&s);
	add(&s, "/t/libt.so", NULL, "libcudart.so.12", "");
	needs_scan_finish(&s);
	needs_installed_init(&in);
	cuda_at(fx, &in.cudas, "11.8.0", 11, "lib64/libcudart.so.11.0");
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	needs_match_installed(&s, NULL, &active, &in);
	assert_false(in.active);
	assert_string_equal(in.pick.cuda->version, "12.4.1");
	needs_installed_release(&in);
	store_version_free(mine);
	needs_scan_release(&s);
}

static void test_needs_installed_must_suit_the_frameworks(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;
	struct needs_python py;

	needs_scan_init(&s);
	needs_installed_init(&in);
	needs_python_init(&py, "python3");
	py.fw[1].version = xstrdup("2.2.0");
	py.fw[1].cuda = xstrdup("12.1");
	needs_scan_finish(&s);
	/* older, of an older major, of a newer major: none suits */
	cuda_at(fx, &in.cudas, "11.8.0", 11, "lib64/libcudart.so.11.0");
	cuda_at(fx, &in.cudas, "12.0.1", 12, "lib64/libcudart.so.12");
	cuda_at(fx, &in.cudas, "13.0.0", 13, "lib64/libcudart.so.13");
	needs_match_installed(&s, &py, NULL, &in);
	assert_null(in.pick.cuda);
	assert_int_equal(in.report.n, 3);
	assert_string_equal(in.report.v[0], "cuda 13.0.0: lacks CUDA 12.1+ "
					    "(torch)");
	assert_string_equal(in.report.v[1], "cuda 12.0.1: lacks CUDA 12.1+ "
					    "(torch)");
	assert_string_equal(in.report.v[2], "cuda 11.8.0: lacks CUDA 12.1+ "
					    "(torch)");
	needs_installed_release(&in);

	/* a later minor of the same major suits it */
	needs_installed_init(&in);
	cuda_at(fx, &in.cudas, "11.8.0", 11, "lib64/libcudart.so.11.0");
	cuda_at(fx, &in.cudas, "12.4.1", 12, "lib64/libcudart.so.12");
	needs_match_installed(&s, &py, NULL, &in);
	assert_non_null(in.pick.cuda);
	assert_string_equal(in.pick.cuda->version, "12.4.1");
	needs_installed_release(&in);
	needs_python_release(&py);
	needs_scan_release(&s);
}

static void test_needs_installed_load_lists_the_store(void **state)
{
	struct fixture *fx = *state;
	struct needs_installed in;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct store st;
	struct store_version *cu = install_at(fx, KIT_CUDA, "12.4.1", 12,
					      "toolkit"),
			     *dn = install_at(fx, KIT_CUDNN, "8.9.7", 12,
					      "cudnn");
	char *root = fx_path(fx, "store");

	free(cu->dir);
	cu->dir = NULL;
	free(dn->dir);
	dn->dir = NULL;
	if (store_open(&st, root, true, &err) ||
	    store_register(&st, cu, &err) || store_register(&st, dn, &err))
		fail_msg("registering: %s", err.msg.data);
	store_release(&st);
	fx_write(fx, "store/versions/cuda/9.9.9/.cuenv-receipt", "{");
	needs_installed_init(&in);
	assert_int_equal(needs_installed_load(&in, root, &err), CUENV_OK);
	assert_int_equal(in.cudas.n, 1);
	assert_string_equal(in.cudas.v[0]->version, "12.4.1");
	assert_int_equal(in.cudnns.n, 1);
	assert_int_equal(in.cudnns.v[0]->cuda_major, 12);
	assert_int_equal(in.cuptis.n, 0);
	assert_int_equal(in.warnings.n, 1);
	assert_non_null(strstr(in.warnings.v[0], "9.9.9"));
	needs_installed_release(&in);
	store_version_free(cu);
	store_version_free(dn);
	err_release(&err);
	free(root);
}

/* needs_installed_here: the store, and the selection in force in cwd. */
static void test_needs_installed_here_prefers_the_selection(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct strv warnings = STRV_INIT;
	struct buf ld = BUF_INIT;
	struct store st;
	struct store_version *old =
				 install_at(fx, KIT_CUDA, "12.2.2", 12, "c122"),
			     *new =
				 install_at(fx, KIT_CUDA, "12.4.1", 12, "c124");
	char *root = fx_path(fx, "store"), *proj = fx_path(fx, "proj");
	char *foreign = fx_path(fx, "c118/lib64");
	char *plain[] = {"HOME=/home/u", NULL};
	char *shadowed[] = {NULL, NULL};

	fake_cuda_classic(fx, "c122", 12);
	fake_cuda_classic(fx, "c124", 12);
	fake_cuda_classic(fx, "c118", 11);
	free(old->dir);
	old->dir = NULL;
	free(new->dir);
	new->dir = NULL;
	if (store_open(&st, root, true, &err) ||
	    store_register(&st, old, &err) || store_register(&st, new, &err))
		fail_msg("registering: %s", err.msg.data);
	store_release(&st);
	fx_write(fx, "store/versions/cuda/9.9.9/.cuenv-receipt", "{");
	needs_scan_init(&s);
	add(&s, "/t/libt.so", NULL, "libcudart.so.12", "");
	needs_scan_finish(&s);
	/* nothing selected here: the newest */
	fx_mkdir(fx, "proj");
	needs_installed_init(&in);
	assert_int_equal(needs_installed_here(root, proj, plain, &s, NULL, &in,
					      &warnings, &err),
			 CUENV_OK);
	assert_string_equal(in.pick.cuda->version, "12.4.1");
	assert_false(in.active);
	assert_int_equal(warnings.n, 1);
	assert_true(
	    !strncmp(warnings.v[0], "skipped an incomplete version: ", 31));
	assert_non_null(strstr(warnings.v[0], "9.9.9"));
	needs_installed_release(&in);
	strv_release(&warnings);
	/* the selection in force wins when it gives what is needed */
	fx_write(fx, "proj/.cuenv", "cuda = 12.2\n");
	buf_printf(&ld, "LD_LIBRARY_PATH=%s", foreign);
	shadowed[0] = ld.data;
	needs_installed_init(&in);
	assert_int_equal(needs_installed_here(root, proj, shadowed, &s, NULL,
					      &in, &warnings, &err),
			 CUENV_OK);
	assert_string_equal(in.pick.cuda->version, "12.2.2");
	assert_true(in.active);
	/* the listing's warnings, then the activation's (its listing too) */
	assert_int_equal(warnings.n, 3);
	assert_non_null(strstr(warnings.v[0], "9.9.9"));
	assert_non_null(strstr(warnings.v[1], "9.9.9"));
	assert_true(!strncmp(warnings.v[2], "LD_LIBRARY_PATH entry ", 22));
	assert_non_null(strstr(warnings.v[2], foreign));
	needs_installed_release(&in);
	strv_release(&warnings);
	/* a selection that cannot be used is no selection */
	fx_write(fx, "proj/.cuenv", "cuda = 12.3\n");
	needs_installed_init(&in);
	assert_int_equal(needs_installed_here(root, proj, plain, &s, NULL, &in,
					      &warnings, &err),
			 CUENV_OK);
	assert_string_equal(in.pick.cuda->version, "12.4.1");
	assert_false(in.active);
	assert_int_equal(err.rc, CUENV_OK);
	needs_installed_release(&in);
	strv_release(&warnings);
	needs_scan_release(&s);
	store_version_free(old);
	store_version_free(new);
	buf_release(&ld);
	err_release(&err);
	free(root);
	free(proj);
	free(foreign);
}

/* ---- the catalogue ------------------------------------------------------- */

#define SHA "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define URL "https://developer.download.nvidia.com/compute/"

static const char runfiles[] =
    "cuda_version\tplatform\turl\tsha256\n"
    "10.2.89\tlinux-x86_64\t" URL "10.2.89.run\t" SHA "\n"
    "11.0.3\tlinux-x86_64\t" URL "11.0.3.run\t" SHA "\n"
    "11.2.2\tlinux-x86_64\t" URL "11.2.2.run\t" SHA "\n"
    "11.8.0\tlinux-x86_64\t" URL "11.8.0.run\t" SHA "\n"
    "12.2.2\tlinux-x86_64\t" URL "12.2.2.run\t" SHA "\n"
    "12.4.1\tlinux-x86_64\t" URL "12.4.1.run\t" SHA "\n";

static const char tarballs[] =
    "cudnn_version\tcuda_major_or_range\tplatform\turl\tsha256\n"
    "8.1.1.33\t11.2\tlinux-x86_64\t" URL "a.tgz\t" SHA "\n"
    "8.7.0.84\t11\tlinux-x86_64\t" URL "b.tar.xz\t" SHA "\n"
    "8.9.7.29\t11\tlinux-x86_64\t" URL "c.tar.xz\t" SHA "\n"
    "8.9.7.29\t12\tlinux-x86_64\t" URL "d.tar.xz\t" SHA "\n"
    "9.1.0.70\t12\tlinux-x86_64\t" URL "e.tar.xz\t" SHA "\n";

static void catalogue(struct catalog *cat)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	if (catalog_parse_table(cat, KIT_CUDA, "r.tsv", runfiles,
				strlen(runfiles), "linux-x86_64", &err) ||
	    catalog_parse_table(cat, KIT_CUDNN, "t.tsv", tarballs,
				strlen(tarballs), "linux-x86_64", &err))
		fail_msg("catalogue: %s", err.msg.data);
}

/* The range needs_describe gives soname, against the test catalogue. */
static char *range_of(const char *soname)
{
	struct catalog cat = {0};
	struct needs_scan s;
	char *r;

	catalogue(&cat);
	needs_scan_init(&s);
	add(&s, "/f", NULL, soname, "");
	needs_scan_finish(&s);
	assert_int_equal(s.n, 1);
	needs_describe(&s, &cat);
	r = s.v[0].range;
	s.v[0].range = NULL;
	needs_scan_release(&s);
	catalog_release(&cat);
	return r;
}

static void assert_range(const char *soname, const char *want)
{
	char *got = range_of(soname);

	assert_string_equal(got, want);
	free(got);
}

static void test_needs_describe_ranges_by_minor(void **state)
{
	(void)state;
	/* every 11.x gives cudart 11.0; 12.x gives 12 */
	assert_range("libcudart.so.11.0", "CUDA 11.x");
	assert_range("libcudart.so.12", "CUDA 12.x");
	/* CUPTI's soname is its release's own */
	assert_range("libcupti.so.11.2", "CUDA 11.2");
	/* NVRTC 11.2 is 11.2 to 11.8, not 11.0 */
	assert_range("libnvrtc.so.11.2", "CUDA 11.2-11.8");
	/* cuSOLVER 11: 11.2 on, and all of 12 */
	assert_range("libcusolver.so.11", "CUDA 11.2-11.8, 12.x");
	/* cuFFT 10 from 10.1 to 11.8 */
	assert_range("libcufft.so.10", "CUDA 10.x, 11.x");
	assert_range("libcudart.so.13", "no CUDA release in the catalogue");
	assert_range("libcudnn.so.8", "cuDNN 8.x");
	assert_range("libnccl.so.2", "NCCL (cuenv does not install it)");
}

static void test_needs_describe_without_a_catalogue(void **state)
{
	struct catalog cat = {0};
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	add(&s, "/f", NULL, "libcudart.so.12 libcudnn.so.9", "");
	needs_scan_finish(&s);
	needs_describe(&s, &cat);
	assert_string_equal(s.v[0].range, "no CUDA release in the catalogue");
	assert_string_equal(s.v[1].range, "cuDNN 9.x");
	needs_scan_release(&s);
}

/*
 * needs_find_offer for the wants needed (space-separated) and py,
 * against the test catalogue; o gets the result, o->line checked against
 * line (NULL: none).
 */
static void offer_for(const char *needed, const struct needs_python *py,
		      struct catalog *cat, struct needs_offer *o,
		      const char *line)
{
	struct needs_scan s;

	catalogue(cat);
	needs_scan_init(&s);
	needs_offer_init(o);
	add(&s, "/f", NULL, needed, "");
	needs_scan_finish(&s);
	needs_find_offer(cat, &s, py, o);
	if (line) {
		assert_non_null(o->line);
		assert_string_equal(o->line, line);
		assert_int_equal(o->why.len, 0);
	} else {
		assert_null(o->line);
		assert_null(o->cuda);
	}
	needs_scan_release(&s);
}

static void test_needs_offer_takes_the_newest_that_gives_all(void **state)
{
	struct catalog cat = {0};
	struct needs_offer o;

	(void)state;
	offer_for("libcudart.so.11.0 libcublas.so.11", NULL, &cat, &o,
		  "cuenv install 11.8");
	assert_string_equal(o.cuda->version, "11.8.0");
	assert_null(o.cudnn);
	assert_null(o.cupti);
	needs_offer_release(&o);
	catalog_release(&cat);
}

static void test_needs_offer_cudnn_is_built_for_the_cuda_major(void **state)
{
	struct catalog cat = {0};
	struct needs_offer o;

	(void)state;
	offer_for("libcudart.so.11.0 libcudnn.so.8", NULL, &cat, &o,
		  "cuenv install 11.8 --cudnn 8");
	assert_string_equal(o.cudnn->version, "8.9.7.29");
	assert_int_equal(o.cudnn->cuda_major, 11);
	needs_offer_release(&o);
	catalog_release(&cat);

	offer_for("libcudart.so.12 libcudnn.so.8", NULL, &cat, &o,
		  "cuenv install 12.4 --cudnn 8");
	assert_string_equal(o.cuda->version, "12.4.1");
	assert_string_equal(o.cudnn->version, "8.9.7.29");
	assert_int_equal(o.cudnn->cuda_major, 12);
	needs_offer_release(&o);
	catalog_release(&cat);

	/* cuDNN 9 was built for CUDA 12 only */
	offer_for("libcudart.so.11.0 libcudnn.so.9", NULL, &cat, &o, NULL);
	assert_string_equal(o.why.data,
			    "no CUDA release in the catalogue gives all of "
			    "them");
	needs_offer_release(&o);
	catalog_release(&cat);
}

static void test_needs_offer_refuses_two_cudnn_majors(void **state)
{
	struct catalog cat = {0};
	struct needs_offer o;

	(void)state;
	offer_for("libcudnn.so.8 libcudnn.so.9", NULL, &cat, &o, NULL);
	assert_string_equal(o.why.data,
			    "they ask for two cuDNN majors (8 and 9)");
	needs_offer_release(&o);
	catalog_release(&cat);
}

static void test_needs_offer_adds_cupti_of_another_release(void **state)
{
	struct catalog cat = {0};
	struct needs_offer o;

	(void)state;
	offer_for("libcudart.so.12 libcupti.so.11.2", NULL, &cat, &o,
		  "cuenv install 12.4 --cupti 11.2");
	assert_string_equal(o.cupti->version, "11.2.2");
	needs_offer_release(&o);
	catalog_release(&cat);

	/* a release with its own CUPTI comes first */
	offer_for("libcudart.so.11.0 libcupti.so.11.2", NULL, &cat, &o,
		  "cuenv install 11.2");
	assert_null(o.cupti);
	needs_offer_release(&o);
	catalog_release(&cat);
}

static void test_needs_offer_follows_the_frameworks(void **state)
{
	struct catalog cat = {0};
	struct needs_offer o;
	struct needs_python py;

	(void)state;
	/* TensorFlow 2.6 alone (11.2, cuDNN 8): 11.2 itself, not the
	 * newest 11.x that would also do */
	needs_python_init(&py, "python3");
	py.fw[0].cuda = xstrdup("11.2");
	py.fw[0].cudnn = xstrdup("8");
	offer_for("libcudart.so.11.0", &py, &cat, &o,
		  "cuenv install 11.2 --cudnn 8");
	assert_string_equal(o.cuda->version, "11.2.2");
	needs_offer_release(&o);
	catalog_release(&cat);

	/* and PyTorch cu118 (cuDNN 8.7) beside it: the newest report,
	 * and the cuDNN it names */
	py.fw[1].cuda = xstrdup("11.8");
	py.fw[1].cudnn = xstrdup("8.7.0");
	offer_for("libcudart.so.11.0", &py, &cat, &o,
		  "cuenv install 11.8 --cudnn 8.7");
	assert_string_equal(o.cudnn->version, "8.7.0.84");
	needs_offer_release(&o);
	catalog_release(&cat);
	needs_python_release(&py);

	/* no release is 12.1 itself: the newest that suits it */
	needs_python_init(&py, "python3");
	py.fw[1].cuda = xstrdup("12.1");
	offer_for("", &py, &cat, &o, "cuenv install 12.4");
	needs_offer_release(&o);
	catalog_release(&cat);

	/* a framework built for CUDA 12 rules out what the files ask */
	offer_for("libcudart.so.11.0", &py, &cat, &o, NULL);
	needs_offer_release(&o);
	catalog_release(&cat);
	needs_python_release(&py);
}

/*
 * Builds of one library for several CUDA releases (bitsandbytes 0.45.5's
 * libbitsandbytes_cuda117.so ... _cuda128.so, each linking its CUDA's
 * runtime and cuBLAS) are one requirement: any one with all it needs
 * meets it; a build without a CUDA tag (_cpu) is none of them, and one
 * tagged file alone is no alternative.
 */
static void test_needs_alternative_builds_are_one_requirement(void **state)
{
	struct fixture *fx = *state;
	struct catalog cat = {0};
	struct needs_scan s;
	struct needs_installed in;
	struct needs_offer o;

	needs_scan_init(&s);
	add(&s, "/p/bnb/libbitsandbytes_cuda118.so", NULL,
	    "libcudart.so.11.0 libcublas.so.11", "");
	add(&s, "/p/bnb/libbitsandbytes_cuda126.so", NULL,
	    "libcudart.so.12 libcublas.so.12", "");
	add(&s, "/p/bnb/libbitsandbytes_cpu.so", NULL, "", "");
	add(&s, "/p/other/libops_cuda12.so", NULL, "libcufft.so.11", "");
	needs_scan_finish(&s);
	assert_int_equal(s.nalt, 1);
	assert_string_equal(s.alt[0].pattern,
			    "/p/bnb/libbitsandbytes_cuda*.so");
	assert_int_equal(s.alt[0].files.n, 2);
	for (size_t i = 0; i < s.n; i++)
		assert_int_equal(s.v[i].alternative,
				 strcmp(s.v[i].soname, "libcufft.so.11") != 0);
	assert_true(needs_asked(&s, NULL));

	/* CUDA 12's runtime and cuBLAS (and cuFFT 11's file): the _cuda126
	 * build has all it needs */
	needs_installed_init(&in);
	cuda_at(fx, &in.cudas, "12.4.1", 12,
		"lib64/libcudart.so.12 lib64/libcublas.so.12 "
		"lib64/libcufft.so.11");
	needs_match_installed(&s, NULL, NULL, &in);
	assert_non_null(in.pick.cuda);
	assert_string_equal(s.alt[0].met, "/p/bnb/libbitsandbytes_cuda126.so");
	needs_installed_release(&in);

	/* the runtime without cuBLAS: no build has all it needs */
	needs_installed_init(&in);
	cuda_at(fx, &in.cudas, "12.5.0", 12,
		"lib64/libcudart.so.12 lib64/libcufft.so.11");
	needs_match_installed(&s, NULL, NULL, &in);
	assert_null(in.pick.cuda);
	needs_installed_release(&in);
	needs_scan_release(&s);

	/* the catalogue: a release that gives one build's libraries, not
	 * one that gives both builds' (none does) */
	catalogue(&cat);
	needs_scan_init(&s);
	needs_offer_init(&o);
	add(&s, "/p/libx_cu118.so", NULL, "libcudart.so.11.0", "");
	add(&s, "/p/libx_cu124.so", NULL, "libcudart.so.12", "");
	needs_scan_finish(&s);
	needs_find_offer(&cat, &s, NULL, &o);
	assert_non_null(o.line);
	assert_int_equal(o.cuda->cuda_major, 12);
	needs_offer_release(&o);
	needs_scan_release(&s);
	catalog_release(&cat);
}

static void test_needs_offer_without_a_catalogue(void **state)
{
	struct catalog cat = {0};
	struct needs_scan s;
	struct needs_offer o;

	(void)state;
	needs_scan_init(&s);
	needs_offer_init(&o);
	add(&s, "/f", NULL, "libcudart.so.12", "");
	needs_scan_finish(&s);
	needs_find_offer(&cat, &s, NULL, &o);
	assert_null(o.line);
	assert_string_equal(o.why.data,
			    "no CUDA release in the catalogue gives all of "
			    "them");
	needs_offer_release(&o);
	needs_scan_release(&s);
}

/* ---- what the frameworks' own files say ---------------------------------- */

static void read_meta(struct needs_scan *s, const char *name, const char *t)
{
	needs_read_metadata(s, name, t, strlen(t));
}

static void test_needs_metadata_names_the_files_it_reads(void **state)
{
	(void)state;
	assert_true(needs_metadata_name(
	    "/sp/tensorflow/python/platform/build_info.py"));
	assert_true(needs_metadata_name("tensorflow/python/platform/"
					"build_info.py"));
	assert_true(needs_metadata_name("/sp/torch/version.py"));
	assert_true(needs_metadata_name("/sp/torch-2.1.2.dist-info/METADATA"));
	assert_false(needs_metadata_name("/sp/mytorch/version.py"));
	assert_false(needs_metadata_name("/sp/x/build_info.py"));
	assert_false(needs_metadata_name("/sp/torch-2.1.2.dist-info/RECORD"));
	assert_false(needs_metadata_name("/sp/METADATA"));
	/* PEP 658: the wheel's core metadata, served beside it */
	assert_true(needs_metadata_name(
	    "torch-2.1.2-cp310-cp310-manylinux1_x86_64.whl.metadata"));
	assert_false(needs_metadata_name(".whl.metadata"));
	assert_false(needs_metadata_name("torch-2.1.2.tar.gz.metadata"));
}

static void test_needs_metadata_reads_a_pep658_file(void **state)
{
	static const char meta[] =
	    "Metadata-Version: 2.1\nName: torch\nVersion: 2.1.2\n"
	    "Requires-Dist: nvidia-cuda-runtime-cu12 (==12.1.105) ; "
	    "platform_system == \"Linux\"\n"
	    "Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; "
	    "platform_system == \"Linux\"\n\nPyTorch\n";
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	assert_true(needs_read_metadata(
	    &s, "torch-2.1.2-cp310-cp310-manylinux1_x86_64.whl.metadata", meta,
	    sizeof(meta) - 1));
	assert_int_equal(s.nrep, 1);
	assert_string_equal(s.rep[0].framework, "torch");
	assert_string_equal(s.rep[0].cuda, "12.1");
	assert_string_equal(s.rep[0].cudnn, "8.9.2");
	needs_scan_release(&s);
}

static void test_needs_metadata_reads_tensorflow_build_info(void **state)
{
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	/* TensorFlow 2.6.5, Linux, as generated */
	read_meta(&s, "/a/tensorflow/python/platform/build_info.py",
		  "import collections\n\nbuild_info = collections."
		  "OrderedDict([('cpu_compiler', '/dt7/usr/bin/gcc'), "
		  "('cuda_compute_capabilities', ['sm_35', 'compute_80']), "
		  "('cuda_version', '11.2'), ('cudnn_version', '8'), "
		  "('is_cuda_build', True)])\n");
	/* TensorFlow 2.10.1, Windows */
	read_meta(&s, "/b/tensorflow/python/platform/build_info.py",
		  "build_info = collections.OrderedDict([('cuda_version', "
		  "'64_112'), ('cudart_dll_name', 'cudart64_112.dll'), "
		  "('cudnn_dll_name', 'cudnn64_8.dll'), ('cudnn_version', "
		  "'64_8'), ('nvcuda_dll_name', 'nvcuda.dll')])\n");
	/* a CPU build says nothing of CUDA */
	read_meta(&s, "/c/tensorflow/python/platform/build_info.py",
		  "build_info = collections.OrderedDict([('is_cuda_build', "
		  "False)])\n");
	assert_int_equal(s.nrep, 2);
	assert_string_equal(s.rep[0].framework, "tensorflow");
	assert_string_equal(s.rep[0].cuda, "11.2");
	assert_string_equal(s.rep[0].cudnn, "8");
	assert_int_equal(s.rep[0].dlls.n, 0);
	assert_string_equal(s.rep[1].cuda, "11.2");
	assert_string_equal(s.rep[1].cudnn, "8");
	assert_int_equal(s.rep[1].dlls.n, 3);
	assert_string_equal(s.rep[1].dlls.v[0], "cudart64_110.dll");
	assert_string_equal(s.rep[1].dlls.v[1], "cudnn64_8.dll");
	assert_true(needs_asked(&s, NULL));
	needs_scan_release(&s);
}

static void test_needs_metadata_reads_torch_version_py(void **state)
{
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	read_meta(&s, "/sp/torch/version.py",
		  "__all__ = ['__version__', 'debug', 'cuda', 'git_version']\n"
		  "__version__ = '2.1.2+cu121'\ndebug = False\n"
		  "cuda: Optional[str] = '12.1'\nhip: Optional[str] = None\n");
	/* a CPU build */
	read_meta(&s, "/cpu/torch/version.py",
		  "__version__ = '2.1.2+cpu'\ncuda: Optional[str] = None\n");
	assert_int_equal(s.nrep, 1);
	assert_string_equal(s.rep[0].framework, "torch");
	assert_string_equal(s.rep[0].version, "2.1.2+cu121");
	assert_string_equal(s.rep[0].cuda, "12.1");
	assert_null(s.rep[0].cudnn);
	needs_scan_release(&s);
}

static void test_needs_metadata_reads_nvidia_pins(void **state)
{
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	read_meta(&s, "/sp/torch-2.1.2.dist-info/METADATA",
		  "Metadata-Version: 2.1\nName: torch\nVersion: 2.1.2\n"
		  "Requires-Dist: filelock\n"
		  "Requires-Dist: nvidia-cuda-runtime-cu12 (==12.1.105) ; "
		  "platform_system == \"Linux\"\n"
		  "Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; "
		  "platform_system == \"Linux\"\n\n"
		  "Requires-Dist: nvidia-cudnn-cu12 (==99.1) in the text\n");
	/* CUDA 13's wheels have no suffix; cuDNN's kept it */
	read_meta(&s, "/sp/torch-2.15.0.dist-info/METADATA",
		  "Name: torch\r\nVersion: 2.15.0\r\n"
		  "Requires-Dist: nvidia-cuda-runtime==13.0.96\r\n"
		  "Requires-Dist: nvidia-cudnn-cu13==9.26.0.51\r\n");
	/* NVIDIA's metapackage, as torch 2.15 pins it */
	read_meta(&s, "/sp/torch-2.15.0b.dist-info/METADATA",
		  "Name: torch\nVersion: 2.15.0\n"
		  "Requires-Dist: cuda-toolkit[cublas,cudart,cupti]==13.2.2; "
		  "platform_system == \"Linux\"\n"
		  "Requires-Dist: nvidia-cudnn-cu13==9.26.0.51; "
		  "platform_system == \"Linux\"\n");
	/* behind an extra: to the minor (TensorFlow checks no more) */
	read_meta(&s, "/sp/tensorflow-2.15.1.dist-info/METADATA",
		  "Name: tensorflow\nVersion: 2.15.1\n"
		  "Requires-Dist: nvidia-cudnn-cu12 (==8.9.4.25) ; extra == "
		  "'and-cuda'\n"
		  "Requires-Dist: nvidia-cublas-cu12 (==12.2.5.6) ; extra == "
		  "'and-cuda'\n");
	/* a range: its lower bound (jax-cuda12-plugin[with-cuda]) */
	read_meta(&s, "/sp/jax_cuda12_plugin-0.4.35.dist-info/METADATA",
		  "Name: jax-cuda12-plugin\nVersion: 0.4.35\n"
		  "Requires-Dist: nvidia-cuda-runtime-cu12 >=12.1.105 ; "
		  "extra == 'with_cuda'\n"
		  "Requires-Dist: nvidia-cudnn-cu12 <10.0,>=9.1 ; extra == "
		  "'with_cuda'\n");
	/* NVIDIA's own wheel provides; it asks nothing */
	read_meta(&s, "/sp/nvidia_cudnn_cu12-8.9.2.26.dist-info/METADATA",
		  "Name: nvidia-cudnn-cu12\nVersion: 8.9.2.26\n"
		  "Requires-Dist: nvidia-cublas-cu12\n");
	/* a package name says the CUDA major */
	read_meta(&s, "/sp/cupy_cuda12x-13.3.0.dist-info/METADATA",
		  "Name: cupy-cuda12x\nVersion: 13.3.0\n");
	read_meta(&s, "/sp/cupy_cuda102-9.6.0.dist-info/METADATA",
		  "Name: cupy-cuda102\nVersion: 9.6.0\n");
	read_meta(&s, "/sp/numpy-1.26.dist-info/METADATA",
		  "Name: numpy\nVersion: 1.26.4\n");
	assert_int_equal(s.nrep, 7);
	assert_string_equal(s.rep[0].framework, "torch");
	assert_string_equal(s.rep[0].version, "2.1.2");
	assert_string_equal(s.rep[0].cuda, "12.1");
	assert_string_equal(s.rep[0].cudnn, "8.9.2");
	assert_string_equal(s.rep[1].cuda, "13.0");
	assert_string_equal(s.rep[1].cudnn, "9.26.0");
	assert_string_equal(s.rep[2].cuda, "13.2");
	assert_string_equal(s.rep[2].cudnn, "9.26.0");
	assert_string_equal(s.rep[3].framework, "tensorflow");
	assert_string_equal(s.rep[3].cuda, "12");
	assert_string_equal(s.rep[3].cudnn, "8.9");
	assert_string_equal(s.rep[4].framework, "jax-cuda12-plugin");
	assert_string_equal(s.rep[4].cuda, "12.1");
	assert_string_equal(s.rep[4].cudnn, "9.1");
	assert_string_equal(s.rep[5].framework, "cupy-cuda12x");
	assert_string_equal(s.rep[5].cuda, "12");
	assert_null(s.rep[5].cudnn);
	assert_string_equal(s.rep[6].cuda, "10.2");
	needs_scan_release(&s);
}

/*
 * What any build says of itself, in a .py or .json at its top, is read
 * by one rule: a constant naming CUDA or cuDNN and a version (texts of
 * xformers 0.0.28.post3's cpp_lib.json and torchaudio 2.5.1's
 * version.py), not a GPU architecture list, a path or the driver; and
 * a CUDA tag in a package's own name (spconv-cu120, mxnet-cu92).
 */
static void test_needs_metadata_reads_what_any_build_states(void **state)
{
	static const char none[] = "cuda = '2.1'\ncudnn = 'none'\n"
				   "cuda_driver_version = '12.4'\n"
				   "nccl_version = '2.21'\n";
	struct needs_scan s;

	(void)state;
	assert_true(needs_metadata_name("xformers/cpp_lib.json"));
	assert_true(needs_metadata_name("version.py"));
	assert_false(needs_metadata_name("xformers/ops/fmha/cutlass.py"));
	assert_false(needs_metadata_name("xformers/cpp_lib.jsonl"));
	needs_scan_init(&s);
	read_meta(&s, "x.whl/xformers/cpp_lib.json",
		  "{\"version\": {\"cuda\": 1201, \"hip\": null, \"torch\": "
		  "\"2.5.1+cu121\"}, \"env\": {\"TORCH_CUDA_ARCH_LIST\": "
		  "\"6.0+PTX 7.0\"}}");
	read_meta(&s, "/sp/torchaudio/version.py",
		  "__version__ = '2.5.1+cu124'\ngit_version = '1661daf'\n");
	read_meta(&s, "/sp/cumm/build_meta.py",
		  "CUDA_HOME = '/usr/local/cuda-11.8'\ncuda_arch = '8.0'\n"
		  "CUDA_VERSION = 11080\nCUDNN_VERSION = 8600\n");
	read_meta(&s, "/sp/pkg/_cfg.py",
		  "cudnn_version = 90100\n"
		  "cudaVersion = \"12.x\"\n");
	assert_false(needs_metadata_name("/sp/a/b/c.py"));
	assert_int_equal(s.nrep, 4);
	assert_string_equal(s.rep[0].framework, "xformers");
	assert_string_equal(s.rep[0].cuda, "12.1");
	assert_string_equal(s.rep[1].framework, "torchaudio");
	assert_string_equal(s.rep[1].cuda, "12.4");
	assert_string_equal(s.rep[1].version, "2.5.1+cu124");
	assert_string_equal(s.rep[2].cuda, "11.8");
	assert_string_equal(s.rep[2].cudnn, "8.6");
	assert_string_equal(s.rep[3].cuda, "12");
	assert_string_equal(s.rep[3].cudnn, "9.1");
	/* nothing a release could be, or another's version: no report */
	assert_false(
	    needs_read_metadata(&s, "/sp/p/v.py", none, sizeof(none) - 1));
	read_meta(&s, "/sp/spconv_cu120-2.3.6.dist-info/METADATA",
		  "Name: spconv-cu120\nVersion: 2.3.6\n");
	read_meta(&s, "/sp/mxnet_cu92-1.5.dist-info/METADATA",
		  "Name: mxnet-cu92\nVersion: 1.5.0\n");
	read_meta(&s, "/sp/cudf_cu12-24.8.dist-info/METADATA",
		  "Name: cudf-cu12\nVersion: 24.8.3\n");
	read_meta(&s, "/sp/cuda_python-12.6.dist-info/METADATA",
		  "Name: cuda-python\nVersion: 12.6.0\n");
	assert_int_equal(s.nrep, 7);
	assert_string_equal(s.rep[4].cuda, "12.0");
	assert_string_equal(s.rep[5].cuda, "9.2");
	assert_string_equal(s.rep[6].framework, "cudf-cu12");
	assert_string_equal(s.rep[6].cuda, "12");
	needs_scan_release(&s);
}

/*
 * What is not a statement of the build (cupy 13.6.0): a name assigned in
 * a function (cupyx/tools/install_library.py's "cuda = '11'"), a table
 * of several releases; a data folder's record is its package's
 * (cupy/.data/_wheel.json is cupy's).
 */
static void test_needs_metadata_statement_is_stated_once(void **state)
{
	static const char code[] = "def pick(v):\n"
				   "    if v:\n"
				   "        cuda = '11'\n"
				   "    else:\n"
				   "\tcudnn = '8.9'\n";
	static const char table[] = "[{\"cuda\": \"11.x\", \"cudnn\": "
				    "\"8.9\"}, {\"cuda\": \"12.x\", "
				    "\"cudnn\": \"8.9\"}]";
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	assert_false(needs_read_metadata(&s, "/sp/cupyx/install_library.py",
					 code, sizeof(code) - 1));
	/* the CUDA is a table's; the cuDNN, said twice alike, is stated */
	assert_true(needs_read_metadata(&s, "/sp/pkg/records.json", table,
					sizeof(table) - 1));
	assert_null(s.rep[0].cuda);
	assert_string_equal(s.rep[0].cudnn, "8.9");
	read_meta(&s, "/sp/cupy/.data/_wheel.json",
		  "{\"cuda\": \"12.x\", \"packaging\": \"pip\"}");
	assert_int_equal(s.nrep, 2);
	assert_string_equal(s.rep[1].framework, "cupy");
	assert_string_equal(s.rep[1].cuda, "12");
	needs_scan_release(&s);
}

/*
 * A soname named beside another of its library (libcudart.so.12 beside
 * the linked .13) is an alternative the file may load; one dlopen'd with
 * nothing beside it (libnvrtc.so.12) is required (issue 22).
 */
static void
test_needs_named_soname_is_required_without_alternative(void **state)
{
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	add(&s, "/ort/libprov.so", NULL, "libcudart.so.13",
	    "libcudart.so.12 libnvrtc.so.12");
	needs_scan_finish(&s);
	assert_true(needs_want_required(want_of(&s, "libcudart.so.13")));
	assert_false(needs_want_required(want_of(&s, "libcudart.so.12")));
	assert_true(needs_want_required(want_of(&s, "libnvrtc.so.12")));
	assert_int_equal(want_of(&s, "libnvrtc.so.12")->loaded_by.n, 1);
	assert_true(needs_want_managed(want_of(&s, "libnvrtc.so.12")));
	needs_scan_release(&s);
}

/*
 * ctranslate2 4.5.0's bundled cuDNN front library (auditwheel's
 * libcudnn-74a4c495.so.9.1.0) loads its sub-libraries by names it
 * completes at run time (libcudnn_ops.so): each is required at cuDNN 9,
 * its version (9.1.0) is the minimum, and it provides libcudnn.so.9.
 * Old cuenv saw none of it: "satisfied" with only a CUDA runtime.
 */
static void
test_needs_bundled_front_library_requires_its_sub_libraries(void **state)
{
	struct needs_scan s;
	struct elf_info e;
	const struct needs_want *w;

	(void)state;
	needs_scan_init(&s);
	elf_of(&e, "libcudnn-74a4c495.so.9.1.0", "", "libcudnn.so.9");
	strv_push(&e.cuda_stems, "libcudnn_ops.so");
	strv_push(&e.cuda_stems, "libcudnn_cnn.so");
	needs_scan_add(&s, "/w/ct2.libs/libcudnn-74a4c495.so.9.1.0", &e);
	elf_info_release(&e);
	needs_scan_finish(&s);
	w = want_of(&s, "libcudnn_ops.so.9");
	assert_non_null(w);
	assert_true(needs_want_required(w));
	assert_non_null(want_of(&s, "libcudnn_cnn.so.9"));
	/* its own name is provided by itself, not asked of cuenv */
	assert_non_null(want_of(&s, "libcudnn.so.9")->provided_by);
	assert_int_equal(s.nrep, 1);
	assert_string_equal(s.rep[0].cudnn, "9.1.0");
	assert_null(s.rep[0].cuda);
	needs_scan_release(&s);
}

/*
 * ctranslate2 3.24.0 and 4.0.0 bundle cuDNN 8's front library
 * (libcudnn-f0ff4753.so.8.1.1), which names its sub-libraries whole
 * (libcudnn_ops_infer.so.8): each is required, its version (8.1.1) is the
 * minimum. Old cuenv called them "may load" and said no cuDNN minimum.
 */
static void
test_needs_bundled_cudnn8_front_requires_its_named_sub_libraries(void **state)
{
	struct needs_scan s;
	struct elf_info e;

	(void)state;
	needs_scan_init(&s);
	elf_of(&e, "libcudnn-f0ff4753.so.8.1.1", "",
	       "libcudnn.so.8 libcudnn_ops_infer.so.8 libcudnn_cnn_infer.so.8 "
	       "libcudnn_ops_infer.so.7");
	needs_scan_add(&s, "/w/ct2.libs/libcudnn-f0ff4753.so.8.1.1", &e);
	elf_info_release(&e);
	needs_scan_finish(&s);
	assert_true(
	    needs_want_required(want_of(&s, "libcudnn_ops_infer.so.8")));
	assert_true(
	    needs_want_required(want_of(&s, "libcudnn_cnn_infer.so.8")));
	assert_int_equal(want_of(&s, "libcudnn_ops_infer.so.8")->named_by.n, 0);
	/* another major is no sub-library of this front */
	assert_false(
	    needs_want_required(want_of(&s, "libcudnn_ops_infer.so.7")));
	assert_non_null(want_of(&s, "libcudnn.so.8")->provided_by);
	assert_int_equal(s.nrep, 1);
	assert_string_equal(s.rep[0].cudnn, "8.1.1");
	needs_scan_release(&s);
}

/*
 * A package's own version file (paddlepaddle-gpu 2.6.1's
 * paddle/version/__init__.py) states the CUDA and cuDNN it was built
 * with; a CPU build's 'False' states none. Old cuenv read no such file.
 */
static void test_needs_package_version_file_states_its_minimums(void **state)
{
	struct needs_scan s;

	(void)state;
	assert_true(needs_metadata_name("/sp/paddle/version/__init__.py"));
	needs_scan_init(&s);
	read_meta(&s, "/sp/paddle/version/__init__.py",
		  "full_version     = '2.6.1'\ncuda_version     = '11.8'\n"
		  "cudnn_version    = '8.6.0'\nxpu_version = 'False'\n");
	assert_int_equal(s.nrep, 1);
	assert_string_equal(s.rep[0].framework, "paddle");
	assert_string_equal(s.rep[0].version, "2.6.1");
	assert_string_equal(s.rep[0].cuda, "11.8");
	assert_string_equal(s.rep[0].cudnn, "8.6.0");
	read_meta(&s, "/sp/paddle/version/__init__.py",
		  "full_version = '2.6.1'\ncuda_version = 'False'\n"
		  "cudnn_version = 'False'\n");
	assert_int_equal(s.nrep, 1);
	needs_scan_release(&s);
}

/*
 * TensorFlow 2.10's Windows build_info.py says cudart64_112.dll; no CUDA
 * release ships it (every 11.x runtime DLL is cudart64_110.dll). NVIDIA's
 * table wins and the contradiction is said (issue 22, item 10); a name
 * the table knows (cudnn64_8.dll) is kept as it is. Old cuenv repeated
 * the metadata's name.
 */
static void test_needs_build_info_dll_contradicting_table_loses(void **state)
{
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	read_meta(&s, "/sp/tensorflow/python/platform/build_info.py",
		  "build_info = {'cuda_version': '64_112', "
		  "'cudnn_version': '64_8', "
		  "'cudart_dll_name': 'cudart64_112.dll', "
		  "'cudnn_dll_name': 'cudnn64_8.dll'}\n");
	assert_int_equal(s.nrep, 1);
	assert_int_equal(s.rep[0].dlls.n, 2);
	assert_string_equal(s.rep[0].dlls.v[0], "cudart64_110.dll");
	assert_string_equal(s.rep[0].dlls.v[1], "cudnn64_8.dll");
	assert_int_equal(s.rep[0].notes.n, 1);
	assert_non_null(strstr(s.rep[0].notes.v[0], "cudart64_112.dll"));
	assert_non_null(strstr(s.rep[0].notes.v[0], "cudart64_110.dll"));
	needs_scan_release(&s);
}

/* A dependency is not a build: a package that depends on NCCL's wheel
 * (nvidia-nccl-cu12) says nothing of the CUDA its own files need. */
/* A minimum from pins behind an extra says which extra in its source. */
static void test_needs_metadata_source_names_the_extra(void **state)
{
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	read_meta(&s, "/sp/jax_cuda12_plugin-0.6.2.dist-info/METADATA",
		  "Name: jax-cuda12-plugin\nVersion: 0.6.2\n"
		  "Requires-Dist: jax-cuda12-pjrt==0.6.2\n"
		  "Requires-Dist: nvidia-cuda-runtime-cu12>=12.1.105; extra == "
		  "\"with-cuda\"\n"
		  "Requires-Dist: nvidia-cudnn-cu12<10.0,>=9.8; extra == "
		  "\"with-cuda\"\n");
	read_meta(&s, "/sp/torch-2.1.2.dist-info/METADATA",
		  "Name: torch\nVersion: 2.1.2\n"
		  "Requires-Dist: nvidia-cudnn-cu12 (==8.9.2.26) ; "
		  "platform_system == \"Linux\"\n");
	assert_int_equal(s.nrep, 2);
	assert_string_equal(s.rep[0].source,
			    "/sp/jax_cuda12_plugin-0.6.2.dist-info/METADATA "
			    "(extra with-cuda)");
	assert_string_equal(s.rep[0].cudnn, "9.8");
	/* a pin of the package itself: the file alone */
	assert_string_equal(s.rep[1].source,
			    "/sp/torch-2.1.2.dist-info/METADATA");
	needs_scan_release(&s);
}

/*
 * Extras for two CUDA majors (jax 0.4.25's METADATA, lines as PyPI has
 * them): no one answer, each major's extras said; the higher major is
 * not chosen. Extras of one major add up (onnxruntime-gpu 1.20's cuda
 * and cudnn), and a pin's local version (+cuda11.cudnn86) counts.
 */
static void test_needs_metadata_extras_for_two_majors(void **state)
{
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	read_meta(&s, "/sp/jax-0.4.25.dist-info/METADATA",
		  "Name: jax\nVersion: 0.4.25\n"
		  "Requires-Dist: numpy >=1.22\n"
		  "Requires-Dist: jaxlib ==0.4.25+cuda11.cudnn86 ; extra == "
		  "'cuda'\n"
		  "Requires-Dist: nvidia-cuda-runtime-cu11 >=11.8 ; extra == "
		  "'cuda11_pip'\n"
		  "Requires-Dist: nvidia-cudnn-cu11 >=8.8 ; extra == "
		  "'cuda11_pip'\n"
		  "Requires-Dist: nvidia-nccl-cu11 >=2.18.3 ; extra == "
		  "'cuda11_pip'\n"
		  "Requires-Dist: jax-cuda12-plugin ==0.4.25 ; extra == "
		  "'cuda12'\n"
		  "Requires-Dist: nvidia-cuda-runtime-cu12 >=12.3.101 ; extra "
		  "== 'cuda12'\n"
		  "Requires-Dist: nvidia-cudnn-cu12 >=8.9.7.29 ; extra == "
		  "'cuda12'\n"
		  "Requires-Dist: jaxlib ==0.4.25+cuda12.cudnn89 ; extra == "
		  "'cuda12_local'\n"
		  "Requires-Dist: requests ; extra == 'tpu'\n");
	read_meta(
	    &s, "/sp/onnxruntime_gpu-1.20.1.dist-info/METADATA",
	    "Name: onnxruntime-gpu\nVersion: 1.20.1\n"
	    "Requires-Dist: nvidia-cuda-runtime-cu12~=12.0; extra == "
	    "\"cuda\"\n"
	    "Requires-Dist: nvidia-cudnn-cu12~=9.0; extra == \"cudnn\"\n");
	assert_int_equal(s.nrep, 2);
	assert_string_equal(s.rep[0].framework, "jax");
	assert_null(s.rep[0].cuda);
	assert_null(s.rep[0].cudnn);
	assert_string_equal(s.rep[0].source,
			    "/sp/jax-0.4.25.dist-info/METADATA");
	assert_int_equal(s.rep[0].notes.n, 3);
	assert_string_equal(s.rep[0].notes.v[0],
			    "extras cuda, cuda11_pip ask for CUDA 11.8+, "
			    "cuDNN 8.8+");
	assert_string_equal(s.rep[0].notes.v[1],
			    "extras cuda12, cuda12_local ask for CUDA 12.3+, "
			    "cuDNN 8.9+");
	assert_non_null(strstr(s.rep[0].notes.v[2], "cuenv needs --python"));
	assert_string_equal(s.rep[1].cuda, "12.0");
	assert_string_equal(s.rep[1].cudnn, "9.0");
	assert_string_equal(s.rep[1].source,
			    "/sp/onnxruntime_gpu-1.20.1.dist-info/METADATA "
			    "(extra cuda, cudnn)");
	needs_scan_release(&s);
}

static void add_row(struct framework_builds *b, const char *fw, const char *v,
		    const char *cuda, const char *cudnn, const char *notes)
{
	b->v = xrealloc(b->v, (b->n + 1) * sizeof(*b->v));
	b->v[b->n].framework = xstrdup(fw);
	b->v[b->n].version = xstrdup(v);
	b->v[b->n].cuda = xstrdup(cuda);
	b->v[b->n].cudnn = xstrdup(cudnn);
	b->v[b->n].notes = xstrdup(notes);
	b->n++;
}

static void test_needs_plugin_parent_names_jax(void **state)
{
	(void)state;
	assert_string_equal(needs_plugin_parent("jax-cuda12-plugin"), "jax");
	assert_string_equal(needs_plugin_parent("jax-cuda11-pjrt"), "jax");
	assert_string_equal(needs_plugin_parent("jaxlib"), "jax");
	assert_null(needs_plugin_parent("jax"));
	assert_null(needs_plugin_parent("cupy-cuda12x"));
}

/*
 * A plugin whose metadata pins nothing (jax-cuda11-plugin 0.4.25): its
 * parent's row of the same version and CUDA major is a minimum, said to
 * come from the table.
 */
static void test_needs_plugin_takes_parent_row_of_its_major(void **state)
{
	struct needs_scan s;
	struct framework_builds rows = {0};

	(void)state;
	needs_scan_init(&s);
	read_meta(&s, "/sp/jax_cuda11_plugin-0.4.25.dist-info/METADATA",
		  "Name: jax-cuda11-plugin\nVersion: 0.4.25\n"
		  "Requires-Dist: jax-cuda11-pjrt ==0.4.25\n");
	add_row(&rows, "jax", "0.4.26", "12.3", "8.9", "");
	add_row(&rows, "jax", "0.4.25", "12.3", "8.9", "\"built with\" line");
	add_row(&rows, "jax", "0.4.25", "11.8", "8.6", "\"built with\" line");
	needs_parent_rows(&s, "jax", &rows);
	assert_int_equal(s.nrep, 2);
	assert_string_equal(s.rep[0].cuda, "11");
	assert_null(s.rep[0].cudnn);
	assert_string_equal(s.rep[1].framework, "jax");
	assert_string_equal(s.rep[1].version, "0.4.25");
	assert_string_equal(s.rep[1].cuda, "11.8");
	assert_string_equal(s.rep[1].cudnn, "8.6");
	assert_string_equal(s.rep[1].source,
			    "frameworks.tsv: jax 0.4.25 (the parent of "
			    "jax-cuda11-plugin 0.4.25)");
	/* a bare major states no minimum: nothing to disagree with */
	assert_int_equal(s.rep[0].notes.n, 0);
	assert_int_equal(s.rep[1].notes.n, 0);
	framework_builds_release(&rows);
	needs_scan_release(&s);
}

/*
 * The row's notes state the minimum ("compatible with CUDA >=12.1"), not
 * the release it was built with (12.3); jaxlib's local version is cut.
 */
static void test_needs_plugin_parent_row_minimum_from_notes(void **state)
{
	struct needs_scan s;
	struct framework_builds rows = {0};

	(void)state;
	needs_scan_init(&s);
	read_meta(&s, "/sp/jax_cuda12_pjrt-0.4.35.dist-info/METADATA",
		  "Name: jax-cuda12-pjrt\nVersion: 0.4.35\n");
	read_meta(&s, "/sp/jaxlib-0.4.25+cuda12.cudnn89.dist-info/METADATA",
		  "Name: jaxlib\nVersion: 0.4.25+cuda12.cudnn89\n");
	add_row(&rows, "jax", "0.4.35", "12.3", "9.1",
		"wheel built with CUDA 12.3 / cuDNN 9.1; compatible with CUDA "
		">=12.1 and cuDNN >=9.1, <10.0");
	add_row(&rows, "jax", "0.4.25", "12.3", "8.9", "\"built with\" line");
	add_row(&rows, "jax", "0.4.25", "11.8", "8.6", "\"built with\" line");
	needs_parent_rows(&s, "jax", &rows);
	assert_int_equal(s.nrep, 4);
	assert_string_equal(s.rep[2].version, "0.4.35");
	assert_string_equal(s.rep[2].cuda, "12.1");
	assert_string_equal(s.rep[2].cudnn, "9.1");
	assert_string_equal(s.rep[3].version, "0.4.25");
	assert_string_equal(s.rep[3].cuda, "12.3");
	assert_string_equal(s.rep[3].cudnn, "8.9");
	framework_builds_release(&rows);
	needs_scan_release(&s);
}

/* The plugin's own pin and the parent's row differ: both say so. */
static void test_needs_plugin_own_pin_and_parent_row_disagree(void **state)
{
	struct needs_scan s;
	struct framework_builds rows = {0};

	(void)state;
	needs_scan_init(&s);
	read_meta(&s, "/sp/jax_cuda12_plugin-0.6.2.dist-info/METADATA",
		  "Name: jax-cuda12-plugin\nVersion: 0.6.2\n"
		  "Requires-Dist: nvidia-cuda-runtime-cu12>=12.1.105; extra == "
		  "\"with-cuda\"\n"
		  "Requires-Dist: nvidia-cudnn-cu12<10.0,>=9.8; extra == "
		  "\"with-cuda\"\n");
	add_row(&rows, "jax", "0.6.2", "12.3", "9.1",
		"compatible with CUDA >=12.1 and cuDNN >=9.1, <10.0");
	needs_parent_rows(&s, "jax", &rows);
	assert_int_equal(s.nrep, 2);
	assert_string_equal(s.rep[1].cudnn, "9.1");
	assert_int_equal(s.rep[0].notes.n, 1);
	assert_string_equal(s.rep[0].notes.v[0],
			    "frameworks.tsv's jax 0.6.2 row says cuDNN >= 9.1");
	assert_int_equal(s.rep[1].notes.n, 1);
	assert_string_equal(s.rep[1].notes.v[0],
			    "jax-cuda12-plugin 0.6.2's own metadata says "
			    "cuDNN >= 9.8");
	framework_builds_release(&rows);
	needs_scan_release(&s);
}

/* Two builds fit and the plugin names no major: said, not chosen. */
static void test_needs_plugin_parent_rows_of_two_majors_not_chosen(void **state)
{
	struct needs_scan s;
	struct framework_builds rows = {0};

	(void)state;
	needs_scan_init(&s);
	needs_scan_report(&s, "jaxlib", "/sp/jaxlib-0.4.25.dist-info/METADATA",
			  NULL, "8.6");
	s.rep[0].version = xstrdup("0.4.25");
	add_row(&rows, "jax", "0.4.25", "12.3", "8.9", "");
	add_row(&rows, "jax", "0.4.25", "11.8", "8.6", "");
	needs_parent_rows(&s, "jax", &rows);
	assert_int_equal(s.nrep, 1);
	assert_int_equal(s.rep[0].notes.n, 1);
	assert_non_null(strstr(s.rep[0].notes.v[0], "2 builds of jax 0.4.25"));
	framework_builds_release(&rows);
	needs_scan_release(&s);
}

static void test_needs_metadata_nccl_dependency_is_not_a_build(void **state)
{
	struct needs_scan s;

	(void)state;
	needs_scan_init(&s);
	read_meta(&s, "/sp/pkg-1.0.dist-info/METADATA",
		  "Name: pkg\nVersion: 1.0\nRequires-Dist: nvidia-nccl-cu12\n");
	assert_int_equal(s.nrep, 0);
	/* a runtime pin still says its CUDA */
	read_meta(&s, "/sp/pkg-1.0.dist-info/METADATA",
		  "Name: pkg\nVersion: 1.0\nRequires-Dist: nvidia-nccl-cu12\n"
		  "Requires-Dist: nvidia-cublas-cu12\n");
	assert_int_equal(s.nrep, 1);
	assert_string_equal(s.rep[0].cuda, "12");
	needs_scan_release(&s);
}

static void test_needs_installed_minimum_cudnn_is_compared(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_installed in;

	needs_scan_init(&s);
	needs_installed_init(&in);
	read_meta(&s, "/sp/torch-2.15.0.dist-info/METADATA",
		  "Name: torch\nVersion: 2.15.0\n"
		  "Requires-Dist: nvidia-cudnn-cu13==9.26.0.51\n");
	needs_scan_finish(&s);
	cuda_at(fx, &in.cudas, "13.0.2", 13, "lib64/libcudart.so.13");
	cudnn_at(fx, &in.cudnns, "9.19.0", 13);
	needs_match_installed(&s, NULL, NULL, &in);
	assert_null(in.pick.cuda);
	assert_int_equal(in.report.n, 1);
	assert_string_equal(in.report.v[0],
			    "cuda 13.0.2 + cudnn 9.19.0 (cuda13): lacks "
			    "cuDNN 9.26.0+ (torch)");
	needs_installed_release(&in);
	needs_scan_release(&s);
}

/* The --json report: the shape scripts read, and what each part holds. */
static void test_needs_json_reports_scan_offer_and_fetches(void **state)
{
	struct catalog cat = {0};
	struct needs_python py;
	struct needs_installed in;
	struct needs_offer o;
	struct needs_scan s;
	struct needs_fetches fs = {0};
	struct needs_fetched f = {.size = 1000, .bytes = 10, .requests = 2};
	const json_t *w, *c;
	json_t *j;

	(void)state;
	needs_python_init(&py, NULL);
	needs_installed_init(&in);
	offer_for("libcudart.so.11.0", NULL, &cat, &o, "cuenv install 11.8");
	needs_scan_init(&s);
	add(&s, "/tf/libtf.so", NULL, "libcudart.so.11.0", "libcudnn.so.8");
	needs_scan_finish(&s);
	needs_fetches_add(&fs, "tf-2.6.5.whl", "http://127.0.0.1/simple", &f);
	j = needs_json(&s, &py, &in, &o, &fs, false);

	assert_int_equal(json_integer_value(json_object_get(j, "files_read")),
			 1);
	assert_false(json_is_true(json_object_get(j, "satisfied")));
	assert_true(json_is_null(json_object_get(j, "installed")));
	assert_null(json_object_get(j, "frameworks")); /* no --python */
	w = json_array_get(json_object_get(j, "sonames"), 0);
	assert_string_equal(json_string_value(json_object_get(w, "soname")),
			    "libcudart.so.11.0");
	assert_true(json_is_true(json_object_get(w, "required")));
	assert_string_equal(json_string_value(json_array_get(
				json_object_get(w, "needed_by"), 0)),
			    "/tf/libtf.so");
	w = json_array_get(json_object_get(j, "sonames"), 1);
	assert_string_equal(json_string_value(json_object_get(w, "soname")),
			    "libcudnn.so.8");
	/* dlopen'd with no alternative: required, and said by whom */
	assert_true(json_is_true(json_object_get(w, "required")));
	assert_string_equal(json_string_value(json_array_get(
				json_object_get(w, "loaded_by"), 0)),
			    "/tf/libtf.so");
	c = json_object_get(j, "catalogue");
	assert_string_equal(json_string_value(json_object_get(c, "cuda")),
			    "11.8.0");
	assert_string_equal(json_string_value(json_object_get(c, "install")),
			    "cuenv install 11.8");
	assert_true(json_is_null(json_object_get(c, "cudnn")));
	c = json_array_get(json_object_get(j, "fetched"), 0);
	assert_string_equal(json_string_value(json_object_get(c, "wheel")),
			    "tf-2.6.5.whl");
	assert_int_equal(
	    json_integer_value(json_object_get(c, "bytes_fetched")), 10);
	assert_int_equal(json_integer_value(json_object_get(c, "size")), 1000);
	assert_false(json_is_true(json_object_get(c, "core_metadata")));
	json_decref(j);

	/* Nothing fetched: no "fetched" key; no offer: the reason instead. */
	needs_offer_release(&o);
	needs_offer_init(&o);
	buf_adds(&o.why, "no release gives libcudart.so.99");
	j = needs_json(&s, &py, &in, &o, &(struct needs_fetches){0}, false);
	assert_null(json_object_get(j, "fetched"));
	assert_true(json_is_null(json_object_get(j, "catalogue")));
	assert_string_equal(
	    json_string_value(json_object_get(j, "catalogue_problem")),
	    "no release gives libcudart.so.99");
	json_decref(j);

	needs_fetches_release(&fs);
	needs_offer_release(&o);
	needs_scan_release(&s);
	needs_installed_release(&in);
	needs_python_release(&py);
	catalog_release(&cat);
}

/* ---- the command line (needs_args) -------------------------------------- */

static void test_needs_arg_kind_by_name_and_disk(void **state)
{
	struct fixture *fx = *state;
	char *here = getcwd(NULL, 0);
	char *argv[] = {"needs",  "--index",	"https://i/simple",
			"--json", "site/torch", NULL,
			NULL};

	assert_int_equal(needs_arg_kind("tf-2.6.whl"), NEEDS_ARG_WHEEL);
	assert_int_equal(needs_arg_kind("/w/x.whl"), NEEDS_ARG_WHEEL);
	assert_int_equal(needs_arg_kind(".whl"), NEEDS_ARG_PATH);
	assert_int_equal(needs_arg_kind("tensorflow==2.6.5"),
			 NEEDS_ARG_REQUIREMENT);
	assert_int_equal(needs_arg_kind("==2.6"), NEEDS_ARG_PATH);
	assert_int_equal(needs_arg_kind("tf=="), NEEDS_ARG_PATH);
	assert_int_equal(needs_arg_kind("dir/tf==2.6"), NEEDS_ARG_PATH);
	assert_int_equal(needs_arg_kind("/usr/lib"), NEEDS_ARG_PATH);
	/* a file of that name is a path */
	assert_int_equal(chdir(fx->root), 0);
	assert_int_equal(needs_arg_kind("a==1"), NEEDS_ARG_REQUIREMENT);
	fx_touch(fx, "a==1");
	assert_int_equal(needs_arg_kind("a==1"), NEEDS_ARG_PATH);
	assert_int_equal(chdir(here), 0);
	assert_int_equal(needs_args_want_net(5, argv), 0);
	argv[5] = "x.whl";
	assert_int_equal(needs_args_want_net(6, argv), 1);
	argv[5] = "--";
	assert_int_equal(needs_args_want_net(6, argv), 0);
	argv[4] = "torch==2.1";
	assert_int_equal(needs_args_want_net(6, argv), 1);
	argv[4] = "-torch==2.1"; /* an option */
	assert_int_equal(needs_args_want_net(6, argv), 0);
	free(here);
}

/* A net scan that records its arguments and adds nothing; the fetch
 * settings it is given are the caller's (retries 7). */
static int fake_net(struct needs_scan *s, const char *arg, const char *index,
		    const char *platform, const char *py,
		    const struct fetch_opts *fetch, struct needs_fetches *fs,
		    struct cuenv_err *err)
{
	struct needs_fetched f = {.size = 1};

	(void)py;
	(void)s;
	(void)err;
	assert_non_null(fetch);
	assert_int_equal(fetch->retries, 7);
	needs_fetches_add(fs, arg, index, &f);
	assert_string_equal(platform ? platform : "(none)",
			    arg[0] == 'w' ? "win_amd64" : "(none)");
	return CUENV_OK;
}

static void test_needs_scan_args_dispatch_and_index(void **state)
{
	struct fixture *fx = *state;
	char *so = fx_path(fx, "empty");
	char *v[] = {"tf==2.6", so, "x.whl"};
	char *env_none[] = {NULL};
	char *env_index[] = {"CUENV_PYPI_INDEX=http://mirror/simple", NULL};
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct needs_args a = {
	    .v = v, .n = 3, .envp = env_none, .net = fake_net, .fetch = &fo};
	struct needs_scan s;
	struct needs_fetches fs = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	fo.retries = 7; /* passed on as they are */
	fx_mkdir(fx, "empty");
	needs_scan_init(&s);
	assert_int_equal(needs_scan_args(&s, &a, &fs, &err), CUENV_OK);
	assert_int_equal(fs.n, 2);
	assert_string_equal(fs.v[0].wheel, "tf==2.6");
	assert_string_equal(fs.v[0].index, "https://pypi.org/simple");
	assert_string_equal(fs.v[1].wheel, "x.whl");
	a.envp = env_index;
	a.n = 1;
	assert_int_equal(needs_scan_args(&s, &a, &fs, &err), CUENV_OK);
	assert_string_equal(fs.v[2].index, "http://mirror/simple");
	a.index = "file:///srv/simple"; /* --index wins */
	v[0] = "w==1";
	a.platform = "win_amd64";
	assert_int_equal(needs_scan_args(&s, &a, &fs, &err), CUENV_OK);
	assert_string_equal(fs.v[3].index, "file:///srv/simple");
	/* not cuenv-net: a bug to be asked */
	a.net = NULL;
	assert_int_equal(needs_scan_args(&s, &a, &fs, &err), CUENV_E_BUG);
	assert_string_equal(err.msg.data, "needs: 'w==1' is cuenv-net's to "
					  "read");
	/* a path that is not there stops the scan */
	v[0] = "/nonexistent/lib.so";
	v[1] = "t==1";
	a.n = 2;
	assert_int_not_equal(needs_scan_args(&s, &a, &fs, &err), CUENV_OK);
	assert_int_equal(fs.n, 4);
	/* nothing to read: only with --python */
	a.n = 0;
	assert_int_equal(needs_scan_args(&s, &a, &fs, &err), CUENV_E_USAGE);
	assert_string_equal(err.msg.data, "needs: missing argument");
	assert_string_equal(err.hint.data, "see: cuenv needs --help");
	a.python = 1;
	assert_int_equal(needs_scan_args(&s, &a, &fs, &err), CUENV_OK);
	needs_scan_release(&s);
	needs_fetches_release(&fs);
	err_release(&err);
	free(so);
}

#define T(f) cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_needs_records_needed_and_named_sonames),
	    cmocka_unit_test(test_needs_plugin_only_product),
	    cmocka_unit_test(test_needs_optional_module_and_static_runtime),
	    T(test_needs_arg_kind_by_name_and_disk),
	    T(test_needs_scan_args_dispatch_and_index),
	    cmocka_unit_test(test_needs_json_reports_scan_offer_and_fetches),
	    cmocka_unit_test(test_needs_finish_sorts_by_library_then_soname),
	    cmocka_unit_test(
		test_needs_soname_provided_under_path_is_not_asked),
	    cmocka_unit_test(test_needs_minimum_of_a_family_not_held_is_asked),
	    cmocka_unit_test(test_needs_nccl_is_reported_but_not_asked),
	    cmocka_unit_test(test_needs_minimum_asks_only_what_is_not_provided),
	    cmocka_unit_test(
		test_needs_named_soname_is_required_without_alternative),
	    cmocka_unit_test(test_needs_metadata_names_the_files_it_reads),
	    cmocka_unit_test(test_needs_metadata_reads_what_any_build_states),
	    cmocka_unit_test(test_needs_metadata_statement_is_stated_once),
	    cmocka_unit_test(test_needs_metadata_reads_a_pep658_file),
	    cmocka_unit_test(test_needs_metadata_extras_for_two_majors),
	    cmocka_unit_test(test_needs_metadata_reads_tensorflow_build_info),
	    cmocka_unit_test(test_needs_metadata_reads_torch_version_py),
	    cmocka_unit_test(test_needs_metadata_source_names_the_extra),
	    cmocka_unit_test(test_needs_plugin_parent_names_jax),
	    cmocka_unit_test(test_needs_plugin_takes_parent_row_of_its_major),
	    cmocka_unit_test(test_needs_plugin_parent_row_minimum_from_notes),
	    cmocka_unit_test(test_needs_plugin_own_pin_and_parent_row_disagree),
	    cmocka_unit_test(
		test_needs_plugin_parent_rows_of_two_majors_not_chosen),
	    cmocka_unit_test(test_needs_metadata_reads_nvidia_pins),
	    T(test_needs_installed_minimum_cudnn_is_compared),
	    cmocka_unit_test(
		test_needs_bundled_front_library_requires_its_sub_libraries),
	    cmocka_unit_test(
		test_needs_bundled_cudnn8_front_requires_its_named_sub_libraries),
	    cmocka_unit_test(
		test_needs_package_version_file_states_its_minimums),
	    cmocka_unit_test(
		test_needs_build_info_dll_contradicting_table_loses),
	    cmocka_unit_test(
		test_needs_metadata_nccl_dependency_is_not_a_build),
	    T(test_needs_scan_reads_a_folder_of_built_files),
	    T(test_needs_scan_marks_what_the_folder_provides),
	    T(test_needs_scan_reads_a_file_named_as_path),
	    T(test_needs_scan_refuses_a_named_file_that_is_not_elf),
	    T(test_needs_scan_corrupt_file_fails_alone_warns_in_folder),
	    T(test_needs_scan_of_an_empty_folder_finds_nothing),
	    T(test_needs_scan_of_a_path_that_cannot_be_read),
	    T(test_needs_scan_refuses_what_is_neither_file_nor_folder),
	    T(test_needs_scan_does_not_follow_links),
	    T(test_needs_scan_warns_of_folders_nested_too_deep),
	    T(test_needs_scan_passes_over_what_it_cannot_open),
	    cmocka_unit_test(test_needs_python_parse_reads_each_framework),
	    cmocka_unit_test(
		test_needs_python_parse_keeps_what_is_not_answered),
	    cmocka_unit_test(test_needs_python_parse_empty_version_is_unknown),
	    T(test_needs_installed_toolkit_that_gives_all_is_picked),
	    T(test_needs_installed_that_lacks_a_soname_is_not_picked),
	    T(test_needs_installed_at_the_minimum_is_enough),
	    T(test_needs_installed_cudnn_must_be_built_for_the_cuda),
	    T(test_needs_installed_cupti_of_another_release),
	    T(test_needs_installed_prefers_the_active_selection),
	    T(test_needs_installed_ignores_an_active_selection_that_lacks),
	    T(test_needs_installed_must_suit_the_frameworks),
	    T(test_needs_installed_load_lists_the_store),
	    T(test_needs_installed_here_prefers_the_selection),
	    cmocka_unit_test(test_needs_describe_ranges_by_minor),
	    cmocka_unit_test(test_needs_describe_without_a_catalogue),
	    cmocka_unit_test(test_needs_offer_takes_the_newest_that_gives_all),
	    cmocka_unit_test(
		test_needs_offer_cudnn_is_built_for_the_cuda_major),
	    cmocka_unit_test(test_needs_offer_refuses_two_cudnn_majors),
	    cmocka_unit_test(test_needs_offer_adds_cupti_of_another_release),
	    cmocka_unit_test(test_needs_offer_follows_the_frameworks),
	    cmocka_unit_test(test_needs_offer_without_a_catalogue),
	    T(test_needs_alternative_builds_are_one_requirement),
	    T(test_needs_lists_what_cuenv_does_not_install),
	    T(test_needs_unseen_loads_are_unknown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
