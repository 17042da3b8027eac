#include "fakes/fixture.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "artifact/ldcache.h"
#include "base/xalloc.h"

/*
 * Cache images are built here in glibc's layout (dl-cache.h): the new
 * format's 48-byte header and 24-byte entries whose string offsets count
 * from that header, optionally after the old format's 16-byte header and
 * 12-byte entries.
 */
struct pair {
	const char *soname;
	const char *path;
	unsigned flags; /* 0: this machine's */
};

static void put32(struct buf *b, size_t at, uint32_t v)
{
	memcpy(b->data + at, &v, sizeof(v));
}

static void zeros(struct buf *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		buf_addc(b, '\0');
}

static unsigned flags_of(const struct pair *p)
{
	if (p->flags)
		return p->flags;
	return ldcache_native_flags() ? ldcache_native_flags() : 0x0303;
}

/* Append a new-format table (header at b->len) for pairs. */
static void add_new(struct buf *b, const struct pair *pairs, size_t n)
{
	size_t h = b->len, strings = 48 + n * 24;
	struct buf str = BUF_INIT;
	const uint16_t one = 1;
	unsigned char little;

	memcpy(&little, &one, 1);
	buf_adds(b, "glibc-ld.so.cache1.1");
	zeros(b, 28);
	put32(b, h + 20, (uint32_t)n);
	b->data[h + 28] = little ? 2 : 3;
	for (size_t i = 0; i < n; i++) {
		size_t e = b->len;

		zeros(b, 24);
		put32(b, e, flags_of(&pairs[i]));
		put32(b, e + 4, (uint32_t)(strings + str.len));
		buf_add(&str, pairs[i].soname, strlen(pairs[i].soname) + 1);
		put32(b, e + 8, (uint32_t)(strings + str.len));
		buf_add(&str, pairs[i].path, strlen(pairs[i].path) + 1);
	}
	put32(b, h + 24, (uint32_t)str.len);
	buf_add(b, str.data, str.len);
	buf_release(&str);
}

static const struct pair cuda13[] = {
    {"libcudart.so.13", "/usr/local/cuda-13.0/lib/libcudart.so.13", 0},
    {"libcupti.so.13", "/usr/local/cuda-13.0/lib/libcupti.so.13", 0},
    {"libc.so.6", "/lib/x86_64-linux-gnu/libc.so.6", 0},
};

static void test_ldcache_reads_the_new_format(void **state)
{
	struct buf img = BUF_INIT;
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	add_new(&img, cuda13, 3);
	assert_int_equal(ldcache_parse(img.data, img.len, &c, &err), CUENV_OK);
	assert_int_equal(c.n, 3);
	assert_string_equal(c.v[0].soname, "libcudart.so.13");
	assert_string_equal(c.v[0].path,
			    "/usr/local/cuda-13.0/lib/libcudart.so.13");
	assert_string_equal(c.v[2].soname, "libc.so.6");
	ldcache_release(&c);
	buf_release(&img);
}

static void test_ldcache_keeps_only_this_architecture(void **state)
{
	static const struct pair mixed[] = {
	    {"libcudart.so.13", "/usr/lib32/libcudart.so.13", 0x0003},
	    {"libcudart.so.12", "/usr/lib/libcudart.so.12", 0},
	};
	struct buf img = BUF_INIT;
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	if (!ldcache_native_flags())
		skip();
	add_new(&img, mixed, 2);
	assert_int_equal(ldcache_parse(img.data, img.len, &c, &err), CUENV_OK);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].soname, "libcudart.so.12");
	ldcache_release(&c);
	buf_release(&img);
}

static void test_ldcache_reads_new_format_after_the_old(void **state)
{
	struct buf img = BUF_INIT;
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	/* An old table of 3 entries (16 + 36 = 52 bytes), padded to 56. */
	buf_adds(&img, "ld.so-1.7.0");
	zeros(&img, 5 + 36 + 4);
	put32(&img, 12, 3);
	add_new(&img, cuda13, 2);
	assert_int_equal(ldcache_parse(img.data, img.len, &c, &err), CUENV_OK);
	assert_int_equal(c.n, 2);
	assert_string_equal(c.v[1].path,
			    "/usr/local/cuda-13.0/lib/libcupti.so.13");
	ldcache_release(&c);
	buf_release(&img);
}

