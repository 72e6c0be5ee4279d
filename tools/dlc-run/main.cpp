// dlc-run: the runtime alone. Loading and running artifacts arrives with the
// artifact format (issue 3); for now it reports the runtime's version.
#include "dlc/runtime.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  if (argc == 2 && std::strcmp(argv[1], "--version") == 0) {
    std::printf("dlc-run %s\n", dlc_runtime_version());
    return 0;
  }
  std::fprintf(stderr,
               "usage: dlc-run --version\n"
               "dlc-run %s cannot load artifacts yet: the .dlcm format is not "
               "defined in this version\n",
               dlc_runtime_version());
  return 2;
}
