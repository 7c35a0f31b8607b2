# Turns the knowledge-base text file IN into a C file OUT defining
# `const char kb_builtin_text[]` (NUL-terminated) and its length.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE "${OUT}" "/* generated from ${IN}; do not edit */\n#include <stddef.h>\nconst char kb_builtin_text[] = {\n${body}0x00};\nconst size_t kb_builtin_len = ${bytes};\n")
