#include "fakes/fixture.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "explain/explain.h"
#include "base/xalloc.h"

/*
 * The messages are the frameworks' own, copied from their sources and
 * from logs users pasted (search index ids in brackets):
 *
 *  - TensorFlow's dso_loader.cc (tensorflow/stream_executor/platform/
 *    default/dso_loader.cc, later tsl's): absl::StrCat("Could not load
 *    dynamic library '", filename, "'; dlerror: ", status.message()), and
 *    from TF 2.x on Linux "; LD_LIBRARY_PATH: ..." after it [2766116,
 *    25273776418]; logs [11150791663] (libcudart.so.11.0), [2538603418]
 *    (cudart64_110.dll, Windows), [18631895908] (libnvinfer.so.7 whose
 *    dlerror names libnvrtc.so.11.1);
 *  - TensorFlow's stream_executor/cuda/cuda_dnn.cc: "Loaded runtime CuDNN
 *    library: ", loaded, " but source was compiled with: ", source, ".
 *    CuDNN library major and minor version needs to match ..."
 *    [21778426978]; XLA's copy, as JAX prints it [67193770096];
 *  - PyTorch's torch/backends/cudnn/__init__.py: f"cuDNN version
 *    incompatibility: PyTorch was compiled  against {compile_version} but
 *    found runtime version {runtime_version}. PyTorch already comes
 *    bundled with cuDNN. ..." (two spaces before "against", as printed)
 *    [55109567];
 *  - TensorFlow's profiler, core/profiler/internal/gpu/cupti_tracer.cc:
 *    "function cupti_interface_->Subscribe( ... )failed with error CUPTI
 *    could not be loaded or symbol could not be found." and "...failed
 *    with error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES" [23694775935,
 *    55298467861].
 *
 * Expected releases are NVIDIA's sonames (see test_nvlib.c) and, for the
 * frameworks, rows written here by hand in TensorFlow's tested-build table
 * form.
 */

static const char dso_cudart[] =
    "2022-06-10 00:19:17.094577: W tensorflow/stream_executor/platform/"
    "default/dso_loader.cc:64] Could not load dynamic library "
    "'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared "
    "object file: No such file or directory\n"
    "2022-06-10 00:19:17.094610: I tensorflow/stream_executor/cuda/"
    "cudart_stub.cc:29] Ignore above cudart dlerror if you do not have a "
    "GPU set up on your machine.\n";

static const char dso_cupti_profiler[] =
    "2021-07-29 17:58:14.405721: W tensorflow/stream_executor/platform/"
    "default/dso_loader.cc:64] Could not load dynamic library "
    "'libcupti.so.11.2'; dlerror: libcupti.so.11.2: cannot open shared "
    "object file: No such file or directory; LD_LIBRARY_PATH: "
    "/usr/local/nvidia/lib:/usr/local/nvidia/lib64\n"
    "2021-07-29 17:58:14.405812: E tensorflow/core/profiler/internal/gpu/"
    "cupti_tracer.cc:1661] function cupti_interface_->Subscribe( "
    "&subscriber_, (CUpti_CallbackFunc)ApiCallback, this)failed with "
    "error CUPTI could not be loaded or symbol could not be found.\n";

static const char dso_windows[] =
    "2026-09-28 12:10:50.001295: W tensorflow/stream_executor/platform/"
    "default/dso_loader.cc:64] Could not load dynamic library "
    "'cudart64_110.dll'; dlerror: cudart64_110.dll not found\r\n";

static const char tf_cudnn[] =
    "2021-03-02 10:11:12.123456: E tensorflow/stream_executor/cuda/"
    "cuda_dnn.cc:336] Loaded runtime CuDNN library: 8.0.5 but source was "
    "compiled with: 8.1.0.  CuDNN library major and minor version needs "
    "to match or have higher minor version in case of CuDNN 7.0 or later "
    "version. If using a binary install, upgrade your CuDNN library.  If "
    "building from sources, make sure the library loaded at runtime is "
    "compatible with the version specified during compile "
    "configuration.\n";

static const char xla_cudnn[] =
    "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:466] Loaded "
    "runtime CuDNN library: 9.5.1 but source was compiled with: 9.8.0. "
    "CuDNN library needs to have matching major version and equal or "
    "higher minor version.\n";

static const char torch_cudnn[] =
    "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  "
    "against (9, 26, 0) but found runtime version (9, 19, 0). PyTorch "
    "already comes bundled with cuDNN. One option to resolving this error "
    "is to ensure PyTorch can find the bundled cuDNN. one possibility is "
    "that there is a conflicting cuDNN in LD_LIBRARY_PATH.\n";

static const char cupti_privileges[] =
    "E external/org_tensorflow/tensorflow/core/profiler/internal/gpu/"
    "cupti_tracer.cc:1445] function cupti_interface_->EnableCallback( 0 "
    ", subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, cbid)failed with error "
    "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\n";

static void parse(struct explain *ex, const char *text)
{
	explain_init(ex);
	explain_parse(ex, text, strlen(text));
}

static void test_explain_tensorflow_dso_loader_linux(void **state)
{
	struct explain ex;
	const struct explain_finding *f;

	(void)state;
	parse(&ex, dso_cudart);
	assert_int_equal(ex.n, 1);
	f = &ex.v[0];
	assert_int_equal(f->kind, EXPLAIN_LIBRARY);
	assert_string_equal(f->name, "libcudart.so.11.0");
	assert_int_equal(f->lib->id, NVLIB_CUDART);
	assert_string_equal(f->soname, "libcudart.so.11.0");
	/* every CUDA 11 release gives libcudart.so.11.0 */
	assert_string_equal(f->releases, "CUDA 11.x");
	assert_true(f->missing);
	assert_false(f->dll);
	assert_true(explain_recognised(&ex));
	explain_release(&ex);
}

static void test_explain_cupti_is_one_release(void **state)
{
	struct explain ex;

	(void)state;
	parse(&ex, dso_cupti_profiler);
	assert_int_equal(ex.n, 2);
	assert_string_equal(ex.v[0].name, "libcupti.so.11.2");
	/* CUPTI 11.x is named after its release's minor */
	assert_string_equal(ex.v[0].releases, "CUDA 11.2");
	assert_true(ex.v[0].missing);
	assert_int_equal(ex.v[1].kind, EXPLAIN_CUPTI_LOAD);
	assert_int_equal(ex.v[1].lib->id, NVLIB_CUPTI);
	explain_release(&ex);
}

static void test_explain_windows_dll(void **state)
{
	struct explain ex;

	(void)state;
	parse(&ex, dso_windows);
	assert_int_equal(ex.n, 1);
	assert_true(ex.v[0].dll);
	assert_string_equal(ex.v[0].name, "cudart64_110.dll");
	assert_string_equal(ex.v[0].soname, "libcudart.so.11.0");
	assert_string_equal(ex.v[0].releases, "CUDA 11.x");
	assert_true(ex.v[0].missing);
	explain_release(&ex);

	parse(&ex, "cudnn64_8.dll nvrtc64_112_0.dll");
	assert_int_equal(ex.n, 2);
	assert_string_equal(ex.v[0].soname, "libcudnn.so.8");
	assert_string_equal(ex.v[0].releases, "cuDNN 8.x");
	assert_false(ex.v[0].missing);
	/* NVRTC 11.2 to 11.8 share nvrtc64_112_0.dll */
	assert_string_equal(ex.v[1].soname, "libnvrtc.so.11.2");
	assert_string_equal(ex.v[1].releases, "CUDA 11.2-11.8");
	explain_release(&ex);

	/* CUPTI's DLL carries its year version, no CUDA release */
	parse(&ex, "cupti64_2022.3.0.dll");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].lib->id, NVLIB_CUPTI);
	assert_null(ex.v[0].soname);
	assert_string_equal(ex.v[0].releases, "CUPTI 2022.3.0");
	explain_release(&ex);
}

static void test_explain_bare_sonames(void **state)
{
	struct explain ex;

	(void)state;
	parse(&ex, "libcudnn.so.8");
	assert_int_equal(ex.n, 1);
	assert_string_equal(ex.v[0].releases, "cuDNN 8.x");
	assert_false(ex.v[0].missing);
	explain_release(&ex);

	/* from Python's ImportError; a name said twice is one finding */
	parse(&ex, "ImportError: libcublasLt.so.11: cannot open shared object "
		   "file: No such file or directory\nlibcublasLt.so.11\n");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].lib->id, NVLIB_CUBLASLT);
	assert_string_equal(ex.v[0].releases, "CUDA 11.x");
	assert_true(ex.v[0].missing);
	explain_release(&ex);

	/* a file's name: cuDNN's soname has its major only */
	parse(&ex, "libcudnn_ops.so.9.1.0");
	assert_int_equal(ex.n, 1);
	assert_string_equal(ex.v[0].soname, "libcudnn_ops.so.9");
	assert_string_equal(ex.v[0].releases, "cuDNN 9.x");
	explain_release(&ex);

	/* cuFFT's .10 is 10.1 to 11.8 */
	parse(&ex, "libcufft.so.10");
	assert_string_equal(ex.v[0].releases, "CUDA 10.1-10.2, 11.x");
	explain_release(&ex);
}

static void test_explain_libraries_outside_the_toolkit(void **state)
{
	struct explain ex;

	(void)state;
	/* TensorRT's libnvinfer is not cuenv's; the libnvrtc it lacks is */
	parse(&ex, "W tensorflow/stream_executor/platform/default/dso_loader."
		   "cc:64] Could not load dynamic library 'libnvinfer.so.7'; "
		   "dlerror: libnvrtc.so.11.1: cannot open shared object "
		   "file: No such file or directory\n");
	assert_int_equal(ex.n, 1);
	assert_string_equal(ex.v[0].name, "libnvrtc.so.11.1");
	assert_string_equal(ex.v[0].releases, "CUDA 11.1");
	explain_release(&ex);

	/* the driver's library is the driver's */
	parse(&ex, "Could not load dynamic library 'libcuda.so.1'; dlerror: "
		   "libcuda.so.1: cannot open shared object file: No such "
		   "file or directory");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_DRIVER);
	explain_release(&ex);
}

