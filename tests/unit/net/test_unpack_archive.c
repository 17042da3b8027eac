#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>

#include "net/unpack.h"
#include "base/xalloc.h"
#include "fakes/fixture.h"

/*
 * Archives are built in memory with libarchive's writer, which, unlike tar,
 * happily stores the hostile entries these tests need.
 */

/* ---- building archives --------------------------------------------------- */

enum fmt { PAX, CPIO, ZIP };
enum filter { PLAIN, GZIP, XZ };

struct ent {
	const char *path;
	mode_t type;	  /* AE_IFREG (0 means that too), AE_IFDIR, ... */
	mode_t perm;	  /* 0 means 0644, or 0755 for folders */
	const char *data; /* a file's contents */
	size_t size;	  /* of data; 0 means strlen(data) */
	const char *link; /* symlink target, or hard link target if hard */
	int hard;
};

#define DIR_(p)                                                                \
	{                                                                      \
		.path = (p), .type = AE_IFDIR                                  \
	}
#define FILE_(p, d)                                                            \
	{                                                                      \
		.path = (p), .type = AE_IFREG, .data = (d)                     \
	}
#define LINK_(p, t)                                                            \
	{                                                                      \
		.path = (p), .type = AE_IFLNK, .link = (t)                     \
	}
#define HARD_(p, t)                                                            \
	{                                                                      \
		.path = (p), .type = AE_IFREG, .link = (t), .hard = 1          \
	}
#define N(a) (sizeof(a) / sizeof(*(a)))

static la_ssize_t collect(struct archive *a, void *ctx, const void *p, size_t n)
{
	(void)a;
	buf_add(ctx, p, n);
	return (la_ssize_t)n;
}

static void build(struct buf *out, enum fmt fmt, enum filter filter,
		  const struct ent *e, size_t n)
{
	struct archive *a = archive_write_new();

	buf_reset(out);
	if (filter == GZIP)
		assert_int_equal(archive_write_add_filter_gzip(a), ARCHIVE_OK);
	else if (filter == XZ)
		assert_int_equal(archive_write_add_filter_xz(a), ARCHIVE_OK);
	if (fmt == PAX)
		assert_int_equal(archive_write_set_format_pax_restricted(a),
				 ARCHIVE_OK);
	else if (fmt == CPIO)
		assert_int_equal(archive_write_set_format_cpio_newc(a),
				 ARCHIVE_OK);
	else
		assert_int_equal(archive_write_set_format_zip(a), ARCHIVE_OK);
	assert_int_equal(archive_write_open(a, out, NULL, collect, NULL),
			 ARCHIVE_OK);
	for (size_t i = 0; i < n; i++) {
		struct archive_entry *ae = archive_entry_new();
		mode_t type = e[i].type ? e[i].type : AE_IFREG;
		size_t size = e[i].size;

		if (!size && e[i].data)
			size = strlen(e[i].data);
		archive_entry_set_pathname(ae, e[i].path);
		archive_entry_set_filetype(ae, type);
		archive_entry_set_perm(ae, e[i].perm	      ? e[i].perm
					   : type == AE_IFDIR ? 0755
							      : 0644);
		archive_entry_set_mtime(ae, 1000, 0);
		if (type == AE_IFCHR)
			archive_entry_set_rdev(ae, makedev(1, 3));
		if (e[i].link && e[i].hard)
			archive_entry_set_hardlink(ae, e[i].link);
		else if (e[i].link)
			archive_entry_set_symlink(ae, e[i].link);
		archive_entry_set_size(ae, (la_int64_t)size);
		assert_int_equal(archive_write_header(a, ae), ARCHIVE_OK);
		if (size)
			assert_int_equal(archive_write_data(a, e[i].data, size),
					 (la_ssize_t)size);
		archive_entry_free(ae);
	}
	assert_int_equal(archive_write_close(a), ARCHIVE_OK);
	archive_write_free(a);
}

/* n bytes that no compressor shrinks (heap; the caller frees them). */
static char *noise(size_t n)
{
	char *p = xmalloc(n);
	uint32_t x = 2463534242u;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		p[i] = (char)(x >> 24);
	}
	return p;
}

/* ---- a source in memory -------------------------------------------------- */

struct mem_src {
	const char *data;
	size_t len, off;
	size_t chunk; /* the most one read gives */
	bool fail;    /* fail once fail_at bytes were given */
	size_t fail_at;
	size_t reads;
};

static ssize_t mem_read(void *ctx, const void **buf, struct cuenv_err *err)
{
	struct mem_src *s = ctx;
	size_t n = s->len - s->off;

	s->reads++;
	if (s->fail && s->off >= s->fail_at) {
		cuenv_fail(err, CUENV_E_FETCH,
			   "cannot download 'https://example.com/a.tar.xz': "
			   "connection reset");
		return -1;
	}
	if (n > s->chunk)
		n = s->chunk;
	if (s->fail && n > s->fail_at - s->off)
		n = s->fail_at - s->off;
	*buf = s->data + s->off;
	s->off += n;
	return (ssize_t)n;
}

/* Extract arc from a source giving chunk bytes at a time into root/dest. */
static int unpack_chunked(const struct fixture *fx, const struct buf *arc,
			  size_t chunk, const struct unpack_opts *opts,
			  struct unpack_stats *stats, struct cuenv_err *err)
{
	struct mem_src ms = {
	    .data = arc->data, .len = arc->len, .chunk = chunk};
	struct unpack_source src = {.read = mem_read, .ctx = &ms};
	char *dest = fx_path(fx, "dest");
	int rc;

	fx_mkdir(fx, "dest");
	rc = unpack_stream(dest, &src, opts, stats, err);
	free(dest);
	return rc;
}

static int unpack_mem(const struct fixture *fx, const struct buf *arc,
		      const struct unpack_opts *opts,
		      struct unpack_stats *stats, struct cuenv_err *err)
{
	return unpack_chunked(fx, arc, 64 << 10, opts, stats, err);
}

/* ---- maps ---------------------------------------------------------------- */

/* Paths under from are kept, with from replaced by to; others skipped. */
struct rule {
	const char *from, *to;
};

static char *map_rule(void *ctx, const char *path)
{
	const struct rule *r = ctx;
	size_t n = strlen(r->from);
	struct buf b = BUF_INIT;

	if (strncmp(path, r->from, n))
		return NULL;
	buf_adds(&b, r->to);
	buf_adds(&b, path + n);
	return buf_detach(&b);
}

/* Records every path it sees and keeps it as it is. */
static char *map_record(void *ctx, const char *path)
{
	strv_push(ctx, path);
	return xstrdup(path);
}

/* ---- helpers for results ------------------------------------------------- */

static void assert_contains(const char *s, const char *part)
{
	if (!strstr(s, part))
		fail_msg("'%s' does not contain '%s'", s, part);
}

static void assert_file(const struct fixture *fx, const char *rel,
			const char *text)
{
	char *got = fx_read(fx, rel);

	assert_string_equal(got, text);
	free(got);
}

static void assert_link(const struct fixture *fx, const char *rel,
			const char *target)
{
	char *p = fx_path(fx, rel);
	char got[256];
	ssize_t n = readlink(p, got, sizeof(got) - 1);

	free(p);
	assert_true(n >= 0);
	got[n] = '\0';
	assert_string_equal(got, target);
}

