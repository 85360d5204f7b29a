#!/usr/bin/env bash
# fuzz_test.sh: build the libFuzzer targets (fuzz/, with clang) and run each for a short,
# bounded time: the config loader (seeded with configs/) and the APN parser.
#
#   fuzz_test.sh SOURCE_DIR BUILD_DIR [SECONDS]
#
# Exit status 77 (skipped) when clang or its fuzzer runtime (libclang-rt-14-dev) is missing.
set -u
src=$1
build=$2
seconds=${3:-15}

command -v clang >/dev/null 2>&1 || { echo "skipped: no clang"; exit 77; }
mkdir -p "$build"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\n'`
      `'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
    >"$build/probe.c"
if ! clang -fsanitize=fuzzer "$build/probe.c" -o "$build/probe" 2>/dev/null; then
    echo "skipped: clang cannot link libFuzzer (Debian: libclang-rt-14-dev)"
    exit 77
fi
if ! cmake -S "$src/fuzz" -B "$build" -DCMAKE_C_COMPILER=clang >"$build/configure.log" 2>&1 ||
   ! cmake --build "$build" -j "$(nproc)" >"$build/build.log" 2>&1; then
    cat "$build/configure.log" "$build/build.log" >&2
    echo "FAIL: the fuzz targets do not build" >&2
    exit 1
fi

# libconfig 1.5 leaks in its lexer on malformed input (Debian 12's libconfig 1.5): suppressed.
export LSAN_OPTIONS="suppressions=$src/tests/lsan.supp"
status=0
mkdir -p "$build/corpus-config" "$build/corpus-apn"
"$build/fuzz_config" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
    -artifact_prefix="$build/" -dict="$src/fuzz/config.dict" -print_final_stats=1 \
    "$build/corpus-config" "$src/configs" >"$build/fuzz_config.log" 2>&1 || status=1
"$build/fuzz_apn" -max_total_time="$seconds" -timeout=10 -artifact_prefix="$build/" \
    -print_final_stats=1 "$build/corpus-apn" "$src/fuzz/corpus/apn" \
    >"$build/fuzz_apn.log" 2>&1 || status=1
for target in fuzz_config fuzz_apn; do
    echo "$target: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$target.log" |
                     grep -o '[0-9]*$') inputs in $seconds s"
done
if [[ $status -ne 0 ]]; then
    tail -n 40 "$build/fuzz_config.log" "$build/fuzz_apn.log" >&2
    echo "FAIL: a fuzz target found a crash (inputs saved as $build/crash-*)" >&2
fi
exit $status