static void test_explain_no_release_gives_it(void **state)
{
	struct explain ex;

	(void)state;
	parse(&ex, "libcudart.so.99: cannot open shared object file");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_NO_RELEASE);
	assert_int_equal(ex.v[0].lib->id, NVLIB_CUDART);
	assert_false(explain_recognised(&ex));
	explain_release(&ex);

	parse(&ex, "cudart64_990.dll");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_NO_RELEASE);
	explain_release(&ex);

	parse(&ex, "hello world, libfoo.so.1 and foo.dll");
	assert_int_equal(ex.n, 0);
	assert_false(explain_recognised(&ex));
	explain_release(&ex);
}

static void test_explain_cudnn_mismatches(void **state)
{
	struct explain ex;

	(void)state;
	parse(&ex, tf_cudnn);
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_CUDNN_MISMATCH);
	assert_string_equal(ex.v[0].framework, "tensorflow");
	assert_string_equal(ex.v[0].built, "8.1.0");
	assert_string_equal(ex.v[0].loaded, "8.0.5");
	assert_string_equal(ex.v[0].soname, "libcudnn.so.8");
	explain_release(&ex);

	parse(&ex, xla_cudnn);
	assert_int_equal(ex.n, 1);
	/* external/xla/: JAX's build of XLA (TensorFlow's is local_xla) */
	assert_string_equal(ex.v[0].framework, "jax");
	assert_string_equal(ex.v[0].built, "9.8.0");
	assert_string_equal(ex.v[0].loaded, "9.5.1");
	explain_release(&ex);

	parse(&ex, torch_cudnn);
	assert_int_equal(ex.n, 1);
	assert_string_equal(ex.v[0].framework, "torch");
	assert_string_equal(ex.v[0].built, "9.26.0");
	assert_string_equal(ex.v[0].loaded, "9.19.0");
	explain_release(&ex);

	/* before 1.8: CUDNN_VERSION numbers, "linked against" */
	parse(&ex, "RuntimeError: cuDNN version incompatibility: PyTorch was "
		   "compiled against 7603 but linked against 7102");
	assert_int_equal(ex.n, 1);
	assert_string_equal(ex.v[0].built, "7.6.3");
	assert_string_equal(ex.v[0].loaded, "7.1.2");
	explain_release(&ex);
}

/* text gives one finding, of kind k */
static void assert_one(enum explain_kind k, const char *text)
{
	struct explain ex;

	parse(&ex, text);
	if (ex.n != 1 || ex.v[0].kind != k)
		fail_msg("'%s': %zu findings, the first of kind %d, not %d",
			 text, ex.n, ex.n ? (int)ex.v[0].kind : -1, (int)k);
	explain_release(&ex);
}

/* text gives no finding of kind k */
static void assert_none(enum explain_kind k, const char *text)
{
	struct explain ex;

	parse(&ex, text);
	for (size_t i = 0; i < ex.n; i++)
		if (ex.v[i].kind == k)
			fail_msg("'%s': finding %zu is of kind %d", text, i,
				 (int)k);
	explain_release(&ex);
}

static void test_explain_cupti_privileges(void **state)
{
	struct explain ex;

	(void)state;
	parse(&ex, cupti_privileges);
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_CUPTI_PRIVILEGES);
	assert_null(ex.v[0].lib);
	explain_release(&ex);

	parse(&ex, "Why is TensorBoard Profiler using an incompatible "
		   "libcupti version?");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_CUPTI_LOAD);
	explain_release(&ex);

	/* CUPTI's result 35 by number, and its sentence (sweep s2-q11) */
	assert_one(EXPLAIN_CUPTI_PRIVILEGES,
		   "RuntimeError: Failed to execute cuptiGetContextId with "
		   "error 35");
	assert_one(EXPLAIN_CUPTI_PRIVILEGES,
		   "Error: function (*cuptiProfilerBeginSessionPtr)(&begin"
		   "SessionParams) failed with error code 35.");
	assert_one(EXPLAIN_CUPTI_PRIVILEGES,
		   "Insufficient privilege to run libcupti (you need root "
		   "permission).");
	/* another result, and the runtime's 35 (the driver's), are not */
	parse(&ex, "cuptiActivityEnable failed with error 350");
	assert_int_equal(ex.n, 0);
	explain_release(&ex);
	assert_none(EXPLAIN_CUPTI_PRIVILEGES,
		    "cudaGetDeviceCount returned 35 -> CUDA driver version is "
		    "insufficient for CUDA runtime version (error 35)");
}

/* A library named without ".so" in a line that says it failed to load
 * (XLA's "Failed to load libcupti", TF 1.x's "Couldn't open CUDA
 * library"); not in a line that says nothing failed. */
static void test_explain_bare_library_words(void **state)
{
	struct explain ex;

	(void)state;
	parse(&ex, "Failed to load libcupti (is it installed and "
		   "accessible?)");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_LIBRARY);
	assert_int_equal(ex.v[0].lib->id, NVLIB_CUPTI);
	assert_true(ex.v[0].missing);
	assert_null(ex.v[0].soname);
	explain_release(&ex);
	parse(&ex, "dso_loader.cc:119] Couldn't open CUDA library libcupti.so. "
		   "LD_LIBRARY_PATH: /usr/local/nvidia/lib");
	assert_int_equal(ex.n, 1);
	assert_true(ex.v[0].missing);
	explain_release(&ex);
	/* more wordings of "could not be loaded" (the issues index's
	 * cublas64_11.dll threads) */
	parse(&ex, "Could not locate cublasLt64_12.dll. Please make sure it "
		   "is in your library path!");
	assert_int_equal(ex.n, 1);
	assert_true(ex.v[0].missing);
	explain_release(&ex);
	parse(&ex, "could not load librart cudnn_ops_infer64_8.dll .error "
		   "code 126");
	assert_int_equal(ex.n, 1);
	assert_true(ex.v[0].missing);
	explain_release(&ex);
	parse(&ex, "we link libcupti and libcudnn here");
	assert_int_equal(ex.n, 0);
	explain_release(&ex);
	parse(&ex, "Failed to load libcuptix: no");
	assert_int_equal(ex.n, 0);
	explain_release(&ex);
}

/* Rows as frameworks.tsv has them, a few of TensorFlow's tested builds
 * (tensorflow.org/install/source, .../source_windows) and PyTorch's. */
static const char table[] =
    "framework\tversion\tcuda\tcudnn\tsource\tnotes\n"
    "pytorch\t2.15\t13.2\t9.26.0.51\ts\tPyPI default wheel\n"
    "pytorch\t2.11\t13.0\t9.19.0.56\ts\tPyPI default wheel\n"
    "tensorflow\ttensorflow-2.12.0\t11.8\t8.6\ts\tos linux\n"
    "tensorflow\ttensorflow-2.11.0\t11.2\t8.1\ts\tos linux\n"
    "tensorflow\ttensorflow-2.10.0\t11.2\t8.1\ts\tos linux\n"
    "tensorflow\ttensorflow-2.9.0\t11.2\t8.1\ts\tos linux\n"
    "tensorflow\ttensorflow-2.4.0\t11.0\t8.0\ts\tos linux\n"
    "tensorflow\ttensorflow_gpu-2.10.0\t11.2\t8.1\ts\tos windows\n"
    "tensorflow\ttensorflow_gpu-2.4.0\t11.0\t8.0\ts\tos windows\n";

static void frameworks(struct fixture *fx, struct explain *ex, const char *text)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	char *dir = fx_path(fx, "c");

	fx_write(fx, "c/frameworks.tsv", table);
	parse(ex, text);
	assert_int_equal(explain_frameworks(ex, dir, &err), CUENV_OK);
	free(dir);
}

static void test_explain_frameworks_that_ask(void **state)
{
	struct explain ex;
	const struct explain_row *r;

	frameworks(*state, &ex, dso_cupti_profiler);
	/* libcupti.so.11.2: the CUDA 11.2 builds, on Linux */
	assert_int_equal(ex.v[0].nrows, 1);
	r = &ex.v[0].rows[0];
	assert_string_equal(r->framework, "tensorflow");
	assert_string_equal(r->versions, "2.9.0 to 2.11.0");
	assert_string_equal(r->cuda, "11.2");
	assert_string_equal(r->cudnn, "8.1");
	assert_false(r->windows);
	explain_release(&ex);

	/* a DLL: the Windows builds only */
	frameworks(*state, &ex, "cudart64_110.dll");
	assert_int_equal(ex.v[0].nrows, 2);
	assert_string_equal(ex.v[0].rows[0].versions, "2.10.0");
	assert_true(ex.v[0].rows[0].windows);
	assert_string_equal(ex.v[0].rows[1].versions, "2.4.0");
	explain_release(&ex);

	/* libcudart.so.11.0: every CUDA 11 build; two releases are listed */
	frameworks(*state, &ex, "libcudart.so.11.0");
	assert_int_equal(ex.v[0].nrows, 3);
	assert_string_equal(ex.v[0].rows[0].versions, "2.12.0");
	assert_string_equal(ex.v[0].rows[1].versions, "2.9.0 to 2.11.0");
	assert_string_equal(ex.v[0].rows[2].versions, "2.4.0");
	explain_release(&ex);

	/* torch's mismatch: the builds with that cuDNN */
	frameworks(*state, &ex, torch_cudnn);
	assert_int_equal(ex.v[0].nrows, 1);
	assert_string_equal(ex.v[0].rows[0].framework, "pytorch");
	assert_string_equal(ex.v[0].rows[0].versions, "2.15");
	explain_release(&ex);
}

