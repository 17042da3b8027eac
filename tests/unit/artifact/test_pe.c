#include "fakes/fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "needs/needs.h"
#include "nvidia/nvlib.h"
#include "artifact/pe.h"
#include "base/xalloc.h"

/* ---- a hand-built PE image ----------------------------------------------- */

/*
 * A DLL written byte by byte from Microsoft's PE format specification
 * (offsets by hand, not from any header, so a mistake in the reader is not
 * repeated here): DOS header with e_lfanew 0x40, "PE\0\0", the COFF
 * header (x86-64, one section), a PE32+ (or PE32) optional header with 16
 * data directories, one section .rdata (RVA 0x1000, file 0x200, 0x200
 * bytes) holding:
 *
 *   RVA 0x1000  import descriptors: cudart64_110.dll, KERNEL32.dll, zero
 *   RVA 0x1080  delay-load descriptors: cudnn64_8.dll, zero
 *   RVA 0x10c0  export directory named mylib.dll
 *   RVA 0x1100  the names; then "nvrtc64_112_0.dll" as plain data and
 *               "cublas64_11.dll" in UTF-16LE (what LoadLibrary gets)
 */
#define FILE_LEN 0x400
#define SEC_OFF 0x200
#define SEC_RVA 0x1000
#define OPT 0x58

struct pe_img {
	unsigned char p[FILE_LEN];
	size_t len;
	int b64;
	size_t dirs; /* file offset of the data directories */
};

static void put(struct pe_img *m, size_t off, unsigned width, uint64_t v)
{
	assert_true(off + width <= sizeof(m->p));
	for (unsigned i = 0; i < width; i++)
		m->p[off + i] = (unsigned char)(v >> (8 * i));
}

static void put_str(struct pe_img *m, size_t off, const char *s)
{
	assert_true(off + strlen(s) + 1 <= sizeof(m->p));
	memcpy(m->p + off, s, strlen(s) + 1);
}

/* File offset of rva in the one section. */
static size_t at(uint32_t rva)
{
	return SEC_OFF + (rva - SEC_RVA);
}

static void dir(struct pe_img *m, unsigned i, uint32_t rva, uint32_t size)
{
	put(m, m->dirs + 8 * i, 4, rva);
	put(m, m->dirs + 8 * i + 4, 4, size);
}

static void pe_build(struct pe_img *m, int b64)
{
	size_t opt_size = b64 ? 240 : 224, sec = OPT + opt_size;
	const char *u16 = "cublas64_11.dll";

	memset(m, 0, sizeof(*m));
	m->len = FILE_LEN;
	m->b64 = b64;
	m->p[0] = 'M';
	m->p[1] = 'Z';
	put(m, 0x3c, 4, 0x40);
	memcpy(m->p + 0x40, "PE\0\0", 4);
	put(m, 0x44, 2, b64 ? 0x8664 : 0x14c); /* Machine */
	put(m, 0x46, 2, 1);		       /* NumberOfSections */
	put(m, 0x54, 2, opt_size);	       /* SizeOfOptionalHeader */
	put(m, 0x56, 2, 0x2022);	       /* DLL, executable */
	put(m, OPT, 2, b64 ? 0x20b : 0x10b);
	if (b64)
		put(m, OPT + 24, 8, 0x180000000ull); /* ImageBase */
	else
		put(m, OPT + 28, 4, 0x10000000u);
	put(m, OPT + 60, 4, 0x200); /* SizeOfHeaders */
	put(m, OPT + (b64 ? 108 : 92), 4, 16);
	m->dirs = OPT + (b64 ? 112 : 96);
	/* the section header */
	memcpy(m->p + sec, ".rdata\0\0", 8);
	put(m, sec + 8, 4, 0x200);    /* VirtualSize */
	put(m, sec + 12, 4, SEC_RVA); /* VirtualAddress */
	put(m, sec + 16, 4, 0x200);   /* SizeOfRawData */
	put(m, sec + 20, 4, SEC_OFF); /* PointerToRawData */
	/* imports: Name at +12 of each 20-byte descriptor */
	put(m, at(0x1000) + 12, 4, 0x1100);
	put(m, at(0x1000) + 16, 4, 0x1190); /* FirstThunk: not read */
	put(m, at(0x1014) + 12, 4, 0x1120);
	put(m, at(0x1014) + 16, 4, 0x1198);
	dir(m, 1, 0x1000, 60);
	/* delay-load: Attributes 1 (RVAs), DllNameRVA at +4 */
	put(m, at(0x1080), 4, 1);
	put(m, at(0x1080) + 4, 4, 0x1140);
	dir(m, 13, 0x1080, 64);
	/* export directory: Name at +12 */
	put(m, at(0x10c0) + 12, 4, 0x1160);
	dir(m, 0, 0x10c0, 40);
	put_str(m, at(0x1100), "cudart64_110.dll");
	put_str(m, at(0x1120), "KERNEL32.dll");
	put_str(m, at(0x1140), "cudnn64_8.dll");
	put_str(m, at(0x1160), "mylib.dll");
	put_str(m, at(0x1170), "nvrtc64_112_0.dll");
	for (size_t i = 0; u16[i]; i++)
		m->p[at(0x11a0) + 2 * i] = (unsigned char)u16[i];
}

