#include "fakes/fixture.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/buf.h"
#include "plat/file.h"
#include "net/unpack.h"
#include "needs/wheel.h"

/* ---- a zip, written by hand ---------------------------------------------- */

static void put16(struct buf *b, unsigned v)
{
	unsigned char x[2] = {(unsigned char)v, (unsigned char)(v >> 8)};

	buf_add(b, x, 2);
}

static void put32(struct buf *b, unsigned long v)
{
	put16(b, (unsigned)(v & 0xFFFF));
	put16(b, (unsigned)(v >> 16));
}

static unsigned long crc32_of(const char *s, size_t n)
{
	unsigned long c = 0xFFFFFFFFul;

	for (; n--; s++) {
		c ^= (unsigned char)*s;
		for (int k = 0; k < 8; k++)
			c = c & 1 ? (c >> 1) ^ 0xEDB88320ul : c >> 1;
	}
	return c ^ 0xFFFFFFFFul;
}

/*
 * A zip of stored members (names[i] holding datas[i], of lens[i] bytes;
 * lens NULL: strings), with a comment of comment_len bytes after the end
 * record; *cd_at gets the central directory's offset.
 */
static void make_zip_n(struct buf *z, const char *const *names,
		       const char *const *datas, const size_t *lens, size_t n,
		       size_t comment_len, size_t *cd_at)
{
	struct buf cd = BUF_INIT;

	buf_reset(z);
	for (size_t i = 0; i < n; i++) {
		size_t at = z->len, nl = strlen(names[i]),
		       dl = lens ? lens[i] : strlen(datas[i]);

		put32(z, 0x04034b50);
		put16(z, 20);
		put16(z, 0);
		put16(z, 0); /* stored */
		put32(z, 0);
		put32(z, crc32_of(datas[i], dl));
		put32(z, dl);
		put32(z, dl);
		put16(z, (unsigned)nl);
		put16(z, 0);
		buf_adds(z, names[i]);
		buf_add(z, datas[i], dl);

		put32(&cd, 0x02014b50);
		put16(&cd, 20);
		put16(&cd, 20);
		put16(&cd, 0);
		put16(&cd, 0);
		put32(&cd, 0);
		put32(&cd, crc32_of(datas[i], dl));
		put32(&cd, dl);
		put32(&cd, dl);
		put16(&cd, (unsigned)nl);
		put16(&cd, 0);
		put16(&cd, 0);
		put16(&cd, 0);
		put16(&cd, 0);
		put32(&cd, 0);
		put32(&cd, at);
		buf_adds(&cd, names[i]);
	}
	*cd_at = z->len;
	buf_add(z, cd.data, cd.len);
	put32(z, 0x06054b50);
	put16(z, 0);
	put16(z, 0);
	put16(z, (unsigned)n);
	put16(z, (unsigned)n);
	put32(z, cd.len);
	put32(z, *cd_at);
	put16(z, (unsigned)comment_len);
	for (size_t i = 0; i < comment_len; i++)
		buf_adds(z, "c");
	buf_release(&cd);
}

static void make_zip(struct buf *z, const char *const *names,
		     const char *const *datas, size_t n, size_t comment_len,
		     size_t *cd_at)
{
	make_zip_n(z, names, datas, NULL, n, comment_len, cd_at);
}

/*
 * A zip of stored members as make_zip_n writes them, each as zm[i] says:
 * a local header that names another name, or gives no CRC or sizes (0:
 * hide), a data descriptor (flag bit 3, the local header then giving
 * none) whose sizes are desc_off more than the data's, a directory whose
 * uncompressed size is dir_off more, or whose CRC is crc_off more.
 */
struct zmember {
	const char *name, *data;
	const char *local_name; /* NULL: name */
	bool hide, descriptor;
	unsigned desc_off, dir_off, crc_off;
};

static void make_zip_x(struct buf *z, const struct zmember *zm, size_t n,
		       size_t *cd_at)
{
	struct buf cd = BUF_INIT;

	buf_reset(z);
	for (size_t i = 0; i < n; i++) {
		const char *local =
		    zm[i].local_name ? zm[i].local_name : zm[i].name;
		size_t at = z->len, dl = strlen(zm[i].data);
		unsigned long crc = crc32_of(zm[i].data, dl);
		bool given = !zm[i].descriptor && !zm[i].hide;

		put32(z, 0x04034b50);
		put16(z, 20);
		put16(z, zm[i].descriptor ? 8 : 0);
		put16(z, 0); /* stored */
		put32(z, 0);
		put32(z, given ? crc : 0);
		put32(z, given ? dl : 0);
		put32(z, given ? dl : 0);
		put16(z, (unsigned)strlen(local));
		put16(z, 0);
		buf_adds(z, local);
		buf_add(z, zm[i].data, dl);
		if (zm[i].descriptor) {
			put32(z, 0x08074b50);
			put32(z, crc);
			put32(z, dl + zm[i].desc_off);
			put32(z, dl + zm[i].desc_off);
		}

		put32(&cd, 0x02014b50);
		put16(&cd, 20);
		put16(&cd, 20);
		put16(&cd, zm[i].descriptor ? 8 : 0);
		put16(&cd, 0);
		put32(&cd, 0);
		put32(&cd, crc + zm[i].crc_off);
		put32(&cd, dl);
		put32(&cd, dl + zm[i].dir_off);
		put16(&cd, (unsigned)strlen(zm[i].name));
		put16(&cd, 0);
		put16(&cd, 0);
		put16(&cd, 0);
		put16(&cd, 0);
		put32(&cd, 0);
		put32(&cd, at);
		buf_adds(&cd, zm[i].name);
	}
	*cd_at = z->len;
	buf_add(z, cd.data, cd.len);
	put32(z, 0x06054b50);
	put16(z, 0);
	put16(z, 0);
	put16(z, (unsigned)n);
	put16(z, (unsigned)n);
	put32(z, cd.len);
	put32(z, *cd_at);
	put16(z, 0);
	buf_release(&cd);
}

