#include "fakes/fixture.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "artifact/elf.h"
#include "base/xalloc.h"

/* ---- synthetic ELF images ------------------------------------------------ */

/*
 * A shared object written byte by byte from the ELF specification's
 * offsets (not from <elf.h>, so that a mistake in the reader cannot be
 * repeated here): one PT_LOAD segment mapping the whole file at 0x400000,
 * a PT_DYNAMIC with three DT_NEEDED, a DT_SONAME, DT_STRTAB and DT_STRSZ,
 * the string table, and read-only data naming libcupti.so.11.2 (as a
 * dlopen would) and the file's own soname. With sections, there are no
 * program headers, and the dynamic section is found through SHT_DYNAMIC
 * and its linked SHT_STRTAB.
 */
struct synth {
	unsigned char *p;
	size_t len;
	int b64, be;
	size_t ehsize, phentsize, dynent;
	size_t ph_off;	/* PT_LOAD, then PT_DYNAMIC */
	size_t dyn_off; /* NEEDED x3, SONAME, STRTAB, STRSZ, NULL */
	size_t str_off, str_len;
};

#define BASE 0x400000u
static const char dynstr[] = "\0libcudart.so.11.0\0libcudnn.so.8\0libc.so.6"
			     "\0libfake.so.1";
static const char rodata[] = "cannot load libcupti.so.11.2: %s\0libfake.so.1";

static void put(struct synth *s, size_t off, unsigned width, uint64_t v)
{
	assert_true(off + width <= s->len);
	for (unsigned i = 0; i < width; i++) {
		unsigned shift = 8 * (s->be ? width - 1 - i : i);

		s->p[off + i] = (unsigned char)(v >> shift);
	}
}

/* A word: 8 bytes in a 64-bit file, 4 in a 32-bit one. */
static void put_word(struct synth *s, size_t off, uint64_t v)
{
	put(s, off, s->b64 ? 8 : 4, v);
}

static void put_dyn(struct synth *s, size_t i, uint64_t tag, uint64_t val)
{
	size_t e = s->dyn_off + i * s->dynent;

	put_word(s, e, tag);
	put_word(s, e + (s->b64 ? 8 : 4), val);
}

static void synth_build(struct synth *s, int b64, int be, int sections)
{
	size_t ndyn = 7, sh_off = 0, shentsize = b64 ? 64 : 40;

	memset(s, 0, sizeof(*s));
	s->b64 = b64;
	s->be = be;
	s->ehsize = b64 ? 64 : 52;
	s->phentsize = b64 ? 56 : 32;
	s->dynent = b64 ? 16 : 8;
	s->ph_off = s->ehsize;
	s->dyn_off = s->ph_off + (sections ? 0 : 2 * s->phentsize);
	s->str_off = s->dyn_off + ndyn * s->dynent;
	s->str_len = sizeof(dynstr);
	s->len = s->str_off + s->str_len + sizeof(rodata);
	if (sections) {
		sh_off = (s->len + 7) & ~(size_t)7;
		s->len = sh_off + 3 * shentsize;
	}
	s->p = xcalloc(1, s->len);
	memcpy(s->p, "\177ELF", 4);
	s->p[4] = b64 ? 2 : 1; /* EI_CLASS */
	s->p[5] = be ? 2 : 1;  /* EI_DATA */
	s->p[6] = 1;	       /* EI_VERSION */
	put(s, 16, 2, 3);      /* e_type: ET_DYN */
	put(s, 18, 2, b64 ? 62 : 3);
	put(s, 20, 4, 1);
	if (b64) {
		put(s, 32, 8, sections ? 0 : s->ph_off); /* e_phoff */
		put(s, 40, 8, sh_off);			 /* e_shoff */
		put(s, 52, 2, s->ehsize);
		put(s, 54, 2, s->phentsize);
		put(s, 56, 2, sections ? 0 : 2); /* e_phnum */
		put(s, 58, 2, shentsize);
		put(s, 60, 2, sections ? 3 : 0); /* e_shnum */
	} else {
		put(s, 28, 4, sections ? 0 : s->ph_off);
		put(s, 32, 4, sh_off);
		put(s, 40, 2, s->ehsize);
		put(s, 42, 2, s->phentsize);
		put(s, 44, 2, sections ? 0 : 2);
		put(s, 46, 2, shentsize);
		put(s, 48, 2, sections ? 3 : 0);
	}
	if (!sections) {
		for (int i = 0; i < 2; i++) {
			size_t ph = s->ph_off + (size_t)i * s->phentsize;
			uint64_t type = i ? 2 : 1; /* PT_DYNAMIC : PT_LOAD */
			uint64_t off = i ? s->dyn_off : 0;
			uint64_t size = i ? ndyn * s->dynent : s->len;

			put(s, ph, 4, type);
			if (b64) {
				/* p_flags, p_offset, p_vaddr, p_paddr,
				 * p_filesz, p_memsz */
				put(s, ph + 4, 4, 4);
				put(s, ph + 8, 8, off);
				put(s, ph + 16, 8, BASE + off);
				put(s, ph + 24, 8, BASE + off);
				put(s, ph + 32, 8, size);
				put(s, ph + 40, 8, size);
			} else {
				put(s, ph + 4, 4, off);
				put(s, ph + 8, 4, BASE + off);
				put(s, ph + 12, 4, BASE + off);
				put(s, ph + 16, 4, size);
				put(s, ph + 20, 4, size);
				put(s, ph + 24, 4, 4);
			}
		}
	}
	put_dyn(s, 0, 1, 1);		     /* DT_NEEDED libcudart */
	put_dyn(s, 1, 1, 19);		     /* DT_NEEDED libcudnn */
	put_dyn(s, 2, 1, 33);		     /* DT_NEEDED libc */
	put_dyn(s, 3, 14, 43);		     /* DT_SONAME */
	put_dyn(s, 4, 5, BASE + s->str_off); /* DT_STRTAB */
	put_dyn(s, 5, 10, s->str_len);	     /* DT_STRSZ */
	put_dyn(s, 6, 0, 0);		     /* DT_NULL */
	memcpy(s->p + s->str_off, dynstr, sizeof(dynstr));
	memcpy(s->p + s->str_off + s->str_len, rodata, sizeof(rodata));
	if (sections) {
		size_t d = sh_off + shentsize, t = d + shentsize;

		/* [1] SHT_DYNAMIC linked to [2], [2] SHT_STRTAB */
		put(s, d + 4, 4, 6);
		put(s, t + 4, 4, 3);
		if (b64) {
			put(s, d + 24, 8, s->dyn_off);
			put(s, d + 32, 8, ndyn * s->dynent);
			put(s, d + 40, 4, 2);
			put(s, t + 24, 8, s->str_off);
			put(s, t + 32, 8, s->str_len);
		} else {
			put(s, d + 16, 4, s->dyn_off);
			put(s, d + 20, 4, ndyn * s->dynent);
			put(s, d + 24, 4, 2);
			put(s, t + 16, 4, s->str_off);
			put(s, t + 20, 4, s->str_len);
		}
	}
}