/* pe_parse on a heap copy of exactly len bytes (so ASan sees overreads). */
static int parse_copy(const unsigned char *data, size_t len, struct pe_info *p,
		      struct cuenv_err *err)
{
	unsigned char *copy = xmalloc(len ? len : 1);
	int rc;

	memcpy(copy, data, len);
	pe_info_init(p);
	rc = pe_parse(copy, len, "test.dll", p, err);
	free(copy);
	return rc;
}

static void assert_strv(const struct strv *v, const char *const *want, size_t n)
{
	if (v->n != n)
		fail_msg("%zu names, expected %zu", v->n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v->v[i], want[i]);
}

static void test_pe_reads_imports_delay_imports_and_export_name(void **state)
{
	static const char *const imports[] = {"cudart64_110.dll",
					      "KERNEL32.dll"};
	static const char *const delay[] = {"cudnn64_8.dll"};
	static const char *const named[] = {"cudart64_110.dll", "cudnn64_8.dll",
					    "nvrtc64_112_0.dll",
					    "cublas64_11.dll"};

	(void)state;
	for (int b64 = 0; b64 <= 1; b64++) {
		struct pe_img m;
		struct pe_info p;
		struct cuenv_err err = CUENV_ERR_INIT;

		pe_build(&m, b64);
		if (parse_copy(m.p, m.len, &p, &err))
			fail_msg("%s", err.msg.data);
		assert_int_equal(p.bits, b64 ? 64 : 32);
		assert_int_equal(p.machine, b64 ? 0x8664 : 0x14c);
		assert_string_equal(p.name, "mylib.dll");
		assert_strv(&p.imports, imports, 2);
		assert_strv(&p.delay, delay, 1);
		assert_strv(&p.cuda_named, named, 4);
		pe_info_release(&p);
		err_release(&err);
	}
}

static void test_pe_old_delay_descriptors_hold_addresses(void **state)
{
	struct pe_img m;
	struct pe_info p;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	pe_build(&m, 1);
	/* Attributes 0: DllName is a VA, ImageBase + RVA */
	put(&m, at(0x1080), 4, 0);
	put(&m, at(0x1080) + 4, 4, 0x1140);
	assert_int_equal(parse_copy(m.p, m.len, &p, &err), CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "delay-load"));
	pe_info_release(&p);
	pe_build(&m, 0);
	put(&m, at(0x1080), 4, 0);
	put(&m, at(0x1080) + 4, 4, 0x10000000u + 0x1140);
	if (parse_copy(m.p, m.len, &p, &err))
		fail_msg("%s", err.msg.data);
	assert_int_equal(p.delay.n, 1);
	assert_string_equal(p.delay.v[0], "cudnn64_8.dll");
	pe_info_release(&p);
	err_release(&err);
}

static void test_pe_refuses_what_is_not_pe(void **state)
{
	struct pe_info p;
	struct cuenv_err err = CUENV_ERR_INIT;
	const char text[] = "\177ELF cudart64_110.dll";

	(void)state;
	assert_int_equal(
	    parse_copy((const unsigned char *)text, sizeof(text) - 1, &p, &err),
	    CUENV_NO);
	assert_string_equal(err.msg.data, "'test.dll' is not a PE file");
	assert_int_equal(p.imports.n + p.cuda_named.n, 0);
	pe_info_release(&p);
	err_release(&err);
}

/* Every prefix: corrupt (the names sit at the end), never a read past the
 * end, always a message. */
static void test_pe_rejects_every_truncation(void **state)
{
	struct pe_img m;

	(void)state;
	pe_build(&m, 1);
	/* the last name read is the export name, mylib.dll at RVA 0x1160 */
	for (size_t len = 0; len < at(0x1160) + sizeof("mylib.dll"); len++) {
		struct pe_info p;
		struct cuenv_err err = CUENV_ERR_INIT;
		int rc = parse_copy(m.p, len, &p, &err);

		if (len < 2)
			assert_int_equal(rc, CUENV_NO);
		else if (rc != CUENV_E_MANIFEST)
			fail_msg("prefix of %zu bytes: rc %d", len, rc);
		assert_true(err.msg.len > 0);
		pe_info_release(&p);
		err_release(&err);
	}
}

