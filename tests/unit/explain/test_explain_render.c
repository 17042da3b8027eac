#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "explain/explain_render.h"
#include "base/xalloc.h"

/* Messages as the frameworks print them (see test_explain.c). */
static const char dso_cudart[] =
    "2022-06-10 00:19:17.094577: W tensorflow/stream_executor/platform/"
    "default/dso_loader.cc:64] Could not load dynamic library "
    "'libcudart.so.11.0'; dlerror: libcudart.so.11.0: cannot open shared "
    "object file: No such file or directory\n";

static const char torch_cudnn[] =
    "RuntimeError: cuDNN version incompatibility: PyTorch was compiled  "
    "against (9, 26, 0) but found runtime version (9, 19, 0).\n";

static const char xla_cudnn[] =
    "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:466] Loaded "
    "runtime CuDNN library: 9.5.1 but source was compiled with: 9.8.0.\n";

static const char cupti_privileges[] =
    "cupti_tracer.cc:1445] function cupti_interface_->EnableCallback( 0 "
    ", subscriber_, CUPTI_CB_DOMAIN_DRIVER_API, cbid)failed with error "
    "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES\n";

/* What `cuenv explain` reports, gathered as cmd/explain.c gathers it. */
struct model {
	struct explain ex;
	struct explain_fix fx;
	struct buf out;
};

static int setup(void **state)
{
	struct model *m = xcalloc(1, sizeof(*m));

	explain_init(&m->ex);
	explain_fix_init(&m->fx);
	buf_init(&m->out);
	*state = m;
	return 0;
}

static int teardown(void **state)
{
	struct model *m = *state;

	explain_release(&m->ex);
	explain_fix_release(&m->fx);
	buf_release(&m->out);
	free(m);
	return 0;
}

/* Read text, as `cuenv explain TEXT` does, and render what it found. */
static const char *render(struct model *m, const char *text)
{
	if (text)
		explain_parse(&m->ex, text, strlen(text));
	buf_reset(&m->out);
	explain_render_text(&m->out, &m->ex, &m->fx);
	return m->out.data;
}

/* ---- findings ------------------------------------------------------------ */

static void test_explain_render_library_nothing_on_this_machine(void **state)
{
	struct model *m = *state;

	assert_string_equal(render(m, dso_cudart),
			    "read from the text:\n"
			    "  framework: tensorflow (\"tensorflow/stream_"
			    "executor/platform/default/dso_loader.cc...\")\n"
			    "\n"
			    "libcudart.so.11.0: libcudart of CUDA 11.x "
			    "(NVIDIA's cuda_cudart, pip's "
			    "nvidia-cuda-runtime-cuNN)\n"
			    "  the program could not load it\n"
			    "  this machine: no libcudart installed, "
			    "registered or on the loader's path\n");
}

static void test_explain_render_windows_dll_names_its_soname(void **state)
{
	struct model *m = *state;

	assert_string_equal(render(m, "cudart64_110.dll"),
			    "cudart64_110.dll: the Windows DLL of libcudart "
			    "of CUDA 11.x (NVIDIA's cuda_cudart, pip's "
			    "nvidia-cuda-runtime-cuNN)\n"
			    "  on Linux the same library is "
			    "libcudart.so.11.0\n"
			    "  this machine: no libcudart installed, "
			    "registered or on the loader's path\n");
}

/* A DLL lacking a symbol: Windows' search order, not ld.so's */
static void test_explain_render_dll_lacking_a_symbol(void **state)
{
	struct model *m = *state;

	assert_string_equal(
	    render(m, "Could not load symbol cublasGetSmCountTarget from "
		      "cublas64_11.dll. Error code 127"),
	    "undefined symbol cublasGetSmCountTarget in cublas64_11.dll: two "
	    "copies of libcublas from different releases are mixed in one "
	    "process\n"
	    "  no library is missing: installing another copy does not help\n"
	    "  this machine: no other libcublas installed, registered or on "
	    "the loader's path\n"
	    "  note: keep one release where Windows looks: remove the other's "
	    "folder from PATH, or let the framework's own copy (beside its "
	    "DLLs, its pip wheels) load first\n");
}

static void test_explain_render_the_driver_is_not_cuenvs(void **state)
{
	struct model *m = *state;

	assert_string_equal(render(m, "libcuda.so.1"),
			    "libcuda.so.1: the NVIDIA driver's library\n"
			    "  it comes with the driver, not with a CUDA "
			    "toolkit: cuenv does not install it\n"
			    "  note: install NVIDIA's driver (`cuenv check` "
			    "says whether one is loaded and how old it is)\n"
			    "  note: on WSL the driver is Windows' and its "
			    "libcuda.so is in /usr/lib/wsl/lib: that folder "
			    "must be on the loader's path "
			    "(LD_LIBRARY_PATH=/usr/lib/wsl/lib)\n");
}

