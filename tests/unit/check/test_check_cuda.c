/*
 * test_check_cuda: the probe's own code (core/check/check_cuda.c), in-process,
 * against the fake CUDA libraries of fakes/cuda (built by the Makefile,
 * loaded by their paths; fake.h lists the FAKE_* variables each test
 * sets). With a CUDA toolkit at build time (CUENV_CUDA_INCLUDE), the
 * values of core/nvidia/cuda_abi.h are also compared with NVIDIA's headers, and
 * the embedded PTX is compiled with the toolkit's ptxas.
 */
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "nvidia/cuda_abi.h"
#include "check/check.h"
#include "fakes/fixture.h"

#ifdef CUENV_CUDA_INCLUDE
#include <cuda.h>
#include <cuda_runtime_api.h>
#include <cudnn.h>
#include <cupti.h>
#endif

#ifndef CUENV_FAKE_CUDA_DIR
#error "build with -DCUENV_FAKE_CUDA_DIR='\"/path/to/fakes\"'"
#endif

#define FAKE(name) CUENV_FAKE_CUDA_DIR "/" name

static const char *const fake_vars[] = {
    "FAKE_CUDA_DRIVER_VERSION",	 "FAKE_CUDA_DEVICES",
    "FAKE_CUDA_INIT_ERROR",	 "FAKE_KERNEL_WRONG",
    "FAKE_CUDART_VERSION",	 "FAKE_CUDNN_VERSION",
    "FAKE_CUDNN_CUDART_VERSION", "FAKE_CUDNN_WRONG",
    "FAKE_CUPTI_VERSION",	 "FAKE_CUPTI_NO_RECORDS",
    "FAKE_CUPTI_BAD_TIMES",	 "FAKE_CUDA_LAUNCH_ERROR",
    "FAKE_CUPTI_ENABLE_ERROR",
};

static int clear_env(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(fake_vars) / sizeof(*fake_vars); i++)
		unsetenv(fake_vars[i]);
	return 0;
}

/* What cuenv check would ask for CUDA 12.4.1 + cuDNN 9 on a 550 driver. */
static void probe_init(struct check_probe *p)
{
	memset(p, 0, sizeof(*p));
	p->cuda = "12.4.1";
	p->cudnn = "9.1.0";
	p->driver_need = "550.54.15";
	p->driver_compat = "525";
	p->driver_module = "550.54.15";
	p->module_root = "/nonexistent";
	p->driver_lib = FAKE("libcuda.so");
	p->runtime_lib = FAKE("libcudart.so");
	p->cudnn_lib = FAKE("libcudnn.so");
	p->cupti_lib = FAKE("libcupti.so");
	p->unload = true;
}

static int run_probe(struct check_probe *p, struct check_report *r)
{
	check_report_init(r);
	check_probe_run(p, r);
	return check_report_rc(r, NULL);
}

static void assert_contains(const char *s, const char *part)
{
	if (!s || !strstr(s, part))
		fail_msg("'%s' does not contain '%s'", s ? s : "(null)", part);
}

/* ---- every layer --------------------------------------------------------- */

static void test_check_cuda_every_layer_passes(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	assert_int_equal(run_probe(&p, &r), CUENV_OK);
	for (int i = 0; i < CHECK_LAYERS; i++)
		if (r.layer[i].status != CHECK_PASS)
			fail_msg("%s: %s", check_layer_name(i),
				 r.layer[i].message);
	assert_string_equal(r.layer[CHECK_DRIVER].version, "550.54.15");
	assert_string_equal(r.layer[CHECK_DRIVER].file, FAKE("libcuda.so"));
	assert_string_equal(FX_DETAIL(&r.layer[CHECK_DRIVER], "cuda"), "12.4");
	assert_string_equal(r.layer[CHECK_RUNTIME].version, "12.4");
	assert_string_equal(r.layer[CHECK_RUNTIME].file, FAKE("libcudart.so"));
	assert_string_equal(FX_DETAIL(&r.layer[CHECK_RUNTIME], "compute"),
			    "8.0");
	assert_string_equal(FX_DETAIL(&r.layer[CHECK_RUNTIME], "name"),
			    "cuenv fake GPU");
	assert_string_equal(r.layer[CHECK_CUDNN].version, "9.1.0");
	assert_string_equal(FX_DETAIL(&r.layer[CHECK_CUDNN], "cuda"), "12.2");
	assert_string_equal(r.layer[CHECK_CUPTI].version, "22");
	assert_string_equal(FX_DETAIL(&r.layer[CHECK_CUPTI], "records"), "2");
	assert_contains(r.layer[CHECK_CUPTI].message, "traced cuenv_vadd");
	check_report_release(&r);
}