static mode_t mode_of(const struct fixture *fx, const char *rel)
{
	char *p = fx_path(fx, rel);
	struct stat st;

	assert_int_equal(lstat(p, &st), 0);
	free(p);
	return st.st_mode;
}

static ino_t inode_of(const struct fixture *fx, const char *rel)
{
	char *p = fx_path(fx, rel);
	struct stat st;

	assert_int_equal(lstat(p, &st), 0);
	free(p);
	return st.st_ino;
}

/*
 * Extract the entries with strip 0 and check that they are refused with a
 * message containing why and naming the first entry of the list that is
 * named in name; nothing may appear beside dest.
 */
static void assert_refused(const struct fixture *fx, const struct ent *e,
			   size_t n, const char *name, const char *why)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf arc = BUF_INIT, quoted = BUF_INIT;

	build(&arc, PAX, XZ, e, n);
	assert_int_equal(unpack_mem(fx, &arc, NULL, NULL, &err),
			 CUENV_E_UNPACK);
	buf_printf(&quoted, "refused archive entry '%s'", name);
	assert_contains(err.msg.data, quoted.data);
	assert_contains(err.msg.data, why);
	assert_int_equal(fx_count_entries(fx, ""), 1);
	buf_release(&quoted);
	buf_release(&arc);
	err_release(&err);
}

/* ---- good archives ------------------------------------------------------- */

#define TOP "cuda_cudart-linux-x86_64-12.4.127-archive/"

static const struct ent cudart[] = {
    DIR_(TOP),
    FILE_(TOP "LICENSE", "license text\n"),
    DIR_(TOP "lib/"),
    FILE_(TOP "lib/libcudart.so.12.4.127", "\177ELF cudart"),
    LINK_(TOP "lib/libcudart.so.12", "libcudart.so.12.4.127"),
    LINK_(TOP "lib/libcudart.so", "libcudart.so.12"),
    DIR_(TOP "include/"),
    FILE_(TOP "include/cuda.h", "#define CUDA_VERSION 12040\n"),
};

static void assert_cudart(const struct fixture *fx)
{
	assert_file(fx, "dest/lib/libcudart.so.12.4.127", "\177ELF cudart");
	assert_link(fx, "dest/lib/libcudart.so.12", "libcudart.so.12.4.127");
	assert_link(fx, "dest/lib/libcudart.so", "libcudart.so.12");
	assert_file(fx, "dest/include/cuda.h", "#define CUDA_VERSION 12040\n");
	assert_file(fx, "dest/LICENSE", "license text\n");
	assert_false(fx_exists(fx, "dest/" TOP));
}

static void test_unpack_strip_drops_top_folder(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct unpack_opts opts = {.strip = 1};
	struct unpack_stats stats;
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, cudart, N(cudart));
	assert_int_equal(unpack_mem(fx, &arc, &opts, &stats, &err), CUENV_OK);
	assert_cudart(fx);
	assert_int_equal(fx_count_entries(fx, "dest"), 3);
	/* Everything but the top folder; the bytes of the three files. */
	assert_int_equal(stats.entries, N(cudart) - 1);
	assert_int_equal(stats.bytes, 13 + 11 + 27);
	buf_release(&arc);
}

/* 51 file bytes against a bound of 50: refused, and said to be the bound. */
static void test_unpack_stops_at_max_bytes(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct unpack_opts opts = {.strip = 1, .max_bytes = 50};
	struct unpack_stats stats;
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, cudart, N(cudart));
	assert_int_equal(unpack_mem(fx, &arc, &opts, &stats, &err),
			 CUENV_E_UNPACK);
	assert_non_null(strstr(err.msg.data, "expands past 50 bytes"));
	assert_true(stats.bounded);
	assert_true(stats.bytes <= 50);
	err_release(&err);
	err_init(&err);
	opts.max_bytes = 51;
	assert_int_equal(unpack_mem(fx, &arc, &opts, &stats, &err), CUENV_OK);
	assert_false(stats.bounded);
	buf_release(&arc);
}

/* makeself payloads list "./" first: the root itself, skipped. */
static void test_unpack_skips_the_root_folder_entry(void **state)
{
	static const struct ent dot[] = {
	    DIR_("./"),
	    DIR_("./builds/"),
	    FILE_("./builds/x", "x"),
	};
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct unpack_stats stats;
	struct buf arc = BUF_INIT;

	build(&arc, PAX, GZIP, dot, N(dot));
	assert_int_equal(unpack_mem(fx, &arc, NULL, &stats, &err), CUENV_OK);
	assert_file(fx, "dest/builds/x", "x");
	buf_release(&arc);
}

/* An empty name is still refused for anything but a folder. */
static void test_unpack_refuses_a_file_with_an_empty_name(void **state)
{
	static const struct ent dot[] = {
	    FILE_("./", "x"),
	};
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct unpack_stats stats;
	struct buf arc = BUF_INIT;

	build(&arc, PAX, PLAIN, dot, N(dot));
	assert_int_equal(unpack_mem(fx, &arc, NULL, &stats, &err),
			 CUENV_E_UNPACK);
	err_release(&err);
	buf_release(&arc);
}

static void test_unpack_one_byte_chunks(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct unpack_opts opts = {.strip = 1};
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, cudart, N(cudart));
	assert_int_equal(unpack_chunked(fx, &arc, 1, &opts, NULL, &err),
			 CUENV_OK);
	assert_cudart(fx);
	buf_release(&arc);
}

static void test_unpack_gzip_cpio(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct unpack_opts opts = {.strip = 1};
	struct buf arc = BUF_INIT;

	build(&arc, CPIO, GZIP, cudart, N(cudart));
	assert_int_equal(unpack_mem(fx, &arc, &opts, NULL, &err), CUENV_OK);
	assert_cudart(fx);
	buf_release(&arc);
}

static void test_unpack_large_file_intact(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t size = 3 << 20;
	char *data = noise(size), *got;
	struct ent e[] = {{.path = "lib/big.a", .data = data, .size = size}};
	struct unpack_stats stats;
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, e, N(e));
	assert_int_equal(unpack_chunked(fx, &arc, 4096, NULL, &stats, &err),
			 CUENV_OK);
	assert_int_equal(stats.bytes, size);
	got = fx_read(fx, "dest/lib/big.a");
	assert_memory_equal(got, data, size);
	free(got);
	free(data);
	buf_release(&arc);
}

static void test_unpack_strip_skips_shallow_entries(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct unpack_opts opts = {.strip = 2};
	struct unpack_stats stats;
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, cudart, N(cudart));
	assert_int_equal(unpack_mem(fx, &arc, &opts, &stats, &err), CUENV_OK);
	assert_file(fx, "dest/cuda.h", "#define CUDA_VERSION 12040\n");
	assert_link(fx, "dest/libcudart.so", "libcudart.so.12");
	assert_false(fx_exists(fx, "dest/LICENSE"));
	assert_int_equal(stats.entries, 4);
	buf_release(&arc);
}

