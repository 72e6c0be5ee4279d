/* A program embedding the dlc runtime through its C API only: loads an
 * artifact, feeds every f32 input 1, 2, 3, ... (the second input 10, 11, ...),
 * every other input zeros, runs, and prints each f32 output.
 * usage: embed MODEL.dlcm */
#include <dlc/runtime.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int check(dlc_status_t status) {
  if (!status)
    return 0;
  fprintf(stderr, "embed: %s: %s\n", dlc_status_code_name(dlc_status_code(status)),
          dlc_status_message(status));
  dlc_status_free(status);
  return 1;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: embed MODEL.dlcm\n");
    return 2;
  }
  dlc_model_options_t options;
  dlc_model_options_initialize(&options);
  dlc_model_t *model = NULL;
  if (check(dlc_model_load_file(argv[1], &options, &model)))
    return 1;
  dlc_session_t *session = NULL;
  if (check(dlc_session_create(model, NULL, &session))) {
    dlc_model_release(model);
    return 1;
  }
  int rc = 0;
  for (size_t i = 0; i < dlc_model_input_count(model) && !rc; ++i) {
    dlc_tensor_info_t info;
    rc = check(dlc_model_input_info(model, i, &info));
    if (rc)
      break;
    unsigned char *data = calloc(info.byte_size ? info.byte_size : 1, 1);
    if (info.dtype == DLC_DTYPE_F32)
      for (size_t k = 0; k < info.byte_size / 4; ++k)
        ((float *)data)[k] = (float)(i == 1 ? 10 + k : 1 + k);
    rc = check(dlc_session_set_input(session, i, data, info.byte_size));
    free(data);
  }
  if (!rc)
    rc = check(dlc_session_run(session));
  for (size_t i = 0; i < dlc_model_output_count(model) && !rc; ++i) {
    dlc_tensor_info_t info;
    const void *data;
    size_t bytes;
    rc = check(dlc_model_output_info(model, i, &info)) ||
         check(dlc_session_output(session, i, &data, &bytes));
    if (rc || info.dtype != DLC_DTYPE_F32)
      continue;
    printf("%s:", info.name);
    for (size_t k = 0; k < bytes / 4; ++k)
      printf(" %g", ((const float *)data)[k]);
    printf("\n");
  }
  dlc_session_release(session);
  dlc_model_release(model);
  return rc;
}
