/*
 * What frameworks' messages say of the cuDNN they were built with
 * (core/artifact/fwmsg.h), read by needs (a failed import) and explain (a log).
 */
#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "artifact/fwmsg.h"

static void test_fwmsg_reads_torchs_built_version(void **state)
{
	char *v = fwmsg_cudnn_built(
	    "Traceback (most recent call last):\r\n"
	    "RuntimeError: cuDNN version incompatibility: PyTorch was "
	    "compiled  against (9, 26, 0) but found runtime version "
	    "(9, 19, 0). PyTorch already comes bundled with cuDNN.\n");

	(void)state;
	assert_non_null(v);
	assert_string_equal(v, "9.26.0");
	free(v);
}

static void test_fwmsg_reads_jaxs_minimum_over_two_lines(void **state)
{
	char *v = fwmsg_cudnn_built("Outdated cuDNN installation found.\n"
				    "Minimum supported: 9100\n"
				    "Installed version: 8907\n");

	(void)state;
	assert_non_null(v);
	assert_string_equal(v, "9.1.0");
	free(v);
}

static void test_fwmsg_says_nothing_without_both_versions(void **state)
{
	(void)state;
	assert_null(fwmsg_cudnn_built("ImportError: libcudnn.so.9: cannot "
				      "open shared object file\n"));
	/* the installed version alone, no minimum before it */
	assert_null(fwmsg_cudnn_built("Installed version: 8907\n"));
	/* a block whose library was not read: no library is guessed */
	assert_null(fwmsg_cudnn_built("Minimum supported: 9100\n"
				      "Installed version: 8907\n"));
	assert_null(fwmsg_cudnn_built(""));
	/* a number past any version (strtoul's ULONG_MAX) is none (CI's
	 * fuzz run: "Minimum supported:99999999999999999999") */
	assert_null(fwmsg_cudnn_built("Minimum supported: "
				      "99999999999999999999\n"
				      "Installed version: 8907\n"));
}

static void found(void *arg, const char *line, const char *framework,
		  const char *what, char *built, char *loaded)
{
	struct buf *b = arg;

	(void)line;
	buf_printf(b, "%s%s%s %s %s;", framework,
		   strcmp(what, "cuDNN") ? " " : "",
		   strcmp(what, "cuDNN") ? what : "", built ? built : "-",
		   loaded ? loaded : "-");
	free(built);
	free(loaded);
}

static void test_fwmsg_names_the_framework_of_each_line(void **state)
{
	struct buf b = BUF_INIT;
	char *pending = NULL;

	(void)state;
	fwmsg_cudnn_mismatches(
	    "E external/xla/xla/stream_executor/cuda/cuda_dnn.cc:439] Loaded "
	    "runtime CuDNN library: 8.6.0 but source was compiled with: "
	    "8.9.4.",
	    &pending, found, &b);
	fwmsg_cudnn_mismatches("The installed Paddle is compiled with CUDNN "
			       "8.4, but CUDNN version in your machine is 8.3",
			       &pending, found, &b);
	/* torch's extension builder: nvcc's CUDA against torch's */
	fwmsg_cudnn_mismatches(
	    "RuntimeError: The detected CUDA version (12.1) mismatches the "
	    "version that was used to compile PyTorch (11.8). Please make "
	    "sure to use the same CUDA versions.",
	    &pending, found, &b);
	/* torch 2.6 on: one line, no space; a minor mismatch is a warning */
	fwmsg_cudnn_mismatches(
	    "The detected CUDA version (13.0) mismatches the version that was "
	    "used to compilePyTorch (12.8). Please make sure to use the same "
	    "CUDA versions.",
	    &pending, found, &b);
	fwmsg_cudnn_mismatches(
	    "UserWarning: The detected CUDA version (11.8) has a minor version "
	    "mismatch with the version that was used to compile PyTorch "
	    "(11.7). Most likely this shouldn't be a problem.",
	    &pending, found, &b);
	assert_string_equal(b.data,
			    "jax 8.9.4 8.6.0;paddle 8.4 8.3;"
			    "torch nvcc 11.8 12.1;torch nvcc 12.8 13.0;");
	assert_null(pending);
	buf_release(&b);
}

