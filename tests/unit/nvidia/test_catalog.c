#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nvidia/catalog.h"
#include "fakes/fixture.h"

#define SHA_A "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
#define SHA_B "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"

static const char cuda_json[] =
    "{\"release_date\": \"2024-04-03\", \"release_label\": \"12.4.1\","
    " \"release_product\": \"cuda\","
    " \"cuda_cudart\": {\"name\": \"CUDA Runtime\", \"version\": \"12.4.127\","
    "  \"linux-x86_64\": {\"relative_path\": \"cuda_cudart/linux-x86_64/"
    "cuda_cudart-linux-x86_64-12.4.127-archive.tar.xz\", \"sha256\": \"" SHA_A
    "\", \"size\": \"1234\"},"
    "  \"linux-sbsa\": {\"relative_path\": \"cuda_cudart/linux-sbsa/x.tar.xz\","
    "   \"sha256\": \"" SHA_B "\", \"size\": \"1\"}},"
    " \"cuda_compat\": {\"version\": \"1\", \"linux-x86_64\": {\"cuda12.4\":"
    "  {\"relative_path\": \"c.tar.xz\", \"sha256\": \"" SHA_A "\"}}}}";

static const char cudnn_json[] =
    "{\"release_label\": \"9.1.0\", \"release_product\": \"cudnn\","
    " \"cudnn\": {\"version\": \"9.1.0.70\", \"linux-x86_64\": {"
    "  \"cuda11\": {\"relative_path\": \"cudnn/linux-x86_64/a_cuda11.tar.xz\","
    "   \"sha256\": \"" SHA_A "\", \"size\": \"10\"},"
    "  \"cuda12\": {\"relative_path\": \"cudnn/linux-x86_64/a_cuda12.tar.xz\","
    "   \"sha256\": \"" SHA_B "\", \"size\": \"20\"}}}}";

static void test_catalog_reads_cuda_redist_for_platform(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct part *p;

	(void)state;
	assert_int_equal(catalog_parse_redist(&cat, "m.json", cuda_json,
					      strlen(cuda_json), "linux-x86_64",
					      NULL, NULL, &err),
			 CUENV_OK);
	assert_int_equal(cat.n, 1);
	assert_string_equal(cat.v[0]->version, "12.4.1");
	assert_int_equal(cat.v[0]->cuda_major, 12);
	assert_int_equal(cat.v[0]->nparts, 1); /* cuda_compat has variants */
	p = release_part(cat.v[0], "cuda_cudart");
	assert_non_null(p);
	assert_string_equal(p->version, "12.4.127");
	assert_string_equal(p->sha256, SHA_A);
	assert_int_equal(p->size, 1234);
	assert_string_equal(
	    p->url, "https://developer.download.nvidia.com/compute/cuda/"
		    "redist/cuda_cudart/linux-x86_64/"
		    "cuda_cudart-linux-x86_64-12.4.127-archive.tar.xz");
	catalog_release(&cat);
}

/* A release with no archive for the platform is not offered there (a
 * Jetson, linux-aarch64, reads CUDA 11.4's and 13's manifests: issue
 * 25); one with archives but no runtime is still refused. */
static void test_catalog_skips_release_not_for_platform(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	static const char no_cudart[] =
	    "{\"release_label\": \"12.4.1\", \"release_product\": \"cuda\","
	    " \"cuda_cupti\": {\"version\": \"12.4.127\","
	    "  \"linux-aarch64\": {\"relative_path\": \"c/a.tar.xz\","
	    "   \"sha256\": \"" SHA_A "\", \"size\": \"1\"}}}";

	(void)state;
	assert_int_equal(
	    catalog_parse_redist(&cat, "m.json", cuda_json, strlen(cuda_json),
				 "linux-aarch64", NULL, NULL, &err),
	    CUENV_OK);
	assert_int_equal(cat.n, 0);
	assert_int_equal(
	    catalog_parse_redist(&cat, "n.json", no_cudart, strlen(no_cudart),
				 "linux-aarch64", NULL, NULL, &err),
	    CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "no cuda_cudart for"));
	assert_int_equal(cat.n, 0);
	err_release(&err);
	catalog_release(&cat);
}

