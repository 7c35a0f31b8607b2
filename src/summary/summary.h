/* summary.h — what one translation unit (TU) tells the linker.
 *
 * The front end walks each function body once and records *primitive*
 * facts: effects with their source location and call sites with the
 * pointer provenance of every argument. It decides nothing about other
 * functions; the linker (src/link) joins the facts of all TUs. A summary
 * is therefore hermetic: it depends only on the TU's sources and flags
 * (and the knowledge base), which is what makes it cacheable.
 *
 * All names and paths are ids into the TU's own string table.
 *
 * The folder (docs/layout.md) owns the format, its reader and writer; it
 * calls util/ only: the front end writes summaries, everything after reads. */
#ifndef PURIST_SUMMARY_H
#define PURIST_SUMMARY_H
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include "util/strtab.h"
#include "util/vec.h"

/* The purity lattice, in order: a join is the maximum. */
typedef enum { PURITY_CONST = 0, PURITY_PURE = 1, PURITY_NORMAL = 2 } purity;
const char *purity_name(purity p);
static inline purity purity_join(purity a, purity b) { return a > b ? a : b; }

/* Pointer provenance: where a pointer value may point, as a bit set.
 * Parameter i of the function owns bit PROV_PARAM0 + i; pointers passed in
 * parameters beyond PROV_MAX_PARAMS count as PROV_UNKNOWN. */
#define PROV_UNKNOWN ((uint64_t)1 << 0)  /* anywhere: global memory */
#define PROV_LOCAL   ((uint64_t)1 << 1)  /* the function's own automatic storage */
#define PROV_RODATA  ((uint64_t)1 << 2)  /* read-only static storage */
/* (format 8; issue 30) a block allocated during this call (malloc, an
 * allocator the knowledge base or a `malloc` attribute names) that no
 * caller has seen yet: for inference it may point anywhere, as
 * PROV_UNKNOWN; `check` treats what is done to it as scratch work when
 * the block never escapes (checks/scratch.c). */
#define PROV_FRESH   ((uint64_t)1 << 3)
/* Where a callee's effects through a pointer argument reach memory a
 * caller may see: everything but local storage and parameters. */
#define PROV_ANYWHERE (PROV_UNKNOWN | PROV_FRESH)
#define PROV_PARAM0  4
#define PROV_MAX_PARAMS 60
static inline uint64_t prov_param(unsigned i)
{
  return i < PROV_MAX_PARAMS ? (uint64_t)1 << (PROV_PARAM0 + i) : PROV_UNKNOWN;
}

typedef enum {
  SE_READ_GLOBAL,    /* reads a named object with static or thread storage */
  SE_WRITE_GLOBAL,   /* writes one */
  SE_READ_MEM,       /* reads through a pointer that may point anywhere */
  SE_WRITE_MEM,      /* writes through one */
  SE_READ_PARAM,     /* reads through pointer parameter `param` */
  SE_WRITE_PARAM,    /* writes through it */
  SE_VOLATILE,       /* any volatile access */
  SE_ATOMIC,         /* an atomic operation (a synchronising access) */
  SE_ASM,            /* inline assembly */
  SE_CALL_INDIRECT,  /* a call through a function pointer */
  SE_LOOP,           /* a loop not provably finite: may not return */
  SE_GOTO_BACK,      /* a backward goto: may not return */
  SE_READ_CONST,     /* reads a named read-only object: no effect, kept for the reason text */
  SE_ADDR_GLOBAL,    /* takes the address of a writable global: no effect by itself,
                        but it may be written through that address elsewhere */
  SE_KIND_COUNT
} sum_effect_kind;

/* SE_ASM: why an inline asm statement counts as an effect (asm.c); kept
 * in sum_effect.param. Volatile (or basic, or goto) with a real template:
 * may read a clock or do I/O; a "memory" clobber on a real template: reads
 * and writes any memory; the statement's text could not be read: anything;
 * a compiler barrier (a template that is empty or only assembler comments,
 * volatile or with a "memory" clobber): orders the caller's accesses but
 * does nothing at run time, so it breaks no declared attribute. */
typedef enum { SA_ASM_OTHER = 0, SA_ASM_VOLATILE = 1, SA_ASM_MEMORY = 2, SA_ASM_UNREAD = 3,
               SA_ASM_BARRIER = 4, SA_ASM_MOVE = 5 } sum_asm_why;

/* What a named global object is, for the reason text. */
typedef enum { SO_NONE, SO_GLOBAL, SO_FILE_STATIC, SO_STATIC_LOCAL, SO_THREAD_LOCAL } sum_obj_kind;

#define SEF_DOOMED 0x1   /* on a path that ends in a noreturn call */
/* SE_LOOP only: the loop is proven finite except that its bound calls
 * the function of call `call - 1` (relative to sum_func.call_off), whose
 * class only the link knows; the loop may not return unless that callee
 * turns out pure or const. A loop with several such calls records one
 * effect per call. */
