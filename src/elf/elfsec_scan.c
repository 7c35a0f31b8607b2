/* elfsec_scan.c — one ELF file's `.purist` section, its headers checked
 * first: what the readers of files (elfsec_read.c) and of archive members
 * (elfsec_ar.c) both call. */
#include "elf/elfsec_internal.h"
#include <gelf.h>
#include <libelf.h>
#include <string.h>

/* Why the file's section headers cannot be trusted, or NULL. libelf
 * reads a truncated file as one without sections: the table must fit. */
const char *elfsec_damaged(Elf *e)
{
  GElf_Ehdr eh;
  size_t size = 0, nscn = 0;
  if (!gelf_getehdr(e, &eh) || elf_getshdrnum(e, &nscn) != 0) return elf_errmsg(-1);
  elf_rawfile(e, &size);
  /* libelf counts no sections in a table cut short: the header's count
   * (e_shnum; 0 with a table means the count lies in section 0) says how
   * many there should be. */
  if (eh.e_shnum > nscn) nscn = eh.e_shnum;
  if (eh.e_shoff && nscn == 0) nscn = 1;
  if (eh.e_shoff > size || (uint64_t)nscn * eh.e_shentsize > size - eh.e_shoff)
    return "truncated: its section headers lie past its end";
  return NULL;
}

/* Calls fn with one ELF file's `.purist` data (NULL if it has none). */
void elfsec_scan(Elf *e, const char *name, elfsec_fn fn, void *ctx)
{
  size_t shstrndx;
  const unsigned char *data = NULL;
  size_t len = 0;
  const char *bad = elfsec_damaged(e);
  if (!bad && elf_getshdrstrndx(e, &shstrndx) != 0) bad = elf_errmsg(-1);
  if (bad) {
    fn(ctx, name, NULL, 0, bad);
    return;
  }
  {
    for (Elf_Scn *s = elf_nextscn(e, NULL); s; s = elf_nextscn(e, s)) {
      GElf_Shdr sh;
      const char *sname = gelf_getshdr(s, &sh) ? elf_strptr(e, shstrndx, sh.sh_name) : NULL;
      if (!sname || strcmp(sname, ELFSEC_NAME) != 0 || sh.sh_type == SHT_NOBITS) continue;
      /* A section past the file's end is damage, not "no section". */
      size_t fsize = 0;
      elf_rawfile(e, &fsize);
      if (sh.sh_offset > fsize || sh.sh_size > fsize - sh.sh_offset) {
        fn(ctx, name, NULL, 0, "damaged: its " ELFSEC_NAME " section lies past its end");
        return;
      }
      /* Raw bytes: the records are byte strings, whatever the ELF class. */
      Elf_Data *d = elf_rawdata(s, NULL);
      if (!d && sh.sh_size > 0) {
        fn(ctx, name, NULL, 0, elf_errmsg(-1));
        return;
      }
      data = d && d->d_buf ? d->d_buf : (const unsigned char *)"";
      len = d ? d->d_size : 0;
      break;
    }
  }
  fn(ctx, name, data, len, NULL);
}