/* Parse exactly len bytes of data from a heap copy of that size, so that
 * ASan sees any read past the end. */
static int parse_copy(const unsigned char *data, size_t len, struct elf_info *e,
		      struct cuenv_err *err)
{
	unsigned char *copy = xmalloc(len ? len : 1);
	int rc;

	memcpy(copy, data, len);
	elf_info_init(e);
	rc = elf_parse(copy, len, "test.so", e, err);
	free(copy);
	return rc;
}

static void assert_strv(const struct strv *v, const char *const *want, size_t n)
{
	assert_int_equal(v->n, n);
	for (size_t i = 0; i < n; i++)
		assert_string_equal(v->v[i], want[i]);
}

static void assert_synth_read(const struct synth *s, const struct elf_info *e)
{
	static const char *const needed[] = {"libcudart.so.11.0",
					     "libcudnn.so.8", "libc.so.6"};
	static const char *const named[] = {
	    "libcudart.so.11.0", "libcudnn.so.8", "libcupti.so.11.2"};

	assert_int_equal(e->bits, s->b64 ? 64 : 32);
	assert_int_equal(e->big_endian, s->be);
	assert_non_null(e->soname);
	assert_string_equal(e->soname, "libfake.so.1");
	assert_strv(&e->needed, needed, 3);
	assert_strv(&e->cuda_named, named, 3);
}

/* ---- reading ------------------------------------------------------------- */

static void test_elf_reads_every_class_and_byte_order(void **state)
{
	(void)state;
	for (int b64 = 0; b64 < 2; b64++) {
		for (int be = 0; be < 2; be++) {
			struct synth s;
			struct elf_info e;
			struct cuenv_err err = CUENV_ERR_INIT;

			synth_build(&s, b64, be, 0);
			if (parse_copy(s.p, s.len, &e, &err))
				fail_msg("%d-bit %s: %s", b64 ? 64 : 32,
					 be ? "big-endian" : "little-endian",
					 err.msg.data);
			assert_synth_read(&s, &e);
			elf_info_release(&e);
			err_release(&err);
			free(s.p);
		}
	}
}

static void test_elf_reads_the_dynamic_section_from_sections(void **state)
{
	(void)state;
	for (int b64 = 0; b64 < 2; b64++) {
		for (int be = 0; be < 2; be++) {
			struct synth s;
			struct elf_info e;
			struct cuenv_err err = CUENV_ERR_INIT;

			synth_build(&s, b64, be, 1);
			if (parse_copy(s.p, s.len, &e, &err))
				fail_msg("%s", err.msg.data);
			assert_synth_read(&s, &e);
			elf_info_release(&e);
			err_release(&err);
			free(s.p);
		}
	}
}

static void test_elf_refuses_what_is_not_elf(void **state)
{
	struct elf_info e;
	struct cuenv_err err = CUENV_ERR_INIT;
	const char text[] = "#!/bin/sh\necho libcudart.so.12\n";

	(void)state;
	assert_int_equal(
	    parse_copy((const unsigned char *)text, sizeof(text) - 1, &e, &err),
	    CUENV_NO);
	assert_string_equal(err.msg.data, "'test.so' is not an ELF file");
	assert_int_equal(e.needed.n, 0);
	elf_info_release(&e);
	err_release(&err);
}

/* Every prefix of a file: not ELF below the magic, then corrupt, never a
 * read past the end. */
static void test_elf_rejects_every_truncation(void **state)
{
	(void)state;
	for (int b64 = 0; b64 < 2; b64++) {
		struct synth s;

		synth_build(&s, b64, b64, 0);
		for (size_t n = 0; n < s.len; n++) {
			struct elf_info e;
			struct cuenv_err err = CUENV_ERR_INIT;
			int rc = parse_copy(s.p, n, &e, &err);

			if (rc != (n < 4 ? CUENV_NO : CUENV_E_MANIFEST))
				fail_msg("%zu of %zu bytes: rc %d (%s)", n,
					 s.len, rc, err.msg.data);
			if (n >= 4 && !strstr(err.msg.data, "corrupt ELF file "
							    "'test.so': "))
				fail_msg("message: %s", err.msg.data);
			elf_info_release(&e);
			err_release(&err);
		}
		free(s.p);
	}
}

/* ---- read as a stream ----------------------------------------------------- */

/* Feed len bytes of data in pieces of chunk bytes, then finish. */
static int stream_copy(const unsigned char *data, size_t len, size_t chunk,
		       struct elf_info *e, struct cuenv_err *err)
{
	struct elf_stream *st = elf_stream_new("test.so");
	int rc = CUENV_OK;