static void collect(void *arg, const char *step)
{
	struct strv *steps = arg;

	strv_push(steps, step);
}

static void test_check_cuda_reports_each_step_as_it_starts(void **state)
{
	struct check_probe p;
	struct check_report r;
	struct strv steps = STRV_INIT;
	struct buf all = BUF_INIT;

	(void)state;
	probe_init(&p);
	p.stage = collect;
	p.stage_arg = &steps;
	run_probe(&p, &r);
	strv_join(&steps, ' ', &all);
	/* CUPTI traces before the context exists and the kernel runs */
	assert_string_equal(
	    all.data, "driver cupti runtime kernel cudnn cupti-trace done");
	buf_release(&all);
	strv_release(&steps);
	check_report_release(&r);
}

/* ---- driver -------------------------------------------------------------- */

static void test_check_cuda_no_driver_still_loads_the_rest(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	p.driver_lib = FAKE("libcuda-none.so");
	p.driver_module = NULL; /* and none in /nonexistent/sys */
	assert_int_equal(run_probe(&p, &r), CUENV_E_DRIVER);
	assert_int_equal(r.layer[CHECK_DRIVER].status, CHECK_FAIL);
	assert_contains(r.layer[CHECK_DRIVER].message, "no NVIDIA driver");
	assert_contains(r.layer[CHECK_DRIVER].message, "cannot be loaded");
	assert_contains(r.layer[CHECK_DRIVER].fix, ">= 550.54.15");
	for (int i = CHECK_RUNTIME; i < CHECK_LAYERS; i++)
		assert_int_equal(r.layer[i].status, CHECK_SKIP);
	/* what needs no GPU was still learnt */
	assert_string_equal(r.layer[CHECK_RUNTIME].version, "12.4");
	assert_string_equal(r.layer[CHECK_RUNTIME].file, FAKE("libcudart.so"));
	assert_string_equal(r.layer[CHECK_CUDNN].version, "9.1.0");
	assert_string_equal(r.layer[CHECK_CUPTI].version, "22");
	assert_contains(r.layer[CHECK_CUDNN].message, "driver layer");
	check_report_release(&r);
}

/*
 * NVIDIA's CUDA 11.8 runtime (nvidia-cuda-runtime-cu11 11.8.89) answers
 * cudaRuntimeGetVersion with cudaErrorInsufficientDriver (35) when no
 * driver loads: the runtime is then skipped, named as such, its version
 * read from the receipt, and never blamed.
 */
static void
test_check_cuda_cuda11_runtime_without_driver_is_skipped(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	p.cuda = "11.8.0";
	p.runtime_lib = FAKE("libcudart11.so");
	p.driver_lib = FAKE("libcuda-none.so");
	p.driver_module = NULL;
	assert_int_equal(run_probe(&p, &r), CUENV_E_DRIVER);
	assert_int_equal(r.layer[CHECK_DRIVER].status, CHECK_FAIL);
	assert_int_equal(r.layer[CHECK_RUNTIME].status, CHECK_SKIP);
	assert_string_equal(r.layer[CHECK_RUNTIME].version, "11.8");
	assert_contains(r.layer[CHECK_RUNTIME].message, "skipped: no driver");
	assert_contains(r.layer[CHECK_RUNTIME].message, "receipt");
	assert_contains(r.layer[CHECK_RUNTIME].message,
			"cudaErrorInsufficientDriver");
	assert_null(r.layer[CHECK_RUNTIME].fix);
	check_report_release(&r);
}