#define SEF_UNLESS_PURE_CALL 0x2
/* (format 4) The access is atomic: an atomic load, store or
 * read-modify-write builtin (__atomic_*, __c11_atomic_*, __sync_*, C11
 * atomic_*), or an access of an `_Atomic` object. Only on SE_READ_* /
 * SE_WRITE_* effects, whose `name` is the atomic's object (`counter`, or
 * the pointer `p` in `*p`): a load is a read, a store or read-modify-write
 * a write (DESIGN.md §2). */
#define SEF_ATOMIC 0x8
/* (format 4) SE_READ_* / SE_WRITE_*: the access is an operand of inline
 * asm (an "=m" output, an "m" input, any output lvalue). */
#define SEF_ASM 0x10

/* In the condition of an `if` whose guard (see sum_effect.guard) is set:
 * the test itself, run on every call, e.g. a once-guard's atomic load and
 * g_once_init_enter(&cache) call (format 4). */
#define SEF_GUARD_TEST 0x4
/* (format 4) SE_WRITE_GLOBAL of a whole object (not an element) whose
 * stored value is computed from the function's parameters (argdep.c): a
 * memo's cache written so differs between first calls. */
#define SEF_ARG_VALUE 0x20
/* (format 4) SE_LOOP only: no path leaves the loop (`for (;;) ;` after an
 * error message, GLib's g_error): it ends the path as a noreturn call does,
 * and what led to it is SEF_DOOMED (checks/noreturn.c names it). */
#define SEF_ENDLESS 0x40
/* (format 4) SE_READ_GLOBAL / SE_WRITE_GLOBAL of an object a system
 * header declares (libc's optind, environ, stdout): the library defines
 * and writes it, so "nothing in the program writes it" never holds. */
#define SEF_SYSTEM_OBJ 0x80
/* (format 6; issue 29) On a branch every path of which returns (or ends
 * in a noreturn call): nothing after the branch is reached from here, so
 * the effect is not "in the way" of a later call merging with an earlier
 * one. (Calls: SCF_LEAVES.) */
#define SEF_LEAVES 0x100
/* (format 7; issue 37) SE_READ_CONST of a writable static that no code of
 * the TU writes and whose address never escapes (frontend/frozen.c): it
 * keeps its initial value, as GCC's ipa-reference knows. */
#define SEF_FROZEN 0x200
/* (format 7; issue 30) SE_READ_MEM of what a pointer loaded from a
 * read-only table defined in another TU points to, named after the table:
 * a read of read-only data if the TU defining the table vouches for it
 * (an empty slot function "TABLE.*"; frontend/rotable.c, link/rotable.c). */
#define SEF_RO_TABLE 0x400
/* (format 8; issue 30) SE_READ_MEM / SE_WRITE_MEM through a pointer to a
 * block this call allocated (PROV_FRESH, perhaps beside local storage),
 * or a call through (and the read of) an allocation hook the knowledge
 * base names: scratch work, no effect a caller sees if the block never
 * escapes (sum_func.sflags, link/capture.c). Inference counts it. */
#define SEF_SCRATCH 0x800
/* (format 8; issue 30) SE_WRITE_MEM of errno storing back a value read
 * from errno in the same call (`int e = errno; … errno = e;`): it leaves
 * errno as it was, so `check` does not count it (inference does). */
#define SEF_ERRNO_RESTORE 0x1000
/* (format 12; issue 30 item 7) SE_READ_PARAM / SE_WRITE_PARAM whose param
 * is nparams + i: through the pointer that parameter i (a pointer to a
 * pointer, the function's slot) pointed to on entry, `buf = *inbuf; *buf
 * = 0` (frontend/slot.c). The link maps it through the call's pointee
 * masks (SCF_PTE); without them, memory anywhere. */
#define SEF_PTE 0x2000
/* (format 12; issue 30 item 7) SE_WRITE_PARAM that needs two tests of the
 * function's input the analysis cannot relate: every assignment that gave
 * the pointer this parameter ran under one input test, the write under
 * another (frontend/maywrite.c); sum_effect.cond says which. `check`
 * reports a misuse that only such writes make as a warning, "may write". */
#define SEF_MAY 0x4000

