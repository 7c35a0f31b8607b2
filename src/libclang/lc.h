/* lc.h — libclang, loaded by the process that parses, when it parses
 * (issue 32 item 3).
 *
 * Linking libclang makes every process start by loading and relocating
 * libclang and LLVM (25-30 ms of CPU, a tenth of a small TU's whole
 * check), although most never parse: purist-engine on a warm cache, the
 * summary server waiting for work, --version. So nothing links it; the
 * process about to parse (a parse worker, the summary server before it
 * forks its workers, an in-process parse under PURIST_PARSE_IN_PROCESS,
 * verify's prototype reader) calls lc_load, or clang_createIndex, which
 * loads it first. Code calls libclang's functions by their own names:
 * below, each is redirected to its pointer in lc_fn, filled from the
 * library with dlsym (the prototypes come from libclang's header, so a
 * call is checked as before). Including this header in place of
 * <clang-c/Index.h> is all a file needs. */
#ifndef PURIST_LC_H
#define PURIST_LC_H
#include <clang-c/Index.h>
#include <stdbool.h>
#include <stdint.h>

/* libclang's functions purist calls (lc_fns.h), as pointers. */
typedef struct {
#define LC_FN(name) __typeof__(name) *name;
#include "libclang/lc_fns.h"
#undef LC_FN
} lc_table;

/* Filled once by lc_load (under pthread_once: any thread may be first),
 * read-only afterwards; a process that never parses never fills it. The
 * one process-wide table is the point: it stands for the library. */
extern lc_table lc_fn;

/* Loads libclang (PURIST_LIBCLANG_PATH, as found at build time) and looks
 * up every function of lc_fns.h; 0, or -1 with *why (static text, not to
 * be freed) naming the library and what failed. Loads once a process;
 * later calls return the first's answer. why may be NULL. */
int lc_load(const char **why);
/* clang_createIndex, after lc_load: NULL if libclang cannot be loaded
 * (lc_load says why). */
CXIndex lc_create_index(int exclude_pch, int display_diagnostics);
/* libclang's version as clang_getClangVersion said it at build time
 * ("Debian clang version 19.1.7 (...)"): --version prints it without
 * loading the library. */
const char *lc_version(void);
/* What identifies the library purist would load: its version at build
 * time, its path, and the file it resolves to (device, inode, size,
 * modification and change times), hashed; the summary cache keys on it,
 * so an upgraded libclang never reuses summaries the old one made,
 * without loading either. */
uint64_t lc_identity(void);

