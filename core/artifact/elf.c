#include "artifact/elf.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "artifact/elf_abi.h"
#include "plat/file.h"
#include "plat/plat_fs.h"
#include "base/version.h"
#include "base/xalloc.h"

/* The marker of NVIDIA's CUDA runtime linked into a file: the name of
 * its shared-memory segment, in libcudart_static.a's data since CUDA 11
 * ("/cudart.shm.%x.%x.%llx"); a file that only loads libcudart.so has
 * no such string, and a stripped one keeps it. */
#define CUDART_STATIC "/cudart.shm."

static bool has_cudart_static(const unsigned char *p, size_t n)
{
	size_t m = sizeof(CUDART_STATIC) - 1;
	const unsigned char *q = p, *end = p + n;

	while (end - q >= (ptrdiff_t)m) {
		q = memchr(q, '/', (size_t)(end - q) - m + 1);
		if (!q)
			return false;
		if (!memcmp(q, CUDART_STATIC, m))
			return true;
		q++;
	}
	return false;
}

void elf_info_init(struct elf_info *e)
{
	memset(e, 0, sizeof(*e));
}

void elf_info_release(struct elf_info *e)
{
	FREE_EACH(e->soname, e->rpath, e->runpath);
	STRV_RELEASE_EACH(&e->needed, &e->cuda_named, &e->cuda_stems);
	elf_info_init(e);
}

bool elf_has_magic(const void *data, size_t len)
{
	return len >= SELFMAG && !memcmp(data, ELFMAG, SELFMAG);
}

/* ---- reading fields ------------------------------------------------------ */

/*
 * The image and how to read it. Every read goes through rd(), which checks
 * the bounds; structures are never cast onto the bytes (they may be
 * unaligned, of the other class, or of the other byte order).
 */
struct img {
	const unsigned char *p;
	size_t len;
	bool b64;
	bool be;
	const char *name;
	struct cuenv_err *err;
};

static bool rd(const struct img *im, uint64_t off, size_t width, uint64_t *out)
{
	uint64_t v = 0;

	if (off > im->len || width > im->len - off)
		return false;
	for (size_t i = 0; i < width; i++) {
		unsigned b = im->p[off + (im->be ? i : width - 1 - i)];

		v = v << 8 | b;
	}
	*out = v;
	return true;
}