typedef struct { uint32_t file, line, col; } sum_loc;
/* Does a come before b in one file (line, then column)? */
static inline bool sum_loc_before(sum_loc a, sum_loc b)
{
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

typedef struct {
  uint8_t kind;      /* sum_effect_kind */
  uint16_t flags;    /* SEF_* */
  uint8_t obj;       /* sum_obj_kind, for SE_*_GLOBAL */
  uint8_t param;     /* parameter index, for SE_*_PARAM; sum_asm_why for SE_ASM; for
                        SE_CALL_INDIRECT (format 19) 1 + P for a call through a
                        member of what parameter P points to (`P->m (…)`), 0 else */
  uint32_t name;     /* object, parameter or pointer name; 0 if none */
  uint32_t guard;    /* name of a static tested by an enclosing `if` ("already
                        computed?"), 0 if none: memoisation shows here */
  uint32_t call;     /* SEF_UNLESS_PURE_CALL: 1 + the call's index relative to
                        sum_func.call_off; 0 otherwise */
  uint32_t macro;    /* (v4) the outermost macro whose expansion holds loc (the
                        effect is spelled inside that macro's definition), 0 if
                        none: diagnostics say "in expansion of macro 'X'" */
  uint32_t cond;     /* (format 12) SEF_MAY: the two tests, as text; else 0 */
  sum_loc loc;
} sum_effect;

#define SCF_DOOMED   0x1  /* the call is on a path that ends in a noreturn call */
#define SCF_NORETURN 0x2  /* the callee never returns */
#define SCF_INVARIANT_ARGS 0x4 /* in a loop, with arguments the loop does not change */
#define SCF_ARGS_READ_MEM  0x8 /* the arguments read globals or memory */
#define SCF_IN_LOOP        0x10 /* inside a loop: the loop_* ranges are set */
#define SCF_GUARD_TEST     0x20 /* in an `if` condition testing `guard` (format 4; as SEF_GUARD_TEST) */
#define SCF_TABLE          0x40 /* not a call written in the source: one of the functions a call
                                   through a read-only table of function pointers may reach
                                   (the call joins them all); call-site facts skip it */
#define SCF_ARGS_SIDE      0x80 /* (format 4) the arguments do something of their own (a call, an
                                   assignment, ++/--): deleting a dead call keeps that */
/* (format 6) As SEF_LEAVES: the call is on a branch every path of which returns. */
#define SCF_LEAVES         0x100
/* (format 7; issue 30) In the default of a switch whose cases name every
 * enumerator of its enum: a guard against an impossible value, reported
 * as a failed assertion is. */
#define SCF_IMPOSSIBLE     0x200
/* (format 8; issue 30) The call returns a block allocated for this call
 * (knowledge-base `alloc`, or a `malloc` attribute), kept in local
 * pointers: scratch memory when it never escapes. */
#define SCF_ALLOC          0x400
/* (format 8; issue 30) The call releases (knowledge-base `fN`) blocks
 * this call allocated, and nothing else: every released argument is
 * fresh or null. */
#define SCF_FREE           0x800
/* (format 10; issue 29) The call is in an arm of a `?:` whose value is
 * computed the same way by an earlier arm of the same conditional
 * (silk_LIMIT(a, f(x), f(y)) spells f(x) in both halves): GCC's
 * cross-jumping shares the two identical blocks before any attribute, so
 * the attribute removes no call here. */
#define SCF_TAIL_SHARED    0x1000
/* (format 12; issue 30 item 7) The call's argument masks are followed by
 * as many pointee masks: where the pointer stored in what argument i
 * points to may point (`&v` of a local pointer v handed to a callee that
 * hands a pointer back: v's value at the call), PROV_UNKNOWN where not
 * known. sum_tu.argmasks[arg_off + nargs .. + 2 nargs). */
#define SCF_PTE            0x2000
/* (format 16; issue 29) The call repeats an earlier one (same_as), its
 * arguments read memory only as fields `V->f` of one local pointer V, and
 * every write the function records between the two is a store to another
 * field of the same *V, bits apart from every f (frontend/fieldapart.c):
 * GCC's alias oracle tells the accesses apart by their offsets from V, so
 * for a const callee those stores are not in the way. */
#define SCF_FIELDS_APART   0x4000
/* (format 16; issue 29) Code hoisting of an inlined copy: the callee is a
 * tiny function GCC inlines here whose body begins with a call of
 * inl_callee (its parameters as arguments), and the then-side of the if
 * whose else-branch this call begins holds such a call too, at inl_same
 * (1 + its index, relative), which begins that side: GCC computes the
 * copied call once before the branch (jq's gen_destructure: both ways
 * begin with gen_op_simple(DUP), whose opcode_describe(DUP) is hoisted).
 * The ways are hoist_t_eff/call and hoist_e_eff/call, as for hoist_same;
 * hoist_same itself stays 0. */
#define SCF_INL_HOISTED    0x8000
/* The number of masks a call stores in sum_tu.argmasks. */
#define SUM_CALL_NMASKS(c) ((c)->nargs * (((c)->flags & SCF_PTE) ? 2u : 1u))

/* What happens to a call's value (for `explain`). */
/* SCU_DEAD_STORE (format 15; issue 29): stored into a local that no way
 * on from the store reads before writing it again or leaving its scope
 * (`v = f(); continue;`), though other stores of v are read. */
typedef enum { SCU_USED = 0, SCU_DISCARDED = 1, SCU_DEAD_LOCAL = 2, SCU_DEAD_STORE = 3 } sum_call_use;

/* Call-site facts are positions relative to the calling function's own
 * effects and calls (sum_func.eff_off / call_off), so that what lies
 * between two calls, or inside a loop, can be judged once the callees'
 * classes are known. */
