/*
 * install_checks.h: the install pipeline's core under wine, included by
 * test_core.c after fs_checks.h (uses check, check_str, check_int).
 *
 * A zip is written by libarchive's own writer (names given as UTF-16, the
 * header charset UTF-8, as NVIDIA's and pip's zips carry them) and
 * unpacked by unpack_file into a folder under GetTempPathW whose path has
 * a space and non-ASCII letters; an archive with a name leaving the
 * destination is refused and nothing lands outside it. Then a store
 * opened at that drive-letter path (C:\...) commits the unpacked tree:
 * its receipt is written, read back and listed. Expected values are
 * written by hand.
 */
#include <archive.h>
#include <archive_entry.h>

#include "../../core/store/assemble.h"
#include "../../core/nvidia/catalog.h"
#include "../../core/net/digest.h"
#include "../../core/net/fetch.h"
#include "../../core/install/install.h"
#include "../../core/net/unpack.h"

#define GRUSSE_H                                                               \
	"Gr\xc3\xbc\xc3\x9f"                                                   \
	"e.h"

/* A zip of n entries (UTF-16 names; a name ending in '/' is a folder). */
static int write_zip(const char *path, const wchar_t *const *names,
		     const char *const *texts, size_t n)
{
	struct archive *a = archive_write_new();
	struct archive_entry *e = archive_entry_new();
	char *buf = xmalloc(1 << 16);
	size_t used = 0;
	int rc = -1, fd = -1;

	if (archive_write_set_format_zip(a) != ARCHIVE_OK ||
	    archive_write_set_options(a, "hdrcharset=UTF-8") != ARCHIVE_OK ||
	    archive_write_open_memory(a, buf, 1 << 16, &used) != ARCHIVE_OK)
		goto out;
	for (size_t i = 0; i < n; i++) {
		size_t len = wcslen(names[i]);
		int dir = names[i][len - 1] == L'/';
		size_t size = dir ? 0 : strlen(texts[i]);

		archive_entry_clear(e);
		archive_entry_copy_pathname_w(e, names[i]);
		archive_entry_set_filetype(e, dir ? AE_IFDIR : AE_IFREG);
		archive_entry_set_perm(e, dir ? 0755 : 0644);
		archive_entry_set_size(e, (la_int64_t)size);
		archive_entry_set_mtime(e, 1700000000, 0);
		if (archive_write_header(a, e) != ARCHIVE_OK ||
		    (size &&
		     archive_write_data(a, texts[i], size) != (la_ssize_t)size))
			goto out;
	}
	if (archive_write_close(a) != ARCHIVE_OK)
		goto out;
	fd = plat_open(path, PLAT_O_WRITE | PLAT_O_CREATE | PLAT_O_TRUNC, 0644);
	if (fd >= 0 && !file_write_full(fd, buf, used))
		rc = 0;
out:
	if (rc)
		printf("write_zip: %s\n", archive_error_string(a));
	if (fd >= 0)
		plat_close(fd);
	archive_entry_free(e);
	archive_write_free(a);
	free(buf);
	return rc;
}

/* unpack_stream's source: one block of memory. */
struct mem_src {
	const char *data;
	size_t len;
	int done;
};

static ssize_t mem_read(void *ctx, const void **buf, struct cuenv_err *err)
{
	struct mem_src *m = ctx;

	(void)err;
	if (m->done)
		return 0;
	m->done = 1;
	*buf = m->data;
	return (ssize_t)m->len;
}

/* Does file_read give path's bytes as want? */
static void check_file(const char *what, const char *path, const char *want)
{
	struct buf text = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;

	if (file_read(path, 1 << 20, 0, &text, &err))
		check(0, what, err.msg.data, want);
	else
		check_str(what, text.data, want);
	buf_release(&text);
	err_release(&err);
}

/* path (C:\...) as a file:///C:/... URL, bytes outside [A-Za-z0-9/:._-]
 * percent-encoded. */
