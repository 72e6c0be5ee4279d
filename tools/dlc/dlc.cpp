#include "compiler/DlcOptMain.h"

int main(int argc, char **argv) { return dlc::dlcMain(argc, argv); }