static void test_explain_scan_asks_needs(void **state)
{
	struct explain ex;
	struct needs_scan s;

	frameworks(*state, &ex, tf_cudnn);
	needs_scan_init(&s);
	explain_scan(&ex, &s);
	needs_scan_finish(&s);
	/* a report, its builds' one CUDA with the cuDNN it was built with */
	assert_int_equal(s.n, 0);
	assert_int_equal(s.nrep, 1);
	assert_string_equal(s.rep[0].framework, "tensorflow");
	assert_string_equal(s.rep[0].cuda, "11.2");
	assert_string_equal(s.rep[0].cudnn, "8.1.0");
	needs_scan_release(&s);
	explain_release(&ex);

	parse(&ex, dso_cupti_profiler);
	needs_scan_init(&s);
	explain_scan(&ex, &s);
	needs_scan_finish(&s);
	assert_int_equal(s.n, 1);
	assert_string_equal(s.v[0].soname, "libcupti.so.11.2");
	assert_true(needs_want_required(&s.v[0]));
	needs_scan_release(&s);
	explain_release(&ex);
}

static void test_explain_machine_loader_path(void **state)
{
	struct fixture *fx = *state;
	struct explain ex;
	struct needs_installed in;
	char *a = fx_path(fx, "a"), *b = fx_path(fx, "b");
	struct buf path = BUF_INIT;
	struct ldcache cache = {0};
	struct ldcache_entry e = {"libcupti.so.12", "/opt/cuda/libcupti.so.12",
				  0};

	fx_touch(fx, "a/libcupti.so.12");
	fx_touch(fx, "a/libcupti.so.2024.3.2");
	fx_touch(fx, "b/libcupti.so.11.2");
	fx_touch(fx, "b/libcudnn_ops.so.9");
	buf_printf(&path, "%s::%s", a, b);
	cache.v = &e;
	cache.n = 1;
	needs_installed_init(&in);

	parse(&ex, "libcupti.so.11.2 libcudnn.so.9");
	explain_machine(&ex, &in, &cache, path.data);
	assert_int_equal(ex.v[0].store.n, 0);
	assert_int_equal(ex.v[0].loader.n, 3);
	assert_string_equal(ex.v[0].loader.v[0],
			    "loader cache: libcupti.so.12 => "
			    "/opt/cuda/libcupti.so.12");
	assert_true(ex.v[0].loader_exact);
	/* libcudnn_ops is not libcudnn */
	assert_int_equal(ex.v[1].loader.n, 0);
	assert_false(ex.v[1].loader_exact);
	explain_release(&ex);
	buf_release(&path);
	free(a);
	free(b);
}

static void test_explain_nvlib_in_words(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	assert_true(nvlib_describe_releases(nvlib_get(NVLIB_CUDART), "12", &b));
	assert_string_equal(b.data, "12.x");
	assert_true(
	    nvlib_describe_releases(nvlib_get(NVLIB_CUPTI), "11.8", &b));
	assert_string_equal(b.data, "11.8");
	assert_false(
	    nvlib_describe_releases(nvlib_get(NVLIB_CUDART), "99", &b));
	assert_true(nvlib_dll_soname("CUDART64_110.DLL", &b));
	assert_string_equal(b.data, "libcudart.so.11.0");
	assert_true(nvlib_dll_soname("nvrtc64_120_0.dll", &b));
	assert_string_equal(b.data, "libnvrtc.so.12");
	assert_false(nvlib_dll_soname("cupti64_2022.3.0.dll", &b));
	buf_release(&b);
}

/*
 * JAX's check of a toolkit library (the block of jax_plugins/cuda's
 * _make_msg, for cuBLAS): the library older than asked is a finding of
 * its own, never a cuDNN mismatch, and its fix the oldest CUDA release
 * whose libcublas is new enough, from the catalogue's components.
 */
static void test_explain_jax_library_too_old(void **state)
{
	struct part p120[] = {{.name = "libcublas", .version = "12.0.2.224"}},
		    p121[] = {{.name = "libcublas", .version = "12.1.3.1"}},
		    p124[] = {{.name = "libcublas", .version = "12.4.5.8"}};
	struct release r120 = {.kind = KIT_CUDA,
			       .version = "12.0.1",
			       .cuda_major = 12,
			       .parts = p120,
			       .nparts = 1},
		       r121 = {.kind = KIT_CUDA,
			       .version = "12.1.1",
			       .cuda_major = 12,
			       .parts = p121,
			       .nparts = 1},
		       r124 = {.kind = KIT_CUDA,
			       .version = "12.4.1",
			       .cuda_major = 12,
			       .parts = p124,
			       .nparts = 1};
	struct release *v[] = {&r124, &r120, &r121};
	struct catalog cat = {.v = v, .n = 3};
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	parse(&ex, "Outdated cuBLAS installation found.\n"
		   "Version JAX was built against: 120304\n"
		   "Minimum supported: 120100\n"
		   "Installed version: 120002\n");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_TOO_OLD);
	assert_int_equal(ex.v[0].lib->id, NVLIB_CUBLAS);
	assert_string_equal(ex.v[0].built, "12.1.0");
	assert_string_equal(ex.v[0].loaded, "12.0.2");
	explain_fix_init(&fx);
	explain_scan(&ex, &fx.s);
	explain_fix_minimums(&fx, &ex, &cat);
	needs_scan_finish(&fx.s);
	explain_fix_decide(&fx, &ex, &cat);
	assert_int_equal(fx.s.nrep, 1);
	assert_string_equal(fx.s.rep[0].cuda, "12.1");
	assert_null(fx.note);
	explain_fix_release(&fx);

	/* no release ships it: said, not guessed */
	cat.n = 1; /* 12.4.1 alone: cuBLAS 12.4.5 */
	explain_release(&ex);
	parse(&ex, "Found cuBLAS version 120405, but JAX was built against "
		   "version 130100, which is newer.");
	explain_fix_init(&fx);
	explain_scan(&ex, &fx.s);
	explain_fix_minimums(&fx, &ex, &cat);
	needs_scan_finish(&fx.s);
	explain_fix_decide(&fx, &ex, &cat);
	assert_int_equal(fx.s.nrep, 0);
	assert_string_equal(fx.note, "no CUDA release in the catalogue ships "
				     "cuBLAS 13.1.0 or newer");
	explain_fix_release(&fx);
	explain_release(&ex);
}

/*
 * A requirement by major names the build's CUDA and cuDNN: onnxruntime's
 * "Require cuDNN 9.* and CUDA 13.*" (onnxruntime_pybind_state.cc), not
 * the same words outside a requirement.
 */
static void test_explain_reads_a_requirement_by_major(void **state)
{
	struct explain ex;

	(void)state;
	parse(&ex,
	      "Failed to create CUDAExecutionProvider. Require cuDNN 9.* "
	      "and CUDA 13.*, and the latest MSVC runtime. Please install "
	      "all dependencies as mentioned in the GPU requirements page");
	assert_string_equal(ex.ctx.cuda, "13");
	assert_string_equal(ex.ctx.cudnn, "9");
	explain_release(&ex);
	parse(&ex, "this build requires CUDA 12.x: libcudart.so.12 is missing");
	assert_string_equal(ex.ctx.cuda, "12");
	explain_release(&ex);
	parse(&ex, "ls: CUDA 13.* cuDNN 9.*");
	assert_null(ex.ctx.cuda);
	assert_null(ex.ctx.cudnn);
	explain_release(&ex);
}

/*
 * nvidia-container-cli's check of an image's NVIDIA_REQUIRE_CUDA (the
 * NVIDIA Container Toolkit's "requirement error: unsatisfied condition:
 * cuda>=12.8"): the driver older than the CUDA the image asks for, that
 * CUDA the text's; and NVRTC's own builtins library, one per release.
 */
static void test_explain_container_driver_and_nvrtc_builtins(void **state)
{
	struct explain ex;

	(void)state;
	parse(&ex,
	      "stderr: Auto-detected mode as 'legacy' nvidia-container-cli: "
	      "requirement error: unsatisfied condition: cuda>=12.8, please "
	      "update your driver to a newer version, or use an earlier "
	      "cuda container: unknown.");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_DRIVER_OLD);
	assert_string_equal(ex.v[0].name, "nvidia-container-cli");
	assert_string_equal(ex.ctx.cuda, "12.8");
	explain_release(&ex);

	/* Windows' 126: it or a DLL it needs is missing; 127: found, an
	 * entry point missing (an older copy first on PATH), no install */
	parse(&ex, "OSError: [WinError 126] The specified module could not be "
		   "found. Error loading \"C:\\venv\\torch\\lib\\"
		   "cudnn_cnn_infer64_8.dll\" or one of its dependencies.");
	assert_int_equal(ex.n, 1);
	assert_true(ex.v[0].missing);
	assert_int_equal(ex.v[0].found, EXPLAIN_FOUND_NOT_SAID);
	explain_release(&ex);
	parse(&ex, "OSError: [WinError 127] The specified procedure could not "
		   "be found. Error loading \"C:\\venv\\torch\\lib\\"
		   "cudnn_cnn_infer64_8.dll\" or one of its dependencies.");
	assert_int_equal(ex.n, 1);
	assert_false(ex.v[0].missing);
	assert_int_equal(ex.v[0].found, EXPLAIN_FOUND_NO_ENTRY);
	explain_release(&ex);

	parse(&ex, "nvrtc: error: failed to open libnvrtc-builtins.so.11.1. "
		   "Make sure that libnvrtc-builtins.so.11.1 is installed "
		   "correctly.");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_LIBRARY);
	assert_int_equal(ex.v[0].lib->id, NVLIB_NVRTC_BUILTINS);
	assert_string_equal(ex.v[0].releases, "CUDA 11.1");
	explain_release(&ex);
}

