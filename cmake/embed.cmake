# Turns the knowledge-base text file IN into a C file OUT defining
# `const char kb_builtin_text[]` (NUL-terminated) and its length
# (`NAME_text` and `NAME_len` when NAME is given).
if(NOT DEFINED NAME)
  set(NAME kb_builtin)
endif()
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE "${OUT}" "/* generated from ${IN}; do not edit */\n#include <stddef.h>\nconst char ${NAME}_text[] = {\n${body}0x00};\nconst size_t ${NAME}_len = ${bytes};\n")
