# Shared by the lit.cfg.py of every test folder: loads the build's site configuration
# (--param dlc_site=BUILD/test/lit.site.cfg.py; default: the checkout's build/) and runs
# the folder's tests with it. Usage in a folder's lit.cfg.py:
#   exec(open(os.path.join(ROOT, "test", "lit_suite.py")).read())
#   dlc_load_suite(config, lit_config, FOLDER, NAME, ROOT)
import os

def dlc_load_suite(config, lit_config, folder, name, root):
    site = lit_config.params.get("dlc_site", os.path.join(root, "build", "test", "lit.site.cfg.py"))
    if not os.path.exists(site):
        lit_config.fatal("no dlc build at %s: build first, or pass --param dlc_site=BUILD/test/lit.site.cfg.py" % site)
    lit_config.load_config(config, site)
    config.name = "dlc-" + name
    config.test_source_root = folder
    config.test_exec_root = os.path.join(config.dlc_obj_root, "test", "lit-" + name)