/* A runtime whose soname is not its release's is damaged: blamed. */
static void test_check_cuda_cuda11_runtime_with_wrong_soname(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	p.cuda = "11.8.0";
	p.driver_lib = FAKE("libcuda-none.so");
	p.driver_module = NULL;
	setenv("FAKE_CUDART_VERSION", "11080", 1); /* soname libcudart.so.12 */
	run_probe(&p, &r);
	assert_int_equal(r.layer[CHECK_RUNTIME].status, CHECK_FAIL);
	assert_contains(r.layer[CHECK_RUNTIME].message,
			"has the soname libcudart.so.12, not CUDA 11.8.0's");
	assert_contains(r.layer[CHECK_RUNTIME].fix,
			"install the toolkit again");
	check_report_release(&r);
}

/* A runtime whose real file name says another major is the wrong file. */
static void test_check_cuda_cuda11_runtime_named_for_another_major(void **state)
{
	struct fixture *fx = *state;
	struct check_probe p;
	struct check_report r;
	char *link = fx_path(fx, "libcudart.so.12.4.127");
	FILE *in = fopen(FAKE("libcudart11.so"), "rb"),
	     *out = fopen(link, "wb");
	char chunk[4096];
	size_t n;

	/* a copy: the real name is what is read, through any links */
	assert_non_null(in);
	assert_non_null(out);
	while ((n = fread(chunk, 1, sizeof(chunk), in)) > 0)
		assert_int_equal(fwrite(chunk, 1, n, out), n);
	fclose(in);
	assert_int_equal(fclose(out), 0);
	probe_init(&p);
	p.cuda = "11.8.0";
	p.runtime_lib = link;
	p.driver_lib = FAKE("libcuda-none.so");
	p.driver_module = NULL;
	setenv("FAKE_CUDART_VERSION", "11080", 1);
	run_probe(&p, &r);
	assert_int_equal(r.layer[CHECK_RUNTIME].status, CHECK_FAIL);
	assert_contains(r.layer[CHECK_RUNTIME].message,
			"is CUDA 12 by its name");
	assert_contains(r.layer[CHECK_RUNTIME].fix,
			"install the toolkit again");
	check_report_release(&r);
	free(link);
	unsetenv("FAKE_CUDART_VERSION");
}

static void test_check_cuda_driver_too_old(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	p.driver_module = "470.82.01";
	setenv("FAKE_CUDA_DRIVER_VERSION", "11040", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_DRIVER);
	assert_contains(r.layer[CHECK_DRIVER].message, "too old");
	assert_contains(r.layer[CHECK_DRIVER].fix, "cuda-compat-12-4");
	assert_string_equal(FX_DETAIL(&r.layer[CHECK_DRIVER], "module_source"),
			    "CUENV_DRIVER_VERSION");
	check_report_release(&r);
}

static void test_check_cuda_reads_the_module_version(void **state)
{
	struct fixture *fx = *state;
	struct check_probe p;
	struct check_report r;

	probe_init(&p);
	p.driver_module = NULL;
	p.module_root = fx->root;
	fx_write(fx, "sys/module/nvidia/version", "555.42.06\n");
	assert_int_equal(run_probe(&p, &r), CUENV_OK);
	assert_string_equal(r.layer[CHECK_DRIVER].version, "555.42.06");
	assert_string_equal(FX_DETAIL(&r.layer[CHECK_DRIVER], "module_source"),
			    "/sys/module/nvidia/version");
	check_report_release(&r);
}

static void test_check_cuda_stub_driver_is_named(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	setenv("FAKE_CUDA_INIT_ERROR", "34", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_DRIVER);
	assert_contains(r.layer[CHECK_DRIVER].message, "stub libcuda.so.1");
	assert_contains(r.layer[CHECK_DRIVER].message,
			"CUDA_ERROR_STUB_LIBRARY");
	assert_contains(r.layer[CHECK_DRIVER].fix, "off LD_LIBRARY_PATH");
	check_report_release(&r);
}

/* ---- runtime and kernel -------------------------------------------------- */

static void test_check_cuda_no_device(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	setenv("FAKE_CUDA_DEVICES", "0", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_RUNTIME);
	assert_int_equal(r.layer[CHECK_DRIVER].status, CHECK_PASS);
	assert_contains(r.layer[CHECK_RUNTIME].message, "no CUDA device");
	assert_contains(r.layer[CHECK_RUNTIME].message, "cudaErrorNoDevice");
	assert_int_equal(r.layer[CHECK_KERNEL].status, CHECK_SKIP);
	check_report_release(&r);
}

