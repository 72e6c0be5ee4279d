//===- WriteTestArtifact.cpp - writes the toy artifact for the embed test -===//
//
// usage: dlc-write-test-artifact OUT.dlcm TEST_KERNELS.so [multi]
// (multi: the cpu + 2 GPU version, ArtifactBuilder's multiDeviceModel)

#include "ArtifactBuilder.h"

#include <cstdio>
#include <fstream>
#include <string>

int main(int argc, char **argv) {
  bool multi = argc == 4 && std::string(argv[3]) == "multi";
  if (argc != 3 && !multi) {
    std::fprintf(stderr, "usage: %s OUT.dlcm TEST_KERNELS.so [multi]\n",
                 argv[0]);
    return 2;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out << dlc::test::buildArtifact(multi ? dlc::test::multiDeviceModel(argv[2])
                                       : dlc::test::toyModel(argv[2]));
  return out ? 0 : 1;
}