static const char *const names[] = {
    "tensorflow/python/platform/build_info.py",
    "tensorflow-2.6.5.dist-info/METADATA",
};
static const char *const datas[] = {
    "build_info = {'cuda_version': '11.2'}\n",
    "Name: tensorflow\nVersion: 2.6.5\n",
};

static void test_wheel_finds_the_end_and_the_directory(void **state)
{
	struct buf z = BUF_INIT;
	struct wheel_zip_end end;
	struct wheel_zip_member *m;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t n, cd_at;

	(void)state;
	make_zip(&z, names, datas, 2, 7, &cd_at);
	/* the end record found in the last bytes only, after a comment */
	assert_int_equal(
	    wheel_zip_end_parse(z.data + z.len - 40, 40, z.len, &end, &err),
	    CUENV_OK);
	assert_int_equal(end.entries, 2);
	assert_int_equal(end.cd_offset, cd_at);
	assert_int_equal(end.cd_size, z.len - cd_at - 22 - 7);
	assert_int_equal(wheel_zip_directory(z.data + cd_at,
					     (size_t)end.cd_size, &m, &n, &err),
			 CUENV_OK);
	assert_int_equal(n, 2);
	assert_string_equal(m[0].name, names[0]);
	assert_int_equal(m[0].offset, 0);
	assert_int_equal(m[0].method, 0);
	assert_int_equal(m[0].csize, strlen(datas[0]));
	assert_string_equal(m[1].name, names[1]);
	assert_int_equal(m[1].offset, 30 + strlen(names[0]) + strlen(datas[0]));
	wheel_zip_members_free(m, n);
	buf_release(&z);
	err_release(&err);
}

static void test_wheel_refuses_what_is_not_a_zip(void **state)
{
	struct wheel_zip_end end;
	struct wheel_zip_member *m;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t n;
	static const char junk[64] = "not a zip at all";

	(void)state;
	assert_int_equal(
	    wheel_zip_end_parse(junk, sizeof(junk), 64, &end, &err),
	    CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "no end of central directory"));
	err_release(&err);
	/* a directory entry cut short */
	assert_int_equal(wheel_zip_directory("PK\1\2abc", 7, &m, &n, &err),
			 CUENV_E_UNPACK);
	assert_null(m);
	assert_int_equal(n, 0);
	err_release(&err);
}

static void test_wheel_refuses_a_directory_past_the_end(void **state)
{
	struct buf z = BUF_INIT;
	struct wheel_zip_end end;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t cd_at;

	(void)state;
	make_zip(&z, names, datas, 2, 0, &cd_at);
	/* the same bytes, said to be the end of a much shorter file */
	assert_int_equal(
	    wheel_zip_end_parse(z.data + z.len - 22, 22, 30, &end, &err),
	    CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "corrupt zip"));
	buf_release(&z);
	err_release(&err);
}

/*
 * A directory whose offset and size each fit in the file but whose end
 * does not: read from the tail, it would run past the bytes fetched.
 */
static void test_wheel_refuses_a_directory_running_past_the_end(void **state)
{
	struct buf z = BUF_INIT;
	struct wheel_zip_end end;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t cd_at;
	unsigned char *at;

	(void)state;
	make_zip(&z, names, datas, 2, 0, &cd_at);
	/* the end record's directory offset, 30 bytes on */
	at = (unsigned char *)z.data + z.len - 22 + 16;
	cd_at += 30;
	at[0] = (unsigned char)cd_at;
	at[1] = (unsigned char)(cd_at >> 8);
	assert_true(cd_at + (z.len - 22 - (cd_at - 30)) > z.len);
	assert_int_equal(
	    wheel_zip_end_parse(z.data + z.len - 22, 22, z.len, &end, &err),
	    CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "corrupt zip: central directory"));
	buf_release(&z);
	err_release(&err);
}

/*
 * Found by fuzz_wheel: a zip64 locator whose offset is near 2^64 wrapped
 * the bounds check round, and the record was read from before the tail.
 * Here the 8 bytes before the tail hold a zip64 record's signature.
 */
static void test_wheel_zip64_locator_out_of_reach(void **state)
{
	struct buf b = BUF_INIT;
	struct wheel_zip_end end;
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	put32(&b, 0x06064b50); /* before the tail: a zip64 end record's */
	put32(&b, 0);
	put32(&b, 0); /* the tail, 50 bytes: 8 of padding */
	put32(&b, 0);
	put32(&b, 0x07064b50); /* the zip64 locator */
	put32(&b, 0);
	put32(&b, 0xFFFFFFF8ul); /* record at 2^64 - 8 */
	put32(&b, 0xFFFFFFFFul);
	put32(&b, 1);
	put32(&b, 0x06054b50); /* the end record, its counts in zip64 */
	put32(&b, 0);
	put16(&b, 0xFFFF);
	put16(&b, 0xFFFF);
	put32(&b, 0xFFFFFFFFul);
	put32(&b, 0xFFFFFFFFul);
	put16(&b, 0);
	assert_int_equal(b.len, 8 + 50);
	assert_int_equal(wheel_zip_end_parse(b.data + 8, 50, 50, &end, &err),
			 CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "zip64 end record out of reach"));
	buf_release(&b);
	err_release(&err);
}

