/* elfsec_kind.c — what kind of linked ELF file a path is (elfsec.h). */
#include "elf/elfsec.h"
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <unistd.h>

/* Does e ask for a program interpreter (an executable, PIE or not)? */
static int elfsec_has_interp(Elf *e)
{
  size_t n;
  if (elf_getphdrnum(e, &n) != 0) return 0;
  for (size_t i = 0; i < n; i++) {
    GElf_Phdr ph;
    if (gelf_getphdr(e, (int)i, &ph) && ph.p_type == PT_INTERP) return 1;
  }
  return 0;
}

int elfsec_shared_library(const char *path)
{
  if (elf_version(EV_CURRENT) == EV_NONE) return 0;
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  Elf *e = elf_begin(fd, ELF_C_READ_MMAP, NULL);
  GElf_Ehdr eh;
  int lib = e && elf_kind(e) == ELF_K_ELF && gelf_getehdr(e, &eh) && eh.e_type == ET_DYN && !elfsec_has_interp(e);
  if (e) elf_end(e);
  close(fd);
  return lib;
}