	elf_info_init(e);
	for (size_t at = 0; !rc && at < len; at += chunk) {
		size_t n = len - at < chunk ? len - at : chunk;
		unsigned char *copy = xmalloc(n);

		memcpy(copy, data + at, n);
		rc = elf_stream_feed(st, copy, n, err);
		free(copy);
	}
	if (!rc)
		rc = elf_stream_finish(st, e, err);
	elf_stream_free(st);
	return rc;
}

/*
 * Whatever the pieces (one byte at a time to the whole), the stream finds
 * what elf_parse finds of CUDA: the CUDA DT_NEEDED entries, and the names
 * in the bytes, a name cut between two pieces included.
 */
static void test_elf_stream_reads_any_chunks(void **state)
{
	static const char *const needed[] = {"libcudart.so.11.0",
					     "libcudnn.so.8"};
	static const char *const named[] = {
	    "libcudart.so.11.0", "libcudnn.so.8", "libcupti.so.11.2"};
	static const size_t chunks[] = {1, 2, 3, 7, 64, 129, 1000, 1 << 20};

	(void)state;
	for (int b64 = 0; b64 < 2; b64++) {
		for (int be = 0; be < 2; be++) {
			struct synth s;

			synth_build(&s, b64, be, 0);
			for (size_t k = 0; k < sizeof(chunks) / sizeof(*chunks);
			     k++) {
				struct elf_info e;
				struct cuenv_err err = CUENV_ERR_INIT;

				if (stream_copy(s.p, s.len, chunks[k], &e,
						&err))
					fail_msg("%d-bit, chunks of %zu: %s",
						 b64 ? 64 : 32, chunks[k],
						 err.msg.data);
				assert_int_equal(e.bits, b64 ? 64 : 32);
				assert_int_equal(e.big_endian, be);
				assert_null(e.soname); /* not CUDA's */
				assert_strv(&e.needed, needed, 2);
				assert_strv(&e.cuda_named, named, 3);
				elf_info_release(&e);
				err_release(&err);
			}
			free(s.p);
		}
	}
}

/* Every truncation is an error of the file, as for elf_parse, never a
 * read past what was fed. */
static void test_elf_stream_rejects_every_truncation(void **state)
{
	(void)state;
	for (int b64 = 0; b64 < 2; b64++) {
		struct synth s;

		synth_build(&s, b64, b64, 0);
		for (size_t n = 0; n < s.len; n++) {
			struct elf_info e;
			struct cuenv_err err = CUENV_ERR_INIT;
			int rc = stream_copy(s.p, n, 5, &e, &err);

			if (rc != (n < 4 ? CUENV_NO : CUENV_E_MANIFEST))
				fail_msg("%zu of %zu bytes: rc %d (%s)", n,
					 s.len, rc, err.msg.data);
			elf_info_release(&e);
			err_release(&err);
		}
		free(s.p);
	}
}

/*
 * A library bundled by auditwheel keeps its version in its renamed
 * soname (libcudnn-74a4c495.so.9.1.0): the stream gives it as the soname,
 * and the names without a version it completes at run time as stems.
 */
static void test_elf_stream_reads_a_bundled_copy(void **state)
{
	static const char str[] =
	    "\0libcudnn-74a4c495.so.9.1.0\0libcudnn_ops.so"
	    "\0libcudnn_cnn.so\0libcudnn.so.9\0";
	struct synth s;
	struct elf_info e;
	struct cuenv_err err = CUENV_ERR_INIT;
	unsigned char *p;

	(void)state;
	synth_build(&s, 1, 0, 0);
	/* the same file, its strings and rodata replaced by ours */
	p = xcalloc(1, s.len + sizeof(str));
	memcpy(p, s.p, s.len);
	memcpy(p + s.str_off, str, sizeof(str));
	/* DT_SONAME at index 1 of the string table; no DT_NEEDED of CUDA */
	for (size_t i = 0; i < 3; i++)
		put_dyn(&(struct synth){.p = p,
					.len = s.len,
					.b64 = 1,
					.dynent = s.dynent,
					.dyn_off = s.dyn_off},
			i, 1 /* DT_NEEDED */, sizeof(str) - 1);
	put_dyn(&(struct synth){.p = p,
				.len = s.len,
				.b64 = 1,
				.dynent = s.dynent,
				.dyn_off = s.dyn_off},
		3, 14 /* DT_SONAME */, 1);
	put_dyn(&(struct synth){.p = p,
				.len = s.len,
				.b64 = 1,
				.dynent = s.dynent,
				.dyn_off = s.dyn_off},
		5, 10 /* DT_STRSZ */, sizeof(str));
	if (stream_copy(p, s.len + sizeof(str), 3, &e, &err))
		fail_msg("%s", err.msg.data);
	assert_non_null(e.soname);
	assert_string_equal(e.soname, "libcudnn-74a4c495.so.9.1.0");
	assert_int_equal(e.cuda_stems.n, 2);
	assert_string_equal(e.cuda_stems.v[0], "libcudnn_ops.so");
	assert_string_equal(e.cuda_stems.v[1], "libcudnn_cnn.so");
	elf_info_release(&e);
	err_release(&err);
	free(p);
	free(s.p);
}

struct corruption {
	const char *what;
	void (*apply)(struct synth *s);
	const char *error;
};