/* libclang's names, redirected (lc.c itself sees the real declarations). */
#ifndef LC_NO_REDIRECT
#define clang_createIndex lc_create_index
#define clang_Cursor_Evaluate (*lc_fn.clang_Cursor_Evaluate)
#define clang_Cursor_getArgument (*lc_fn.clang_Cursor_getArgument)
#define clang_Cursor_getNumArguments (*lc_fn.clang_Cursor_getNumArguments)
#define clang_Cursor_getOffsetOfField (*lc_fn.clang_Cursor_getOffsetOfField)
#define clang_Cursor_getStorageClass (*lc_fn.clang_Cursor_getStorageClass)
#define clang_Cursor_getVarDeclInitializer (*lc_fn.clang_Cursor_getVarDeclInitializer)
#define clang_Cursor_hasVarDeclGlobalStorage (*lc_fn.clang_Cursor_hasVarDeclGlobalStorage)
#define clang_Cursor_isBitField (*lc_fn.clang_Cursor_isBitField)
#define clang_Cursor_isFunctionInlined (*lc_fn.clang_Cursor_isFunctionInlined)
#define clang_Cursor_isMacroBuiltin (*lc_fn.clang_Cursor_isMacroBuiltin)
#define clang_Cursor_isMacroFunctionLike (*lc_fn.clang_Cursor_isMacroFunctionLike)
#define clang_Cursor_isNull (*lc_fn.clang_Cursor_isNull)
#define clang_EvalResult_dispose (*lc_fn.clang_EvalResult_dispose)
#define clang_EvalResult_getAsDouble (*lc_fn.clang_EvalResult_getAsDouble)
#define clang_EvalResult_getAsLongLong (*lc_fn.clang_EvalResult_getAsLongLong)
#define clang_EvalResult_getAsUnsigned (*lc_fn.clang_EvalResult_getAsUnsigned)
#define clang_EvalResult_getKind (*lc_fn.clang_EvalResult_getKind)
#define clang_EvalResult_isUnsignedInt (*lc_fn.clang_EvalResult_isUnsignedInt)
#define clang_File_isEqual (*lc_fn.clang_File_isEqual)
#define clang_File_tryGetRealPathName (*lc_fn.clang_File_tryGetRealPathName)
#define clang_Location_isFromMainFile (*lc_fn.clang_Location_isFromMainFile)
#define clang_Location_isInSystemHeader (*lc_fn.clang_Location_isInSystemHeader)
#define clang_PrintingPolicy_dispose (*lc_fn.clang_PrintingPolicy_dispose)
#define clang_Range_isNull (*lc_fn.clang_Range_isNull)
#define clang_Type_getSizeOf (*lc_fn.clang_Type_getSizeOf)
#define clang_Type_visitFields (*lc_fn.clang_Type_visitFields)
#define clang_defaultSaveOptions (*lc_fn.clang_defaultSaveOptions)
#define clang_disposeDiagnostic (*lc_fn.clang_disposeDiagnostic)
#define clang_disposeIndex (*lc_fn.clang_disposeIndex)
#define clang_disposeSourceRangeList (*lc_fn.clang_disposeSourceRangeList)
#define clang_disposeString (*lc_fn.clang_disposeString)
#define clang_disposeTokens (*lc_fn.clang_disposeTokens)
#define clang_disposeTranslationUnit (*lc_fn.clang_disposeTranslationUnit)
#define clang_equalCursors (*lc_fn.clang_equalCursors)
#define clang_equalLocations (*lc_fn.clang_equalLocations)
#define clang_equalRanges (*lc_fn.clang_equalRanges)
#define clang_equalTypes (*lc_fn.clang_equalTypes)
#define clang_formatDiagnostic (*lc_fn.clang_formatDiagnostic)
#define clang_getAllSkippedRanges (*lc_fn.clang_getAllSkippedRanges)
#define clang_getArgType (*lc_fn.clang_getArgType)
#define clang_getArrayElementType (*lc_fn.clang_getArrayElementType)
#define clang_getCString (*lc_fn.clang_getCString)
#define clang_getCanonicalCursor (*lc_fn.clang_getCanonicalCursor)
#define clang_getCanonicalType (*lc_fn.clang_getCanonicalType)
#define clang_getCursor (*lc_fn.clang_getCursor)
#define clang_getCursorBinaryOperatorKind (*lc_fn.clang_getCursorBinaryOperatorKind)
#define clang_getCursorDefinition (*lc_fn.clang_getCursorDefinition)
#define clang_getCursorExtent (*lc_fn.clang_getCursorExtent)
#define clang_getCursorKind (*lc_fn.clang_getCursorKind)
#define clang_getCursorLinkage (*lc_fn.clang_getCursorLinkage)
#define clang_getCursorLocation (*lc_fn.clang_getCursorLocation)
#define clang_getCursorPrettyPrinted (*lc_fn.clang_getCursorPrettyPrinted)
#define clang_getCursorPrintingPolicy (*lc_fn.clang_getCursorPrintingPolicy)
#define clang_getCursorReferenced (*lc_fn.clang_getCursorReferenced)
#define clang_getCursorSemanticParent (*lc_fn.clang_getCursorSemanticParent)
#define clang_getCursorSpelling (*lc_fn.clang_getCursorSpelling)
#define clang_getCursorTLSKind (*lc_fn.clang_getCursorTLSKind)
#define clang_getCursorType (*lc_fn.clang_getCursorType)
#define clang_getCursorUSR (*lc_fn.clang_getCursorUSR)
#define clang_getCursorUnaryOperatorKind (*lc_fn.clang_getCursorUnaryOperatorKind)
#define clang_getCursorVisibility (*lc_fn.clang_getCursorVisibility)
#define clang_getDiagnostic (*lc_fn.clang_getDiagnostic)
#define clang_getDiagnosticLocation (*lc_fn.clang_getDiagnosticLocation)
#define clang_getDiagnosticSeverity (*lc_fn.clang_getDiagnosticSeverity)
#define clang_getDiagnosticSpelling (*lc_fn.clang_getDiagnosticSpelling)
#define clang_getEnumConstantDeclValue (*lc_fn.clang_getEnumConstantDeclValue)
#define clang_getEnumDeclIntegerType (*lc_fn.clang_getEnumDeclIntegerType)
#define clang_getExpansionLocation (*lc_fn.clang_getExpansionLocation)
#define clang_getFile (*lc_fn.clang_getFile)
#define clang_getFileContents (*lc_fn.clang_getFileContents)
#define clang_getFileName (*lc_fn.clang_getFileName)
#define clang_getFileUniqueID (*lc_fn.clang_getFileUniqueID)
#define clang_getInclusions (*lc_fn.clang_getInclusions)
#define clang_getLocationForOffset (*lc_fn.clang_getLocationForOffset)
#define clang_getNullCursor (*lc_fn.clang_getNullCursor)
#define clang_getNullLocation (*lc_fn.clang_getNullLocation)
#define clang_getNumArgTypes (*lc_fn.clang_getNumArgTypes)
#define clang_getNumDiagnostics (*lc_fn.clang_getNumDiagnostics)
#define clang_getPointeeType (*lc_fn.clang_getPointeeType)
#define clang_getPresumedLocation (*lc_fn.clang_getPresumedLocation)
#define clang_getRange (*lc_fn.clang_getRange)
#define clang_getRangeEnd (*lc_fn.clang_getRangeEnd)
#define clang_getRangeStart (*lc_fn.clang_getRangeStart)
#define clang_getResultType (*lc_fn.clang_getResultType)
#define clang_getSpellingLocation (*lc_fn.clang_getSpellingLocation)
#define clang_getTokenKind (*lc_fn.clang_getTokenKind)
#define clang_getTokenLocation (*lc_fn.clang_getTokenLocation)
#define clang_getTokenSpelling (*lc_fn.clang_getTokenSpelling)
#define clang_getTranslationUnitCursor (*lc_fn.clang_getTranslationUnitCursor)
#define clang_getTranslationUnitTargetInfo (*lc_fn.clang_getTranslationUnitTargetInfo)
#define clang_TargetInfo_dispose (*lc_fn.clang_TargetInfo_dispose)
#define clang_TargetInfo_getTriple (*lc_fn.clang_TargetInfo_getTriple)
#define clang_getTypeDeclaration (*lc_fn.clang_getTypeDeclaration)
#define clang_getTypeSpelling (*lc_fn.clang_getTypeSpelling)
#define clang_isConstQualifiedType (*lc_fn.clang_isConstQualifiedType)
#define clang_isCursorDefinition (*lc_fn.clang_isCursorDefinition)
#define clang_isExpression (*lc_fn.clang_isExpression)
#define clang_isFileMultipleIncludeGuarded (*lc_fn.clang_isFileMultipleIncludeGuarded)
#define clang_isFunctionTypeVariadic (*lc_fn.clang_isFunctionTypeVariadic)
#define clang_isStatement (*lc_fn.clang_isStatement)
#define clang_isVolatileQualifiedType (*lc_fn.clang_isVolatileQualifiedType)
#define clang_parseTranslationUnit (*lc_fn.clang_parseTranslationUnit)
#define clang_parseTranslationUnit2 (*lc_fn.clang_parseTranslationUnit2)
#define clang_saveTranslationUnit (*lc_fn.clang_saveTranslationUnit)
#define clang_toggleCrashRecovery (*lc_fn.clang_toggleCrashRecovery)
#define clang_tokenize (*lc_fn.clang_tokenize)
#define clang_visitChildren (*lc_fn.clang_visitChildren)
#endif

#endif