static void test_unpack_map_sees_normalised_stripped_path(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct strv seen = STRV_INIT;
	struct unpack_opts opts = {
	    .strip = 1, .map = map_record, .map_ctx = &seen};
	const struct ent e[] = {
	    DIR_("./top/"),
	    FILE_("./top/lib//./libx.so", "x"),
	};
	struct buf arc = BUF_INIT;

	build(&arc, PAX, PLAIN, e, N(e));
	assert_int_equal(unpack_mem(fx, &arc, &opts, NULL, &err), CUENV_OK);
	assert_int_equal(seen.n, 1);
	assert_string_equal(seen.v[0], "lib/libx.so");
	assert_file(fx, "dest/lib/libx.so", "x");
	strv_release(&seen);
	buf_release(&arc);
}

static void test_unpack_map_null_skips_entry(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct rule keep_lib = {"lib/", "lib/"};
	struct unpack_opts opts = {
	    .strip = 1, .map = map_rule, .map_ctx = &keep_lib};
	struct unpack_stats stats;
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, cudart, N(cudart));
	assert_int_equal(unpack_mem(fx, &arc, &opts, &stats, &err), CUENV_OK);
	assert_file(fx, "dest/lib/libcudart.so.12.4.127", "\177ELF cudart");
	assert_link(fx, "dest/lib/libcudart.so", "libcudart.so.12");
	assert_false(fx_exists(fx, "dest/include"));
	assert_false(fx_exists(fx, "dest/LICENSE"));
	assert_int_equal(stats.entries, 3);
	assert_int_equal(stats.bytes, 11);
	buf_release(&arc);
}

static void test_unpack_map_renames_runfile_cupti(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct rule cupti = {"builds/cuda_cupti/extras/", "extras/"};
	struct unpack_opts opts = {.map = map_rule, .map_ctx = &cupti};
	const struct ent e[] = {
	    DIR_("builds/"),
	    FILE_("builds/cuda_cudart/targets/x86_64-linux/lib/"
		  "libcudart.so.12",
		  "cudart"),
	    DIR_("builds/cuda_cupti/extras/CUPTI/lib64/"),
	    FILE_("builds/cuda_cupti/extras/CUPTI/lib64/"
		  "libcupti.so.2024.1.1",
		  "cupti"),
	    HARD_("builds/cuda_cupti/extras/CUPTI/lib64/libcupti.so.12",
		  "builds/cuda_cupti/extras/CUPTI/lib64/"
		  "libcupti.so.2024.1.1"),
	    FILE_("builds/cuda_cupti/extras/CUPTI/include/cupti.h", "h"),
	};
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, e, N(e));
	assert_int_equal(unpack_mem(fx, &arc, &opts, NULL, &err), CUENV_OK);
	assert_file(fx, "dest/extras/CUPTI/lib64/libcupti.so.2024.1.1",
		    "cupti");
	assert_file(fx, "dest/extras/CUPTI/lib64/libcupti.so.12", "cupti");
	assert_int_equal(
	    inode_of(fx, "dest/extras/CUPTI/lib64/libcupti.so.12"),
	    inode_of(fx, "dest/extras/CUPTI/lib64/libcupti.so.2024.1.1"));
	assert_file(fx, "dest/extras/CUPTI/include/cupti.h", "h");
	assert_int_equal(fx_count_entries(fx, "dest"), 1);
	buf_release(&arc);
}

static void test_unpack_symlink_inside_allowed(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct ent e[] = {
	    FILE_("lib64/libfoo.so.1", "foo"),
	    LINK_("lib/libfoo.so", "../lib64/libfoo.so.1"),
	    LINK_("d/up", ".."),
	};
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, e, N(e));
	assert_int_equal(unpack_mem(fx, &arc, NULL, NULL, &err), CUENV_OK);
	assert_link(fx, "dest/lib/libfoo.so", "../lib64/libfoo.so.1");
	assert_file(fx, "dest/lib/libfoo.so", "foo");
	assert_link(fx, "dest/d/up", "..");
	buf_release(&arc);
}

static void test_unpack_hardlink_inside_allowed(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct ent e[] = {
	    FILE_("a/f", "data"),
	    HARD_("b/g", "a/f"),
	};
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, e, N(e));
	assert_int_equal(unpack_mem(fx, &arc, NULL, NULL, &err), CUENV_OK);
	assert_file(fx, "dest/b/g", "data");
	assert_int_equal(inode_of(fx, "dest/b/g"), inode_of(fx, "dest/a/f"));
	buf_release(&arc);
}

static void test_unpack_masks_permissions(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct ent e[] = {
	    {.path = "bin/nvcc", .data = "#!/bin/sh\n", .perm = 0777},
	    {.path = "shared", .data = "x", .perm = 0666},
	    {.path = "ro", .data = "x", .perm = 0444},
	    {.path = "d", .type = AE_IFDIR, .perm = 0577},
	};
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, e, N(e));
	assert_int_equal(unpack_mem(fx, &arc, NULL, NULL, &err), CUENV_OK);
	assert_int_equal(mode_of(fx, "dest/bin/nvcc") & 07777, 0755);
	assert_int_equal(mode_of(fx, "dest/shared") & 07777, 0644);
	assert_int_equal(mode_of(fx, "dest/ro") & 07777, 0444);
	assert_int_equal(mode_of(fx, "dest/d") & 07777, 0755);
	buf_release(&arc);
}

static void test_unpack_does_not_restore_mtime(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct ent e[] = {FILE_("f", "x")};
	struct buf arc = BUF_INIT;
	char *p;
	struct stat st;

	build(&arc, PAX, XZ, e, N(e));
	assert_int_equal(unpack_mem(fx, &arc, NULL, NULL, &err), CUENV_OK);
	p = fx_path(fx, "dest/f");
	assert_int_equal(stat(p, &st), 0);
	free(p);
	assert_true(st.st_mtime > 1000000000);
	buf_release(&arc);
}

/* ---- hostile archives ---------------------------------------------------- */

static void test_unpack_refuses_dotdot_path(void **state)
{
	const struct ent e[] = {FILE_("ok", "fine"), FILE_("../x", "evil")};

	assert_refused(*state, e, N(e), "../x", "path leaves the destination");
	assert_true(fx_exists(*state, "dest/ok"));
}

static void test_unpack_refuses_absolute_path(void **state)
{
	const struct ent e[] = {FILE_("/cuenv-unpack-test-abs", "evil")};

	assert_refused(*state, e, N(e), "/cuenv-unpack-test-abs",
		       "absolute path");
	assert_int_equal(access("/cuenv-unpack-test-abs", F_OK), -1);
	assert_int_equal(fx_count_entries(*state, "dest"), 0);
}

static void test_unpack_refuses_inner_dotdot_path(void **state)
{
	const struct ent e[] = {FILE_("a/../../x", "evil")};

	assert_refused(*state, e, N(e), "a/../../x",
		       "path leaves the destination");
	assert_int_equal(fx_count_entries(*state, "dest"), 0);
}

static void test_unpack_refuses_dotdot_in_stripped_part(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct unpack_opts opts = {.strip = 1};
	const struct ent e[] = {FILE_("../lib/x", "evil")};
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, e, N(e));
	assert_int_equal(unpack_mem(fx, &arc, &opts, NULL, &err),
			 CUENV_E_UNPACK);
	assert_contains(err.msg.data, "'../lib/x'");
	assert_int_equal(fx_count_entries(fx, "dest"), 0);
	buf_release(&arc);
	err_release(&err);
}