/* doctor's and explain's loader model take the processor from this:
 * a Jetson is aarch64 too (issue 25: it was taken for x86_64). */
static void test_catalog_platform_machine(void **state)
{
	(void)state;
	assert_string_equal(catalog_platform_machine("linux-sbsa"), "aarch64");
	assert_string_equal(catalog_platform_machine("linux-aarch64"),
			    "aarch64");
	assert_string_equal(catalog_platform_machine("linux-ppc64le"),
			    "ppc64le");
	assert_string_equal(catalog_platform_machine("linux-x86_64"), "x86_64");
	assert_string_equal(catalog_platform_machine("windows-x86_64"),
			    "x86_64");
}

static void test_catalog_reads_cudnn_variants_per_cuda_major(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct release *r;

	(void)state;
	assert_int_equal(catalog_parse_redist(&cat, "d.json", cudnn_json,
					      strlen(cudnn_json),
					      "linux-x86_64", NULL, NULL, &err),
			 CUENV_OK);
	assert_int_equal(cat.n, 2);
	r = catalog_find(&cat, KIT_CUDNN, "9", 12, -1);
	assert_non_null(r);
	assert_int_equal(r->cuda_major, 12);
	assert_string_equal(r->parts[0].sha256, SHA_B);
	assert_null(catalog_find(&cat, KIT_CUDNN, "9", 13, -1));
	catalog_release(&cat);
}

static void expect_bad(const char *json, const char *needle)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(catalog_parse_redist(&cat, "bad.json", json,
					      strlen(json), "linux-x86_64",
					      NULL, NULL, &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "bad.json"));
	if (needle && !strstr(err.msg.data, needle))
		fail_msg("'%s' not in '%s'", needle, err.msg.data);
	assert_int_equal(cat.n, 0);
	err_release(&err);
}

static void test_catalog_rejects_truncated_json(void **state)
{
	char cut[64];

	(void)state;
	memcpy(cut, cuda_json, 63);
	cut[63] = '\0';
	expect_bad(cut, "line");
}

static void test_catalog_rejects_bad_sha256(void **state)
{
	(void)state;
	expect_bad("{\"release_label\": \"12.4.1\", \"release_product\": "
		   "\"cuda\", \"cuda_cudart\": {\"version\": \"1\", "
		   "\"linux-x86_64\": {\"relative_path\": \"a/b.tar.xz\", "
		   "\"sha256\": \"XYZ\"}}}",
		   "sha256");
}

static void test_catalog_rejects_path_leaving_the_redist_tree(void **state)
{
	(void)state;
	expect_bad("{\"release_label\": \"12.4.1\", \"release_product\": "
		   "\"cuda\", \"cuda_cudart\": {\"version\": \"1\", "
		   "\"linux-x86_64\": {\"relative_path\": \"../../evil\", "
		   "\"sha256\": \"" SHA_A "\"}}}",
		   "relative_path");
}

/* A component key is a folder in a mirror and a word in its index: one
 * that climbs, holds a '/' or a newline is refused, naming it. */
static void test_catalog_rejects_bad_component_keys(void **state)
{
	static const char *const keys[] = {
	    "../x", "a/b", "cuda_cudart\\n", "", ".hidden", "a b",
	};
	struct buf json = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(keys) / sizeof(*keys); i++) {
		buf_reset(&json);
		buf_printf(&json,
			   "{\"release_label\": \"12.4.1\", "
			   "\"release_product\": \"cuda\", \"cuda_cudart\": "
			   "{\"version\": \"1\", \"linux-x86_64\": "
			   "{\"relative_path\": \"a/b.tar.xz\", \"sha256\": "
			   "\"" SHA_A "\"}}, \"%s\": {\"version\": \"1\", "
			   "\"linux-sbsa\": {\"relative_path\": "
			   "\"a/c.tar.xz\", \"sha256\": \"" SHA_A "\"}}}",
			   keys[i]);
		expect_bad(json.data, "bad component name");
	}
	buf_release(&json);
	assert_true(catalog_name_ok("cuda_cudart"));
	assert_true(catalog_name_ok("libnvidia_nscq"));
	assert_false(catalog_name_ok("cuda_cudart\n"));
	assert_false(catalog_name_ok(".."));
	assert_false(catalog_name_ok(
	    "a1234567890123456789012345678901234567890123456789012345678901234"));
}