static void file_url(const char *path, struct buf *out)
{
	buf_adds(out, "file:///");
	for (const unsigned char *c = (const unsigned char *)path; *c; c++) {
		if (*c == '\\')
			buf_addc(out, '/');
		else if ((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
			 (*c >= '0' && *c <= '9') || strchr("/:._-", *c))
			buf_addc(out, (char)*c);
		else
			buf_printf(out, "%%%02X", *c);
	}
}

/* fetch_curl's file:// reader (a mirror on disk), from offset 0 and 2. */
static void fetch_checks(const char *root)
{
	struct fetch_opts o = FETCH_OPTS_INIT;
	struct buf p = BUF_INIT, url = BUF_INIT, got = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct fetch *f;
	const void *data;
	ssize_t n;
	int rc;

	o.allow_file = 1;
	buf_printf(&p, "%s\\mirror " CAFE ".txt", root);
	check_int("write the mirror's file", put_text(p.data, "abc\r\n"), 0);
	file_url(p.data, &url);
	rc = fetch_to_buf(url.data, &o, 1 << 20, &got, &err);
	check(rc == 0, "fetch file:///C:/...", err.msg.data, "0");
	check_str("  its bytes", got.data, "abc\r\n");
	f = fetch_open(url.data, 2, 0, &o);
	n = fetch_read(f, &data, &err);
	check(n == 3 && !memcmp(data, "c\r\n", 3), "fetch from offset 2",
	      n < 0 ? err.msg.data : "other bytes", "c CR LF");
	fetch_close(f);
	rc = fetch_to_buf("file://elsewhere/x", &o, 1 << 20, &got, &err);
	check_int("another host's file refused", rc, CUENV_E_FETCH);
	check_str("  message", err.msg.data,
		  "cannot download 'file://elsewhere/x': the file is on "
		  "another host");
	plat_unlink(p.data);
	buf_release(&p);
	buf_release(&url);
	buf_release(&got);
	err_release(&err);
}

#define RT_TOP L"cuda_cudart-windows-x86_64-12.4.127-archive"
#define RT_REL                                                                 \
	"cuda_cudart/windows-x86_64/cuda_cudart-windows-x86_64-12.4.127-archive.zip"

/*
 * install_run end to end: NVIDIA's windows-x86_64 layout of cuda_cudart
 * as a zip in a file:// mirror under root, its catalogue entry, a store
 * under root: the version is installed, its receipt read back.
 */
static void install_run_checks(const char *root)
{
	static const wchar_t *const names[] = {
		RT_TOP L"/bin/cudart64_12.dll",
		RT_TOP L"/include/cuda_runtime_api.h",
		RT_TOP L"/lib/x64/cudart.lib",
		RT_TOP L"/LICENSE",
	};
	static const char *const texts[] = { "MZ cudart\r\n",
					     "#define CUDART_VERSION 12040\n",
					     "!<arch>\n", "license\n" };
	struct buf p = BUF_INIT, json = BUF_INIT, url = BUF_INIT,
		   sroot = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct catalog cat = { 0 };
	struct store s = { 0 };
	struct store_version out, back;
	struct install_opts o = { .fetch = FETCH_OPTS_INIT };
	char sha[DIGEST_HEX_LEN + 1] = "";
	struct plat_stat st;
	int rc;

	store_version_init(&out, KIT_CUDA);
	buf_printf(&p,
		   "%s\\mirror\\compute\\cuda\\redist\\cuda_cudart"
		   "\\windows-x86_64",
		   root);
	rc = store_mkdir_p(p.data, &err);
	buf_reset(&p);
	buf_printf(&p, "%s\\mirror\\compute\\cuda\\redist\\" RT_REL, root);
	if (!rc)
		rc = write_zip(p.data, names, texts, 4);
	if (!rc)
		rc = digest_file(p.data, sha, &err);
	if (!rc)
		rc = plat_stat(p.data, &st);
	check(rc == 0, "install: the mirror's zip", err.msg.data, "0");
	if (rc)
		goto out;
	buf_printf(&json,
		   "{\"release_label\": \"12.4.1\", \"release_product\": "
		   "\"cuda\", \"cuda_cudart\": {\"version\": \"12.4.127\", "
		   "\"windows-x86_64\": {\"relative_path\": \"" RT_REL "\", "
		   "\"sha256\": \"%s\", \"size\": \"%llu\"}}}",
		   sha, (unsigned long long)st.size);
	rc = catalog_parse_redist(&cat, "t.json", json.data, json.len,
				  "windows-x86_64", NULL, NULL, &err);
	check(rc == 0 && cat.n == 1, "catalogue for windows-x86_64",
	      err.msg.data, "one release");
	if (rc || cat.n != 1)
		goto out;
	buf_printf(&sroot, "%s\\store \xc3\xbc", root);
	rc = store_open(&s, sroot.data, true, &err);
	check(rc == 0, "install: store_open", err.msg.data, "0");
	buf_reset(&p);
	buf_printf(&p, "%s\\mirror", root);
	file_url(p.data, &url);
	o.mirror = url.data;
	o.fetch.allow_file = 1;
	o.fetch.backoff_ms = 1;
	o.jobs = 2;
	rc = install_run(&s, cat.v[0], &o, &out, &err);
	check(rc == 0, "install_run cuda 12.4.1 from a file:// mirror",
	      err.msg.data, "0");
	if (rc)
		goto out;
	buf_reset(&p);
	buf_printf(&p, "%s\\versions\\cuda\\12.4.1", sroot.data);
	check_str("  its folder", out.dir, p.data);
	buf_reset(&p);
	buf_printf(&p, "%s\\bin\\cudart64_12.dll", out.dir);
	check_file("  bin\\cudart64_12.dll", p.data, "MZ cudart\r\n");
	rc = store_read_receipt(out.dir, &back, &err);
	check(rc == 0, "  its receipt", err.msg.data, "0");
	check_str("  version", back.version, "12.4.1");
	check_int("  a bin folder", (long long)back.bin.n, 1);
	store_version_release(&back);
	/* again: already there */
	store_version_release(&out);
	store_version_init(&out, KIT_CUDA);
	rc = install_run(&s, cat.v[0], &o, &out, &err);
	check_int("  again: CUENV_NO", rc, CUENV_NO);
out:
	store_version_release(&out);
	catalog_release(&cat);
	store_release(&s);
	buf_release(&p);
	buf_release(&json);
	buf_release(&url);
	buf_release(&sroot);
	err_release(&err);
}

static void install_checks(void)
{
	static const wchar_t *const good[] = {
		L"cuda/",
		L"cuda/bin/nvcc.exe",
		L"cuda/include/Gr\u00fc\u00dfe.h",
		L"cuda/lib/x64/cudart.lib",
	};
	static const char *const good_text[] = { "", "MZ nvcc\r\n",
						 "#define GRUSSE 1\n",
						 "!<arch>\n" };
	static const wchar_t *const bad[] = {
		L"cuda/ok.txt",
		L"../escaped.txt",
	};
	static const char *const bad_text[] = { "fine\n", "outside\n" };
	static const wchar_t *const out[] = {
		L"..\\escaped.txt", L"cuda\\..\\..\\escaped.txt",
		L"C:/escaped.txt",  L"C:escaped.txt",
		L"/escaped.txt",    L"\\escaped.txt",
		L"x.txt:stream",    L"cuda/CON",
		L"cuda/nul.txt",
	};
	wchar_t wtmp[MAX_PATH + 1];
	char tmp[4 * MAX_PATH];
	struct buf root = BUF_INIT, zip = BUF_INIT, dest = BUF_INIT,
		   p = BUF_INIT, sroot = BUF_INIT;
	struct cuenv_err err = CUENV_ERR_INIT;
	struct unpack_stats stats;
	struct plat_stat st;
	struct store s = { 0 }, rel = { 0 };
	struct store_version in, back;
	struct store_version_list list = { 0 };
	struct assemble *a = NULL;
	uint64_t avail = 0, total = 0;
	int rc;

	if (!GetTempPathW(MAX_PATH + 1, wtmp) ||
	    !WideCharToMultiByte(CP_UTF8, 0, wtmp, -1, tmp, sizeof tmp, NULL,
				 NULL)) {
		check(0, "GetTempPathW", "failed", "a folder");
		return;
	}
	buf_printf(&root, "%scuenv install %lu-%llu " CAFE, tmp,
		   (unsigned long)GetCurrentProcessId(),
		   (unsigned long long)GetTickCount64());
	check_int("install: mkdir root", plat_mkdir(root.data, 0755), 0);
	fetch_checks(root.data);
	install_run_checks(root.data);

	/* a good zip, unpacked into "unpacked ü" */
	buf_printf(&zip, "%s\\good archive.zip", root.data);
	check_int("write a zip", write_zip(zip.data, good, good_text, 4), 0);
	buf_printf(&dest, "%s\\unpacked \xc3\xbc", root.data);
	check_int("mkdir dest", plat_mkdir(dest.data, 0755), 0);
	rc = unpack_file(dest.data, zip.data, NULL, &stats, &err);
	check(rc == 0, "unpack_file the zip", err.msg.data, "0");
	check_int("  entries", (long long)stats.entries, 4);
	check_int("  bytes", (long long)stats.bytes, 9 + 17 + 8);
	buf_printf(&p, "%s\\cuda\\bin\\nvcc.exe", dest.data);
	check_file("  nvcc.exe's bytes (CRLF kept)", p.data, "MZ nvcc\r\n");
	buf_reset(&p);
	buf_printf(&p, "%s\\cuda\\include\\" GRUSSE_H, dest.data);
	check_file("  a non-ASCII name", p.data, "#define GRUSSE 1\n");
	buf_reset(&p);
	buf_printf(&p, "%s\\cuda\\lib\\x64\\cudart.lib", dest.data);
	check_file("  lib\\x64", p.data, "!<arch>\n");

	/* the unpacked tree assembled into a version folder: hard links */
	buf_reset(&p);
	buf_printf(&p, "%s\\version \xc3\xbc", root.data);
	check_int("mkdir version", plat_mkdir(p.data, 0755), 0);
	rc = assemble_open(&a, p.data, &err);
	if (!rc)
		rc = assemble_add(a, dest.data, "good archive.zip", &err);
	check(rc == 0, "assemble the tree", err.msg.data, "0");
	if (!rc) /* the same tree again: its files are there, the same kind */
		rc = assemble_add(a, dest.data, "again.zip", &err);
	check(rc == 0, "  and again", err.msg.data, "0");
	assemble_free(a);
	buf_addc(&p, '\\');
	buf_adds(&p, "cuda\\include\\" GRUSSE_H);
	check_file("  the assembled file", p.data, "#define GRUSSE 1\n");
	check_int("  a hard link to the unpacked one",
		  plat_stat(p.data, &st) ? -1 : (long long)st.nlink, 2);
	check_int("disk space", plat_disk_space(root.data, &avail, &total), 0);
	check(avail > 0 && avail <= total, "  0 < free <= size", "no", "yes");

	/* a hostile zip: refused, nothing outside the destination */
	buf_reset(&zip);
	buf_printf(&zip, "%s\\bad archive.zip", root.data);
	check_int("write a hostile zip", write_zip(zip.data, bad, bad_text, 2),
		  0);
	buf_reset(&p);
	buf_printf(&p, "%s\\hostile", root.data);
	check_int("mkdir hostile dest", plat_mkdir(p.data, 0755), 0);
	rc = unpack_file(p.data, zip.data, NULL, &stats, &err);
	check_int("hostile zip refused", rc, CUENV_E_UNPACK);
	check_str("  message", err.msg.data,
		  "refused archive entry '../escaped.txt': path leaves the "
		  "destination");
	buf_reset(&p);
	buf_printf(&p, "%s\\escaped.txt", root.data);
	errno = 0;
	check_int("  nothing written outside", plat_stat(p.data, &st), -1);
	check_int("  errno ENOENT", errno, ENOENT);
	buf_reset(&p);
	buf_printf(&p, "%s\\hostile\\cuda\\ok.txt", root.data);
	check_file("  the entry before it", p.data, "fine\n");

	/* Windows' own ways out: '\\', a drive, a stream, a device name */
	for (size_t i = 0; i < sizeof(out) / sizeof(*out); i++) {
		const wchar_t *names[] = { out[i] };
		const char *texts[] = { "outside\n" };

		buf_reset(&zip);
		buf_printf(&zip, "%s\\out %zu.zip", root.data, i);
		buf_reset(&p);
		buf_printf(&p, "%s\\hostile %zu", root.data, i);
		plat_mkdir(p.data, 0755);
		rc = write_zip(zip.data, names, texts, 1);
		if (!rc)
			rc = unpack_file(p.data, zip.data, NULL, &stats, &err);
		check(rc == CUENV_E_UNPACK, "a way out refused",
		      rc ? err.msg.data : "extracted", "refused");
		check_int("  nothing extracted", (long long)stats.entries, 0);
	}
	buf_reset(&p);
	buf_printf(&p, "%s\\escaped.txt", root.data);
	check_int("  no escaped.txt beside", plat_stat(p.data, &st), -1);
	check_int("  none at C:\\", plat_stat("C:\\escaped.txt", &st), -1);

	/*
	 * xz without liblzma (this build): refused as unknown, not handed to
	 * an `xz -d` found in PATH (libarchive's fallback).
	 */
	{
		static const char xz[] = "\xfd"
					 "7zXZ\0\0\x04\xe6\xd6\xb4\x46"
					 "\x02\0\x21\x01\x16\0\0\0";
		struct mem_src m = { xz, sizeof(xz) - 1, 0 };
		struct unpack_source src = { mem_read, &m };

		buf_reset(&p);
		buf_printf(&p, "%s\\hostile", root.data);
		rc = unpack_stream(p.data, &src, NULL, &stats, &err);
		check_int("xz stream without liblzma", rc, CUENV_E_UNPACK);
		check_str("  message", err.msg.data,
			  "cannot read archive: unrecognized archive format");
	}

	/* a store at a drive-letter path: commit, receipt, read back */
	buf_printf(&sroot, "%s\\store root", root.data);
	rc = store_open(&s, sroot.data, true, &err);
	check(rc == 0, "store_open C:\\...", err.msg.data, "0");
	buf_reset(&p);
	buf_printf(&p, "%s\\versions\\cuda", sroot.data);
	check_int("  versions\\cuda made",
		  plat_stat(p.data, &st) ? -1 : (long long)st.type, PLAT_F_DIR);
	check_int("store_open relative refused",
		  store_open(&rel, "store", true, &err), CUENV_E_STORE);
	store_release(&rel);
	check_int("store_open drive-relative refused",
		  store_open(&rel, "C:store", true, &err), CUENV_E_STORE);
	store_release(&rel);
	buf_reset(&p);
	buf_printf(&p, "%s\\a\\b/c", sroot.data);
	rc = store_mkdir_p(p.data, &err);
	check(rc == 0 && !plat_stat(p.data, &st) && st.type == PLAT_F_DIR,
	      "store_mkdir_p a\\b/c", err.msg.data, "a folder");

	store_version_init(&in, KIT_CUDA);
	in.version = xstrdup("12.4.1");
	in.cuda_major = 12;
	buf_reset(&p);
	buf_printf(&p, "%s\\cuda\\bin", dest.data);
	strv_push(&in.bin, p.data);
	buf_reset(&p);
	buf_printf(&p, "%s\\cuda\\lib\\x64", dest.data);
	strv_push(&in.lib, p.data);
	buf_reset(&p);
	buf_printf(&p, "%s\\cuda\\include", dest.data);
	strv_push(&in.include, p.data);
	strv_push(&in.sources, "cuda_nvcc 0123 https://example.com/x.zip");
	/* the staged tree must be on the store's volume: it is */
	buf_reset(&p);
	buf_printf(&p, "%s\\.staging\\stage \xc3\xbc", sroot.data);
	check_int("rename the tree into .staging",
		  plat_rename(dest.data, p.data), 0);
	strv_release(&in.bin);
	strv_release(&in.lib);
	strv_release(&in.include);
	buf_reset(&dest);
	buf_adds(&dest, p.data);
	buf_reset(&p);
	buf_printf(&p, "%s\\cuda\\bin", dest.data);
	strv_push(&in.bin, p.data);
	buf_reset(&p);
	buf_printf(&p, "%s\\cuda\\lib\\x64", dest.data);
	strv_push(&in.lib, p.data);
	rc = store_commit(&s, &in, dest.data, &err);
	check(rc == 0, "store_commit", err.msg.data, "0");
	buf_reset(&p);
	buf_printf(&p, "%s\\versions\\cuda\\12.4.1", sroot.data);
	check_str("  its folder", in.dir, p.data);
	rc = store_read_receipt(in.dir, &back, &err);
	check(rc == 0, "store_read_receipt", err.msg.data, "0");
	check_str("  version", back.version, "12.4.1");
	check_str("  name (after the last separator)", back.name, "12.4.1");
	check_int("  cuda major", back.cuda_major, 12);
	check_int("  one bin", (long long)back.bin.n, 1);
	buf_reset(&p);
	buf_printf(&p, "%s\\cuda\\bin", in.dir);
	check_str("  bin", back.bin.n ? back.bin.v[0] : NULL, p.data);
	buf_reset(&p);
	buf_printf(&p, "%s\\cuda\\lib\\x64", in.dir);
	check_str("  lib", back.lib.n ? back.lib.v[0] : NULL, p.data);
	check_str("  sources", back.sources.n ? back.sources.v[0] : NULL,
		  "cuda_nvcc 0123 https://example.com/x.zip");
	buf_reset(&p);
	buf_printf(&p, "%s/cuda/include/" GRUSSE_H, in.dir);
	check_file("  the files came along", p.data, "#define GRUSSE 1\n");
	store_version_release(&back);
	rc = store_list(&s, KIT_CUDA, &list, &err);
	check(rc == 0 && list.n == 1, "store_list", err.msg.data, "one");
	check_str("  listed", list.n ? list.v[0]->version : NULL, "12.4.1");
	store_version_list_release(&list);

	check_int("remove the store", store_remove_tree(sroot.data), 0);
	check_int("remove the test folder", store_remove_tree(root.data), 0);
	errno = 0;
	check_int("  gone", plat_stat(root.data, &st), -1);
	store_version_release(&in);
	store_release(&s);
	buf_release(&root);
	buf_release(&zip);
	buf_release(&dest);
	buf_release(&p);
	buf_release(&sroot);
	err_release(&err);
}
