/*
 * test_digest_bcrypt.c: core/net/digest_bcrypt.c under wine (run by
 * tests/windows/deps-smoke.sh). Expected digests are FIPS 180-2's
 * SHA-256 examples (appendix B) and the empty message's.
 * Plain C, no cmocka (not cross-built yet): prints one line per failure,
 * exits 1 if any.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>

#include "../../core/net/digest.h"

static int failures;

static void expect(const char *what, const char *got, const char *want)
{
	if (strcmp(got, want)) {
		printf("FAIL %s: got %s, want %s\n", what, got, want);
		failures++;
	} else {
		printf("ok   %s\n", what);
	}
}

static void hash_string(const char *what, const char *s, size_t chunk,
			const char *want)
{
	char hex[DIGEST_HEX_LEN + 1];
	struct digest *d = digest_new();
	size_t n = strlen(s);

	for (size_t i = 0; i < n; i += chunk)
		digest_update(d, s + i, n - i < chunk ? n - i : chunk);
	digest_final(d, hex);
	digest_free(d);
	expect(what, hex, want);
}

int main(void)
{
	static const char *two_blocks =
	    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
	char hex[DIGEST_HEX_LEN + 1], dir[MAX_PATH], path[MAX_PATH + 64];
	char missing[MAX_PATH + 64];
	wchar_t wpath[MAX_PATH + 64];
	struct cuenv_err err = CUENV_ERR_INIT;
	struct digest *d;
	char *million = malloc(1000000);
	FILE *f;

	hash_string("empty", "", 1,
		    "e3b0c44298fc1c149afbf4c8996fb924"
		    "27ae41e4649b934ca495991b7852b855");
	hash_string("abc", "abc", 3,
		    "ba7816bf8f01cfea414140de5dae2223"
		    "b00361a396177a9cb410ff61f20015ad");
	hash_string("two blocks, byte by byte", two_blocks, 1,
		    "248d6a61d20638b8e5c026930c3e6039"
		    "a33ce45964ff2167f6ecedd419db06c1");
	memset(million, 'a', 1000000);
	d = digest_new();
	digest_update(d, million, 1000000);
	digest_final(d, hex);
	digest_free(d);
	free(million);
	expect("a million a", hex,
	       "cdc76e5c9914fb9281a1c7e284d73e67"
	       "f1809a48a497200e046d39ccc7112cd0");

	/* digest_file with a UTF-8 name outside any ANSI code page */
	if (!GetTempPathA(sizeof(dir), dir)) {
		printf("FAIL GetTempPath\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%scuenv-\xce\xb1\xce\xb2\xce\xb3.bin",
		 dir);
	MultiByteToWideChar(CP_UTF8, 0, path, -1, wpath, MAX_PATH + 64);
	f = _wfopen(wpath, L"wb");
	if (!f || fputs("abc", f) < 0 || fclose(f)) {
		printf("FAIL cannot write the test file\n");
		return 1;
	}
	if (digest_file(path, hex, &err)) {
		printf("FAIL digest_file: %s\n", err.msg.data);
		failures++;
	} else {
		expect("digest_file, UTF-8 name", hex,
		       "ba7816bf8f01cfea414140de5dae2223"
		       "b00361a396177a9cb410ff61f20015ad");
	}
	_wremove(wpath);

	snprintf(missing, sizeof(missing), "%scuenv-no-such-file", dir);
	if (digest_file(missing, hex, &err) != CUENV_E_STORE ||
	    !strstr(err.msg.data, missing)) {
		printf("FAIL missing file: rc %d, '%s'\n", err.rc,
		       err.msg.data);
		failures++;
	} else {
		printf("ok   missing file: %s\n", err.msg.data);
	}
	err_release(&err);
	return failures ? 1 : 0;
}