/* cuDNN's variants are cuda<N>: "cuda12/../x" or "cuda12\n" is not 12. */
static void test_catalog_rejects_bad_cudnn_variant_keys(void **state)
{
	(void)state;
	expect_bad("{\"release_label\": \"9.1.0\", \"release_product\": "
		   "\"cudnn\", \"cudnn\": {\"version\": \"9.1.0.70\", "
		   "\"linux-x86_64\": {\"cuda12/../x\": {\"relative_path\": "
		   "\"a/b.tar.xz\", \"sha256\": \"" SHA_A "\"}}}}",
		   "bad CUDA variant 'cuda12/../x'");
	expect_bad("{\"release_label\": \"9.1.0\", \"release_product\": "
		   "\"cudnn\", \"cudnn\": {\"version\": \"9.1.0.70\", "
		   "\"linux-x86_64\": {\"cuda12\\n\": {\"relative_path\": "
		   "\"a/b.tar.xz\", \"sha256\": \"" SHA_A "\"}}}}",
		   "bad CUDA variant");
}

/* redistrib_12.4.json saying release_label 12.4.99 would make `install
 * 12.4` pick 12.4.99 where no pin says so: refused, naming both. */
static void test_catalog_rejects_a_label_that_is_not_the_file_name(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(catalog_parse_redist(&cat, "redistrib_12.4.json",
					      cuda_json, strlen(cuda_json),
					      "linux-x86_64", "cuda", "12.4",
					      &err),
			 CUENV_E_MANIFEST);
	assert_string_equal(err.msg.data,
			    "bad catalogue file 'redistrib_12.4.json': "
			    "release_label '12.4.1' is not 12.4, as the file "
			    "name says");
	assert_int_equal(cat.n, 0);
	err_release(&err);
	assert_int_equal(catalog_parse_redist(&cat, "redistrib_12.4.1.json",
					      cuda_json, strlen(cuda_json),
					      "linux-x86_64", "cuda", "12.4.1",
					      &err),
			 CUENV_OK);
	catalog_release(&cat);
}

/* A cuda_cudart entry whose size is the JSON text size. */
static char *cuda_with_size(const char *size)
{
	struct buf b = BUF_INIT;

	buf_printf(&b,
		   "{\"release_label\": \"12.4.1\", \"release_product\": "
		   "\"cuda\", \"cuda_cudart\": {\"version\": \"1\", "
		   "\"linux-x86_64\": {\"relative_path\": \"a/b.tar.xz\", "
		   "\"sha256\": \"" SHA_A "\", \"size\": %s}}}",
		   size);
	return buf_detach(&b);
}

static uint64_t size_of(const char *size)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	char *json = cuda_with_size(size);
	uint64_t n;

	if (catalog_parse_redist(&cat, "good.json", json, strlen(json),
				 "linux-x86_64", NULL, NULL, &err))
		fail_msg("size %s: %s", size, err.msg.data);
	assert_int_equal(cat.n, 1);
	n = cat.v[0]->parts[0].size;
	catalog_release(&cat);
	free(json);
	return n;
}

static void test_catalog_reads_sizes_as_strings_or_integers(void **state)
{
	(void)state;
	assert_int_equal(size_of("\"1234\""), 1234);
	assert_int_equal(size_of("1234"), 1234);
	assert_int_equal(size_of("\"0\""), 0);
	assert_int_equal(size_of("\"18446744073709551615\""), UINT64_MAX);
	assert_int_equal(size_of("9223372036854775807"), INT64_MAX);
}