/* The fix: the selection in force, an installed version, the catalogue. */
static void test_explain_fix_from_the_store_or_catalogue(void **state)
{
	struct explain ex;
	struct explain_fix fx;
	struct catalog cat = {0};
	struct store_version cuda = {.kind = KIT_CUDA, .version = "11.2.2"};
	json_t *j;

	(void)state;
	parse(&ex, dso_cupti_profiler);
	explain_fix_init(&fx);
	explain_scan(&ex, &fx.s);
	needs_scan_finish(&fx.s);

	fx.in.pick.cuda = &cuda; /* as needs_match_installed picks */
	fx.in.active = true;
	explain_fix_decide(&fx, &ex, &cat);
	assert_string_equal(
	    fx.state, "cuda 11.2.2, the selection in force here, gives it");
	/* nothing to run as a fix: a template is no command */
	assert_int_equal(fx.lines.n, 0);
	assert_non_null(strstr(fx.note, "cuenv exec -- PROGRAM"));
	j = explain_json(&ex, &fx, NULL);
	assert_string_equal(json_string_value(json_object_get(j, "installed")),
			    fx.state);
	assert_int_equal(json_array_size(json_object_get(j, "fix")), 0);
	assert_string_equal(
	    json_string_value(json_object_get(
		json_array_get(json_object_get(j, "findings"), 0), "soname")),
	    "libcupti.so.11.2");
	json_decref(j);
	strv_release(&fx.lines);
	FREE_EACH(fx.state, fx.note);
	fx.state = fx.note = NULL;

	fx.in.active = false;
	explain_fix_decide(&fx, &ex, &cat);
	assert_string_equal(fx.state, "cuda 11.2.2 (installed) gives it");
	assert_string_equal(fx.lines.v[0], "cuenv local 11.2.2");
	strv_release(&fx.lines);
	free(fx.state);
	fx.state = NULL;

	/* Nothing installed, an empty catalogue: no line, the reason kept. */
	fx.in.pick.cuda = NULL;
	explain_fix_decide(&fx, &ex, &cat);
	assert_null(fx.state);
	assert_int_equal(fx.lines.n, 0);
	assert_null(fx.o.line);
	assert_true(fx.o.why.len > 0);
	j = explain_json(&ex, &fx, NULL);
	assert_true(json_is_null(json_object_get(j, "installed")));
	assert_non_null(json_object_get(j, "catalogue_problem"));
	json_decref(j);

	explain_fix_release(&fx);
	explain_release(&ex);
}

/* ---- the command's text and verdict -------------------------------------- */

static void test_explain_read_joins_words_or_reads_the_fd(void **state)
{
	struct fixture *fx = *state;
	char *words[] = {"Could", "not", "load", "'libcupti.so.11.2'"};
	char *dash[] = {"-"};
	char *none[] = {"hello", "world"};
	char *log = fx_path(fx, "log");
	struct explain ex;
	struct cuenv_err err = CUENV_ERR_INIT;
	int fd;

	explain_init(&ex);
	assert_int_equal(explain_read(&ex, words, 4, -1, &err), CUENV_OK);
	assert_int_equal(ex.n, 1);
	assert_string_equal(ex.v[0].name, "libcupti.so.11.2");
	assert_string_equal(ex.v[0].line, "Could not load 'libcupti.so.11.2'");
	explain_release(&ex);
	explain_init(&ex);
	fx_write(fx, "log", "line one\nfailed: cudnn64_8.dll not found\n");
	fd = open(log, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(explain_read(&ex, dash, 1, fd, &err), CUENV_OK);
	close(fd);
	assert_int_equal(ex.n, 1);
	assert_string_equal(ex.v[0].name, "cudnn64_8.dll");
	explain_release(&ex);
	explain_init(&ex);
	assert_int_equal(explain_read(&ex, none, 2, -1, &err), CUENV_NO);
	assert_string_equal(err.msg.data, "nothing in the text names a CUDA "
					  "library or a CUDA error that cuenv "
					  "knows");
	assert_non_null(strstr(err.hint.data, "cudart64_110.dll"));
	/* an fd that cannot be read */
	assert_int_equal(explain_read(&ex, dash, 1, -1, &err), CUENV_E_STORE);
	assert_true(!strncmp(err.msg.data, "cannot read standard input: ", 28));
	/* a log larger than EXPLAIN_STDIN_MAX */
	{
		size_t n = EXPLAIN_STDIN_MAX + 1;
		char *big = xmalloc(n);

		memset(big, 'x', n);
		fx_write_bytes(fx, "log", big, n);
		free(big);
	}
	fd = open(log, O_RDONLY);
	assert_int_equal(explain_read(&ex, dash, 1, fd, &err), CUENV_E_USAGE);
	close(fd);
	assert_string_equal(err.msg.data,
			    "explain: standard input is larger than 16 MiB");
	explain_release(&ex);
	err_release(&err);
	free(log);
}

static void test_explain_verdict_names_an_unshipped_name(void **state)
{
	struct explain ex;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	explain_init(&ex);
	explain_parse(&ex, "libcudart.so.99", 15);
	assert_int_equal(explain_verdict(&ex, &err), CUENV_NO);
	assert_string_equal(err.msg.data,
			    "no release ships libcudart.so.99 under that name");
	explain_parse(&ex, "libcudnn.so.8", 13);
	assert_int_equal(explain_verdict(&ex, &err), CUENV_OK);
	explain_release(&ex);
	err_release(&err);
}

/* torch's tuples are versions or nothing: a malformed one is no finding
 * (not "9..0", which would reach the catalogue as a version). */
static void test_explain_torch_tuple_must_be_a_version(void **state)
{
	static const char *const bad[] = {
	    "(9,,0)", "(9, 26,)", "(,9, 1)", "()", "(9, x, 0)", "(9, 26, 0",
	};
	struct explain ex;
	struct buf msg = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		/* the compiled-with tuple malformed, then the runtime one */
		for (int which = 0; which < 2; which++) {
			buf_reset(&msg);
			buf_printf(&msg,
				   "RuntimeError: cuDNN version incompatibility"
				   ": PyTorch was compiled  against %s but "
				   "found runtime version %s. PyTorch",
				   which ? "(9, 26, 0)" : bad[i],
				   which ? bad[i] : "(9, 19, 0)");
			parse(&ex, msg.data);
			if (ex.n)
				fail_msg("%s: a finding, built '%s' loaded "
					 "'%s'",
					 msg.data, ex.v[0].built,
					 ex.v[0].loaded);
			explain_release(&ex);
		}
	}
	buf_release(&msg);
}

/* Each name once, however often and in whatever order it comes; the
 * first EXPLAIN_KEEP kept in the order first seen, the rest counted
 * (each once); a kept name is marked missing by a later line. */
static void test_explain_finding_set_keeps_names_once(void **state)
{
	struct explain ex;
	struct buf text = BUF_INIT;
	size_t total = 3 * EXPLAIN_KEEP;

	(void)state;
	/* all on one line, then again one a line backwards, then again */
	for (size_t i = 0; i < total; i++)
		buf_printf(&text, "cudart64_%zu.dll ", 100000 + i);
	buf_addc(&text, '\n');
	for (size_t i = total; i-- > 0;)
		buf_printf(&text, "libcudart.so.11.0 cudart64_%zu.dll\n",
			   100000 + i);
	buf_printf(&text, "cudart64_%d.dll not found\n", 100000 + 7);
	for (size_t i = 0; i < total; i++)
		buf_printf(&text, "cudart64_%zu.dll\n", 100000 + i);
	explain_init(&ex);
	assert_int_equal(explain_parse(&ex, text.data, text.len), EXPLAIN_KEEP);
	assert_int_equal(ex.n, EXPLAIN_KEEP);
	/* libcudart.so.11.0 came after the first line's names: counted */
	assert_int_equal(ex.omitted, total + 1 - EXPLAIN_KEEP);
	for (size_t i = 0; i < ex.n; i++) {
		char want[32];

		snprintf(want, sizeof(want), "cudart64_%zu.dll", 100000 + i);
		assert_string_equal(ex.v[i].name, want);
		assert_int_equal(ex.v[i].kind, EXPLAIN_NO_RELEASE);
		assert_int_equal(ex.v[i].missing, i == 7);
	}
	explain_release(&ex);

	/* under the cap nothing is omitted, and a name's kinds are one */
	parse(&ex, "libcudnn.so.8 cudnn64_8.dll libcudnn.so.8 libcuda.so.1\n"
		   "cudnn64_8.dll libcuda.so.1 nvcuda.dll nvcuda.dll");
	assert_int_equal(ex.n, 4);
	assert_int_equal(ex.omitted, 0);
	assert_int_equal(ex.v[2].kind, EXPLAIN_DRIVER);
	assert_int_equal(ex.v[3].kind, EXPLAIN_DRIVER);
	explain_release(&ex);
	buf_release(&text);
}

/* Mismatches and CUPTI's troubles are findings once each too. */
static void test_explain_finding_set_other_kinds_once(void **state)
{
	struct explain ex;
	struct buf text = BUF_INIT;

	(void)state;
	for (int i = 0; i < 3; i++)
		buf_printf(&text, "%s%s%s", torch_cudnn, cupti_privileges,
			   tf_cudnn);
	parse(&ex, text.data);
	assert_int_equal(ex.n, 3);
	assert_int_equal(ex.v[0].kind, EXPLAIN_CUDNN_MISMATCH);
	assert_int_equal(ex.v[1].kind, EXPLAIN_CUPTI_PRIVILEGES);
	assert_int_equal(ex.v[2].kind, EXPLAIN_CUDNN_MISMATCH);
	/* cupti_privileges' external/org_tensorflow/ path is JAX's copy of
	 * TensorFlow: the log is JAX's, its TensorFlow-named lines too */
	assert_string_equal(ex.v[2].framework, "jax");
	explain_release(&ex);
	buf_release(&text);
}

/* ---- issue 22: no CUDA guessed, the context, the new kinds --------------- */