typedef struct {
  uint32_t callee;   /* index into sum_tu.funcs */
  uint16_t flags;    /* SCF_* */
  uint8_t use;       /* sum_call_use */
  uint32_t arg_off;  /* provenance of each argument: sum_tu.argmasks[arg_off..+nargs) */
  uint32_t nargs;
  uint32_t guard;    /* as sum_effect.guard */
  uint32_t same_as;  /* 1 + index of an earlier call of the same callee with the same
                        argument expressions, unchanged, that dominates this one; 0 if none */
  uint32_t eff_pos;  /* the function's effects recorded before this call */
  uint32_t loop_eff_lo, loop_eff_hi;    /* innermost loop's effects, [lo, hi); hi = 0: not in a loop */
  uint32_t loop_call_lo, loop_call_hi;  /* and its calls */
  uint32_t macro;    /* (v4) as sum_effect.macro */
  /* (format 10; issue 29) The callee is a tiny function of this TU that
   * GCC inlines here, and a call its body makes unconditionally with its
   * parameters as arguments then computes, with this call's arguments, the
   * value of an earlier call of this function: 1 + that inner callee's
   * index into sum_tu.funcs (0: none), and 1 + the earlier call's index
   * (relative), a call of that callee or of another function inlined so. */
  uint32_t inl_callee;
  uint32_t inl_same;
  /* (format 11; issue 29) The then-branch (or `?:` true arm) of the
   * innermost if whose else-branch holds this call: its effects
   * [arm_eff_lo, arm_eff_hi) and calls [arm_call_lo, arm_call_hi)
   * (relative) are on no path from before that if to this call, so they
   * are not between it and an earlier identical call (`if (type(k) == A)
   * { write(k); } else if (type(k) == B)`: GCC merges the two calls).
   * arm_eff_hi = arm_call_hi = 0: none. */
  uint32_t arm_eff_lo, arm_eff_hi, arm_call_lo, arm_call_hi;
  /* (format 12; issue 29) Code hoisting: this call is the first of the
   * else-branch of an if (or what it begins with), and the then-side (the
   * then-branch, or the second operand of the condition's `a && b`)
   * begins with the same call: 1 + that call's index (relative), 0 if
   * none. GCC computes the value once before the branch when nothing on
   * either way to the two calls may write memory it reads or not return:
   * the ways are the effects and calls from (hoist_t_eff, hoist_t_call)
   * to the then-side call and from (hoist_e_eff, hoist_e_call) to this one
   * (relative). hoist_dep_t and hoist_dep_e: 1 + the call whose own
   * hoisting makes the then-side call (resp. this one) the first of its
   * side, 0 if none; that hoisting must happen too. */
  uint32_t hoist_same, hoist_t_eff, hoist_t_call, hoist_e_eff, hoist_e_call, hoist_dep_t, hoist_dep_e;
  /* (format 13; issue 29) The calls [late_lo, late_hi) (relative),
   * recorded before this one, that GCC runs after it: earlier arguments of
   * the calls whose arguments hold it, on a target where GCC evaluates a
   * call's arguments right to left (x86-64, i386: `f(g(a), h(b))` calls h
   * first). They store nothing of their own (no write, volatile, atomic,
   * asm or indirect call among their effects). late_hi = 0: none. A way
   * of code hoisting to this call skips them. */
  uint32_t late_lo, late_hi;
  /* (format 13; issue 29) hoist_same is set and the call's arguments are
   * memory to GCC (a struct or union passed whole): a store on either way
   * stops the hoisting too. */
  uint32_t hoist_mem;
  /* (format 14; issue 30 item 2) Bit i: argument i is surely not a null
   * pointer (`&object`, an array, a string literal): a library function
   * that keeps hidden state only when given a null pointer there
   * (mbrtowc's mbstate_t, knowledge-base `nullN`) does not here. */
  uint64_t nonnull;
  /* (format 19; issue 30 item 3) Bit i: argument i is `&v` of a local
   * struct of the caller, and its pointee mask (SCF_PTE) is what the
   * caller stores into v's pointer members: the link adds what the
   * callees lending v (pte_group) store through it (link/ptrblock.c). */
  uint64_t pte_join;
  /* (format 19) With pte_join: 1 + an id, within the function, of the
   * local struct lent there; the calls lending the same local share one
   * mask (what any of them stores there stays there for the next). */
  uint32_t pte_group;
  /* (format 20; issue 30) The innermost macro whose definition spells
   * the call, when another macro is outermost at it (`macro`): a guard
   * macro used in a table or check macro (NetworkManager's lookup
   * functions default to g_return_val_if_reached); 0 if none. */
  uint32_t spell_macro;
  sum_loc loc;
} sum_call;

typedef enum { SUM_EXTERNAL = 0, SUM_INTERNAL = 1 } sum_linkage;

#define SUM_DECL_PURE  0x1
#define SUM_DECL_CONST 0x2
/* pure/const written on a function returning void: clang drops the
 * attribute from the AST and warns; the front end keeps the fact. */
#define SUM_DECL_VOID_PURE  0x4
#define SUM_DECL_VOID_CONST 0x8
/* C23's standard function-type attributes (issue 15), read from clang's
 * "unknown attribute ignored" warning (frontend/c23attr.c): libclang 19
 * keeps no trace of them in the AST. */