static void test_unpack_refuses_symlink_to_absolute(void **state)
{
	const struct ent e[] = {
	    LINK_("etc", "/etc"),
	    FILE_("etc/cuenv-unpack-test", "evil"),
	};

	assert_refused(*state, e, N(e), "etc",
		       "symbolic link to '/etc' leaves the destination");
	assert_false(fx_exists(*state, "dest/etc"));
	assert_int_equal(access("/etc/cuenv-unpack-test", F_OK), -1);
}

static void test_unpack_refuses_symlink_escaping(void **state)
{
	const struct ent e[] = {
	    DIR_("a/"),
	    LINK_("a/b", "../../x"),
	    FILE_("a/b/y", "evil"),
	};

	assert_refused(*state, e, N(e), "a/b",
		       "symbolic link to '../../x' leaves the destination");
	assert_false(fx_exists(*state, "dest/a/b"));
}

static void test_unpack_refuses_symlink_dotdot_after_name(void **state)
{
	/* d/up is "..", so d/s would resolve to the parent of dest. */
	const struct ent e[] = {
	    LINK_("d/up", ".."),
	    LINK_("d/s", "up/../x"),
	};

	assert_refused(*state, e, N(e), "d/s", "has '..' after a name");
	assert_false(fx_exists(*state, "dest/d/s"));
}

static void test_unpack_refuses_writing_through_symlink(void **state)
{
	/* l itself is harmless; libarchive's SECURE_SYMLINKS stops l/f. */
	const struct ent e[] = {
	    DIR_("sub/"),
	    LINK_("l", "sub"),
	    FILE_("l/f", "data"),
	};

	assert_refused(*state, e, N(e), "l/f", "symlink");
	assert_false(fx_exists(*state, "dest/sub/f"));
}

static void test_unpack_refuses_hardlink_escaping(void **state)
{
	const struct ent e[] = {HARD_("h", "../x")};

	assert_refused(*state, e, N(e), "h",
		       "hard link to '../x' leaves the destination");
	assert_int_equal(fx_count_entries(*state, "dest"), 0);
}

static void test_unpack_refuses_hardlink_to_escaping_symlink(void **state)
{
	/* h becomes a copy of the link "..", one folder higher than d/up. */
	const struct ent e[] = {
	    LINK_("d/up", ".."),
	    HARD_("h", "d/up"),
	};

	assert_refused(*state, e, N(e), "h",
		       "hard link to symbolic link 'd/up' leaves the "
		       "destination");
	assert_false(fx_exists(*state, "dest/h"));
}

static void test_unpack_refuses_hardlink_to_skipped_entry(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct rule keep_lib = {"lib/", "lib/"};
	struct unpack_opts opts = {.map = map_rule, .map_ctx = &keep_lib};
	const struct ent e[] = {
	    FILE_("other/f", "data"),
	    HARD_("lib/g", "other/f"),
	};
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, e, N(e));
	assert_int_equal(unpack_mem(fx, &arc, &opts, NULL, &err),
			 CUENV_E_UNPACK);
	assert_contains(err.msg.data, "refused archive entry 'lib/g'");
	assert_contains(err.msg.data, "which is not extracted");
	buf_release(&arc);
	err_release(&err);
}

static void test_unpack_refuses_char_device(void **state)
{
	const struct ent e[] = {{.path = "null", .type = AE_IFCHR}};

	assert_refused(*state, e, N(e), "null", "device node");
	assert_false(fx_exists(*state, "dest/null"));
}

static void test_unpack_refuses_fifo(void **state)
{
	const struct ent e[] = {{.path = "pipe", .type = AE_IFIFO}};

	assert_refused(*state, e, N(e), "pipe", "FIFO");
	assert_false(fx_exists(*state, "dest/pipe"));
}

static void test_unpack_refuses_setuid_file(void **state)
{
	const struct ent e[] = {
	    {.path = "bin/su", .data = "x", .perm = 04755},
	};

	assert_refused(*state, e, N(e), "bin/su", "setuid bit");
	assert_false(fx_exists(*state, "dest/bin/su"));
}

static void test_unpack_refuses_setgid_folder(void **state)
{
	const struct ent e[] = {
	    {.path = "shared", .type = AE_IFDIR, .perm = 02775},
	};

	/* The name is the archive's, with the folder's trailing slash. */
	assert_refused(*state, e, N(e), "shared/", "setgid bit");
	assert_false(fx_exists(*state, "dest/shared"));
}

static void test_unpack_checks_mapped_path(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct rule up = {"lib/", "../"};
	struct unpack_opts opts = {.map = map_rule, .map_ctx = &up};
	const struct ent e[] = {FILE_("lib/x", "evil")};
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, e, N(e));
	assert_int_equal(unpack_mem(fx, &arc, &opts, NULL, &err),
			 CUENV_E_UNPACK);
	assert_contains(err.msg.data, "refused archive entry 'lib/x'");
	assert_contains(err.msg.data, "path leaves the destination");
	assert_int_equal(fx_count_entries(fx, ""), 1);
	buf_release(&arc);
	err_release(&err);
}

/* ---- broken sources and destinations ------------------------------------- */

static void test_unpack_truncated_xz_is_unpack_error(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t size = 256 << 10;
	char *data = noise(size);
	struct ent e[] = {{.path = "lib/big.a", .data = data, .size = size}};
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, e, N(e));
	buf_setlen(&arc, arc.len / 2);
	assert_int_equal(unpack_mem(fx, &arc, NULL, NULL, &err),
			 CUENV_E_UNPACK);
	assert_contains(err.msg.data, "cannot read archive entry 'lib/big.a'");
	free(data);
	buf_release(&arc);
	err_release(&err);
}

static void test_unpack_garbage_is_unpack_error(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf arc = BUF_INIT;

	buf_adds(&arc, "<html><body>404 not found</body></html>\n");
	assert_int_equal(unpack_mem(fx, &arc, NULL, NULL, &err),
			 CUENV_E_UNPACK);
	assert_contains(err.msg.data, "cannot read archive");
	buf_release(&arc);
	err_release(&err);
}

static void test_unpack_stream_refuses_zip(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct ent e[] = {FILE_("f", "x")};
	struct buf arc = BUF_INIT;

	build(&arc, ZIP, PLAIN, e, N(e));
	assert_int_equal(unpack_mem(fx, &arc, NULL, NULL, &err),
			 CUENV_E_UNPACK);
	assert_false(fx_exists(fx, "dest/f"));
	buf_release(&arc);
	err_release(&err);
}

static void test_unpack_source_failure_passed_through(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t size = 512 << 10;
	char *data = noise(size), *dest = fx_path(fx, "dest");
	struct ent e[] = {{.path = "lib/big.a", .data = data, .size = size}};
	struct buf arc = BUF_INIT;
	struct mem_src ms = {.chunk = 4096};
	struct unpack_source src = {.read = mem_read, .ctx = &ms};

	build(&arc, PAX, XZ, e, N(e));
	ms.data = arc.data;
	ms.len = arc.len;
	ms.fail = true;
	ms.fail_at = arc.len / 2;
	fx_mkdir(fx, "dest");
	assert_int_equal(unpack_stream(dest, &src, NULL, NULL, &err),
			 CUENV_E_FETCH);
	assert_string_equal(err.msg.data,
			    "cannot download 'https://example.com/a.tar.xz': "
			    "connection reset");
	free(dest);
	free(data);
	buf_release(&arc);
	err_release(&err);
}