static const char cudnn9_ops[] =
    "Unable to load any of {libcudnn_ops.so.9.1.0, libcudnn_ops.so.9.1, "
    "libcudnn_ops.so.9, libcudnn_ops.so}\n"
    "Invalid handle. Cannot load symbol cudnnCreateTensorDescriptor\n";

/* The fix of text, decided against an empty catalogue. */
static void decide(struct explain *ex, struct explain_fix *fx, const char *text)
{
	struct catalog cat = {0};

	parse(ex, text);
	explain_fix_init(fx);
	explain_scan(ex, &fx->s);
	needs_scan_finish(&fx->s);
	explain_fix_decide(fx, ex, &cat);
}

/*
 * A library missing under a name without a version (cudf's libcudart.so,
 * Paddle's libcudnn.so, cuDNN 8 asking libnvrtc.so) names no release:
 * the CUDA cannot be known, and the commands that find it out are given;
 * with the build's CUDA in the text, that CUDA is asked for. A name only
 * mentioned is no such case, nor an unversioned cuDNN under a known CUDA
 * (no cuDNN is named to install).
 */
static void test_explain_unversioned_name_is_unknown(void **state)
{
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	decide(&ex, &fx,
	       "OSError: libcudart.so: cannot open shared object file: No "
	       "such file or directory");
	assert_int_equal(ex.n, 1);
	assert_null(ex.v[0].soname);
	assert_non_null(fx.unknown);
	assert_non_null(strstr(fx.unknown, "libcudart.so has no version"));
	assert_int_equal(fx.lines.n, 0);
	assert_int_equal(fx.decide.n, 1);
	assert_string_equal(fx.decide.v[0], "cuenv needs --python");
	explain_fix_release(&fx);
	explain_release(&ex);

	decide(&ex, &fx,
	       "Could not load library libcudnn_cnn_infer.so.8. Error: "
	       "libnvrtc.so: cannot open shared object file: No such file "
	       "or directory");
	assert_non_null(fx.unknown);
	assert_int_equal(fx.decide.n, 1);
	explain_fix_release(&fx);
	explain_release(&ex);

	/* the build's CUDA in the text: that release is asked for */
	decide(&ex, &fx,
	       "torch 2.0.1+cu118\n"
	       "OSError: libnvrtc.so: cannot open shared object file");
	assert_null(fx.unknown);
	assert_true(needs_asked(&fx.s, NULL));
	assert_string_equal(fx.s.rep[0].cuda, "11.8");
	explain_fix_release(&fx);
	explain_release(&ex);

	/* only named, not missing: nothing asked, nothing unknown */
	decide(&ex, &fx, "ls /usr/local/cuda/lib64/libcudart.so");
	assert_null(fx.unknown);
	assert_int_equal(fx.decide.n, 0);
	explain_fix_release(&fx);
	explain_release(&ex);
}

/*
 * Windows' error 126 on a framework's own DLL built on CUDA
 * (onnxruntime's provider_bridge_ort.cc: "LoadLibrary failed with error
 * 126 "" when trying to load ...onnxruntime_providers_cuda.dll"): it or
 * a DLL it imports is missing, which one not said. A library finding of
 * no table library; the CUDA unknown unless the text gives the build's
 * (onnxruntime's "Require cuDNN 9.* and CUDA 12.*"), then asked for.
 */
static void test_explain_framework_dll_imports_cuda(void **state)
{
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	decide(&ex, &fx,
	       "onnxruntime::ProviderLibrary::Get [ONNXRuntimeError] : 1 : "
	       "FAIL : LoadLibrary failed with error 126 \"\" when trying to "
	       "load \"E:\\x\\Release\\onnxruntime_providers_cuda.dll\"");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_LIBRARY);
	assert_true(ex.v[0].imports);
	assert_true(ex.v[0].missing);
	assert_null(ex.v[0].lib);
	assert_null(ex.v[0].releases);
	assert_string_equal(ex.v[0].name, "onnxruntime_providers_cuda.dll");
	assert_string_equal(ex.v[0].framework, "onnxruntime");
	assert_non_null(fx.unknown);
	assert_int_equal(fx.decide.n, 1);
	assert_string_equal(fx.decide.v[0], "cuenv needs --python");
	explain_fix_release(&fx);
	explain_release(&ex);

	/* the framework's version in the text: needs reads that build */
	decide(&ex, &fx,
	       "onnxruntime-gpu==1.17.1\n"
	       "LoadLibrary failed with error 126 when trying to load "
	       "onnxruntime_providers_cuda.dll");
	assert_int_equal(fx.decide.n, 2);
	assert_string_equal(fx.decide.v[0],
			    "cuenv needs onnxruntime-gpu==1.17.1");
	explain_fix_release(&fx);
	explain_release(&ex);

	/* the build's CUDA and cuDNN in the text, on a later line */
	decide(&ex, &fx,
	       "LoadLibrary failed with error 126 when trying to load "
	       "onnxruntime_providers_cuda.dll\n"
	       "Failed to create CUDAExecutionProvider. Require cuDNN 9.* "
	       "and CUDA 12.*, and the latest MSVC runtime.");
	assert_string_equal(ex.v[0].releases, "CUDA 12.x, cuDNN 9.x");
	assert_null(fx.unknown);
	assert_string_equal(fx.s.rep[0].cuda, "12");
	assert_string_equal(fx.s.rep[0].cudnn, "9");
	explain_fix_release(&fx);
	explain_release(&ex);

	/* 127: found, an import lacks an entry point: no install */
	decide(&ex, &fx,
	       "LoadLibrary failed with error 127 when trying to load "
	       "onnxruntime_providers_cuda.dll");
	assert_int_equal(ex.v[0].found, EXPLAIN_FOUND_NO_ENTRY);
	assert_null(fx.unknown);
	assert_false(needs_asked(&fx.s, NULL));
	explain_fix_release(&fx);
	explain_release(&ex);

	/* a DLL not built on CUDA, or no Windows error: no finding */
	parse(&ex, "LoadLibrary failed with error 126 when trying to load "
		   "onnxruntime_providers_openvino.dll");
	assert_int_equal(ex.n, 0);
	explain_release(&ex);
	parse(&ex, "copied onnxruntime_providers_cuda.dll");
	assert_int_equal(ex.n, 0);
	explain_release(&ex);
}

/*
 * The loader found the file and could not use it (Windows' 127, 1114,
 * 1455, 193 by number or text; glibc's wrong ELF class, file too short,
 * no memory): the finding says why, is not "missing", and asks for no
 * install, since no copy elsewhere mends the one found.
 */
static void test_explain_found_but_unusable(void **state)
{
	static const struct {
		const char *text;
		enum explain_found why;
	} cases[] = {
	    {"OSError: [WinError 1114] A dynamic link library (DLL) "
	     "initialization routine failed. Error loading \"C:\\t\\"
	     "torch\\lib\\cudnn_cnn_infer64_8.dll\" or one of its "
	     "dependencies.",
	     EXPLAIN_FOUND_INIT_FAILED},
	    {"Could not load library cudnn_ops_infer64_8.dll. Error code "
	     "1114",
	     EXPLAIN_FOUND_INIT_FAILED},
	    {"OSError: [WinError 1455] The paging file is too small for "
	     "this operation to complete. Error loading \"C:\\t\\"
	     "cudnn_adv_infer64_8.dll\"",
	     EXPLAIN_FOUND_NO_MEMORY},
	    {"OSError: [WinError 193] %1 is not a valid Win32 "
	     "application. Error loading \"C:\\t\\cudart64_110.dll\"",
	     EXPLAIN_FOUND_BAD_FILE},
	    {"ImportError: /usr/lib/x86_64-linux-gnu/libcudnn.so.8: wrong "
	     "ELF class: ELFCLASS32",
	     EXPLAIN_FOUND_BAD_FILE},
	    {"OSError: /v/nvidia/cublas/lib/libcublas.so.12: file too "
	     "short",
	     EXPLAIN_FOUND_BAD_FILE},
	    {"OSError: /v/lib/libcudart.so.11.0: failed to map segment "
	     "from shared object",
	     EXPLAIN_FOUND_NO_MEMORY},
	    /* TensorFlow's "Could not load" (missing) with dlerror's reason
	     * (found): found */
	    {"Could not load dynamic library 'libcudart.so.11.0'; dlerror: "
	     "/usr/lib/libcudart.so.11.0: wrong ELF class: ELFCLASS32",
	     EXPLAIN_FOUND_BAD_FILE},
	};
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		decide(&ex, &fx, cases[i].text);
		assert_int_equal(ex.n, 1);
		assert_int_equal(ex.v[0].found, cases[i].why);
		assert_false(ex.v[0].missing);
		assert_false(needs_asked(&fx.s, NULL));
		assert_null(fx.unknown);
		assert_int_equal(fx.lines.n, 0);
		explain_fix_release(&fx);
		explain_release(&ex);
	}
	/* not found: missing, and asked for */
	decide(&ex, &fx,
	       "OSError: libcublas.so.12: cannot open shared "
	       "object file: No such file or directory");
	assert_int_equal(ex.v[0].found, EXPLAIN_FOUND_NOT_SAID);
	assert_true(ex.v[0].missing);
	assert_true(needs_asked(&fx.s, NULL));
	explain_fix_release(&fx);
	explain_release(&ex);
}

/* torch's extension builder found another toolkit than torch's CUDA:
 * the toolkit of torch's CUDA is asked for (its nvcc compiles). */
