/*
 * The package index: project pages as PEP 691 JSON and PEP 503 HTML
 * (what https://pypi.org/simple and proxies serve), and NVIDIA's wheel
 * project names.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nvidia/pypi.h"

#define A64 "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"

/* PEP 658/714: which files the index serves core metadata for. */
static void test_pypi_index_parse_reads_core_metadata(void **state)
{
	static const char A[] =
	    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa";
	static const char B[] =
	    "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb";
	struct buf page = BUF_INIT;
	struct index_file *v;
	size_t n;

	(void)state;
	buf_printf(
	    &page,
	    "{\"meta\": {\"api-version\": \"1.1\"}, \"files\": ["
	    "{\"filename\": \"a-1-py3-none-any.whl\", \"url\": \"a.whl\", "
	    "\"hashes\": {\"sha256\": \"%s\"}, \"size\": 7, "
	    "\"core-metadata\": {\"sha256\": \"%s\"}},"
	    "{\"filename\": \"b-1-py3-none-any.whl\", \"url\": \"b.whl\", "
	    "\"hashes\": {\"sha256\": \"%s\"}, "
	    "\"data-dist-info-metadata\": true},"
	    "{\"filename\": \"c-1-py3-none-any.whl\", \"url\": \"c.whl\", "
	    "\"hashes\": {\"sha256\": \"%s\"}, \"core-metadata\": false},"
	    "{\"filename\": \"d-1-py3-none-any.whl\", \"url\": \"d.whl\", "
	    "\"hashes\": {\"sha256\": \"%s\"}, "
	    "\"core-metadata\": {\"sha256\": \"not-hex\"}}]}",
	    A, B, A, A, A);
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 4);
	assert_true(v[0].metadata);
	assert_string_equal(v[0].metadata_sha256, B);
	assert_int_equal(v[0].size, 7);
	assert_true(v[1].metadata);
	assert_null(v[1].metadata_sha256);
	assert_false(v[2].metadata);
	assert_null(v[2].metadata_sha256);
	/* served, with a hash cuenv cannot check: served, no hash */
	assert_true(v[3].metadata);
	assert_null(v[3].metadata_sha256);
	pypi_index_files_free(v, n);

	/* PEP 503 HTML, as proxies serve it */
	buf_reset(&page);
	buf_printf(
	    &page,
	    "<html><body>\n"
	    "<a href=\"a.whl#sha256=%s\" data-dist-info-metadata=\"sha256=%s\">a-1-py3-none-any.whl</a>\n"
	    "<a href=\"b.whl#sha256=%s\" data-core-metadata=\"true\">b-1-py3-none-any.whl</a>\n"
	    "<a href=\"c.whl#sha256=%s\">c-1-py3-none-any.whl</a>\n"
	    "<a href=\"d.whl#sha256=%s\" data-core-metadata=\"sha256&#61;%s\">d-1-py3-none-any.whl</a>\n"
	    "</body></html>\n",
	    A, B, A, A, A, B);
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 4);
	assert_string_equal(v[0].name, "a-1-py3-none-any.whl");
	assert_string_equal(v[0].url, "a.whl");
	assert_true(v[0].metadata);
	assert_string_equal(v[0].metadata_sha256, B);
	assert_true(v[1].metadata);
	assert_null(v[1].metadata_sha256);
	/* the next link's attribute is not this one's */
	assert_false(v[2].metadata);
	assert_true(v[3].metadata);
	assert_string_equal(v[3].metadata_sha256, B);
	pypi_index_files_free(v, n);
	buf_release(&page);
}

/* A size that is none (-1 from a proxy, a string, over 1 TiB, a
 * fraction) is unknown, 0: never 16 EiB ("18446744073.7 GB"). */
