# The exported-PyTorch-models suite (test/onnx/*.mlir); configuration shared in
# test/lit_suite.py.
import os
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../.."))
exec(open(os.path.join(root, "test", "lit_suite.py")).read())
dlc_load_suite(config, lit_config, here, "onnx-models", root)
config.excludes.add("Inputs")
# Debian's python3 has torch, torchvision and onnx (tools/setup.sh).
config.substitutions.append(("%onnx-python", "/usr/bin/python3"))
config.substitutions.append(("%check-onnx-model", "/usr/bin/python3 %s %s" % (
    os.path.join(here, "Inputs", "check_onnx_model.py"), config.dlc_tools_dir)))
config.substitutions.append(("%check-dynamic-batch", "/usr/bin/python3 %s %s" % (
    os.path.join(here, "Inputs", "check_dynamic_batch.py"), config.dlc_tools_dir)))
config.substitutions.append(("%check-dynamic-sequence", "/usr/bin/python3 %s %s" % (
    os.path.join(here, "Inputs", "check_dynamic_sequence.py"), config.dlc_tools_dir)))