/*
 * JAX's version check names the library and prints its version as that
 * library's API returns it (jax_plugins/cuda/__init__.py, the messages
 * of _version_check and _make_msg): the runtime's 12030 is 12.3,
 * cuBLAS' 120304 12.3.4, cuFFT's and cuSPARSE's 11012 11.0.12; the
 * block says its library first, so a cuBLAS minimum is never cuDNN's.
 */
static void test_fwmsg_reads_each_library_of_jaxs_check(void **state)
{
	static const char *const block[] = {
	    ("Unable to use CUDA because of the following issues with CUDA "
	     "components:"),
	    "Outdated cuBLAS installation found.",
	    "Version JAX was built against: 120304",
	    "Minimum supported: 120100",
	    "Installed version: 120002",
	    "The local installation version must be no lower than 120100.",
	};
	struct buf b = BUF_INIT;
	char *pending = NULL;

	(void)state;
	fwmsg_cudnn_mismatches(
	    "RuntimeError: Found CUDA version 12010, but JAX was built "
	    "against version 12030, which is newer. The copy of CUDA that is "
	    "installed must be at least as new as the version against which "
	    "JAX was built.",
	    &pending, found, &b);
	fwmsg_cudnn_mismatches(
	    "Found cuFFT version 11012, but JAX was built against version "
	    "11200, which is newer.",
	    &pending, found, &b);
	for (size_t i = 0; i < sizeof(block) / sizeof(*block); i++)
		fwmsg_cudnn_mismatches(block[i], &pending, found, &b);
	assert_string_equal(b.data, "jax CUDA 12.3 12.1;jax cuFFT 11.2.0 "
				    "11.0.12;jax cuBLAS 12.1.0 12.0.2;");
	assert_null(pending);
	/* a cuBLAS block gives no cuDNN version */
	assert_null(fwmsg_cudnn_built("Outdated cuBLAS installation found.\n"
				      "Minimum supported: 120100\n"
				      "Installed version: 120002\n"));
	/* a library the check names that cuenv does not read: nothing */
	fwmsg_cudnn_mismatches("Found cuPTI version 16, but JAX was built "
			       "against version 18",
			       &pending, found, &b);
	assert_string_equal(b.data, "jax CUDA 12.3 12.1;jax cuFFT 11.2.0 "
				    "11.0.12;jax cuBLAS 12.1.0 12.0.2;");
	free(pending);
	buf_release(&b);
}

/*
 * TensorFlow 1.x's cuda_dnn.cc printed CUDNN_VERSION itself, a whole
 * number, with no colon after "compiled with" (logs of TF 1.5 to 1.13):
 * MAJOR*1000+MINOR*100+PATCH before cuDNN 9, MAJOR*10000+... from 9.
 */
static void test_fwmsg_reads_tensorflow_1s_whole_numbers(void **state)
{
	struct buf b = BUF_INIT;
	char *pending = NULL;

	(void)state;
	fwmsg_cudnn_mismatches(
	    "E tensorflow/stream_executor/cuda/cuda_dnn.cc:378] Loaded "
	    "runtime CuDNN library: 7201 (compatibility version 7200) but "
	    "source was compiled with 7004 (compatibility version 7000).  If "
	    "using a binary install, upgrade your CuDNN library to match.",
	    &pending, found, &b);
	fwmsg_cudnn_mismatches("Loaded runtime CuDNN library: 5005 "
			       "(compatibility version 5000) but source was "
			       "compiled with 5110 (compatibility version "
			       "5100)",
			       &pending, found, &b);
	fwmsg_cudnn_mismatches("Loaded runtime CuDNN library: 90100 but source "
			       "was compiled with: 90300",
			       &pending, found, &b);
	assert_string_equal(b.data, "tensorflow 7.0.4 7.2.1;xla 5.1.10 5.0.5;"
				    "xla 9.3.0 9.1.0;");
	assert_null(pending);
	buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_fwmsg_reads_torchs_built_version),
	    cmocka_unit_test(test_fwmsg_reads_jaxs_minimum_over_two_lines),
	    cmocka_unit_test(test_fwmsg_says_nothing_without_both_versions),
	    cmocka_unit_test(test_fwmsg_names_the_framework_of_each_line),
	    cmocka_unit_test(test_fwmsg_reads_each_library_of_jaxs_check),
	    cmocka_unit_test(test_fwmsg_reads_tensorflow_1s_whole_numbers),
	};
	const char *filter = getenv("CUENV_TEST_FILTER");

	if (filter)
		cmocka_set_test_filter(filter);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