static void test_catalog_rejects_a_size_that_is_not_a_whole_number(void **state)
{
	static const char *const bad[] = {
	    "\"-1\"",
	    "-1",
	    "\"1.5\"",
	    "1.5",
	    "\"abc\"",
	    "\"1e3\"",
	    "1e3",
	    "1000.0",
	    "\"\"",
	    "\" 12\"",
	    "\"+12\"",
	    "\"0x10\"",
	    "null",
	    "true",
	    "[1]",
	    "{}",
	    "\"18446744073709551616\"",
	};

	(void)state;
	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++) {
		struct catalog cat = {0};
		struct cuenv_err err = CUENV_ERR_INIT;
		char *json = cuda_with_size(bad[i]);

		if (catalog_parse_redist(&cat, "bad.json", json, strlen(json),
					 "linux-x86_64", NULL, NULL,
					 &err) != CUENV_E_MANIFEST)
			fail_msg("size %s was accepted", bad[i]);
		assert_int_equal(cat.n, 0);
		if (!strstr(err.msg.data, "'bad.json'") ||
		    !strstr(err.msg.data,
			    "'cuda_cudart.linux-x86_64.size' must be a whole "
			    "number of bytes, not ") ||
		    strchr(err.msg.data, '\n') || err.hint.len)
			fail_msg("size %s: '%s'", bad[i], err.msg.data);
		err_release(&err);
		free(json);
	}
}

static void test_catalog_rejects_a_too_big_integer_size(void **state)
{
	char *json = cuda_with_size("18446744073709551616");

	(void)state;
	expect_bad(json, "too big integer");
	free(json);
}

static void test_catalog_names_the_cudnn_size_key(void **state)
{
	(void)state;
	expect_bad("{\"release_label\": \"9.1.0\", \"release_product\": "
		   "\"cudnn\", \"cudnn\": {\"version\": \"9.1.0.70\", "
		   "\"linux-x86_64\": {\"cuda12\": {\"relative_path\": "
		   "\"cudnn/a.tar.xz\", \"sha256\": \"" SHA_A "\", "
		   "\"size\": \"-20\"}}}}",
		   "'cudnn.linux-x86_64.cuda12.size' must be a whole number "
		   "of bytes, not \"-20\"");
}

static void test_catalog_rejects_bad_label_and_product(void **state)
{
	(void)state;
	expect_bad("{\"release_label\": \"../12\", \"release_product\": "
		   "\"cuda\"}",
		   "release_label");
	expect_bad("{\"release_label\": \"12.4.1\", \"release_product\": "
		   "\"driver\"}",
		   "driver");
	expect_bad("[1, 2]", NULL);
	expect_bad("{\"release_label\": \"12.4.1\", \"release_product\": "
		   "\"cuda\"}",
		   "cuda_cudart");
}

static const char runfiles[] =
    "cuda_version\tplatform\turl\tsha256\tsource\tcross_check\n"
    "11.2.2\tlinux-x86_64\thttps://developer.download.nvidia.com/compute/"
    "cuda/11.2.2/local_installers/cuda_11.2.2_460.32.03_linux.run\t" SHA_A
    "\ts\t-\n"
    "11.2.2\tlinux-sbsa\thttps://developer.download.nvidia.com/x.run\t" SHA_B
    "\ts\t-\n"
    "11.2.1\tlinux-x86_64\thttps://developer.download.nvidia.com/y.run\t" SHA_B
    "\ts\t-\n";

static void test_catalog_reads_runfile_table(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct release *r;

	(void)state;
	assert_int_equal(catalog_parse_table(&cat, KIT_CUDA, "r.tsv", runfiles,
					     strlen(runfiles), "linux-x86_64",
					     &err),
			 CUENV_OK);
	assert_int_equal(cat.n, 2);
	r = catalog_find(&cat, KIT_CUDA, "11.2", 0, -1);
	assert_non_null(r);
	assert_string_equal(r->version, "11.2.2");
	assert_int_equal(r->source, SRC_RUNFILE);
	assert_string_equal(r->parts[0].sha256, SHA_A);
	catalog_release(&cat);
}

