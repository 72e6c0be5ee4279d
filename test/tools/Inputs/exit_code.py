"""exit_code.py N COMMAND [ARG]...: runs COMMAND, passing its output through,
and succeeds only when it exits with status N (`not` accepts any failure)."""
import subprocess
import sys

expected = int(sys.argv[1])
status = subprocess.run(sys.argv[2:]).returncode
if status != expected:
    sys.stderr.write("exit_code.py: expected exit status %d, got %d\n" % (expected, status))
    sys.exit(1)