/*
 * A zip64 locator pointing at a record that starts within the tail but
 * has fewer than its 56 bytes in it: refused, never read past the tail.
 * The bytes past the tail (in memory here) would make a valid record.
 */
static void test_wheel_zip64_record_cut_by_the_tail(void **state)
{
	struct buf b = BUF_INIT;
	struct wheel_zip_end end;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t tail;

	(void)state;
	put32(&b, 0x07064b50); /* the zip64 locator */
	put32(&b, 0);
	put32(&b, 20 + 22); /* the record: the tail's last 4 bytes */
	put32(&b, 0);
	put32(&b, 1);
	put32(&b, 0x06054b50); /* the end record, its counts in zip64 */
	put32(&b, 0);
	put16(&b, 0xFFFF);
	put16(&b, 0xFFFF);
	put32(&b, 0xFFFFFFFFul);
	put32(&b, 0xFFFFFFFFul);
	put16(&b, 4);	       /* a comment: */
	put32(&b, 0x06064b50); /* the record's signature */
	tail = b.len;
	for (size_t i = 4; i < 56; i++)	       /* past the tail: a record of */
		buf_addc(&b, i == 32 ? 1 : 0); /* one entry at 0, 0 bytes */
	assert_int_equal(tail, 20 + 22 + 4);
	assert_int_equal(wheel_zip_end_parse(b.data, tail, tail, &end, &err),
			 CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "zip64 end record out of reach"));
	buf_release(&b);
	err_release(&err);
}

static void test_wheel_member_from_its_local_bytes(void **state)
{
	struct buf z = BUF_INIT, out = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t cd_at, second = 30 + strlen(names[0]) + strlen(datas[0]);

	(void)state;
	make_zip(&z, names, datas, 2, 0, &cd_at);
	/* as a range request returns it: the local header, the data, and
	 * whatever follows */
	assert_int_equal(unpack_zip_member(z.data + second, z.len - second,
					   1024, &out, &err),
			 CUENV_OK);
	assert_string_equal(out.data, datas[1]);
	/* larger than allowed */
	assert_int_equal(unpack_zip_member(z.data, z.len, 4, &out, &err),
			 CUENV_E_UNPACK);
	buf_release(&z);
	buf_release(&out);
	err_release(&err);
}

/* ---- what a member claims ------------------------------------------------ */

static void
test_wheel_member_span_bounds_what_the_directory_claims(void **state)
{
	struct wheel_zip_member m = {.name = "t-1.dist-info/METADATA",
				     .method = 8,
				     .csize = 1u << 30,
				     .usize = 100,
				     .offset = 0};
	struct cuenv_err err = CUENV_ERR_INIT;
	uint64_t len = 1;

	(void)state;
	/* 1 GiB compressed for 8 MiB of metadata: refused, nothing to fetch */
	assert_int_equal(
	    wheel_zip_member_span(&m, 3ull << 30, 8u << 20, &len, &err),
	    CUENV_E_UNPACK);
	assert_int_equal(len, 0);
	assert_non_null(strstr(err.msg.data, "zip member "
					     "'t-1.dist-info/METADATA' is "
					     "larger than 8388608 bytes"));
	err_release(&err);
	/* inflated larger than allowed */
	m.csize = 1000;
	m.usize = (8u << 20) + 1;
	assert_int_equal(
	    wheel_zip_member_span(&m, 3ull << 30, 8u << 20, &len, &err),
	    CUENV_E_UNPACK);
	err_release(&err);
	/* within: its header, the slack for its extra field, its data */
	m.usize = 8u << 20;
	m.csize = 8u << 20; /* stored */
	assert_int_equal(
	    wheel_zip_member_span(&m, 3ull << 30, 8u << 20, &len, &err),
	    CUENV_OK);
	assert_int_equal(len, 30 + strlen(m.name) + 1024 + m.csize);
	/* the slack stops at the directory */
	m.csize = 10;
	assert_int_equal(wheel_zip_member_span(&m, 30 + strlen(m.name) + 20,
					       8u << 20, &len, &err),
			 CUENV_OK);
	assert_int_equal(len, 30 + strlen(m.name) + 20);
}

static void test_wheel_member_span_refuses_data_past_the_end(void **state)
{
	struct wheel_zip_member m = {
	    .name = "a/METADATA", .csize = 100, .usize = 100, .offset = 900};
	struct cuenv_err err = CUENV_ERR_INIT;
	uint64_t len;

	(void)state;
	/* header and data end at 900 + 40 + 100 = 1040, past 1000 */
	assert_int_equal(wheel_zip_member_span(&m, 1000, 1024, &len, &err),
			 CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "corrupt zip: member "
					     "'a/METADATA' at byte 900"));
	err_release(&err);
	/* a header past the end */
	m.offset = 2000;
	assert_int_equal(wheel_zip_member_span(&m, 1000, 1024, &len, &err),
			 CUENV_E_UNPACK);
	err_release(&err);
	/* exactly up to it */
	m.offset = 860;
	assert_int_equal(wheel_zip_member_span(&m, 1000, 1024, &len, &err),
			 CUENV_OK);
	assert_int_equal(len, 140);
}