static void test_ldcache_reads_the_old_format_alone(void **state)
{
	struct buf img = BUF_INIT;
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	static const char strings[] =
	    "libcudart.so.10.1\0/opt/cuda/libcudart.so.10.1";

	(void)state;
	buf_adds(&img, "ld.so-1.7.0");
	zeros(&img, 5 + 12);
	put32(&img, 12, 1);
	put32(&img, 16, flags_of(&cuda13[0]));
	put32(&img, 20, 0);
	put32(&img, 24, 18);
	buf_add(&img, strings, sizeof(strings));
	assert_int_equal(ldcache_parse(img.data, img.len, &c, &err), CUENV_OK);
	assert_int_equal(c.n, 1);
	assert_string_equal(c.v[0].soname, "libcudart.so.10.1");
	assert_string_equal(c.v[0].path, "/opt/cuda/libcudart.so.10.1");
	ldcache_release(&c);
	buf_release(&img);
}

static void test_ldcache_rejects_what_is_not_a_cache(void **state)
{
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	static const char junk[64] = "glibc-ld.so.cache1.0";

	(void)state;
	assert_int_equal(ldcache_parse(junk, sizeof(junk), &c, &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "not a loader cache"));
	assert_int_equal(ldcache_parse("glibc-ld.so.cache1.1", 20, &c, &err),
			 CUENV_E_MANIFEST);
	assert_int_equal(c.n, 0);
	err_release(&err);
}

static void test_ldcache_rejects_a_count_beyond_the_file(void **state)
{
	struct buf img = BUF_INIT;
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	add_new(&img, cuda13, 3);
	put32(&img, 20, 0xffffffffu);
	assert_int_equal(ldcache_parse(img.data, img.len, &c, &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "damaged"));
	assert_int_equal(c.n, 0);
	/* Cut in the middle of the entries. */
	put32(&img, 20, 3);
	assert_int_equal(ldcache_parse(img.data, 48 + 30, &c, &err),
			 CUENV_E_MANIFEST);
	err_release(&err);
	buf_release(&img);
}

static void test_ldcache_rejects_strings_outside_the_file(void **state)
{
	struct buf img = BUF_INIT;
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	add_new(&img, cuda13, 1);
	put32(&img, 48 + 8, (uint32_t)img.len + 100);
	assert_int_equal(ldcache_parse(img.data, img.len, &c, &err),
			 CUENV_E_MANIFEST);
	/* A last string without its NUL. */
	buf_reset(&img);
	add_new(&img, cuda13, 1);
	assert_int_equal(ldcache_parse(img.data, img.len - 1, &c, &err),
			 CUENV_E_MANIFEST);
	assert_int_equal(c.n, 0);
	err_release(&err);
	buf_release(&img);
}

static void test_ldcache_rejects_the_other_byte_order(void **state)
{
	struct buf img = BUF_INIT;
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	add_new(&img, cuda13, 1);
	img.data[28] = img.data[28] == 2 ? 3 : 2;
	assert_int_equal(ldcache_parse(img.data, img.len, &c, &err),
			 CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "byte order"));
	err_release(&err);
	buf_release(&img);
}

static void test_ldcache_read_missing_file_is_no(void **state)
{
	struct fixture *fx = *state;
	char *p = fx_path(fx, "nothing/ld.so.cache");
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(ldcache_read(p, &c, &err), CUENV_NO);
	free(p);
}

static void test_ldcache_read_names_the_damaged_file(void **state)
{
	struct fixture *fx = *state;
	char *p = fx_path(fx, "ld.so.cache");
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;

	fx_write(fx, "ld.so.cache", "garbage, not a cache at all");
	assert_int_equal(ldcache_read(p, &c, &err), CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, p));
	err_release(&err);
	free(p);
}

/* The machine's own cache, where there is one: ldconfig wrote it. */
static void test_ldcache_reads_this_machines_cache(void **state)
{
	struct ldcache c = {0};
	struct cuenv_err err = CUENV_ERR_INIT;
	int rc;

	(void)state;
	rc = ldcache_read("/etc/ld.so.cache", &c, &err);
	if (rc == CUENV_NO)
		skip();
	if (rc)
		fail_msg("/etc/ld.so.cache: %s", err.msg.data);
	assert_true(c.n > 0);
	for (size_t i = 0; i < c.n; i++)
		assert_true(c.v[i].path[0] == '/');
	ldcache_release(&c);
}