#define SUM_DECL_REPRODUCIBLE 0x10
#define SUM_DECL_UNSEQUENCED  0x20
#define SUM_DECL_C23 (SUM_DECL_REPRODUCIBLE | SUM_DECL_UNSEQUENCED)
#define SUM_DECL_GNU (SUM_DECL_PURE | SUM_DECL_CONST)
/* (format 4, on a sum_decl only) the same written before the declaration,
 * `[[unsequenced]] int f(void);`: it appertains to the declaration, where
 * the standard does not allow it (it applies to a function declarator or
 * a function type), so nothing is promised (checks/misuse.c says so). */
#define SUM_DECL_LEAD_REPRODUCIBLE 0x40
#define SUM_DECL_LEAD_UNSEQUENCED  0x80
#define SUM_DECL_LEAD_SHIFT 2   /* SUM_DECL_REPRODUCIBLE << 2 == SUM_DECL_LEAD_REPRODUCIBLE */
#define SUM_DECL_MASK 0xff

#define SFF_BODY      0x001  /* defined (with a body) in this TU */
#define SFF_NORETURN  0x002  /* never returns: declared so, or every path of its body ends in a noreturn call */
#define SFF_VOID      0x004  /* returns void */
#define SFF_SYSTEM    0x008  /* declared in a system header */
#define SFF_WEAK      0x010  /* weak definition or declaration */
#define SFF_VARIADIC  0x020
#define SFF_INLINE    0x040  /* an inline definition (C99 inline, gnu_inline) */
#define SFF_BUILTIN_PURE  0x080 /* pure implied by the compiler (a builtin) */
#define SFF_BUILTIN_CONST 0x100 /* const implied by the compiler */
/* (format 4) Not a function of the source: the function-pointer member of a
 * read-only object with external linkage, named "object.member", standing
 * for the functions the object's initializer stores there. Its body (in
 * the TU that defines the object) calls each of them with its own
 * parameters (SCF_TABLE); elsewhere it is declared only. Always with
 * SFF_SYSTEM, so that no output lists it (frontend/fnslot.c). */
#define SFF_SLOT 0x200
/* (issue 29) The result is a struct or union: GCC neither merges nor
 * hoists such calls (it still deletes a dead one). */
#define SFF_AGGREGATE 0x400
/* (issue 29) Defined in a TU built as position-independent code with
 * semantic interposition (-fPIC/-fpic without -fno-semantic-interposition),
 * external with default visibility, not inline: another library may
 * replace it at load time, so the compiler uses neither its body's
 * purity nor its body anywhere, even in its own file. */
#define SFF_INTERPOSABLE 0x800
/* (issue 29) Defined in a TU built as position-independent code (-fPIC or
 * -fpic), external with default visibility, not inline: a shared
 * library's export, public API even in a database that also holds the
 * programs calling it. */
#define SFF_EXPORTED 0x1000
/* (format 7; issue 37) Declared noipa, or its body is compiled at -O0
 * (optimize("O0")): GCC uses neither its body nor its inferred class at
 * call sites, so only a declared attribute changes its calls. */
#define SFF_NOIPA 0x2000
/* (format 7; issue 37) `__builtin_unreachable` (C23 unreachable()): ends
 * a path as a noreturn call does, but a promise that the path is never
 * taken, not a way out: a call of it makes nothing "may not return". */
#define SFF_UNREACHABLE 0x4000
/* (format 7; issue 37) An alias (`__attribute__((alias("target")))`): its
 * body, made by the front end, is one call of the target passing every
 * parameter on, so it has the target's class and reason. */
#define SFF_ALIAS 0x8000

typedef struct {
  uint32_t name;
  uint32_t keyfile;  /* internal linkage: the file that defines it (else declares it); 0 if external */
  sum_loc loc;       /* the name in the definition, else in the first declaration */
  uint8_t linkage;   /* sum_linkage */
  uint8_t declared;  /* SUM_DECL_*: explicit attributes on any declaration in this TU */
  uint16_t flags;    /* SFF_* */
  uint16_t nparams;
  uint32_t eff_off, neff;    /* sum_tu.effs[eff_off..+neff) */
  uint32_t call_off, ncall;  /* sum_tu.calls[call_off..+ncall) */
  uint32_t fnarg_off, nfnarg;  /* sum_tu.fnargs[fnarg_off..+nfnarg) (format 4) */
  uint32_t pcall_off, npcall;  /* sum_tu.pcalls[pcall_off..+npcall) (format 4) */
  /* (format 8; issue 30) Parameters whose pointer value the body keeps
   * beyond its call: stored anywhere but a local pointer variable,
   * returned, passed through a function pointer (bit i = parameter i).
   * Passing it to a direct call is left to the link (link/capture.c). */
  uint64_t captures;
  uint8_t sflags;    /* SSF_* */
  /* (format 18; issue 30 items 1, 3) Pointers stored into memory
   * (frontend/ptrblock.c), as provenance masks in the function's terms:
   * pinto, where a pointer is stored beyond its own locals and blocks
   * (parameters, virtual parameters, PROV_UNKNOWN); pstores, the values
   * stored there; ownc, the values stored into its own blocks
   * (PROV_FRESH) or through a pointer that may point anywhere. Callees'
   * stores are the link's (link/ptrblock.c). A pointer stored into the
   * caller's block this way is in pstores, not in captures. */
  uint64_t pinto, pstores, ownc;
} sum_func;

