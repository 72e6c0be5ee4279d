#include "dlc/runtime.h"

#include <gtest/gtest.h>
#include <string>

TEST(Status, OkIsNull) {
  EXPECT_EQ(dlc_status_create(DLC_STATUS_OK, "ignored"), nullptr);
  EXPECT_EQ(dlc_status_code(nullptr), DLC_STATUS_OK);
  EXPECT_STREQ(dlc_status_message(nullptr), "");
  dlc_status_free(nullptr);
}

TEST(Status, CarriesCodeAndACopyOfTheMessage) {
  std::string message = "artifact 'model.dlcm' is truncated";
  dlc_status_t status = dlc_status_create(DLC_STATUS_DATA_LOSS, message.c_str());
  message.assign("overwritten");
  EXPECT_EQ(dlc_status_code(status), DLC_STATUS_DATA_LOSS);
  EXPECT_STREQ(dlc_status_message(status), "artifact 'model.dlcm' is truncated");
  EXPECT_STREQ(dlc_status_code_name(dlc_status_code(status)), "data_loss");
  dlc_status_free(status);
}

TEST(Status, NullMessageBecomesEmpty) {
  dlc_status_t status = dlc_status_create(DLC_STATUS_INTERNAL, nullptr);
  EXPECT_STREQ(dlc_status_message(status), "");
  dlc_status_free(status);
}

TEST(Status, VersionMatchesTheHeader) {
  EXPECT_EQ(std::string(dlc_runtime_version()),
            std::to_string(DLC_RUNTIME_VERSION_MAJOR) + "." +
                std::to_string(DLC_RUNTIME_VERSION_MINOR));
}