static void bad_class(struct synth *s)
{
	s->p[4] = 7;
}
static void bad_order(struct synth *s)
{
	s->p[5] = 0;
}
static void phoff_past_end(struct synth *s)
{
	put(s, 32, 8, s->len - 10);
}
static void phnum_huge(struct synth *s)
{
	put(s, 56, 2, 0xfff0);
}
static void phnum_xnum_without_sections(struct synth *s)
{
	put(s, 56, 2, 0xffff);
}
static void phentsize_small(struct synth *s)
{
	put(s, 54, 2, 8);
}
static void shentsize_small(struct synth *s)
{
	put(s, 40, 8, 64);
	put(s, 58, 2, 4);
}
static void shoff_past_end(struct synth *s)
{
	put(s, 40, 8, UINT64_MAX - 8);
	put(s, 60, 2, 2);
}
static void dynamic_past_end(struct synth *s)
{
	put(s, s->ph_off + s->phentsize + 32, 8, s->len * 2);
}
static void dynamic_offset_huge(struct synth *s)
{
	put(s, s->ph_off + s->phentsize + 8, 8, UINT64_MAX - 4);
}
static void strtab_unmapped(struct synth *s)
{
	put_dyn(s, 4, 5, 0x10);
}
static void strtab_wraps(struct synth *s)
{
	put_dyn(s, 4, 5, UINT64_MAX);
}
static void strsz_huge(struct synth *s)
{
	put_dyn(s, 5, 10, UINT64_MAX);
}
static void needed_outside(struct synth *s)
{
	put_dyn(s, 1, 1, s->str_len + 5);
}
static void needed_unterminated(struct synth *s)
{
	put_dyn(s, 5, 10, 5);
}
static void needed_without_strtab(struct synth *s)
{
	put_dyn(s, 4, 10, s->str_len); /* DT_STRTAB becomes a DT_STRSZ */
}
static void load_past_end(struct synth *s)
{
	put(s, s->ph_off + 32, 8, s->len + 1);
}

static void test_elf_rejects_corrupt_headers(void **state)
{
	static const struct corruption cases[] = {
	    {"class", bad_class, "unknown class"},
	    {"byte order", bad_order, "unknown byte order"},
	    {"e_phoff", phoff_past_end, "program headers past the end"},
	    {"e_phnum", phnum_huge, "program headers past the end"},
	    {"PN_XNUM", phnum_xnum_without_sections,
	     "program header count out of range"},
	    {"e_phentsize", phentsize_small,
	     "program header entries too small"},
	    {"e_shentsize", shentsize_small,
	     "section header entries too small"},
	    {"e_shoff", shoff_past_end, "section headers past the end"},
	    {"PT_DYNAMIC size", dynamic_past_end,
	     "dynamic segment past the end"},
	    {"PT_DYNAMIC offset", dynamic_offset_huge,
	     "dynamic segment past the end"},
	    {"DT_STRTAB", strtab_unmapped, "DT_STRTAB is in no loaded"},
	    {"DT_STRTAB wraps", strtab_wraps, "DT_STRTAB is in no loaded"},
	    {"DT_STRSZ", strsz_huge, "DT_STRSZ runs past its segment"},
	    {"DT_NEEDED index", needed_outside,
	     "name outside the string table"},
	    {"DT_NEEDED unterminated", needed_unterminated,
	     "unterminated name"},
	    {"no DT_STRTAB", needed_without_strtab, "without a string table"},
	    {"PT_LOAD size", load_past_end, "DT_STRTAB is in no loaded"},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		struct synth s;
		struct elf_info e;
		struct cuenv_err err = CUENV_ERR_INIT;
		int rc;

		synth_build(&s, 1, 0, 0);
		cases[i].apply(&s);
		rc = parse_copy(s.p, s.len, &e, &err);
		if (rc != CUENV_E_MANIFEST ||
		    !strstr(err.msg.data, cases[i].error))
			fail_msg("%s: rc %d, '%s' (wanted '%s')", cases[i].what,
				 rc, err.msg.data, cases[i].error);
		elf_info_release(&e);
		err_release(&err);
		free(s.p);
	}
}

/* ---- files --------------------------------------------------------------- */

static void test_elf_read_file_errors(void **state)
{
	struct fixture *fx = *state;
	struct elf_info e;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *missing = fx_path(fx, "missing.so"), *dir = fx_path(fx, "d"),
	     *empty = fx_path(fx, "empty.so");

	fx_mkdir(fx, "d");
	fx_touch(fx, "empty.so");
	elf_info_init(&e);
	assert_int_equal(elf_read_file(missing, &e, &err), CUENV_E_STORE);
	assert_non_null(strstr(err.msg.data, "cannot open"));
	assert_int_equal(elf_read_file(dir, &e, &err), CUENV_NO);
	assert_int_equal(elf_read_file(empty, &e, &err), CUENV_NO);
	assert_int_equal(e.needed.n, 0);
	elf_info_release(&e);
	err_release(&err);
	free(missing);
	free(dir);
	free(empty);
}

static void test_elf_reads_a_library_built_by_cc(void **state)
{
	struct fixture *fx = *state;
	struct elf_info e;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path;
	static const char *const needed[] = {"libcudart.so.11.0",
					     "libcudnn.so.8"};
	static const char *const named[] = {"libcudart.so.11.0",
					    "libcudnn.so.8", "libcupti.so.11.2",
					    "libnvrtc.so.11.2"};

	if (!fx_have_program("cc"))
		skip();
	fx_mkdir(fx, "libs");
	if (fx_cc_shared(fx, "libs/libcudart.so.11.0", "libcudart.so.11.0",
			 "int cudart_stub(void) { return 1; }\n", "libs", "") ||
	    fx_cc_shared(fx, "libs/libcudnn.so.8", "libcudnn.so.8",
			 "int cudnn_stub(void) { return 1; }\n", "libs", "") ||
	    fx_cc_shared(fx, "libframework.so", "libframework.so.2",
			 "const char *cupti_name(void)\n"
			 "{ return \"libcupti.so.11.2\"; }\n"
			 "const char nvrtc[] = \"libnvrtc.so.11.2\";\n"
			 "const char own[] = \"libframework.so.2\";\n"
			 "const char fmt[] = \"libcufft.so.%d\";\n",
			 "libs", "libcudart.so.11.0 libcudnn.so.8"))
		fail_msg("cc could not build the test libraries");
	path = fx_path(fx, "libframework.so");
	elf_info_init(&e);
	if (elf_read_file(path, &e, &err))
		fail_msg("%s", err.msg.data);
	assert_int_equal(e.bits, 8 * sizeof(void *));
	assert_string_equal(e.soname, "libframework.so.2");
	/* the libc and other entries cc adds come after ours */
	assert_true(e.needed.n >= 2);
	assert_int_equal(strv_find(&e.needed, needed[0]) >= 0, 1);
	assert_int_equal(strv_find(&e.needed, needed[1]) >= 0, 1);
	assert_int_equal(e.cuda_named.n, 4);
	for (size_t i = 0; i < 4; i++)
		if (strv_find(&e.cuda_named, named[i]) < 0)
			fail_msg("%s was not found in its bytes", named[i]);
	elf_info_release(&e);

	/* every truncation of a real file: never a crash */
	{
		size_t len;
		FILE *f = fopen(path, "rb");
		unsigned char *all;

		assert_non_null(f);
		fseek(f, 0, SEEK_END);
		len = (size_t)ftell(f);
		rewind(f);
		all = xmalloc(len);
		assert_int_equal(fread(all, 1, len, f), len);
		fclose(f);
		for (size_t n = 0; n < len; n += n < 4096 ? 1 : 61) {
			int rc = parse_copy(all, n, &e, &err);

			if (rc != CUENV_OK && rc != CUENV_NO &&
			    rc != CUENV_E_MANIFEST)
				fail_msg("%zu bytes: rc %d", n, rc);
			elf_info_release(&e);
		}
		free(all);
	}
	err_release(&err);
	free(path);
}

