#include "artifact/pe.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "plat/file.h"
#include "nvidia/nvlib.h"
#include "base/xalloc.h"

/* Limits no real file comes near: a corrupt count is an error, not a
 * long loop. */
#define PE_MAX_SECTIONS 96 /* the loader's own limit */
#define PE_MAX_DESCRIPTORS 65536
#define PE_MAX_NAME 512

/* The image being read: every read goes through rd(). */
struct img {
	const unsigned char *p;
	size_t len;
	const char *name;
	struct cuenv_err *err;
	uint64_t image_base;
	uint32_t size_of_headers;
	size_t nsec, sec; /* count, file offset of the section table */
};

static bool rd(const struct img *im, uint64_t off, size_t width, uint64_t *out)
{
	uint64_t v = 0;

	if (off > im->len || width > im->len - off)
		return false;
	for (size_t i = 0; i < width; i++)
		v |= (uint64_t)im->p[off + i] << (8 * i);
	*out = v;
	return true;
}

static int bad(const struct img *im, const char *what)
{
	return file_corrupt(im->err, "PE", im->name, what);
}

/*
 * The file offset of rva: inside a section's raw data, or inside the
 * headers. *room gets the bytes from there to the end of what maps it.
 */
static bool rva_off(const struct img *im, uint64_t rva, uint64_t *off,
		    uint64_t *room)
{
	for (size_t i = 0; i < im->nsec; i++) {
		uint64_t b = im->sec + 40 * (uint64_t)i, vsize, va, rsize, roff,
			 span;

		if (!rd(im, b + 8, 4, &vsize) || !rd(im, b + 12, 4, &va) ||
		    !rd(im, b + 16, 4, &rsize) || !rd(im, b + 20, 4, &roff))
			return false;
		span = vsize > rsize || !vsize ? rsize : vsize;
		if (rva < va || rva - va >= span || rva - va >= rsize)
			continue;
		if (roff > im->len || rva - va >= im->len - roff)
			return false;
		*off = roff + (rva - va);
		*room = rsize - (rva - va);
		if (*room > im->len - *off)
			*room = im->len - *off;
		return true;
	}
	if (rva < im->size_of_headers && rva < im->len) {
		*off = rva;
		*room = (im->size_of_headers < im->len ? im->size_of_headers
						       : im->len) -
			rva;
		return true;
	}
	return false;
}

/* A DLL name: printable, no path separators, no quotes. */
static bool name_char(unsigned char c)
{
	return c > 0x20 && c < 0x7f && c != '/' && c != '\\' && c != '"' &&
	       c != '\'' && c != '<' && c != '>' && c != '|' && c != '*' &&
	       c != '?' && c != ':';
}

/* The NUL-terminated name at rva into *out (a heap string). */
static int read_name(const struct img *im, uint64_t rva, const char *what,
		     char **out)
{
	uint64_t off, room;
	size_t n;

	*out = NULL;
	if (!rva_off(im, rva, &off, &room))
		return bad(im, what);
	for (n = 0; n < room && n <= PE_MAX_NAME && im->p[off + n]; n++)
		if (!name_char(im->p[off + n]))
			return bad(im, what);
	if (n == 0 || n >= room || n > PE_MAX_NAME)
		return bad(im, what);
	*out = xstrndup((const char *)im->p + off, n);
	return CUENV_OK;
}

static void push_once(struct strv *v, char *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < v->n; i++)
		if (v->v[i] && !strcasecmp(v->v[i], s)) {
			free(s);
			return;
		}
	strv_push(v, s);
	free(s);
}

/*
 * An IMAGE_IMPORT_DESCRIPTOR (20 bytes) at d: its name's RVA, or *end at
 * the all-zero one that ends the import directory.
 */
static int import_entry(const struct img *im, uint64_t d, uint64_t *name,
			bool *end)
{
	uint64_t w[5];

	for (int k = 0; k < 5; k++)
		if (!rd(im, d + 4 * (uint64_t)k, 4, &w[k]))
			return bad(im, "the import directory is truncated");
	*end = !w[0] && !w[1] && !w[2] && !w[3] && !w[4];
	*name = w[3];
	return CUENV_OK;
}

/*
 * An ImgDelayDescr (32 bytes) at d: its name's RVA, or *end where the
 * name is 0. Attributes bit 0 clear: the old form, with addresses (VAs)
 * instead of RVAs.
 */
static int delay_entry(const struct img *im, uint64_t d, uint64_t *name,
		       bool *end)
{
	uint64_t attr;

	if (!rd(im, d, 4, &attr) || !rd(im, d + 4, 4, name))
		return bad(im, "the delay-load directory is truncated");
	*end = !*name;
	if (!*end && !(attr & 1)) {
		if (*name < im->image_base)
			return bad(im, "a delay-load DLL name is outside the "
				       "image");
		*name -= im->image_base;
	}
	return CUENV_OK;
}