static void test_explain_toolkit_mismatch(void **state)
{
	struct explain ex;
	struct explain_fix fx;
	/* as torch prints it, over two lines, and on one */
	static const char *const texts[] = {
	    "RuntimeError:\nThe detected CUDA version (12.1) mismatches "
	    "the version that was used to compile\nPyTorch (11.8). Please "
	    "make sure to use the same CUDA versions.\n",
	    "RuntimeError: The detected CUDA version (12.1) mismatches "
	    "the version that was used to compile PyTorch (11.8). Please "
	    "make sure to use the same CUDA versions.",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		decide(&ex, &fx, texts[i]);
		assert_int_equal(ex.n, 1);
		assert_int_equal(ex.v[0].kind, EXPLAIN_TOOLKIT_MISMATCH);
		assert_string_equal(ex.v[0].built, "11.8");
		assert_string_equal(ex.v[0].loaded, "12.1");
		assert_int_equal(fx.s.nrep, 1);
		assert_string_equal(fx.s.rep[0].cuda, "11.8");
		assert_null(fx.unknown);
		explain_fix_release(&fx);
		explain_release(&ex);
	}
}

/* cuDNN 9's sonames are built for CUDA 11 and 12: nothing in the text
 * says which, so no install line, but the commands that find out. */
static void test_explain_cudnn_only_names_no_cuda(void **state)
{
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	decide(&ex, &fx, cudnn9_ops);
	/* one library's candidates: one finding */
	assert_int_equal(ex.n, 1);
	assert_string_equal(ex.v[0].soname, "libcudnn_ops.so.9");
	assert_non_null(fx.unknown);
	assert_int_equal(fx.lines.n, 0);
	assert_int_equal(fx.decide.n, 1);
	assert_string_equal(fx.decide.v[0], "cuenv needs --python");
	explain_fix_release(&fx);
	explain_release(&ex);

	/* a version of the framework in the text: needs reads that build */
	decide(&ex, &fx,
	       "ctranslate2==4.5.0\n"
	       "Unable to load any of "
	       "{libcudnn_ops.so.9.1.0, libcudnn_ops.so}\n");
	assert_int_equal(fx.decide.n, 2);
	assert_string_equal(fx.decide.v[0], "cuenv needs ctranslate2==4.5.0");
	explain_fix_release(&fx);
	explain_release(&ex);

	/* the build's CUDA in the text: the release is known */
	decide(&ex, &fx,
	       "torch==2.5.0+cu121\n"
	       "Unable to load any of "
	       "{libcudnn_ops.so.9.1.0, libcudnn_ops.so}\n");
	assert_null(fx.unknown);
	assert_int_equal(fx.s.nrep, 1);
	assert_string_equal(fx.s.rep[0].cuda, "12.1");
	explain_fix_release(&fx);
	explain_release(&ex);
}

/*
 * `cuenv needs --python` decides only when python3's sys.path holds a
 * framework (issue 32 item 7): with none found it is taken out and
 * fx->undecided says why, and, when no other command is left, what the
 * user can give; with one found, the commands stay as they were.
 */
static void test_explain_decide_needs_a_framework(void **state)
{
	struct explain ex;
	struct explain_fix fx;
	struct needs_python py;
	const char *text = "libcudnn.so.8: cannot open shared object file";

	(void)state;
	needs_python_init(&py, NULL);
	py.finder = xstrdup("/usr/bin/python3");
	strv_push(&py.sites, "/usr/lib/python3/dist-packages");
	decide(&ex, &fx, text);
	assert_int_equal(fx.decide.n, 1);
	explain_fix_frameworks(&fx, &py, "python3");
	assert_int_equal(fx.decide.n, 0);
	assert_non_null(fx.undecided);
	assert_non_null(strstr(fx.undecided, "1 folder of /usr/bin/python3"));
	assert_non_null(strstr(fx.undecided, "cuenv needs onnxruntime-gpu=="));
	explain_fix_release(&fx);
	explain_release(&ex);

	/* the text's framework is still asked; nothing else to give */
	decide(&ex, &fx,
	       "onnxruntime-gpu==1.17.1 libcudnn.so.8: cannot open "
	       "shared object file");
	assert_int_equal(fx.decide.n, 2);
	explain_fix_frameworks(&fx, &py, "python3");
	assert_int_equal(fx.decide.n, 1);
	assert_string_equal(fx.decide.v[0],
			    "cuenv needs onnxruntime-gpu==1.17.1");
	assert_null(strstr(fx.undecided, "give"));
	explain_fix_release(&fx);
	explain_release(&ex);

	/* a framework found: it decides */
	py.found = xcalloc(1, sizeof(*py.found));
	py.found[0].name = xstrdup("torch");
	py.nfound = 1;
	decide(&ex, &fx, text);
	explain_fix_frameworks(&fx, &py, "python3");
	assert_int_equal(fx.decide.n, 1);
	assert_string_equal(fx.decide.v[0], "cuenv needs --python");
	assert_null(fx.undecided);
	explain_fix_release(&fx);
	explain_release(&ex);
	needs_python_release(&py);

	/* no interpreter to run */
	needs_python_init(&py, NULL);
	decide(&ex, &fx, text);
	explain_fix_frameworks(&fx, &py, "python3");
	assert_int_equal(fx.decide.n, 0);
	assert_non_null(strstr(fx.undecided, "there is no python3"));
	explain_fix_release(&fx);
	explain_release(&ex);
	needs_python_release(&py);
}

/* A toolkit soname more than one CUDA major ships (nvlib's rules:
 * libcusolver.so.11 is 11.1-11.8 and 12.x) does not name the release:
 * no install line unless the text's context picks one of those majors. */
static void test_explain_shared_soname_names_no_cuda(void **state)
{
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	decide(&ex, &fx,
	       "Could not load dynamic library 'libcusolver.so.11'; dlerror: "
	       "libcusolver.so.11: cannot open shared object file\n");
	assert_false(explain_fix_cuda_named(&fx.s));
	assert_non_null(fx.unknown);
	assert_non_null(strstr(fx.unknown, "libcusolver.so.11"));
	assert_int_equal(fx.lines.n, 0);
	assert_int_equal(fx.decide.n, 1);
	assert_string_equal(fx.decide.v[0], "cuenv needs --python");
	explain_fix_release(&fx);
	explain_release(&ex);

	/* with a library of one major beside it, that major is the build's */
	decide(&ex, &fx,
	       "ImportError: libcusolver.so.11: cannot open shared object "
	       "file\nImportError: libcudart.so.11.0: cannot open shared "
	       "object file\n");
	assert_true(explain_fix_cuda_named(&fx.s));
	assert_null(fx.unknown);
	explain_fix_release(&fx);
	explain_release(&ex);

	/* the text's CUDA, one of the majors that ship it: the build's */
	decide(&ex, &fx,
	       "Successfully opened dynamic library libcudart.so.11.0\n"
	       "Could not load dynamic library 'libcusolver.so.10'; dlerror: "
	       "libcusolver.so.10: cannot open shared object file\n");
	assert_null(fx.unknown);
	assert_int_equal(fx.s.nrep, 1);
	assert_string_equal(fx.s.rep[0].cuda, "11");
	explain_fix_release(&fx);
	explain_release(&ex);
}

/* cuDNN's error names the file it loads, then the library that file
 * could not load: the driver's libcuda.so is what is missing (WSL). */
static void test_explain_failed_dependency_is_the_finding(void **state)
{
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	decide(&ex, &fx,
	       "Could not load library libcudnn_cnn_infer.so.8. Error: "
	       "libcuda.so: cannot open shared object file: No such file or "
	       "directory\n");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_DRIVER);
	assert_string_equal(ex.v[0].name, "libcuda.so");
	assert_string_equal(ex.v[0].wanted_by, "libcudnn_cnn_infer.so.8");
	/* nothing of the toolkit's asked for: no install, nothing to decide */
	assert_false(needs_asked(&fx.s, NULL));
	assert_int_equal(fx.lines.n, 0);
	assert_int_equal(fx.decide.n, 0);
	/* the report names the driver's library, libcuda, by its stem */
	{
		json_t *j = explain_json(&ex, &fx, NULL);

		assert_string_equal(
		    json_string_value(json_object_get(
			json_array_get(json_object_get(j, "findings"), 0),
			"library")),
		    "cuda");
		json_decref(j);
	}
	explain_fix_release(&fx);
	explain_release(&ex);

	/* the same name in both places: that library is the one missing */
	parse(&ex, "Could not load dynamic library 'libcudnn.so.8'; dlerror: "
		   "libcudnn.so.8: cannot open shared object file\n");
	assert_int_equal(ex.n, 1);
	assert_true(ex.v[0].missing);
	assert_null(ex.v[0].wanted_by);
	explain_release(&ex);
}

/* Where the build's CUDA comes from, and what is not the build's. */
static void test_explain_context_reads_the_build(void **state)
{
	static const struct {
		const char *text, *cuda, *cudnn;
	} cases[] = {
	    {"site-packages/torch-2.0.1+cu117.dist-info", "11.7", NULL},
	    {"jaxlib-0.4.7+cuda11.cudnn86-cp310", "11", "8.6"},
	    {"Requirement already satisfied: nvidia-cublas-cu12 in ...", "12",
	     NULL},
	    {"pip install cupy-cuda11x", "11", NULL},
	    {"paddlepaddle-gpu: 2.4.1.post112", "11.2", NULL},
	    {"CUDA used to build PyTorch: 11.7", "11.7", NULL},
	    {"The detected CUDA version (12.1) mismatches the version that "
	     "was used to compile PyTorch (11.8).",
	     "11.8", NULL},
	    {"Download and install CUDA 10.0 from this URL", "10.0", NULL},
	    {"W0814 gpu_resources.cc:61] Please NOTE: device: 0, GPU Compute "
	     "Capability: 8.6, Driver API Version: 11.6, Runtime API "
	     "Version: 11.6",
	     "11.6", NULL},
	    {"Found CUDA version 12010, but JAX was built against version "
	     "12020",
	     "12.2", NULL},
	    {"CUDA-version: 11050 (11050), cuDNN: 8.3.0", "11.5", NULL},
	    /* the driver's and the machine's, not the build's */
	    {"| NVIDIA-SMI 535.129.03   Driver Version: 535.129.03   CUDA "
	     "Version: 12.2 |",
	     NULL, NULL},
	    {"Cuda compilation tools, release 12.1, V12.1.66", NULL, NULL},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct explain ex;

		parse(&ex, cases[i].text);
		if (cases[i].cuda)
			assert_string_equal(ex.ctx.cuda, cases[i].cuda);
		else
			assert_null(ex.ctx.cuda);
		if (cases[i].cudnn)
			assert_string_equal(ex.ctx.cudnn, cases[i].cudnn);
		explain_release(&ex);
	}
}