/*
 * The other classes and byte orders from a real linker, where clang and
 * ld.lld can build them: i386 (32-bit), ppc64 (big-endian), ppc (both).
 */
static void test_elf_reads_clang_cross_builds(void **state)
{
	struct fixture *fx = *state;
	static const struct {
		const char *target;
		unsigned bits;
		bool be;
	} targets[] = {
	    {"i386-linux-gnu", 32, false},
	    {"powerpc64-linux-gnu", 64, true},
	    {"powerpc-linux-gnu", 32, true},
	};
	char *src;
	size_t built = 0;

	if (!fx_have_program("clang") || !fx_have_program("ld.lld"))
		skip();
	fx_write(fx, "x.c",
		 "const char *name(void)\n"
		 "{ return \"libcupti.so.11.2\"; }\n");
	src = fx_path(fx, "x.c");
	for (size_t i = 0; i < sizeof(targets) / sizeof(*targets); i++) {
		struct buf t = BUF_INIT, stub = BUF_INIT, lib = BUF_INIT,
			   got = BUF_INIT, l = BUF_INIT;
		struct elf_info e;
		struct cuenv_err err = CUENV_ERR_INIT;
		char *dir = fx_path(fx, "");

		buf_printf(&t, "--target=%s", targets[i].target);
		buf_printf(&stub, "%s/stub-%zu.so", dir, i);
		buf_printf(&lib, "%s/lib-%zu.so", dir, i);
		buf_printf(&l, "-Wl,%s", stub.data);
		{
			char *a[] = {"clang",
				     t.data,
				     "-fuse-ld=lld",
				     "-nostdlib",
				     "-shared",
				     "-o",
				     stub.data,
				     "-Wl,-soname,libcudart.so.11.0",
				     src,
				     NULL};
			char *b[] = {"clang",
				     t.data,
				     "-fuse-ld=lld",
				     "-nostdlib",
				     "-shared",
				     "-o",
				     lib.data,
				     "-Wl,-soname,libx.so.1",
				     src,
				     l.data,
				     NULL};

			if (fx_run(a, &got) || fx_run(b, &got)) {
				/* no cross support in this clang */
				buf_release(&t);
				buf_release(&stub);
				buf_release(&lib);
				buf_release(&got);
				buf_release(&l);
				free(dir);
				continue;
			}
		}
		built++;
		elf_info_init(&e);
		if (elf_read_file(lib.data, &e, &err))
			fail_msg("%s: %s", targets[i].target, err.msg.data);
		assert_int_equal(e.bits, targets[i].bits);
		assert_int_equal(e.big_endian, targets[i].be);
		assert_string_equal(e.soname, "libx.so.1");
		assert_int_equal(e.needed.n, 1);
		assert_string_equal(e.needed.v[0], "libcudart.so.11.0");
		assert_true(strv_find(&e.cuda_named, "libcupti.so.11.2") >= 0);
		elf_info_release(&e);
		err_release(&err);
		buf_release(&t);
		buf_release(&stub);
		buf_release(&lib);
		buf_release(&got);
		buf_release(&l);
		free(dir);
	}
	free(src);
	if (!built)
		skip(); /* this clang builds for none of them */
}

/* ---- names in the bytes -------------------------------------------------- */

static void test_elf_scan_finds_names_that_stand_alone(void **state)
{
	static const char bytes[] = "libcufft.so.11\0"
				    "/usr/lib/libcupti.so.11.2\0"
				    "xlibcudart.so.11\0"
				    "libcudart.so.12a\0"
				    "libnvrtc.so.%s\0"
				    "libcudnn_ops.so.9\0"
				    "libcublasLt.so.12.\0"
				    "libcufft.so.11\0"
				    "libnccl.so.2 libcusparse.so.12.1.0.106\0"
				    "libcudart-e409450e.so.11.0\0"
				    "libcudnn_Ops.so.9\0"
				    "libcudart.so.1234567890\0"
				    "libcurand.so.10";
	static const char *const want[] = {
	    "libcufft.so.11",	 "libcupti.so.11.2",
	    "libcudnn_ops.so.9", "libcublasLt.so.12",
	    "libnccl.so.2",	 "libcusparse.so.12.1.0.106",
	    "libcurand.so.10",
	};
	struct strv got = STRV_INIT;

	(void)state;
	/* no NUL after the last name: it ends at the end of the data */
	elf_scan_cuda_sonames(bytes, sizeof(bytes) - 1, &got);
	assert_strv(&got, want, sizeof(want) / sizeof(*want));
	strv_release(&got);
}