static void test_catalog_table_rejects_foreign_url(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *t =
	    "h\n11.2.2\tlinux-x86_64\thttp://evil.example/x.run\t" SHA_A "\n";

	(void)state;
	assert_int_equal(catalog_parse_table(&cat, KIT_CUDA, "r.tsv", t,
					     strlen(t), "linux-x86_64", &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "r.tsv"));
	assert_non_null(strstr(err.msg.data, "line 2"));
	err_release(&err);
	catalog_release(&cat);
}

static void test_catalog_table_rejects_a_climbing_url(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	/* a file:// mirror would turn this into a path outside it */
	const char *t = "h\n11.2.2\tlinux-x86_64\thttps://developer.download."
			"nvidia.com/compute/../../../etc/passwd\t" SHA_A "\n";

	(void)state;
	assert_int_equal(catalog_parse_table(&cat, KIT_CUDA, "r.tsv", t,
					     strlen(t), "linux-x86_64", &err),
			 CUENV_E_MANIFEST);
	err_release(&err);
	catalog_release(&cat);
}

static void test_catalog_table_reads_cudnn_major_from_range(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *t = "h\n8.1.1.33\t11.2\tlinux-x86_64\thttps://developer."
			"download.nvidia.com/compute/redist/cudnn/v8.1.1/"
			"cudnn-11.2-linux-x64-v8.1.1.33.tgz\t" SHA_A "\ts\t-\n";

	(void)state;
	assert_int_equal(catalog_parse_table(&cat, KIT_CUDNN, "t.tsv", t,
					     strlen(t), "linux-x86_64", &err),
			 CUENV_OK);
	assert_non_null(catalog_find(&cat, KIT_CUDNN, "8.1", 11, -1));
	assert_int_equal(cat.v[0]->source, SRC_TARBALL);
	catalog_release(&cat);
}

static void test_catalog_find_prefers_redist_at_equal_version(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *t = "h\n12.4.1\tlinux-x86_64\thttps://developer.download."
			"nvidia.com/z.run\t" SHA_A "\n";

	(void)state;
	assert_int_equal(catalog_parse_table(&cat, KIT_CUDA, "r.tsv", t,
					     strlen(t), "linux-x86_64", &err),
			 CUENV_OK);
	assert_int_equal(catalog_parse_redist(&cat, "m.json", cuda_json,
					      strlen(cuda_json), "linux-x86_64",
					      NULL, NULL, &err),
			 CUENV_OK);
	assert_int_equal(catalog_find(&cat, KIT_CUDA, "12", 0, -1)->source,
			 SRC_REDIST);
	assert_int_equal(
	    catalog_find(&cat, KIT_CUDA, "12", 0, SRC_RUNFILE)->source,
	    SRC_RUNFILE);
	/* pypi installs use the redist manifest's component versions */
	assert_int_equal(
	    catalog_find(&cat, KIT_CUDA, "12", 0, SRC_PYPI)->source,
	    SRC_REDIST);
	catalog_release(&cat);
}

/* cuda_json (12.4.1) and cudnn_json (9.1.0.70 for CUDA 11 and 12). */
static void load_cuda_and_cudnn(struct catalog *cat)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(catalog_parse_redist(cat, "m.json", cuda_json,
					      strlen(cuda_json), "linux-x86_64",
					      NULL, NULL, &err),
			 CUENV_OK);
	assert_int_equal(catalog_parse_redist(cat, "d.json", cudnn_json,
					      strlen(cudnn_json),
					      "linux-x86_64", NULL, NULL, &err),
			 CUENV_OK);
}

static void test_catalog_resolve_finds_cudnn_for_the_cuda_major(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog_choice ch;

	(void)state;
	load_cuda_and_cudnn(&cat);
	assert_int_equal(
	    catalog_resolve(&cat, "12.4", "9.1", "12.4.1", -1, &ch, &err),
	    CUENV_OK);
	assert_string_equal(ch.cuda->version, "12.4.1");
	assert_string_equal(ch.cudnn->version, "9.1.0.70");
	assert_int_equal(ch.cudnn->cuda_major, 12);
	assert_ptr_equal(ch.cupti, ch.cuda);
	assert_int_equal(catalog_resolve(&cat, "12", NULL, NULL, -1, &ch, &err),
			 CUENV_OK);
	assert_null(ch.cudnn);
	assert_null(ch.cupti);
	catalog_release(&cat);
}