static void test_wheel_local_check_refuses_what_runs_past(void **state)
{
	struct buf z = BUF_INIT;
	struct wheel_zip_member m = {.name = (char *)names[0]};
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t cd_at, one = 30 + strlen(names[0]) + strlen(datas[0]);
	unsigned char *h;

	(void)state;
	make_zip(&z, names, datas, 2, 0, &cd_at);
	m.csize = m.usize = strlen(datas[0]);
	m.crc = (uint32_t)crc32_of(datas[0], m.usize);
	assert_int_equal(wheel_zip_local_check(z.data, one, &m, 1024, &err),
			 CUENV_OK);
	/* its data cut short */
	assert_int_equal(wheel_zip_local_check(z.data, one - 1, &m, 1024, &err),
			 CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "runs past the"));
	err_release(&err);
	/* an extra field longer than the bytes read */
	h = (unsigned char *)z.data;
	h[28] = h[29] = 0xFF;
	assert_int_equal(wheel_zip_local_check(z.data, z.len, &m, 1024, &err),
			 CUENV_E_UNPACK);
	err_release(&err);
	h[28] = h[29] = 0;
	/* its header claims more than allowed */
	h[22 + 3] = 0x7F;
	assert_int_equal(wheel_zip_local_check(z.data, one, &m, 1024, &err),
			 CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "its local header"));
	err_release(&err);
	h[22 + 3] = 0;
	/* not a local header */
	assert_int_equal(wheel_zip_local_check(z.data + 1, one, &m, 1024, &err),
			 CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "no local header"));
	err_release(&err);
	buf_release(&z);
}

/* ---- a wheel on disk (wheel_local) --------------------------------------- */

/* root/rel: a wheel of the n members names[i] holding datas[i]; *path
 * gets its path. */
static void wheel_at(const struct fixture *fx, const char *rel,
		     const char *const *nv, const char *const *dv, size_t n,
		     char **path)
{
	struct buf z = BUF_INIT;
	size_t cd_at;

	make_zip(&z, nv, dv, n, 0, &cd_at);
	fx_write_bytes(fx, rel, z.data, z.len);
	*path = fx_path(fx, rel);
	buf_release(&z);
}

static void test_wheel_local_reads_metadata_in_place(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf source = BUF_INIT;
	char *path;

	wheel_at(fx, "tf.whl", names, datas, 2, &path);
	needs_scan_init(&s);
	assert_int_equal(wheel_local_scan(&s, path, 0, &err), CUENV_OK);
	assert_int_equal(s.nrep, 1);
	assert_string_equal(s.rep[0].framework, "tensorflow");
	assert_string_equal(s.rep[0].cuda, "11.2");
	/* reports name the member inside the wheel */
	buf_printf(&source, "%s/%s", path, names[0]);
	assert_string_equal(s.rep[0].source, source.data);
	assert_int_equal(s.files, 0); /* no ELF pass was needed */
	needs_scan_release(&s);
	buf_release(&source);
	err_release(&err);
	free(path);
}

static void test_wheel_local_reads_binaries_without_metadata(void **state)
{
	static const char *const nv[] = {
	    "pkg-1.0.dist-info/METADATA",
	    "pkg/libbad.so",
	    "pkg/README.txt",
	};
	static const char *const dv[] = {
	    "Name: pkg\nVersion: 1.0\n",
	    "\177ELF\002\001\001",
	    "libcudart.so.12 named in a text file\n",
	};
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path;

	wheel_at(fx, "pkg.whl", nv, dv, 3, &path);
	needs_scan_init(&s);
	assert_int_equal(wheel_local_scan(&s, path, 0, &err), CUENV_OK);
	assert_int_equal(s.nrep, 0);
	/* the truncated ELF file is passed over with a warning naming it;
	 * the text file is not read */
	assert_int_equal(s.warnings.n, 1);
	assert_non_null(strstr(s.warnings.v[0], "pkg.whl/pkg/libbad.so"));
	assert_int_equal(s.unread.n, 1);
	assert_non_null(strstr(s.unread.v[0], "pkg.whl/pkg/libbad.so"));
	assert_int_equal(s.n, 0);
	needs_scan_release(&s);
	err_release(&err);
	free(path);
}

/* A METADATA larger than the metadata limit: read no further than the
 * limit, and a warning naming it, not a lost verdict (issue 22). */
static void test_wheel_local_bounds_metadata(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t big = WHEEL_METADATA_MAX + 1;
	char *meta = malloc(big + 1), *path;
	const char *nv[] = {"big-1.0.dist-info/METADATA"};
	const char *dv[] = {meta};

	assert_non_null(meta);
	memset(meta, 'x', big);
	meta[big] = '\0';
	wheel_at(fx, "big.whl", nv, dv, 1, &path);
	needs_scan_init(&s);
	assert_int_equal(wheel_local_scan(&s, path, 0, &err), CUENV_OK);
	assert_int_equal(s.nrep, 0);
	assert_int_equal(s.warnings.n, 1);
	assert_non_null(strstr(s.warnings.v[0],
			       "big.whl/big-1.0.dist-info/METADATA': larger "
			       "than 4 MiB"));
	assert_int_equal(s.unread.n, 1);
	needs_scan_release(&s);
	err_release(&err);
	free(meta);
	free(path);
}

/* Bytes that are not those the member's CRC-32 was made of: unread,
 * never taken for its content. */
