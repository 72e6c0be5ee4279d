# The ONNX importer's lit suite; configuration shared in test/lit_suite.py.
import os
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../../../.."))
exec(open(os.path.join(root, "test", "lit_suite.py")).read())
dlc_load_suite(config, lit_config, here, "onnx-import", root)
# Debian's python3 has python3-onnx (tools/setup.sh); test models are built at test time.
config.substitutions.append(("%onnx-python", "/usr/bin/python3"))
config.substitutions.append(("%make-onnx", "/usr/bin/python3 " + os.path.join(here, "Inputs", "make_onnx.py")))
