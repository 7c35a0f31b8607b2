/* rt_elf.c — where the watched functions and the program's data are.
 *
 * At start-up, dl_iterate_phdr lists the loaded objects with their load
 * bias (PIE and shared libraries). For each of the program's own objects
 * (the executable and libraries outside the system directories, never the
 * runtime itself) the writable PT_LOAD segments, less the part ld.so made
 * read-only after relocation (PT_GNU_RELRO), become the watched ranges;
 * libelf reads the object's symbol table from its file (.symtab, so static
 * functions and static locals are included; .dynsym when stripped):
 * functions named in the watch list give watched addresses, data objects
 * in the ranges give the names changed bytes are reported by. */
#include "rt/rt.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <link.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define RT_MAX_OBJS 256
#define RT_MAX_RANGES 1024

/* Growable arrays in runtime memory: start-up only, so doubling through
 * prt_alloc (never freed) is fine. */
typedef struct { void *v; size_t n, cap, elt; } rt_arr;

PRT_NOINST static void *rt_push(rt_arr *a)
{
  if (a->n == a->cap) {
    size_t cap = a->cap ? a->cap * 2 : 64;
    void *nv = prt_alloc(cap * a->elt);
    if (!nv) return NULL;
    if (a->n) memcpy(nv, a->v, a->n * a->elt);
    a->v = nv;
    a->cap = cap;
  }
  return (char *)a->v + a->elt * a->n++;
}

typedef struct {
  const char *self;       /* the runtime's own file */
  bool seen_exe;          /* dl_iterate_phdr lists the executable first */
  rt_arr funcs;           /* rt_fn: resolved watched functions */
  rt_arr syms;            /* prt_sym */
  rt_arr ranges;          /* prt_range */
} rt_load;

typedef struct { uintptr_t addr; int32_t w; } rt_fn;

/* System libraries are not the program's own: their data is not watched
 * (the C library's stdio buffers and malloc state change under any call). */
PRT_NOINST static bool rt_is_system(const char *path)
{
  static const char *const dirs[] = { "/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/", "/usr/local/lib/" };
  for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
    if (!strncmp(path, dirs[i], strlen(dirs[i]))) return true;
  return path[0] != '/';   /* the vDSO and the like: no file */
}

/* Watch index of a function name; GCC's clones (f.constprop.0, f.isra.0,
 * f.part.0) count as f. */
PRT_NOINST static int rt_watch_named(const char *name)
{
  size_t len = strcspn(name, ".");
  size_t lo = 0, hi = prt.nwatch;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    int c = strncmp(prt.watch[mid].name, name, len);
    if (c == 0 && prt.watch[mid].name[len]) c = 1;
    if (c == 0) return (int)mid;
    if (c < 0) lo = mid + 1; else hi = mid;
  }
  return -1;
}

/* Adds the writable ranges of one object. */
PRT_NOINST static void rt_add_ranges(rt_load *L, struct dl_phdr_info *info)
{
  uintptr_t relro_end = 0;
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type == PT_GNU_RELRO)   /* ld.so protects [start, end) rounded down */
      relro_end = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz) & ~(uintptr_t)(PRT_PAGE - 1);
  }
  for (int i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
    if (ph->p_type != PT_LOAD || !(ph->p_flags & PF_W)) continue;
    uintptr_t lo = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)(PRT_PAGE - 1);
    uintptr_t hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + PRT_PAGE - 1) & ~(uintptr_t)(PRT_PAGE - 1);
    if (relro_end > lo && relro_end <= hi) lo = relro_end;
    prt_range *r = lo < hi ? rt_push(&L->ranges) : NULL;
    if (!r) continue;
    r->lo = lo;
    r->hi = hi;
    r->prot = PROT_READ | PROT_WRITE | ((ph->p_flags & PF_X) ? PROT_EXEC : 0);
  }
}

PRT_NOINST static bool rt_in_ranges(const rt_load *L, uintptr_t a, size_t first)
{
  const prt_range *r = L->ranges.v;
  for (size_t i = first; i < L->ranges.n; i++)
    if (a >= r[i].lo && a < r[i].hi) return true;
  return false;
}

/* One symbol: a watched function, or a data object in this object's ranges. */
PRT_NOINST static void rt_add_symbol(rt_load *L, const GElf_Sym *s, const char *name, uintptr_t bias,
                                     uint16_t obj, size_t first_range)
{
  if (s->st_shndx == SHN_UNDEF || !*name) return;
  uintptr_t addr = bias + s->st_value;
  int type = GELF_ST_TYPE(s->st_info);
  if (type == STT_FUNC) {
    int w = rt_watch_named(name);
    rt_fn *f = w >= 0 ? rt_push(&L->funcs) : NULL;
    if (f) { f->addr = addr; f->w = w; prt.watch[w].found = true; }
  } else if (type == STT_OBJECT && s->st_size && rt_in_ranges(L, addr, first_range)
             && strcmp(name, "_GLOBAL_OFFSET_TABLE_") && strcmp(name, "_DYNAMIC")) {
    prt_sym *d = rt_push(&L->syms);
    if (!d) return;
    d->addr = addr;
    d->size = s->st_size;
    d->name = prt_strdup(name);
    d->obj = obj;
    d->local = GELF_ST_BIND(s->st_info) == STB_LOCAL;
  }
}