/* Field f of an Elf32_T or Elf64_T at base, whichever the image is. */
#define FIELD(im, base, T, f, out)                                             \
	rd((im),                                                               \
	   (base) + ((im)->b64 ? offsetof(struct elf64_##T, f)                 \
			       : offsetof(struct elf32_##T, f)),               \
	   (im)->b64 ? sizeof(((struct elf64_##T *)0)->f)                      \
		     : sizeof(((struct elf32_##T *)0)->f),                     \
	   (out))
#define SIZEOF(im, T)                                                          \
	((im)->b64 ? sizeof(struct elf64_##T) : sizeof(struct elf32_##T))

static int bad(const struct img *im, const char *what)
{
	return file_corrupt(im->err, "ELF", im->name, what);
}

/* Is [off, off + size) inside the file? */
static bool inside(const struct img *im, uint64_t off, uint64_t size)
{
	return off <= im->len && size <= im->len - off;
}

/* A table of n entries of entsize bytes at off, all inside the file. */
static bool table_inside(const struct img *im, uint64_t off, uint64_t n,
			 uint64_t entsize)
{
	/* n and entsize come from 16- or 32-bit fields: no overflow */
	return inside(im, off, n * entsize);
}

/* ---- the dynamic section ------------------------------------------------- */

struct dyn {
	uint64_t off, size;	    /* the entries, in the file */
	uint64_t str_off, str_size; /* the string table, in the file */
	bool have_str;
};

struct headers {
	uint64_t machine;
	uint64_t phoff, phnum, phentsize;
	uint64_t shoff, shnum, shentsize;
};

/* The file offset of virtual address addr, through the PT_LOAD segments. */
static bool vaddr_to_off(const struct img *im, const struct headers *h,
			 uint64_t addr, uint64_t *off, uint64_t *room)
{
	for (uint64_t i = 0; i < h->phnum; i++) {
		uint64_t base = h->phoff + i * h->phentsize, type, o, va, fs;

		if (!FIELD(im, base, phdr, p_type, &type) || type != PT_LOAD ||
		    !FIELD(im, base, phdr, p_offset, &o) ||
		    !FIELD(im, base, phdr, p_vaddr, &va) ||
		    !FIELD(im, base, phdr, p_filesz, &fs))
			continue;
		if (addr < va || addr - va >= fs || !inside(im, o, fs))
			continue;
		*off = o + (addr - va);
		*room = fs - (addr - va);
		return true;
	}
	return false;
}

/* Find the dynamic entries and their strings through the program headers. */
static int dyn_from_segments(const struct img *im, const struct headers *h,
			     struct dyn *d, bool *found)
{
	uint64_t strtab = 0, strsz = 0;
	bool have_strtab = false, have_strsz = false;

	*found = false;
	for (uint64_t i = 0; i < h->phnum; i++) {
		uint64_t base = h->phoff + i * h->phentsize, type;

		if (!FIELD(im, base, phdr, p_type, &type))
			return bad(im, "program header out of range");
		if (type != PT_DYNAMIC)
			continue;
		if (!FIELD(im, base, phdr, p_offset, &d->off) ||
		    !FIELD(im, base, phdr, p_filesz, &d->size))
			return bad(im, "program header out of range");
		if (!inside(im, d->off, d->size))
			return bad(im, "dynamic segment past the end of the "
				       "file");
		*found = true;
		break;
	}
	if (!*found)
		return CUENV_OK;
	for (uint64_t e = d->off; d->size - (e - d->off) >= SIZEOF(im, dyn);
	     e += SIZEOF(im, dyn)) {
		uint64_t tag, val;

		if (!FIELD(im, e, dyn, d_tag, &tag) ||
		    !FIELD(im, e, dyn, d_un.d_val, &val))
			return bad(im, "dynamic entry out of range");
		if (tag == DT_NULL)
			break;
		if (tag == DT_STRTAB) {
			strtab = val;
			have_strtab = true;
		} else if (tag == DT_STRSZ) {
			strsz = val;
			have_strsz = true;
		}
	}
	if (!have_strtab)
		return CUENV_OK; /* no strings: no names to read */
	{
		uint64_t off, room;

		if (!vaddr_to_off(im, h, strtab, &off, &room))
			return bad(im, "DT_STRTAB is in no loaded segment");
		if (have_strsz && strsz > room)
			return bad(im, "DT_STRSZ runs past its segment");
		d->str_off = off;
		d->str_size = have_strsz ? strsz : room;
		d->have_str = true;
	}
	return CUENV_OK;
}

/* Find them through the section headers (a file without PT_DYNAMIC). */
static int dyn_from_sections(const struct img *im, const struct headers *h,
			     struct dyn *d, bool *found)
{
	*found = false;
	for (uint64_t i = 0; i < h->shnum; i++) {
		uint64_t base = h->shoff + i * h->shentsize, type, link, lb;

		if (!FIELD(im, base, shdr, sh_type, &type))
			return bad(im, "section header out of range");
		if (type != SHT_DYNAMIC)
			continue;
		if (!FIELD(im, base, shdr, sh_offset, &d->off) ||
		    !FIELD(im, base, shdr, sh_size, &d->size) ||
		    !FIELD(im, base, shdr, sh_link, &link))
			return bad(im, "section header out of range");
		if (!inside(im, d->off, d->size))
			return bad(im, "dynamic section past the end of the "
				       "file");
		*found = true;
		if (link == 0 || link >= h->shnum)
			return bad(im, "dynamic section links no string table");
		lb = h->shoff + link * h->shentsize;
		if (!FIELD(im, lb, shdr, sh_offset, &d->str_off) ||
		    !FIELD(im, lb, shdr, sh_size, &d->str_size))
			return bad(im, "section header out of range");
		if (!inside(im, d->str_off, d->str_size))
			return bad(im, "string table past the end of the file");
		d->have_str = true;
		return CUENV_OK;
	}
	return CUENV_OK;
}

/*
 * Limits that no real file comes near, so that a hostile one cannot make
 * the reader copy its whole size once per dynamic entry.
 */
#define NAME_MAX_LEN 4096
#define NEEDED_MAX 4096

/* The NUL-terminated string at index idx of the string table. */
static int dyn_string(const struct img *im, const struct dyn *d, uint64_t idx,
		      const char **out)
{
	const unsigned char *s, *nul;
	uint64_t room;

	if (!d->have_str)
		return bad(im, "DT_NEEDED or DT_SONAME without a string table");
	if (idx >= d->str_size)
		return bad(im, "name outside the string table");
	s = im->p + d->str_off + idx;
	room = d->str_size - idx;
	nul = memchr(s, '\0',
		     (size_t)(room < NAME_MAX_LEN ? room : NAME_MAX_LEN));
	if (!nul)
		return bad(im, room < NAME_MAX_LEN
				       ? "unterminated name in the string table"
				       : "name in the string table too long");
	*out = (const char *)s;
	return CUENV_OK;
}

/*
 * Is the string at idx longer than NAME_MAX_LEN (and terminated inside
 * the table)? A C++ symbol can be (TensorFlow's libtensorflow_cc.so.2
 * has mangled names of several KiB); no versioned C symbol of a CUDA
 * library is, so the version checks pass over such a symbol rather than
 * call the file corrupt.
 */
static bool long_name(const struct img *im, const struct dyn *d, uint64_t idx)
{
	return d->have_str && idx < d->str_size &&
	       d->str_size - idx > NAME_MAX_LEN &&
	       !memchr(im->p + d->str_off + idx, '\0', NAME_MAX_LEN);
}

static int read_dynamic(const struct img *im, const struct dyn *d,
			struct elf_info *out)
{
	for (uint64_t e = d->off; d->size - (e - d->off) >= SIZEOF(im, dyn);
	     e += SIZEOF(im, dyn)) {
		uint64_t tag, val;
		const char *s = NULL;
		int rc;

		if (!FIELD(im, e, dyn, d_tag, &tag) ||
		    !FIELD(im, e, dyn, d_un.d_val, &val))
			return bad(im, "dynamic entry out of range");
		if (tag == DT_NULL)
			break;
		if (tag == DT_FLAGS_1) {
			out->nodeflib = (val & DF_1_NODEFLIB) != 0;
			continue;
		}
		if (tag != DT_NEEDED && tag != DT_SONAME && tag != DT_RPATH &&
		    tag != DT_RUNPATH)
			continue;
		rc = dyn_string(im, d, val, &s);
		if (rc)
			return rc;
		if (tag == DT_NEEDED) {
			if (out->needed.n >= NEEDED_MAX)
				return bad(im, "too many DT_NEEDED entries");
			strv_push(&out->needed, s);
		} else {
			/* the loader takes the first of each */
			char **slot = tag == DT_SONAME	? &out->soname
				      : tag == DT_RPATH ? &out->rpath
							: &out->runpath;

			if (!*slot)
				*slot = xstrdup(s);
		}
	}
	return CUENV_OK;
}

/* ---- the header ---------------------------------------------------------- */

static int read_headers(struct img *im, struct headers *h)
{
	const unsigned char *id = im->p;
	uint64_t v;

	if (im->len < EI_NIDENT)
		return bad(im, "truncated identification");
	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return bad(im, "unknown class");
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return bad(im, "unknown byte order");
	im->b64 = id[EI_CLASS] == ELFCLASS64;
	im->be = id[EI_DATA] == ELFDATA2MSB;
	if (im->len < SIZEOF(im, ehdr))
		return bad(im, "truncated header");
	FIELD(im, 0, ehdr, e_machine, &h->machine);
	FIELD(im, 0, ehdr, e_phoff, &h->phoff);
	FIELD(im, 0, ehdr, e_phnum, &h->phnum);
	FIELD(im, 0, ehdr, e_phentsize, &h->phentsize);
	FIELD(im, 0, ehdr, e_shoff, &h->shoff);
	FIELD(im, 0, ehdr, e_shnum, &h->shnum);
	FIELD(im, 0, ehdr, e_shentsize, &h->shentsize);

	/* Section headers: only used when they hold what we need. */
	if (!h->shoff) {
		h->shnum = 0;
	} else {
		if (h->shentsize < SIZEOF(im, shdr))
			return bad(im, "section header entries too small");
		/* more than 0xff00 sections: the count is in section 0 */
		if (h->shnum == 0) {
			if (!FIELD(im, h->shoff, shdr, sh_size, &v))
				return bad(im, "section header out of range");
			if (v > UINT32_MAX)
				return bad(im, "too many sections");
			h->shnum = v;
		}
		if (!table_inside(im, h->shoff, h->shnum, h->shentsize))
			return bad(im, "section headers past the end of the "
				       "file");
	}
	if (h->phnum == PN_XNUM) {
		if (!h->shoff || !FIELD(im, h->shoff, shdr, sh_info, &h->phnum))
			return bad(im, "program header count out of range");
	}
	if (h->phnum) {
		if (h->phentsize < SIZEOF(im, phdr))
			return bad(im, "program header entries too small");
		if (!table_inside(im, h->phoff, h->phnum, h->phentsize))
			return bad(im, "program headers past the end of the "
				       "file");
	}
	return CUENV_OK;
}

/* The image's magic and headers: CUENV_NO without the magic. */
static int open_image(struct img *im, struct headers *h)
{
	if (!elf_has_magic(im->p, im->len))
		return cuenv_fail_shown(im->err, CUENV_NO, im->name, 200,
					"'%s' is not an ELF file");
	return read_headers(im, h);
}

int elf_parse_dynamic(const void *data, size_t len, const char *name,
		      struct elf_info *out, struct cuenv_err *err)
{
	struct img im = { .p = data, .len = len, .name = name, .err = err };
	struct headers h = { 0 };
	struct dyn d = { 0 };
	bool found = false;
	int rc = open_image(&im, &h);

	if (rc)
		return rc;
	out->bits = im.b64 ? 64 : 32;
	out->big_endian = im.be;
	out->machine = (unsigned)h.machine;
	rc = dyn_from_segments(&im, &h, &d, &found);
	if (!rc && !found)
		rc = dyn_from_sections(&im, &h, &d, &found);
	if (!rc && found)
		rc = read_dynamic(&im, &d, out);
	return rc;
}

int elf_parse(const void *data, size_t len, const char *name,
	      struct elf_info *out, struct cuenv_err *err)
{
	long self;
	int rc = elf_parse_dynamic(data, len, name, out, err);

	if (rc)
		return rc;
	elf_scan_cuda_sonames(data, len, &out->cuda_named);
	out->cudart_static = has_cudart_static(data, len);
	/* a library names itself: that is no request */
	self = out->soname ? strv_find(&out->cuda_named, out->soname) : -1;
	if (self >= 0)
		strv_remove(&out->cuda_named, (size_t)self);
	return CUENV_OK;
}

int elf_read_file(const char *path, struct elf_info *out, struct cuenv_err *err)
{
	struct file_map m;
	int rc = file_map(path, EI_NIDENT, &m, err);

	if (rc == CUENV_NO && !m.regular)
		return cuenv_fail(err, CUENV_NO, "'%s' is not a regular file",
				  path);
	if (rc == CUENV_NO)
		return cuenv_fail(err, CUENV_NO, "'%s' is not an ELF file",
				  path);
	if (rc)
		return rc;
	/* one pass from start to end: let the kernel read ahead */
	plat_map_sequential(m.data, m.len);
	rc = elf_parse(m.data, m.len, path, out, err);
	file_unmap(&m);
	return rc;
}

/* ---- symbol versions ----------------------------------------------------- */

/* Beyond any real library (cuBLAS exports ~10k): a bound for hostile ones. */
#define SYMBOLS_MAX (1u << 20)
#define VERSIONS_MAX 65535u

void elf_symvers_init(struct elf_symvers *v)
{
	memset(v, 0, sizeof(*v));
}

void elf_symvers_release(struct elf_symvers *v)
{
	for (size_t i = 0; i < v->nrefs; i++)
		FREE_EACH(v->refs[i].file, v->refs[i].version);
	for (size_t i = 0; i < v->nundef; i++)
		FREE_EACH(v->undef[i].name, v->undef[i].version,
			  v->undef[i].file);
	FREE_EACH(v->refs, v->undef);
	STRV_RELEASE_EACH(&v->defined_versions, &v->defined);
	elf_symvers_init(v);
}

/* "name@version", as elf_symvers' defined list holds it */
static char *sym_key(const char *name, const char *version)
{
	struct buf b = BUF_INIT;

	buf_printf(&b, "%s@%s", name, version);
	return buf_detach(&b);
}

/* The dynamic entries the version reader needs (addresses, 0: absent). */
struct tags {
	uint64_t symtab, syment, hash, gnu_hash, versym;
	uint64_t verdef, verdefnum, verneed, verneednum;
};

static int read_tags(const struct img *im, const struct dyn *d, struct tags *t)
{
	for (uint64_t e = d->off; d->size - (e - d->off) >= SIZEOF(im, dyn);
	     e += SIZEOF(im, dyn)) {
		uint64_t tag, val;

		if (!FIELD(im, e, dyn, d_tag, &tag) ||
		    !FIELD(im, e, dyn, d_un.d_val, &val))
			return bad(im, "dynamic entry out of range");
		if (tag == DT_NULL)
			break;
		switch (tag) {
		case DT_SYMTAB:
			t->symtab = val;
			break;
		case DT_SYMENT:
			t->syment = val;
			break;
		case DT_HASH:
			t->hash = val;
			break;
		case DT_GNU_HASH:
			t->gnu_hash = val;
			break;
		case DT_VERSYM:
			t->versym = val;
			break;
		case DT_VERDEF:
			t->verdef = val;
			break;
		case DT_VERDEFNUM:
			t->verdefnum = val;
			break;
		case DT_VERNEED:
			t->verneed = val;
			break;
		case DT_VERNEEDNUM:
			t->verneednum = val;
			break;
		default:
			break;
		}
	}
	return CUENV_OK;
}

/* The file offset of address addr with at least need bytes behind it. */
static bool at(const struct img *im, const struct headers *h, uint64_t addr,
	       uint64_t need, uint64_t *off)
{
	uint64_t room;

	return addr && vaddr_to_off(im, h, addr, off, &room) && need <= room;
}

/* A 32-bit word of a hash table (always 4 bytes, in the file's order). */
static bool word(const struct img *im, uint64_t off, uint64_t *out)
{
	return rd(im, off, 4, out);
}

/* How many symbols DT_GNU_HASH covers: past the last chain's end. */
static bool gnu_hash_count(const struct img *im, const struct headers *h,
			   uint64_t addr, uint64_t *count)
{
	uint64_t off, nbuckets, symoffset, bloom, buckets, last = 0, v;

	if (!at(im, h, addr, 16, &off) || !word(im, off, &nbuckets) ||
	    !word(im, off + 4, &symoffset) || !word(im, off + 8, &bloom))
		return false;
	buckets = off + 16 + bloom * (im->b64 ? 8 : 4);
	if (nbuckets > SYMBOLS_MAX || !inside(im, buckets, nbuckets * 4))
		return false;
	for (uint64_t i = 0; i < nbuckets; i++) {
		if (!word(im, buckets + i * 4, &v))
			return false;
		if (v > last)
			last = v;
	}
	if (last < symoffset) {
		*count = symoffset;
		return true;
	}
	/* the chain entry of symbol n is at chains + (n - symoffset) * 4 */
	for (uint64_t n = last; n < SYMBOLS_MAX; n++) {
		uint64_t chains = buckets + nbuckets * 4;

		if (!word(im, chains + (n - symoffset) * 4, &v))
			return false;
		if (v & 1) {
			*count = n + 1;
			return true;
		}
	}
	return false;
}

/* How many entries the dynamic symbol table has (0 when unknown). */
static uint64_t symbol_count(const struct img *im, const struct headers *h,
			     const struct tags *t)
{
	uint64_t off, n = 0;

	for (uint64_t i = 0; i < h->shnum; i++) {
		uint64_t base = h->shoff + i * h->shentsize, type, addr, size,
			 ent;

		if (FIELD(im, base, shdr, sh_type, &type) &&
		    type == SHT_DYNSYM &&
		    FIELD(im, base, shdr, sh_addr, &addr) &&
		    addr == t->symtab &&
		    FIELD(im, base, shdr, sh_size, &size) &&
		    FIELD(im, base, shdr, sh_entsize, &ent) && ent)
			return size / ent;
	}
	if (at(im, h, t->hash, 8, &off) && word(im, off + 4, &n))
		return n;
	if (t->gnu_hash && gnu_hash_count(im, h, t->gnu_hash, &n))
		return n;
	return 0;
}

/* The name of version index idx, through verdef or verneed, into *name
 * (and the library it is needed from into *file), NULL when none. */
struct vname {
	uint64_t idx;
	const char *name, *file;
	bool weak;
};

/*
 * Every version entry read, and an index by version number: slot[idx] is
 * 1 + the first entry of index idx (0: none), so that each symbol's
 * version is found at once (a linear search per symbol was 65,536
 * symbols times 65,535 versions: 53 s). An index is 15 bits, so slot has
 * at most 32,768 entries.
 *
 * A DT_VERNEED record points at its chain of entries by an offset, and
 * nothing stops many records from pointing at one long chain: each
 * level is bounded, their product is not (64 records sharing a chain of
 * 65,535 entries: 59 s and 855 MB). Entries are 16 bytes or more and
 * never overlap in a linked file, so bound is the most it can hold (and
 * VERSIONS_MAX): counted over every record, verdef's and verneed's, a
 * chain revisited shows as more entries than that.
 */
struct vtable {
	struct vname *v;
	size_t n, cap;
	uint64_t bound;
	uint32_t *slot;
	size_t nslot;
};

static void vtable_init(struct vtable *t, const struct img *im)
{
	memset(t, 0, sizeof(*t));
	t->bound = im->len / 16 < VERSIONS_MAX ? im->len / 16 : VERSIONS_MAX;
}

static void vtable_release(struct vtable *t)
{
	FREE_EACH(t->v, t->slot);
}

/* One more entry; more than the file has room for is refused. */
static int vtable_add(const struct img *im, struct vtable *t, uint64_t idx,
		      const char *name, const char *file, bool weak)
{
	if (t->n >= t->bound)
		return bad(im, "more symbol versions than the file has room "
			       "for (records that share one chain)");
	if (t->n == t->cap) {
		t->cap = t->cap ? 2 * t->cap : 16;
		t->v = xrealloc(t->v, t->cap * sizeof(*t->v));
	}
	t->v[t->n++] = (struct vname){ idx, name, file, weak };
	return CUENV_OK;
}

/* Index the entries by version number, the first of each number kept. */
static void vtable_index(struct vtable *t)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->v[i].idx >= t->nslot)
			t->nslot = (size_t)t->v[i].idx + 1;
	t->slot = xcalloc(t->nslot ? t->nslot : 1, sizeof(*t->slot));
	for (size_t i = 0; i < t->n; i++)
		if (!t->slot[t->v[i].idx])
			t->slot[t->v[i].idx] = (uint32_t)i + 1;
}

static const struct vname *vtable_find(const struct vtable *t, uint64_t idx)
{
	return idx < t->nslot && t->slot[idx] ? &t->v[t->slot[idx] - 1] : NULL;
}

static int read_verdef(const struct img *im, const struct headers *h,
		       const struct dyn *d, const struct tags *t,
		       struct elf_symvers *out, struct vtable *vt)
{
	uint64_t off;

	if (!t->verdef)
		return CUENV_OK;
	if (t->verdefnum > VERSIONS_MAX ||
	    !at(im, h, t->verdef, sizeof(struct elf_verdef), &off))
		return bad(im, "DT_VERDEF out of range");
	out->have_verdef = true;
	for (uint64_t i = 0; i < t->verdefnum; i++) {
		uint64_t flags, ndx, aux, next, name;
		const char *s;
		int rc;

		if (!rd(im, off + 2, 2, &flags) || !rd(im, off + 4, 2, &ndx) ||
		    !rd(im, off + 12, 4, &aux) || !rd(im, off + 16, 4, &next) ||
		    !rd(im, off + aux, 4, &name))
			return bad(im, "version definition out of range");
		rc = dyn_string(im, d, name, &s);
		if (rc)
			return rc;
		rc = vtable_add(im, vt, ndx & 0x7fff, s, NULL, false);
		if (rc)
			return rc;
		if (!(flags & VER_FLG_BASE))
			strv_push(&out->defined_versions, s);
		if (!next)
			break;
		off += next;
	}
	return CUENV_OK;
}

static int read_verneed(const struct img *im, const struct headers *h,
			const struct dyn *d, const struct tags *t,
			struct elf_symvers *out, struct vtable *vt)
{
	uint64_t off;

	if (!t->verneed)
		return CUENV_OK;
	if (t->verneednum > VERSIONS_MAX ||
	    !at(im, h, t->verneed, sizeof(struct elf_verneed), &off))
		return bad(im, "DT_VERNEED out of range");
	for (uint64_t i = 0; i < t->verneednum; i++) {
		uint64_t cnt, file, aux, next, a;
		const char *fs;
		int rc;

		if (!rd(im, off + 2, 2, &cnt) || !rd(im, off + 4, 4, &file) ||
		    !rd(im, off + 8, 4, &aux) || !rd(im, off + 12, 4, &next))
			return bad(im, "version need out of range");
		rc = dyn_string(im, d, file, &fs);
		if (rc)
			return rc;
		a = off + aux;
		for (uint64_t j = 0; j < cnt; j++) {
			uint64_t flags, other, name, anext;
			const char *ns;

			if (!rd(im, a + 4, 2, &flags) ||
			    !rd(im, a + 6, 2, &other) ||
			    !rd(im, a + 8, 4, &name) ||
			    !rd(im, a + 12, 4, &anext))
				return bad(im, "version need out of range");
			rc = dyn_string(im, d, name, &ns);
			if (!rc)
				rc = vtable_add(im, vt, other & 0x7fff, ns, fs,
						(flags & VER_FLG_WEAK) != 0);
			if (rc)
				return rc;
			/* vtable_add bounds nrefs: its growth by one is
			 * at most VERSIONS_MAX copies */
			out->refs =
				xrealloc(out->refs,
					 (out->nrefs + 1) * sizeof(*out->refs));
			out->refs[out->nrefs++] =
				(struct elf_verref){ xstrdup(fs), xstrdup(ns),
						     (flags & VER_FLG_WEAK) !=
							     0 };
			if (!anext)
				break;
			a += anext;
		}
		if (!next)
			break;
		off += next;
	}
	return CUENV_OK;
}

/* Each symbol: a definition into out->defined, a strong undefined one
 * with a version into out->undef. */
static int read_symbols(const struct img *im, const struct headers *h,
			const struct dyn *d, const struct tags *t,
			const struct vtable *vt, struct elf_symvers *out)
{
	uint64_t n = symbol_count(im, h, t), ent = SIZEOF(im, sym), off,
		 voff = 0;

	if (!n || !t->symtab)
		return CUENV_OK;
	if (n > SYMBOLS_MAX || (t->syment && t->syment != ent) ||
	    !at(im, h, t->symtab, n * ent, &off))
		return bad(im, "dynamic symbol table out of range");
	if (t->versym && !at(im, h, t->versym, n * 2, &voff))
		return bad(im, "DT_VERSYM out of range");
	out->symbols_known = true;
	for (uint64_t i = 1; i < n; i++) {
		uint64_t base = off + i * ent, name, info, shndx, ver = 1;
		const struct vname *vn = NULL;
		const char *s;
		int rc;

		if (!FIELD(im, base, sym, st_name, &name) ||
		    !FIELD(im, base, sym, st_info, &info) ||
		    !FIELD(im, base, sym, st_shndx, &shndx))
			return bad(im, "symbol out of range");
		if (voff && !rd(im, voff + i * 2, 2, &ver))
			return bad(im, "DT_VERSYM out of range");
		if (!name || (ver & 0x7fff) == 0)
			continue; /* unnamed, or local */
		if (long_name(im, d, name))
			continue; /* a C++ name past the bound: no CUDA API's */
		rc = dyn_string(im, d, name, &s);
		if (rc)
			return rc;
		if ((ver & 0x7fff) > 1)
			vn = vtable_find(vt, ver & 0x7fff);
		if (shndx != SHN_UNDEF) {
			unsigned bind = (unsigned)(info >> 4);

			if (bind != STB_GLOBAL && bind != STB_WEAK &&
			    bind != STB_GNU_UNIQUE)
				continue;
			if (vn)
				strv_push_take(&out->defined,
					       sym_key(s, vn->name));
			else
				strv_push(&out->defined, s);
		} else if ((info >> 4) != STB_WEAK && vn && vn->file) {
			out->undef = xrealloc(out->undef,
					      (out->nundef + 1) *
						      sizeof(*out->undef));
			out->undef[out->nundef++] = (struct elf_symref){
				xstrdup(s), xstrdup(vn->name), xstrdup(vn->file)
			};
		}
	}
	strv_sort(&out->defined);
	return CUENV_OK;
}

int elf_parse_symvers(const void *data, size_t len, const char *name,
		      struct elf_symvers *out, struct cuenv_err *err)
{
	struct img im = { .p = data, .len = len, .name = name, .err = err };
	struct headers h = { 0 };
	struct dyn d = { 0 };
	struct tags t = { 0 };
	struct vtable vt;
	bool found = false;
	int rc = open_image(&im, &h);

	vtable_init(&vt, &im);
	if (!rc)
		rc = dyn_from_segments(&im, &h, &d, &found);
	if (rc || !found || !d.have_str)
		goto out;
	rc = read_tags(&im, &d, &t);
	if (!rc)
		rc = read_verdef(&im, &h, &d, &t, out, &vt);
	if (!rc)
		rc = read_verneed(&im, &h, &d, &t, out, &vt);
	if (!rc) {
		vtable_index(&vt);
		rc = read_symbols(&im, &h, &d, &t, &vt, out);
	}
out:
	vtable_release(&vt);
	return rc;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

bool elf_symvers_defines(const struct elf_symvers *v, const char *sym,
			 const char *version)
{
	char *key = version ? sym_key(sym, version) : xstrdup(sym);
	bool hit = v->defined.n && bsearch(&key, v->defined.v, v->defined.n,
					   sizeof(char *), cmp_str) != NULL;

	free(key);
	return hit;
}

/* ---- CUDA sonames -------------------------------------------------------- */

const char *elf_cuda_lib_name(enum nvlib_id lib)
{
	return nvlib_get(lib)->stem;
}

#define TOKEN_MAX 48 /* "libcudnn_engines_runtime_compiled" and more */

static bool is_ident(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

/*
 * Which library is the token [s, s + n) ("libcudart", "libcudnn_ops")? Only
 * the table's entries that frameworks load by name (NVLIB_FRAMEWORK).
 */
static bool lib_token_of(const unsigned char *s, size_t n, unsigned flags,
			 enum nvlib_id *lib)
{
	char name[TOKEN_MAX + 8];
	const struct nvlib *e;

	if (n < 4 || n > TOKEN_MAX || memcmp(s, "lib", 3))
		return false;
	memcpy(name, s, n);
	memcpy(name + n, ".so", 4);
	e = nvlib_match_file(name, NULL);
	if (!e || (e->flags & flags) != flags)
		return false;
	*lib = e->id;
	return true;
}

/* Length of the version "12" / "11.0" / "11.2.152" at s (max bytes), 0 if
 * none; a trailing dot is not part of it. */
static size_t version_span(const unsigned char *s, size_t max)
{
	size_t i = 0, end = 0;
	unsigned parts = 0;

	while (i < max && parts < VERSION_MAX_PARTS) {
		size_t start = i;

		while (i < max && is_digit(s[i]) && i - start < 9)
			i++;
		if (i == start)
			break;
		parts++;
		end = i;
		if (i < max && is_digit(s[i]))
			return 0; /* a number too long to be a version */
		if (i + 1 < max && s[i] == '.' && is_digit(s[i + 1]))
			i++;
		else
			break;
	}
	return end;
}

/*
 * Each CUDA library name standing alone in [base, base + len): a soname
 * ("libcudart.so.12"), or with stems, a name without a version that ends
 * at a NUL ("libcudnn_ops.so", which a loader completes at run time).
 * hit() gets the name's start and length, whether it is a stem, and
 * whether the bytes end right after it (more may follow in a stream).
 */
typedef void name_hit_fn(void *ctx, const unsigned char *start, size_t n,
			 bool stem, bool at_end, bool mangled);

/* "-74a4c495" before t: auditwheel's hash in a bundled copy's name
 * (libcudnn-74a4c495.so.9.1.0); the start of its library name, or NULL. */
static const unsigned char *mangled_start(const unsigned char *base,
					  const unsigned char *t,
					  const unsigned char *hit)
{
	const unsigned char *u;

	if (hit - t != 8 || t - base < 2 || t[-1] != '-')
		return NULL;
	for (u = t; u < hit; u++)
		if (!((*u >= '0' && *u <= '9') || (*u >= 'a' && *u <= 'f')))
			return NULL;
	for (u = t - 1; u > base && t - u < TOKEN_MAX && is_ident(u[-1]); u--)
		;
	return u > base && is_ident(u[-1]) ? NULL : u;
}

static void scan_names(const unsigned char *base, size_t len, bool stems,
		       name_hit_fn *hit_fn, void *ctx)
{
	const unsigned char *p = base, *end = base + len, *hit, *m;

	while (p < end &&
	       (hit = mem_find(p, (size_t)(end - p), ".so", 3)) != NULL) {
		const unsigned char *t = hit, *v = hit + 4;
		enum nvlib_id lib;
		size_t vn;
		bool stem;

		p = hit + 1;
		if (hit + 3 >= end)
			break;
		stem = hit[3] == '\0';
		if (!stem && hit[3] != '.')
			continue;
		if (stem && !stems)
			continue;
		while (t > base && hit - t < TOKEN_MAX && is_ident(t[-1]))
			t--;
		m = stem ? NULL : mangled_start(base, t, hit);
		if (m && lib_token_of(m, (size_t)(t - 1 - m), 0, &lib)) {
			t = m;
		} else {
			m = NULL;
			if (t > base && is_ident(t[-1]))
				continue; /* longer than any name we know */
			if (!lib_token_of(t, (size_t)(hit - t), 0, &lib))
				continue;
		}
		if (stem && !(nvlib_get(lib)->flags & NVLIB_FRAMEWORK)) {
			p = hit + 3;
			continue;
		}
		if (stem) {
			hit_fn(ctx, t, (size_t)(hit + 3 - t), true, false,
			       false);
			p = hit + 3;
			continue;
		}
		vn = version_span(v, (size_t)(end - v));
		if (!vn || (v + vn < end && is_ident(v[vn])))
			continue;
		hit_fn(ctx, t, (size_t)(v + vn - t), false, v + vn == end,
		       m != NULL);
		p = v + vn;
	}
}

/*
 * Is the soname one frameworks load by name (NVLIB_FRAMEWORK)? The names
 * of every other library of nvlib's table are found too, for what
 * DT_NEEDED names (libcufile.so.0), but a mention in a file's bytes is
 * no load.
 */
static bool framework_loads(const char *soname)
{
	enum nvlib_id lib;
	const char *ver;

	return elf_cuda_soname(soname, &lib, &ver);
}

static void push_name(void *ctx, const unsigned char *start, size_t n,
		      bool stem, bool at_end, bool mangled)
{
	struct strv *out = ctx;
	char *s;

	(void)stem;
	(void)at_end;
	if (mangled)
		return;
	s = xstrndup((const char *)start, n);
	if (framework_loads(s) && strv_find(out, s) < 0)
		strv_push_take(out, s);
	else
		free(s);
}

void elf_scan_cuda_sonames(const void *data, size_t len, struct strv *out)
{
	scan_names(data, len, false, push_name, out);
}

static bool soname_of(const char *name, unsigned flags, enum nvlib_id *lib,
		      const char **version)
{
	const char *so = strstr(name, ".so.");
	const unsigned char *v;
	size_t vn;

	if (!so || strstr(so + 1, ".so."))
		return false;
	if (!lib_token_of((const unsigned char *)name, (size_t)(so - name),
			  flags, lib))
		return false;
	v = (const unsigned char *)so + 4;
	vn = version_span(v, strlen((const char *)v));
	if (!vn || v[vn])
		return false;
	*version = (const char *)v;
	return true;
}

bool elf_cuda_soname(const char *name, enum nvlib_id *lib, const char **version)
{
	return soname_of(name, NVLIB_FRAMEWORK, lib, version);
}

bool elf_nvidia_soname(const char *name, enum nvlib_id *lib,
		       const char **version)
{
	return soname_of(name, 0, lib, version);
}

bool elf_cuda_soname_version(enum nvlib_id lib, const char *cuda,
			     struct buf *out)
{
	const struct nvlib *e = nvlib_get(lib);

	buf_reset(out);
	if (e->flags & NVLIB_OWN_VERSION)
		return false;
	return nvlib_soname_version(e, cuda, out);
}

/* ---- an ELF file read as a stream ---------------------------------------- */

#define HEAD_KEEP (64u << 10) /* the first bytes, kept: the header */
#define SPAN_MAX (1u << 20)   /* program headers, the dynamic segment */
#define CARRY 256	      /* bytes kept from one chunk to the next */
#define DECIDE                                                                 \
	128		    /* a name starting this far from the end is
				 whole: the longest is 48 + 4 + 40 */
#define HITS_MAX (1u << 16) /* offsets of CUDA sonames kept */

/* Bytes [off, off + len) of the stream, kept as they pass. */
struct span {
	uint64_t off, len;
	struct buf got;
	bool on;
};

struct hit {
	uint64_t off;
	size_t name; /* into names, or mangled */
	bool mangled;
};

struct elf_stream {
	char *name;
	struct img im;	  /* its class and byte order; p: head or a span */
	struct buf head;  /* the first HEAD_KEEP bytes */
	struct buf win;	  /* the carry, then the chunk */
	uint64_t pos;	  /* bytes fed */
	uint64_t wo;	  /* the offset of win's first byte */
	uint64_t decided; /* names starting before this are recorded */
	int state;	  /* 0: too short to tell, 1: ELF, -1: not ELF */
	bool parsed, dyn_known, full, cudart_static;
	struct headers h;
	struct span ph, dyn;
	struct strv names, stems, mangled;
	struct hit *hits;
	size_t nhits;
};

struct elf_stream *elf_stream_new(const char *name)
{
	struct elf_stream *st = xcalloc(1, sizeof(*st));

	st->name = xstrdup(name);
	buf_init(&st->head);
	buf_init(&st->win);
	buf_init(&st->ph.got);
	buf_init(&st->dyn.got);
	st->im.name = st->name;
	return st;
}

void elf_stream_free(struct elf_stream *st)
{
	if (!st)
		return;
	BUF_RELEASE_EACH(&st->head, &st->win, &st->ph.got, &st->dyn.got);
	STRV_RELEASE_EACH(&st->names, &st->stems, &st->mangled);
	free(st->hits);
	free(st->name);
	free(st);
}

/* An img over bytes p (len) with the stream's class and byte order. */
static struct img stream_img(const struct elf_stream *st, const void *p,
			     size_t len, struct cuenv_err *err)
{
	struct img im = st->im;

	im.p = p;
	im.len = len;
	im.err = err;
	return im;
}

/* Append to sp what [off, off + n) holds of the bytes it still lacks. */
static void span_fill(struct span *sp, const unsigned char *p, uint64_t off,
		      size_t n)
{
	uint64_t want = sp->off + sp->got.len, stop = sp->off + sp->len;

	if (!sp->on || want >= stop || want < off || want >= off + n)
		return;
	buf_add(&sp->got, p + (want - off),
		(size_t)((stop < off + n ? stop : off + n) - want));
}

static bool span_done(const struct span *sp)
{
	return sp->on && sp->got.len == sp->len;
}

/* Start keeping [off, off + len), from what head and the chunk hold. */
static int span_start(struct elf_stream *st, struct span *sp, uint64_t off,
		      uint64_t len, const unsigned char *chunk, uint64_t at,
		      size_t n, struct cuenv_err *err)
{
	struct img im = stream_img(st, NULL, 0, err);

	if (len > SPAN_MAX)
		return bad(&im, sp == &st->ph ? "program headers larger than "
						"1 MiB"
					      : "dynamic segment larger than "
						"1 MiB");
	sp->off = off;
	sp->len = len;
	sp->on = true;
	span_fill(sp, (const unsigned char *)st->head.data, 0, st->head.len);
	span_fill(sp, chunk, at, n);
	if (!span_done(sp) && sp->off + sp->got.len < at)
		return bad(&im, "program headers or dynamic segment before "
				"the bytes read");
	return CUENV_OK;
}

static int stream_header(struct elf_stream *st, struct cuenv_err *err)
{
	const unsigned char *id = (const unsigned char *)st->head.data;
	struct img im = stream_img(st, st->head.data, st->head.len, err);

	if (id[EI_CLASS] != ELFCLASS32 && id[EI_CLASS] != ELFCLASS64)
		return bad(&im, "unknown class");
	if (id[EI_DATA] != ELFDATA2LSB && id[EI_DATA] != ELFDATA2MSB)
		return bad(&im, "unknown byte order");
	st->im.b64 = im.b64 = id[EI_CLASS] == ELFCLASS64;
	st->im.be = im.be = id[EI_DATA] == ELFDATA2MSB;
	if (im.len < SIZEOF(&im, ehdr))
		return CUENV_OK; /* not yet */
	FIELD(&im, 0, ehdr, e_machine, &st->h.machine);
	FIELD(&im, 0, ehdr, e_phoff, &st->h.phoff);
	FIELD(&im, 0, ehdr, e_phnum, &st->h.phnum);
	FIELD(&im, 0, ehdr, e_phentsize, &st->h.phentsize);
	if (st->h.phnum == PN_XNUM)
		return bad(&im, "program header count in section 0");
	if (st->h.phnum && st->h.phentsize < SIZEOF(&im, phdr))
		return bad(&im, "program header entries too small");
	st->parsed = true;
	return CUENV_OK;
}

/* The segments, once read: start keeping PT_DYNAMIC's bytes. */
static int stream_segments(struct elf_stream *st, const unsigned char *chunk,
			   uint64_t at, size_t n, struct cuenv_err *err)
{
	struct img im = stream_img(st, st->ph.got.data, st->ph.got.len, err);

	st->dyn_known = true;
	for (uint64_t i = 0; i < st->h.phnum; i++) {
		uint64_t base = i * st->h.phentsize, type, off, size;

		if (!FIELD(&im, base, phdr, p_type, &type))
			return bad(&im, "program header out of range");
		if (type != PT_DYNAMIC)
			continue;
		if (!FIELD(&im, base, phdr, p_offset, &off) ||
		    !FIELD(&im, base, phdr, p_filesz, &size))
			return bad(&im, "program header out of range");
		return span_start(st, &st->dyn, off, size, chunk, at, n, err);
	}
	return CUENV_OK;
}

static void record_name(void *ctx, const unsigned char *start, size_t n,
			bool stem, bool at_end, bool mangled)
{
	struct elf_stream *st = ctx;
	uint64_t off = st->wo +
		       (uint64_t)(start - (const unsigned char *)st->win.data);
	struct strv *list = stem ? &st->stems : &st->names;
	char *s;
	long k;

	/* decided in the window before, or not whole yet */
	if (off < st->decided ||
	    (!st->full && (at_end || off + DECIDE >= st->wo + st->win.len)))
		return;
	s = xstrndup((const char *)start, n);
	if (mangled) {
		/* a bundled copy's own name: only its DT_SONAME or DT_NEEDED */
		list = &st->mangled;
	}
	k = strv_find(list, s);
	if (k < 0) {
		strv_push_take(list, s);
		k = (long)list->n - 1;
	} else {
		free(s);
	}
	if (!stem && st->nhits < HITS_MAX) {
		st->hits =
			xrealloc(st->hits, (st->nhits + 1) * sizeof(*st->hits));
		st->hits[st->nhits].off = off;
		st->hits[st->nhits].mangled = mangled;
		st->hits[st->nhits++].name = (size_t)k;
	}
}

/* Scan win (the carry, then the chunk) for names, then keep its tail. */
static void stream_scan(struct elf_stream *st)
{
	size_t keep;

	scan_names((const unsigned char *)st->win.data, st->win.len, true,
		   record_name, st);
	if (!st->cudart_static)
		st->cudart_static =
			has_cudart_static((const unsigned char *)st->win.data,
					  st->win.len);
	if (st->full)
		return;
	if (st->win.len > DECIDE && st->wo + st->win.len - DECIDE > st->decided)
		st->decided = st->wo + st->win.len - DECIDE;
	keep = st->win.len < CARRY ? st->win.len : CARRY;
	memmove(st->win.data, st->win.data + st->win.len - keep, keep);
	buf_setlen(&st->win, keep);
	st->wo = st->pos - keep;
}

int elf_stream_feed(struct elf_stream *st, const void *data, size_t len,
		    struct cuenv_err *err)
{
	const unsigned char *p = data;
	uint64_t at = st->pos;
	int rc = CUENV_OK;

	if (st->state < 0)
		return CUENV_NO;
	if (st->head.len < HEAD_KEEP)
		buf_add(&st->head, p,
			len < HEAD_KEEP - st->head.len
				? len
				: HEAD_KEEP - st->head.len);
	if (!st->state && st->head.len >= SELFMAG) {
		st->state = elf_has_magic(st->head.data, st->head.len) ? 1 : -1;
		if (st->state < 0)
			return cuenv_fail_shown(err, CUENV_NO, st->name, 200,
						"'%s' is not an ELF file");
	}
	if (st->state > 0 && !st->parsed && st->head.len >= EI_NIDENT) {
		rc = stream_header(st, err);
		if (!rc && st->parsed)
			rc = span_start(st, &st->ph, st->h.phoff,
					st->h.phnum * st->h.phentsize, p, at,
					len, err);
	} else {
		span_fill(&st->ph, p, at, len);
	}
	if (!rc && span_done(&st->ph) && !st->dyn_known)
		rc = stream_segments(st, p, at, len, err);
	else if (!rc)
		span_fill(&st->dyn, p, at, len);
	st->pos += len;
	buf_add(&st->win, p, len);
	stream_scan(st);
	return rc;
}

/* The file offset of address addr, through the PT_LOAD segments. */
static bool stream_vaddr(const struct elf_stream *st, const struct img *ph,
			 uint64_t addr, uint64_t *off, uint64_t *room)
{
	for (uint64_t i = 0; i < st->h.phnum; i++) {
		uint64_t base = i * st->h.phentsize, type, o, va, fs;

		if (!FIELD(ph, base, phdr, p_type, &type) || type != PT_LOAD ||
		    !FIELD(ph, base, phdr, p_offset, &o) ||
		    !FIELD(ph, base, phdr, p_vaddr, &va) ||
		    !FIELD(ph, base, phdr, p_filesz, &fs))
			continue;
		if (addr < va || addr - va >= fs || o > st->pos ||
		    fs > st->pos - o)
			continue;
		*off = o + (addr - va);
		*room = fs - (addr - va);
		return true;
	}
	return false;
}

static int cmp_hit(const void *k, const void *e)
{
	uint64_t a = *(const uint64_t *)k, b = ((const struct hit *)e)->off;

	return a < b ? -1 : a > b;
}

/* The CUDA soname that starts at offset off of the file, or NULL. */
static const char *name_at(const struct elf_stream *st, uint64_t off)
{
	const struct hit *h = st->nhits ? bsearch(&off, st->hits, st->nhits,
						  sizeof(*st->hits), cmp_hit)
					: NULL;

	if (!h)
		return NULL;
	return h->mangled ? st->mangled.v[h->name] : st->names.v[h->name];
}

int elf_stream_finish(struct elf_stream *st, struct elf_info *out,
		      struct cuenv_err *err)
{
	struct img ph = stream_img(st, st->ph.got.data, st->ph.got.len, err),
		   dy = stream_img(st, st->dyn.got.data, st->dyn.got.len, err);
	uint64_t strtab = 0, strsz = 0, str_off = 0, room = 0, soname = 0;
	bool have_strtab = false, have_strsz = false, have_soname = false;
	struct strv needed = STRV_INIT;
	uint64_t *vals = NULL;
	size_t nvals = 0;
	int rc = CUENV_OK;

	if (st->state <= 0)
		return cuenv_fail_shown(err, CUENV_NO, st->name, 200,
					"'%s' is not an ELF file");
	st->full = true;
	stream_scan(st);
	if (!st->parsed)
		return bad(&ph, "truncated header");
	if (!span_done(&st->ph) && st->h.phnum)
		return bad(&ph, "program headers past the end of the file");
	out->bits = st->im.b64 ? 64 : 32;
	out->big_endian = st->im.be;
	out->machine = (unsigned)st->h.machine;
	if (st->dyn.on && !span_done(&st->dyn))
		return bad(&ph, "dynamic segment past the end of the file");
	for (uint64_t e = 0; st->dyn.on && st->dyn.len - e >= SIZEOF(&dy, dyn);
	     e += SIZEOF(&dy, dyn)) {
		uint64_t tag, val;

		if (!FIELD(&dy, e, dyn, d_tag, &tag) ||
		    !FIELD(&dy, e, dyn, d_un.d_val, &val)) {
			rc = bad(&dy, "dynamic entry out of range");
			goto out;
		}
		if (tag == DT_NULL)
			break;
		if (tag == DT_STRTAB) {
			strtab = val;
			have_strtab = true;
		} else if (tag == DT_STRSZ) {
			strsz = val;
			have_strsz = true;
		} else if (tag == DT_FLAGS_1) {
			out->nodeflib = (val & DF_1_NODEFLIB) != 0;
		} else if (tag == DT_SONAME && !have_soname) {
			soname = val;
			have_soname = true;
		} else if (tag == DT_NEEDED) {
			if (nvals >= NEEDED_MAX) {
				rc = bad(&dy, "too many DT_NEEDED entries");
				goto out;
			}
			vals = xrealloc(vals, (nvals + 1) * sizeof(*vals));
			vals[nvals++] = val;
		}
	}
	if (have_strtab) {
		if (!stream_vaddr(st, &ph, strtab, &str_off, &room)) {
			rc = bad(&ph, "DT_STRTAB is in no loaded segment");
			goto out;
		}
		if (have_strsz && strsz > room) {
			rc = bad(&ph, "DT_STRSZ runs past its segment");
			goto out;
		}
		room = have_strsz ? strsz : room;
	} else if (nvals || have_soname) {
		rc = bad(&dy, "DT_NEEDED or DT_SONAME without a string table");
		goto out;
	}
	for (size_t i = 0; i < nvals + have_soname; i++) {
		uint64_t idx = i < nvals ? vals[i] : soname;
		const char *name;

		if (idx >= room) {
			rc = bad(&dy, "name outside the string table");
			goto out;
		}
		name = name_at(st, str_off + idx);
		if (name && i < nvals)
			strv_push(&needed, name);
		else if (name)
			out->soname = xstrdup(name);
	}
	for (size_t i = 0; i < needed.n; i++)
		strv_push(&out->needed, needed.v[i]);
	for (size_t i = 0; i < st->names.n; i++)
		if ((!out->soname || strcmp(out->soname, st->names.v[i])) &&
		    framework_loads(st->names.v[i]))
			strv_push(&out->cuda_named, st->names.v[i]);
	for (size_t i = 0; i < st->stems.n; i++)
		strv_push(&out->cuda_stems, st->stems.v[i]);
	out->cudart_static = st->cudart_static;
out:
	strv_release(&needed);
	free(vals);
	return rc;
}
