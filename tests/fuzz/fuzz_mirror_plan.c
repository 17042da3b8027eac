/*
 * libFuzzer target for the mirror's planner: the input is a redist
 * manifest (any release_label; CUDA or cuDNN by the first byte's low
 * bit; the second bit asks --runtime-only), read as the catalogue reads
 * it and planned as `cuenv mirror` plans each release. Whatever is
 * planned must be safe to write below DIR: a path of plain names (no
 * "..", ".", empty names, leading '/', backslash or control byte) that
 * is mirror_path of its URL, 64 hex digits, and entries whose version is
 * valid and whose components are names (catalog_name_ok) or none.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nvidia/catalog.h"
#include "net/digest.h"
#include "install/mirror.h"
#include "install/plan.h"
#include "base/version.h"

static char dir[] = "/tmp/fuzz_mirror_plan.XXXXXX";
static char path[sizeof(dir) + 40];

static int plain_path(const char *p)
{
	const char *s = p;

	if (!*p || *p == '/')
		return 0;
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || *s == '\\' || *s == 0x7f)
			return 0;
	for (s = p;;) {
		size_t k = strcspn(s, "/");

		if (!k || (k == 1 && s[0] == '.') ||
		    (k == 2 && s[0] == '.' && s[1] == '.'))
			return 0;
		if (!s[k])
			return 1;
		s += k + 1;
	}
}

static void check(const struct mirror_plan *p)
{
	for (size_t i = 0; i < p->nfiles; i++) {
		const struct mirror_file *f = &p->files[i];
		char *mp = mirror_path(f->url);

		if (!plain_path(f->path) || !mp || strcmp(mp, f->path) ||
		    !digest_hex_valid(f->sha256))
			abort();
		free(mp);
	}
	for (size_t i = 0; i < p->nentries; i++) {
		const struct mirror_entry *e = &p->entries[i];
		char *comps = strdup(e->components), *c = comps, *end;

		if (!comps || !version_is_valid(e->version))
			abort();
		/* none: CUPTI from a release without cuda_cupti */
		for (; *comps; c = end + 2) {
			end = strstr(c, ", ");
			if (end)
				*end = '\0';
			if (!catalog_name_ok(c))
				abort();
			if (!end)
				break;
		}
		free(comps);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct catalog cat = { 0 };
	struct cuenv_err err = CUENV_ERR_INIT;
	struct mirror_plan p;
	struct plan_opts o = { 0 };
	const char *kind;
	FILE *f;
	int rc;


	if (!size)
		return 0;
	if (!path[0]) {
		if (!mkdtemp(dir))
			abort();
		snprintf(path, sizeof(path), "%s/redistrib_12.4.1.json", dir);
	}
	kind = data[0] & 1 ? "cudnn" : "cuda";
	o.runtime_only = !!(data[0] & 2);
	/* The planner hashes the manifest it copies: it is a real file. */
	f = fopen(path, "wb");
	if (!f || fwrite(data + 1, 1, size - 1, f) != size - 1 || fclose(f))
		abort();
	rc = catalog_parse_redist(&cat, path, (const char *)data + 1, size - 1,
				  "linux-x86_64", kind, NULL, &err);
	if (rc && (rc != CUENV_E_MANIFEST || !err.msg.len))
		abort();
	err_release(&err);
	mirror_plan_init(&p);
	for (size_t i = 0; i < cat.n; i++) {
		enum kit_kind k = cat.v[i]->kind;

		for (int cupti = 0; cupti < 1 + (k == KIT_CUDA); cupti++) {
			/* an unknown component (no cuda_cupti), a URL off
			 * NVIDIA's host, a manifest it cannot copy */
			rc = mirror_plan_add(&p, cat.v[i],
					     cupti ? KIT_CUPTI : k, &o,
					     "linux-x86_64", &err);
			if (rc &&
			    ((rc != CUENV_E_USAGE && rc != CUENV_E_MANIFEST) ||
			     !err.msg.len))
				abort();
			err_release(&err);
		}
	}
	check(&p);
	mirror_plan_release(&p);
	catalog_release(&cat);
	err_release(&err);
	return 0;
}
