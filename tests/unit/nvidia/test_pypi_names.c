#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>

#include "nvidia/pypi.h"

#define RT12                                                                   \
	"nvidia_cuda_runtime_cu12-12.4.127-py3-none-manylinux2014_x86_64.whl"

/* PEP 503's normal form on both sides; another project, however alike,
 * is not this one. */
static void test_pypi_wheel_is_of_its_project_only(void **state)
{
	(void)state;
	assert_true(pypi_wheel_is_of(RT12, "nvidia-cuda-runtime-cu12"));
	assert_true(pypi_wheel_is_of(RT12, "NVIDIA_cuda.runtime--cu12"));
	assert_false(pypi_wheel_is_of(RT12, "nvidia-cuda-runtime-cu11"));
	assert_false(pypi_wheel_is_of(RT12, "nvidia-cuda-runtime"));
	assert_false(pypi_wheel_is_of(RT12, "nvidia-cuda-runtime-cu123"));
	assert_false(pypi_wheel_is_of("evil_project-12.4.127.post7-py3-none-"
				      "manylinux2014_x86_64.whl",
				      "nvidia-cuda-runtime-cu12"));
	assert_false(pypi_wheel_is_of("nodash.whl", "nodash.whl"));
}

/* The same scheme, host and port; pypi.org's files host; nothing else. */
static void test_pypi_url_on_index_same_origin(void **state)
{
	(void)state;
	assert_true(pypi_url_on_index("http://127.0.0.1:8080/packages/a.whl",
				      "http://127.0.0.1:8080/simple"));
	assert_false(pypi_url_on_index("http://127.0.0.1:8081/packages/a.whl",
				       "http://127.0.0.1:8080/simple"));
	assert_false(pypi_url_on_index("http://127.0.0.1:8080/packages/a.whl",
				       "https://127.0.0.1:8080/simple"));
	assert_true(pypi_url_on_index(
	    "https://files.pythonhosted.org/packages/aa/a.whl",
	    "https://pypi.org/simple"));
	assert_false(
	    pypi_url_on_index("http://files.pythonhosted.org/packages/aa/a.whl",
			      "https://pypi.org/simple"));
	assert_false(pypi_url_on_index(
	    "https://files.pythonhosted.org/packages/aa/a.whl",
	    "https://mirror.example/simple"));
	/* a host that only begins like the index's */
	assert_false(pypi_url_on_index("https://pypi.org.evil/packages/a.whl",
				       "https://pypi.org/simple"));
	assert_false(
	    pypi_url_on_index("/packages/a.whl", "https://pypi.org/simple"));
}

static void expect_pin(const char *url, const char *index, const char *proj,
		       const char *version, const char *platform,
		       const char *want)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	int rc = pypi_pin_check(url, index, proj, version, platform, &err);

	if (!want) {
		assert_int_equal(rc, CUENV_OK);
	} else {
		assert_int_equal(rc, CUENV_E_INTEGRITY);
		assert_string_equal(err.msg.data, want);
	}
	err_release(&err);
}

/* Each edit of a lockfile's wheel that once installed with exit 0. */
static void test_pypi_pin_check_each_claim(void **state)
{
	static const char *const ix = "http://127.0.0.1:8080/simple";
	static const char *const rt = "nvidia-cuda-runtime-cu12";

	(void)state;
	expect_pin("http://127.0.0.1:8080/packages/" RT12, ix, rt, "12.4.127",
		   "linux-x86_64", NULL);
	/* a post-release of the version is that version */
	expect_pin("http://127.0.0.1:8080/p/nvidia_cuda_runtime_cu12-12.4.127."
		   "post1-py3-none-manylinux2014_x86_64.whl",
		   ix, rt, "12.4.127", "linux-x86_64", NULL);
	expect_pin("http://127.0.0.1:9999/evil/" RT12, ix, rt, "12.4.127",
		   "linux-x86_64",
		   "'http://127.0.0.1:9999/evil/" RT12 "' is not on the "
		   "package index in force ('http://127.0.0.1:8080/simple')");
	expect_pin("http://127.0.0.1:8080/p/nvidia_cuda_runtime_cu12-12.4.99-"
		   "py3-none-manylinux2014_x86_64.whl",
		   ix, rt, "12.4.127", "linux-x86_64",
		   "'nvidia_cuda_runtime_cu12-12.4.99-py3-none-manylinux2014_"
		   "x86_64.whl' is nvidia-cuda-runtime-cu12 12.4.99, not "
		   "12.4.127");
	expect_pin("http://127.0.0.1:8080/p/nvidia_cudnn_cu12-9.1.0.70-py3-"
		   "none-manylinux2014_x86_64.whl",
		   ix, rt, "12.4.127", "linux-x86_64",
		   "'nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux2014_x86_64."
		   "whl' is not a wheel of nvidia-cuda-runtime-cu12");
	expect_pin("http://127.0.0.1:8080/p/nvidia_cuda_runtime_cu12-12.4.127-"
		   "py3-none-win_amd64.whl",
		   ix, rt, "12.4.127", "linux-x86_64",
		   "'nvidia_cuda_runtime_cu12-12.4.127-py3-none-win_amd64.whl'"
		   " is not a wheel for linux-x86_64");
	/* a mirror's copy: the host is the mirror's, not checked here */
	expect_pin("file:///srv/m/pypi/packages/" RT12, NULL, rt, "12.4.127",
		   "linux-x86_64", NULL);
}

/* Every dotted alternative of the platform tag is a Linux one for the
 * processor; "linux" and the processor's name elsewhere do not count. */
static void test_pypi_wheel_fits_reads_the_platform_tag(void **state)
{
	(void)state;
	assert_true(pypi_wheel_fits("a-1-py3-none-manylinux_2_17_x86_64."
				    "manylinux2014_x86_64.whl",
				    "linux-x86_64"));
	assert_false(pypi_wheel_fits("linux_x86_64-1-py3-none-win_amd64.whl",
				     "linux-x86_64"));
	assert_false(pypi_wheel_fits("a-1-py3-none-manylinux2014_x86_64."
				     "win_amd64.whl",
				     "linux-x86_64"));
	assert_false(pypi_wheel_fits("a-1-py3-none-manylinux2014_x86_64x.whl",
				     "linux-x86_64"));
	assert_false(
	    pypi_wheel_fits("manylinux2014_x86_64.whl", "linux-x86_64"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pypi_wheel_is_of_its_project_only),
	    cmocka_unit_test(test_pypi_url_on_index_same_origin),
	    cmocka_unit_test(test_pypi_pin_check_each_claim),
	    cmocka_unit_test(test_pypi_wheel_fits_reads_the_platform_tag),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