static void test_check_cuda_runtime_of_another_major(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	setenv("FAKE_CUDART_VERSION", "11080", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_RUNTIME);
	assert_contains(r.layer[CHECK_RUNTIME].message,
			"is CUDA 11.8, not the selected CUDA 12.4.1");
	check_report_release(&r);
}

static void test_check_cuda_wrong_kernel_result(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	setenv("FAKE_KERNEL_WRONG", "1", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_KERNEL);
	assert_contains(r.layer[CHECK_KERNEL].message, "c[7]");
	assert_contains(r.layer[CHECK_KERNEL].message, "1 of 4096");
	assert_int_equal(r.layer[CHECK_CUPTI].status, CHECK_SKIP);
	check_report_release(&r);
}

static void test_check_cuda_failed_launch(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	setenv("FAKE_CUDA_LAUNCH_ERROR", "719", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_KERNEL);
	assert_contains(r.layer[CHECK_KERNEL].message,
			"cuLaunchKernel failed: CUDA_ERROR_LAUNCH_FAILED");
	assert_contains(r.layer[CHECK_CUPTI].message,
			"needs the kernel layer, which failed");
	check_report_release(&r);
}

/* ---- cuDNN --------------------------------------------------------------- */

static void test_check_cuda_cudnn_built_for_another_cuda(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	p.cudnn = "8.9.7";
	setenv("FAKE_CUDNN_VERSION", "8907", 1);
	setenv("FAKE_CUDNN_CUDART_VERSION", "11080", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_CUDNN);
	assert_string_equal(r.layer[CHECK_CUDNN].version, "8.9.7");
	assert_contains(r.layer[CHECK_CUDNN].message, "built for CUDA 11");
	assert_contains(r.layer[CHECK_CUDNN].fix,
			"cuenv install 12.4 --cudnn 8");
	check_report_release(&r);
}

static void test_check_cuda_wrong_convolution(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	setenv("FAKE_CUDNN_WRONG", "1", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_CUDNN);
	assert_contains(r.layer[CHECK_CUDNN].message, "y[4]");
	assert_contains(r.layer[CHECK_CUDNN].message, "CPU reference");
	check_report_release(&r);
}

static void test_check_cuda_no_cudnn_asked(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	p.cudnn = NULL;
	p.cudnn_lib = NULL;
	assert_int_equal(run_probe(&p, &r), CUENV_OK);
	assert_false(r.layer[CHECK_CUDNN].asked);
	assert_int_equal(r.layer[CHECK_CUDNN].status, CHECK_SKIP);
	check_report_release(&r);
}

/* ---- CUPTI --------------------------------------------------------------- */

static void test_check_cuda_missing_cupti(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	p.cuda = "11.2.2";
	p.driver_need = "460.32.03";
	p.driver_module = "460.32.03";
	p.cudnn = NULL;
	p.cudnn_lib = NULL;
	p.cupti_lib = "libcupti.so.11.2";
	setenv("FAKE_CUDA_DRIVER_VERSION", "11020", 1);
	setenv("FAKE_CUDART_VERSION", "11020", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_CUPTI);
	assert_contains(r.layer[CHECK_CUPTI].message,
			"could not load dynamic library 'libcupti.so.11.2'");
	assert_contains(r.layer[CHECK_CUPTI].fix, "--cupti 11.2");
	check_report_release(&r);
}

static void test_check_cuda_cupti_record_layouts(void **state)
{
	/* CUDA 10.x, 11.0, 11.2, 11.6, 11.8, 12.0, 12.4, 13.0 */
	static const char *const apis[] = {"12", "13", "15", "17",
					   "18", "19", "22", "130001"};
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	for (size_t i = 0; i < sizeof(apis) / sizeof(*apis); i++) {
		setenv("FAKE_CUPTI_VERSION", apis[i], 1);
		if (run_probe(&p, &r))
			fail_msg("CUPTI API %s: %s", apis[i],
				 r.layer[CHECK_CUPTI].message);
		assert_string_equal(FX_DETAIL(&r.layer[CHECK_CUPTI], "api"),
				    apis[i]);
		assert_string_equal(
		    FX_DETAIL(&r.layer[CHECK_CUPTI], "kernel_records"), "1");
		check_report_release(&r);
	}
}