/* Two majors in one text: the CUDA cannot be known. */
static void test_explain_context_two_majors_unknown(void **state)
{
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	decide(&ex, &fx,
	       "torch 2.0.1+cu117\ncupy-cuda12x\n"
	       "ImportError: "
	       "libcudnn.so.8: cannot open shared object file\n");
	assert_null(explain_context_cuda_known(&ex.ctx));
	assert_string_equal(ex.ctx.cuda_other, "12");
	assert_non_null(strstr(fx.unknown, "CUDA 11.7"));
	assert_int_equal(fx.lines.n, 0);
	explain_fix_release(&fx);
	explain_release(&ex);
}

/* "Successfully opened dynamic library": no finding, only context; with
 * CUPTI's privileges error nothing is installed. */
static void test_explain_success_lines_are_context(void **state)
{
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	parse(&ex, "I tensorflow/stream_executor/platform/default/"
		   "dso_loader.cc:53] Successfully opened dynamic library "
		   "libcudart.so.11.0\n");
	assert_int_equal(ex.n, 0);
	assert_int_equal(ex.ctx.loaded.n, 1);
	assert_string_equal(ex.ctx.loaded.v[0], "libcudart.so.11.0");
	assert_string_equal(ex.ctx.cuda, "11");
	explain_release(&ex);

	decide(&ex, &fx,
	       "dso_loader.cc:48] Successfully opened dynamic library "
	       "libcupti.so.10.1\n"
	       "Could not load dynamic library "
	       "'libcupti.so.10.1'\n"
	       "cupti_tracer.cc:1441] function "
	       "cupti_interface_->Subscribe( &subscriber_, (CUpti_CallbackFunc)"
	       "ApiCallback, this)failed with error "
	       "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\n");
	assert_false(needs_asked(&fx.s, NULL));
	assert_int_equal(fx.lines.n, 0);
	explain_fix_release(&fx);
	explain_release(&ex);
}

/* cudaErrorInsufficientDriver in its forms; PyTorch's found version. */
static void test_explain_driver_too_old(void **state)
{
	static const char *const texts[] = {
	    "ERROR: cudaGetDeviceCount CUDA driver version is insufficient "
	    "for CUDA runtime version",
	    "code=35(cudaErrorInsufficientDriver) \"cudaSetDevice(0)\"",
	    "RuntimeError: cuda runtime error (35) : CUDA driver version is "
	    "insufficient for CUDA runtime version at THCGeneral.cpp:70",
	};
	struct explain ex;

	(void)state;
	for (size_t i = 0; i < sizeof(texts) / sizeof(*texts); i++) {
		parse(&ex, texts[i]);
		assert_int_equal(ex.n, 1);
		assert_int_equal(ex.v[0].kind, EXPLAIN_DRIVER_OLD);
		explain_release(&ex);
	}
	parse(&ex, "RuntimeError: The NVIDIA driver on your system is too "
		   "old (found version 11040). Please update your GPU driver");
	assert_int_equal(ex.v[0].kind, EXPLAIN_DRIVER_OLD);
	assert_string_equal(ex.v[0].driver_cuda, "11.4");
	explain_release(&ex);
}

/* A symbol missing in a CUDA library: mixed copies, nothing to install;
 * the form with a symbol version is the loader model's. */
static void test_explain_mixed_copies(void **state)
{
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	decide(&ex, &fx,
	       "Could not load symbol cudnnGetLibConfig. Error: /lib/x86_64-"
	       "linux-gnu/libcudnn_graph.so.9: undefined symbol: "
	       "cudnnGetLibConfig\n");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_MIXED);
	assert_string_equal(ex.v[0].symbol, "cudnnGetLibConfig");
	assert_string_equal(ex.v[0].soname, "libcudnn_graph.so.9");
	assert_string_equal(ex.v[0].path,
			    "/lib/x86_64-linux-gnu/libcudnn_graph.so.9");
	assert_false(needs_asked(&fx.s, NULL));
	explain_fix_release(&fx);
	explain_release(&ex);

	/* a symbol of cuDNN's missing in another file */
	parse(&ex, "ImportError: /usr/lib/pyyolo.so: undefined symbol: "
		   "cudnnSetConvolutionGroupCount");
	assert_int_equal(ex.v[0].kind, EXPLAIN_MIXED);
	assert_int_equal(ex.v[0].lib->id, NVLIB_CUDNN);
	explain_release(&ex);

	/* the asker is a library of another's: the copy at fault is the
	 * symbol's owner's (sweep s2-q16-12) */
	parse(&ex, "ImportError: /usr/local/cuda/lib64/libcublas.so.4: "
		   "undefined symbol: cudaMemsetAsync");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_MIXED);
	assert_int_equal(ex.v[0].lib->id, NVLIB_CUDART);
	assert_null(ex.v[0].soname);
	explain_release(&ex);

	/* a lookup in a DLL that was loaded: no library missing, nothing
	 * to install (sweep s2-q16-01, Windows' 127 of GetProcAddress) */
	decide(&ex, &fx,
	       "Could not load symbol cublasGetSmCountTarget from "
	       "cublas64_11.dll. Error code 127\n");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_MIXED);
	assert_int_equal(ex.v[0].lib->id, NVLIB_CUBLAS);
	assert_string_equal(ex.v[0].symbol, "cublasGetSmCountTarget");
	assert_string_equal(ex.v[0].name, "cublas64_11.dll");
	assert_false(needs_asked(&fx.s, NULL));
	explain_fix_release(&fx);
	explain_release(&ex);
	/* with ld.so's own wording after it: one finding */
	parse(&ex, "Could not load symbol cublasGetSmCountTarget from "
		   "libcublas.so.11. Error: /usr/local/cuda/lib64/libcublas.so."
		   "11: undefined symbol: cublasGetSmCountTarget");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_MIXED);
	explain_release(&ex);
	parse(&ex, "Could not load symbol foo from libssl.so.3");
	assert_int_equal(ex.n, 0);
	explain_release(&ex);
	/* a DLL's own lookup, its path with spaces, of a release the
	 * catalogue lacks (PhysX's CUDA 6.5 runtime; sweep s2-q10-08) */
	decide(&ex, &fx,
	       "Symbol cudaLaunchKernel not found in C:\\Program Files "
	       "(x86)\\NVIDIA Corporation\\PhysX\\Common\\cudart64_65.dll");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_MIXED);
	assert_string_equal(ex.v[0].name, "cudart64_65.dll");
	assert_string_equal(ex.v[0].symbol, "cudaLaunchKernel");
	assert_non_null(strstr(ex.v[0].path, "Program Files (x86)"));
	assert_false(needs_asked(&fx.s, NULL));
	explain_fix_release(&fx);
	explain_release(&ex);

	assert_none(EXPLAIN_MIXED,
		    "libcudnn_cnn_infer.so.8: undefined symbol: _ZN5cudnn3ops"
		    "18GetInternalStreamsEP12cudnnContext, version "
		    "libcudnn_ops_infer.so.8");
}

/*
 * Python's ImportError for a symbol version (issue 21 item 6): one
 * finding of the asking file, the symbol, its version and the release
 * the symbol's name gives; no library findings, so no framework rows.
 */
static void test_explain_symbol_version_is_one_finding(void **state)
{
	struct explain ex;
	struct explain_fix fx;

	(void)state;
	decide(&ex, &fx,
	       "ImportError: /v/lib/python3.11/site-packages/nvidia/cusparse/"
	       "lib/libcusparse.so.12: undefined symbol: "
	       "__nvJitLinkAddData_12_1, version libnvJitLink.so.12\n"
	       "ImportError: /v/lib/python3.11/site-packages/nvidia/cusparse/"
	       "lib/libcusparse.so.12: undefined symbol: "
	       "__nvJitLinkAddData_12_1, version libnvJitLink.so.12\n");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_SYMBOL);
	assert_int_equal(ex.v[0].lib->id, NVLIB_NVJITLINK);
	assert_string_equal(ex.v[0].symbol, "__nvJitLinkAddData_12_1");
	assert_string_equal(ex.v[0].symver, "libnvJitLink.so.12");
	assert_string_equal(ex.v[0].soname, "libnvJitLink.so.12");
	assert_string_equal(ex.v[0].built, "12.1");
	assert_string_equal(ex.v[0].path,
			    "/v/lib/python3.11/site-packages/nvidia/cusparse/"
			    "lib/libcusparse.so.12");
	assert_string_equal(ex.ctx.site, "/v/lib/python3.11/site-packages");
	/* installing another copy does not help: needs is asked nothing */
	assert_false(needs_asked(&fx.s, NULL));
	explain_fix_release(&fx);
	explain_release(&ex);

	/* a symbol whose name gives no release; a version no CUDA
	 * library's, asked by a file that is not one either: no finding */
	parse(&ex, "libcudnn_cnn_infer.so.8: undefined symbol: _ZN5cudnn3ops"
		   "18GetInternalStreamsEP12cudnnContext, version "
		   "libcudnn_ops_infer.so.8");
	assert_int_equal(ex.n, 1);
	assert_int_equal(ex.v[0].kind, EXPLAIN_SYMBOL);
	assert_null(ex.v[0].built);
	explain_release(&ex);
	parse(&ex, "/usr/lib/x.so: undefined symbol: foo, version GLIBC_2.34");
	assert_int_equal(ex.n, 0);
	explain_release(&ex);
	/* a cuDNN-like name bound to another library's version: not two
	 * copies of cuDNN mixed */
	parse(&ex, "ImportError: /usr/lib/pyyolo.so: undefined symbol: "
		   "cudnnSetConvolutionGroupCount, version libyolo.so.1");
	assert_int_equal(ex.n, 0);
	explain_release(&ex);
}