static void test_wheel_local_wrong_crc_is_unread(void **state)
{
	static const char *const nv[] = {"torch/version.py"};
	static const char *const dv[] = {"cuda = '12.1'\n"};
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf z = BUF_INIT;
	size_t cd_at;
	char *path, *at;

	make_zip(&z, nv, dv, 1, 0, &cd_at);
	at = memmem(z.data, z.len, "12.1", 4);
	assert_non_null(at);
	at[1] = '3'; /* "13.1": the CRC-32 says otherwise */
	fx_write_bytes(fx, "x.whl", z.data, z.len);
	path = fx_path(fx, "x.whl");
	needs_scan_init(&s);
	assert_int_equal(wheel_local_scan(&s, path, 0, &err), CUENV_OK);
	assert_int_equal(s.nrep, 0);
	assert_int_equal(s.warnings.n, 1);
	assert_non_null(strstr(s.warnings.v[0], "bad CRC"));
	assert_int_equal(s.unread.n, 1);
	assert_non_null(strstr(s.unread.v[0], "x.whl/torch/version.py"));
	needs_scan_release(&s);
	buf_release(&z);
	err_release(&err);
	free(path);
}

/* The members of tests/unit's ELF libraries, read serially and on four
 * threads: the same scan, in the same order. */
static void same_scan(const struct needs_scan *a, const struct needs_scan *b)
{
	assert_int_equal(a->files, b->files);
	assert_int_equal(a->nrep, b->nrep);
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		const struct needs_want *x = &a->v[i], *y = &b->v[i];

		assert_string_equal(x->soname, y->soname);
		assert_int_equal(x->needed_by.n, y->needed_by.n);
		for (size_t j = 0; j < x->needed_by.n; j++)
			assert_string_equal(x->needed_by.v[j],
					    y->needed_by.v[j]);
		assert_int_equal(x->loaded_by.n, y->loaded_by.n);
		assert_int_equal(x->named_by.n, y->named_by.n);
	}
	assert_int_equal(a->warnings.n, b->warnings.n);
	for (size_t i = 0; i < a->warnings.n; i++)
		assert_string_equal(a->warnings.v[i], b->warnings.v[i]);
	assert_int_equal(a->provides.n, b->provides.n);
	for (size_t i = 0; i < a->provides.n; i++)
		assert_string_equal(a->provides.v[i], b->provides.v[i]);
}

static void test_wheel_local_threads_give_the_serial_answer(void **state)
{
	static const char *const libs[] = {
	    "libcudart.so.12", "libcublas.so.12", "libcufft.so.11",
	    "libcudnn.so.9",   "libnccl.so.2",	  "libcupti.so.12",
	};
	struct fixture *fx = *state;
	const char *nv[16], *dv[16];
	size_t lens[16];
	struct buf data[16], z = BUF_INIT;
	size_t cd_at;
	struct needs_scan one, four;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t n = 0;
	char *path, *lib;

	FX_NEED_CC();
	assert_int_equal(chdir(fx->root), 0); /* cc's -Lstub */
	for (size_t i = 0; i < 6; i++) {
		struct buf rel = BUF_INIT, src = BUF_INIT, ex = BUF_INIT;

		buf_printf(&rel, "stub/%s", libs[i]);
		fx_cc_lib(fx, rel.data, libs[i], "int f(void){return 0;}", "");
		/* a framework library: needs the stubs up to i, dlopens
		 * the next one by name */
		buf_printf(&src,
			   "const char *n = \"%s\"; int g(void){return 1;}",
			   libs[(i + 1) % 6]);
		buf_printf(&ex, "-Lstub");
		for (size_t j = 0; j <= i; j++)
			buf_printf(&ex, " -l:%s", libs[j]);
		buf_reset(&rel);
		buf_printf(&rel, "pkg/lib%zu.so", i);
		fx_cc_lib(fx, rel.data, rel.data + 4, src.data, ex.data);
		buf_init(&data[n]);
		lib = fx_path(fx, rel.data);
		assert_int_equal(file_read(lib, 1 << 20, 0, &data[n], &err),
				 CUENV_OK);
		free(lib);
		nv[n] = xstrdup(rel.data);
		dv[n] = data[n].data;
		lens[n] = data[n].len;
		n++;
		buf_release(&rel);
		buf_release(&src);
		buf_release(&ex);
	}
	nv[n] = "pkg/libtorn.so"; /* cut short: a warning, in its place */
	dv[n] = "\177ELF\002\001\001";
	lens[n] = strlen(dv[n]);
	n++;
	nv[n] = "pkg-1.0.dist-info/METADATA";
	dv[n] = "Name: pkg\nVersion: 1.0\n";
	lens[n] = strlen(dv[n]);
	n++;
	make_zip_n(&z, nv, dv, lens, n, 0, &cd_at);
	fx_write_bytes(fx, "pkg.whl", z.data, z.len);
	path = fx_path(fx, "pkg.whl");
	buf_release(&z);
	needs_scan_init(&one);
	needs_scan_init(&four);
	assert_int_equal(wheel_local_scan(&one, path, 1, &err), CUENV_OK);
	assert_int_equal(wheel_local_scan(&four, path, 4, &err), CUENV_OK);
	assert_int_equal(one.files, 6);
	assert_int_equal(one.warnings.n, 1);
	same_scan(&one, &four);
	/* in the members' order: every library needs libcudart.so.12 */
	for (size_t i = 0; i < one.n; i++) {
		const struct strv *by = &one.v[i].needed_by;

		if (strcmp(one.v[i].soname, "libcudart.so.12"))
			continue;
		assert_int_equal(by->n, 6);
		assert_non_null(strstr(by->v[0], "pkg.whl/pkg/lib0.so"));
		assert_non_null(strstr(by->v[5], "pkg.whl/pkg/lib5.so"));
	}
	needs_scan_release(&one);
	needs_scan_release(&four);
	for (size_t i = 0; i < 6; i++) {
		free((char *)nv[i]);
		buf_release(&data[i]);
	}
	err_release(&err);
	free(path);
}

