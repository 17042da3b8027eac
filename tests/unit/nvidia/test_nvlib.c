#include "fakes/fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvidia/nvlib.h"

/*
 * Expected values are NVIDIA's real file names, written by hand from:
 * the CUDA 13.0 toolkit on the build machine (lib/libcufft.so.12,
 * libcurand.so.10, libcusolver.so.12, libcusparse.so.12, libnvJitLink.so.13,
 * libcupti.so.13, libcudnn_ops.so.9 from nvidia-cudnn-cu13 9.19.0.56);
 * PyPI's nvidia-cuda-runtime-cu11 11.8.89 (lib/libcudart.so.11.0),
 * nvidia-cuda-cupti-cu11 11.8.87 (lib/libcupti.so.11.8) and -cu12
 * 12.4.127 (lib/libcupti.so.12); the year-named CUPTI files of the
 * runfile and redist archives (libcupti.so.2024.3.2, soname .12);
 * TensorFlow 2.10's Windows build_info.py (cudart64_110.dll, cudnn64_8.dll) and
 * NVIDIA's Windows redist archives (nvrtc64_112_0.dll in 11.8,
 * nvrtc64_120_0.dll and cufft64_11.dll in 12.x, cupti64_2022.3.0.dll in 11.8).
 */

static void assert_soname(enum nvlib_id id, const char *cuda, const char *want)
{
	char *got = nvlib_soname(nvlib_get(id), cuda);

	if (!want) {
		if (got)
			fail_msg("%s in %s: want none, got %s",
				 nvlib_get(id)->stem, cuda, got);
		return;
	}
	if (!got || strcmp(got, want))
		fail_msg("%s in %s: want %s, got %s", nvlib_get(id)->stem, cuda,
			 want, got ? got : "(none)");
	free(got);
}

static void test_nvlib_sonames_of_cuda_13_toolkit(void **state)
{
	(void)state;
	assert_soname(NVLIB_CUDART, "13.0", "libcudart.so.13");
	assert_soname(NVLIB_CUPTI, "13.0", "libcupti.so.13");
	assert_soname(NVLIB_CUBLAS, "13.0", "libcublas.so.13");
	assert_soname(NVLIB_CUBLASLT, "13.0", "libcublasLt.so.13");
	assert_soname(NVLIB_CUFFT, "13.0", "libcufft.so.12");
	assert_soname(NVLIB_CUFFTW, "13.0", "libcufftw.so.12");
	assert_soname(NVLIB_CURAND, "13.0", "libcurand.so.10");
	assert_soname(NVLIB_CUSOLVER, "13.0", "libcusolver.so.12");
	assert_soname(NVLIB_CUSOLVERMG, "13.0", "libcusolverMg.so.12");
	assert_soname(NVLIB_CUSPARSE, "13.0", "libcusparse.so.12");
	assert_soname(NVLIB_NVRTC, "13.0", "libnvrtc.so.13");
	assert_soname(NVLIB_NVJITLINK, "13.0", "libnvJitLink.so.13");
	assert_soname(NVLIB_NVBLAS, "13.0", "libnvblas.so.13");
	/* NVRTC's builtins: every release its own major.minor */
	assert_soname(NVLIB_NVRTC_BUILTINS, "13.0",
		      "libnvrtc-builtins.so.13.0");
	assert_soname(NVLIB_NVRTC_BUILTINS, "12.4.1",
		      "libnvrtc-builtins.so.12.4");
	assert_soname(NVLIB_NVRTC_BUILTINS, "11.1",
		      "libnvrtc-builtins.so.11.1");
}