/* The import directory and the delay-load one: tables of descriptors. */
struct dll_table {
	uint64_t width; /* of a descriptor */
	int (*entry)(const struct img *im, uint64_t d, uint64_t *name,
		     bool *end);
	const char *outside, *no_end, *bad_name;
};

static const struct dll_table import_table = {
	20,
	import_entry,
	"the import directory is outside every section",
	"the import directory does not end",
	"an imported DLL name is outside the file or not a name",
};

static const struct dll_table delay_table = {
	32,
	delay_entry,
	"the delay-load directory is outside every section",
	"the delay-load directory does not end",
	"a delay-loaded DLL name is outside the file or not a name",
};

/* The DLL names the table t at rva (size bytes) names, each once. */
static int dll_names(const struct img *im, const struct dll_table *t,
		     uint64_t rva, uint64_t size, struct strv *out)
{
	uint64_t off, room;

	if (!rva && !size)
		return CUENV_OK;
	if (!rva_off(im, rva, &off, &room))
		return bad(im, t->outside);
	for (size_t i = 0;; i++) {
		uint64_t name;
		bool end;
		char *s;
		int rc;

		if (i >= PE_MAX_DESCRIPTORS || t->width * (i + 1) > room)
			return bad(im, t->no_end);
		rc = t->entry(im, off + t->width * i, &name, &end);
		if (rc || end)
			return rc;
		rc = read_name(im, name, t->bad_name, &s);
		if (rc)
			return rc;
		push_once(out, s);
	}
}

void pe_info_init(struct pe_info *p)
{
	memset(p, 0, sizeof(*p));
}

void pe_info_release(struct pe_info *p)
{
	free(p->name);
	STRV_RELEASE_EACH(&p->imports, &p->delay, &p->cuda_named);
	pe_info_init(p);
}

bool pe_has_magic(const void *data, size_t len)
{
	return len >= 2 && !memcmp(data, "MZ", 2);
}

/* Where the headers put the data directories. */
struct pe_dirs {
	uint64_t at, n;
};

/*
 * The optional header at opt, by its magic (PE32 or PE32+): out->bits, the
 * image base and the data directories.
 */
static int optional_header(struct img *im, uint64_t opt, struct pe_info *out,
			   struct pe_dirs *dirs)
{
	uint64_t magic, v;

	if (!rd(im, opt, 2, &magic))
		return bad(im, "truncated optional header");
	if (magic == 0x10b) {
		out->bits = 32;
		if (!rd(im, opt + 28, 4, &im->image_base) ||
		    !rd(im, opt + 92, 4, &dirs->n))
			return bad(im, "truncated optional header");
		dirs->at = opt + 96;
	} else if (magic == 0x20b) {
		out->bits = 64;
		if (!rd(im, opt + 24, 8, &im->image_base) ||
		    !rd(im, opt + 108, 4, &dirs->n))
			return bad(im, "truncated optional header");
		dirs->at = opt + 112;
	} else {
		return bad(im, "unknown optional header magic");
	}
	if (!rd(im, opt + 60, 4, &v))
		return bad(im, "truncated optional header");
	im->size_of_headers = (uint32_t)v;
	return CUENV_OK;
}

/*
 * The DOS, COFF and optional headers: out->bits and out->machine, the
 * image's base, its section table and its data directories.
 */
static int headers(struct img *im, struct pe_info *out, struct pe_dirs *dirs)
{
	uint64_t lfanew, sig, machine, nsec, opt_size, opt;
	int rc;

	if (!rd(im, 0x3c, 4, &lfanew))
		return bad(im, "truncated DOS header");
	if (!rd(im, lfanew, 4, &sig) || sig != 0x00004550)
		return bad(im, "no PE signature where e_lfanew points");
	if (!rd(im, lfanew + 4, 2, &machine) || !rd(im, lfanew + 6, 2, &nsec) ||
	    !rd(im, lfanew + 20, 2, &opt_size))
		return bad(im, "truncated COFF header");
	opt = lfanew + 24;
	rc = optional_header(im, opt, out, dirs);
	if (rc)
		return rc;
	out->machine = (unsigned)machine;
	if (nsec > PE_MAX_SECTIONS)
		return bad(im, "too many sections");
	/* the data directories must lie inside the optional header */
	if (dirs->n > 16)
		dirs->n = 16;
	if (dirs->at + 8 * dirs->n > opt + opt_size)
		return bad(im, "the data directories overrun the optional "
			       "header");
	im->nsec = (size_t)nsec;
	im->sec = (size_t)(opt + opt_size);
	if (im->sec > im->len || 40 * nsec > im->len - im->sec)
		return bad(im, "truncated section table");
	return CUENV_OK;
}