static void test_catalog_resolve_names_the_missing_cudnn(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog_choice ch;

	(void)state;
	load_cuda_and_cudnn(&cat);
	assert_int_equal(
	    catalog_resolve(&cat, "12.4", "9.24.0.43", NULL, -1, &ch, &err),
	    CUENV_E_UNKNOWN);
	assert_string_equal(err.msg.data,
			    "no cuDNN 9.24.0.43 for CUDA 12 in the catalogue");
	assert_non_null(strstr(err.hint.data, "cuenv list-remote cudnn"));
	assert_non_null(
	    strstr(err.hint.data, "newer releases from NVIDIA: cuenv update"));
	err_release(&err);
	catalog_release(&cat);
}

static void test_catalog_resolve_names_the_missing_cuda_source(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog_choice ch;

	(void)state;
	load_cuda_and_cudnn(&cat);
	assert_int_equal(
	    catalog_resolve(&cat, "12.4", "9.1", NULL, SRC_RUNFILE, &ch, &err),
	    CUENV_E_UNKNOWN);
	assert_string_equal(err.msg.data,
			    "no CUDA 12.4 from runfile in the catalogue");
	assert_non_null(
	    strstr(err.hint.data, "newer releases from NVIDIA: cuenv update"));
	err_release(&err);
	catalog_release(&cat);
}

static void test_catalog_resolve_names_the_missing_cupti(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog_choice ch;

	(void)state;
	load_cuda_and_cudnn(&cat);
	assert_int_equal(
	    catalog_resolve(&cat, "12.4", NULL, "11.8", -1, &ch, &err),
	    CUENV_E_UNKNOWN);
	assert_string_equal(err.msg.data,
			    "no CUDA 11.8 (for its CUPTI) in the catalogue");
	err_release(&err);
	catalog_release(&cat);
}

static void test_catalog_takes_an_old_manifest_label_from_its_name(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *old =
	    "{\"cuda_cudart\": {\"version\": \"11.4.108\", "
	    "\"linux-x86_64\": {\"relative_path\": \"a/b.tar.xz\", "
	    "\"sha256\": \"" SHA_A "\"}}}";

	(void)state;
	assert_int_equal(catalog_parse_redist(&cat, "r.json", old, strlen(old),
					      "linux-x86_64", NULL, NULL, &err),
			 CUENV_E_MANIFEST);
	err_release(&err);
	assert_int_equal(catalog_parse_redist(&cat, "r.json", old, strlen(old),
					      "linux-x86_64", "cuda", "11.4.2",
					      &err),
			 CUENV_OK);
	assert_string_equal(cat.v[0]->version, "11.4.2");
	catalog_release(&cat);
}

/* pypi.tsv: the index has 12.4.1; CUDA 12's cudart wheel (here) holds
 * less than the redist archive (issue 23). */
static void test_catalog_index_marks_releases_and_partial_wheels(void **state)
{
	static const char tsv[] = "cuda_release\tcomponent\tholds\tchecked\n"
				  "# a comment\n"
				  "12.4.1\t*\t*\tpip index versions\n"
				  "12\tcuda_cudart\tlib/only\tunzip -l\n";
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog_choice ch;
	struct buf has = BUF_INIT;

	(void)state;
	assert_int_equal(catalog_parse_redist(&cat, "m.json", cuda_json,
					      strlen(cuda_json), "linux-x86_64",
					      NULL, NULL, &err),
			 CUENV_OK);
	assert_int_equal(
	    catalog_parse_index(&cat, "pypi.tsv", tsv, strlen(tsv), &err),
	    CUENV_OK);
	assert_true(cat.v[0]->on_index);
	assert_string_equal(release_part(cat.v[0], "cuda_cudart")->index_holds,
			    "lib/only");
	assert_ptr_equal(catalog_find(&cat, KIT_CUDA, "12.4", 0, SRC_PYPI),
			 cat.v[0]);
	catalog_index_releases(&cat, &has);
	assert_string_equal(has.data, "12.4.1");
	assert_int_equal(
	    catalog_resolve(&cat, "12.4", NULL, NULL, SRC_PYPI, &ch, &err),
	    CUENV_OK);
	buf_release(&has);
	catalog_release(&cat);
}