static void test_nvlib_sonames_of_cuda_11_and_12(void **state)
{
	(void)state;
	assert_soname(NVLIB_CUDART, "11.8", "libcudart.so.11.0");
	assert_soname(NVLIB_CUDART, "11.2.2", "libcudart.so.11.0");
	assert_soname(NVLIB_CUDART, "12.4.1", "libcudart.so.12");
	assert_soname(NVLIB_CUDART, "10.2", "libcudart.so.10.2");
	assert_soname(NVLIB_CUPTI, "11.8", "libcupti.so.11.8");
	assert_soname(NVLIB_CUPTI, "12.4", "libcupti.so.12");
	assert_soname(NVLIB_NVRTC, "11.8", "libnvrtc.so.11.2");
	assert_soname(NVLIB_NVRTC, "11.1", "libnvrtc.so.11.1");
	assert_soname(NVLIB_CUFFT, "11.8", "libcufft.so.10");
	assert_soname(NVLIB_CUFFT, "12.4", "libcufft.so.11");
	assert_soname(NVLIB_CUSOLVER, "11.0", "libcusolver.so.10");
	assert_soname(NVLIB_CUSOLVER, "12.4", "libcusolver.so.11");
	assert_soname(NVLIB_CUSPARSE, "12.4", "libcusparse.so.12");
	assert_soname(NVLIB_CUBLAS, "11.8", "libcublas.so.11");
	assert_soname(NVLIB_NVJITLINK, "11.8", NULL);
	assert_soname(NVLIB_CUBLASLT, "10.0", NULL);
}

static void test_nvlib_cudnn_follows_its_own_major(void **state)
{
	(void)state;
	assert_soname(NVLIB_CUDNN, "9.19.0.56", "libcudnn.so.9");
	assert_soname(NVLIB_CUDNN, "8.9.2.26", "libcudnn.so.8");
	assert_soname(NVLIB_NCCL, "2.28.9", "libnccl.so.2");
}

static void assert_file(const char *name, enum nvlib_id id, const char *ver)
{
	const char *v = NULL;
	const struct nvlib *e = nvlib_match_file(name, &v);

	if (!e || e->id != id)
		fail_msg("'%s' should be %s, not %s", name, nvlib_get(id)->stem,
			 e ? e->stem : "none");
	assert_string_equal(v, ver);
}

static void test_nvlib_matches_real_file_names(void **state)
{
	(void)state;
	assert_file("libcudart.so.11.0", NVLIB_CUDART, "11.0");
	assert_file("libcudart.so", NVLIB_CUDART, "");
	assert_file("libcupti.so.2024.3.2", NVLIB_CUPTI, "2024.3.2");
	assert_file("libcudnn_ops.so.9", NVLIB_CUDNN, "9");
	assert_file("libcudnn_engines_runtime_compiled.so.9", NVLIB_CUDNN, "9");
	assert_file("libcublasLt.so.13", NVLIB_CUBLASLT, "13");
	assert_file("libcufftw.so.12", NVLIB_CUFFTW, "12");
	assert_file("libcusolverMg.so.12", NVLIB_CUSOLVERMG, "12");
	assert_file("libnppif.so.12", NVLIB_NPP, "12");
	assert_file("libnppc.so.11", NVLIB_NPP, "11");
	assert_file("libnvjpeg.so.12", NVLIB_NVJPEG, "12");
	assert_file("libnvperf_host.so", NVLIB_NVPERF_HOST, "");
	assert_file("libnvToolsExt.so.1", NVLIB_NVTOOLSEXT, "1");
	/* torch 2.7 links both; cuSPARSELt is not cuSPARSE */
	assert_file("libcusparseLt.so.0", NVLIB_CUSPARSELT, "0");
	assert_file("libcusparse.so.12", NVLIB_CUSPARSE, "12");
	assert_file("libcufile.so.0", NVLIB_CUFILE, "0");
	assert_file("libnvrtc-builtins.so.12.4", NVLIB_NVRTC_BUILTINS, "12.4");
	assert_file("libnvrtc.so.12", NVLIB_NVRTC, "12");
	/* outside the toolkit, linked by real wheels (the build sweep):
	 * cupy, onnxruntime's TensorRT provider, libcudf, torch 2.13 */
	assert_file("libcutensor.so.2", NVLIB_CUTENSOR, "2");
	assert_file("libnvinfer.so.10", NVLIB_NVINFER, "10");
	assert_file("libnvinfer_plugin.so.11", NVLIB_NVINFER, "11");
	assert_file("libnvonnxparser.so.10", NVLIB_NVONNXPARSER, "10");
	assert_file("libnvcomp.so.5", NVLIB_NVCOMP, "5");
	assert_file("libnvshmem_host.so.3", NVLIB_NVSHMEM, "3");
	assert_false(nvlib_cuenv_installs(nvlib_get(NVLIB_NVINFER)));
}