static void test_check_cuda_cupti_older_than_cuda_9(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	setenv("FAKE_CUPTI_VERSION", "9", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_CUPTI);
	assert_contains(r.layer[CHECK_CUPTI].message, "older than CUDA 9");
	check_report_release(&r);
}

static void test_check_cuda_cupti_records_nothing(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	setenv("FAKE_CUPTI_NO_RECORDS", "1", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_CUPTI);
	assert_contains(r.layer[CHECK_CUPTI].message,
			"did not record the test kernel");
	check_report_release(&r);
}

static void test_check_cuda_cupti_impossible_timestamps(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	setenv("FAKE_CUPTI_BAD_TIMES", "1", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_CUPTI);
	assert_contains(r.layer[CHECK_CUPTI].message, "impossible timestamps");
	check_report_release(&r);
}

static void test_check_cuda_cupti_cannot_trace(void **state)
{
	struct check_probe p;
	struct check_report r;

	(void)state;
	probe_init(&p);
	setenv("FAKE_CUPTI_ENABLE_ERROR", "1", 1);
	assert_int_equal(run_probe(&p, &r), CUENV_E_CUPTI);
	assert_contains(r.layer[CHECK_CUPTI].message, "cannot trace kernels");
	assert_contains(r.layer[CHECK_CUPTI].message,
			"CUPTI_ERROR_INVALID_PARAMETER");
	/* the kernel itself is fine */
	assert_int_equal(r.layer[CHECK_KERNEL].status, CHECK_PASS);
	check_report_release(&r);
}

/* ---- the selection's files ----------------------------------------------- */

static void test_check_cuda_library_outside_the_selection_fails(void **state)
{
	struct fixture *fx = *state;
	struct check_probe p;
	struct check_report r;
	char *own = fx_path(fx, "selection/lib64");

	probe_init(&p);
	fx_mkdir(fx, "selection/lib64");
	strv_push(&p.own, own);
	p.ld_library_path = CUENV_FAKE_CUDA_DIR;
	assert_int_equal(run_probe(&p, &r), CUENV_E_RUNTIME);
	for (int i = CHECK_RUNTIME; i < CHECK_LAYERS; i++) {
		if (i == CHECK_KERNEL)
			continue;
		assert_true(r.layer[i].foreign);
		assert_contains(r.layer[i].message, "foreign copy");
		assert_contains(r.layer[i].fix, "--isolate");
	}
	assert_false(r.layer[CHECK_DRIVER].foreign);
	strv_release(&p.own);
	free(own);
	check_report_release(&r);
}

/* ---- against NVIDIA's headers -------------------------------------------- */

static void test_check_cuda_ptx_names_its_entry(void **state)
{
	(void)state;
	assert_non_null(strstr(check_vadd_ptx, ".visible .entry cuenv_vadd("));
	assert_non_null(strstr(check_vadd_ptx, ".version 6.0"));
}

#ifdef CUENV_CUDA_INCLUDE
#define OFF(T, f) ((int)offsetof(T, f))