static void test_explain_render_no_release_gives_the_name(void **state)
{
	struct model *m = *state;

	assert_string_equal(render(m, "libcudart.so.99"),
			    "libcudart.so.99: libcudart by its name, but no "
			    "CUDA release ships it under that name\n"
			    "  this machine: no libcudart installed, "
			    "registered or on the loader's path\n");
}

static void test_explain_render_cudnn_mismatch_names_the_framework(void **state)
{
	struct model *m = *state;
	const char *t = render(m, torch_cudnn);

	assert_non_null(strstr(t, "torch was built with cuDNN 9.26.0 but "
				  "loaded cuDNN 9.19.0\n"
				  "  it needs cuDNN 9.x, at least 9.26.0: the "
				  "same major, the same or a newer minor\n"));
	explain_release(&m->ex);
	explain_init(&m->ex);
	t = render(m, xla_cudnn);
	/* external/xla/ is JAX's build of XLA (TensorFlow's is
	 * external/local_xla/) */
	assert_non_null(strstr(t, "\nJAX (XLA) was built with cuDNN 9.8.0 but "
				  "loaded cuDNN 9.5.1\n"));
}

static void test_explain_render_cupti_privileges_stop_there(void **state)
{
	struct model *m = *state;
	const char *t = render(m, cupti_privileges);

	assert_true(!strncmp(t, "CUPTI_ERROR_INSUFFICIENT_PRIVILEGES: ", 37));
	assert_non_null(strstr(t, "  no library is missing: a cuenv "
				  "selection does not change it\n"));
	assert_null(strstr(t, "this machine"));
	assert_null(strstr(t, "asked for by"));
}

static void test_explain_render_rows_and_what_this_machine_has(void **state)
{
	struct model *m = *state;
	struct explain_finding *f;
	struct explain_row row = {.framework = "tensorflow",
				  .versions = "2.5.0 to 2.11.0",
				  .cuda = "11.2",
				  .cudnn = "8.1",
				  .windows = true};

	render(m, "libcupti.so.11.2");
	f = &m->ex.v[0];
	f->rows = &row;
	f->nrows = 1;
	strv_push(&f->store, "cuda 11.8.0 (installed) gives libcupti.so.11.8: "
			     "/s/11.8.0/extras/CUPTI/lib64");
	strv_push(&f->loader, "LD_LIBRARY_PATH: /opt/cupti");
	assert_string_equal(
	    render(m, NULL),
	    "libcupti.so.11.2: libcupti of CUDA 11.2 "
	    "(NVIDIA's cuda_cupti, pip's "
	    "nvidia-cuda-cupti-cuNN)\n"
	    "  asked for by (the frameworks table):\n"
	    "    tensorflow 2.5.0 to 2.11.0 (Windows): CUDA "
	    "11.2, cuDNN 8.1\n"
	    "  this machine:\n"
	    "    cuda 11.8.0 (installed) gives libcupti.so.11.8: "
	    "/s/11.8.0/extras/CUPTI/lib64\n"
	    "    LD_LIBRARY_PATH: /opt/cupti\n"
	    "    none of them is libcupti.so.11.2\n");
	f->loader_exact = true;
	assert_null(strstr(render(m, NULL), "none of them"));
	f->rows = NULL; /* the row is the test's */
	f->nrows = 0;
}

static void test_explain_render_separates_findings(void **state)
{
	struct model *m = *state;
	const char *t = render(m, "libcuda.so.1 libcuda.so.1 libcudart.so.99");

	assert_non_null(strstr(t, "/usr/lib/wsl/lib)\n\nlibcudart.so.99: "));
}

/* ---- the fix ------------------------------------------------------------- */

/* The text asks for libcupti.so.11.2 of cuenv (explain_scan). */
static void ask(struct model *m)
{
	render(m, "libcupti.so.11.2");
	explain_scan(&m->ex, &m->fx.s);
	needs_scan_finish(&m->fx.s);
}

static void test_explain_render_fix_says_state_and_lines(void **state)
{
	struct model *m = *state;
	const char *t;

	ask(m);
	m->fx.state = xstrdup("cuda 11.2.2 (installed) gives it");
	strv_push(&m->fx.lines, "cuenv local 11.2.2");
	t = render(m, NULL);
	assert_non_null(strstr(t,
			       "loader's path\n"
			       "\n"
			       "installed: cuda 11.2.2 (installed) gives it\n"
			       "  fix: cuenv local 11.2.2\n"));
	assert_null(strstr(t, "catalogue:"));
}