static void test_wheel_local_refuses_what_is_not_a_wheel(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path = fx_path(fx, "x.whl");

	needs_scan_init(&s);
	assert_int_equal(wheel_local_scan(&s, path, 0, &err), CUENV_E_STORE);
	fx_write(fx, "x.whl", "not a zip at all\n");
	assert_int_equal(wheel_local_scan(&s, path, 0, &err), CUENV_E_UNPACK);
	needs_scan_release(&s);
	err_release(&err);
	free(path);
}

static void test_wheel_needs_scan_reads_a_wheel_in_place(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_fetches fs = {0};
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path, *index = fx_path(fx, "simple"), *url;
	struct buf u = BUF_INIT;

	wheel_at(fx, "tf.whl", names, datas, 2, &path);
	needs_scan_init(&s);
	/* a wheel: read in place, nothing fetched */
	assert_int_equal(wheel_needs_scan(&s, path, "https://unused/simple",
					  NULL, NULL, &fo, &fs, &err),
			 CUENV_OK);
	assert_int_equal(s.nrep, 1);
	assert_string_equal(s.rep[0].framework, "tensorflow");
	assert_int_equal(fs.n, 0);
	/* a requirement on a file:// index (allowed: the user named it)
	 * that lists no such project: an error, nothing fetched */
	fx_mkdir(fx, "simple");
	buf_printf(&u, "file://%s", index);
	url = buf_detach(&u);
	assert_int_not_equal(wheel_needs_scan(&s, "nosuchproject==1.0", url,
					      NULL, NULL, &fo, &fs, &err),
			     CUENV_OK);
	/* the file was looked for: file:// was allowed */
	assert_non_null(strstr(err.msg.data, "/simple/nosuchproject/"));
	assert_non_null(strstr(err.msg.data, "No such file or directory"));
	assert_int_equal(fs.n, 0);
	needs_scan_release(&s);
	needs_fetches_release(&fs);
	err_release(&err);
	free(path);
	free(index);
	free(url);
}

/* ---- members that disagree ------------------------------------------- */

static const char metadata_name[] = "tensorflow-2.6.5.dist-info/METADATA";
static const char build_name[] = "tensorflow/python/platform/build_info.py";
static const char build_data[] = "build_info = {'cuda_version': '11.2'}\n";

/* The zip zm (n members) at rel; *path gets its path. */
static void zip_at(const struct fixture *fx, const char *rel,
		   const struct zmember *zm, size_t n, char **path)
{
	struct buf z = BUF_INIT;
	size_t cd_at;

	make_zip_x(&z, zm, n, &cd_at);
	fx_write_bytes(fx, rel, z.data, z.len);
	*path = fx_path(fx, rel);
	buf_release(&z);
}

/* needs reads the wheel at path: no report, one warning naming member
 * and saying why. */
static void assert_member_refused(const char *path, const char *member,
				  const char *why)
{
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf shown = BUF_INIT;

	needs_scan_init(&s);
	assert_int_equal(wheel_local_scan(&s, path, 1, &err), CUENV_OK);
	assert_int_equal(s.nrep, 0);
	assert_int_equal(s.warnings.n, 1);
	buf_printf(&shown, "%s/%s", path, member);
	assert_non_null(strstr(s.warnings.v[0], shown.data));
	if (!strstr(s.warnings.v[0], why))
		fail_msg("'%s' does not say '%s'", s.warnings.v[0], why);
	needs_scan_release(&s);
	buf_release(&shown);
	err_release(&err);
}

/* install's check of the zip at path refuses it, saying why. */
static void assert_check_refuses(const char *path, const char *why)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	assert_int_equal(wheel_local_check(path, &err), CUENV_E_UNPACK);
	if (!strstr(err.msg.data, why))
		fail_msg("'%s' does not say '%s'", err.msg.data, why);
	err_release(&err);
}

/*
 * Two members of one name: which one a reader keeps is its own choice
 * (libarchive's install wrote the last), so the wheel is refused, by
 * needs and by install's check alike.
 */
static void test_wheel_refuses_two_members_of_one_name(void **state)
{
	const struct zmember zm[] = {
	    {.name = build_name, .data = "build_info = {}\n"},
	    {.name = metadata_name, .data = "Name: tensorflow\n"},
	    {.name = build_name, .data = build_data},
	};
	struct fixture *fx = *state;
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *path;

	zip_at(fx, "tf.whl", zm, 3, &path);
	needs_scan_init(&s);
	assert_int_equal(wheel_local_scan(&s, path, 1, &err), CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "corrupt zip: two members named "
					     "'tensorflow/python/platform/"
					     "build_info.py'"));
	err_release(&err);
	assert_check_refuses(path, "two members named");
	needs_scan_release(&s);
	free(path);
}

/*
 * A member whose local header names another file: install (libarchive
 * takes the local name) and needs (the directory's) would see two trees
 * of one wheel. Refused where the local header is read: needs passes the
 * member over with a warning, install's check refuses the zip, as does
 * the check of a member fetched by range requests.
 */
static void test_wheel_refuses_a_local_name_not_the_directorys(void **state)
{
	const struct zmember zm[] = {
	    {.name = build_name,
	     .data = build_data,
	     .local_name = "tensorflow/python/platform/build_infx.py"},
	};
	struct fixture *fx = *state;
	struct wheel_zip_member m = {.name = (char *)build_name};
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf z = BUF_INIT;
	size_t cd_at;
	char *path;

	zip_at(fx, "tf.whl", zm, 1, &path);
	assert_member_refused(path, build_name,
			      "is named 'tensorflow/python/platform/"
			      "build_infx.py' in its local header");
	assert_check_refuses(path, "is named");
	make_zip_x(&z, zm, 1, &cd_at);
	m.csize = m.usize = strlen(build_data);
	m.crc = (uint32_t)crc32_of(build_data, m.usize);
	assert_int_equal(wheel_zip_local_check(z.data, cd_at, &m, 1024, &err),
			 CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "in its local header"));
	err_release(&err);
	buf_release(&z);
	free(path);
}