static void test_nvlib_rejects_what_is_not_a_toolkit_library(void **state)
{
	static const char *const no[] = {
	    "libcuda.so.1",	  /* the driver's */
	    "libnvidia-ml.so.1",  /* the driver's */
	    "libcudart_static.a", /* not shared */
	    "libcudart.so.12a",	  /* junk after the version */
	    "libcudart.so.12.",	  /* a trailing dot */
	    "libcudartx.so.12",	  /* a longer name */
	    "libcudnnX.so.9",	  /* cuDNN's family is libcudnn_<name> */
	    "libstdc++.so.6",	  /* conda's lib beside CUDA's */
	    "cudart.so.12",	  /* no lib */
	    "libcudnn_.so.9",	  /* no name after the _ */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(no) / sizeof(*no); i++)
		if (nvlib_match_file(no[i], NULL))
			fail_msg("'%s' is not a toolkit library", no[i]);
	assert_false(nvlib_is_cuda_file("libssl.so.3"));
	assert_true(nvlib_is_cuda_file("libnppial.so.13"));
}

static unsigned long bit(unsigned m)
{
	return 1UL << m;
}

static void test_nvlib_majors_of_a_soname(void **state)
{
	const struct nvlib *cufft = nvlib_get(NVLIB_CUFFT);
	const struct nvlib *rt = nvlib_get(NVLIB_CUDART);
	const struct nvlib *cupti = nvlib_get(NVLIB_CUPTI);

	(void)state;
	/* cuFFT 10 is CUDA 10.1 to 11.8: two majors, so no single one */
	assert_int_equal(nvlib_majors(cufft, "10"), bit(10) | bit(11));
	assert_int_equal(nvlib_major(cufft, "10"), 0);
	assert_int_equal(nvlib_major(cufft, "11"), 12);
	assert_int_equal(nvlib_major(cufft, "12"), 13);
	assert_int_equal(nvlib_major(rt, "11.0"), 11);
	assert_int_equal(nvlib_major(rt, "12"), 12);
	/* a file's full version: the cu11 wheel's cudart 11.8.89 */
	assert_int_equal(nvlib_major(rt, "11.8.89"), 11);
	assert_int_equal(nvlib_major(nvlib_get(NVLIB_CUFFT), "12.0.0.61"), 13);
	assert_int_equal(nvlib_major(cupti, "11.8"), 11);
	assert_int_equal(nvlib_major(cupti, "13"), 13);
	/* CUPTI's year-named files name no release */
	assert_int_equal(nvlib_majors(cupti, "2024.3.2"), 0);
	assert_int_equal(nvlib_major(nvlib_get(NVLIB_CUDNN), "9"), 9);
}

static void test_nvlib_kits_and_products(void **state)
{
	(void)state;
	/* every library whose soname follows its own versions names the
	 * product users know those versions by; the toolkit's say CUDA */
	for (int id = 0; id < NVLIB_COUNT; id++) {
		const struct nvlib *e = nvlib_get(id);

		if (!(e->flags & NVLIB_OWN_VERSION)) {
			assert_int_equal(nvlib_kit(e), NVLIB_KIT_CUDA);
			assert_string_equal(nvlib_product(e), "CUDA");
			continue;
		}
		if (!e->product)
			fail_msg("%s: an own-version library names no product",
				 e->stem);
		assert_string_not_equal(nvlib_product(e), "CUDA");
		/* cuenv installs cuDNN and no other product */
		assert_int_equal(nvlib_cuenv_installs(e),
				 nvlib_kit(e) == NVLIB_KIT_CUDNN);
	}
	assert_int_equal(nvlib_kit(nvlib_get(NVLIB_CUDNN)), NVLIB_KIT_CUDNN);
	assert_int_equal(nvlib_kit(nvlib_get(NVLIB_NCCL)), NVLIB_KIT_OTHER);
	assert_string_equal(nvlib_product(nvlib_get(NVLIB_NVONNXPARSER)),
			    "TensorRT");
	/* cuSPARSELt's versions are 0.x: major 0 is a version, not junk */
	assert_int_equal(nvlib_majors(nvlib_get(NVLIB_CUSPARSELT), "0"), 1);
	assert_int_equal(nvlib_majors(nvlib_get(NVLIB_NCCL), "0"), 0);
	/* a family of its own with an upper-case member: cuTENSOR's Mg */
	assert_file("libcutensorMg.so.2", NVLIB_CUTENSOR, "2");
}