static void test_pypi_index_parse_absurd_size_is_unknown(void **state)
{
	static const char *const sizes[] = {
	    "-1",   "\"7\"", "1099511627777", "9223372036854775807", "7.5",
	    "null", "0",
	};
	struct buf page = BUF_INIT;
	struct index_file *v;
	size_t n;

	(void)state;
	buf_adds(&page, "{\"files\": [");
	for (size_t i = 0; i < sizeof(sizes) / sizeof(*sizes); i++)
		buf_printf(&page,
			   "{\"filename\": \"a-%zu-py3-none-any.whl\", "
			   "\"url\": \"a.whl\", \"hashes\": {\"sha256\": "
			   "\"%s\"}, \"size\": %s},",
			   i, A64, sizes[i]);
	buf_printf(&page,
		   "{\"filename\": \"b-1-py3-none-any.whl\", \"url\": "
		   "\"b.whl\", \"hashes\": {\"sha256\": \"%s\"}, "
		   "\"size\": 1099511627776}]}",
		   A64);
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, sizeof(sizes) / sizeof(*sizes) + 1);
	for (size_t i = 0; i + 1 < n; i++)
		assert_int_equal(v[i].size, 0);
	/* 1 TiB itself is a size */
	assert_int_equal(v[n - 1].size, (uint64_t)1 << 40);
	pypi_index_files_free(v, n);
	buf_release(&page);
}

/* Yanked files and files without a usable sha256 are left out. */
static void test_pypi_index_parse_skips_yanked_and_unhashed(void **state)
{
	struct buf page = BUF_INIT;
	struct index_file *v;
	size_t n;

	(void)state;
	buf_adds(&page,
		 "{\"files\": ["
		 "{\"filename\": \"a.whl\", \"url\": \"a\", "
		 "\"hashes\": {\"sha256\": \"" A64 "\"}, \"yanked\": true},"
		 "{\"filename\": \"b.whl\", \"url\": \"b\", "
		 "\"hashes\": {\"sha256\": \"" A64 "\"}, "
		 "\"yanked\": \"broken\"},"
		 "{\"filename\": \"c.whl\", \"url\": \"c\", "
		 "\"hashes\": {\"md5\": \"00\"}},"
		 "{\"filename\": \"d.whl\", \"url\": \"d\", "
		 "\"hashes\": {\"sha256\": \"" A64 "\"}}]}");
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].name, "d.whl");
	assert_string_equal(v[0].sha256, A64);
	pypi_index_files_free(v, n);

	buf_reset(&page);
	buf_adds(&page,
		 "<a href=\"x.whl#sha256=" A64 "\" data-yanked=\"\">x.whl</a>"
		 "<a href=\"y.whl#md5=00\">y.whl</a>"
		 "<a href=\"z.whl#sha256=" A64 "\">z.whl</a>");
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].name, "z.whl");
	assert_string_equal(v[0].url, "z.whl");
	pypi_index_files_free(v, n);

	/* a yanked file after a good one hides only itself */
	buf_reset(&page);
	buf_adds(&page, "<a href=\"g.whl#sha256=" A64 "\">g.whl</a>\n"
			"<a href=\"h.whl#sha256=" A64
			"\" data-yanked=\"bad\">h.whl</a>");
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].name, "g.whl");
	pypi_index_files_free(v, n);
	buf_release(&page);
}

/* The page's bytes: times copies of unit. */
static void repeat(struct buf *page, const char *unit, size_t times)
{
	buf_reset(page);
	for (size_t i = 0; i < times; i++)
		buf_adds(page, unit);
}

/*
 * Pages built to make a parser rescan the rest of the page for each tag
 * (2 MB of tags without href, of links without "</a>", of hrefs without
 * a closing quote) give nothing, in time linear in their length; a
 * link after 2 MB of such tags is still found.
 */