/* ---- configuration ------------------------------------------------------ */

static void test_ldconf_follows_includes_and_skips_comments(void **state)
{
	struct fixture *fx = *state;
	char *conf = fx_path(fx, "etc/ld.so.conf");
	char *cuda_conf = fx_path(fx, "etc/ld.so.conf.d/zz-cuda.conf");
	struct ldconf c = {0};

	fx_write(fx, "etc/ld.so.conf",
		 "# comment\ninclude ld.so.conf.d/*.conf\n/opt/first\n"
		 "hwcap 1 nosegneg\n");
	fx_write(fx, "etc/ld.so.conf.d/libc.conf", "/usr/local/lib  # x\n");
	fx_write(fx, "etc/ld.so.conf.d/zz-cuda.conf",
		 "/usr/local/cuda-13.0/lib/\n/opt/a:/opt/b,/opt/c=libc6\n");
	ldconf_read(conf, &c);
	assert_int_equal(c.n, 6);
	assert_string_equal(c.v[0].dir, "/usr/local/lib");
	assert_string_equal(c.v[1].dir, "/usr/local/cuda-13.0/lib");
	assert_string_equal(c.v[1].file, cuda_conf);
	assert_string_equal(c.v[4].dir, "/opt/c");
	assert_string_equal(c.v[5].dir, "/opt/first");
	assert_string_equal(c.v[5].file, conf);
	assert_string_equal(ldconf_file_for(&c, "/usr/local/cuda-13.0/lib"),
			    cuda_conf);
	assert_null(ldconf_file_for(&c, "/usr/lib"));
	ldconf_release(&c);
	free(conf);
	free(cuda_conf);
}

static void test_ldconf_matches_folders_through_links(void **state)
{
	struct fixture *fx = *state;
	char *conf = fx_path(fx, "ld.so.conf"), *real = fx_path(fx, "real"),
	     *link = fx_path(fx, "link");
	struct ldconf c = {0};
	struct buf text = BUF_INIT;

	fx_mkdir(fx, "real");
	fx_symlink(fx, real, "link");
	buf_printf(&text, "%s\n", link);
	fx_write(fx, "ld.so.conf", text.data);
	ldconf_read(conf, &c);
	assert_string_equal(ldconf_file_for(&c, real), conf);
	ldconf_release(&c);
	buf_release(&text);
	free(conf);
	free(real);
	free(link);
}

static void test_ldconf_survives_include_loops(void **state)
{
	struct fixture *fx = *state;
	char *conf = fx_path(fx, "a.conf");
	struct ldconf c = {0};

	fx_write(fx, "a.conf", "include a.conf\n/opt/x\n");
	ldconf_read(conf, &c);
	assert_true(c.n >= 1);
	assert_string_equal(c.v[0].dir, "/opt/x");
	ldconf_release(&c);
	free(conf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_ldcache_reads_the_new_format),
	    cmocka_unit_test(test_ldcache_keeps_only_this_architecture),
	    cmocka_unit_test(test_ldcache_reads_new_format_after_the_old),
	    cmocka_unit_test(test_ldcache_reads_the_old_format_alone),
	    cmocka_unit_test(test_ldcache_rejects_what_is_not_a_cache),
	    cmocka_unit_test(test_ldcache_rejects_a_count_beyond_the_file),
	    cmocka_unit_test(test_ldcache_rejects_strings_outside_the_file),
	    cmocka_unit_test(test_ldcache_rejects_the_other_byte_order),
	    cmocka_unit_test_setup_teardown(
		test_ldcache_read_missing_file_is_no, fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_ldcache_read_names_the_damaged_file, fx_setup,
		fx_teardown),
	    cmocka_unit_test(test_ldcache_reads_this_machines_cache),
	    cmocka_unit_test_setup_teardown(
		test_ldconf_follows_includes_and_skips_comments, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_ldconf_matches_folders_through_links, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(test_ldconf_survives_include_loops,
					    fx_setup, fx_teardown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
