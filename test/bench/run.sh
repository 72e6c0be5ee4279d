#!/usr/bin/env bash
# The benchmarks of issue 3, end to end: installs their dependencies, builds, compiles
# the artifacts into BUILD/bench/, runs the three benchmarks and prints one table of the
# figures next to their targets. See test/bench/README.md.
#
#   bash test/bench/run.sh [--quick] [--no-setup] [--no-build] [--build-dir DIR]
#
# --quick     one tiny batch each: checks that everything works; targets not judged
# --no-setup  install nothing; a benchmark whose dependency is missing is skipped
# --no-build  use the binaries already in the build folder
# Exits non-zero when a benchmark fails or an output is wrong, never for a missed target.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=$root/build
quick=0 setup=1 dobuild=1
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --no-setup) setup=0 ;;
    --no-build) dobuild=0 ;;
    --build-dir) build=$(cd "$2" && pwd); shift ;;
    *) echo "usage: $0 [--quick] [--no-setup] [--no-build] [--build-dir DIR]" >&2; exit 2 ;;
  esac
  shift
done

# A fair BLAS baseline: with these set (as in this environment) OpenBLAS takes its
# Haswell kernel and runs at half speed. Unset here only, for every benchmark (PyTorch
# calls the same OpenBLAS).
unset OPENBLAS_CORETYPE OPENBLAS_L2_SIZE
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if [ $setup = 1 ]; then
  missing=()
  for p in libopenblas-dev python3-torch; do installed "$p" || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    sudo=""; [ "$(id -u)" -ne 0 ] && sudo=sudo
    echo "bench: installing ${missing[*]} (python3-torch is large: minutes)"
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}" ||
      { $sudo apt-get update -q && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; }
  fi
fi

have_blas=0; installed libopenblas-dev && have_blas=1
have_torch=0; /usr/bin/python3 -c 'import torch, numpy' 2>/dev/null && have_torch=1

if [ $dobuild = 1 ]; then
  # Configure when there is no build yet, or when OpenBLAS arrived after the last
  # configure (find_library searches again only then).
  if [ ! -f "$build/build.ninja" ] ||
     { [ $have_blas = 1 ] && ! ninja -C "$build" -t query dlc-bench-matmul >/dev/null 2>&1; }; then
    flock /tmp/dlc-build.lock cmake -S "$root" -B "$build" -G Ninja >/dev/null
  fi
  flock /tmp/dlc-build.lock ninja -C "$build" dlc-bench
fi

bin=$build/bin
out=$build/bench
mkdir -p "$out"
for m in matmul_512x512x512 matmul_32x784x1024 relu_4; do
  "$bin/dlc" compile "$here/models/$m.mlir" -o "$out/$m.dlcm"
done
"$bin/dlc" compile "$root/test/models/mlp.mlir" -o "$out/mlp.dlcm"

q=(); [ $quick = 1 ] && q=(--quick)
results=$out/results.txt
: > "$results"
status=0
run_part() {  # NAME COMMAND...: runs it, shows its output, keeps its RESULT lines
  local name=$1; shift
  echo; echo "== $name"
  local log=$out/$name.log
  if "$@" > "$log" 2>&1; then :; else echo "bench: $name FAILED"; status=1; fi
  grep -v '^RESULT ' "$log" || true
  grep '^RESULT ' "$log" >> "$results" || true
}

if [ $have_blas = 1 ] && [ -x "$bin/dlc-bench-matmul" ]; then
  run_part matmul "$bin/dlc-bench-matmul" "${q[@]}" \
    "$out/matmul_512x512x512.dlcm" "$out/matmul_32x784x1024.dlcm"
else
  echo; echo "== matmul: skipped (no OpenBLAS or no dlc-bench-matmul; run without --no-setup)"
fi
run_part overhead "$bin/dlc-bench-overhead" "${q[@]}" "$out/relu_4.dlcm"
if [ $have_torch = 1 ]; then
  run_part mlp /usr/bin/python3 "$here/mlp_bench.py" "${q[@]}" --dlc "$bin/dlc" \
    --model "$root/test/models/mlp.mlir" --artifact "$out/mlp.dlcm" --work "$out/mlp"
else
  echo; echo "== mlp: skipped (no python3-torch for /usr/bin/python3; run without --no-setup)"
fi

# The final table: one row per target.
field() {  # KIND KEY [FILTER]: KEY's value on the first `RESULT KIND` line holding FILTER
  grep "^RESULT $1 " "$results" | grep -F -- "${3:-}" | sed -n "s/.* $2=\([^ ]*\).*/\1/p" | head -1
}
judge() {  # VALUE OP LIMIT -> met / not met
  [ $quick = 1 ] && { echo "(quick)"; return; }
  awk -v v="$1" -v l="$3" -v op="$2" 'BEGIN {
    ok = (op == ">=") ? v >= l : (op == "<=") ? v <= l : v < l; print ok ? "met" : "NOT met" }'
}
echo
echo "== dlc benchmarks, $(date -u '+%Y-%m-%d %H:%M UTC'), $(git -C "$root" describe --always --dirty 2>/dev/null || echo "?")," \
     "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), one thread"
[ $quick = 1 ] && echo "(--quick: one tiny batch each; figures are not measurements)"
peak=$(field peak gflops)
printf '%-34s %14s %16s %10s %12s %8s\n' measure dlc baseline ratio target status
row() { printf '%-34s %14s %16s %10s %12s %8s\n' "$@"; }
for shape in 512x512x512 32x784x1024; do
  d=$(field matmul dlc_gflops "shape=$shape "); b=$(field matmul blas_gflops "shape=$shape ")
  [ -z "$d" ] && { row "matmul $shape GFLOP/s" - - - - skipped; continue; }
  r=$(awk -v d="$d" -v b="$b" 'BEGIN { printf "%.3f", d / b }')
  want=1.00; [ $shape = 512x512x512 ] && want=0.85
  row "matmul $shape GFLOP/s" "$(printf %.2f "$d")" "BLAS $(printf %.2f "$b")" \
      "$(awk -v r="$r" 'BEGIN { printf "%.1f%%", 100 * r }')" ">= $(awk -v w=$want 'BEGIN { printf "%d%%", 100 * w }')" \
      "$(judge "$r" ">=" $want)"
  [ -n "$peak" ] && row "  % of core peak ($(printf %.1f "$peak"))" \
      "$(awk -v d="$d" -v p="$peak" 'BEGIN { printf "%.1f%%", 100 * d / p }')" \
      "$(awk -v d="$b" -v p="$peak" 'BEGIN { printf "BLAS %.1f%%", 100 * d / p }')" - - -
done
d=$(field mlp dlc_ms); t=$(field mlp torch_ms)
if [ -n "$d" ]; then
  r=$(awk -v d="$d" -v t="$t" 'BEGIN { printf "%.3f", d / t }')
  row "MLP 32x784-1024-1024-10 ms" "$(printf %.3f "$d")" "torch $(printf %.3f "$t")" "${r}x" "<= 1.00x" "$(judge "$r" "<=" 1)"
else
  row "MLP 32x784-1024-1024-10 ms" - - - - skipped
fi
u=$(field overhead run_us); v=$(field overhead roundtrip_us)
row "overhead: session_run us" "$(printf %.3f "$u")" - - "< 10 us" "$(judge "$u" "<" 10)"
row "overhead: set+run+output us" "$(printf %.3f "$v")" - - "< 10 us" "$(judge "$v" "<" 10)"
echo "(results: $results; logs: $out/*.log)"
exit $status
