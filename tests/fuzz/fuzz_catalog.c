/*
 * libFuzzer target for the catalogue parsers: NVIDIA's redist JSON and
 * the runfile / cuDNN tarball tables. The first byte picks the parser
 * (and for the JSON, whether the file name gives the label).
 * Whatever they accept must be safe to download: a sha256 of 64 hex
 * digits, a URL on NVIDIA's host with no "..", a valid version.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nvidia/catalog.h"
#include "net/digest.h"
#include "base/version.h"

static void check(const struct catalog *cat)
{
	for (size_t i = 0; i < cat->n; i++) {
		const struct release *r = cat->v[i];

		if (!version_is_valid(r->version) || !r->cuda_major)
			abort();
		for (size_t k = 0; k < r->nparts; k++) {
			const struct part *p = &r->parts[k];

			if (!digest_hex_valid(p->sha256) ||
			    strstr(p->url, "..") ||
			    (strncmp(p->url, NVIDIA_BASE "/",
				     strlen(NVIDIA_BASE) + 1) &&
			     strncmp(p->url, "https://developer.nvidia.com/",
				     29)))
				abort();
		}
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct catalog cat = { 0 };
	struct cuenv_err err = CUENV_ERR_INIT;
	const char *text = (const char *)data + 1;
	int rc;

	if (!size)
		return 0;
	switch (data[0] % 4) {
	case 0: /* as redistrib_12.4.1.json: its label must say 12.4.1 */
		rc = catalog_parse_redist(&cat, "f.json", text, size - 1,
					  "linux-x86_64", "cuda", "12.4.1",
					  &err);
		break;
	case 3: /* any label, as refresh's tests give it */
		rc = catalog_parse_redist(&cat, "f.json", text, size - 1,
					  "linux-x86_64", "cuda", NULL, &err);
		break;
	case 1:
		rc = catalog_parse_table(&cat, KIT_CUDA, "f.tsv", text,
					 size - 1, "linux-x86_64", &err);
		break;
	default:
		rc = catalog_parse_table(&cat, KIT_CUDNN, "f.tsv", text,
					 size - 1, "linux-x86_64", &err);
		break;
	}
	if (rc && rc != CUENV_E_MANIFEST)
		abort();
	if (rc && !err.msg.len)
		abort();
	check(&cat);
	catalog_release(&cat);
	err_release(&err);
	return 0;
}