static void test_pypi_index_parse_reads_hostile_pages_through(void **state)
{
	struct buf page = BUF_INIT;
	struct index_file *v;
	size_t n;

	(void)state;
	repeat(&page, "<a x>", 400000);
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 0);
	pypi_index_files_free(v, n);

	repeat(&page, "<a href=\"u.whl#sha256=" A64 "\">", 20000);
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 0);
	pypi_index_files_free(v, n);

	repeat(&page, "<a href=\"u.whl#sha256=>", 20000);
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 0);
	pypi_index_files_free(v, n);

	repeat(&page, "<a x>", 400000);
	buf_adds(&page, "<a href=\"z.whl#sha256=" A64 "\">z.whl</a>");
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 1);
	assert_string_equal(v[0].name, "z.whl");
	assert_string_equal(v[0].url, "z.whl");
	pypi_index_files_free(v, n);
	buf_release(&page);
}

/*
 * A page of 20k honest links, none with PEP 658 metadata (each tag's
 * attributes are searched within the tag, not to the page's end), and
 * the same files as PEP 691 JSON: every file, in order.
 */
static void test_pypi_index_parse_reads_large_pages(void **state)
{
	struct buf page = BUF_INIT, want = BUF_INIT;
	struct index_file *v;
	size_t n;

	(void)state;
	for (unsigned i = 0; i < 20000; i++)
		buf_printf(&page,
			   "<a href=\"../../p/pkg-1.0.%u-py3-none-any.whl"
			   "#sha256=" A64
			   "\">pkg-1.0.%u-py3-none-any.whl</a>\n",
			   i, i);
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 20000);
	for (size_t i = 0; i < n; i += 4999) {
		buf_reset(&want);
		buf_printf(&want, "pkg-1.0.%zu-py3-none-any.whl", i);
		assert_string_equal(v[i].name, want.data);
		assert_false(v[i].metadata);
	}
	assert_string_equal(v[n - 1].url,
			    "../../p/pkg-1.0.19999-py3-none-any.whl");
	pypi_index_files_free(v, n);

	buf_reset(&page);
	buf_adds(&page, "{\"files\": [");
	for (unsigned i = 0; i < 20000; i++)
		buf_printf(&page,
			   "%s{\"filename\": \"pkg-1.0.%u-py3-none-any.whl\", "
			   "\"url\": \"p/%u.whl\", "
			   "\"hashes\": {\"sha256\": \"" A64 "\"}}",
			   i ? ", " : "", i, i);
	buf_adds(&page, "]}");
	pypi_index_parse(&page, &v, &n);
	assert_int_equal(n, 20000);
	assert_string_equal(v[n - 1].name, "pkg-1.0.19999-py3-none-any.whl");
	assert_string_equal(v[n - 1].url, "p/19999.whl");
	pypi_index_files_free(v, n);
	BUF_RELEASE_EACH(&page, &want);
}

/* The names NVIDIA publishes its wheels under on pypi.org. */
static void test_pypi_wheel_project_names(void **state)
{
	char *p;

	(void)state;
	p = pypi_wheel_project("cuda_cudart", 12, KIT_CUDA);
	assert_string_equal(p, "nvidia-cuda-runtime-cu12");
	free(p);
	p = pypi_wheel_project("libcublas", 11, KIT_CUDA);
	assert_string_equal(p, "nvidia-cublas-cu11");
	free(p);
	p = pypi_wheel_project("cuda_nvrtc", 13, KIT_CUDA);
	assert_string_equal(p, "nvidia-cuda-nvrtc");
	free(p);
	p = pypi_wheel_project("cudnn", 13, KIT_CUDNN);
	assert_string_equal(p, "nvidia-cudnn-cu13");
	free(p);
	p = pypi_wheel_project("cuda_nvtx", 12, KIT_CUDA);
	assert_string_equal(p, "nvidia-nvtx-cu12");
	free(p);
	p = pypi_wheel_project("cuda_nvcc", 12, KIT_CUDA);
	assert_string_equal(p, "nvidia-cuda-nvcc-cu12");
	free(p);
	p = pypi_wheel_project("libnvjpeg", 12, KIT_CUDA);
	assert_string_equal(p, "nvidia-nvjpeg-cu12");
	free(p);
	assert_null(pypi_wheel_project("cuda_demo_suite", 12, KIT_CUDA));
}