static void test_unpack_source_failure_at_start(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *dest = fx_path(fx, "dest");
	struct mem_src ms = {.data = "", .chunk = 1, .fail = true};
	struct unpack_source src = {.read = mem_read, .ctx = &ms};

	fx_mkdir(fx, "dest");
	assert_int_equal(unpack_stream(dest, &src, NULL, NULL, &err),
			 CUENV_E_FETCH);
	assert_contains(err.msg.data, "connection reset");
	assert_int_equal(ms.reads, 1);
	free(dest);
	err_release(&err);
}

static void test_unpack_write_failure_is_store_error(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	size_t size = 256 << 10;
	char *data = noise(size), *path = fx_path(fx, "dest/big");
	struct ent e[] = {{.path = "big", .data = data, .size = size}};
	struct buf arc = BUF_INIT;
	struct rlimit old, lim;
	void (*old_handler)(int);
	int rc;

	/* Files past 64 KiB fail with EFBIG, even for root (like ENOSPC). */
	build(&arc, PAX, XZ, e, N(e));
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	lim = old;
	lim.rlim_cur = 64 << 10;
	old_handler = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
	rc = unpack_mem(fx, &arc, NULL, NULL, &err);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, old_handler);
	assert_int_equal(rc, CUENV_E_STORE);
	assert_contains(err.msg.data, path);
	assert_contains(err.msg.data, strerror(EFBIG));
	free(path);
	free(data);
	buf_release(&arc);
	err_release(&err);
}

static void test_unpack_dest_under_file_is_store_error(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *dest = fx_path(fx, "file/dest");
	const struct ent e[] = {FILE_("f", "x")};
	struct buf arc = BUF_INIT;
	struct mem_src ms = {.chunk = 4096};
	struct unpack_source src = {.read = mem_read, .ctx = &ms};

	build(&arc, PAX, XZ, e, N(e));
	ms.data = arc.data;
	ms.len = arc.len;
	fx_write(fx, "file", "not a folder\n");
	assert_int_equal(unpack_stream(dest, &src, NULL, NULL, &err),
			 CUENV_E_STORE);
	assert_contains(err.msg.data, dest);
	assert_contains(err.msg.data, strerror(ENOTDIR));
	assert_int_equal(ms.reads, 0);
	free(dest);
	buf_release(&arc);
	err_release(&err);
}

/* ---- empty archives, conflicts, long paths ------------------------------- */

/* Extract e with opts; refused (CUENV_E_UNPACK) with a message holding why. */
static void assert_refused_with(const struct fixture *fx, const struct ent *e,
				size_t n, const struct unpack_opts *opts,
				const char *why)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct buf arc = BUF_INIT;

	build(&arc, PAX, XZ, e, n);
	assert_int_equal(unpack_mem(fx, &arc, opts, NULL, &err),
			 CUENV_E_UNPACK);
	assert_contains(err.msg.data, why);
	assert_null(strchr(err.msg.data, '\n'));
	buf_release(&arc);
	err_release(&err);
}

static void test_unpack_refuses_archive_without_entries(void **state)
{
	assert_refused_with(*state, NULL, 0, NULL,
			    "refused archive: nothing in it to install");
}

static void test_unpack_refuses_archive_of_its_top_folder(void **state)
{
	const struct ent e[] = {DIR_(TOP)};
	struct unpack_opts opts = {.strip = 1};

	assert_refused_with(*state, e, N(e), &opts,
			    "refused archive: nothing in it to install");
}

static char *map_nothing(void *ctx, const char *path)
{
	(void)ctx;
	(void)path;
	return NULL;
}

static void test_unpack_refuses_archive_emptied_by_map(void **state)
{
	struct unpack_opts opts = {.strip = 1, .map = map_nothing};

	assert_refused_with(*state, cudart, N(cudart), &opts,
			    "refused archive: nothing in it to install");
	assert_int_equal(fx_count_entries(*state, "dest"), 0);
}

static void test_unpack_refuses_file_then_folder(void **state)
{
	const struct ent e[] = {
	    FILE_("a", "a file"),
	    DIR_("a/"),
	};

	assert_refused(*state, e, N(e), "a/",
		       "conflicts with an earlier entry");
}

static void test_unpack_refuses_file_then_file_beneath(void **state)
{
	const struct ent e[] = {
	    FILE_("a", "a file"),
	    FILE_("a/b", "beneath a file"),
	};

	assert_refused(*state, e, N(e), "a/b",
		       "conflicts with an earlier entry");
	assert_file(*state, "dest/a", "a file");
}

static void test_unpack_refuses_folder_then_symlink(void **state)
{
	const struct ent e[] = {
	    DIR_("d/"),
	    FILE_("d/f", "in d"),
	    LINK_("d", "elsewhere"),
	};

	assert_refused(*state, e, N(e), "d", "conflicts with an earlier entry");
	assert_file(*state, "dest/d/f", "in d");
}

static void test_unpack_refuses_folder_then_file(void **state)
{
	const struct ent e[] = {
	    DIR_("d/"),
	    FILE_("d/f", "in d"),
	    FILE_("d", "over d"),
	};

	assert_refused(*state, e, N(e), "d", "conflicts with an earlier entry");
}

static void test_unpack_refuses_path_through_looping_links(void **state)
{
	/* Found by fuzz_assemble: lstat's ELOOP was a store error. */
	const struct ent e[] = {
	    LINK_("x", "y"),
	    LINK_("y", "x"),
	    FILE_("x/f", "through the loop"),
	};

	assert_refused(*state, e, N(e), "x/f", "symbolic link");
}

static void test_unpack_refuses_hardlink_through_looping_links(void **state)
{
	/* Found by fuzz_assemble: lstat's ELOOP was a store error. */
	const struct ent e[] = {
	    LINK_("x", "y"),
	    LINK_("y", "x"),
	    HARD_("h", "x/f"),
	};

	assert_refused(*state, e, N(e), "h",
		       "hard link to 'x/f' through a symbolic link");
}

static void test_unpack_refuses_path_beyond_path_max(void **state)
{
	struct fixture *fx = *state;
	struct buf deep = BUF_INIT;
	struct ent e[2] = {FILE_("ok", "fine")};

	while (deep.len < PATH_MAX + 100)
		buf_adds(&deep, "0123456789abcdef0123456789abcdef/");
	buf_adds(&deep, "f");
	e[1] = (struct ent)FILE_(deep.data, "deep");
	assert_refused_with(fx, e, N(e), NULL, "path too long");
	assert_refused_with(fx, e, N(e), NULL, "refused archive entry '0123");
	/* Not one folder of it was made. */
	assert_int_equal(fx_count_entries(fx, "dest"), 1);
	buf_release(&deep);
}

static void test_unpack_refuses_name_beyond_name_max(void **state)
{
	struct buf name = BUF_INIT;
	struct ent e[1];

	while (name.len <= NAME_MAX)
		buf_addc(&name, 'n');
	e[0] = (struct ent)FILE_(name.data, "long");
	assert_refused_with(*state, e, N(e), NULL, "name too long");
	assert_int_equal(fx_count_entries(*state, "dest"), 0);
	buf_release(&name);
}