/* (format 8) sum_func.sflags: a block the body allocates (PROV_FRESH)
 * leaves its call by itself: returned, stored beyond the locals, passed
 * through a function pointer, or a local holding it has its address
 * taken. Its scratch flags then break the attribute as any write does. */
#define SSF_FRESH_ESCAPES 0x1
/* It allocates scratch memory at all (an SCF_ALLOC call or SEF_SCRATCH). */
#define SSF_SCRATCH       0x2
/* A block it allocates is returned (an allocator: a caller that keeps the
 * block to itself uses it as scratch memory, link/capture.c). */
#define SSF_FRESH_RETURNED 0x4
/* (format 11) A block it allocates leaves by a way that reaches beyond its
 * own locals: returned in a struct, stored in a global or through a
 * pointer that may point anywhere, passed through a function pointer.
 * SSF_FRESH_ESCAPES without it: the blocks went only into a local object
 * whose address is then passed on or taken (GMP's `MPZ_TMP_INIT (x, n)`
 * keeps the limbs in a local mpz_t), which the analysis cannot follow but
 * which is not by itself a leak: the witness names another cause first
 * (checks/scratch.c). */
#define SSF_FRESH_OUT     0x8
/* (format 14; issue 30 item 2) It keeps errno for its caller: saves it on
 * entry and puts it back right before every return (frontend/errsave.c),
 * so what it and its callees write into errno in between is no effect
 * `check` counts (link/capture.c). Inference still counts it. */
#define SSF_ERRNO_KEPT    0x10
/* (format 18) It may store pointers where pinto/pstores/ownc cannot say:
 * a pointer converted to an integer, a call through a function pointer
 * (not an allocation hook) given a pointer (frontend/ptrblock.c). */
#define SSF_PTR_OPAQUE    0x20
/* (format 18) A block it allocates is stored into its own blocks only
 * (GMP's `fft_l[i] = tmp`): not an escape as long as those blocks hold
 * only pointers to its own blocks (link/ptrblock.c); else as
 * SSF_FRESH_ESCAPES. */
#define SSF_FRESH_IN_OWN  0x40

/* Function pointers the link can resolve per call site (format 4; issue 13
 * item 4). A function passed as an argument of a direct call: */
#define SFA_FUNC  0   /* value: that function, an index into sum_tu.funcs */
#define SFA_PARAM 1   /* value: the caller's own parameter, which the caller never
                         reassigns nor takes the address of: whatever its caller passed */
#define SFA_NULL  2   /* a null pointer constant (value 0): a call through it would be
                         undefined, so the callee never makes one on that path */
/* (format 10) Several facts with the same call and argument, adjacent:
 * the argument is one of them (`c ? f : g`, frontend/fnptr.c). */
typedef struct {
  uint32_t call;     /* the call, relative to sum_func.call_off */
  uint32_t arg;      /* the argument's position */
  uint8_t kind;      /* SFA_* */
  uint32_t value;
} sum_fnarg;

/* A call through the function's own parameter (never reassigned, address
 * never taken): its SE_CALL_INDIRECT effect counts as unknown (normal)
 * unless a call site passes a known function there. */
typedef struct {
  uint32_t eff;      /* the SE_CALL_INDIRECT effect, relative to sum_func.eff_off */
  uint32_t param;    /* the parameter called through */
  uint32_t arg_off, nargs;   /* provenance of the arguments: sum_tu.argmasks */
  /* (format 17) 0: the call is through the parameter itself. Else the
   * call is through a function-pointer member of the struct that a call
   * through the parameter returns (xz's `fc = coder_find (id);
   * fc->memusage (o)`): 1 + the member's byte offset in the struct type
   * the caller reads it as. Resolved per call site against what the bound
   * function returns (sum_rmember). */
  uint32_t moff;
} sum_pcall;

/* (format 17) What a lookup returns: every value it returns is a null
 * pointer or an element of a read-only table of this TU (static storage,
 * const, its initializer here), the body the one every call runs
 * (frontend/fnret.c). One record per function-pointer member of the
 * table's element type and function stored there (all elements); a member
 * holding only null pointers has one SFA_NULL record; a member whose
 * values are not all known functions has none (a call through it stays
 * unknown). */
typedef struct {
  uint32_t func;     /* the lookup */
  uint32_t moff;     /* the member's byte offset in the element type */
  uint8_t kind;      /* SFA_FUNC or SFA_NULL */
  uint32_t value;    /* SFA_FUNC: a function index */
} sum_rmember;

/* Function pointers stored in struct fields, and calls through them
 * (format 8; issue 30 item 5): a field is named by its USR (the same in
 * every TU: "c:@S@hash_table@FI@hasher"), its values are resolved over the
 * whole program by the link (link/fields.c). */
#define SFS_UNKNOWN 3 /* anything else stored there: a loaded pointer, a call's result,
                         the field's address taken (`&x.f`); field 0: some field */