static void kernel_record_layout(void)
{
	/* every record since CUDA 9.0 keeps these offsets */
	assert_int_equal(OFF(CUpti_ActivityKernel4, start),
			 CUENV_CUPTI_KERNEL_START);
	assert_int_equal(OFF(CUpti_ActivityKernel4, end),
			 CUENV_CUPTI_KERNEL_END);
	assert_int_equal(OFF(CUpti_ActivityKernel4, correlationId),
			 CUENV_CUPTI_KERNEL_CORRELATION);
	assert_int_equal(OFF(CUpti_ActivityKernel4, name),
			 CUENV_CUPTI_KERNEL_NAME);
#define SAME_AS_4(T)                                                           \
	assert_int_equal(OFF(T, start), CUENV_CUPTI_KERNEL_START);             \
	assert_int_equal(OFF(T, end), CUENV_CUPTI_KERNEL_END);                 \
	assert_int_equal(OFF(T, correlationId),                                \
			 CUENV_CUPTI_KERNEL_CORRELATION);                      \
	assert_int_equal(OFF(T, name), CUENV_CUPTI_KERNEL_NAME)
	SAME_AS_4(CUpti_ActivityKernel5);
	SAME_AS_4(CUpti_ActivityKernel6);
	SAME_AS_4(CUpti_ActivityKernel7);
	SAME_AS_4(CUpti_ActivityKernel8);
	SAME_AS_4(CUpti_ActivityKernel9);
	SAME_AS_4(CUpti_ActivityKernel10);
#undef SAME_AS_4
	/* the layout before: CUDA 8 and older */
	assert_true(OFF(CUpti_ActivityKernel2, start) !=
		    CUENV_CUPTI_KERNEL_START);
	assert_int_equal(OFF(CUpti_ActivityKernel10, name) + 8,
			 CUENV_CUPTI_KERNEL_PREFIX);
}

