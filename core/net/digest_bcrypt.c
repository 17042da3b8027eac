/*
 * digest_bcrypt.c: core/net/digest.h on Windows, through BCrypt (CNG), the
 * system's own SHA-256 (bcrypt.dll, Vista and later): no OpenSSL to
 * cross-build or ship. The only file that includes bcrypt.h.
 *
 * digest_file takes a UTF-8 path (as every path in core does) and opens it
 * with CreateFileW, so names outside the ANSI code page work.
 */
#include "net/digest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <windows.h>
/* after windows.h, whose types it uses */
#include <bcrypt.h>

#include "base/xalloc.h"

#define SHA256_LEN 32

struct digest {
	BCRYPT_ALG_HANDLE alg;
	BCRYPT_HASH_HANDLE hash;
};

struct digest *digest_new(void)
{
	struct digest *d = xcalloc(1, sizeof(*d));

	/* The object buffer is left to BCrypt (NULL, 0: Windows 7 and
	 * later allocate it themselves). */
	if (BCryptOpenAlgorithmProvider(&d->alg, BCRYPT_SHA256_ALGORITHM, NULL,
					0) < 0 ||
	    BCryptCreateHash(d->alg, &d->hash, NULL, 0, NULL, 0, 0) < 0)
		BUG("cannot set up SHA-256");
	return d;
}

void digest_update(struct digest *d, const void *data, size_t n)
{
	const unsigned char *p = data;

	/* BCryptHashData takes a ULONG length */
	while (n) {
		ULONG k = n > 0x40000000 ? 0x40000000 : (ULONG)n;

		if (BCryptHashData(d->hash, (PUCHAR)p, k, 0) < 0)
			BUG("SHA-256 update failed");
		p += k;
		n -= k;
	}
}

void digest_final(struct digest *d, char hex[DIGEST_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[SHA256_LEN];

	if (BCryptFinishHash(d->hash, md, sizeof(md), 0) < 0)
		BUG("SHA-256 final failed");
	for (size_t i = 0; i < sizeof(md); i++) {
		hex[2 * i] = digits[md[i] >> 4];
		hex[2 * i + 1] = digits[md[i] & 15];
	}
	hex[DIGEST_HEX_LEN] = '\0';
}

void digest_free(struct digest *d)
{
	if (!d)
		return;
	if (d->hash)
		BCryptDestroyHash(d->hash);
	if (d->alg)
		BCryptCloseAlgorithmProvider(d->alg, 0);
	free(d);
}

/* FormatMessage's text for code, without its trailing ".\r\n". */
static void win_error(DWORD code, char *out, size_t size)
{
	DWORD n = FormatMessageA(FORMAT_MESSAGE_FROM_SYSTEM |
					 FORMAT_MESSAGE_IGNORE_INSERTS,
				 NULL, code, 0, out, (DWORD)size, NULL);

	while (n && strchr(".\r\n ", out[n - 1]))
		n--;
	if (!n)
		snprintf(out, size, "error %lu", (unsigned long)code);
	else
		out[n] = '\0';
}

int digest_file(const char *path, char hex[DIGEST_HEX_LEN + 1],
		struct cuenv_err *err)
{
	char buf[1 << 16], why[256];
	struct digest *d = NULL;
	wchar_t *wpath = NULL;
	HANDLE h = INVALID_HANDLE_VALUE;
	int rc = CUENV_OK, wn;

	wn = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL,
				 0);
	if (wn <= 0) {
		rc = cuenv_fail(err, CUENV_E_STORE,
				"cannot open '%s': not valid UTF-8", path);
		goto out;
	}
	wpath = xmalloc((size_t)wn * sizeof(*wpath));
	MultiByteToWideChar(CP_UTF8, 0, path, -1, wpath, wn);
	h = CreateFileW(wpath, GENERIC_READ,
			FILE_SHARE_READ | FILE_SHARE_DELETE, NULL,
			OPEN_EXISTING, FILE_FLAG_SEQUENTIAL_SCAN, NULL);
	if (h == INVALID_HANDLE_VALUE) {
		win_error(GetLastError(), why, sizeof(why));
		rc = cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				path, why);
		goto out;
	}
	d = digest_new();
	for (;;) {
		DWORD n = 0;

		if (!ReadFile(h, buf, sizeof(buf), &n, NULL)) {
			win_error(GetLastError(), why, sizeof(why));
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot read '%s': %s", path, why);
			goto out;
		}
		if (!n)
			break;
		digest_update(d, buf, n);
	}
	digest_final(d, hex);
out:
	digest_free(d);
	if (h != INVALID_HANDLE_VALUE)
		CloseHandle(h);
	free(wpath);
	return rc;
}
