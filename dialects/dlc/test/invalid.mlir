// RUN: dlc-opt %s --split-input-file --verify-diagnostics

// Every diagnostic of the dlc dialect: the verifiers of DlcOps.cpp, the shape
// rules of DlcShapes.cpp, the device parser of DlcAttrs.cpp, and a sample of
// the ODS-generated type and attribute constraints.

//===----------------------------------------------------------------------===//
// ODS constraints
//===----------------------------------------------------------------------===//

// The float-only unary ops reject integers.
func.func @exp_of_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'dlc.exp' op operand #0 must be statically shaped tensor of float (f32, f16, bf16, f64) values, but got 'tensor<4xi32>'}}
  %0 = dlc.exp %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

func.func @floor_of_int(%x: tensor<4xi64>) -> tensor<4xi64> {
  // expected-error @+1 {{'dlc.floor' op operand #0 must be statically shaped tensor of float (f32, f16, bf16, f64) values, but got 'tensor<4xi64>'}}
  %0 = dlc.floor %x : tensor<4xi64>
  return %0 : tensor<4xi64>
}

// -----

func.func @sign_of_bool(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'dlc.sign' op operand #0 must be statically shaped tensor of numeric (float, i8 ... i64, ui8 ... ui64) values, but got 'tensor<4xi1>'}}
  %0 = dlc.sign %x : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Shapes must be static.
func.func @dynamic_shape(%x: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error @+1 {{'dlc.relu' op operand #0 must be statically shaped tensor of numeric (float, i8 ... i64, ui8 ... ui64) values, but got 'tensor<?xf32>'}}
  %0 = dlc.relu %x : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Unranked tensors are not dlc values either (the custom form cannot even
// spell them, so the generic form is used).
func.func @unranked(%x: tensor<*xf32>) -> tensor<*xf32> {
  // expected-error @+1 {{'dlc.reshape' op operand #0 must be statically shaped tensor of numeric or i1 values, but got 'tensor<*xf32>'}}
  %0 = "dlc.reshape"(%x) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

// -----

// Element types outside dlc's thirteen are rejected (i4, signed si8).
func.func @i4_element(%x: tensor<4xi4>) -> tensor<4xi4> {
  // expected-error @+1 {{'dlc.copy' op operand #0 must be ranked tensor of numeric or i1 values, but got 'tensor<4xi4>'}}
  %0 = dlc.copy %x to cpu : tensor<4xi4>
  return %0 : tensor<4xi4>
}

// -----

func.func @si8_element(%x: tensor<4xsi8>) -> tensor<4xsi8> {
  // expected-error @+1 {{'dlc.neg' op operand #0 must be statically shaped tensor of numeric (float, i8 ... i64, ui8 ... ui64) values, but got 'tensor<4xsi8>'}}
  %0 = "dlc.neg"(%x) : (tensor<4xsi8>) -> tensor<4xsi8>
  return %0 : tensor<4xsi8>
}

// -----

// i1 is data, not a number: arithmetic rejects it.
func.func @add_of_i1(%x: tensor<4xi1>) -> tensor<4xi1> {
  // expected-error @+1 {{'dlc.add' op operand #0 must be statically shaped tensor of numeric (float, i8 ... i64, ui8 ... ui64) values, but got 'tensor<4xi1>'}}
  %0 = dlc.add %x, %x : tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// pow is float-only.
func.func @pow_of_int(%x: tensor<4xi32>) -> tensor<4xi32> {
  // expected-error @+1 {{'dlc.pow' op operand #0 must be statically shaped tensor of float (f32, f16, bf16, f64) values, but got 'tensor<4xi32>'}}
  %0 = dlc.pow %x, %x : tensor<4xi32>
  return %0 : tensor<4xi32>
}

// -----

// AllElementTypesMatch on a binary op.
func.func @add_mixed_elements(%a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.add' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = dlc.add %a, %b : (tensor<4xf32>, tensor<4xf16>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// AllElementTypesMatch on matmul.
func.func @matmul_mixed_elements(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf16> {
  // expected-error @+1 {{'dlc.matmul' op failed to verify that all of {lhs, rhs, result} have same element type}}
  %0 = dlc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

// AllElementTypesMatch on the data-movement ops.
func.func @reshape_mixed_elements(%x: tensor<2x3xf32>) -> tensor<6xf16> {
  // expected-error @+1 {{'dlc.reshape' op failed to verify that all of {input, result} have same element type}}
  %0 = dlc.reshape %x : tensor<2x3xf32> -> tensor<6xf16>
  return %0 : tensor<6xf16>
}

// -----

// SameOperandsAndResultType, seen through the generic form.
func.func @unary_type_mismatch(%x: tensor<4xf32>) -> tensor<2x2xf32> {
  // expected-error @+1 {{'dlc.tanh' op requires the same type for all operands and results}}
  %0 = "dlc.tanh"(%x) : (tensor<4xf32>) -> tensor<2x2xf32>
  return %0 : tensor<2x2xf32>
}

// -----

// A constant's value and result types agree.
func.func @constant_type_mismatch() -> tensor<3xf32> {
  // expected-error @+1 {{'dlc.constant' op failed to verify that all of {value, result} have same type}}
  %0 = "dlc.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// batch_norm's result type is its input's.
func.func @batch_norm_result_type(%x: tensor<2x3xf32>, %c: tensor<3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op failed to verify that all of {input, result} have same type}}
  %0 = dlc.batch_norm %x, %c, %c, %c, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

// concat inputs share one element type.
func.func @concat_mixed_elements(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.concat' op requires the same element type for all operands and results}}
  %0 = dlc.concat %a, %b {axis = 0 : i64} : (tensor<2xf32>, tensor<2xi32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// concat needs an input (the trait catches this before the verifier).
func.func @concat_no_inputs() -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.concat' op expected 1 or more operands, but found 0}}
  %0 = dlc.concat {axis = 0 : i64} : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// cast keeps the shape.
func.func @cast_shape(%x: tensor<2x3xf32>) -> tensor<6xf16> {
  // expected-error @+1 {{'dlc.cast' op requires the same shape for all operands and results}}
  %0 = dlc.cast %x : tensor<2x3xf32> -> tensor<6xf16>
  return %0 : tensor<6xf16>
}

// -----

// gather indices are integers.
func.func @gather_float_indices(%t: tensor<10x4xf32>, %i: tensor<3xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'dlc.gather' op operand #1 must be statically shaped tensor of index (i32, i64) values, but got 'tensor<3xf32>'}}
  %0 = dlc.gather %t, %i : (tensor<10x4xf32>, tensor<3xf32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// A required attribute is missing.
func.func @max_pool_no_kernel(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x4x4xf32> {
  // expected-error @+1 {{'dlc.max_pool2d' op requires attribute 'kernel_shape'}}
  %0 = dlc.max_pool2d %x : tensor<1x1x4x4xf32> -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

// -----

// The pin must be a #dlc.device.
func.func @pin_not_a_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.relu' op attribute 'device' failed to satisfy constraint}}
  %0 = dlc.relu %x {device = "cuda:0"} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Device attribute and `dlc.copy ... to` parser (DlcAttrs.cpp)
//===----------------------------------------------------------------------===//

func.func @unknown_device_kind(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown device kind 'tpu': expected 'cpu' or 'cuda:N'}}
  %0 = dlc.relu %x {device = #dlc.device<tpu:0>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @negative_cuda_index(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cuda device index must be non-negative, got -1}}
  %0 = dlc.relu %x {device = #dlc.device<cuda:-1>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The index error points at the index itself.
func.func @negative_cuda_index_column(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{cuda device index must be non-negative, got -3}}
  %0 = dlc.copy %x to cuda:-3 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The index must fit in 64 bits.
func.func @cuda_index_overflow(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{integer value too large}}
  %0 = dlc.relu %x {device = #dlc.device<cuda:99999999999999999999>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @empty_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected a device: 'cpu' or 'cuda:N'}}
  %0 = dlc.relu %x {device = #dlc.device<>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// A number is not a device keyword.
func.func @numeric_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected a device: 'cpu' or 'cuda:N'}}
  %0 = dlc.copy %x to 0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// cuda needs an index.
func.func @cuda_without_index(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected ':'}}
  %0 = dlc.relu %x {device = #dlc.device<cuda>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @cuda_non_integer_index(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected integer value}}
  %0 = dlc.relu %x {device = #dlc.device<cuda:first>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// cpu takes no index.
func.func @cpu_with_index(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{the cpu device takes no index, got 1}}
  %0 = dlc.relu %x {device = #dlc.device<cpu:1>} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @copy_unknown_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{unknown device kind 'gpu': expected 'cpu' or 'cuda:N'}}
  %0 = dlc.copy %x to gpu:0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// copy needs a destination (generic form without `device`).
func.func @copy_without_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.copy' op requires attribute 'device'}}
  %0 = "dlc.copy"(%x) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Elementwise (DlcShapes.cpp broadcastShapes)
//===----------------------------------------------------------------------===//

func.func @no_broadcast(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dlc.mul' op operand shapes 4x8 and 4 do not broadcast: dimension 1 is 8 versus 4}}
  %0 = dlc.mul %a, %b : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @compare_predicate(%a: tensor<4xf32>) -> tensor<4xi1> {
  // expected-error @+1 {{'dlc.compare' op expects predicate eq, ne, lt, le, gt or ge, got 'lessthan'}}
  %0 = dlc.compare "lessthan", %a, %a : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_types(%a: tensor<4xf32>, %b: tensor<4xi32>) -> tensor<4xi1> {
  // expected-error @+1 {{'dlc.compare' op failed to verify that all of {lhs, rhs} have same element type}}
  %0 = dlc.compare "eq", %a, %b : (tensor<4xf32>, tensor<4xi32>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

func.func @compare_result_type(%a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.compare' op result #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = dlc.compare "eq", %a, %a : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @compare_broadcast(%a: tensor<4x8xf32>, %b: tensor<4xf32>) -> tensor<4x8xi1> {
  // expected-error @+1 {{'dlc.compare' op operand shapes 4x8 and 4 do not broadcast: dimension 1 is 8 versus 4}}
  %0 = dlc.compare "eq", %a, %b : (tensor<4x8xf32>, tensor<4xf32>) -> tensor<4x8xi1>
  return %0 : tensor<4x8xi1>
}

// -----

func.func @compare_result_shape(%a: tensor<4x1xf32>, %b: tensor<8xf32>) -> tensor<4x1xi1> {
  // expected-error @+1 {{'dlc.compare' op result shape 4x1 does not match the expected 4x8}}
  %0 = dlc.compare "lt", %a, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x1xi1>
  return %0 : tensor<4x1xi1>
}

// -----

func.func @select_condition(%c: tensor<4xf32>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.select' op operand #0 must be statically shaped tensor of 1-bit signless integer values, but got 'tensor<4xf32>'}}
  %0 = dlc.select %c, %a, %a : tensor<4xf32>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_types(%c: tensor<4xi1>, %a: tensor<4xf32>, %b: tensor<4xf16>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.select' op failed to verify that all of {true_value, false_value, result} have same element type}}
  %0 = dlc.select %c, %a, %b : tensor<4xi1>, tensor<4xf32>, tensor<4xf16> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @select_broadcast(%c: tensor<3x1xi1>, %a: tensor<4xf32>, %b: tensor<2x1xf32>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'dlc.select' op operand shapes 3x4 and 2x1 do not broadcast: dimension 0 is 3 versus 2}}
  %0 = dlc.select %c, %a, %b : tensor<3x1xi1>, tensor<4xf32>, tensor<2x1xf32> -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @select_result_shape(%c: tensor<3x1xi1>, %a: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.select' op result shape 4 does not match the expected 3x4}}
  %0 = dlc.select %c, %a, %a : tensor<3x1xi1>, tensor<4xf32>, tensor<4xf32> -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The result shape is the broadcast shape.
func.func @broadcast_result(%a: tensor<4x1xf32>, %b: tensor<8xf32>) -> tensor<4x1xf32> {
  // expected-error @+1 {{'dlc.sub' op result shape 4x1 does not match the expected 4x8}}
  %0 = dlc.sub %a, %b : (tensor<4x1xf32>, tensor<8xf32>) -> tensor<4x1xf32>
  return %0 : tensor<4x1xf32>
}

// -----

// A scalar prints as "scalar".
func.func @scalar_result(%a: tensor<f32>, %b: tensor<3xf32>) -> tensor<f32> {
  // expected-error @+1 {{'dlc.max' op result shape scalar does not match the expected 3}}
  %0 = dlc.max %a, %b : (tensor<f32>, tensor<3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @clip_min_above_max(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.clip' op expects min <= max, got min 6.000000e+00 and max 0.000000e+00}}
  %0 = dlc.clip %x {min = 6.0, max = 0.0} : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// matmul (DlcShapes.cpp matmulShape)
//===----------------------------------------------------------------------===//

func.func @matmul_rank1(%a: tensor<3xf32>, %b: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.matmul' op expects operands of rank 2 or more, got ranks 1 and 2}}
  %0 = dlc.matmul %a, %b : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @matmul_contracting(%a: tensor<2x3xf32>, %b: tensor<4x5xf32>) -> tensor<2x5xf32> {
  // expected-error @+1 {{'dlc.matmul' op contracting dimensions differ: lhs 2x3 has K = 3, rhs 4x5 has K = 4}}
  %0 = dlc.matmul %a, %b : (tensor<2x3xf32>, tensor<4x5xf32>) -> tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}

// -----

// Batch dimensions broadcast; the message names the batch shapes.
func.func @matmul_batch(%a: tensor<2x4x8xf32>, %b: tensor<3x8x4xf32>) -> tensor<2x4x4xf32> {
  // expected-error @+1 {{'dlc.matmul' op operand shapes 2 and 3 do not broadcast: dimension 0 is 2 versus 3}}
  %0 = dlc.matmul %a, %b : (tensor<2x4x8xf32>, tensor<3x8x4xf32>) -> tensor<2x4x4xf32>
  return %0 : tensor<2x4x4xf32>
}

// -----

func.func @matmul_result(%a: tensor<2x3xf32>, %b: tensor<3x5xf32>) -> tensor<5x2xf32> {
  // expected-error @+1 {{'dlc.matmul' op result shape 5x2 does not match the expected 2x5}}
  %0 = dlc.matmul %a, %b : (tensor<2x3xf32>, tensor<3x5xf32>) -> tensor<5x2xf32>
  return %0 : tensor<5x2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// linear
//===----------------------------------------------------------------------===//

func.func @linear_weight_rank(%x: tensor<2x4xf32>, %w: tensor<4xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.linear' op expects weight of rank 2, got rank 1}}
  %0 = dlc.linear %x, %w : (tensor<2x4xf32>, tensor<4xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

func.func @linear_scalar_input(%x: tensor<f32>, %w: tensor<3x1xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'dlc.linear' op expects an input of rank 1 or more, got a scalar}}
  %0 = dlc.linear %x, %w : (tensor<f32>, tensor<3x1xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// The weight is [out_features, in_features], not transposed.
func.func @linear_in_features(%x: tensor<2x4xf32>, %w: tensor<4x3xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'dlc.linear' op expects the input's last dimension (4) to equal the weight's dimension 1 (3): weight is [out_features, in_features]}}
  %0 = dlc.linear %x, %w : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

func.func @linear_bias_shape(%x: tensor<2x4xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.linear' op expects a bias of shape 3, got 4}}
  %0 = dlc.linear %x, %w, %b : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// The optional bias is outside AllElementTypesMatch: the verifier checks it.
func.func @linear_bias_element_type(%x: tensor<2x4xf32>, %w: tensor<3x4xf32>, %b: tensor<3xf16>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.linear' op expects a bias of element type 'f32' (the input's), got 'f16'}}
  %0 = dlc.linear %x, %w, %b : (tensor<2x4xf32>, tensor<3x4xf32>, tensor<3xf16>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @linear_result(%x: tensor<2x4xf32>, %w: tensor<3x4xf32>) -> tensor<2x4xf32> {
  // expected-error @+1 {{'dlc.linear' op result shape 2x4 does not match the expected 2x3}}
  %0 = dlc.linear %x, %w : (tensor<2x4xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// conv2d
//===----------------------------------------------------------------------===//

func.func @conv_input_rank(%x: tensor<3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects an NCHW input of rank 4, got rank 3}}
  %0 = dlc.conv2d %x, %w : (tensor<3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_filter_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects an OIHW filter of rank 4, got rank 3}}
  %0 = dlc.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_strides_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects 2 'strides' values, got 1}}
  %0 = dlc.conv2d %x, %w {strides = array<i64: 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_pads_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects 4 'pads' values, got 2}}
  %0 = dlc.conv2d %x, %w {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_dilations_size(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects 2 'dilations' values, got 3}}
  %0 = dlc.conv2d %x, %w {dilations = array<i64: 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_zero_stride(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects every 'strides' value >= 1, got 0 at position 1}}
  %0 = dlc.conv2d %x, %w {strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_negative_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects every 'pads' value >= 0, got -1 at position 2}}
  %0 = dlc.conv2d %x, %w {pads = array<i64: 0, 0, -1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_zero_dilation(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects every 'dilations' value >= 1, got 0 at position 0}}
  %0 = dlc.conv2d %x, %w {dilations = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_zero_groups(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects groups >= 1, got 0}}
  %0 = dlc.conv2d %x, %w {groups = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_groups_divide(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects input channels (4) and output channels (3) divisible by groups (2)}}
  %0 = dlc.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  return %0 : tensor<1x3x6x6xf32>
}

// -----

func.func @conv_filter_channels(%x: tensor<1x4x8x8xf32>, %w: tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects filter dimension 1 to be input channels / groups = 2, got 4}}
  %0 = dlc.conv2d %x, %w {groups = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<6x4x3x3xf32>) -> tensor<1x6x6x6xf32>
  return %0 : tensor<1x6x6x6xf32>
}

// -----

func.func @conv_bias_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects a bias of shape 4, got 3}}
  %0 = dlc.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

func.func @conv_bias_element_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xbf16>) -> tensor<1x4x6x6xf32> {
  // expected-error @+1 {{'dlc.conv2d' op expects a bias of element type 'f32' (the input's), got 'bf16'}}
  %0 = dlc.conv2d %x, %w, %b : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xbf16>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// (DlcShapes.cpp windowOutputSize) a dilated 3x3 kernel spans 5 rows.
func.func @conv_window_height(%x: tensor<1x3x4x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x1x4xf32> {
  // expected-error @+1 {{'dlc.conv2d' op window of 5 (kernel 3, dilation 2) does not fit the padded height of 4}}
  %0 = dlc.conv2d %x, %w {dilations = array<i64: 2, 2>} : (tensor<1x3x4x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x4xf32>
  return %0 : tensor<1x4x1x4xf32>
}

// -----

// Width is checked with pads[1] + pads[3].
func.func @conv_window_width(%x: tensor<1x3x8x1xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x6x1xf32> {
  // expected-error @+1 {{'dlc.conv2d' op window of 3 (kernel 3, dilation 1) does not fit the padded width of 2}}
  %0 = dlc.conv2d %x, %w {pads = array<i64: 0, 1, 0, 0>} : (tensor<1x3x8x1xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x1xf32>
  return %0 : tensor<1x4x6x1xf32>
}

// -----

func.func @conv_result(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32> {
  // expected-error @+1 {{'dlc.conv2d' op result shape 1x4x8x8 does not match the expected 1x4x6x6}}
  %0 = dlc.conv2d %x, %w : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x8x8xf32>
  return %0 : tensor<1x4x8x8xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

func.func @pool_input_rank(%x: tensor<3x8x8xf32>) -> tensor<3x4x4xf32> {
  // expected-error @+1 {{'dlc.max_pool2d' op expects an NCHW input of rank 4, got rank 3}}
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 2, 2>} : tensor<3x8x8xf32> -> tensor<3x4x4xf32>
  return %0 : tensor<3x4x4xf32>
}

// -----

func.func @pool_kernel_size(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x7x7xf32> {
  // expected-error @+1 {{'dlc.max_pool2d' op expects 2 'kernel_shape' values, got 3}}
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 2, 2, 2>} : tensor<1x1x8x8xf32> -> tensor<1x1x7x7xf32>
  return %0 : tensor<1x1x7x7xf32>
}

// -----

func.func @pool_strides_size(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x7x7xf32> {
  // expected-error @+1 {{'dlc.avg_pool2d' op expects 2 'strides' values, got 0}}
  %0 = dlc.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64>} : tensor<1x1x8x8xf32> -> tensor<1x1x7x7xf32>
  return %0 : tensor<1x1x7x7xf32>
}

// -----

func.func @pool_pads_size(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x7x7xf32> {
  // expected-error @+1 {{'dlc.avg_pool2d' op expects 4 'pads' values, got 1}}
  %0 = dlc.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0>} : tensor<1x1x8x8xf32> -> tensor<1x1x7x7xf32>
  return %0 : tensor<1x1x7x7xf32>
}

// -----

func.func @pool_dilations_size(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x7x7xf32> {
  // expected-error @+1 {{'dlc.max_pool2d' op expects 2 'dilations' values, got 1}}
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 2, 2>, dilations = array<i64: 1>} : tensor<1x1x8x8xf32> -> tensor<1x1x7x7xf32>
  return %0 : tensor<1x1x7x7xf32>
}

// -----

func.func @pool_zero_kernel(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32> {
  // expected-error @+1 {{'dlc.max_pool2d' op expects every 'kernel_shape' value >= 1, got 0 at position 1}}
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 1, 0>} : tensor<1x1x8x8xf32> -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
}

// -----

func.func @pool_zero_stride(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x7x7xf32> {
  // expected-error @+1 {{'dlc.avg_pool2d' op expects every 'strides' value >= 1, got 0 at position 0}}
  %0 = dlc.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 0, 1>} : tensor<1x1x8x8xf32> -> tensor<1x1x7x7xf32>
  return %0 : tensor<1x1x7x7xf32>
}

// -----

func.func @pool_negative_pad(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x7x7xf32> {
  // expected-error @+1 {{'dlc.avg_pool2d' op expects every 'pads' value >= 0, got -2 at position 3}}
  %0 = dlc.avg_pool2d %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 0, 0, 0, -2>} : tensor<1x1x8x8xf32> -> tensor<1x1x7x7xf32>
  return %0 : tensor<1x1x7x7xf32>
}

// -----

func.func @pool_zero_dilation(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x7x7xf32> {
  // expected-error @+1 {{'dlc.max_pool2d' op expects every 'dilations' value >= 1, got 0 at position 1}}
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 2, 2>, dilations = array<i64: 1, 0>} : tensor<1x1x8x8xf32> -> tensor<1x1x7x7xf32>
  return %0 : tensor<1x1x7x7xf32>
}

// -----

// A window made only of padding has nothing to pool.
func.func @pool_pad_too_large(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x10x9xf32> {
  // expected-error @+1 {{'dlc.max_pool2d' op expects each pad to be smaller than the window, got pad 2 for a window of 2}}
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 2, 2>, pads = array<i64: 2, 0, 1, 0>} : tensor<1x1x8x8xf32> -> tensor<1x1x10x9xf32>
  return %0 : tensor<1x1x10x9xf32>
}

// -----

// avg_pool2d has no dilations: its window is the kernel.
func.func @avg_pool_pad_too_large(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x8x8xf32> {
  // expected-error @+1 {{'dlc.avg_pool2d' op expects each pad to be smaller than the window, got pad 3 for a window of 3}}
  %0 = dlc.avg_pool2d %x {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 3>} : tensor<1x1x8x8xf32> -> tensor<1x1x8x8xf32>
  return %0 : tensor<1x1x8x8xf32>
}

// -----

func.func @pool_window_height(%x: tensor<1x1x2x8xf32>) -> tensor<1x1x1x6xf32> {
  // expected-error @+1 {{'dlc.max_pool2d' op window of 3 (kernel 3, dilation 1) does not fit the padded height of 2}}
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 3, 3>} : tensor<1x1x2x8xf32> -> tensor<1x1x1x6xf32>
  return %0 : tensor<1x1x1x6xf32>
}

// -----

func.func @pool_window_width(%x: tensor<1x1x8x2xf32>) -> tensor<1x1x6x1xf32> {
  // expected-error @+1 {{'dlc.avg_pool2d' op window of 3 (kernel 3, dilation 1) does not fit the padded width of 2}}
  %0 = dlc.avg_pool2d %x {kernel_shape = array<i64: 3, 3>} : tensor<1x1x8x2xf32> -> tensor<1x1x6x1xf32>
  return %0 : tensor<1x1x6x1xf32>
}

// -----

func.func @pool_result(%x: tensor<1x1x8x8xf32>) -> tensor<1x1x7x7xf32> {
  // expected-error @+1 {{'dlc.max_pool2d' op result shape 1x1x7x7 does not match the expected 1x1x4x4}}
  %0 = dlc.max_pool2d %x {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : tensor<1x1x8x8xf32> -> tensor<1x1x7x7xf32>
  return %0 : tensor<1x1x7x7xf32>
}

// -----

func.func @global_pool_rank(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.global_avg_pool' op expects an NCHW input of rank 4, got rank 2}}
  %0 = dlc.global_avg_pool %x : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @global_pool_result(%x: tensor<2x3x4x4xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.global_avg_pool' op result shape 2x3 does not match the expected 2x3x1x1}}
  %0 = dlc.global_avg_pool %x : tensor<2x3x4x4xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Normalisation and softmax
//===----------------------------------------------------------------------===//

func.func @batch_norm_rank(%x: tensor<3xf32>, %c: tensor<3xf32>) -> tensor<3xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op expects an input of rank 2 or more (channels on axis 1), got rank 1}}
  %0 = dlc.batch_norm %x, %c, %c, %c, %c : (tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

func.func @batch_norm_scale(%x: tensor<2x3xf32>, %c: tensor<3xf32>, %bad: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op expects scale of shape 3 (the channel count), got 2}}
  %0 = dlc.batch_norm %x, %bad, %c, %c, %c : (tensor<2x3xf32>, tensor<2xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_bias(%x: tensor<2x3xf32>, %c: tensor<3xf32>, %bad: tensor<1x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op expects bias of shape 3 (the channel count), got 1x3}}
  %0 = dlc.batch_norm %x, %c, %bad, %c, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<1x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_mean(%x: tensor<2x3xf32>, %c: tensor<3xf32>, %bad: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op expects mean of shape 3 (the channel count), got scalar}}
  %0 = dlc.batch_norm %x, %c, %c, %bad, %c : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<f32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_variance(%x: tensor<2x3xf32>, %c: tensor<3xf32>, %bad: tensor<6xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op expects variance of shape 3 (the channel count), got 6}}
  %0 = dlc.batch_norm %x, %c, %c, %c, %bad : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<6xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @batch_norm_epsilon(%x: tensor<2x3xf32>, %c: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.batch_norm' op expects epsilon >= 0, got -1.000000e-03}}
  %0 = dlc.batch_norm %x, %c, %c, %c, %c {epsilon = -1.0e-03 : f64} : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// NaN is not >= 0 either.
func.func @layer_norm_nan_epsilon(%x: tensor<2x3xf32>, %g: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.layer_norm' op expects epsilon >= 0, got nan}}
  %0 = dlc.layer_norm %x, %g {epsilon = 0x7FF8000000000000 : f64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// (DlcShapes.cpp normalizeAxis)
func.func @layer_norm_axis(%x: tensor<2x3xf32>, %g: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.layer_norm' op axis 2 is out of range for rank 2 (expected -2 <= axis < 2)}}
  %0 = dlc.layer_norm %x, %g {axis = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_scale(%x: tensor<2x3x4xf32>, %g: tensor<4xf32>) -> tensor<2x3x4xf32> {
  // expected-error @+1 {{'dlc.layer_norm' op expects scale of shape 3x4 (the normalized dimensions), got 4}}
  %0 = dlc.layer_norm %x, %g {axis = -2 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return %0 : tensor<2x3x4xf32>
}

// -----

func.func @layer_norm_bias(%x: tensor<2x3xf32>, %g: tensor<3xf32>, %b: tensor<2xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.layer_norm' op expects bias of shape 3 (the normalized dimensions), got 2}}
  %0 = dlc.layer_norm %x, %g, %b : (tensor<2x3xf32>, tensor<3xf32>, tensor<2xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @layer_norm_bias_element_type(%x: tensor<2x3xf16>, %g: tensor<3xf16>, %b: tensor<3xf32>) -> tensor<2x3xf16> {
  // expected-error @+1 {{'dlc.layer_norm' op expects a bias of element type 'f16' (the input's), got 'f32'}}
  %0 = dlc.layer_norm %x, %g, %b : (tensor<2x3xf16>, tensor<3xf16>, tensor<3xf32>) -> tensor<2x3xf16>
  return %0 : tensor<2x3xf16>
}

// -----

func.func @softmax_axis(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.softmax' op axis -3 is out of range for rank 2 (expected -2 <= axis < 2)}}
  %0 = dlc.softmax %x {axis = -3 : i64} : tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// A scalar has no axis at all.
func.func @softmax_scalar(%x: tensor<f32>) -> tensor<f32> {
  // expected-error @+1 {{'dlc.softmax' op axis -1 is out of range for rank 0 (expected -0 <= axis < 0)}}
  %0 = dlc.softmax %x : tensor<f32>
  return %0 : tensor<f32>
}

// -----

//===----------------------------------------------------------------------===//
// Reductions (DlcShapes.cpp reduceShape)
//===----------------------------------------------------------------------===//

func.func @reduce_axis(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.reduce_sum' op axis 2 is out of range for rank 2 (expected -2 <= axis < 2)}}
  %0 = dlc.reduce_sum %x {axes = array<i64: 2>} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// -1 and 1 name the same axis of a rank-2 tensor.
func.func @reduce_twice(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.reduce_mean' op axis -1 is reduced twice}}
  %0 = dlc.reduce_mean %x {axes = array<i64: 1, -1>} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// keepdims keeps the reduced dimensions as 1.
func.func @reduce_keepdims_result(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.reduce_max' op result shape 2 does not match the expected 2x1}}
  %0 = dlc.reduce_max %x {axes = array<i64: 1>, keepdims = true} : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// Empty axes reduce everything.
func.func @reduce_all_result(%x: tensor<2x3xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.reduce_sum' op result shape 2 does not match the expected scalar}}
  %0 = dlc.reduce_sum %x : tensor<2x3xf32> -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Data movement
//===----------------------------------------------------------------------===//

func.func @transpose_perm_size(%x: tensor<2x3x4xf32>) -> tensor<3x2x4xf32> {
  // expected-error @+1 {{'dlc.transpose' op expects 3 'perm' values, got 2}}
  %0 = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3x4xf32> -> tensor<3x2x4xf32>
  return %0 : tensor<3x2x4xf32>
}

// -----

func.func @transpose_perm_repeat(%x: tensor<2x3x4xf32>) -> tensor<3x3x4xf32> {
  // expected-error @+1 {{'dlc.transpose' op expects 'perm' to be a permutation of 0..2, got [1, 1, 2]}}
  %0 = dlc.transpose %x {perm = array<i64: 1, 1, 2>} : tensor<2x3x4xf32> -> tensor<3x3x4xf32>
  return %0 : tensor<3x3x4xf32>
}

// -----

// Negative entries are not accepted in perm.
func.func @transpose_perm_range(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'dlc.transpose' op expects 'perm' to be a permutation of 0..1, got [-1, 0]}}
  %0 = dlc.transpose %x {perm = array<i64: -1, 0>} : tensor<2x3xf32> -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}

// -----

func.func @transpose_result(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error @+1 {{'dlc.transpose' op result shape 2x3 does not match the expected 3x2}}
  %0 = dlc.transpose %x {perm = array<i64: 1, 0>} : tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

func.func @reshape_count(%x: tensor<2x3xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'dlc.reshape' op cannot reshape 2x3 (6 elements) to 4x2 (8 elements)}}
  %0 = dlc.reshape %x : tensor<2x3xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @concat_axis(%a: tensor<2x3xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'dlc.concat' op axis 2 is out of range for rank 2 (expected -2 <= axis < 2)}}
  %0 = dlc.concat %a, %a {axis = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_rank(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'dlc.concat' op expects inputs of one rank, input 0 has rank 2 and input 1 has rank 1}}
  %0 = dlc.concat %a, %b {axis = 1 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @concat_other_dim(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) -> tensor<4x3xf32> {
  // expected-error @+1 {{'dlc.concat' op expects inputs to agree on dimension 1 (not the concat axis): input 0 has 3, input 2 has 4}}
  %0 = dlc.concat %a, %a, %b {axis = 0 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<4x3xf32>
  return %0 : tensor<4x3xf32>
}

// -----

func.func @concat_result(%a: tensor<2x3xf32>, %b: tensor<2x5xf32>) -> tensor<2x9xf32> {
  // expected-error @+1 {{'dlc.concat' op result shape 2x9 does not match the expected 2x8}}
  %0 = dlc.concat %a, %b {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x5xf32>) -> tensor<2x9xf32>
  return %0 : tensor<2x9xf32>
}

// -----

func.func @slice_starts_size(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dlc.slice' op expects 2 'starts' values, got 1}}
  %0 = dlc.slice %x {starts = array<i64: 0>, ends = array<i64: 4, 8>, steps = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_ends_size(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dlc.slice' op expects 2 'ends' values, got 3}}
  %0 = dlc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 8, 1>, steps = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_steps_size(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dlc.slice' op expects 2 'steps' values, got 0}}
  %0 = dlc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 8>, steps = array<i64>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_zero_step(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dlc.slice' op expects every 'steps' value >= 1, got 0 at position 1}}
  %0 = dlc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 8>, steps = array<i64: 1, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @slice_end_past_size(%x: tensor<4x8xf32>) -> tensor<4x9xf32> {
  // expected-error @+1 {{'dlc.slice' op expects 0 <= start <= end <= 8 in dimension 1, got start 0 and end 9}}
  %0 = dlc.slice %x {starts = array<i64: 0, 0>, ends = array<i64: 4, 9>, steps = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<4x9xf32>
  return %0 : tensor<4x9xf32>
}

// -----

func.func @slice_start_after_end(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{'dlc.slice' op expects 0 <= start <= end <= 4 in dimension 0, got start 3 and end 2}}
  %0 = dlc.slice %x {starts = array<i64: 3, 0>, ends = array<i64: 2, 8>, steps = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// Negative starts are not Python-style offsets.
func.func @slice_negative_start(%x: tensor<4x8xf32>) -> tensor<1x8xf32> {
  // expected-error @+1 {{'dlc.slice' op expects 0 <= start <= end <= 4 in dimension 0, got start -1 and end 4}}
  %0 = dlc.slice %x {starts = array<i64: -1, 0>, ends = array<i64: 4, 8>, steps = array<i64: 1, 1>} : tensor<4x8xf32> -> tensor<1x8xf32>
  return %0 : tensor<1x8xf32>
}

// -----

// ceil((8 - 1) / 3) = 3.
func.func @slice_result(%x: tensor<4x8xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'dlc.slice' op result shape 4x2 does not match the expected 4x3}}
  %0 = dlc.slice %x {starts = array<i64: 0, 1>, ends = array<i64: 4, 8>, steps = array<i64: 1, 3>} : tensor<4x8xf32> -> tensor<4x2xf32>
  return %0 : tensor<4x2xf32>
}

// -----

func.func @split_axis(%x: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  // expected-error @+1 {{'dlc.split' op axis 2 is out of range for rank 2 (expected -2 <= axis < 2)}}
  %0:2 = dlc.split %x {axis = 2 : i64, sizes = array<i64: 4, 4>} : tensor<4x8xf32> -> tensor<4x4xf32>, tensor<4x4xf32>
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

func.func @split_size_count(%x: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  // expected-error @+1 {{'dlc.split' op expects one size per result: 2 results, 3 sizes}}
  %0:2 = dlc.split %x {axis = 1 : i64, sizes = array<i64: 4, 2, 2>} : tensor<4x8xf32> -> tensor<4x4xf32>, tensor<4x4xf32>
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

func.func @split_zero_size(%x: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x0xf32>) {
  // expected-error @+1 {{'dlc.split' op expects every 'sizes' value >= 1, got 0 at position 1}}
  %0:2 = dlc.split %x {axis = 1 : i64, sizes = array<i64: 8, 0>} : tensor<4x8xf32> -> tensor<4x8xf32>, tensor<4x0xf32>
  return %0#0, %0#1 : tensor<4x8xf32>, tensor<4x0xf32>
}

// -----

func.func @split_sum(%x: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x3xf32>) {
  // expected-error @+1 {{'dlc.split' op expects sizes to sum to dimension 1 of the input (8), got 7}}
  %0:2 = dlc.split %x {axis = -1 : i64, sizes = array<i64: 4, 3>} : tensor<4x8xf32> -> tensor<4x4xf32>, tensor<4x3xf32>
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<4x3xf32>
}

// -----

// split has no AllElementTypesMatch; the verifier checks every result.
func.func @split_element_type(%x: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf16>) {
  // expected-error @+1 {{'dlc.split' op expects result 1 to have the input's element type}}
  %0:2 = dlc.split %x {axis = 1 : i64, sizes = array<i64: 4, 4>} : tensor<4x8xf32> -> tensor<4x4xf32>, tensor<4x4xf16>
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<4x4xf16>
}

// -----

func.func @split_result(%x: tensor<4x8xf32>) -> (tensor<4x4xf32>, tensor<4x4xf32>) {
  // expected-error @+1 {{'dlc.split' op result shape 4x4 does not match the expected 4x6}}
  %0:2 = dlc.split %x {axis = 1 : i64, sizes = array<i64: 6, 2>} : tensor<4x8xf32> -> tensor<4x4xf32>, tensor<4x4xf32>
  return %0#0, %0#1 : tensor<4x4xf32>, tensor<4x4xf32>
}

// -----

func.func @gather_axis(%t: tensor<10x4xf32>, %i: tensor<3xi64>) -> tensor<3x4xf32> {
  // expected-error @+1 {{'dlc.gather' op axis -3 is out of range for rank 2 (expected -2 <= axis < 2)}}
  %0 = dlc.gather %t, %i {axis = -3 : i64} : (tensor<10x4xf32>, tensor<3xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

func.func @gather_result(%t: tensor<10x4xf32>, %i: tensor<2x3xi32>) -> tensor<6x4xf32> {
  // expected-error @+1 {{'dlc.gather' op result shape 6x4 does not match the expected 2x3x4}}
  %0 = dlc.gather %t, %i : (tensor<10x4xf32>, tensor<2x3xi32>) -> tensor<6x4xf32>
  return %0 : tensor<6x4xf32>
}

// -----

//===----------------------------------------------------------------------===//
// Custom assembly parsers
//===----------------------------------------------------------------------===//

// The long form of a binary op needs `-> result`.
func.func @broadcast_types_no_arrow(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{expected '->'}}
  %0 = dlc.add %a, %b : (tensor<4x8xf32>, tensor<8xf32>) tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

// The short form is one type for all three values.
// expected-note @+1 {{prior use here}}
func.func @broadcast_short_form_mismatch(%a: tensor<4x8xf32>, %b: tensor<8xf32>) -> tensor<4x8xf32> {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses: 'tensor<4x8xf32>' vs 'tensor<8xf32>'}}
  %0 = dlc.add %a, %b : tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}

// -----

func.func @copy_without_to(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{expected 'to'}}
  %0 = dlc.copy %x cuda:0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The accumulator of a contraction: f32, for float operands only.
func.func @accumulator_not_f32(%a: tensor<2x3xf16>, %b: tensor<3x4xf16>) -> tensor<2x4xf16> {
  // expected-error @+1 {{'dlc.matmul' op expects an f32 accumulator, got 'f16'}}
  %0 = dlc.matmul %a, %b {accumulator = f16} : (tensor<2x3xf16>, tensor<3x4xf16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

func.func @accumulator_integer(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi32> {
  // expected-error @+1 {{'dlc.matmul' op expects an accumulator only for float operands, got 'i32' operands}}
  %0 = dlc.matmul %a, %b {accumulator = f32} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

func.func @accumulator_not_a_type(%x: tensor<2x3xf16>, %w: tensor<4x3xf16>) -> tensor<2x4xf16> {
  // expected-error @+1 {{'dlc.linear' op attribute 'accumulator' failed to satisfy constraint: type attribute of floating-point}}
  %0 = dlc.linear %x, %w {accumulator = 1 : i64} : (tensor<2x3xf16>, tensor<4x3xf16>) -> tensor<2x4xf16>
  return %0 : tensor<2x4xf16>
}

// -----

func.func @conv_accumulator(%x: tensor<1x1x4x4xf16>, %w: tensor<1x1x3x3xf16>) -> tensor<1x1x2x2xf16> {
  // expected-error @+1 {{'dlc.conv2d' op expects an f32 accumulator, got 'bf16'}}
  %0 = dlc.conv2d %x, %w {accumulator = bf16} : (tensor<1x1x4x4xf16>, tensor<1x1x3x3xf16>) -> tensor<1x1x2x2xf16>
  return %0 : tensor<1x1x2x2xf16>
}

//===----------------------------------------------------------------------===//
// kernel
//===----------------------------------------------------------------------===//

// -----

func.func @kernel_op_on_another_device(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = dlc.kernel on cuda:0 -> tensor<4xf32> {
    // expected-error @+1 {{'dlc.neg' op runs on cpu inside a kernel on cuda:0}}
    %n = dlc.neg %x : tensor<4xf32>
    dlc.yield %n : tensor<4xf32>
  }
  return %k : tensor<4xf32>
}

// -----

func.func @kernel_yield_mismatch(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.kernel' op yields 0 values whose types differ from its results}}
  %k = dlc.kernel -> tensor<4xf32> {
    %n = dlc.neg %x : tensor<4xf32>
    dlc.yield
  }
  return %k : tensor<4xf32>
}

// -----

func.func @copy_in_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = dlc.kernel -> tensor<4xf32> {
    // expected-error @+1 {{'dlc.copy' op cannot be inside a dlc.kernel (a kernel holds dlc compute ops)}}
    %c = dlc.copy %x to cpu : tensor<4xf32>
    dlc.yield %c : tensor<4xf32>
  }
  return %k : tensor<4xf32>
}

// -----

func.func @kernel_in_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  %k = dlc.kernel -> tensor<4xf32> {
    // expected-error @+1 {{'dlc.kernel' op cannot be inside a dlc.kernel (a kernel holds dlc compute ops)}}
    %i = dlc.kernel -> tensor<4xf32> {
      %n = dlc.neg %x : tensor<4xf32>
      dlc.yield %n : tensor<4xf32>
    }
    dlc.yield %i : tensor<4xf32>
  }
  return %k : tensor<4xf32>
}

// -----

func.func @kernel_body_arguments(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.kernel' op body takes no arguments (it reads values from above)}}
  %k = "dlc.kernel"() ({
  ^bb0(%a: tensor<4xf32>):
    %n = dlc.neg %a : tensor<4xf32>
    dlc.yield %n : tensor<4xf32>
  }) : () -> tensor<4xf32>
  return %k : tensor<4xf32>
}

// -----

func.func @yield_outside_kernel(%x: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.yield' op expects parent op to be one of 'dlc.kernel, dlc.loop'}}
  dlc.yield %x : tensor<4xf32>
}

// -----

func.func @gather_elements_rank(%d: tensor<3x5xf32>, %i: tensor<4xi64>) -> tensor<4xf32> {
  // expected-error @+1 {{'dlc.gather_elements' op indices of rank 1 for data of rank 2 (they must be equal)}}
  %0 = dlc.gather_elements %d, %i : (tensor<3x5xf32>, tensor<4xi64>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

func.func @gather_elements_wide(%d: tensor<3x5xf32>, %i: tensor<2x6xi64>) -> tensor<2x6xf32> {
  // expected-error @+1 {{'dlc.gather_elements' op indices dimension 1 (6) is larger than the data's (5)}}
  %0 = dlc.gather_elements %d, %i : (tensor<3x5xf32>, tensor<2x6xi64>) -> tensor<2x6xf32>
  return %0 : tensor<2x6xf32>
}

// -----

func.func @scatter_reduction(%d: tensor<3x5xf32>, %i: tensor<2x5xi64>, %u: tensor<2x5xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{'dlc.scatter_elements' op expects reduction none, add, mul, max or min, got 'sum'}}
  %0 = dlc.scatter_elements %d, %i, %u {reduction = "sum"} : (tensor<3x5xf32>, tensor<2x5xi64>, tensor<2x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @scatter_bool_add(%d: tensor<3x5xi1>, %i: tensor<2x5xi64>, %u: tensor<2x5xi1>) -> tensor<3x5xi1> {
  // expected-error @+1 {{'dlc.scatter_elements' op reduction 'add' on i1 (only none)}}
  %0 = dlc.scatter_elements %d, %i, %u {reduction = "add"} : (tensor<3x5xi1>, tensor<2x5xi64>, tensor<2x5xi1>) -> tensor<3x5xi1>
  return %0 : tensor<3x5xi1>
}

// -----

func.func @scatter_index_shape(%d: tensor<3x5xf32>, %i: tensor<2x4xi64>, %u: tensor<2x5xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{'dlc.scatter_elements' op indices dimension 1 (4) is neither the updates' (5) nor 1}}
  %0 = dlc.scatter_elements %d, %i, %u : (tensor<3x5xf32>, tensor<2x4xi64>, tensor<2x5xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @scatter_wide_updates(%d: tensor<3x5xf32>, %i: tensor<2x6xi64>, %u: tensor<2x6xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{'dlc.scatter_elements' op updates dimension 1 (6) is larger than the data's (5)}}
  %0 = dlc.scatter_elements %d, %i, %u : (tensor<3x5xf32>, tensor<2x6xi64>, tensor<2x6xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @scatter_rank(%d: tensor<3x5xf32>, %i: tensor<10xi64>, %u: tensor<10xf32>) -> tensor<3x5xf32> {
  // expected-error @+1 {{'dlc.scatter_elements' op updates of rank 1 for data of rank 2 (they must be equal)}}
  %0 = dlc.scatter_elements %d, %i, %u : (tensor<3x5xf32>, tensor<10xi64>, tensor<10xf32>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

func.func @top_k_too_many(%x: tensor<3x5xf32>) -> tensor<3x6xi64> {
  // expected-error @+1 {{'dlc.top_k' op k = 6 outside [1, 5] (axis 1)}}
  %v, %i = dlc.top_k %x {k = 6 : i64} : tensor<3x5xf32> -> tensor<3x6xf32>, tensor<3x6xi64>
  return %i : tensor<3x6xi64>
}

// -----

func.func @top_k_shape(%x: tensor<3x5xf32>) -> tensor<3x2xi64> {
  // expected-error @+1 {{'dlc.top_k' op result shape 2x5 does not match the expected 3x2}}
  %v, %i = dlc.top_k %x {k = 2 : i64} : tensor<3x5xf32> -> tensor<2x5xf32>, tensor<3x2xi64>
  return %i : tensor<3x2xi64>
}

// -----

func.func @top_k_axis(%x: tensor<3x5xf32>) -> tensor<3x2xi64> {
  // expected-error @+1 {{'dlc.top_k' op axis 2 is out of range for rank 2}}
  %v, %i = dlc.top_k %x {axis = 2 : i64, k = 2 : i64} : tensor<3x5xf32> -> tensor<3x2xf32>, tensor<3x2xi64>
  return %i : tensor<3x2xi64>
}

// -----

// dlc.loop (DlcOps.cpp LoopOp::verify): a count and trips at once.
func.func @loop_two_counts(%n: tensor<1xi64>, %v: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.loop' op takes a trip count as either the `count` operand or the `trips` attribute, not both or neither}}
  %r = dlc.loop count(%n : tensor<1xi64>) carried(%v : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%t: tensor<1xi64>, %c: tensor<2xf32>):
    dlc.yield %c : tensor<2xf32>
  } {trips = 2 : i64}
  return %r : tensor<2xf32>
}

// -----

func.func @loop_negative_trips(%v: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.loop' op trips must be 0 or more, not -1}}
  %r = dlc.loop carried(%v : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%t: tensor<1xi64>, %c: tensor<2xf32>):
    dlc.yield %c : tensor<2xf32>
  } {trips = -1 : i64}
  return %r : tensor<2xf32>
}

// -----

func.func @loop_float_count(%n: tensor<1xf32>, %v: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.loop' op count must be one integer, not 'tensor<1xf32>'}}
  %r = dlc.loop count(%n : tensor<1xf32>) carried(%v : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%t: tensor<1xi64>, %c: tensor<2xf32>):
    dlc.yield %c : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

// -----

func.func @loop_scan_run_time_count(%n: tensor<1xi64>, %xs: tensor<3x2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'dlc.loop' op scans need a `trips` attribute}}
  %r = dlc.loop count(%n : tensor<1xi64>) scan(%xs : tensor<3x2xf32>) -> tensor<3x2xf32> {
  ^bb0(%t: tensor<1xi64>, %x: tensor<2xf32>):
    dlc.yield %x : tensor<2xf32>
  }
  return %r : tensor<3x2xf32>
}

// -----

func.func @loop_scan_rows(%xs: tensor<3x2xf32>) -> tensor<4x2xf32> {
  // expected-error @+1 {{'dlc.loop' op scan input 'tensor<3x2xf32>' must have 4 rows, one per iteration}}
  %r = dlc.loop scan(%xs : tensor<3x2xf32>) -> tensor<4x2xf32> {
  ^bb0(%t: tensor<1xi64>, %x: tensor<2xf32>):
    dlc.yield %x : tensor<2xf32>
  } {trips = 4 : i64}
  return %r : tensor<4x2xf32>
}

// -----

func.func @loop_body_arguments(%v: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.loop' op body must take the position (tensor<1xi64>), the carried values, one row per scan input (its type less dim 0) and the invariants, in that order}}
  %r = dlc.loop carried(%v : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%c: tensor<2xf32>):
    dlc.yield %c : tensor<2xf32>
  } {trips = 2 : i64}
  return %r : tensor<2xf32>
}

// -----

func.func @loop_yield_count(%v: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.loop' op body yields 2 values for 1 results}}
  %r = dlc.loop carried(%v : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%t: tensor<1xi64>, %c: tensor<2xf32>):
    dlc.yield %c, %c : tensor<2xf32>, tensor<2xf32>
  } {trips = 2 : i64}
  return %r : tensor<2xf32>
}

// -----

func.func @loop_carried_type(%v: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.loop' op carried value 0 is 'tensor<2xf32>' but the body yields 'tensor<1x2xf32>' and the result is 'tensor<2xf32>'}}
  %r = dlc.loop carried(%v : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%t: tensor<1xi64>, %c: tensor<2xf32>):
    %d = dlc.reshape %c : tensor<2xf32> -> tensor<1x2xf32>
    dlc.yield %d : tensor<1x2xf32>
  } {trips = 2 : i64}
  return %r : tensor<2xf32>
}

// -----

func.func @loop_scan_output(%v: tensor<2xf32>) -> tensor<3x2xf32> {
  // expected-error @+1 {{'dlc.loop' op scan output 0 yields rows 'tensor<1x2xf32>', stacked as 'tensor<2x1x2xf32>', not 'tensor<3x2xf32>'}}
  %r = dlc.loop -> tensor<3x2xf32> {
  ^bb0(%t: tensor<1xi64>):
    %d = dlc.constant dense<1.0> : tensor<1x2xf32>
    dlc.yield %d : tensor<1x2xf32>
  } {trips = 2 : i64}
  return %r : tensor<3x2xf32>
}

// -----

func.func @loop_copy_inside(%v: tensor<2xf32>) -> tensor<2xf32> {
  %r = dlc.loop carried(%v : tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%t: tensor<1xi64>, %c: tensor<2xf32>):
    // expected-error @+1 {{'dlc.copy' op cannot be inside a dlc.loop (a loop's body holds dlc compute ops)}}
    %d = dlc.copy %c to cuda:0 : tensor<2xf32>
    dlc.yield %d : tensor<2xf32>
  } {trips = 2 : i64}
  return %r : tensor<2xf32>
}

// -----

func.func @loop_dynamic_shape(%v: tensor<?x2xf32>) -> tensor<?x2xf32> {
  // expected-error @+1 {{'dlc.loop' op needs static shapes, not 'tensor<?x2xf32>'}}
  %r = dlc.loop carried(%v : tensor<?x2xf32>) -> tensor<?x2xf32> {
  ^bb0(%t: tensor<1xi64>, %c: tensor<?x2xf32>):
    dlc.yield %c : tensor<?x2xf32>
  } {trips = 2 : i64}
  return %r : tensor<?x2xf32>
}

// -----

func.func @loop_too_few_results(%v: tensor<2xf32>, %w: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error @+1 {{'dlc.loop' op has fewer results than carried values}}
  %r = dlc.loop carried(%v, %w : tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%t: tensor<1xi64>, %c: tensor<2xf32>, %d: tensor<2xf32>):
    dlc.yield %c : tensor<2xf32>
  } {trips = 2 : i64}
  return %r : tensor<2xf32>
}