/* A release pypi.tsv does not list is not the index's: --source pypi
 * refuses it (17) and names what the index has, with its command. */
static void test_catalog_index_lacks_an_unlisted_release(void **state)
{
	static const char tsv[] = "cuda_release\tcomponent\tholds\tchecked\n"
				  "12.4.0\t*\t*\tx\n";
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog_choice ch;

	(void)state;
	assert_int_equal(catalog_parse_redist(&cat, "m.json", cuda_json,
					      strlen(cuda_json), "linux-x86_64",
					      NULL, NULL, &err),
			 CUENV_OK);
	assert_true(cat.v[0]->on_index); /* no table yet: unknown, allowed */
	assert_int_equal(
	    catalog_parse_index(&cat, "pypi.tsv", tsv, strlen(tsv), &err),
	    CUENV_OK);
	assert_false(cat.v[0]->on_index);
	assert_null(catalog_find(&cat, KIT_CUDA, "12.4", 0, SRC_PYPI));
	assert_ptr_equal(catalog_find(&cat, KIT_CUDA, "12.4", 0, -1), cat.v[0]);
	assert_int_equal(
	    catalog_resolve(&cat, "12.4", NULL, NULL, SRC_PYPI, &ch, &err),
	    CUENV_E_UNKNOWN);
	assert_string_equal(err.hint.data,
			    "the package index has CUDA no release this "
			    "catalogue knows; from NVIDIA: cuenv install "
			    "12.4.1 --source redist");
	err_release(&err);
	catalog_release(&cat);
}

static void test_catalog_index_rejects_a_malformed_line(void **state)
{
	static const char tsv[] = "cuda_release\tcomponent\tholds\tchecked\n"
				  "12.4.1\tcuda/../x\t*\tx\n";
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(
	    catalog_parse_index(&cat, "pypi.tsv", tsv, strlen(tsv), &err),
	    CUENV_E_MANIFEST);
	assert_string_equal(err.msg.data, "bad catalogue file 'pypi.tsv': "
					  "line 2 is malformed");
	err_release(&err);
	catalog_release(&cat);
}

static void test_catalog_loads_the_shipped_manifests(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct release *r;

	(void)state;
	if (catalog_load(&cat, CUENV_SRCDIR "/manifests", "linux-x86_64", &err))
		fail_msg("%s", err.msg.data);
	r = catalog_find(&cat, KIT_CUDA, "12.4", 0, -1);
	assert_non_null(r);
	assert_string_equal(r->version, "12.4.1");
	assert_non_null(release_part(r, "cuda_cupti"));
	r = catalog_find(&cat, KIT_CUDA, "11.2", 0, -1);
	assert_non_null(r);
	assert_int_equal(r->source, SRC_RUNFILE);
	assert_string_equal(r->version, "11.2.2");
	assert_non_null(catalog_find(&cat, KIT_CUDNN, "8.1", 11, -1));
	assert_non_null(catalog_find(&cat, KIT_CUDNN, "9.1", 12, -1));
	catalog_release(&cat);
}

/* A catalogue says the platform it was read for: what lock, update and
 * install --locked act for (CUENV_PLATFORM's, not this machine's). */
