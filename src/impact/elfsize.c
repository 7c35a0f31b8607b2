/* elfsize.c — see elfsize.h. Each call opens its own Elf handle, so
 * workers may read different objects at once. */
#include "impact/elfsize.h"
#include "impact/asmscan.h"
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <string.h>
#include <unistd.h>

int elfsize_init(void)
{
  return elf_version(EV_CURRENT) == EV_NONE ? -1 : 0;
}

/* Adds bytes to the function named by sym's C name. */
static void elfsize_add(elfsize_fns *fns, const char *sym, unsigned long bytes)
{
  char *name = asmscan_base_name(sym, strlen(sym));
  for (size_t i = 0; i < fns->n; i++)
    if (!strcmp(fns->v[i].name, name)) {
      fns->v[i].bytes += bytes;
      free(name);
      return;
    }
  elfsize_fn f = { name, bytes };
  vec_push(fns, f);
}

/* Every defined function symbol of one symbol table section. */
static void elfsize_symbols(Elf *e, Elf_Scn *scn, const GElf_Shdr *sh, elfsize_fns *fns)
{
  Elf_Data *d = elf_getdata(scn, NULL);
  size_t n = sh->sh_entsize ? sh->sh_size / sh->sh_entsize : 0;
  for (size_t i = 0; d && i < n; i++) {
    GElf_Sym s;
    if (!gelf_getsym(d, (int)i, &s)) continue;
    if (GELF_ST_TYPE(s.st_info) != STT_FUNC || s.st_shndx == SHN_UNDEF) continue;
    const char *name = elf_strptr(e, sh->sh_link, s.st_name);
    if (name && *name) elfsize_add(fns, name, (unsigned long)s.st_size);
  }
}

int elfsize_read(const char *path, elfsize_fns *fns, unsigned long *text, char **err)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) { *err = xasprintf("%s: %s", path, strerror(errno)); return -1; }
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  if (!e || elf_kind(e) != ELF_K_ELF) {
    *err = xasprintf("%s: not an ELF object: %s", path, elf_errmsg(-1));
    if (e) elf_end(e);
    close(fd);
    return -1;
  }
  *text = 0;
  for (Elf_Scn *scn = elf_nextscn(e, NULL); scn; scn = elf_nextscn(e, scn)) {
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh)) continue;
    if (sh.sh_type == SHT_SYMTAB) elfsize_symbols(e, scn, &sh, fns);
    else if ((sh.sh_flags & SHF_ALLOC) && (sh.sh_flags & SHF_EXECINSTR)) *text += (unsigned long)sh.sh_size;
  }
  elf_end(e);
  close(fd);
  return 0;
}

void elfsize_fns_free(elfsize_fns *f)
{
  for (size_t i = 0; i < f->n; i++) free(f->v[i].name);
  vec_free(f);
}
