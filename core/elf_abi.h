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

#define DT_NULL 0    /* d_tag: the end of the dynamic section */
#define DT_NEEDED 1  /* a library needed (string table offset) */
#define DT_STRTAB 5  /* the string table's address */
#define DT_STRSZ 10  /* its size */
#define DT_SONAME 14 /* the library's own name (string table offset) */

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

_Static_assert(sizeof(struct elf32_ehdr) == 52, "Elf32_Ehdr is 52 bytes");
_Static_assert(sizeof(struct elf64_ehdr) == 64, "Elf64_Ehdr is 64 bytes");
_Static_assert(sizeof(struct elf32_phdr) == 32, "Elf32_Phdr is 32 bytes");
_Static_assert(sizeof(struct elf64_phdr) == 56, "Elf64_Phdr is 56 bytes");
_Static_assert(sizeof(struct elf32_shdr) == 40, "Elf32_Shdr is 40 bytes");
_Static_assert(sizeof(struct elf64_shdr) == 64, "Elf64_Shdr is 64 bytes");
_Static_assert(sizeof(struct elf32_dyn) == 8, "Elf32_Dyn is 8 bytes");
_Static_assert(sizeof(struct elf64_dyn) == 16, "Elf64_Dyn is 16 bytes");

#endif