static void test_catalog_says_its_platform(void **state)
{
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct release *r;

	(void)state;
	assert_string_equal(catalog_platform_of(&cat), catalog_platform());
	if (catalog_load(&cat, CUENV_SRCDIR "/manifests", "linux-sbsa", &err))
		fail_msg("%s", err.msg.data);
	assert_string_equal(catalog_platform_of(&cat), "linux-sbsa");
	r = catalog_find(&cat, KIT_CUDA, "12.4", 0, -1);
	assert_non_null(r);
	assert_non_null(
	    strstr(release_part(r, "cuda_cudart")->url, "/linux-sbsa/"));
	catalog_release(&cat);
	assert_null(cat.platform);
}

static void test_catalog_load_names_a_corrupt_file(void **state)
{
	struct fixture *fx = *state;
	struct catalog cat = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	char *dir = fx_path(fx, "m");

	fx_write(fx, "m/cuda/redistrib_12.4.1.json",
		 "{\"release_label\": \"12");
	assert_int_equal(catalog_load(&cat, dir, "linux-x86_64", &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "redistrib_12.4.1.json"));
	err_release(&err);
	catalog_release(&cat);
	free(dir);
}

static void test_catalog_platforms_known(void **state)
{
	(void)state;
	assert_true(catalog_platform_known("linux-x86_64"));
	assert_true(catalog_platform_known("windows-x86_64"));
	assert_true(catalog_platform_known("linux-sbsa"));
	assert_false(catalog_platform_known("win64"));
	assert_false(catalog_platform_known(""));
	assert_false(catalog_platform_known("linux-x86_64 "));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_catalog_platforms_known),
	    cmocka_unit_test(test_catalog_reads_cuda_redist_for_platform),
	    cmocka_unit_test(test_catalog_skips_release_not_for_platform),
	    cmocka_unit_test(test_catalog_platform_machine),
	    cmocka_unit_test(test_catalog_reads_cudnn_variants_per_cuda_major),
	    cmocka_unit_test(test_catalog_rejects_truncated_json),
	    cmocka_unit_test(test_catalog_rejects_bad_sha256),
	    cmocka_unit_test(test_catalog_rejects_path_leaving_the_redist_tree),
	    cmocka_unit_test(test_catalog_rejects_bad_component_keys),
	    cmocka_unit_test(test_catalog_rejects_bad_cudnn_variant_keys),
	    cmocka_unit_test(
		test_catalog_rejects_a_label_that_is_not_the_file_name),
	    cmocka_unit_test(test_catalog_reads_sizes_as_strings_or_integers),
	    cmocka_unit_test(
		test_catalog_rejects_a_size_that_is_not_a_whole_number),
	    cmocka_unit_test(test_catalog_rejects_a_too_big_integer_size),
	    cmocka_unit_test(test_catalog_names_the_cudnn_size_key),
	    cmocka_unit_test(test_catalog_rejects_bad_label_and_product),
	    cmocka_unit_test(test_catalog_reads_runfile_table),
	    cmocka_unit_test(test_catalog_table_rejects_foreign_url),
	    cmocka_unit_test(test_catalog_table_rejects_a_climbing_url),
	    cmocka_unit_test(test_catalog_table_reads_cudnn_major_from_range),
	    cmocka_unit_test(test_catalog_find_prefers_redist_at_equal_version),
	    cmocka_unit_test(
		test_catalog_resolve_finds_cudnn_for_the_cuda_major),
	    cmocka_unit_test(test_catalog_resolve_names_the_missing_cudnn),
	    cmocka_unit_test(
		test_catalog_resolve_names_the_missing_cuda_source),
	    cmocka_unit_test(test_catalog_resolve_names_the_missing_cupti),
	    cmocka_unit_test(
		test_catalog_takes_an_old_manifest_label_from_its_name),
	    cmocka_unit_test(test_catalog_loads_the_shipped_manifests),
	    cmocka_unit_test(test_catalog_says_its_platform),
	    cmocka_unit_test(
		test_catalog_index_marks_releases_and_partial_wheels),
	    cmocka_unit_test(test_catalog_index_lacks_an_unlisted_release),
	    cmocka_unit_test(test_catalog_index_rejects_a_malformed_line),
	    cmocka_unit_test_setup_teardown(
		test_catalog_load_names_a_corrupt_file, fx_setup, fx_teardown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
