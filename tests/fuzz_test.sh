#!/usr/bin/env bash
# fuzz_test.sh: build the libFuzzer targets (fuzz/, with clang) and run each for a fixed number
# of inputs from a fixed seed, so that every machine, fast or slow, tries the same inputs: the
# config loader (seeded with configs/ and libconfig's known lexer leaks) and the APN parser.
# First it proves that a real finding would fail: fuzz_canary's deliberate leaks and overflow
# must each be reported, with its frames named.
#
#   fuzz_test.sh SOURCE_DIR BUILD_DIR
#
# Exit status 77 (skipped) when clang or its fuzzer runtime (libclang-rt-14-dev) is missing;
# 1 when llvm-symbolizer (Debian: llvm-14) is: without it LeakSanitizer cannot name the frames
# that tests/lsan.supp matches, and libconfig's own leaks would fail the run.
set -u
src=$1
build=$2
config_runs=8000      # about 15 s on a 2-core machine under ASan
apn_runs=200000       # about 1 s
seed=1

command -v clang >/dev/null 2>&1 || { echo "skipped: no clang"; exit 77; }
mkdir -p "$build"
printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n);\n'`
      `'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { (void)d; (void)n; return 0; }\n' \
    >"$build/probe.c"
if ! clang -fsanitize=fuzzer "$build/probe.c" -o "$build/probe" 2>/dev/null; then
    echo "skipped: clang cannot link libFuzzer (Debian: libclang-rt-14-dev)"
    exit 77
fi

# The symbolizer, named explicitly: the sanitizers' own search depends on what else is
# installed (Debian's runtime falls back to /usr/bin/llvm-symbolizer-14).
symbolizer=""
for candidate in /usr/lib/llvm-14/bin/llvm-symbolizer "$(command -v llvm-symbolizer)"; do
    if [[ -n $candidate && -x $candidate ]]; then
        symbolizer=$candidate
        break
    fi
done
if [[ -z $symbolizer ]]; then
    echo "FAIL: no llvm-symbolizer (Debian: llvm-14, which scripts/setup.sh installs):" \
         "the leak suppressions match frames by name" >&2
    exit 1
fi
export ASAN_SYMBOLIZER_PATH=$symbolizer
# libconfig 1.5 leaks in its lexer on malformed input (Debian 12's libconfig 1.5): suppressed.
export LSAN_OPTIONS="suppressions=$src/tests/lsan.supp"

if ! cmake -S "$src/fuzz" -B "$build" -DCMAKE_C_COMPILER=clang >"$build/configure.log" 2>&1 ||
   ! cmake --build "$build" -j "$(nproc)" >"$build/build.log" 2>&1; then
    cat "$build/configure.log" "$build/build.log" >&2
    echo "FAIL: the fuzz targets do not build" >&2
    exit 1
fi

status=0
fail() {
    echo "FAIL: $*" >&2
    status=1
}

# Step 1. Each deliberate finding of fuzz_canary must fail, with the report PATTERN shows.
expect_finding() {
    local input=$1 pattern=$2 log="$build/canary-$1.log"
    printf '%s' "$input" >"$build/canary-$input"
    if "$build/fuzz_canary" "$build/canary-$input" >"$log" 2>&1; then
        fail "fuzz_canary passed its '$input' input: a real finding would go unseen ($log)"
    elif ! grep -q -- "$pattern" "$log"; then
        fail "fuzz_canary's '$input' report lacks '$pattern' ($log)"
    fi
}
expect_finding leak 'in canary_leak .*fuzz_canary.c'
expect_finding config 'detected memory leaks'
expect_finding crash 'heap-buffer-overflow'
[[ $status -eq 0 ]] && echo "canary: each deliberate finding fails"

# Step 2. libconfig's known lexer leaks are suppressed, whatever the fuzzing meets.
if ! "$build/fuzz_config" "$src"/fuzz/corpus/libconfig-leaks/* >"$build/known-leaks.log" 2>&1; then
    tail -n 20 "$build/known-leaks.log" >&2
    fail "libconfig's known lexer leaks are not suppressed ($build/known-leaks.log)"
fi

# Step 3. The fuzzing: a fresh output corpus each time, so that a run never depends on the last.
rm -rf "$build/corpus-config" "$build/corpus-apn"
mkdir -p "$build/corpus-config" "$build/corpus-apn"
"$build/fuzz_config" -seed=$seed -runs=$config_runs -timeout=60 -rss_limit_mb=2048 \
    -artifact_prefix="$build/" -dict="$src/fuzz/config.dict" -print_final_stats=1 \
    "$build/corpus-config" "$src/configs" "$src/fuzz/corpus/libconfig-leaks" \
    >"$build/fuzz_config.log" 2>&1 || fail "fuzz_config found a finding"
"$build/fuzz_apn" -seed=$seed -runs=$apn_runs -timeout=60 -artifact_prefix="$build/" \
    -print_final_stats=1 "$build/corpus-apn" "$src/fuzz/corpus/apn" \
    >"$build/fuzz_apn.log" 2>&1 || fail "fuzz_apn found a finding"
for target in fuzz_config fuzz_apn; do
    echo "$target: $(grep -o 'stat::number_of_executed_units: *[0-9]*' "$build/$target.log" |
                     grep -o '[0-9]*$') inputs from seed $seed"
done
if [[ $status -ne 0 ]]; then
    tail -n 40 "$build/fuzz_config.log" "$build/fuzz_apn.log" >&2
    echo "FAIL: see above (inputs that failed are saved as $build/crash-*, leak-*, timeout-*)" >&2
fi
exit $status
