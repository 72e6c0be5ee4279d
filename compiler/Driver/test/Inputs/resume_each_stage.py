"""For every stage S of the compile pipeline: run dlc-opt up to S, print the IR
(with locations: they carry the op names), resume from that text in a new
process, and compare the artifact with the one `dlc compile` wrote.

usage: resume_each_stage.py FULL.dlcm MODEL 'PIPELINE OPTIONS' WORKDIR [--no-debuginfo]
                            [--placement-options='OPTIONS']

Prints "S: identical" or "S: differs" per stage; exit 1 if any differs.
--no-debuginfo prints the IR without locations (the control: op names are
then lost and the artifact must differ, which shows the comparison can fail). --placement-options are options only
placement reads (device-spec=...): given to the first half, and to the second
only when it still places (resumed after entry), since dlc-place records the
spec it placed with in the IR.
"""
import filecmp
import os
import subprocess
import sys

STAGES = ["entry", "place", "precision", "copies", "rewrite", "kernels", "schedule", "memory", "codegen"]


def dlc_opt(args):
    proc = subprocess.run(["dlc-opt"] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    if proc.returncode != 0:
        sys.exit("dlc-opt %s failed:\n%s" % (" ".join(args), proc.stdout))


def main():
    full, model, options, work = sys.argv[1:5]
    debuginfo = "--no-debuginfo" not in sys.argv[5:]
    placement = ""
    for arg in sys.argv[5:]:
        if arg.startswith("--placement-options="):
            placement = " " + arg.split("=", 1)[1]
    os.makedirs(work, exist_ok=True)
    differs = False
    for stage in STAGES:
        text = os.path.join(work, stage + ".mlir")
        artifact = os.path.join(work, stage + ".dlcm")
        print_flags = ["-mlir-print-debuginfo"] if debuginfo else []
        dlc_opt([model, "--dlc-compile-pipeline=%s%s stop-after=%s" % (options, placement, stage),
                 "-o", text] + print_flags)
        resumed = options + (placement if stage == "entry" else "")
        dlc_opt([text, "--dlc-compile-pipeline=%s start-after=%s output=%s" %
                 (resumed, stage, artifact), "-o", os.devnull])
        same = filecmp.cmp(full, artifact, shallow=False)
        differs |= not same
        print("%s: %s" % (stage, "identical" if same else "differs"))
    sys.exit(1 if differs else 0)


if __name__ == "__main__":
    main()