static void test_elf_leaves_out_its_own_soname(void **state)
{
	struct synth s;
	struct elf_info e;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	synth_build(&s, 1, 0, 0);
	/* the soname becomes libcudnn.so.8, which its strings name too */
	put_dyn(&s, 3, 14, 19);
	assert_int_equal(parse_copy(s.p, s.len, &e, &err), CUENV_OK);
	assert_string_equal(e.soname, "libcudnn.so.8");
	assert_int_equal(strv_find(&e.cuda_named, "libcudnn.so.8"), -1);
	assert_int_equal(e.cuda_named.n, 2);
	elf_info_release(&e);
	err_release(&err);
	free(s.p);
}

/* The static CUDA runtime's data ("/cudart.shm.") in the bytes: read
 * whole and in any pieces, a marker cut between two included. */
static void test_elf_sees_a_static_runtime(void **state)
{
	static const size_t chunks[] = {1, 5, 64, 1 << 20};
	struct synth s;
	struct elf_info e;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t at;

	(void)state;
	synth_build(&s, 1, 0, 0);
	assert_int_equal(parse_copy(s.p, s.len, &e, &err), CUENV_OK);
	assert_false(e.cudart_static);
	elf_info_release(&e);
	/* "libfake.so.1" of the rodata becomes the runtime's marker */
	at = s.str_off + s.str_len + (sizeof(rodata) - 1 - 12);
	assert_memory_equal(s.p + at, "libfake.so.1", 12);
	memcpy(s.p + at, "/cudart.shm.", 12);
	assert_int_equal(parse_copy(s.p, s.len, &e, &err), CUENV_OK);
	assert_true(e.cudart_static);
	elf_info_release(&e);
	for (size_t k = 0; k < sizeof(chunks) / sizeof(*chunks); k++) {
		assert_int_equal(stream_copy(s.p, s.len, chunks[k], &e, &err),
				 CUENV_OK);
		assert_true(e.cudart_static);
		elf_info_release(&e);
	}
	err_release(&err);
	free(s.p);
}

/* ---- symbol versions ----------------------------------------------------- */

/*
 * A 64-bit little-endian shared object with symbol versions, written
 * from the specification's offsets like synth: a PT_LOAD mapping the
 * file at BASE, a PT_DYNAMIC (DT_STRTAB, DT_STRSZ, DT_SYMTAB, DT_SYMENT,
 * DT_HASH for the symbols' count, DT_VERSYM, DT_VERNEED, DT_VERNEEDNUM),
 * nrec DT_VERNEED records for "libv.so.1", each with a chain of nver
 * vernaux entries: version "V<i>" of index 2 + i % 32766 (an index is 15
 * bits), in one chain all the records share (shared) or one chain each.
 * Then nsym undefined global symbols, "s<k>" of version index
 * 2 + k % 32766.
 */
struct vspec {
	size_t nrec, nver, nsym;
	bool shared;
};

static void vsynth_build(struct synth *s, const struct vspec *v)
{
	size_t nchain = v->shared ? 1 : v->nrec, ndyn = 9;
	size_t dyn = 64 + 2 * 56, hash = dyn + ndyn * 16, sym = hash + 8;
	size_t versym = sym + (v->nsym + 1) * 24;
	size_t need = (versym + (v->nsym + 1) * 2 + 3) & ~(size_t)3;
	size_t aux = need + v->nrec * 16;
	size_t str = aux + nchain * v->nver * 16, at;
	struct buf strs = BUF_INIT;
	size_t *vname = xcalloc(v->nver + 1, sizeof(*vname));

	memset(s, 0, sizeof(*s));
	s->b64 = 1;
	buf_addc(&strs, '\0');
	buf_adds(&strs, "libv.so.1");
	buf_addc(&strs, '\0');
	for (size_t i = 0; i < v->nver; i++) {
		vname[i] = strs.len;
		buf_printf(&strs, "V%zu", i);
		buf_addc(&strs, '\0');
	}
	at = strs.len;
	for (size_t k = 0; k < v->nsym; k++) {
		buf_printf(&strs, "s%zu", k);
		buf_addc(&strs, '\0');
	}
	s->len = str + strs.len;
	s->p = xcalloc(1, s->len);
	memcpy(s->p, "\177ELF\002\001\001", 7);
	put(s, 16, 2, 3);  /* ET_DYN */
	put(s, 18, 2, 62); /* EM_X86_64 */
	put(s, 20, 4, 1);
	put(s, 32, 8, 64); /* e_phoff */
	put(s, 52, 2, 64);
	put(s, 54, 2, 56);
	put(s, 56, 2, 2);
	for (int i = 0; i < 2; i++) {
		size_t ph = 64 + (size_t)i * 56, off = i ? dyn : 0;
		size_t size = i ? ndyn * 16 : s->len;

		put(s, ph, 4, i ? 2 : 1); /* PT_DYNAMIC : PT_LOAD */
		put(s, ph + 4, 4, 4);
		put(s, ph + 8, 8, off);
		put(s, ph + 16, 8, BASE + off);
		put(s, ph + 24, 8, BASE + off);
		put(s, ph + 32, 8, size);
		put(s, ph + 40, 8, size);
	}
	s->dyn_off = dyn;
	s->dynent = 16;
	put_dyn(s, 0, 5, BASE + str);		  /* DT_STRTAB */
	put_dyn(s, 1, 10, strs.len);		  /* DT_STRSZ */
	put_dyn(s, 2, 6, BASE + sym);		  /* DT_SYMTAB */
	put_dyn(s, 3, 11, 24);			  /* DT_SYMENT */
	put_dyn(s, 4, 4, BASE + hash);		  /* DT_HASH */
	put_dyn(s, 5, 0x6ffffff0, BASE + versym); /* DT_VERSYM */
	put_dyn(s, 6, 0x6ffffffe, BASE + need);	  /* DT_VERNEED */
	put_dyn(s, 7, 0x6fffffff, v->nrec);	  /* DT_VERNEEDNUM */
	put_dyn(s, 8, 0, 0);
	put(s, hash + 4, 4, v->nsym + 1); /* nchain: the symbols' count */
	for (size_t k = 0; k < v->nsym; k++) {
		size_t e = sym + (k + 1) * 24;

		put(s, e, 4, at);
		at += strlen((const char *)strs.data + at) + 1;
		put(s, e + 4, 1, 0x12); /* STB_GLOBAL, STT_FUNC; SHN_UNDEF */
		put(s, versym + (k + 1) * 2, 2, 2 + k % 32766);
	}
	for (size_t r = 0; r < v->nrec; r++) {
		size_t rec = need + r * 16;
		size_t chain = aux + (v->shared ? 0 : r) * v->nver * 16;

		put(s, rec, 2, 1);
		put(s, rec + 2, 2, v->nver);
		put(s, rec + 4, 4, 1);
		put(s, rec + 8, 4, chain - rec);
		put(s, rec + 12, 4, r + 1 < v->nrec ? 16 : 0);
	}
	for (size_t c = 0; c < nchain; c++) {
		for (size_t i = 0; i < v->nver; i++) {
			size_t e = aux + (c * v->nver + i) * 16;

			put(s, e + 6, 2, 2 + i % 32766);
			put(s, e + 8, 4, vname[i]);
			put(s, e + 12, 4, i + 1 < v->nver ? 16 : 0);
		}
	}
	memcpy(s->p + str, strs.data, strs.len);
	buf_release(&strs);
	free(vname);
}