#define SFS_ADDR    4 /* no store: function `value`'s address is taken (used as a value, not
                         called directly), so it may be called from anywhere; field 0 */
#define SFS_ANY     5 /* function `value` is stored in a field of a record the initializer
                         does not say (brace elision): it may be in any field; field 0 */
#define SFS_ESCAPE  6 /* the address of a record holding the union `field` is passed to
                         function `value`, which may write it unless the program has its body */
/* A field key that is SUM_UNION_FNFIELD then a union's USR names every
 * member of a union whose members are all pointers: they overlay, so a call
 * through one reaches what any of them holds (format 17). SUM_UNION_ANY:
 * an unknown data pointer went to a member an initializer does not say. */
#define SUM_UNION_FNFIELD "union "
#define SUM_UNION_ANY "union ?"
/* A field key that is SUM_STATIC_FNVAR then a USR names a static variable of
 * function-pointer type (file scope or in a function), a field of its own:
 * every store into it is in its TU. */
#define SUM_STATIC_FNVAR "static "
typedef struct {
  uint32_t field;    /* string id of the field's USR; 0 with SFS_ADDR, SFS_ANY, or
                        SFS_UNKNOWN for a value whose field is not known */
  uint32_t func;     /* 1 + the function whose body stores it; 0: a file-scope initializer */
  uint8_t kind;      /* SFA_FUNC, SFA_PARAM (the storing function's intact parameter),
                        SFA_NULL, SFS_* */
  uint32_t value;    /* SFA_FUNC, SFS_ADDR, SFS_ANY, SFS_ESCAPE: a function index; SFA_PARAM: the parameter */
} sum_fstore;

/* Whether an fstore's value is a function index (SFA_FUNC, SFS_ADDR,
 * SFS_ANY), which pruning and linking renumber, rather than a parameter or
 * nothing. */
static inline bool sum_fstore_names_func(const sum_fstore *s)
{
  return s->kind == SFA_FUNC || s->kind == SFS_ADDR || s->kind == SFS_ANY || s->kind == SFS_ESCAPE;
}

/* A call through a function-pointer field (format 8): its SE_CALL_INDIRECT
 * effect, the field, and the provenance of the arguments passed. */
typedef struct {
  uint32_t func;     /* the calling function */
  uint32_t eff;      /* the SE_CALL_INDIRECT effect, relative to that function's eff_off */
  uint32_t field;    /* string id of the field's USR */
  uint32_t arg_off, nargs;   /* sum_tu.argmasks */
} sum_fcall;

#define SDF_MACRO_NAME 0x1  /* the name comes from a macro expansion: fix leaves it alone, unless a
                               renaming macro spells it (sum_decl.spelled) */
#define SDF_KNR        0x2  /* a K&R-style definition (identifier list) */
#define SDF_SPLIT      0x4  /* the declaration does not lie in one file outside macros */
#define SDF_CONFIG     0x8  /* a skipped #if branch defines it again or lies in its body */
#define SDF_GCC_EXCL   0x10 /* carries malloc, alloc_size or alloc_align: GCC drops those beside pure/const */
#define SDF_CFG_PURE_OK  0x20 /* SDF_CONFIG only by #if stubs in its body that keep a pure class */
#define SDF_CFG_CONST_OK 0x40 /* … that keep a const class (frontend/cfgstub.c) */

/* A declaration the project wrote (not in a system header): where fix and
 * suggest will want to put attributes. Positions are expansion locations
 * in loc.file (1-based line, byte column). */
typedef struct {
  uint32_t func;
  sum_loc loc;
  uint8_t declared;  /* SUM_DECL_* on this declaration */
  uint8_t is_def;
  uint8_t dflags;    /* SDF_* */
  uint32_t beg_line, beg_col;    /* its first token */
  uint32_t end_line, end_col;    /* just past its last token (a definition: past the body) */
  uint32_t attr_off, nattr;      /* the pure/const attributes written on it: sum_tu.attrs */
  uint32_t macro_pure, macro_const;  /* names of macros expanding to exactly that attribute,
                                        defined before this declaration (0: none) */
  uint32_t macro_repro, macro_unseq; /* likewise for [[reproducible]] / [[unsequenced]] (format 4) */
  uint32_t spelled;  /* (format 12) with SDF_MACRO_NAME: the name as written where an object-like
                        macro renames it (`#define ecc_size nettle_ecc_size`); 0: another macro */
} sum_decl;

/* How an attribute is written. */
typedef enum { SA_GNU = 0, SA_C23 = 1, SA_STD = 2 } sum_attr_form;
/* SA_C23 is [[gnu::pure]] / [[gnu::const]]; SA_STD is the standard's own
 * [[reproducible]] / [[unsequenced]] (any spelling). */

