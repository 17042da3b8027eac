/*
 * elf_abi.h: the few ELF structures and values elf.c reads, from the ELF
 * specification (System V ABI, "Object Files"; the 64-bit layouts from
 * the ELF-64 Object File Format), declared here instead of taken from
 * glibc's <elf.h>: reading a Linux wheel's libraries is as legitimate on
 * Windows (`cuenv needs some-manylinux.whl`), where there is no <elf.h>.
 *
 * elf.c never casts these onto a file's bytes: it takes only offsetof()
 * and sizeof() of their fields and reads each field through its bounds-
 * and byte-order-checked reader. So the layouts must match the spec's
 * field for field (every field is here, in order, with its width; the
 * types have no padding in either class: the sizes are the spec's 52/64,
 * 32/56, 40/64 and 8/16 bytes, checked below).
 */
#ifndef CUENV_ELF_ABI_H
#define CUENV_ELF_ABI_H

#include <stdint.h>

#define EI_NIDENT 16 /* e_ident's size */
#define EI_CLASS 4   /* e_ident[]: the class */
#define EI_DATA 5    /* e_ident[]: the byte order */
#define ELFMAG "\177ELF"
#define SELFMAG 4
#define ELFCLASS32 1
#define ELFCLASS64 2
#define ELFDATA2LSB 1 /* little endian */
#define ELFDATA2MSB 2 /* big endian */

#define PN_XNUM 0xffff /* e_phnum: the count is in section 0's sh_info */

#define PT_LOAD 1    /* p_type: a loaded segment */
#define PT_DYNAMIC 2 /* p_type: the dynamic section */

#define SHT_DYNAMIC 6 /* sh_type */

#define DT_NULL 0     /* d_tag: the end of the dynamic section */
#define DT_NEEDED 1   /* a library needed (string table offset) */
#define DT_STRTAB 5   /* the string table's address */
#define DT_STRSZ 10   /* its size */
#define DT_SONAME 14  /* the library's own name (string table offset) */
#define DT_HASH 4     /* the SysV symbol hash table's address */
#define DT_SYMTAB 6   /* the dynamic symbol table's address */
#define DT_SYMENT 11  /* the size of one symbol */
#define DT_RPATH 15   /* the search path, old style (string table offset) */
#define DT_RUNPATH 29 /* the search path, new style (string table offset) */
#define DT_GNU_HASH 0x6ffffef5	 /* the GNU symbol hash table's address */
#define DT_VERSYM 0x6ffffff0	 /* each symbol's version index */
#define DT_FLAGS_1 0x6ffffffb	 /* more flags (DF_1_*) */
#define DT_VERDEF 0x6ffffffc	 /* the versions defined */
#define DT_VERDEFNUM 0x6ffffffd	 /* how many */
#define DT_VERNEED 0x6ffffffe	 /* the versions needed, per library */
#define DT_VERNEEDNUM 0x6fffffff /* how many libraries */

#define DF_1_NODEFLIB 0x800 /* DT_FLAGS_1: not the cache nor defaults */

#define SHT_DYNSYM 11 /* sh_type: the dynamic symbol table */

#define SHN_UNDEF 0 /* st_shndx: an undefined symbol */
#define STB_GLOBAL 1
#define STB_WEAK 2
#define STB_GNU_UNIQUE 10

#define VER_FLG_BASE 0x1     /* vd_flags: the file's own name */
#define VER_FLG_WEAK 0x2     /* vna_flags: a weak version reference */
#define VERSYM_HIDDEN 0x8000 /* versym: not the default version */

struct elf32_ehdr {
	unsigned char e_ident[EI_NIDENT];
	uint16_t e_type, e_machine;
	uint32_t e_version, e_entry, e_phoff, e_shoff, e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum,
		e_shstrndx;
};

struct elf64_ehdr {
	unsigned char e_ident[EI_NIDENT];
	uint16_t e_type, e_machine;
	uint32_t e_version;
	uint64_t e_entry, e_phoff, e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum,
		e_shstrndx;
};

struct elf32_phdr {
	uint32_t p_type, p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags,
		p_align;
};

struct elf64_phdr {
	uint32_t p_type, p_flags;
	uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_align;
};

struct elf32_shdr {
	uint32_t sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size,
		sh_link, sh_info, sh_addralign, sh_entsize;
};

struct elf64_shdr {
	uint32_t sh_name, sh_type;
	uint64_t sh_flags, sh_addr, sh_offset, sh_size;
	uint32_t sh_link, sh_info;
	uint64_t sh_addralign, sh_entsize;
};

struct elf32_dyn {
	int32_t d_tag;
	union {
		uint32_t d_val, d_ptr;
	} d_un;
};

struct elf64_dyn {
	int64_t d_tag;
	union {
		uint64_t d_val, d_ptr;
	} d_un;
};

struct elf32_sym {
	uint32_t st_name, st_value, st_size;
	unsigned char st_info, st_other;
	uint16_t st_shndx;
};

struct elf64_sym {
	uint32_t st_name;
	unsigned char st_info, st_other;
	uint16_t st_shndx;
	uint64_t st_value, st_size;
};

/* The version sections have one layout in both classes. */
struct elf_verdef {
	uint16_t vd_version, vd_flags, vd_ndx, vd_cnt;
	uint32_t vd_hash, vd_aux, vd_next;
};

struct elf_verdaux {
	uint32_t vda_name, vda_next;
};

struct elf_verneed {
	uint16_t vn_version, vn_cnt;
	uint32_t vn_file, vn_aux, vn_next;
};

struct elf_vernaux {
	uint32_t vna_hash;
	uint16_t vna_flags, vna_other;
	uint32_t vna_name, vna_next;
};

_Static_assert(sizeof(struct elf32_ehdr) == 52, "Elf32_Ehdr is 52 bytes");
_Static_assert(sizeof(struct elf64_ehdr) == 64, "Elf64_Ehdr is 64 bytes");
_Static_assert(sizeof(struct elf32_phdr) == 32, "Elf32_Phdr is 32 bytes");
_Static_assert(sizeof(struct elf64_phdr) == 56, "Elf64_Phdr is 56 bytes");
_Static_assert(sizeof(struct elf32_shdr) == 40, "Elf32_Shdr is 40 bytes");
_Static_assert(sizeof(struct elf64_shdr) == 64, "Elf64_Shdr is 64 bytes");
_Static_assert(sizeof(struct elf32_dyn) == 8, "Elf32_Dyn is 8 bytes");
_Static_assert(sizeof(struct elf64_dyn) == 16, "Elf64_Dyn is 16 bytes");
_Static_assert(sizeof(struct elf32_sym) == 16, "Elf32_Sym is 16 bytes");
_Static_assert(sizeof(struct elf64_sym) == 24, "Elf64_Sym is 24 bytes");
_Static_assert(sizeof(struct elf_verdef) == 20, "Elf_Verdef is 20 bytes");
_Static_assert(sizeof(struct elf_verneed) == 16, "Elf_Verneed is 16 bytes");
_Static_assert(sizeof(struct elf_vernaux) == 16, "Elf_Vernaux is 16 bytes");

#endif