/*
 * A field that starts inside the file and ends past it is not read: the
 * bytes after len are those of the whole image here (not a heap copy's
 * end), so a reader that checked only a field's start would read them
 * and go on to a later check's message.
 */
static void test_pe_field_ending_past_the_end_is_not_read(void **state)
{
	static const struct {
		size_t len;
		const char *msg;
	} cases[] = {
	    /* e_lfanew at 0x3c, 4 bytes */
	    {0x3d, "truncated DOS header"},
	    {0x3f, "truncated DOS header"},
	    /* the signature at 0x40 */
	    {0x42, "no PE signature"},
	    {0x43, "no PE signature"},
	    /* SizeOfOptionalHeader at 0x54, 2 bytes */
	    {0x55, "truncated COFF header"},
	    /* NumberOfRvaAndSizes at OPT + 108, 4 bytes (PE32+) */
	    {OPT + 109, "truncated optional header"},
	    {OPT + 111, "truncated optional header"},
	};
	struct pe_img m;

	(void)state;
	pe_build(&m, 1);
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct pe_info p;
		struct cuenv_err err = CUENV_ERR_INIT;

		pe_info_init(&p);
		if (pe_parse(m.p, cases[i].len, "test.dll", &p, &err) !=
		    CUENV_E_MANIFEST)
			fail_msg("%zu bytes: not refused", cases[i].len);
		if (!strstr(err.msg.data, cases[i].msg))
			fail_msg("%zu bytes: '%s' lacks '%s'", cases[i].len,
				 err.msg.data, cases[i].msg);
		pe_info_release(&p);
		err_release(&err);
	}
}

/* Hostile headers: each a one-line error naming what is wrong. */
static void test_pe_rejects_hostile_headers(void **state)
{
	static const struct {
		size_t off;
		unsigned width;
		uint64_t v;
		const char *msg;
	} cases[] = {
	    {0x3c, 4, 0xfffffff0u, "no PE signature"},
	    {0x3c, 4, 0x3fe, "no PE signature"},
	    {0x40, 1, 'X', "no PE signature"},
	    {0x46, 2, 0xffff, "too many sections"},
	    {0x54, 2, 0, "overrun the optional header"},
	    {0x54, 2, 0xfff0, "truncated section table"},
	    {OPT, 2, 0x107, "optional header magic"},
	    /* the import directory outside every section */
	    {OPT + 112 + 8, 4, 0x9000, "import directory is outside"},
	    {OPT + 112 + 8, 4, 0x11f0, "import directory does not end"},
	    /* a name outside the file, or not a name */
	    {SEC_OFF + 12, 4, 0x7fffffff, "imported DLL name"},
	    {SEC_OFF + 0x100, 1, '\n', "imported DLL name"},
	    /* the section's raw data beyond the file */
	    {OPT + 240 + 20, 4, 0xfffffe00u, "import directory is outside"},
	    {OPT + 112 + 13 * 8, 4, 0x12345, "delay-load directory"},
	    {OPT + 112, 4, 0x5000, "export directory"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct pe_img m;
		struct pe_info p;
		struct cuenv_err err = CUENV_ERR_INIT;

		pe_build(&m, 1);
		put(&m, cases[i].off, cases[i].width, cases[i].v);
		if (parse_copy(m.p, m.len, &p, &err) != CUENV_E_MANIFEST)
			fail_msg("case %zu: not refused", i);
		if (!strstr(err.msg.data, cases[i].msg) ||
		    !strstr(err.msg.data, "corrupt PE file 'test.dll'"))
			fail_msg("case %zu: '%s' lacks '%s'", i, err.msg.data,
				 cases[i].msg);
		assert_null(strchr(err.msg.data, '\n'));
		pe_info_release(&p);
		err_release(&err);
	}
}

/* A name that never ends: all of the section after it is letters. */
static void test_pe_rejects_a_name_that_does_not_end(void **state)
{
	struct pe_img m;
	struct pe_info p;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	pe_build(&m, 1);
	memset(m.p + at(0x1100), 'a', FILE_LEN - at(0x1100));
	assert_int_equal(parse_copy(m.p, m.len, &p, &err), CUENV_E_MANIFEST);
	assert_non_null(strstr(err.msg.data, "imported DLL name"));
	pe_info_release(&p);
	/* descriptors that never stop: a whole section of non-zero words */
	pe_build(&m, 1);
	memset(m.p + SEC_OFF, 0x11, 0x200);
	assert_int_equal(parse_copy(m.p, m.len, &p, &err), CUENV_E_MANIFEST);
	pe_info_release(&p);
	err_release(&err);
}

static void test_pe_scan_finds_names_that_stand_alone(void **state)
{
	const char data[] =
	    "load xcudart64_110.dll, cudart64_110.dlls, "
	    "cudart64_999.dll, kernel32.dll, cupti64_2022.3.0.dll "
	    "then CUDNN64_8.DLL and cudnn_ops_infer64_8.dll";
	struct strv v = STRV_INIT;

	(void)state;
	pe_scan_cuda_dlls(data, sizeof(data) - 1, &v);
	assert_int_equal(v.n, 2);
	assert_string_equal(v.v[0], "CUDNN64_8.DLL");
	assert_string_equal(v.v[1], "cudnn_ops_infer64_8.dll");
	strv_release(&v);
}

/* The DLL names NVIDIA ships (from the win_amd64 wheels and redist
 * archives), and the Linux sonames of the same releases. */
static void test_pe_dll_names_map_to_sonames(void **state)
{
	static const char *const map[][2] = {
	    {"cudart64_110.dll", "libcudart.so.11.0"},
	    {"cudart64_12.dll", "libcudart.so.12"},
	    {"CUDART64_13.DLL", "libcudart.so.13"},
	    {"cublas64_11.dll", "libcublas.so.11"},
	    {"cublasLt64_12.dll", "libcublasLt.so.12"},
	    {"nvrtc64_112_0.dll", "libnvrtc.so.11.2"},
	    {"nvrtc64_120_0.dll", "libnvrtc.so.12"},
	    {"cufft64_10.dll", "libcufft.so.10"},
	    {"cudnn64_8.dll", "libcudnn.so.8"},
	    {"cudnn64_9.dll", "libcudnn.so.9"},
	    {"cudnn_ops_infer64_8.dll", "libcudnn_ops_infer.so.8"},
	    {"cudnn_graph64_9.dll", "libcudnn_graph.so.9"},
	};
	static const char *const none[] = {
	    "kernel32.dll",	  "cupti64_2022.3.0.dll", "cudart64_999.dll",
	    "cudart64_.dll",	  "cudnn_64_9.dll",	  "cudnn_ops64_.dll",
	    "cudnn_ops64_09.dll", "cudart64_110.so",
	};
	struct buf b = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(map) / sizeof(*map); i++) {
		if (!nvlib_dll_soname(map[i][0], &b))
			fail_msg("%s: no soname", map[i][0]);
		assert_string_equal(b.data, map[i][1]);
	}
	for (size_t i = 0; i < sizeof(none) / sizeof(*none); i++)
		if (nvlib_dll_soname(none[i], &b))
			fail_msg("%s: '%s', expected none", none[i], b.data);
	buf_release(&b);
}