static void test_unpack_refuses_symlink_target_beyond_path_max(void **state)
{
	struct buf target = BUF_INIT;
	struct ent e[1];

	while (target.len < PATH_MAX)
		buf_adds(&target, "abcdefgh/");
	e[0] = (struct ent)LINK_("l", target.data);
	assert_refused_with(*state, e, N(e), NULL, "target too long");
	assert_int_equal(fx_count_entries(*state, "dest"), 0);
	buf_release(&target);
}

/* ---- archives in files --------------------------------------------------- */

static void test_unpack_file_wheel_with_map(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct rule runtime = {"nvidia/cuda_runtime/", ""};
	struct unpack_opts opts = {.map = map_rule, .map_ctx = &runtime};
	const struct ent e[] = {
	    FILE_("nvidia/__init__.py", ""),
	    DIR_("nvidia/cuda_runtime/"),
	    DIR_("nvidia/cuda_runtime/lib/"),
	    {.path = "nvidia/cuda_runtime/lib/libcudart.so.12",
	     .data = "\177ELF",
	     .perm = 0755},
	    FILE_("nvidia/cuda_runtime/include/cuda.h", "#pragma once\n"),
	    FILE_("nvidia_cuda_runtime_cu12-12.4.127.dist-info/RECORD",
		  "nvidia/cuda_runtime/lib/libcudart.so.12,,\n"),
	};
	struct unpack_stats stats;
	struct buf arc = BUF_INIT;
	char *dest = fx_path(fx, "dest"), *whl = fx_path(fx, "w.whl");

	build(&arc, ZIP, PLAIN, e, N(e));
	fx_write_bytes(fx, "w.whl", arc.data, arc.len);
	fx_mkdir(fx, "dest");
	assert_int_equal(unpack_file(dest, whl, &opts, &stats, &err), CUENV_OK);
	assert_file(fx, "dest/lib/libcudart.so.12", "\177ELF");
	assert_int_equal(mode_of(fx, "dest/lib/libcudart.so.12") & 0777, 0755);
	assert_file(fx, "dest/include/cuda.h", "#pragma once\n");
	assert_int_equal(fx_count_entries(fx, "dest"), 2);
	assert_int_equal(stats.entries, 3);
	free(dest);
	free(whl);
	buf_release(&arc);
}

static void test_unpack_file_tar_xz(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct unpack_opts opts = {.strip = 1};
	struct buf arc = BUF_INIT;
	char *dest = fx_path(fx, "dest"), *tar = fx_path(fx, "a.tar.xz");

	build(&arc, PAX, XZ, cudart, N(cudart));
	fx_write_bytes(fx, "a.tar.xz", arc.data, arc.len);
	fx_mkdir(fx, "dest");
	assert_int_equal(unpack_file(dest, tar, &opts, NULL, &err), CUENV_OK);
	assert_cudart(fx);
	free(dest);
	free(tar);
	buf_release(&arc);
}

static void test_unpack_file_refuses_hostile_zip(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	const struct ent e[] = {FILE_("../x", "evil")};
	struct buf arc = BUF_INIT;
	char *dest = fx_path(fx, "dest"), *whl = fx_path(fx, "w.whl");

	build(&arc, ZIP, PLAIN, e, N(e));
	fx_write_bytes(fx, "w.whl", arc.data, arc.len);
	fx_mkdir(fx, "dest");
	assert_int_equal(unpack_file(dest, whl, NULL, NULL, &err),
			 CUENV_E_UNPACK);
	assert_contains(err.msg.data, "refused archive entry '../x'");
	assert_int_equal(fx_count_entries(fx, ""), 2);
	free(dest);
	free(whl);
	buf_release(&arc);
	err_release(&err);
}

/*
 * A zip's names are checked for Windows whole, before the strip: an entry
 * beside the top folder that the strip would leave out is refused.
 */
static void test_unpack_zip_checks_names_before_strip(void **state)
{
	static const char *const bad[][2] = {
	    {"CON", "Windows device name"},
	    {"NUL.dll", "Windows device name"},
	    {"x.", "name ending with a dot"},
	    /* libarchive reads a zip name without '/' as Windows' "C:/x":
	     * the strip would have kept x */
	    {"C:\\x", "colon in a name"},
	    {"C:", "colon in a name"},
	};
	struct fixture *fx = *state;
	struct unpack_opts opts = {.strip = 1};
	char *dest = fx_path(fx, "dest"), *zip = fx_path(fx, "a.zip");

	fx_mkdir(fx, "dest");
	for (size_t i = 0; i < N(bad); i++) {
		struct cuenv_err err = CUENV_ERR_INIT;
		const struct ent e[] = {FILE_("top/bin/a.dll", "MZ"),
					FILE_(bad[i][0], "evil")};
		struct buf arc = BUF_INIT;

		build(&arc, ZIP, PLAIN, e, N(e));
		fx_write_bytes(fx, "a.zip", arc.data, arc.len);
		assert_int_equal(unpack_file(dest, zip, &opts, NULL, &err),
				 CUENV_E_UNPACK);
		assert_contains(err.msg.data, "refused archive entry '");
		assert_contains(err.msg.data, bad[i][1]);
		buf_release(&arc);
		err_release(&err);
	}
	free(dest);
	free(zip);
}

static void test_unpack_file_missing_is_store_error(void **state)
{
	struct fixture *fx = *state;
	struct cuenv_err err = CUENV_ERR_INIT;
	char *dest = fx_path(fx, "dest"), *whl = fx_path(fx, "none.whl");

	fx_mkdir(fx, "dest");
	assert_int_equal(unpack_file(dest, whl, NULL, NULL, &err),
			 CUENV_E_STORE);
	assert_contains(err.msg.data, whl);
	assert_contains(err.msg.data, strerror(ENOENT));
	free(dest);
	free(whl);
	err_release(&err);
}

/* ---- unpack_check_entry -------------------------------------------------- */

struct check {
	const char *path;
	mode_t type, mode;
	const char *symlink, *hardlink;
	const char *why; /* NULL: accepted */
};