static void test_check_cuda_abi_matches_nvidia_headers(void **state)
{
	(void)state;
	assert_int_equal(CUENV_CUDA_SUCCESS, CUDA_SUCCESS);
	assert_int_equal(CUENV_CUDA_ERROR_INVALID_VALUE,
			 CUDA_ERROR_INVALID_VALUE);
	assert_int_equal(CUENV_CUDA_ERROR_OUT_OF_MEMORY,
			 CUDA_ERROR_OUT_OF_MEMORY);
	assert_int_equal(CUENV_CUDA_ERROR_NOT_INITIALIZED,
			 CUDA_ERROR_NOT_INITIALIZED);
	assert_int_equal(CUENV_CUDA_ERROR_STUB_LIBRARY,
			 CUDA_ERROR_STUB_LIBRARY);
	assert_int_equal(CUENV_CUDA_ERROR_DEVICE_UNAVAILABLE,
			 CUDA_ERROR_DEVICE_UNAVAILABLE);
	assert_int_equal(CUENV_CUDA_ERROR_NO_DEVICE, CUDA_ERROR_NO_DEVICE);
	assert_int_equal(CUENV_CUDA_ERROR_INVALID_DEVICE,
			 CUDA_ERROR_INVALID_DEVICE);
	assert_int_equal(CUENV_CUDA_ERROR_INVALID_IMAGE,
			 CUDA_ERROR_INVALID_IMAGE);
	assert_int_equal(CUENV_CUDA_ERROR_NO_BINARY_FOR_GPU,
			 CUDA_ERROR_NO_BINARY_FOR_GPU);
	assert_int_equal(CUENV_CUDA_ERROR_INVALID_PTX, CUDA_ERROR_INVALID_PTX);
	assert_int_equal(CUENV_CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
			 CUDA_ERROR_UNSUPPORTED_PTX_VERSION);
	assert_int_equal(CUENV_CUDA_ERROR_NOT_FOUND, CUDA_ERROR_NOT_FOUND);
	assert_int_equal(CUENV_CUDA_ERROR_LAUNCH_FAILED,
			 CUDA_ERROR_LAUNCH_FAILED);
	assert_int_equal(CUENV_CUDA_ERROR_SYSTEM_DRIVER_MISMATCH,
			 CUDA_ERROR_SYSTEM_DRIVER_MISMATCH);
	assert_int_equal(CUENV_CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE,
			 CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE);
	assert_int_equal(CUENV_CUDA_ERROR_UNKNOWN, CUDA_ERROR_UNKNOWN);
	assert_int_equal(sizeof(cuenv_CUdeviceptr), sizeof(CUdeviceptr));
	assert_int_equal(sizeof(cuenv_CUdevice), sizeof(CUdevice));
	assert_int_equal(sizeof(cuenv_CUresult), sizeof(CUresult));

	assert_int_equal(CUENV_CUDART_SUCCESS, cudaSuccess);
	assert_int_equal(CUENV_CUDART_ERROR_INSUFFICIENT_DRIVER,
			 cudaErrorInsufficientDriver);
	assert_int_equal(CUENV_CUDART_ERROR_NO_DEVICE, cudaErrorNoDevice);
	assert_int_equal(CUENV_CUDART_ERROR_INVALID_DEVICE,
			 cudaErrorInvalidDevice);
	assert_int_equal(CUENV_CUDART_ATTR_CC_MAJOR,
			 cudaDevAttrComputeCapabilityMajor);
	assert_int_equal(CUENV_CUDART_ATTR_CC_MINOR,
			 cudaDevAttrComputeCapabilityMinor);
	assert_int_equal(CUENV_CUDART_MEMCPY_H2D, cudaMemcpyHostToDevice);
	assert_int_equal(CUENV_CUDART_MEMCPY_D2H, cudaMemcpyDeviceToHost);

	assert_int_equal(CUENV_CUDNN_STATUS_SUCCESS, CUDNN_STATUS_SUCCESS);
	assert_int_equal(CUENV_CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NCHW);
	assert_int_equal(CUENV_CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT);
	assert_int_equal(CUENV_CUDNN_CROSS_CORRELATION,
			 CUDNN_CROSS_CORRELATION);
	assert_int_equal(CUENV_CUDNN_CONV_FWD_IMPLICIT_GEMM,
			 CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM);

	assert_int_equal(CUENV_CUPTI_SUCCESS, CUPTI_SUCCESS);
	assert_int_equal(CUENV_CUPTI_ERROR_MAX_LIMIT_REACHED,
			 CUPTI_ERROR_MAX_LIMIT_REACHED);
	assert_int_equal(CUENV_CUPTI_KIND_KERNEL, CUPTI_ACTIVITY_KIND_KERNEL);
	assert_int_equal(CUENV_CUPTI_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_RUNTIME);
	assert_int_equal(CUENV_CUPTI_KIND_CONCURRENT_KERNEL,
			 CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
	assert_int_equal(CUENV_CUPTI_FLUSH_FORCED,
			 CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
	assert_true(CUPTI_API_VERSION >= CUENV_CUPTI_KERNEL_MIN_API);
	kernel_record_layout();
}

/* NVIDIA's stub libcuda.so (lib/stubs, lib64/stubs), or NULL. */
static char *nvidia_stub(void)
{
	static const char *const rel[] = {
	    "lib/stubs/libcuda.so",
	    "lib64/stubs/libcuda.so",
	    "targets/x86_64-linux/lib/stubs/libcuda.so",
	};

	for (size_t i = 0; i < sizeof(rel) / sizeof(*rel); i++) {
		char *p = NULL;

		if (asprintf(&p, "%s/../%s", CUENV_CUDA_INCLUDE, rel[i]) < 0)
			fail();
		if (!access(p, R_OK))
			return p;
		free(p);
	}
	return NULL;
}

/*
 * The driver symbols check_cuda.c looks up exist in NVIDIA's libcuda (its
 * link stub carries the same exports), and the probe names the stub as
 * such when the loader picks it: cuInit returns CUDA_ERROR_STUB_LIBRARY.
 */
static void test_check_cuda_nvidia_stub_driver(void **state)
{
	static const char *const names[] = {
	    "cuInit",
	    "cuDriverGetVersion",
	    "cuGetErrorName",
	    "cuDeviceGet",
	    "cuDeviceGetName",
	    "cuDevicePrimaryCtxRetain",
	    "cuDevicePrimaryCtxRelease_v2",
	    "cuCtxSetCurrent",
	    "cuCtxSynchronize",
	    "cuModuleLoadData",
	    "cuModuleGetFunction",
	    "cuModuleUnload",
	    "cuMemAlloc_v2",
	    "cuMemFree_v2",
	    "cuMemcpyHtoD_v2",
	    "cuMemcpyDtoH_v2",
	    "cuLaunchKernel",
	};
	char *stub = nvidia_stub();
	void *h;
	struct check_probe p;
	struct check_report r;

	(void)state;
	if (!stub)
		skip();
	h = dlopen(stub, RTLD_NOW | RTLD_LOCAL);
	assert_non_null(h);
	for (size_t i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!dlsym(h, names[i]))
			fail_msg("%s lacks %s", stub, names[i]);
	dlclose(h);
	probe_init(&p);
	p.driver_lib = stub;
	assert_int_equal(run_probe(&p, &r), CUENV_E_DRIVER);
	assert_contains(r.layer[CHECK_DRIVER].message, "stub libcuda.so.1");
	assert_contains(r.layer[CHECK_DRIVER].message,
			"CUDA_ERROR_STUB_LIBRARY (34)");
	check_report_release(&r);
	free(stub);
}

/* The toolkit's ptxas compiles the embedded kernel for current GPUs. */
static void test_check_cuda_ptx_compiles_with_ptxas(void **state)
{
	struct fixture *fx = *state;
	char *ptxas = NULL, *ptx = fx_path(fx, "vadd.ptx");
	static const char *const archs[] = {"sm_75", "sm_80", "sm_90",
					    "sm_100"};
	struct buf out = BUF_INIT;

	if (asprintf(&ptxas, "%s/../bin/ptxas", CUENV_CUDA_INCLUDE) < 0)
		fail();
	if (access(ptxas, X_OK)) {
		free(ptxas);
		free(ptx);
		skip();
	}
	fx_write(fx, "vadd.ptx", check_vadd_ptx);
	for (size_t i = 0; i < sizeof(archs) / sizeof(*archs); i++) {
		char arch[32];
		char *argv[] = {ptxas, arch, "-o", "/dev/null", ptx, NULL};

		snprintf(arch, sizeof(arch), "-arch=%s", archs[i]);
		if (fx_run(argv, &out) != 0)
			fail_msg("ptxas %s failed on the embedded PTX", arch);
	}
	buf_release(&out);
	free(ptxas);
	free(ptx);
}
#else
static void test_check_cuda_abi_matches_nvidia_headers(void **state)
{
	(void)state;
	skip(); /* no CUDA toolkit at build time */
}

static void test_check_cuda_ptx_compiles_with_ptxas(void **state)
{
	(void)state;
	skip();
}

static void test_check_cuda_nvidia_stub_driver(void **state)
{
	(void)state;
	skip();
}
#endif

#define T(f) cmocka_unit_test_setup_teardown(f, clear_env, clear_env)
#define TFX(f) cmocka_unit_test_setup_teardown(f, fx_setup, fx_teardown)

static int fx_setup_env(void **state)
{
	clear_env(state);
	return fx_setup(state);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    T(test_check_cuda_every_layer_passes),
	    T(test_check_cuda_reports_each_step_as_it_starts),
	    T(test_check_cuda_no_driver_still_loads_the_rest),
	    T(test_check_cuda_cuda11_runtime_without_driver_is_skipped),
	    T(test_check_cuda_cuda11_runtime_with_wrong_soname),
	    cmocka_unit_test_setup_teardown(
		test_check_cuda_cuda11_runtime_named_for_another_major,
		fx_setup_env, fx_teardown),
	    T(test_check_cuda_driver_too_old),
	    cmocka_unit_test_setup_teardown(
		test_check_cuda_reads_the_module_version, fx_setup_env,
		fx_teardown),
	    T(test_check_cuda_stub_driver_is_named),
	    T(test_check_cuda_no_device),
	    T(test_check_cuda_runtime_of_another_major),
	    T(test_check_cuda_wrong_kernel_result),
	    T(test_check_cuda_failed_launch),
	    T(test_check_cuda_cudnn_built_for_another_cuda),
	    T(test_check_cuda_wrong_convolution),
	    T(test_check_cuda_no_cudnn_asked),
	    T(test_check_cuda_missing_cupti),
	    T(test_check_cuda_cupti_record_layouts),
	    T(test_check_cuda_cupti_older_than_cuda_9),
	    T(test_check_cuda_cupti_records_nothing),
	    T(test_check_cuda_cupti_impossible_timestamps),
	    T(test_check_cuda_cupti_cannot_trace),
	    cmocka_unit_test_setup_teardown(
		test_check_cuda_library_outside_the_selection_fails,
		fx_setup_env, fx_teardown),
	    cmocka_unit_test(test_check_cuda_ptx_names_its_entry),
	    cmocka_unit_test(test_check_cuda_abi_matches_nvidia_headers),
	    TFX(test_check_cuda_ptx_compiles_with_ptxas),
	    T(test_check_cuda_nvidia_stub_driver),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