static int symvers_copy(const struct synth *s, struct elf_symvers *v,
			struct cuenv_err *err)
{
	unsigned char *copy = xmalloc(s->len);
	int rc;

	memcpy(copy, s->p, s->len);
	elf_symvers_init(v);
	rc = elf_parse_symvers(copy, s->len, "v.so", v, err);
	free(copy);
	return rc;
}

/* Records with chains of their own: every version, every symbol's. */
static void test_elf_symvers_reads_each_record(void **state)
{
	struct vspec spec = {.nrec = 4, .nver = 8, .nsym = 20};
	struct synth s;
	struct elf_symvers v;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	vsynth_build(&s, &spec);
	if (symvers_copy(&s, &v, &err))
		fail_msg("%s", err.msg.data);
	assert_int_equal(v.nrefs, 32);
	assert_string_equal(v.refs[31].file, "libv.so.1");
	assert_string_equal(v.refs[31].version, "V7");
	assert_true(v.symbols_known);
	/* s8 on have indexes 10 on, which no version has: left out */
	assert_int_equal(v.nundef, 8);
	assert_string_equal(v.undef[5].name, "s5");
	assert_string_equal(v.undef[5].version, "V5");
	elf_symvers_release(&v);
	free(s.p);
}

/*
 * DT_VERNEED records that all point at one chain: each record's count
 * and the chain's length are within bounds, their product is not (64
 * records sharing a chain of 65,535 entries took 59 s and 855 MB; 16
 * records sharing 64 entries are 1,024 entries in a file with room for
 * about 170). Refused, naming why, before the product is walked.
 */
static void test_elf_symvers_refuses_records_sharing_a_chain(void **state)
{
	static const struct vspec specs[] = {
	    {.nrec = 64, .nver = 65535, .shared = true},
	    {.nrec = 16, .nver = 64, .shared = true},
	};

	(void)state;
	for (size_t i = 0; i < sizeof(specs) / sizeof(*specs); i++) {
		struct synth s;
		struct elf_symvers v;
		struct cuenv_err err = CUENV_ERR_INIT;

		vsynth_build(&s, &specs[i]);
		assert_int_equal(symvers_copy(&s, &v, &err), CUENV_E_MANIFEST);
		assert_non_null(strstr(err.msg.data,
				       "more symbol versions than the file "
				       "has room for"));
		elf_symvers_release(&v);
		err_release(&err);
		free(s.p);
	}
}

/*
 * 65,536 symbols against a table of 65,535 versions (each index twice,
 * the first kept: 2 + i % 32766): each symbol's version is the first of
 * its index (a linear search per symbol took 53 s).
 */
static void test_elf_symvers_finds_each_symbols_version(void **state)
{
	struct vspec spec = {.nrec = 1, .nver = 65535, .nsym = 65536};
	struct synth s;
	struct elf_symvers v;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf want = BUF_INIT;

	(void)state;
	vsynth_build(&s, &spec);
	if (symvers_copy(&s, &v, &err))
		fail_msg("%s", err.msg.data);
	assert_int_equal(v.nrefs, 65535);
	assert_int_equal(v.nundef, 65536);
	for (size_t k = 0; k < v.nundef; k++) {
		buf_reset(&want);
		buf_printf(&want, "V%zu", k % 32766);
		assert_string_equal(v.undef[k].version, want.data);
		assert_string_equal(v.undef[k].file, "libv.so.1");
	}
	elf_symvers_release(&v);
	buf_release(&want);
	free(s.p);
}

/* ---- CUDA sonames -------------------------------------------------------- */