static const struct check checks[] = {
    {"lib/libcudart.so.12", S_IFREG, 0644, NULL, NULL, NULL},
    {"bin/nvcc", S_IFREG, 0755, NULL, NULL, NULL},
    {"lib", S_IFDIR, 0755, NULL, NULL, NULL},
    {"./lib/./x", S_IFREG, 0644, NULL, NULL, NULL},
    {"..x/x..", S_IFREG, 0644, NULL, NULL, NULL},
    {"lib/a.so", S_IFLNK, 0777, "a.so.1", NULL, NULL},
    {"lib/a.so", S_IFLNK, 0777, "../lib64/./a.so", NULL, NULL},
    {"a/b/c", S_IFLNK, 0777, "../../x", NULL, NULL},
    {"a/b/c", S_IFLNK, 0777, "..", NULL, NULL},
    {"a", S_IFLNK, 0777, ".", NULL, NULL},
    {"a/g", S_IFREG, 0644, NULL, "a/f", NULL},
    {"a/g", 0, 0644, NULL, "a/f", NULL},
    {"", S_IFREG, 0644, NULL, NULL, "empty path"},
    {"./", S_IFDIR, 0755, NULL, NULL, "empty path"},
    {"/etc/passwd", S_IFREG, 0644, NULL, NULL, "absolute path"},
    {"..", S_IFDIR, 0755, NULL, NULL, "path leaves the destination"},
    {"a/../../x", S_IFREG, 0644, NULL, NULL, "path leaves the destination"},
    {"a/..", S_IFDIR, 0755, NULL, NULL, "path leaves the destination"},
    {"etc", S_IFLNK, 0777, "/etc", NULL,
     "symbolic link to '/etc' leaves the destination"},
    {"a/b", S_IFLNK, 0777, "../../x", NULL,
     "symbolic link to '../../x' leaves the destination"},
    {"a", S_IFLNK, 0777, "..", NULL,
     "symbolic link to '..' leaves the destination"},
    {"a/b", S_IFLNK, 0777, "x/../../y", NULL, "has '..' after a name"},
    {"a", S_IFLNK, 0777, "", NULL, "symbolic link without a target"},
    {"a", S_IFLNK, 0777, NULL, NULL, "symbolic link without a target"},
    {"h", S_IFREG, 0644, NULL, "../x",
     "hard link to '../x' leaves the destination"},
    {"h", S_IFREG, 0644, NULL, "/bin/sh",
     "hard link to '/bin/sh' leaves the destination"},
    {"null", S_IFCHR, 0666, NULL, NULL, "device node"},
    {"sda", S_IFBLK, 0660, NULL, NULL, "device node"},
    {"pipe", S_IFIFO, 0644, NULL, NULL, "FIFO"},
    {"sock", S_IFSOCK, 0755, NULL, NULL, "socket"},
    {"x", 0, 0644, NULL, NULL, "unknown file type"},
    {"su", S_IFREG, 04755, NULL, NULL, "setuid bit"},
    {"d", S_IFDIR, 02775, NULL, NULL, "setgid bit"},
    {"tmp", S_IFDIR, 01777, NULL, NULL, "sticky bit"},
};

static void test_check_entry_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(checks); i++) {
		const struct check *c = &checks[i];
		struct cuenv_err err = CUENV_ERR_INIT;
		struct buf quoted = BUF_INIT;
		int rc =
		    unpack_check_entry(c->path, c->type, c->mode, c->symlink,
				       c->hardlink, false, &err);

		if (!c->why) {
			if (rc != CUENV_OK)
				fail_msg("'%s' refused: %s", c->path,
					 err.msg.data);
			continue;
		}
		if (rc != CUENV_E_UNPACK)
			fail_msg("'%s' accepted, expected '%s'", c->path,
				 c->why);
		buf_printf(&quoted, "refused archive entry '%s': ", c->path);
		assert_contains(err.msg.data, quoted.data);
		assert_contains(err.msg.data, c->why);
		buf_release(&quoted);
		err_release(&err);
	}
}

/*
 * Names Windows cannot hold as they are, from Microsoft's "Naming Files,
 * Paths, and Namespaces": each hostile form, and names that look close
 * but are fine.
 */
static const struct {
	const char *path, *why; /* why: a word of the reason; NULL: fine */
} windows_names[] = {
    {"bin/cudart64_110.dll", NULL},
    {"cudnn-windows-x86_64-8.9.7.29_cuda12-archive/bin/cudnn64_8.dll", NULL},
    {"include/crt/host_config.h", NULL},
    {"lib/x64/cudart.lib", NULL},
    {"./a/./b", NULL},
    {"console/x", NULL}, /* CON only as the whole base name */
    {"nulx.txt", NULL},
    {"com10", NULL}, /* COM0-9 only */
    {"lpt", NULL},
    {"a.b.c", NULL},
    {"caf\xc3\xa9.txt", NULL},
    {"..\\..\\evil.dll", "backslash"},
    {"a\\b", "backslash"},
    {"\\x", "backslash"},
    {"\\\\server\\share\\x", "backslash"},
    {"\\\\?\\C:\\x", "backslash"},
    {"C:\\Windows\\System32\\cudart64_110.dll", "a drive"},
    {"C:x", "colon"},
    {"bin/cudart64_110.dll:payload", "colon"},
    {"bin/x::$DATA", "colon"},
    {"CON", "device name"},
    {"bin/nul.txt", "device name"},
    {"Aux.h", "device name"},
    {"prn", "device name"},
    {"COM1", "device name"},
    {"lpt9.dll", "device name"},
    {"com\xc2\xb9", "device name"},
    {"nul .txt", "device name"},
    {"bin./x", "dot or a space"},
    {"bin/x.dll ", "dot or a space"},
    {"bin/x...", "dot or a space"},
    {"a\tb", "control character"},
    {"a<b", "does not allow"},
    {"a|b", "does not allow"},
    {"what?", "does not allow"},
    {"*.dll", "does not allow"},
    {"say\"hi\"", "does not allow"},
};

static void test_windows_name_problems(void **state)
{
	(void)state;
	for (size_t i = 0; i < N(windows_names); i++) {
		const char *why =
		    unpack_windows_name_problem(windows_names[i].path);

		if (!windows_names[i].why && why)
			fail_msg("'%s' refused: %s", windows_names[i].path,
				 why);
		if (windows_names[i].why && !why)
			fail_msg("'%s' accepted", windows_names[i].path);
		if (why)
			assert_contains(why, windows_names[i].why);
	}
}

/* A zip's entry and link targets are checked for Windows; a tar's not. */
static void test_check_entry_windows_also_checks_links(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(
	    unpack_check_entry("a\\b", S_IFREG, 0644, NULL, NULL, false, &err),
	    CUENV_OK);
	assert_int_equal(
	    unpack_check_entry("a\\b", S_IFREG, 0644, NULL, NULL, true, &err),
	    CUENV_E_UNPACK);
	/* the name shown with its backslash escaped, as every name is */
	assert_contains(err.msg.data, "refused archive entry 'a\\x5cb': "
				      "backslash in a name");
	err_release(&err);
	err_init(&err);
	assert_int_equal(unpack_check_entry("lib/a.dll", S_IFLNK, 0777,
					    "..\\..\\x", NULL, true, &err),
			 CUENV_E_UNPACK);
	assert_contains(err.msg.data, "symbolic link to '..\\x5c..\\x5cx'");
	err_release(&err);
	err_init(&err);
	assert_int_equal(unpack_check_entry("lib/h", S_IFREG, 0644, NULL,
					    "lib/aux", true, &err),
			 CUENV_E_UNPACK);
	assert_contains(err.msg.data, "hard link to 'lib/aux'");
	err_release(&err);
	err_init(&err);
	/* the POSIX checks come first */
	assert_int_equal(
	    unpack_check_entry("../x", S_IFREG, 0644, NULL, NULL, true, &err),
	    CUENV_E_UNPACK);
	assert_contains(err.msg.data, "path leaves the destination");
	err_release(&err);
}

static void test_check_entry_shows_control_characters_escaped(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;

	(void)state;
	assert_int_equal(
	    unpack_check_entry("/a\nb", S_IFREG, 0644, NULL, NULL, false, &err),
	    CUENV_E_UNPACK);
	assert_null(strchr(err.msg.data, '\n'));
	assert_contains(err.msg.data, "'/a\\x0ab'");
	err_release(&err);
}

/* ---- makeself ------------------------------------------------------------ */