/*
 * Sizes that are not what was inflated: a data descriptor's (bit 3),
 * and a directory's whose local header gives none. needs passes the
 * member over with a warning; install's check refuses a descriptor
 * that is not the directory's. A true descriptor reads as before.
 */
static void test_wheel_checks_sizes_against_what_inflates(void **state)
{
	static const char descriptor_differs[] =
	    "its data descriptor's CRC or sizes are not its directory's";
	struct zmember zm[] = {
	    {.name = build_name, .data = build_data, .descriptor = true},
	};
	struct fixture *fx = *state;
	struct wheel_zip_member m = {.name = (char *)build_name};
	struct needs_scan s;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf z = BUF_INIT;
	size_t cd_at;
	char *path;

	zip_at(fx, "tf.whl", zm, 1, &path);
	needs_scan_init(&s);
	assert_int_equal(wheel_local_scan(&s, path, 1, &err), CUENV_OK);
	assert_int_equal(s.nrep, 1);
	assert_string_equal(s.rep[0].cuda, "11.2");
	assert_int_equal(wheel_local_check(path, &err), CUENV_OK);
	needs_scan_release(&s);
	free(path);

	/* a descriptor's sizes that are not the data's (libarchive's
	 * check), nor the directory's */
	zm[0].desc_off = 1;
	zip_at(fx, "tf.whl", zm, 1, &path);
	assert_member_refused(path, build_name, "wrong size");
	assert_check_refuses(path, descriptor_differs);
	free(path);
	make_zip_x(&z, zm, 1, &cd_at);
	m.csize = m.usize = strlen(build_data);
	m.crc = (uint32_t)crc32_of(build_data, m.usize);
	assert_int_equal(wheel_zip_local_check(z.data, z.len, &m, 1024, &err),
			 CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, descriptor_differs));
	err_release(&err);

	/* a descriptor true to the data, whose CRC is not the directory's */
	zm[0].desc_off = 0;
	zm[0].crc_off = 1;
	zip_at(fx, "tf.whl", zm, 1, &path);
	assert_member_refused(path, build_name, descriptor_differs);
	free(path);

	/* no descriptor: the local header's sizes, or else the data's, are
	 * not the directory's */
	zm[0].descriptor = false;
	zm[0].crc_off = 0;
	zm[0].dir_off = 5;
	zip_at(fx, "tf.whl", zm, 1, &path);
	assert_member_refused(path, build_name,
			      "its local header's CRC or sizes are not its "
			      "directory's");
	assert_check_refuses(path, "its local header's CRC or sizes");
	free(path);
	zm[0].hide = true;
	zip_at(fx, "tf.whl", zm, 1, &path);
	assert_member_refused(path, build_name,
			      "inflates to 0 bytes, its directory says 43");
	buf_release(&z);
	free(path);
}

/*
 * A release the index lacks: the hint lists the releases it has in
 * version order, past 32 their count and the newest 32 (a page of 50k
 * releases was a hint of 50k, kept in order by insertion: 39 s).
 */
static void test_wheel_needs_scan_hint_names_the_newest(void **state)
{
	struct fixture *fx = *state;
	struct needs_scan s;
	struct needs_fetches fs = {0};
	struct fetch_opts fo = FETCH_OPTS_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf page = BUF_INIT, url = BUF_INIT;
	char *index = fx_path(fx, "simple");

	buf_adds(&page, "{\"files\": [");
	for (unsigned i = 0; i < 40; i++)
		buf_printf(&page,
			   "%s{\"filename\": \"pkg-1.0.%u-py3-none-any.whl\", "
			   "\"url\": \"p/%u.whl\", \"hashes\": "
			   "{\"sha256\": \"%064u\"}}",
			   i ? ", " : "", (i * 7) % 40, i, 0);
	/* PEP 440's versions, in its order (xformers' 0.0.22.post7 and
	 * 0.0.16rc424 were a BUG abort) */
	buf_printf(&page,
		   ", {\"filename\": \"pkg-1.0.39.post1-py3-none-any.whl\", "
		   "\"url\": \"p/a.whl\", \"hashes\": {\"sha256\": \"%064u\"}}"
		   ", {\"filename\": \"pkg-1.0.39rc1-py3-none-any.whl\", "
		   "\"url\": \"p/b.whl\", \"hashes\": {\"sha256\": \"%064u\"}}",
		   0, 0);
	buf_adds(&page, "]}");
	fx_mkdir(fx, "simple");
	fx_mkdir(fx, "simple/pkg");
	fx_write(fx, "simple/pkg/index.html", page.data);
	buf_printf(&url, "file://%s", index);
	needs_scan_init(&s);
	assert_int_equal(wheel_needs_scan(&s, "pkg==9.9", url.data, NULL, NULL,
					  &fo, &fs, &err),
			 CUENV_E_UNKNOWN);
	assert_non_null(strstr(
	    err.hint.data, "it has 42 releases, the newest 1.0.10, 1.0.11, "));
	/* the last release ends the hint: no platform has 9.9 */
	assert_non_null(
	    strstr(err.hint.data, ", 1.0.38, 1.0.39rc1, 1.0.39, 1.0.39.post1"));
	assert_null(strstr(err.hint.data, "--platform"));
	assert_null(strstr(err.hint.data, "1.0.9,"));
	needs_scan_release(&s);
	needs_fetches_release(&fs);
	BUF_RELEASE_EACH(&page, &url);
	err_release(&err);
	free(index);
}