static void test_elf_cuda_soname_parses_library_and_version(void **state)
{
	enum nvlib_id lib;
	const char *v;

	(void)state;
	assert_true(elf_cuda_soname("libcudart.so.11.0", &lib, &v));
	assert_int_equal(lib, NVLIB_CUDART);
	assert_string_equal(v, "11.0");
	assert_true(elf_cuda_soname("libcublasLt.so.12", &lib, &v));
	assert_int_equal(lib, NVLIB_CUBLASLT);
	assert_true(elf_cuda_soname("libcudnn_cnn_infer.so.8", &lib, &v));
	assert_int_equal(lib, NVLIB_CUDNN);
	assert_string_equal(v, "8");
	assert_true(elf_cuda_soname("libnvJitLink.so.13", &lib, &v));
	assert_int_equal(lib, NVLIB_NVJITLINK);
	assert_string_equal(elf_cuda_lib_name(NVLIB_NVJITLINK), "nvJitLink");
	assert_false(elf_cuda_soname("libcudart.so", &lib, &v));
	assert_false(elf_cuda_soname("libcudart.so.x", &lib, &v));
	assert_false(elf_cuda_soname("libcudart.so.12.", &lib, &v));
	assert_false(elf_cuda_soname("libfoo.so.1", &lib, &v));
	assert_false(elf_cuda_soname("libc.so.6", &lib, &v));
	assert_false(elf_cuda_soname("libcudart.so.12.so.1", &lib, &v));
}

static void test_elf_cuda_soname_version_follows_releases(void **state)
{
	static const struct {
		enum nvlib_id lib;
		const char *cuda, *soname;
	} rows[] = {
	    {NVLIB_CUDART, "9.0.176", "9.0"},
	    {NVLIB_CUDART, "10.2.89", "10.2"},
	    {NVLIB_CUDART, "11.2.2", "11.0"},
	    {NVLIB_CUDART, "11.8", "11.0"},
	    {NVLIB_CUDART, "12.4.1", "12"},
	    {NVLIB_CUDART, "13.0", "13"},
	    {NVLIB_CUPTI, "10.1.243", "10.1"},
	    {NVLIB_CUPTI, "11.2.2", "11.2"},
	    {NVLIB_CUPTI, "11.8.0", "11.8"},
	    {NVLIB_CUPTI, "12.4", "12"},
	    {NVLIB_NVRTC, "11.0.3", "11.0"},
	    {NVLIB_NVRTC, "11.1.1", "11.1"},
	    {NVLIB_NVRTC, "11.8.0", "11.2"},
	    {NVLIB_NVRTC, "13.0", "13"},
	    {NVLIB_CUBLAS, "10.0.130", "10.0"},
	    {NVLIB_CUBLAS, "10.1.243", "10"},
	    {NVLIB_CUBLAS, "12.4.1", "12"},
	    {NVLIB_CUBLASLT, "13.0.0", "13"},
	    {NVLIB_CUFFT, "10.2.89", "10"},
	    {NVLIB_CUFFT, "11.8.0", "10"},
	    {NVLIB_CUFFT, "12.4.1", "11"},
	    {NVLIB_CUFFT, "13.0", "12"},
	    {NVLIB_CURAND, "10.0.130", "10.0"},
	    {NVLIB_CURAND, "12.4.1", "10"},
	    {NVLIB_CURAND, "13.0", "10"},
	    {NVLIB_CUSOLVER, "11.0.3", "10"},
	    {NVLIB_CUSOLVER, "11.2.2", "11"},
	    {NVLIB_CUSOLVER, "12.4.1", "11"},
	    {NVLIB_CUSOLVER, "13.0", "12"},
	    {NVLIB_CUSPARSE, "11.8.0", "11"},
	    {NVLIB_CUSPARSE, "12.4.1", "12"},
	    {NVLIB_CUSPARSE, "13.0", "12"},
	    {NVLIB_NVJITLINK, "12.0.0", "12"},
	    {NVLIB_NVJITLINK, "13.0", "13"},
	};
	static const struct {
		enum nvlib_id lib;
		const char *cuda;
	} none[] = {
	    {NVLIB_NVJITLINK, "11.8.0"}, {NVLIB_CUBLASLT, "10.0"},
	    {NVLIB_CUDNN, "12.4"},	 {NVLIB_NCCL, "12.4"},
	    {NVLIB_CUDART, "12.x"},
	};
	struct buf b = BUF_INIT;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(*rows); i++) {
		if (!elf_cuda_soname_version(rows[i].lib, rows[i].cuda, &b) ||
		    strcmp(b.data, rows[i].soname))
			fail_msg("lib%s in CUDA %s: '%s', not '%s'",
				 elf_cuda_lib_name(rows[i].lib), rows[i].cuda,
				 b.data, rows[i].soname);
	}
	for (size_t i = 0; i < sizeof(none) / sizeof(*none); i++)
		if (elf_cuda_soname_version(none[i].lib, none[i].cuda, &b))
			fail_msg("lib%s in CUDA %s: '%s', expected none",
				 elf_cuda_lib_name(none[i].lib), none[i].cuda,
				 b.data);
	buf_release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_elf_reads_every_class_and_byte_order),
	    cmocka_unit_test(test_elf_stream_reads_any_chunks),
	    cmocka_unit_test(test_elf_stream_rejects_every_truncation),
	    cmocka_unit_test(test_elf_stream_reads_a_bundled_copy),
	    cmocka_unit_test(test_elf_reads_the_dynamic_section_from_sections),
	    cmocka_unit_test(test_elf_refuses_what_is_not_elf),
	    cmocka_unit_test(test_elf_rejects_every_truncation),
	    cmocka_unit_test(test_elf_rejects_corrupt_headers),
	    cmocka_unit_test_setup_teardown(test_elf_read_file_errors, fx_setup,
					    fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_elf_reads_a_library_built_by_cc, fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(test_elf_reads_clang_cross_builds,
					    fx_setup, fx_teardown),
	    cmocka_unit_test(test_elf_symvers_reads_each_record),
	    cmocka_unit_test(test_elf_symvers_refuses_records_sharing_a_chain),
	    cmocka_unit_test(test_elf_symvers_finds_each_symbols_version),
	    cmocka_unit_test(test_elf_scan_finds_names_that_stand_alone),
	    cmocka_unit_test(test_elf_leaves_out_its_own_soname),
	    cmocka_unit_test(test_elf_sees_a_static_runtime),
	    cmocka_unit_test(test_elf_cuda_soname_parses_library_and_version),
	    cmocka_unit_test(test_elf_cuda_soname_version_follows_releases),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