/* A pure or const attribute written on a declaration. */
typedef struct {
  uint8_t kind;      /* SUM_DECL_PURE or SUM_DECL_CONST; SUM_DECL_REPRODUCIBLE or SUM_DECL_UNSEQUENCED (SA_STD) */
  uint8_t form;      /* sum_attr_form (of the macro's expansion, for a macro) */
  uint32_t macro;    /* the macro spelling it, 0 if written out */
  uint32_t beg_line, beg_col, end_line, end_col;  /* the attribute name, or the macro's use */
} sum_attr;

/* Where an attribute macro's definition comes from. Only SMO_FILE has
 * text in a source file: the others exist only in the build's command
 * (-D, the compiler's own macros, a -include'd file), so an edit that
 * spells an attribute with them compiles only under that build. */
typedef enum {
  SMO_FILE = 0,      /* a #define in a file the main file includes (or the main file) */
  SMO_CMDLINE = 1,   /* -D on the compile command */
  SMO_BUILTIN = 2,   /* predefined by the compiler */
  SMO_INCLUDE = 3    /* a #define in a file the command line -include's (or one it includes) */
} sum_macro_origin;

/* An object-like macro whose whole expansion is one pure or const attribute. */
typedef struct {
  uint32_t name;
  uint8_t kind;      /* SUM_DECL_PURE or SUM_DECL_CONST; or a C23 one (form SA_STD) */
  uint8_t form;      /* sum_attr_form */
  uint8_t system;    /* defined in a system header */
  uint8_t origin;    /* sum_macro_origin */
} sum_macro;

/* The content hash of a file holding project declarations, as parsed:
 * fix refuses to edit a file that no longer hashes the same. */
typedef struct {
  uint32_t file;
  uint64_t hash;     /* XXH64, seed 0 */
  uint8_t generated; /* the build writes it (format 4): fix leaves it alone, suggest
                        points at the definition instead (issue 13, item 11) */
} sum_file;

#define STF_NO_MATH_ERRNO 0x1  /* compiled with -fno-math-errno / -ffast-math */
#define STF_PARSE_FAILED  0x2  /* the TU had errors: its functions are unknown */
#define STF_STD_C23       0x4  /* compiled as C23 (-std=c23/c2x/gnu23/gnu2x): fix may write [[unsequenced]] */
/* (format 5) summary_prune dropped the declarations of functions the TU
 * neither defines, calls, passes nor attributes (`purist cc`'s records). */
#define STF_PRUNED        0x8

typedef struct sum_tu {
  strtab *strs;
  uint32_t main_file;
  uint32_t flags;    /* STF_* */
  VEC(sum_func) funcs;
  VEC(sum_effect) effs;
  VEC(sum_call) calls;
  VEC(uint64_t) argmasks;
  VEC(sum_decl) decls;
  VEC(sum_attr) attrs;
  VEC(sum_macro) macros;
  VEC(sum_file) files;
  VEC(sum_fnarg) fnargs;
  VEC(sum_pcall) pcalls;
  VEC(sum_fstore) fstores;   /* (format 8) */
  VEC(sum_fcall) fcalls;     /* (format 8) */
  VEC(sum_rmember) rmembers; /* (format 17) */
} sum_tu;

sum_tu *summary_new(void);
void summary_free(sum_tu *tu);

/* A record starts with these 8 bytes, then the format version (4 bytes,
 * little-endian), then a flags word: docs/summary-format.md. */
#define SUMMARY_MAGIC "PURIST\0S"
#define SUMMARY_FORMAT 22
/* (format 5) Header flag: the payload is one zstd frame holding the payload. */
#define SUMMARY_ZSTD 0x1

/* Drops what no other TU needs (summary_prune.c): declarations nothing in
 * the TU calls, passes or says anything about, and the strings only they
 * named. What the link concludes is unchanged; `purist cc` embeds the rest. */
void summary_prune(sum_tu *tu);

/* The on-disk format (docs/summary-format.md). summary_write appends one
 * TU record to f and returns 0, or -1 with errno set. */
int summary_write(const sum_tu *tu, FILE *f);
/* Encodes into a fresh buffer (caller frees). */
unsigned char *summary_encode(const sum_tu *tu, size_t *len);
/* The same with the payload compressed (SUMMARY_ZSTD): what travels inside
 * objects and binaries, a fifth or less of the size. */
unsigned char *summary_encode_packed(const sum_tu *tu, size_t *len);
/* Decodes the record at buf[*pos..len): on success returns the summary and
 * advances *pos; on failure returns NULL and sets *err (caller frees) to a
 * message saying what is wrong ("bad checksum", "format version 3, this
 * purist reads 1"). Never reads past len. */
sum_tu *summary_decode(const unsigned char *buf, size_t len, size_t *pos, char **err);
/* The same for a record whose bytes a checksum of the caller's already
 * covered (a cache entry's): the record's own checksum is not computed
 * again. Everything else is checked as summary_decode does. */
sum_tu *summary_decode_verified(const unsigned char *buf, size_t len, size_t *pos, char **err);
/* The STF_* flags of the uncompressed record at buf, without decoding it
 * (a run that may not need the summary asks whether its TU failed). 0, or
 * -1 if the record is not one this purist reads that way. */
int summary_peek_flags(const unsigned char *buf, size_t len, uint32_t *flags);

#endif
