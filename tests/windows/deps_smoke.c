/*
 * deps_smoke.c: the Windows dependency layer working together under wine,
 * the way cuenv's install uses it (run by tests/windows/deps-smoke.sh,
 * which serves the files and writes expect.txt with values Python
 * computed on its own).
 *
 *	deps_smoke.exe BASE_URL EXPECT_FILE WORK_DIR
 *
 * 1. libcurl (Schannel build): http, https and file only, TLS by Schannel;
 *    GET BASE_URL/redistrib.json into memory, its SHA-256 as expected.
 * 2. jansson: the manifest's cuda_cudart version, windows-x86_64 path,
 *    size and sha256 as expected.
 * 3. libcurl again: GET the archive into WORK_DIR; digest_file (BCrypt)
 *    equals the manifest's sha256.
 * 4. libarchive (zlib): every entry of the .zip, name, type, size and the
 *    SHA-256 of its data as expected, no more, no fewer.
 * Prints "ok ..." per check and "FAIL ..." on a mismatch; exits 0 only if
 * every check passed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* first: it includes winsock2.h, which must precede windows.h */
#include <curl/curl.h>

#include <archive.h>
#include <archive_entry.h>
#include <jansson.h>

#include "../../core/net/digest.h"

#define MAX_ENTRIES 32

struct want_entry {
	char name[512];
	char type[8]; /* "file" or "dir" */
	long long size;
	char sha[DIGEST_HEX_LEN + 1];
	int seen;
};

struct expect {
	char mf_sha[DIGEST_HEX_LEN + 1];
	char version[64];
	char relpath[512];
	long long zip_size;
	char zip_sha[DIGEST_HEX_LEN + 1];
	struct want_entry entry[MAX_ENTRIES];
	int n_entries;
};

static int failures;

static void check(int ok, const char *what, const char *got, const char *want)
{
	if (ok) {
		printf("ok   %s\n", what);
		return;
	}
	printf("FAIL %s: got '%s', want '%s'\n", what, got ? got : "(null)",
	       want ? want : "(null)");
	failures++;
}

static void check_str(const char *what, const char *got, const char *want)
{
	check(got && !strcmp(got, want), what, got, want);
}

/* expect.txt: one "key value..." per line; entries as
 * "entry TYPE SIZE SHA256 NAME" (NAME last: it may hold spaces). */
static int read_expect(const char *path, struct expect *e)
{
	char line[1024];
	FILE *f = fopen(path, "r");

	if (!f)
		return -1;
	memset(e, 0, sizeof(*e));
	while (fgets(line, sizeof(line), f)) {
		struct want_entry *w = &e->entry[e->n_entries];
		int off = 0;

		line[strcspn(line, "\r\n")] = '\0';
		if (sscanf(line, "manifest_sha256 %64s", e->mf_sha) == 1 ||
		    sscanf(line, "version %63s", e->version) == 1 ||
		    sscanf(line, "relative_path %511s", e->relpath) == 1 ||
		    sscanf(line, "zip_size %lld", &e->zip_size) == 1 ||
		    sscanf(line, "zip_sha256 %64s", e->zip_sha) == 1)
			continue;
		if (e->n_entries < MAX_ENTRIES &&
		    sscanf(line, "entry %7s %lld %64s %n", w->type, &w->size,
			   w->sha, &off) == 3 &&
		    off) {
			snprintf(w->name, sizeof(w->name), "%s", line + off);
			e->n_entries++;
			continue;
		}
		fclose(f);
		fprintf(stderr, "bad line in %s: %s\n", path, line);
		return -1;
	}
	fclose(f);
	return 0;
}

struct membuf {
	char *data;
	size_t len;
};

static size_t to_mem(char *p, size_t size, size_t n, void *arg)
{
	struct membuf *m = arg;
	char *grown = realloc(m->data, m->len + size * n + 1);

	if (!grown)
		return 0;
	m->data = grown;
	memcpy(m->data + m->len, p, size * n);
	m->len += size * n;
	m->data[m->len] = '\0';
	return size * n;
}

static long get(const char *url, curl_write_callback cb, void *arg)
{
	char why[CURL_ERROR_SIZE] = "";
	long code = 0;
	CURL *c = curl_easy_init();
	CURLcode rc;

	curl_easy_setopt(c, CURLOPT_URL, url);
	curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, cb);
	curl_easy_setopt(c, CURLOPT_WRITEDATA, arg);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, why);
	curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
	rc = curl_easy_perform(c);
	if (rc != CURLE_OK)
		printf("     curl: %s: %s\n", url,
		       why[0] ? why : curl_easy_strerror(rc));
	else
		curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &code);
	curl_easy_cleanup(c);
	return code;
}

static void check_curl_build(void)
{
	curl_version_info_data *v = curl_version_info(CURLVERSION_NOW);
	char protos[256] = "";

	for (const char *const *p = v->protocols; *p; p++) {
		strcat(protos, protos[0] ? " " : "");
		strncat(protos, *p, sizeof(protos) - strlen(protos) - 1);
	}
	printf("     libcurl %s, %s, zlib %s\n", v->version, v->ssl_version,
	       v->libz_version ? v->libz_version : "none");
	check_str("curl protocols are file, http, https", protos,
		  "file http https");
	check(v->ssl_version && strstr(v->ssl_version, "Schannel") &&
		  (v->features & CURL_VERSION_SSL),
	      "curl TLS is Schannel", v->ssl_version, "Schannel");
}