static void test_makeself_skip_variable(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	const char head[] = "#!/bin/sh\n"
			    "# This script was generated using Makeself 2.4.5\n"
			    "skip=\"3\"\n"
			    "\xfd"
			    "7zXZ\0\0payload";
	uint64_t off = 0;

	(void)state;
	assert_int_equal(
	    unpack_makeself_offset(head, sizeof(head) - 1, &off, &err),
	    CUENV_OK);
	assert_int_equal(off, strchr(head, '\xfd') - head);
}

static void test_makeself_literal_head_n(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	const char head[] = "#!/bin/sh\n"
			    "# Makeself 2.1.5\n"
			    "label=\"CUDA\"\n"
			    "offset=`head -n 5 \"$0\" | wc -c | tr -d \" \"`\n"
			    "exit 0\n"
			    "\x1f\x8b\x08\0payload";
	uint64_t off = 0;

	(void)state;
	assert_int_equal(
	    unpack_makeself_offset(head, sizeof(head) - 1, &off, &err),
	    CUENV_OK);
	assert_int_equal(off, strchr(head, '\x1f') - head);
}

static void test_makeself_without_count_refused(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	const char head[] = "#!/bin/sh\n"
			    "head -n \"$skip\" \"$0\"\n"
			    "echo hello\n";
	uint64_t off = 7;

	(void)state;
	assert_int_equal(
	    unpack_makeself_offset(head, sizeof(head) - 1, &off, &err),
	    CUENV_E_UNPACK);
	assert_contains(err.msg.data, "not a makeself archive");
	assert_int_equal(off, 7);
	err_release(&err);
}

static void test_makeself_not_a_script_refused(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	const char head[] = "\x7f"
			    "ELF skip=\"1\"\n";
	uint64_t off = 0;

	(void)state;
	assert_int_equal(
	    unpack_makeself_offset(head, sizeof(head) - 1, &off, &err),
	    CUENV_E_UNPACK);
	assert_contains(err.msg.data, "not a makeself archive");
	err_release(&err);
}

static void test_makeself_count_beyond_len_refused(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	const char head[] = "#!/bin/sh\nskip=\"700\"\nCRCsum=\"1\"\n";
	uint64_t off = 0;

	(void)state;
	assert_int_equal(
	    unpack_makeself_offset(head, sizeof(head) - 1, &off, &err),
	    CUENV_E_UNPACK);
	assert_contains(err.msg.data, "700 lines");
	err_release(&err);
}

static void test_makeself_count_after_header_refused(void **state)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	/* Line 4 claims a 1-line header: it would lie in the payload. */
	const char head[] = "#!/bin/sh\necho a\necho b\nskip=\"1\"\n";
	uint64_t off = 0;

	(void)state;
	assert_int_equal(
	    unpack_makeself_offset(head, sizeof(head) - 1, &off, &err),
	    CUENV_E_UNPACK);
	assert_contains(err.msg.data, "not a makeself archive");
	err_release(&err);
}

/* ---- main ---------------------------------------------------------------- */

#define FX(t) cmocka_unit_test_setup_teardown(t, fx_setup, fx_teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
	    FX(test_unpack_strip_drops_top_folder),
	    FX(test_unpack_stops_at_max_bytes),
	    FX(test_unpack_skips_the_root_folder_entry),
	    FX(test_unpack_refuses_a_file_with_an_empty_name),
	    FX(test_unpack_one_byte_chunks),
	    FX(test_unpack_gzip_cpio),
	    FX(test_unpack_large_file_intact),
	    FX(test_unpack_strip_skips_shallow_entries),
	    FX(test_unpack_map_sees_normalised_stripped_path),
	    FX(test_unpack_map_null_skips_entry),
	    FX(test_unpack_map_renames_runfile_cupti),
	    FX(test_unpack_symlink_inside_allowed),
	    FX(test_unpack_hardlink_inside_allowed),
	    FX(test_unpack_masks_permissions),
	    FX(test_unpack_does_not_restore_mtime),
	    FX(test_unpack_refuses_dotdot_path),
	    FX(test_unpack_refuses_absolute_path),
	    FX(test_unpack_refuses_inner_dotdot_path),
	    FX(test_unpack_refuses_dotdot_in_stripped_part),
	    FX(test_unpack_refuses_symlink_to_absolute),
	    FX(test_unpack_refuses_symlink_escaping),
	    FX(test_unpack_refuses_symlink_dotdot_after_name),
	    FX(test_unpack_refuses_writing_through_symlink),
	    FX(test_unpack_refuses_hardlink_escaping),
	    FX(test_unpack_refuses_hardlink_to_escaping_symlink),
	    FX(test_unpack_refuses_hardlink_to_skipped_entry),
	    FX(test_unpack_refuses_char_device),
	    FX(test_unpack_refuses_fifo),
	    FX(test_unpack_refuses_setuid_file),
	    FX(test_unpack_refuses_setgid_folder),
	    FX(test_unpack_checks_mapped_path),
	    FX(test_unpack_truncated_xz_is_unpack_error),
	    FX(test_unpack_garbage_is_unpack_error),
	    FX(test_unpack_stream_refuses_zip),
	    FX(test_unpack_source_failure_passed_through),
	    FX(test_unpack_source_failure_at_start),
	    FX(test_unpack_write_failure_is_store_error),
	    FX(test_unpack_dest_under_file_is_store_error),
	    FX(test_unpack_refuses_archive_without_entries),
	    FX(test_unpack_refuses_archive_of_its_top_folder),
	    FX(test_unpack_refuses_archive_emptied_by_map),
	    FX(test_unpack_refuses_file_then_folder),
	    FX(test_unpack_refuses_file_then_file_beneath),
	    FX(test_unpack_refuses_folder_then_symlink),
	    FX(test_unpack_refuses_folder_then_file),
	    FX(test_unpack_refuses_path_through_looping_links),
	    FX(test_unpack_refuses_hardlink_through_looping_links),
	    FX(test_unpack_refuses_path_beyond_path_max),
	    FX(test_unpack_refuses_name_beyond_name_max),
	    FX(test_unpack_refuses_symlink_target_beyond_path_max),
	    FX(test_unpack_file_wheel_with_map),
	    FX(test_unpack_file_tar_xz),
	    FX(test_unpack_file_refuses_hostile_zip),
	    FX(test_unpack_zip_checks_names_before_strip),
	    FX(test_unpack_file_missing_is_store_error),
	    cmocka_unit_test(test_check_entry_table),
	    cmocka_unit_test(test_windows_name_problems),
	    cmocka_unit_test(test_check_entry_windows_also_checks_links),
	    cmocka_unit_test(test_check_entry_shows_control_characters_escaped),
	    cmocka_unit_test(test_makeself_skip_variable),
	    cmocka_unit_test(test_makeself_literal_head_n),
	    cmocka_unit_test(test_makeself_without_count_refused),
	    cmocka_unit_test(test_makeself_not_a_script_refused),
	    cmocka_unit_test(test_makeself_count_beyond_len_refused),
	    cmocka_unit_test(test_makeself_count_after_header_refused),
	};

	if (getenv("CUENV_TEST_FILTER"))
		cmocka_set_test_filter(getenv("CUENV_TEST_FILTER"));
	return cmocka_run_group_tests(tests, NULL, NULL);
}