/* Reads one object's symbol table (.symtab, else .dynsym). */
PRT_NOINST static void rt_read_symbols(rt_load *L, const char *path, uintptr_t bias, uint16_t obj, size_t first_range)
{
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  Elf *e = elf_begin(fd, ELF_C_READ, NULL);
  Elf_Scn *scn = NULL, *pick = NULL;
  GElf_Shdr sh, picked;
  while (e && (scn = elf_nextscn(e, scn)) != NULL) {
    if (!gelf_getshdr(scn, &sh)) continue;
    if (sh.sh_type == SHT_SYMTAB || (sh.sh_type == SHT_DYNSYM && !pick)) { pick = scn; picked = sh; }
  }
  Elf_Data *data = pick ? elf_getdata(pick, NULL) : NULL;
  size_t n = data && picked.sh_entsize ? picked.sh_size / picked.sh_entsize : 0;
  for (size_t i = 0; i < n; i++) {
    GElf_Sym s;
    const char *name;
    if (gelf_getsym(data, (int)i, &s) && (name = elf_strptr(e, picked.sh_link, s.st_name)))
      rt_add_symbol(L, &s, name, bias, obj, first_range);
  }
  if (e) elf_end(e);
  close(fd);
}

PRT_NOINST static int rt_visit(struct dl_phdr_info *info, size_t size, void *arg)
{
  rt_load *L = arg;
  const char *path = info->dlpi_name && *info->dlpi_name ? info->dlpi_name : NULL;
  if (!path && !L->seen_exe) path = prt.exe;   /* the executable comes first, unnamed */
  L->seen_exe = true;
  if (!path || rt_is_system(path) || (L->self && !strcmp(path, L->self))) return 0;
  if (prt.nobjs >= RT_MAX_OBJS) return 0;
  uint16_t obj = (uint16_t)prt.nobjs;
  prt.objs[prt.nobjs++] = prt_strdup(path);
  size_t first = L->ranges.n;
  rt_add_ranges(L, info);
  rt_read_symbols(L, path, info->dlpi_addr, obj, first);
  return 0;
}

static int cmp_sym(const void *a, const void *b)
{
  uintptr_t x = ((const prt_sym *)a)->addr, y = ((const prt_sym *)b)->addr;
  return x < y ? -1 : x > y;
}

static int cmp_range(const void *a, const void *b)
{
  uintptr_t x = ((const prt_range *)a)->lo, y = ((const prt_range *)b)->lo;
  return x < y ? -1 : x > y;
}

/* The address table: open addressing, at most a quarter full (a miss
 * inside [fn_lo, fn_hi] then mostly stops at its first slot), and the
 * bounds of the watched addresses. */
PRT_NOINST static int rt_build_hash(const rt_load *L)
{
  size_t cap = 16;
  while (cap < 4 * L->funcs.n) cap *= 2;
  prt.htab = prt_alloc(cap * sizeof *prt.htab);
  if (!prt.htab) return -1;
  prt.hmask = cap - 1;
  prt.fn_lo = UINTPTR_MAX;
  prt.fn_hi = 0;
  const rt_fn *f = L->funcs.v;
  for (size_t i = 0; i < L->funcs.n; i++) {
    size_t h = (f[i].addr * 0x9E3779B97F4A7C15ull) >> 20 & prt.hmask;
    while (prt.htab[h].addr && prt.htab[h].addr != f[i].addr) h = (h + 1) & prt.hmask;
    prt.htab[h].addr = f[i].addr;
    prt.htab[h].w = f[i].w;
    if (f[i].addr < prt.fn_lo) prt.fn_lo = f[i].addr;
    if (f[i].addr > prt.fn_hi) prt.fn_hi = f[i].addr;
  }
  return 0;
}

PRT_NOINST int prt_elf_load(void)
{
  if (elf_version(EV_CURRENT) == EV_NONE) {
    prt_say("libelf: ", elf_errmsg(-1), "");
    return -1;
  }
  rt_load L = { .funcs.elt = sizeof(rt_fn), .syms.elt = sizeof(prt_sym), .ranges.elt = sizeof(prt_range) };
  Dl_info self;
  if (dladdr((void *)prt_elf_load, &self) && self.dli_fname) L.self = self.dli_fname;
  prt.objs = prt_alloc(RT_MAX_OBJS * sizeof *prt.objs);
  if (!prt.objs) return -1;
  dl_iterate_phdr(rt_visit, &L);
  if (L.syms.n) qsort(L.syms.v, L.syms.n, sizeof(prt_sym), cmp_sym);
  if (L.ranges.n) qsort(L.ranges.v, L.ranges.n, sizeof(prt_range), cmp_range);
  prt.syms = L.syms.v;
  prt.nsyms = L.syms.n;
  prt.ranges = L.ranges.v;
  prt.nranges = L.ranges.n;
  for (size_t i = 0; i < prt.nranges; i++) prt.npages += (prt.ranges[i].hi - prt.ranges[i].lo) / PRT_PAGE;
  return rt_build_hash(&L);
}

PRT_NOINST int prt_range_find(uintptr_t a)
{
  size_t lo = 0, hi = prt.nranges;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (a < prt.ranges[mid].lo) hi = mid;
    else if (a >= prt.ranges[mid].hi) lo = mid + 1;
    else return (int)mid;
  }
  return -1;
}

PRT_NOINST long prt_sym_find(uintptr_t a)
{
  size_t lo = 0, hi = prt.nsyms;   /* last symbol starting at or before a */
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (prt.syms[mid].addr <= a) lo = mid + 1; else hi = mid;
  }
  for (size_t i = lo; i-- > 0;) {   /* overlapping symbols are rare: look a little back */
    if (a < prt.syms[i].addr + prt.syms[i].size) return (long)i;
    if (lo - i > 8) break;
  }
  return -1;
}
