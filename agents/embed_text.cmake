# embed_text.cmake: a file's bytes as a C array, for the build to compile in.
#   cmake -DIN=FILE -DOUT=FILE.c -DNAME=SYMBOL -P embed_text.cmake
# writes OUT defining `const unsigned char SYMBOL_text[]` (the bytes, then a NUL) and
# `const size_t SYMBOL_size` (the bytes' count, without the NUL). Plain CMake: no xxd.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR size "${digits} / 2")
# Sixteen bytes a line, each as 0xHH.
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){16})" "\\1\n    " bytes "${bytes}")
file(WRITE "${OUT}.tmp"
  "/* Written by agents/embed_text.cmake from ${IN}; do not edit. */\n"
  "#include <stddef.h>\n\n"
  "const unsigned char ${NAME}_text[] = {\n    ${bytes}0x00\n};\n"
  "const size_t ${NAME}_size = ${size};\n")
file(RENAME "${OUT}.tmp" "${OUT}")