/*
 * pip's tags: a manylinux newer than this glibc is not installable
 * (glibc 2.28: manylinux_2_17 yes, manylinux_2_34 no), the newest it
 * runs first; abi3 runs on its CPython and later ones only, the newest
 * first, below the interpreter's own ABI and above none.
 */
static void test_wheel_ranks_tags_as_pip(void **state)
{
#if defined(__x86_64__)
	const char *old = "t-1-cp311-cp311-manylinux_2_17_x86_64.whl",
		   *new = "t-1-cp311-cp311-manylinux_2_34_x86_64.whl",
		   *both = "t-1-cp311-cp311-manylinux_2_17_x86_64."
			   "manylinux_2_34_x86_64.whl";

	assert_true(wheel_platform_rank(old, NULL, 28) > 0);
	assert_int_equal(wheel_platform_rank(new, NULL, 28), 0);
	assert_int_equal(wheel_platform_rank(both, NULL, 28),
			 wheel_platform_rank(old, NULL, 28));
	assert_true(wheel_platform_rank(new, NULL, 36) >
		    wheel_platform_rank(old, NULL, 36));
	assert_true(wheel_platform_rank(new, NULL, 0) > 0);
	assert_int_equal(
	    wheel_platform_rank("t-1-cp311-cp311-manylinux_2_17_aarch64.whl",
				NULL, 36),
	    0);
	assert_true(wheel_platform_rank("t-1-cp311-cp311-manylinux1_x86_64.whl",
					NULL, 36) <
		    wheel_platform_rank(old, NULL, 36));
#endif
	(void)state;
	assert_int_equal(wheel_python_rank("t-1-cp312-abi3-any.whl", "cp311"),
			 0);
	assert_true(wheel_python_rank("t-1-cp38-abi3-any.whl", "cp311") > 0);
	assert_true(wheel_python_rank("t-1-cp39-abi3-any.whl", "cp311") >
		    wheel_python_rank("t-1-cp38-abi3-any.whl", "cp311"));
	assert_true(wheel_python_rank("t-1-cp311-cp311-any.whl", "cp311") >
		    wheel_python_rank("t-1-cp311-abi3-any.whl", "cp311"));
	assert_true(wheel_python_rank("t-1-cp38-abi3-any.whl", "cp311") >
		    wheel_python_rank("t-1-cp311-none-any.whl", "cp311"));
	assert_true(wheel_python_rank("t-1-cp311-none-any.whl", "cp311") >
		    wheel_python_rank("t-1-py3-none-any.whl", "cp311"));
	assert_int_equal(wheel_python_rank("t-1-cp310-cp310-any.whl", "cp311"),
			 0);
	/* pyXY with no ABI: every later CPython of that major (xformers
	 * 0.0.35's only Linux wheel is py39-none-manylinux_2_28_x86_64) */
	assert_true(wheel_python_rank("t-1-py39-none-any.whl", "cp311") > 0);
	assert_true(wheel_python_rank("t-1-py38.py39-none-any.whl", "cp39") >
		    0);
	assert_int_equal(wheel_python_rank("t-1-py312-none-any.whl", "cp311"),
			 0);
	assert_int_equal(wheel_python_rank("t-1-py39-cp39-any.whl", "cp311"),
			 0);
	assert_int_equal(wheel_python_rank("t-1-py3x-none-any.whl", "cp311"),
			 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_wheel_finds_the_end_and_the_directory),
	    cmocka_unit_test(test_wheel_ranks_tags_as_pip),
	    cmocka_unit_test(test_wheel_refuses_what_is_not_a_zip),
	    cmocka_unit_test(test_wheel_refuses_a_directory_past_the_end),
	    cmocka_unit_test(
		test_wheel_refuses_a_directory_running_past_the_end),
	    cmocka_unit_test(
		test_wheel_member_span_bounds_what_the_directory_claims),
	    cmocka_unit_test(test_wheel_member_span_refuses_data_past_the_end),
	    cmocka_unit_test(test_wheel_local_check_refuses_what_runs_past),
	    cmocka_unit_test(test_wheel_zip64_locator_out_of_reach),
	    cmocka_unit_test(test_wheel_zip64_record_cut_by_the_tail),
	    cmocka_unit_test(test_wheel_member_from_its_local_bytes),
	    cmocka_unit_test_setup_teardown(
		test_wheel_local_reads_metadata_in_place, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_wheel_local_reads_binaries_without_metadata, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(test_wheel_local_bounds_metadata,
					    fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_wheel_local_wrong_crc_is_unread, fx_setup, fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_wheel_local_threads_give_the_serial_answer, fx_setup,
		fx_teardown_chdir),
	    cmocka_unit_test_setup_teardown(
		test_wheel_local_refuses_what_is_not_a_wheel, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_wheel_needs_scan_reads_a_wheel_in_place, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_wheel_needs_scan_hint_names_the_newest, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_wheel_refuses_two_members_of_one_name, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_wheel_refuses_a_local_name_not_the_directorys, fx_setup,
		fx_teardown),
	    cmocka_unit_test_setup_teardown(
		test_wheel_checks_sizes_against_what_inflates, fx_setup,
		fx_teardown),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