static void assert_dll(enum nvlib_id id, const char *cuda, const char *want)
{
	struct buf b = BUF_INIT;

	assert_true(nvlib_dll_name(nvlib_get(id), cuda, &b));
	assert_string_equal(b.data, want);
	buf_release(&b);
}

static void test_nvlib_windows_dll_names(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	assert_dll(NVLIB_CUDART, "11.2", "cudart64_110.dll");
	assert_dll(NVLIB_CUDART, "12.4", "cudart64_12.dll");
	assert_dll(NVLIB_CUDNN, "8.1.0", "cudnn64_8.dll");
	assert_dll(NVLIB_NVRTC, "11.8", "nvrtc64_112_0.dll");
	assert_dll(NVLIB_NVRTC, "12.4", "nvrtc64_120_0.dll");
	assert_dll(NVLIB_CUFFT, "12.4", "cufft64_11.dll");
	assert_dll(NVLIB_CUBLASLT, "11.8", "cublasLt64_11.dll");
	assert_dll(NVLIB_NVJITLINK, "12.4", "nvJitLink_120_0.dll");
	/* CUPTI's DLL carries its own year version */
	assert_false(nvlib_dll_name(nvlib_get(NVLIB_CUPTI), "11.8", &b));
	buf_release(&b);
}

static void test_nvlib_reads_windows_dll_names(void **state)
{
	unsigned long majors;
	const struct nvlib *e;

	(void)state;
	e = nvlib_match_dll("cudart64_110.dll", &majors);
	assert_non_null(e);
	assert_int_equal(e->id, NVLIB_CUDART);
	assert_int_equal(majors, bit(11));
	e = nvlib_match_dll("CUDNN64_8.DLL", &majors);
	assert_non_null(e);
	assert_int_equal(e->id, NVLIB_CUDNN);
	assert_int_equal(majors, bit(8));
	e = nvlib_match_dll("nvrtc64_112_0.dll", &majors);
	assert_non_null(e);
	assert_int_equal(e->id, NVLIB_NVRTC);
	assert_int_equal(majors, bit(11));
	e = nvlib_match_dll("cupti64_2022.3.0.dll", &majors);
	assert_non_null(e);
	assert_int_equal(e->id, NVLIB_CUPTI);
	assert_int_equal(majors, 0);
	e = nvlib_match_dll("cublasLt64_12.dll", &majors);
	assert_non_null(e);
	assert_int_equal(e->id, NVLIB_CUBLASLT);
	assert_int_equal(majors, bit(12));
	assert_null(nvlib_match_dll("nvcuda.dll", &majors));
	assert_null(nvlib_match_dll("cudart64_99.dll", &majors));
}

static void test_nvlib_components_and_wheels(void **state)
{
	(void)state;
	assert_string_equal(nvlib_get(NVLIB_CUDART)->component, "cuda_cudart");
	assert_string_equal(nvlib_get(NVLIB_CUDART)->wheel,
			    "nvidia-cuda-runtime");
	assert_string_equal(nvlib_get(NVLIB_CUPTI)->component, "cuda_cupti");
	assert_string_equal(nvlib_get(NVLIB_CUBLASLT)->component, "libcublas");
	assert_string_equal(nvlib_get(NVLIB_NVPERF_HOST)->component,
			    "cuda_cupti");
	assert_string_equal(nvlib_get(NVLIB_CUDNN)->version_header,
			    "cudnn_version.h");
	/* site-packages/nvidia/<dir>: the wheels' own folder names */
	assert_string_equal(nvlib_get(NVLIB_CUDART)->wheel_dir, "cuda_runtime");
	assert_string_equal(nvlib_get(NVLIB_CUBLASLT)->wheel_dir, "cublas");
	assert_string_equal(nvlib_get(NVLIB_NVRTC)->wheel_dir, "cuda_nvrtc");
	assert_ptr_equal(nvlib_by_stem("cublasLt"), nvlib_get(NVLIB_CUBLASLT));
	assert_null(nvlib_by_stem("cuda"));
}