static void check_manifest(const struct membuf *m, const struct expect *e,
			   char *sha_out)
{
	char hex[DIGEST_HEX_LEN + 1], size[32];
	struct digest *d = digest_new();
	json_error_t jerr;
	json_t *root, *cudart, *win;
	const char *sha;

	digest_update(d, m->data, m->len);
	digest_final(d, hex);
	digest_free(d);
	check_str("manifest sha256 (BCrypt, in memory)", hex, e->mf_sha);

	root = json_loadb(m->data, m->len, 0, &jerr);
	check(root != NULL, "jansson parses the manifest", jerr.text, "");
	cudart = json_object_get(root, "cuda_cudart");
	win = json_object_get(cudart, "windows-x86_64");
	check_str("manifest cuda_cudart version",
		  json_string_value(json_object_get(cudart, "version")),
		  e->version);
	check_str("manifest windows-x86_64 relative_path",
		  json_string_value(json_object_get(win, "relative_path")),
		  e->relpath);
	snprintf(size, sizeof(size), "%lld", e->zip_size);
	check_str("manifest windows-x86_64 size",
		  json_string_value(json_object_get(win, "size")), size);
	sha = json_string_value(json_object_get(win, "sha256"));
	snprintf(sha_out, DIGEST_HEX_LEN + 1, "%s", sha ? sha : "");
	check_str("manifest windows-x86_64 sha256", sha_out, e->zip_sha);
	json_decref(root);
}

static size_t to_file(char *p, size_t size, size_t n, void *arg)
{
	return fwrite(p, size, n, arg) * size;
}

static void check_zip(const char *zip, struct expect *e)
{
	struct archive *a = archive_read_new();
	struct archive_entry *ent;
	char buf[1 << 15], hex[DIGEST_HEX_LEN + 1], what[600];
	int r, n = 0;

	archive_read_support_format_zip(a);
	archive_read_support_format_tar(a);
	archive_read_support_filter_gzip(a);
	if (archive_read_open_filename(a, zip, 1 << 16) != ARCHIVE_OK) {
		check(0, "libarchive opens the zip", archive_error_string(a),
		      "");
		archive_read_free(a);
		return;
	}
	while ((r = archive_read_next_header(a, &ent)) == ARCHIVE_OK) {
		const char *name = archive_entry_pathname_utf8(ent);
		int dir = archive_entry_filetype(ent) == AE_IFDIR;
		struct want_entry *w = NULL;
		struct digest *d = digest_new();
		long long size = 0;
		la_ssize_t k;

		while ((k = archive_read_data(a, buf, sizeof(buf))) > 0) {
			digest_update(d, buf, (size_t)k);
			size += k;
		}
		digest_final(d, hex);
		digest_free(d);
		if (k < 0)
			check(0, "libarchive reads entry data",
			      archive_error_string(a), "");
		n++;
		for (int i = 0; i < e->n_entries; i++)
			if (name && !strcmp(name, e->entry[i].name))
				w = &e->entry[i];
		snprintf(what, sizeof(what), "zip entry %s", name);
		if (!w) {
			check(0, what, "present", "not in expect.txt");
			continue;
		}
		w->seen++;
		check(!strcmp(w->type, dir ? "dir" : "file") &&
			  (dir || (size == w->size && !strcmp(hex, w->sha))),
		      what, hex, w->sha);
	}
	check(r == ARCHIVE_EOF, "libarchive reads to the end",
	      archive_error_string(a), "");
	archive_read_free(a);
	for (int i = 0; i < e->n_entries; i++)
		if (e->entry[i].seen != 1)
			check(0, "each expected entry once", e->entry[i].name,
			      "seen once");
	snprintf(what, sizeof(what), "%d", e->n_entries);
	snprintf(buf, sizeof(buf), "%d", n);
	check_str("zip entry count", buf, what);
}

int main(int argc, char **argv)
{
	struct cuenv_err err = CUENV_ERR_INIT;
	struct membuf m = {NULL, 0};
	char url[1024], zip[1024], sha[DIGEST_HEX_LEN + 1];
	char hex[DIGEST_HEX_LEN + 1];
	struct expect *e = calloc(1, sizeof(*e));
	long code;
	FILE *f;

	if (argc != 4 || !e || read_expect(argv[2], e)) {
		fprintf(stderr, "usage: deps_smoke BASE_URL EXPECT WORKDIR\n");
		return 2;
	}
	curl_global_init(CURL_GLOBAL_DEFAULT);
	printf("     libarchive: %s\n     jansson %s\n",
	       archive_version_details(), jansson_version_str());
	check_curl_build();

	snprintf(url, sizeof(url), "%s/redistrib.json", argv[1]);
	code = get(url, to_mem, &m);
	check(code == 200, "GET redistrib.json is 200", m.data, "200");
	check_manifest(&m, e, sha);

	snprintf(url, sizeof(url), "%s/%s", argv[1], e->relpath);
	snprintf(zip, sizeof(zip), "%s\\archive.zip", argv[3]);
	f = fopen(zip, "wb");
	code = f ? get(url, to_file, f) : 0;
	if (f && fclose(f))
		code = 0;
	check(code == 200, "GET the archive into a file is 200", url, "200");
	if (digest_file(zip, hex, &err))
		check(0, "digest_file", err.msg.data, "");
	else
		check_str("archive sha256 (BCrypt digest_file) = manifest's",
			  hex, sha);
	check_zip(zip, e);

	err_release(&err);
	free(m.data);
	free(e);
	curl_global_cleanup();
	printf("%s\n", failures ? "deps_smoke: FAILED" : "deps_smoke: all ok");
	return failures ? 1 : 0;
}
