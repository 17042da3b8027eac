/*
 * digest.h: SHA-256, through OpenSSL's EVP interface (digest_openssl.c is
 * the only file that includes OpenSSL).
 *
 *	struct digest *d = digest_new();
 *	digest_update(d, buf, n);
 *	digest_final(d, hex);	// 64 lowercase hex digits + NUL
 *	digest_free(d);
 */
#ifndef CUENV_DIGEST_H
#define CUENV_DIGEST_H

#include <stddef.h>
#include <string.h>

#include "base/err.h"

#define DIGEST_HEX_LEN 64

struct digest;

struct digest *digest_new(void);
void digest_update(struct digest *d, const void *data, size_t n);
/* Write the hex digest; d may not be updated afterwards. */
void digest_final(struct digest *d, char hex[DIGEST_HEX_LEN + 1]);
void digest_free(struct digest *d);

/* SHA-256 of a whole file. Returns CUENV_OK or CUENV_E_STORE. */
int digest_file(const char *path, char hex[DIGEST_HEX_LEN + 1],
		struct cuenv_err *err);

/* Is s 64 lowercase hex digits? (Inline: the catalogue uses it without
 * linking OpenSSL.) */
static inline int digest_hex_valid(const char *s)
{
	size_t n = strspn(s, "0123456789abcdef");

	return n == DIGEST_HEX_LEN && !s[n];
}

#endif
