//===- WriteTestArtifact.cpp - writes the toy artifact for the embed test -===//
//
// usage: dlc-write-test-artifact OUT.dlcm TEST_KERNELS.so

#include "ArtifactBuilder.h"

#include <cstdio>
#include <fstream>

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s OUT.dlcm TEST_KERNELS.so\n", argv[0]);
    return 2;
  }
  std::ofstream out(argv[1], std::ios::binary);
  out << dlc::test::buildArtifact(dlc::test::toyModel(argv[2]));
  return out ? 0 : 1;
}
