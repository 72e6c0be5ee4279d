#!/usr/bin/env bash
# Issue 5, benchmark 2: a pipeline:2 model over a batch of inputs on simulated GPUs
# with --sim-links: the measured time per run against the schedule's own estimate
# (the placement dump's estimate.makespan_us and period_us), and the overlap achieved,
# busy time summed over devices / (devices x makespan). Run by run.sh; see README.md.
#
#   pipeline_bench.sh --bin DIR --model M.mlir --work DIR [--quick] [--runs N]
#
# Two device specs: the built-in profiles (H200-class GPUs: the estimate is a real
# GPU's, the simulated GPUs are CPU threads) and this machine's, probed by
# `dlc-run --probe-devices` (what a simulated GPU really is). Prints RESULT lines.
set -euo pipefail
bin= model= work= runs=200
while [ $# -gt 0 ]; do
  case $1 in
    --bin) bin=$2; shift ;;
    --model) model=$2; shift ;;
    --work) work=$2; shift ;;
    --runs) runs=$2; shift ;;
    --quick) runs=4 ;;
    *) echo "usage: $0 --bin DIR --model M.mlir --work DIR [--quick] [--runs N]" >&2; exit 2 ;;
  esac
  shift
done
mkdir -p "$work"
name=$(basename "$model" .mlir)
"$bin/dlc-run" --probe-devices="$work/probe.json"
for spec in builtin probed; do
  sargs=(); [ $spec = probed ] && sargs=(--device-spec="$work/probe.json")
  art=$work/${name}_pipeline2_$spec
  "$bin/dlc" compile "$model" "${sargs[@]}" --devices=cpu,cuda:0,cuda:1 --placement=pipeline:2 \
    --dump-placement="$art.json" -o "$art.dlcm"
  est() { sed -n "s/.*\"$1\": *\([0-9.eE+-]*\).*/\1/p" "$art.json" | tail -1; }
  makespan=$(est makespan_us); period=$(est period_us)
  # One run at a time: its latency against the estimated makespan.
  "$bin/dlc" run "$art.dlcm" --gpu=sim --sim-links --iterations="$runs" --warmup=2 > "$art.seq.log"
  # Two in flight, no warmup (the per-device summary then covers exactly the timed runs).
  "$bin/dlc" run "$art.dlcm" --gpu=sim --sim-links --iterations="$runs" --in-flight=2 \
    --profile="$art.trace.json" > "$art.pipe.log"
  echo "-- $name pipeline:2, $spec spec: estimate makespan ${makespan} us, period ${period} us"
  grep -v '^output' "$art.seq.log" | tail -1 | sed 's/^/   in-flight 1: /'
  grep -v '^output' "$art.pipe.log" | grep -v '^  dlc\.' | sed 's/^/   in-flight 2: /'
  awk -v spec=$spec -v model=$name -v est_ms="$makespan" -v est_p="$period" -v runs="$runs" \
      -v seq="$(sed -n 's/^latency: median \([0-9.]*\) ms.*/\1/p' "$art.seq.log")" '
    /^  [a-z]+:?[0-9]* \((cpu|sim)\): busy/ {
      dev = $1; busy = $4 + 0; sum += busy; n++
      if (dev ~ /^cuda/) { gsum += busy; gn++ }
    }
    /^throughput:/ { total = $7 + 0 }
    END {
      if (!total || !n) { print "pipeline_bench: could not parse the run" > "/dev/stderr"; exit 1 }
      per = total * 1000 / runs
      printf "RESULT pipeline model=%s spec=%s devices=%d runs=%d est_makespan_us=%.2f est_period_us=%.2f " \
             "seq_latency_us=%.2f per_run_us=%.2f batch_ms=%.3f busy_ms=%.3f overlap=%.4f gpu_overlap=%.4f " \
             "latency_ratio=%.3f period_ratio=%.3f\n", model, spec, n, runs, est_ms, est_p, seq * 1000, per,
             total, sum, sum / (n * total), gsum / (gn * total), seq * 1000 / est_ms, per / est_p
    }' "$art.pipe.log"
done