/*
 * The same symbol version in the loader's relocation wording ("symbol S,
 * version V not defined in file F with link time reference", with or
 * without the comma) and the linker's ("undefined reference to
 * `S@V'"): one symbol-version finding each, never two missing
 * libraries; the linker's without @V asks no version and is no finding.
 */
static void test_explain_symbol_version_in_each_wording(void **state)
{
	static const char *const lines[] = {
	    ("OSError: /e/site-packages/nvidia/cublas/lib/libcublas.so.11: "
	     "symbol cublasLtHSHMatmulAlgoInit version libcublasLt.so.11 not "
	     "defined in file libcublasLt.so.11 with link time reference"),
	    ("(python: relocation error: /usr/local/cuda-11.1/lib64/"
	     "libcublas.so: symbol cublasLtHSHMatmulAlgoInit, version "
	     "libcublasLt.so.11 not defined in file libcublasLt.so.11 with "
	     "link time reference)"),
	    ("/usr/bin/ld: /usr/local/cuda-11.7/lib64/libcublas.so: undefined "
	     "reference to `cublasLtHSHMatmulAlgoInit@libcublasLt.so.11'"),
	};
	static const char *const paths[] = {
	    "/e/site-packages/nvidia/cublas/lib/libcublas.so.11",
	    "/usr/local/cuda-11.1/lib64/libcublas.so",
	    "/usr/local/cuda-11.7/lib64/libcublas.so",
	};
	struct explain ex;

	(void)state;
	for (size_t i = 0; i < sizeof(lines) / sizeof(*lines); i++) {
		parse(&ex, lines[i]);
		assert_int_equal(ex.n, 1);
		assert_int_equal(ex.v[0].kind, EXPLAIN_SYMBOL);
		assert_int_equal(ex.v[0].lib->id, NVLIB_CUBLASLT);
		assert_string_equal(ex.v[0].symbol,
				    "cublasLtHSHMatmulAlgoInit");
		assert_string_equal(ex.v[0].symver, "libcublasLt.so.11");
		assert_string_equal(ex.v[0].soname, "libcublasLt.so.11");
		assert_string_equal(ex.v[0].path, paths[i]);
		explain_release(&ex);
	}
	parse(&ex, "/usr/bin/ld: ../lib/libGptJTritonBackend.so: undefined "
		   "reference to `cublasLtMatmulDescCreate'");
	assert_int_equal(ex.n, 0);
	explain_release(&ex);
}

/* JAX's logs carry TensorFlow's paths: the framework named is JAX. */
static void test_explain_names_jax(void **state)
{
	struct explain ex;

	(void)state;
	parse(&ex, "E external/org_tensorflow/tensorflow/stream_executor/cuda/"
		   "cuda_dnn.cc:336] Loaded runtime CuDNN library: 8.0.5 but "
		   "source was compiled with: 8.2.1.\n");
	assert_string_equal(ex.ctx.framework, "jax");
	assert_string_equal(ex.v[0].framework, "jax");
	explain_release(&ex);
	/* TensorFlow Serving builds TensorFlow as external/org_tensorflow */
	parse(&ex, "I tensorflow_serving/model_servers/server.cc:387] "
		   "Exporting\nE external/org_tensorflow/tensorflow/core/"
		   "profiler/internal/gpu/cupti_tracer.cc:1441] failed with "
		   "error CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\n");
	assert_string_equal(ex.ctx.framework, "tensorflow");
	explain_release(&ex);
}

/*
 * TensorFlow 2.18's and jaxlib 0.4.36's absl logs print cuda_dnn.cc
 * without its folder: the line alone is TensorFlow's or JAX's ("xla"),
 * the rest of the text says which.
 */
static void test_explain_mismatch_without_a_path(void **state)
{
	static const char line[] =
	    "E0607 11:27:34.427160    7414 cuda_dnn.cc:522] Loaded runtime "
	    "CuDNN library: 9.5.1 but source was compiled with: 9.8.0.\n";
	struct explain ex;

	(void)state;
	parse(&ex, line);
	assert_int_equal(ex.n, 1);
	assert_string_equal(ex.v[0].framework, "xla");
	assert_string_equal(ex.v[0].built, "9.8.0");
	assert_string_equal(ex.v[0].loaded, "9.5.1");
	explain_release(&ex);
	parse(&ex, "python -c 'import jax; jax.numpy.sin(3)'\n"
		   "E0607 11:27:34.427160    7414 cuda_dnn.cc:522] Loaded "
		   "runtime CuDNN library: 9.5.1 but source was compiled "
		   "with: 9.8.0.\n");
	assert_string_equal(ex.v[0].framework, "jax");
	explain_release(&ex);
	parse(&ex, "E0000 00:00:1738697930.202924    7665 cuda_dnn.cc:522] "
		   "Loaded runtime CuDNN library: 9.1.0 but source was "
		   "compiled with: 9.3.0.\n2025-02-04 20:38:50.230519: W "
		   "tensorflow/core/framework/op_kernel.cc:1841] "
		   "OP_REQUIRES failed\n");
	assert_string_equal(ex.v[0].framework, "tensorflow");
	explain_release(&ex);
}

/* --json: each command an array of its words; the error of a way out. */
static void test_explain_json_commands_and_error(void **state)
{
	struct explain ex;
	struct explain_fix fx;
	struct cuenv_err err = CUENV_ERR_INIT;
	json_t *j, *fix;

	(void)state;
	explain_init(&ex);
	explain_fix_init(&fx);
	strv_push(&fx.lines, "cuenv install 11.2");
	strv_push(&fx.lines, "cuenv local 11.2");
	strv_push(&fx.lines, "export LD_LIBRARY_PATH='/a b:/c'\\''d'");
	cuenv_fail(&err, CUENV_NO, "nothing in the text");
	j = explain_json(&ex, &fx, &err);
	fix = json_object_get(j, "fix");
	assert_int_equal(json_array_size(fix), 3);
	/* a quoted word is one argument, as the shell reads it */
	assert_int_equal(json_array_size(json_array_get(fix, 2)), 2);
	assert_string_equal(
	    json_string_value(json_array_get(json_array_get(fix, 2), 1)),
	    "LD_LIBRARY_PATH=/a b:/c'd");
	assert_int_equal(json_array_size(json_array_get(fix, 0)), 3);
	assert_string_equal(
	    json_string_value(json_array_get(json_array_get(fix, 1), 1)),
	    "local");
	assert_string_equal(json_string_value(json_object_get(j, "error")),
			    "nothing in the text");
	json_decref(j);
	err_release(&err);
	explain_fix_release(&fx);
	explain_release(&ex);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_explain_tensorflow_dso_loader_linux),
	    cmocka_unit_test(test_explain_cudnn_only_names_no_cuda),
	    cmocka_unit_test(test_explain_unversioned_name_is_unknown),
	    cmocka_unit_test(test_explain_framework_dll_imports_cuda),
	    cmocka_unit_test(test_explain_shared_soname_names_no_cuda),
	    cmocka_unit_test(test_explain_failed_dependency_is_the_finding),
	    cmocka_unit_test(test_explain_context_reads_the_build),
	    cmocka_unit_test(test_explain_context_two_majors_unknown),
	    cmocka_unit_test(test_explain_success_lines_are_context),
	    cmocka_unit_test(test_explain_driver_too_old),
	    cmocka_unit_test(test_explain_mixed_copies),
	    cmocka_unit_test(test_explain_names_jax),
	    cmocka_unit_test(test_explain_symbol_version_is_one_finding),
	    cmocka_unit_test(test_explain_symbol_version_in_each_wording),
	    cmocka_unit_test(test_explain_json_commands_and_error),
	    cmocka_unit_test_setup_teardown(
		test_explain_read_joins_words_or_reads_the_fd, fx_setup,
		fx_teardown),
	    cmocka_unit_test(test_explain_verdict_names_an_unshipped_name),
	    cmocka_unit_test(test_explain_cupti_is_one_release),
	    cmocka_unit_test(test_explain_windows_dll),
	    cmocka_unit_test(test_explain_bare_sonames),
	    cmocka_unit_test(test_explain_libraries_outside_the_toolkit),
	    cmocka_unit_test(test_explain_no_release_gives_it),
	    cmocka_unit_test(test_explain_cudnn_mismatches),
	    cmocka_unit_test(test_explain_jax_library_too_old),
	    cmocka_unit_test(test_explain_reads_a_requirement_by_major),
	    cmocka_unit_test(test_explain_container_driver_and_nvrtc_builtins),
	    cmocka_unit_test(test_explain_mismatch_without_a_path),
	    cmocka_unit_test(test_explain_torch_tuple_must_be_a_version),
	    cmocka_unit_test(test_explain_finding_set_keeps_names_once),
	    cmocka_unit_test(test_explain_finding_set_other_kinds_once),
	    cmocka_unit_test(test_explain_cupti_privileges),
	    cmocka_unit_test(test_explain_bare_library_words),
	    cmocka_unit_test_setup_teardown(test_explain_frameworks_that_ask,
					    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(test_explain_scan_asks_needs,
					    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(test_explain_machine_loader_path,
					    fx_setup, fx_teardown),
	    cmocka_unit_test(test_explain_nvlib_in_words),
	    cmocka_unit_test(test_explain_decide_needs_a_framework),
	    cmocka_unit_test(test_explain_found_but_unusable),
	    cmocka_unit_test(test_explain_toolkit_mismatch),
	    cmocka_unit_test(test_explain_fix_from_the_store_or_catalogue),
	};

	cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