/* needs: imported DLLs are required, string-only ones may be loaded. */
static void test_pe_feeds_needs(void **state)
{
	struct pe_img m;
	struct pe_info p;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	pe_build(&m, 1);
	if (parse_copy(m.p, m.len, &p, &err))
		fail_msg("%s", err.msg.data);
	needs_scan_init(&s);
	needs_scan_add_pe(&s, "x.dll", &p);
	needs_scan_finish(&s);
	assert_int_equal(s.files, 1);
	assert_int_equal(s.n, 4);
	for (size_t i = 0; i < s.n; i++) {
		const struct needs_want *w = &s.v[i];

		assert_non_null(w->dll);
		if (!strcmp(w->dll, "cudart64_110.dll")) {
			assert_string_equal(w->soname, "libcudart.so.11.0");
			assert_true(needs_want_required(w));
			assert_int_equal(w->named_by.n, 0);
		} else if (!strcmp(w->dll, "cudnn64_8.dll")) {
			assert_string_equal(w->soname, "libcudnn.so.8");
			assert_true(needs_want_required(w));
		} else if (!strcmp(w->dll, "nvrtc64_112_0.dll") ||
			   !strcmp(w->dll, "cublas64_11.dll")) {
			assert_false(needs_want_required(w));
			assert_int_equal(w->named_by.n, 1);
		} else {
			fail_msg("unexpected %s", w->dll);
		}
	}
	needs_scan_release(&s);
	pe_info_release(&p);
	err_release(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(
		test_pe_reads_imports_delay_imports_and_export_name),
	    cmocka_unit_test(test_pe_old_delay_descriptors_hold_addresses),
	    cmocka_unit_test(test_pe_refuses_what_is_not_pe),
	    cmocka_unit_test(test_pe_rejects_every_truncation),
	    cmocka_unit_test(test_pe_field_ending_past_the_end_is_not_read),
	    cmocka_unit_test(test_pe_rejects_hostile_headers),
	    cmocka_unit_test(test_pe_rejects_a_name_that_does_not_end),
	    cmocka_unit_test(test_pe_scan_finds_names_that_stand_alone),
	    cmocka_unit_test(test_pe_dll_names_map_to_sonames),
	    cmocka_unit_test(test_pe_feeds_needs),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
