#include "net/digest.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "plat/file.h"
#include "base/xalloc.h"

struct digest {
	EVP_MD_CTX *ctx;
};

struct digest *digest_new(void)
{
	struct digest *d = xmalloc(sizeof(*d));

	d->ctx = EVP_MD_CTX_new();
	if (!d->ctx || !EVP_DigestInit_ex(d->ctx, EVP_sha256(), NULL))
		BUG("cannot set up SHA-256");
	return d;
}

void digest_update(struct digest *d, const void *data, size_t n)
{
	if (!EVP_DigestUpdate(d->ctx, data, n))
		BUG("SHA-256 update failed");
}

void digest_final(struct digest *d, char hex[DIGEST_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int n = 0;

	if (!EVP_DigestFinal_ex(d->ctx, md, &n) || n * 2 != DIGEST_HEX_LEN)
		BUG("SHA-256 final failed");
	for (unsigned int i = 0; i < n; i++) {
		hex[2 * (size_t)i] = digits[md[i] >> 4];
		hex[2 * (size_t)i + 1] = digits[md[i] & 15];
	}
	hex[DIGEST_HEX_LEN] = '\0';
}

void digest_free(struct digest *d)
{
	if (!d)
		return;
	EVP_MD_CTX_free(d->ctx);
	free(d);
}

int digest_file(const char *path, char hex[DIGEST_HEX_LEN + 1],
		struct cuenv_err *err)
{
	char buf[1 << 16];
	struct digest *d;
	struct plat_stat st;
	int fd = file_open_read(PLAT_AT_CWD, path, 0, &st), rc = CUENV_OK;

	if (fd == FILE_NOT_REGULAR)
		return cuenv_fail(err, CUENV_E_STORE, "'%s' is %s, not a file",
				  path, file_type_name(st.type));
	if (fd < 0)
		return cuenv_fail(err, CUENV_E_STORE, "cannot open '%s': %s",
				  path, strerror(errno));
	d = digest_new();
	for (;;) {
		ssize_t n = file_read_full(fd, buf, sizeof(buf));

		if (n < 0) {
			rc = cuenv_fail(err, CUENV_E_STORE,
					"cannot read '%s': %s", path,
					strerror(errno));
			break;
		}
		if (!n)
			break;
		digest_update(d, buf, (size_t)n);
	}
	if (!rc)
		digest_final(d, hex);
	digest_free(d);
	plat_close(fd);
	return rc;
}