/* Data directory i: its RVA and size, both 0 where the image has none. */
static int directory(const struct img *im, const struct pe_dirs *dirs,
		     unsigned i, uint64_t *rva, uint64_t *size)
{
	*rva = *size = 0;
	if (dirs->n > i && (!rd(im, dirs->at + 8ull * i, 4, rva) ||
			    !rd(im, dirs->at + 8ull * i + 4, 4, size)))
		return bad(im, "truncated data directories");
	return CUENV_OK;
}

/* The DLL's own name, from the export directory at rva (none: 0). */
static int export_name(const struct img *im, uint64_t rva, char **name)
{
	uint64_t off, room, nrva;

	if (!rva)
		return CUENV_OK;
	/* IMAGE_EXPORT_DIRECTORY: Name at 12 */
	if (!rva_off(im, rva, &off, &room) || room < 16 ||
	    !rd(im, off + 12, 4, &nrva))
		return bad(im, "the export directory is outside every section");
	if (!nrva)
		return CUENV_OK;
	return read_name(im, nrva,
			 "the export directory's name is outside the file or "
			 "not a name",
			 name);
}

int pe_parse(const void *data, size_t len, const char *name,
	     struct pe_info *out, struct cuenv_err *err)
{
	struct img im = { data, len, name, err, 0, 0, 0, 0 };
	struct pe_dirs dirs = { 0, 0 };
	uint64_t exp_rva, exp_size, imp_rva, imp_size, dl_rva, dl_size;
	int rc;

	if (!pe_has_magic(data, len))
		return cuenv_fail(err, CUENV_NO, "'%s' is not a PE file", name);
	rc = headers(&im, out, &dirs);
	if (!rc)
		rc = directory(&im, &dirs, 0, &exp_rva, &exp_size);
	if (!rc)
		rc = directory(&im, &dirs, 1, &imp_rva, &imp_size);
	if (!rc)
		rc = directory(&im, &dirs, 13, &dl_rva, &dl_size);
	if (!rc)
		rc = dll_names(&im, &import_table, imp_rva, imp_size,
			       &out->imports);
	if (!rc)
		rc = dll_names(&im, &delay_table, dl_rva, dl_size, &out->delay);
	if (!rc)
		rc = export_name(&im, exp_rva, &out->name);
	if (rc)
		return rc;
	pe_scan_cuda_dlls(data, len, &out->cuda_named);
	if (out->name)
		for (size_t i = 0; i < out->cuda_named.n; i++)
			if (!strcasecmp(out->cuda_named.v[i], out->name)) {
				strv_remove(&out->cuda_named, i);
				break;
			}
	return CUENV_OK;
}

/* ---- CUDA DLL names in the bytes ---------------------------------------- */

static bool dll_char(unsigned c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-';
}

/* Check the name ending at end (exclusive, before ".dll"), stride 1 for
 * ASCII or 2 for UTF-16LE. */
static void candidate(const unsigned char *p, size_t len, size_t dot,
		      size_t stride, struct strv *out)
{
	size_t start = dot, n = 0;
	char name[80];
	struct buf so = BUF_INIT;

	while (start >= stride && n < 60 && dll_char(p[start - stride]) &&
	       (stride == 1 || p[start - stride + 1] == 0)) {
		start -= stride;
		n++;
	}
	if (!n || n >= 60)
		return;
	for (size_t i = 0; i < n; i++)
		name[i] = (char)p[start + i * stride];
	for (size_t i = 0; i < 4; i++)
		name[n + i] = (char)p[dot + i * stride];
	name[n + 4] = 0;
	/* what follows must end the name */
	if (dot + 4 * stride < len && dll_char(p[dot + 4 * stride]) &&
	    (stride == 1 || dot + 4 * stride + 1 >= len ||
	     p[dot + 4 * stride + 1] == 0))
		return;
	if (nvlib_dll_soname(name, &so)) {
		bool have = false;

		for (size_t i = 0; i < out->n && !have; i++)
			have = !strcasecmp(out->v[i], name);
		if (!have)
			strv_push(out, name);
	}
	buf_release(&so);
	(void)len;
}

void pe_scan_cuda_dlls(const void *data, size_t len, struct strv *out)
{
	const unsigned char *p = data;

	for (size_t i = 0; i + 4 <= len; i++) {
		if (p[i] != '.')
			continue;
		if (i + 4 <= len &&
		    !strncasecmp((const char *)p + i, ".dll", 4))
			candidate(p, len, i, 1, out);
		if (i + 8 <= len && p[i + 1] == 0 && (p[i + 2] | 0x20) == 'd' &&
		    p[i + 3] == 0 && (p[i + 4] | 0x20) == 'l' &&
		    p[i + 5] == 0 && (p[i + 6] | 0x20) == 'l' && p[i + 7] == 0)
			candidate(p, len, i, 2, out);
	}
}