static void test_explain_render_fix_reports_each_toolkit(void **state)
{
	struct model *m = *state;
	const char *t;

	ask(m);
	strv_push(&m->fx.in.report, "cuda 12.4.1: lacks libcupti.so.11.2");
	strv_push(&m->fx.in.report, "cuda 11.8.0: lacks libcupti.so.11.2");
	strv_push(&m->fx.lines, "cuenv install 11.2");
	strv_push(&m->fx.lines, "cuenv local 11.2");
	t = render(m, NULL);
	assert_non_null(strstr(t, "\n\ninstalled: cuda 12.4.1: lacks "
				  "libcupti.so.11.2\n"
				  "installed: cuda 11.8.0: lacks "
				  "libcupti.so.11.2\n"
				  "  fix: cuenv install 11.2\n"
				  "  fix: cuenv local 11.2\n"));
}

static void test_explain_render_no_fix_says_why(void **state)
{
	struct model *m = *state;

	ask(m);
	assert_non_null(strstr(render(m, NULL),
			       "\n\ninstalled: no CUDA in the store\n"
			       "catalogue: not read\n"));
	buf_adds(&m->fx.o.why, "no release gives libcupti.so.11.2");
	assert_non_null(strstr(render(m, NULL), "\ncatalogue: no release gives "
						"libcupti.so.11.2\n"));
}

static void test_explain_render_nothing_asked_no_fix(void **state)
{
	struct model *m = *state;

	render(m, cupti_privileges);
	explain_scan(&m->ex, &m->fx.s);
	needs_scan_finish(&m->fx.s);
	assert_false(needs_asked(&m->fx.s, NULL));
	m->fx.state = xstrdup("not shown");
	assert_null(strstr(render(m, NULL), "installed:"));
}

static void test_explain_render_json_or_text(void **state)
{
	struct model *m = *state;
	struct buf out = BUF_INIT;

	render(m, dso_cudart);
	explain_render(&out, &m->ex, &m->fx, 0, NULL);
	assert_string_equal(out.data, m->out.data);
	buf_reset(&out);
	explain_render(&out, &m->ex, &m->fx, 1, NULL);
	assert_true(!strncmp(out.data, "{\n  \"", 5));
	assert_non_null(strstr(out.data, "\"libcudart.so.11.0\""));
	assert_string_equal(out.data + out.len - 2, "}\n");
	buf_release(&out);
}

/* Past EXPLAIN_KEEP findings, the report says how many it left out. */
static void test_explain_render_says_how_many_not_shown(void **state)
{
	struct model *m = *state;
	struct buf text = BUF_INIT, out = BUF_INIT;
	json_t *j;

	for (int i = 0; i < EXPLAIN_KEEP + 25; i++)
		buf_printf(&text, "cudart64_%d.dll\n", 1000 + i);
	explain_parse(&m->ex, text.data, text.len);
	render(m, NULL);
	assert_non_null(strstr(m->out.data, "cudart64_1099.dll: "));
	assert_null(strstr(m->out.data, "cudart64_1100.dll"));
	assert_string_equal(m->out.data + m->out.len -
				strlen("\n\n... and 25 more names not shown\n"),
			    "\n\n... and 25 more names not shown\n");
	explain_render(&out, &m->ex, &m->fx, 1, NULL);
	j = json_loads(out.data, 0, NULL);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "omitted")), 25);
	assert_int_equal(json_array_size(json_object_get(j, "findings")),
			 EXPLAIN_KEEP);
	json_decref(j);
	BUF_RELEASE_EACH(&text, &out);
}

#define T(f) cmocka_unit_test_setup_teardown(f, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_explain_render_library_nothing_on_this_machine),
	    T(test_explain_render_windows_dll_names_its_soname),
	    T(test_explain_render_dll_lacking_a_symbol),
	    T(test_explain_render_the_driver_is_not_cuenvs),
	    T(test_explain_render_no_release_gives_the_name),
	    T(test_explain_render_cudnn_mismatch_names_the_framework),
	    T(test_explain_render_cupti_privileges_stop_there),
	    T(test_explain_render_rows_and_what_this_machine_has),
	    T(test_explain_render_separates_findings),
	    T(test_explain_render_fix_says_state_and_lines),
	    T(test_explain_render_fix_reports_each_toolkit),
	    T(test_explain_render_no_fix_says_why),
	    T(test_explain_render_nothing_asked_no_fix),
	    T(test_explain_render_json_or_text),
	    T(test_explain_render_says_how_many_not_shown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