static void assert_api(long api, const char *want)
{
	struct buf b = BUF_INIT;

	assert_true(nvlib_cupti_api_release(api, &b));
	assert_string_equal(b.data, want);
	buf_release(&b);
}

static void test_nvlib_cupti_api_versions(void **state)
{
	struct buf b = BUF_INIT;

	(void)state;
	/* cupti_version.h: v18 CUDA 11.8, v22 12.4; xxyyzz from 13.0 */
	assert_api(18, "11.8");
	assert_api(22, "12.4");
	assert_api(130001, "13.0");
	assert_false(nvlib_cupti_api_release(25, &b));
	buf_release(&b);
}

static void test_nvlib_prefix_and_link_name_come_from_the_stem(void **state)
{
	char want[64];

	(void)state;
	for (int id = 0; id < NVLIB_COUNT; id++) {
		const struct nvlib *lib = nvlib_get((enum nvlib_id)id);

		snprintf(want, sizeof(want), "lib%s", lib->stem);
		assert_string_equal(lib->prefix, want);
		snprintf(want, sizeof(want), "lib%s.so", lib->stem);
		assert_string_equal(lib->so, want);
	}
	assert_string_equal(nvlib_get(NVLIB_CUDNN)->so, "libcudnn.so");
	assert_string_equal(nvlib_get(NVLIB_CUBLASLT)->prefix, "libcublasLt");
}

static void test_nvlib_so_version_reads_the_librarys_own_sonames(void **state)
{
	const struct nvlib *cudnn = nvlib_get(NVLIB_CUDNN);
	const struct nvlib *cupti = nvlib_get(NVLIB_CUPTI);

	(void)state;
	assert_string_equal(nvlib_so_version(cudnn, "libcudnn.so.9"), "9");
	assert_string_equal(nvlib_so_version(cudnn, "libcudnn.so.8.9.7"),
			    "8.9.7");
	assert_string_equal(nvlib_so_version(cupti, "libcupti.so.2024.3.2"),
			    "2024.3.2");
	/* a family member, the link name, another library: none */
	assert_null(nvlib_so_version(cudnn, "libcudnn_ops.so.9"));
	assert_null(nvlib_so_version(cudnn, "libcudnn.so"));
	assert_null(nvlib_so_version(cudnn, "libcudnnx.so.9"));
	assert_null(nvlib_so_version(cupti, "libcudnn.so.9"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_nvlib_sonames_of_cuda_13_toolkit),
	    cmocka_unit_test(test_nvlib_sonames_of_cuda_11_and_12),
	    cmocka_unit_test(test_nvlib_cudnn_follows_its_own_major),
	    cmocka_unit_test(test_nvlib_matches_real_file_names),
	    cmocka_unit_test(test_nvlib_rejects_what_is_not_a_toolkit_library),
	    cmocka_unit_test(test_nvlib_majors_of_a_soname),
	    cmocka_unit_test(test_nvlib_kits_and_products),
	    cmocka_unit_test(test_nvlib_windows_dll_names),
	    cmocka_unit_test(test_nvlib_reads_windows_dll_names),
	    cmocka_unit_test(test_nvlib_components_and_wheels),
	    cmocka_unit_test(test_nvlib_cupti_api_versions),
	    cmocka_unit_test(
		test_nvlib_prefix_and_link_name_come_from_the_stem),
	    cmocka_unit_test(
		test_nvlib_so_version_reads_the_librarys_own_sonames),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