/* NVIDIA's post-releases are the catalogue's release (issue 23: 12.4's
 * cccl wheel is only 12.4.127.post1); nothing else near it is. */
static void test_pypi_release_post_is_the_release(void **state)
{
	(void)state;
	assert_int_equal(pypi_release_post("12.4.127", "12.4.127"), 0);
	assert_int_equal(pypi_release_post("12.4.127.post1", "12.4.127"), 2);
	assert_int_equal(pypi_release_post("12.4.127.post12", "12.4.127"), 13);
	assert_int_equal(pypi_release_post("12.4.1270", "12.4.127"), -1);
	assert_int_equal(pypi_release_post("12.4.127.1", "12.4.127"), -1);
	assert_int_equal(pypi_release_post("12.4.127.post", "12.4.127"), -1);
	assert_int_equal(pypi_release_post("12.4.127.post1a", "12.4.127"), -1);
	assert_int_equal(pypi_release_post("12.4.127.dev1", "12.4.127"), -1);
	assert_int_equal(pypi_release_post("12.4.99", "12.4.127"), -1);
}

/* Which of NVIDIA's wheels (their real file names) each platform takes:
 * a server ARM machine the manylinux aarch64 ones, a Jetson none (issue
 * 25: it took the x86_64 ones), Windows none. */
static void test_pypi_wheel_fits_each_platform(void **state)
{
	static const char *const x86 =
	    "nvidia_cuda_runtime_cu12-12.4.127-py3-none-"
	    "manylinux2014_x86_64.whl";
	static const char *const arm =
	    "nvidia_cuda_runtime_cu12-12.4.127-py3-none-"
	    "manylinux2014_aarch64.whl";
	static const char *const arm228 =
	    "nvidia_cudnn_cu12-9.1.0.70-py3-none-manylinux_2_28_aarch64.whl";
	static const char *const win =
	    "nvidia_cuda_runtime_cu12-12.4.127-py3-none-win_amd64.whl";

	(void)state;
	assert_true(pypi_wheel_fits(x86, "linux-x86_64"));
	assert_false(pypi_wheel_fits(arm, "linux-x86_64"));
	assert_true(pypi_wheel_fits(arm, "linux-sbsa"));
	assert_true(pypi_wheel_fits(arm228, "linux-sbsa"));
	assert_false(pypi_wheel_fits(x86, "linux-sbsa"));
	assert_false(pypi_wheel_fits(x86, "linux-aarch64"));
	assert_false(pypi_wheel_fits(arm, "linux-aarch64"));
	assert_false(pypi_wheel_fits(win, "windows-x86_64"));
	assert_false(pypi_wheel_fits(x86, "windows-x86_64"));
	assert_false(pypi_wheel_fits("nvidia_cuda_runtime_cu12-12.4.127.tar.gz",
				     "linux-x86_64"));
}

/* What install's turn to the index asks first (install_falls_back): a
 * platform the index has none of NVIDIA's wheels for keeps NVIDIA's. */
static void test_pypi_platform_has_wheels(void **state)
{
	(void)state;
	assert_true(pypi_platform_has_wheels("linux-x86_64"));
	assert_true(pypi_platform_has_wheels("linux-sbsa"));
	assert_false(pypi_platform_has_wheels("linux-aarch64"));
	assert_false(pypi_platform_has_wheels("windows-x86_64"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_pypi_platform_has_wheels),
	    cmocka_unit_test(test_pypi_index_parse_reads_core_metadata),
	    cmocka_unit_test(test_pypi_index_parse_skips_yanked_and_unhashed),
	    cmocka_unit_test(test_pypi_index_parse_absurd_size_is_unknown),
	    cmocka_unit_test(test_pypi_index_parse_reads_hostile_pages_through),
	    cmocka_unit_test(test_pypi_index_parse_reads_large_pages),
	    cmocka_unit_test(test_pypi_wheel_project_names),
	    cmocka_unit_test(test_pypi_release_post_is_the_release),
	    cmocka_unit_test(test_pypi_wheel_fits_each_platform),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
