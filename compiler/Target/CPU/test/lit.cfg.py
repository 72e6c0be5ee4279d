# The lowering lit suite; configuration shared in test/lit_suite.py.
import os
here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "../../../.."))
exec(open(os.path.join(root, "test", "lit_suite.py")).read())
dlc_load_suite(config, lit_config, here, "lowering", root)
